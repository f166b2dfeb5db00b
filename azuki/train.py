"""azuki.train — `python -m azuki train`: PPO (PufferLib's PuffeRL) on AzukiEnv
with a small self-play league (docs/training.md).

The learner plays `envs` AzukiEnvs (mode "policy", pufferlib Serial), each an
opponent slot. The league's pool holds the built-in bots (random, greedy)
and frozen snapshots of the learner taken every `snapshot_steps` agent-steps. After
each PPO epoch every slot draws its next opponent by prioritized fictitious
self-play: weight (1 - the learner's recent win rate against it) ** power +
floor, so opponents the learner does not beat yet come up most. Each
finished game updates an online Elo table (learner, bots, snapshots) shown
in the progress line; `python -m azuki eval` fits Elo properly afterwards.
The snapshot opponents of all slots are answered together, one forward per
snapshot and round (azuki.envs.puffer.play_opponents), and PuffeRL samples
with azuki.sampler's masked sampler (installed for the run). Everything that
reaches into PuffeRL's internals (its import-time SIGINT handler, dashboard,
utilization thread, sample_logits, Serial.send) lives in
azuki.envs.pufferl_adapter, checked against the pufferlib it was verified
with before any work.
[expert] (off by default) alternates PPO with rounds of search labels
distilled into the learner (azuki.expert; docs/training.md "Expert iteration").
[league] target (off by default) replaces the league by one frozen policy,
played in C at its most likely legal action: the learner is a best response
to it (azuki.exploit; docs/training.md "Exploitability").

Budgets: `--minutes` (wall clock of the loop) and/or `--steps` (agent
steps); Ctrl-C saves a checkpoint and exits cleanly (PuffeRL's own SIGINT
handler, undone by the adapter, would exit without saving). Checkpoints (azuki.policy): a plain
torch state dict + JSON config with the hashes of the observation layout,
card set and action space; `--resume DIR` continues a run (weights,
optimizer, league, curve). With the Serial backend the same seed gives the
same run on the same machine and thread count (torch CPU kernels); a wall
clock budget is the one source of difference (where the run stops; use
--steps for identical checkpoints).
"""
from __future__ import annotations

import copy
import json
import math
import os
import signal
import sys
import time
import tomllib
import warnings
from pathlib import Path

import numpy as np

from .ratings import elo_update

DEFAULT_CONFIG = Path(__file__).resolve().parent / "data" / "train.toml"


# ---- configuration ---------------------------------------------------------------------------------------

def _config_layers(path, seen=()):
    """[(path, table)] of a config file and the files it builds on, the
    deepest first: a top-level `base = "OTHER.toml"` (relative to the file)
    applies OTHER first, so a recipe states only what it changes."""
    with open(path, "rb") as f:
        user = tomllib.load(f)
    parent = user.pop("base", None)
    if parent is None:
        return [(path, user)]
    if not isinstance(parent, str):
        raise ValueError(f"config {path}: base must be a file name, got {parent!r}")
    where = os.path.realpath(os.path.join(os.path.dirname(path), parent))
    if where in seen or where == os.path.realpath(path):
        raise ValueError(f"config {path}: base {parent!r} builds on itself")
    return _config_layers(where, seen + (os.path.realpath(path),)) + [(path, user)]


def load_config(path=None, overrides=(), base=None):
    """The default config (azuki/data/train.toml), updated from `base` (a
    resumed run's config: its known keys), from `path` (a TOML file of the
    same shape, optionally building on another: _config_layers) and from
    `overrides` ("section.key=value", value parsed as TOML, else taken as a
    string)."""
    with open(DEFAULT_CONFIG, "rb") as f:
        cfg = tomllib.load(f)
    for sec, vals in (base or {}).items():
        if sec in cfg and isinstance(vals, dict):
            cfg[sec].update({k: v for k, v in vals.items() if k in cfg[sec]})
    for layer, user in _config_layers(path) if path else ():
        for sec, vals in user.items():
            if sec not in cfg or not isinstance(vals, dict):
                raise ValueError(f"config {layer}: unknown section [{sec}] (known: {', '.join(cfg)})")
            for k, v in vals.items():
                if k not in cfg[sec]:
                    raise ValueError(f"config {layer}: unknown key {sec}.{k}")
                cfg[sec][k] = v
    for item in overrides:
        if "=" not in item or "." not in item.split("=", 1)[0]:
            raise ValueError(f"--set takes section.key=value, got {item!r}")
        key, text = item.split("=", 1)
        sec, k = key.split(".", 1)
        if sec not in cfg or k not in cfg[sec]:
            raise ValueError(f"--set: unknown key {key!r}")
        try:
            v = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            v = text
        cfg[sec][k] = v
    return cfg


def _puffer_config(cfg, device, data_dir, agents):
    """PuffeRL's config dict (its [train] keys), from ours."""
    p = cfg["ppo"]
    horizon = int(p["bptt_horizon"])
    batch = agents * horizon
    mini = min(int(p["minibatch_size"]), batch)
    mini -= mini % horizon
    return dict(
        env="azuki", name="azuki", project="azuki", seed=int(cfg["run"]["seed"]), torch_deterministic=True,
        cpu_offload=False, device=device, optimizer=p["optimizer"], anneal_lr=_anneal_steps(cfg) is not None,
        precision="float32", total_timesteps=_anneal_total(cfg, batch), learning_rate=float(p["learning_rate"]),
        gamma=float(p["gamma"]), gae_lambda=float(p["gae_lambda"]), update_epochs=int(p["update_epochs"]),
        clip_coef=float(p["clip_coef"]), vf_coef=float(p["vf_coef"]), vf_clip_coef=float(p["vf_clip_coef"]),
        max_grad_norm=float(p["max_grad_norm"]), ent_coef=float(p["ent_coef"]), adam_beta1=0.9, adam_beta2=0.999,
        adam_eps=1e-8, data_dir=str(data_dir), checkpoint_interval=10 ** 9, batch_size=batch,
        minibatch_size=max(horizon, mini), max_minibatch_size=max(horizon, mini), bptt_horizon=horizon,
        compile=False, compile_mode="default", compile_fullgraph=False, vtrace_rho_clip=1.0, vtrace_c_clip=1.0,
        prio_alpha=0.0, prio_beta0=1.0, use_rnn=False)


def _anneal_steps(cfg):
    """The agent-steps ppo.anneal_lr decays the learning rate over (PuffeRL's cosine schedule, to 0 at
    the end): the run's step budget; None when anneal_lr is off or the run has a wall-clock budget
    only (then the same cosine runs over its minutes: _time_anneal). A run with neither budget
    cannot anneal (its end is not known): refused before any work."""
    if not cfg["ppo"]["anneal_lr"]:
        return None
    steps = int(cfg["run"]["steps"])
    if steps > 0:
        return steps
    if float(cfg["run"]["minutes"]) > 0:
        return None
    raise ValueError("ppo.anneal_lr needs a budget (--steps N or --minutes M): the learning rate decays to 0 "
                     "over it")


def _time_anneal(cfg):
    """The configured learning rate when ppo.anneal_lr decays over the wall-clock budget (anneal_lr
    on, no step budget, a minutes budget); None otherwise."""
    if cfg["ppo"]["anneal_lr"] and int(cfg["run"]["steps"]) <= 0 and float(cfg["run"]["minutes"]) > 0:
        return float(cfg["ppo"]["learning_rate"])
    return None


def time_annealed_lr(lr, elapsed_s, budget_s):
    """The cosine of ppo.anneal_lr over a wall-clock budget: lr at 0 s, lr / 2 halfway, 0 at the end
    (PuffeRL's CosineAnnealingLR over epochs, with the budget's elapsed fraction for the epoch's)."""
    frac = min(1.0, max(0.0, elapsed_s / budget_s))
    return lr * 0.5 * (1.0 + math.cos(math.pi * frac))


def _resume_schedule(trainer, cfg, steps0):
    """A resumed run's learning rate where the schedule had it: the cosine of ppo.anneal_lr at
    steps0 (the epochs done), recomputed from the configured rate (the optimizer state holds the
    last epoch's value, which the scheduler's recursive form would anneal twice)."""
    if _anneal_steps(cfg) is None or steps0 <= 0:
        return
    for g in trainer.optimizer.param_groups:
        g["lr"] = g["initial_lr"] = float(cfg["ppo"]["learning_rate"])
    sched = trainer.scheduler
    sched.base_lrs = [float(cfg["ppo"]["learning_rate"])] * len(trainer.optimizer.param_groups)
    batch = int(trainer.config["batch_size"])
    with warnings.catch_warnings():       # "scheduler.step() before optimizer.step()": replaying, on purpose
        warnings.simplefilter("ignore")
        for _ in range(int(steps0) // batch):
            sched.step()


def _anneal_total(cfg, batch):
    """PuffeRL's total_timesteps: its cosine schedule runs over total_timesteps // batch epochs, so the
    step budget rounded up to whole epochs (the run's last epoch is the schedule's last); 10 ** 12
    (no schedule to speak of) when anneal_lr is off."""
    steps = _anneal_steps(cfg)
    return 10 ** 12 if steps is None else -(-steps // batch) * batch


# ---- the league ----------------------------------------------------------------------------------------------

def check_eval_steps(v):
    """eval.steps as an int >= 0 (0: curve points by eval.minutes), else ValueError."""
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError(f"eval.steps must be a whole number of agent-steps >= 0 (0: every eval.minutes), got {v!r}")
    return v


def check_bot_share(v):
    """league.bot_share as a float in [0, 1], else ValueError."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= float(v) <= 1.0:
        raise ValueError(f"league.bot_share must be a number in [0, 1], got {v!r}")
    return float(v)


class League:
    """Opponent pool (bots + snapshots), recent results, PFSP sampling and an
    online Elo table."""

    def __init__(self, cfg, rng):
        lc = cfg["league"]
        self.target = str(lc.get("target") or "")     # a frozen policy as the only opponent (best response)
        self.bots = [] if self.target else list(lc["opponents"])
        self.pool_size, self.power, self.floor = int(lc["pool_size"]), float(lc["pfsp_power"]), float(lc["pfsp_floor"])
        self.window, self.k = int(lc["window"]), float(lc["elo_k"])
        self.bot_share = check_bot_share(lc["bot_share"])
        self.snapshots = {}        # name -> frozen policy
        self.order = []            # snapshot names, oldest first
        self.fixed = {}            # name -> CPolicy: frozen opponents given at the start (never evicted or saved)
        self.recent = {b: [] for b in self.bots}   # name -> list of learner scores (1, 0.5, 0)
        self.elo = {"learner": 0.0, **{b: 0.0 for b in self.bots}}
        self.games = {}
        self.made = 0              # snapshots taken so far (names stay unique)
        self.rng = rng

    def names(self):
        return self.bots + list(self.fixed) + self.order

    @property
    def anchor(self):
        """The rating the online Elo is shown against: random when it plays, else the first built-in
        bot (a league without random, as make run's), else the learner's starting rating."""
        return "random" if "random" in self.bots else (self.bots[0] if self.bots else "start")

    def rating(self):
        """The learner's online Elo minus the anchor's."""
        return self.elo["learner"] - self.elo.get(self.anchor, 0.0)

    def add_fixed(self, name, cpolicy):
        self.fixed[name] = cpolicy
        self.recent.setdefault(name, [])
        self.elo.setdefault(name, 0.0)

    def rate(self, name):
        r = self.recent.get(name) or []
        return sum(r) / len(r) if r else None

    def add_snapshot(self, name, policy):
        self.snapshots[name] = policy
        self.order.append(name)
        self.recent[name] = []
        self.elo[name] = self.elo["learner"]
        while len(self.order) > self.pool_size:
            old = self.order.pop(0)
            self.snapshots.pop(old, None)

    def sample(self):
        """An opponent's name: with probability bot_share (when > 0) drawn among the built-in bots alone, else
        among the whole pool; by PFSP weights either way."""
        names = self.names()
        if self.bot_share > 0 and self.bots and self.rng.random() < self.bot_share:
            names = list(self.bots)
        w = np.array([(1.0 - (self.rate(n) if self.rate(n) is not None else 0.5)) ** self.power + self.floor
                      for n in names])
        return names[int(self.rng.choice(len(names), p=w / w.sum()))]

    def record(self, name, wins, losses, draws):
        rec = self.recent.setdefault(name, [])
        rec.extend([1.0] * wins + [0.0] * losses + [0.5] * draws)
        del rec[:-self.window]
        self.games[name] = self.games.get(name, 0) + wins + losses + draws
        # online Elo: one update per game, learner against the opponent
        for score in [1.0] * wins + [0.0] * losses + [0.5] * draws:
            elo_update(self.elo, "learner", name, score, self.k)

    def state(self):
        return {"order": list(self.order), "recent": self.recent, "elo": self.elo, "games": self.games,
                "made": self.made}


# ---- the training run ------------------------------------------------------------------------------------------

def _device(want):
    import torch
    if want == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return want


class TrainError(RuntimeError):
    """A training run that cannot go on (its message is one line)."""


def resume_checkpoint(resume):
    """The checkpoint a `--resume PATH` names: a run directory's
    checkpoint/latest, or a checkpoint path."""
    rp = Path(resume)
    return rp / "checkpoint" / "latest" if rp.is_dir() else rp


def resume_run_dir(resume):
    """The run directory a resume continues in (without --out): PATH itself, or
    the run holding the checkpoint PATH (RUN/checkpoint/NAME); None when the
    checkpoint is not inside a run directory."""
    rp = Path(resume)
    if rp.is_dir():
        return rp
    parent = rp.resolve().parent
    return parent.parent if parent.name == "checkpoint" else None


def train(cfg, out, resume=None, quiet=False, log=print):
    """Run the training described by `cfg` into directory `out`; returns the
    summary dict (also written to out/summary.json). `resume`: a run directory
    or a checkpoint to continue (weights, optimizer, league with its
    snapshots, curve, step count); `out` may be that run's directory (the
    usual case) or a new one (the league's snapshots are copied along)."""
    import torch

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    run = cfg["run"]
    seed = int(run["seed"])
    device = _device(run["device"])
    if device == "cpu":
        torch.set_num_threads(int(run["threads"]) or os.cpu_count() or 1)
    torch.manual_seed(seed)
    np_rng = np.random.default_rng(seed)
    try:
        return _train(cfg, out, resume, quiet, log, device, seed, np_rng)
    finally:
        from .envs.pufferl_adapter import stop_utilization_threads
        stop_utilization_threads()       # whatever failed, no thread may keep the process alive


TARGET = "target"     # the league's name for [league] target
INTERRUPTED = "interrupted (Ctrl-C)"


def target_policy(spec):
    """The CPolicy of a [league] target spec: a checkpoint the policy bots read
    (``reference``, NAME.azkw, NAME.json / .npz / .pt; azuki.bots.parse_pbot_spec)
    with no settings; CheckpointError / ValueError naming what is wrong."""
    from .bots import parse_pbot_spec
    from .policy_np import cpolicy_for
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"league.target must name a checkpoint, got {spec!r}")
    _, path, settings = parse_pbot_spec(f"policy:{spec}")
    if settings:
        raise ValueError(f"league.target {spec!r}: a checkpoint without settings (it plays its most likely "
                         f"legal action)")
    return cpolicy_for(path)


def _kickstart(cfg, policy, seed, log, prefetch=None, imitation=None):
    """[kickstart]: fit a fresh policy to a built-in bot's decisions before
    PPO (azuki.distill); a resumed run never repeats it. Records what it did
    in cfg["kickstart"]["result"] (saved with the config and the summary).
    Then [expert]'s round 0 (search labels distilled, azuki.expert) when it is
    on, its labels made during the kickstart by `prefetch` (an expert.Prefetch)
    where it can; returns the list of expert rounds done (checkpointed by the loop)."""
    ks = cfg["kickstart"]
    n = int(ks["decisions"])
    ex = _expert_config(cfg)        # a bad [expert] is refused before any work
    rounds = []
    if n <= 0 and ex is None:
        return rounds
    from . import distill
    import threading
    if n > 0:
        distill.parse_teacher(ks["teacher"])        # a bad teacher is refused before any work
        if not isinstance(ks["threads"], int) or ks["threads"] < 1:
            raise ValueError(f"kickstart.threads must be an integer >= 1, got {ks['threads']!r}")
    # Ctrl-C here raises (the loop's own handler is not up yet), so `azuki train` says so and exits 130 (nothing
    # was saved yet); installed explicitly, so this holds where the caller ignores SIGINT (nohup).
    main = threading.current_thread() is threading.main_thread()
    prev = signal.signal(signal.SIGINT, signal.default_int_handler) if main else None
    try:
        if ex is not None and prefetch is not None:
            prefetch.start(0)         # round 0's labels on the other core while the kickstart plays and fits
        if n > 0:
            _kickstart_fit(cfg, policy, seed, log, distill)
        if ex is not None:        # [expert]: the round before PPO (round 0)
            rounds.append(_expert_round(cfg, policy, seed, 0, log, prefetch, imitation))
    except KeyboardInterrupt:
        raise KickstartInterrupted("train: interrupted during the kickstart, before PPO began (nothing was saved)") \
            from None
    finally:
        if main:
            signal.signal(signal.SIGINT, prev if prev is not None else signal.SIG_DFL)
    return rounds


def _expert_config(cfg):
    """[expert] checked (azuki.expert.check_config), or None when it is off (decisions = 0)."""
    ex = cfg.get("expert")
    if not ex or int(ex.get("decisions", 0)) <= 0:
        return None
    from . import expert
    return expert.check_config(ex)


def _pairings(cfg):
    """The run's deck pairings as tuples (each played from both seats)."""
    return [tuple(p) for p in cfg["env"]["pairings"]]


def _expert_round(cfg, policy, seed, mark, log, prefetch=None, imitation=None):
    """One [expert] label round (azuki.expert.run_round) on the run's pairings and gamma; its labels
    become `imitation`'s (an expert.Imitation) when there is one."""
    from . import expert
    return expert.run_round(cfg["expert"], policy, seed, mark, _pairings(cfg),
                            float(cfg["ppo"]["gamma"]), log=log, prefetch=prefetch, imitation=imitation,
                            fit_threads=cfg["ppo"]["learner_threads"])


def _expert_imitation(cfg, seed):
    """An azuki.expert.Imitation (the imitation term during PPO) when [expert] is on with an
    imitation_weight > 0, else None."""
    ex = _expert_config(cfg)
    if ex is None or float(ex["imitation_weight"]) <= 0:
        return None
    from . import expert
    return expert.Imitation(ex, seed)


def _imitation_resumed(cfg, imitation, seed, steps, log):
    """A resumed run whose imitation still weighs at `steps`: the latest round's labels made again
    (the same bytes: a search teacher's labels depend on the round's seed alone)."""
    if imitation is None or imitation.weight(steps) <= 0:
        return
    from . import expert
    ex = _expert_config(cfg)
    mark = expert.round_mark(ex, steps)
    t0 = time.perf_counter()
    data = expert.label_dataset(int(ex["decisions"]), ex["teacher"], pairings=_pairings(cfg),
                                seed=expert.round_seed(seed, mark), gamma=float(cfg["ppo"]["gamma"]),
                                threads=int(ex["threads"]), topk=int(ex["topk"]))
    imitation.set_labels(data, mark)
    log(f"resume: the imitation term's labels (expert round {mark}) made again in {time.perf_counter() - t0:.1f} s")


def _due_near_end(ex, mark, steps, steps0, train_s, budget_s, budget_steps):
    """Whether round `mark` will come due in the budget's quiet end (expert.near_end), at this
    invocation's agent-steps rate so far: then its labels are not made ahead (the background work
    would be thrown away; were the guess wrong, the round makes its labels in the foreground: the
    same labels)."""
    from .expert import near_end
    due = int(mark) * int(ex["every_steps"])
    rate = (int(steps) - int(steps0)) / train_s if train_s > 0 and steps > steps0 else 0.0
    eta = train_s + (due - int(steps)) / rate if rate > 0 else train_s
    return near_end(ex, eta, budget_s, due, budget_steps)


def _expert_prefetch(cfg, seed):
    """An azuki.expert.Prefetch for the run's [expert] rounds, or None when [expert] is off."""
    ex = _expert_config(cfg)
    if ex is None:
        return None
    from . import expert
    return expert.Prefetch(ex, seed, _pairings(cfg), float(cfg["ppo"]["gamma"]))


class KickstartInterrupted(KeyboardInterrupt):
    """Ctrl-C during the kickstart (its message is the line `azuki train` prints)."""


def _kickstart_fit(cfg, policy, seed, log, distill):
    ks = cfg["kickstart"]
    n = int(ks["decisions"])
    t0 = time.perf_counter()
    data = distill.teacher_dataset(n, ks["teacher"], pairings=_pairings(cfg),
                                   seed=seed, gamma=float(cfg["ppo"]["gamma"]), threads=int(ks["threads"]))
    t1 = time.perf_counter()
    log(f"kickstart: {n:,} {ks['teacher']} decisions from {data['games']:,} games in {t1 - t0:.1f} s")
    r = distill.fit(policy, data, epochs=int(ks["epochs"]), batch=int(ks["batch"]), lr=float(ks["learning_rate"]),
                    vf_coef=float(ks["vf_coef"]), seed=seed, log=log, threads=cfg["ppo"]["learner_threads"])
    t2 = time.perf_counter()
    log(f"kickstart: fitted in {t2 - t1:.1f} s; the policy's most likely action is the teacher's on "
        f"{100 * r['agreement']:.1f}% of its decisions")
    ks["result"] = {"games": data["games"], "data_seconds": round(t1 - t0, 2), "fit_seconds": round(t2 - t1, 2),
                    "policy_loss": round(r["policy_loss"], 4), "value_loss": round(r["value_loss"], 4),
                    "agreement": round(r["agreement"], 4)}


def _train(cfg, out, resume, quiet, log, device, seed, np_rng):
    """train() from the resume to the trainer's end: the PuffeRL trainer, the
    envs and any expert round labelled ahead are closed on every path out."""
    from .envs import pufferl_adapter as adapter
    adapter.import_pufferl()     # an incompatible pufferlib is refused here, before any work
    target = target_policy(cfg["league"]["target"]) if cfg["league"].get("target") else None   # refused before work
    _anneal_steps(cfg)                         # anneal_lr without any budget is refused before any work
    from .learner_threads import check_threads
    from .weight_average import check_fraction
    check_threads(cfg["ppo"]["learner_threads"])    # a bad thread count is refused before any work
    check_bot_share(cfg["league"]["bot_share"])
    check_fraction(cfg["ppo"]["average_last"])
    check_eval_steps(cfg["eval"]["steps"])
    if not isinstance(cfg["policy"]["privileged"], bool):
        raise ValueError(f"policy.privileged must be true or false, got {cfg['policy']['privileged']!r}")
    if not isinstance(cfg["ppo"]["c_rollout"], bool):
        raise ValueError(f"ppo.c_rollout must be true or false, got {cfg['ppo']['c_rollout']!r}")
    prefetch = _expert_prefetch(cfg, seed)     # a bad [expert] is refused here, before any work
    imitation = _expert_imitation(cfg, seed)
    try:
        return _train_from(cfg, out, resume, quiet, log, device, seed, np_rng, target, prefetch, imitation)
    finally:
        if prefetch is not None:
            prefetch.cancel()        # a round labelled ahead for a step the run did not reach


def _train_from(cfg, out, resume, quiet, log, device, seed, np_rng, target, prefetch, imitation=None):
    import torch
    import pufferlib.vector as pv

    from .envs import pufferl_adapter as adapter
    from .envs.puffer import AzukiEnv, batched_serial
    from .policy_np import CPolicyPlayer
    from .policy import CheckpointError, load_checkpoint, make_policy, open_checkpoint
    from .weight_average import WeightAverage

    env_cfg = cfg["env"]
    arch, hidden = cfg["policy"]["arch"], int(cfg["policy"]["hidden"])
    privileged = cfg["policy"]["privileged"]
    curve, steps0, minutes0, league_state, opt_state, expert_rounds = [], 0, 0.0, None, None, []
    average = WeightAverage(cfg["ppo"]["average_last"], int(cfg["run"]["steps"]) or None)
    ck_dir = out / "checkpoint"
    src_dir = ck_dir            # where the league's snapshots are read from
    if resume:
        ck = resume_checkpoint(resume)
        loaded, meta, files, js, skipped = open_checkpoint(ck, map_location=device)
        for why in skipped:
            log(f"resume: skipped {why}")
        m_arch, m_hidden = meta.get("arch", "structured"), meta.get("model", {}).get("hidden")
        m_priv = bool(meta.get("model", {}).get("privileged", False))
        if (m_arch, m_hidden, m_priv) != (arch, hidden, privileged):
            raise CheckpointError(f"resume: {js} holds a {m_arch} policy with hidden={m_hidden}, privileged={m_priv}, "
                                  f"the config asks for {arch} with hidden={hidden}, privileged={privileged} (drop "
                                  f"the --set / --arch that changes it)")
        policy = loaded.to(device)
        ex = meta.get("extra", {})
        curve, steps0, minutes0 = ex.get("curve", []), int(ex.get("steps", 0)), float(ex.get("minutes", 0.0))
        league_state = ex.get("league")
        expert_rounds = list(ex.get("expert", []))
        if "optimizer" in files:
            opt_state = torch.load(files["optimizer"], map_location=device, weights_only=True)
        else:
            log(f"resume: {js} has no optimizer state; the optimizer starts fresh")
        if "average" in files:          # the running sum of ppo.average_last, saved mid-window
            why = average.load(torch.load(files["average"], map_location="cpu", weights_only=True))
            if why:
                log(f"resume: {js}: {why}")
        src_dir = Path(js).parent
        log(f"resumed from {js}: {steps0:,} steps, {minutes0:.1f} min")
        _imitation_resumed(cfg, imitation, seed, steps0, log)
    else:
        policy = make_policy(arch, hidden=hidden, privileged=privileged).to(device)
        expert_rounds = _kickstart(cfg, policy, seed, log, prefetch, imitation)
        if policy.priv is not None:     # the privileged value starts as the (kickstarted) player's value
            policy.priv.start_from(policy.critic)
    policy.train()

    league = League(cfg, np_rng)
    if target is not None:
        league.add_fixed(TARGET, target)
    if league_state:
        league.elo.update(league_state.get("elo", {}))
        league.games.update(league_state.get("games", {}))
        league.made = int(league_state.get("made", len(league_state.get("order", []))))
        for name in league_state.get("order", []):
            try:
                league.add_snapshot(name, load_checkpoint(src_dir / name)[0])
            except Exception as e:        # CheckpointError: said, never silent
                log(f"resume: league snapshot {name} unavailable, left out of the pool ({e})")
        for k, v in league_state.get("recent", {}).items():
            league.recent[k] = list(v)

    n_envs, games = int(env_cfg["envs"]), int(env_cfg["games_per_env"])
    pairings = _pairings(cfg)
    vec = pv.make(AzukiEnv, backend=batched_serial(), num_envs=n_envs,
                  env_kwargs=dict(num_envs=games, mode="policy", opponent=(league.bots or ["random"])[0],
                                  pairings=pairings,
                                  report_interval=1 << 30, threads=int(env_cfg["threads"]),
                                  privileged=privileged))
    trainer = None
    try:
        for k, env in enumerate(vec.envs):
            env.stream = k
            if target is not None:        # from the first reset on (PuffeRL's constructor resets)
                env.set_opponent(CPolicyPlayer(target, greedy=True, name=TARGET), name=TARGET)
            else:
                env.set_opponent(league.bots[k % len(league.bots)])
        pcfg = _puffer_config(cfg, device, out / "puffer", vec.num_agents)
        # our own progress line instead of its screen; the update split across ppo.learner_threads threads
        # and, with ppo.c_rollout, the learner acting in C in each rollout (azuki.envs.crollout)
        trainer = adapter.make_trainer(pcfg, vec, policy, learner_threads=cfg["ppo"]["learner_threads"],
                                       c_rollout=cfg["ppo"]["c_rollout"])
        if opt_state is not None:
            trainer.optimizer.load_state_dict(opt_state)
        _resume_schedule(trainer, cfg, steps0)
        trainer.global_step = steps0
        with adapter.masked_sampling():      # PuffeRL samples with azuki.sampler (its own is back afterwards)
            return _loop(cfg, out, ck_dir, trainer, vec, policy, league, curve, steps0, minutes0, quiet, log, seed, np_rng,
                         average, expert_rounds, prefetch, imitation)
    finally:
        if trainer is not None:
            adapter.stop_trainer(trainer)      # its thread is not a daemon: the process would hang otherwise
        try:
            vec.close()
        except Exception:
            pass


def _loop(cfg, out, ck_dir, trainer, vec, policy, league, curve, steps0, minutes0, quiet, log, seed, np_rng,
          average, expert_rounds=None, prefetch=None, imitation=None):
    """The training loop, its saves and the summary. `average`: ppo.average_last's WeightAverage
    (azuki.weight_average; off when its fraction is 0): the weights after each update of the budget's
    last stretch are summed, and their mean becomes the learner's when the run ends at its budget."""
    from .evaluate import evaluate
    from .policy import PolicyPlayer, save_checkpoint
    from .policy_np import CPolicyPlayer, _test_kill, checkpoint_exists
    from .weight_average import progress
    run = cfg["run"]
    arch = cfg["policy"]["arch"]
    stop = {"why": None}

    def on_sigint(sig, frame):
        stop["why"] = INTERRUPTED

    c_snaps = {}             # snapshot name -> its CPolicy (exported once, in memory, from the frozen torch policy)

    def assign_opponents():
        """A snapshot plays in C (CPolicyPlayer: forward and keyed sample inside each env's VecGame,
        play_opponents), picking the actions its torch PolicyPlayer would for the same keys
        (tests/envs/test_cpolicy_torch.py)."""
        players = {}         # one player per snapshot per assignment (its seed drawn as before)
        for old in [k for k in c_snaps if k not in league.snapshots]:
            del c_snaps[old]
        for env in vec.envs:
            name = league.sample()
            if name in league.fixed and name not in players:     # [league] target: its most likely action
                sd = int(np_rng.integers(1 << 62))
                players[name] = CPolicyPlayer(league.fixed[name], greedy=True, seed=sd, name=name)
            elif name not in league.bots and name not in players:
                if name not in c_snaps:
                    c_snaps[name], why = c_forward(league.snapshots[name])
                    if why:     # a network the C forward does not know: torch plays it
                        log(f"league: snapshot {name} plays in torch (no C forward for it: {why})")
                sd = int(np_rng.integers(1 << 62))
                players[name] = (CPolicyPlayer(c_snaps[name], seed=sd, name=name) if c_snaps[name] is not None
                                 else PolicyPlayer(league.snapshots[name], seed=sd, name=name))
            env.set_opponent(players.get(name, name), name=name)

    def save(tag="latest"):
        return _off_the_rollouts_generator(_save, tag)

    def _save(tag):
        """Snapshots first (the league named in latest.json must be on disk when
        it commits), then the learner with its optimizer state (one commit:
        latest.json), then the numpy copy for `play`."""
        try:
            for name, snap in league.snapshots.items():
                if not checkpoint_exists(ck_dir / name):
                    save_checkpoint(ck_dir / name, snap, arch=arch)
                    _test_kill("save.snapshot")
            extra = {"steps": int(trainer.global_step), "minutes": minutes0 + (time.time() - t0) / 60,
                     "curve": curve, "league": league.state(), "seed": seed, "expert": expert_rounds}
            js = save_checkpoint(ck_dir / tag, policy, arch=arch, train_config=cfg, extra=extra,
                                 optimizer=trainer.optimizer, average=average.state())
            if tag == "latest":   # a numpy copy for `python -m azuki play` (no torch there): out/play.{npz,json}
                from .policy import export_checkpoint
                export_checkpoint(js, out / "play")
                _test_kill("save.exported")
        except Exception as e:
            raise TrainError(f"saving the checkpoint in {ck_dir} failed: {_one_line(e)}") from e
        return js

    def curve_point():
        return _off_the_rollouts_generator(_curve_point)

    def _curve_point():
        e = cfg["eval"]
        point = {"steps": int(trainer.global_step), "minutes": round(minutes0 + (time.time() - t0) / 60, 3),
                 "elo": round(league.rating(), 1), "elo_vs": league.anchor}
        policy.eval()
        learner = learner_player(policy, bool(e["greedy"]), seed + len(curve))
        for bot in e["bots"]:
            r = evaluate(learner, bot, games=int(e["games"]), seed=seed + 7919 * len(curve), n=128)
            point[f"vs_{bot}"] = r["win_rate"]["rate"]
        if league.target:            # the target as `azuki eval` plays it: policy:SPEC, its most likely action
            r = evaluate(learner, f"policy:{league.target}", games=int(e["games"]), seed=seed + 7919 * len(curve),
                         n=128)
            point[f"vs_{TARGET}"] = r["win_rate"]["rate"]
        policy.train()
        curve.append(point)
        return point

    t0 = time.time()
    budget_s = float(run["minutes"]) * 60 if float(run["minutes"]) > 0 else math.inf
    budget_steps = int(run["steps"]) if int(run["steps"]) > 0 else None
    last_log = last_ck = last_eval = t0
    snap_every = int(cfg["league"]["snapshot_steps"])       # 0: a snapshot after every epoch
    if snap_every < 0:
        raise ValueError(f"league.snapshot_steps must be >= 0, got {snap_every}")
    # snapshots at multiples of snap_every agent-steps: a resumed run keeps the cadence without extra state
    snap_mark = int(trainer.global_step) // snap_every if snap_every else -1
    # curve points at multiples of eval.steps agent-steps when set (the same points on any machine: a step-budget
    # run's curve is as reproducible as its weights), else every eval.minutes of wall clock
    eval_every = int(cfg["eval"]["steps"])
    eval_mark = int(trainer.global_step) // eval_every if eval_every else None
    # [expert] label rounds at multiples of every_steps agent-steps, from the step count alone (as the snapshots)
    expert_rounds = [] if expert_rounds is None else expert_rounds
    ex_cfg = _expert_config(cfg)
    ex_mark = None
    if ex_cfg is not None and int(ex_cfg["every_steps"]) > 0:
        from .expert import near_end, round_mark
        ex_mark = round_mark(ex_cfg, trainer.global_step)
        if prefetch is not None:
            prefetch.start(ex_mark + 1)         # the next round's labels on the other core during PPO
    eval_time = 0.0
    last_losses = {}
    lr_time = _time_anneal(cfg)
    ep_stats = [0.0, 0.0]           # episodes, summed lengths (decisions of both seats) since the last line
    prev_sigint = signal.signal(signal.SIGINT, on_sigint)
    try:
        if not curve:
            if league.target:        # the fresh learner, kept: the exploitability baseline (azuki.exploit)
                save("start")
            te = time.time()
            curve_point()
            eval_time += time.time() - te
        c_refusal_logged = False
        while True:
            assign_opponents()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                trainer.evaluate()
                crollout = getattr(trainer.evaluate, "crollout", None)
                if crollout is not None and crollout.refused is not None and not c_refusal_logged:
                    log(f"ppo.c_rollout: the learner acts in torch (no C forward for it: {crollout.refused})")
                    c_refusal_logged = True
                if imitation is not None and imitation.active(trainer.global_step):
                    imitation.begin(trainer.global_step)      # each minibatch's loss gains the imitation term
                    policy.extra_loss = imitation
                if lr_time is not None:       # ppo.anneal_lr over the wall-clock budget (this invocation's)
                    lr_now = time_annealed_lr(lr_time, time.time() - t0 - eval_time, budget_s)
                    for g in trainer.optimizer.param_groups:
                        g["lr"] = lr_now
                try:
                    trainer.train()
                finally:
                    policy.extra_loss = None               # never copied into a snapshot or saved
                losses = trainer.losses
            _test_kill("train.epoch")
            for env in vec.envs:
                for name, (w, l, d) in env.take_results().items():
                    league.record(name, w, l, d)
                ep = env.log()
                if ep:
                    ep_stats[0] += ep["n"]
                    ep_stats[1] += ep["n"] * ep["episode_length"]
            now = time.time()
            train_s = now - t0 - eval_time
            if average.due(progress(trainer.global_step, budget_steps, train_s, budget_s)):
                average.add(policy, trainer.global_step)
            mark = int(trainer.global_step) // snap_every if snap_every else snap_mark + 1
            if mark > snap_mark:
                if not league.target:                # a best response ([league] target) meets the target alone
                    league.made += 1                     # unique names: snapshot number and agent-steps
                    name = f"snap{league.made}-{int(trainer.global_step) // 1000}k"
                    league.add_snapshot(name, copy.deepcopy(policy).eval())
                snap_mark = mark
            if ex_mark is not None and round_mark(ex_cfg, trainer.global_step) > ex_mark:
                ex_mark = round_mark(ex_cfg, trainer.global_step)
                if near_end(ex_cfg, train_s, budget_s, trainer.global_step, budget_steps):
                    # the budget's last stretch is PPO only (expert.quiet_end); it only gets nearer
                    log(f"expert round {ex_mark}: not run, the last {ex_cfg['quiet_end']:.0%} of the budget is "
                        "PPO only (expert.quiet_end)")
                    ex_mark = None
                    if prefetch is not None:
                        prefetch.cancel()
                else:
                    expert_rounds.append(_expert_round(cfg, policy, seed, ex_mark, log, prefetch, imitation))
                    if prefetch is not None and not _due_near_end(ex_cfg, ex_mark + 1, trainer.global_step,
                                                                  steps0, time.time() - t0 - eval_time, budget_s,
                                                                  budget_steps):
                        prefetch.start(ex_mark + 1)
            if eval_mark is not None:
                due = int(trainer.global_step) // eval_every > eval_mark
                eval_mark = int(trainer.global_step) // eval_every
            else:
                due = now - last_eval >= float(cfg["eval"]["minutes"]) * 60
            if due:
                te = time.time()
                curve_point()
                eval_time += time.time() - te
                last_eval = time.time()
            if not quiet and now - last_log >= float(run["log_seconds"]):
                last_log = now
                sps = (trainer.global_step - steps0) / max(1e-9, train_s)
                rates = " ".join(f"{n}={league.rate(n):.2f}" for n in league.names() if league.rate(n) is not None)
                ep_len = ep_stats[1] / ep_stats[0] if ep_stats[0] else float("nan")
                ep_stats[:] = [0.0, 0.0]
                log(f"[{train_s / 60:5.1f} min] {trainer.global_step:>11,} steps {sps:>7,.0f}/s | episode "
                    f"{ep_len:4.0f} decisions | recent win: {rates} | Elo "
                    f"{league.rating():+.0f} vs {league.anchor}")
            if now - last_ck >= float(run["checkpoint_minutes"]) * 60:
                save()
                last_ck = now
            if losses:
                last_losses.update({k: float(v) for k, v in losses.items()})
            if stop["why"]:
                break
            if train_s >= budget_s:
                stop["why"] = f"time budget ({run['minutes']} min)"
                break
            if budget_steps is not None and trainer.global_step >= budget_steps:
                stop["why"] = f"step budget ({budget_steps:,} steps)"
                break
        # the end of a run that went well: a last curve point and checkpoint (an error skips them: the last
        # committed checkpoint stays the run's latest, and the error ends the process)
        averaged = None
        if average.count and stop["why"] != INTERRUPTED:      # at its budget: the mean is what the run made
            averaged = average.apply(policy)
            log(f"weights: the mean of the last {averaged['updates']} updates (from {averaged['from_step']:,} "
                f"steps; ppo.average_last = {averaged['fraction']:g})")
            if curve and curve[-1]["steps"] == trainer.global_step:
                curve.pop()          # that point played the last update's weights: the mean's is the run's
        final = curve_point() if curve and curve[-1]["steps"] != trainer.global_step else curve[-1]
        ck = save()
    finally:
        # the caller's handler again (never PuffeRL's os._exit: the adapter undid it at import)
        signal.signal(signal.SIGINT, prev_sigint if prev_sigint is not None else signal.SIG_DFL)
    this_s = max(1e-9, time.time() - t0 - eval_time)
    train_minutes = minutes0 + this_s / 60
    budget = {"minutes": float(run["minutes"]) or None, "steps": budget_steps}
    summary = {"stopped": stop["why"], "steps": int(trainer.global_step), "train_minutes": round(train_minutes, 2),
               "budget": budget, "steps_per_second": round((int(trainer.global_step) - steps0) / this_s, 1),
               "checkpoint": str(ck), "final": final, "elo": league.elo, "games": league.games,
               "losses": last_losses}
    if averaged:
        summary["averaged"] = averaged
    if expert_rounds:                     # search labels are not agent-steps either
        summary["expert"] = {"teacher": cfg["expert"]["teacher"], "rounds": len(expert_rounds),
                             "decisions": sum(r["decisions"] for r in expert_rounds),
                             "simulations": sum(r["simulations"] for r in expert_rounds),
                             "seconds": round(sum(r["label_seconds"] + r["fit_seconds"] for r in expert_rounds), 2),
                             "background_seconds": round(sum(r.get("background_seconds", 0.0) for r in expert_rounds),
                                                         2)}
        if imitation is not None:
            summary["expert"]["imitation"] = {"weight": imitation.weight0, "steps": imitation.steps,
                                              "batch": imitation.batch}
    if "result" in cfg["kickstart"]:      # teacher decisions are not agent-steps: said beside them
        summary["kickstart"] = dict(cfg["kickstart"]["result"], teacher=cfg["kickstart"]["teacher"],
                                    decisions=int(cfg["kickstart"]["decisions"]))
    _write_text(out / "summary.json", json.dumps(summary, indent=1, default=float))
    _write_text(out / "curve.json", json.dumps(curve, indent=1))
    plot_curve(curve, out / "curve.png")
    return summary


def _off_the_rollouts_generator(fn, *args):
    """fn(*args) on a forked copy of torch's global generator. Saves and curve points run on wall-clock
    timers: neither may move the generator the rollout samples from, or a step-budget run would depend
    on the machine's speed (test_timers_leave_a_step_budget_run_alone)."""
    import torch
    with torch.random.fork_rng(devices=[]):
        return fn(*args)


def _write_text(path, text):
    from .policy_np import write_atomic

    def w(tmp):
        with open(tmp, "w") as f:
            f.write(text)
    write_atomic(path, w)


def _one_line(e):
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


def _steps_label(x, _pos=None):
    """An agent-step count as an axis label: 0, 500k, 1.5M."""
    if abs(x) >= 1e6:
        return f"{x / 1e6:g}M"
    return f"{x / 1e3:g}k" if abs(x) >= 1e3 else f"{x:g}"


def _spaced(xs, gap):
    """Indices of xs (ascending) to label: the first, then each next one at least `gap` past the last
    kept, and the last point always (dropping a kept point too close before it)."""
    keep = []
    for i, x in enumerate(xs):
        if not keep or x - xs[keep[-1]] >= gap:
            keep.append(i)
    if keep[-1] != len(xs) - 1:
        if len(keep) > 1 and xs[-1] - xs[keep[-1]] < gap:
            keep.pop()
        keep.append(len(xs) - 1)
    return keep


def plot_curve(curve, path):
    """The learning curve as a PNG: win rate against each bot and Elo, versus
    agent steps (bottom axis) and minutes (top axis)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return None
    if not curve:
        return None
    steps = [p["steps"] for p in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key in sorted(k for k in curve[0] if k.startswith("vs_")):
        ax.plot(steps, [p.get(key, np.nan) for p in curve], marker="o", label=f"win rate {key[3:]}")
    ax.set_xlabel("agent steps")
    ax.set_ylabel("win rate (wins / games)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax2 = ax.twinx()
    ax2.plot(steps, [p["elo"] for p in curve], color="gray", linestyle="--",
             label=f"Elo vs {curve[-1].get('elo_vs', 'random')} (online)")
    ax2.set_ylabel("Elo")
    lines = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    labels = ax.get_legend_handles_labels()[1] + ax2.get_legend_handles_labels()[1]
    ax.legend(lines, labels, loc="lower right", fontsize=8)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_steps_label))
    # the top axis: the wall-clock minutes of the curve's own points (not an interpolated scale, which
    # piles its ticks at the ends where the run had no points), thinned so that no two labels overlap
    top = ax.secondary_xaxis("top")
    at = _spaced([p["steps"] for p in curve], (ax.get_xlim()[1] - ax.get_xlim()[0]) / 9)
    top.set_xticks([steps[i] for i in at], labels=[f"{curve[i]['minutes']:.1f}" for i in at])
    top.set_xlabel("minutes (wall clock)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# ---- command line -------------------------------------------------------------------------------------------

def _config_for(args):
    """The run's config: the defaults, or the resumed run's own config (its
    policy, league, PPO and seed; not its budgets, which are this
    invocation's), then --config, --set and the dedicated flags."""
    base = None
    if args.resume:
        from .policy_np import resolve_checkpoint
        meta = resolve_checkpoint(resume_checkpoint(args.resume))[0]
        base = {sec: dict(vals) for sec, vals in (meta.get("train") or {}).items() if isinstance(vals, dict)}
        for k in ("minutes", "steps"):
            base.get("run", {}).pop(k, None)
    cfg = load_config(args.config, args.set or (), base=base)
    for key, val in (("minutes", args.minutes), ("steps", args.steps), ("seed", args.seed)):
        if val is not None:
            cfg["run"][key] = val
    if args.arch:
        cfg["policy"]["arch"] = args.arch
    return cfg


def _passive_omp():
    """OMP_WAIT_POLICY=PASSIVE for torch's OpenMP threads unless the
    environment sets it: their default spins at every barrier, and where
    another process wants a core (a shared machine), a parallel region
    waits for a preempted thread: with 2 torch threads on 2 loaded cores
    the default config trained at 593-748 agent-steps/s, passive at 2,445
    (docs/training.md, Speed). libgomp reads it once, when torch loads:
    this runs before `azuki train` imports torch."""
    if "torch" not in sys.modules:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def main(args) -> int:
    """`python -m azuki train`. Every failure ends the process with one
    `error: train: ...` line on stderr and a non-zero status (2: bad arguments
    or input; 1: the run failed, e.g. a checkpoint could not be written), never
    a traceback or a hang."""
    from .policy_np import CheckpointError
    try:
        cfg = _config_for(args)
    except (OSError, ValueError, tomllib.TOMLDecodeError) as e:     # CheckpointError is a ValueError
        print(f"error: train: {str(e).splitlines()[0] if str(e) else type(e).__name__}", file=sys.stderr)
        return 2
    _passive_omp()
    try:
        import pufferlib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"error: train needs pufferlib and torch ({e}); run `bash tools/setup_envs.sh puffer` and use "
              f".venv-puffer/bin/azuki train (make run)", file=sys.stderr)
        return 2
    out = args.out
    if out is None and args.resume:
        out = resume_run_dir(args.resume)
        if out is None:
            print(f"error: train: --resume {args.resume}: not inside a run directory (RUN/checkpoint/NAME); "
                  f"name the run directory to write with --out", file=sys.stderr)
            return 2
    out = out or f"runs/azuki-{time.strftime('%Y%m%d-%H%M%S')}"
    what = f"resuming {args.resume} in {out}" if args.resume else f"training into {out}"
    print(f"{what}: {cfg['run']['minutes']} min / {cfg['run']['steps'] or 'no'} step budget, "
          f"seed {cfg['run']['seed']}, {cfg['policy']['arch']} policy, "
          f"{cfg['env']['envs']} x {cfg['env']['games_per_env']} games, league {cfg['league']['opponents']}",
          flush=True)
    try:
        s = train(cfg, out, resume=args.resume, quiet=args.quiet, log=lambda m: print(m, flush=True))
        _final_report(cfg, out, s)
    except CheckpointError as e:
        print(f"error: train: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:     # Ctrl-C in the kickstart or the final evaluation (the loop's own Ctrl-C saves and ends it)
        print(str(e) if isinstance(e, KickstartInterrupted) else "train: interrupted (the run's last saved checkpoint is kept)",
              file=sys.stderr)
        return 130
    except Exception as e:      # anything else: one line (the run's last committed checkpoint stays)
        print(f"error: train: {_one_line(e) if not isinstance(e, TrainError) else str(e).splitlines()[0]}",
              file=sys.stderr)
        return 1
    return 0


def c_forward(policy):
    """(the CPolicy of a torch policy's exported weights, None) or (None, why) for a network the C
    forward does not know: the one export the league's snapshots and the learner's evaluations use."""
    from ._core import CPolicy
    from .policy import state_azkw
    try:
        return CPolicy.from_bytes(state_azkw(policy)), None
    except (ValueError, KeyError) as e:
        return None, e


def learner_player(policy, greedy, seed, name="learner"):
    """The learner as the curve's evaluations play it: in C from its exported weights (azuki.bots'
    policy bot, as `azuki eval policy:CKPT` plays a checkpoint: the most likely legal action, or
    with greedy=False a sample at temperature 1, i.e. from the policy's own probabilities), 13x
    the games per second of the torch player on a 2-core CPU; a network the C forward does not know
    plays in torch (azuki.policy.PolicyPlayer, seeded with `seed`: the same decisions up to float
    rounding; in C the sample draws from the evaluation's own player streams)."""
    from .eval_players import PBotPlayer
    from .policy import PolicyPlayer
    cp, _ = c_forward(policy)
    if cp is None:
        return PolicyPlayer(policy, greedy=greedy, seed=seed, name=name)
    return PBotPlayer.of(cp, name, settings={} if greedy else {"temp": 1.0})


def _final_report(cfg, out, s):
    f = s["final"]
    b = s["budget"]
    used = " and ".join(x for x in (f"{b['minutes']:g} min" if b["minutes"] else "",
                                    f"{b['steps']:,} steps" if b["steps"] else "") if x) or "none"
    print(f"stopped: {s['stopped']}; budget {used}; {s['steps']:,} agent steps in {s['train_minutes']:.1f} "
          f"training minutes, {s['steps_per_second']:,.0f} agent-steps/s (this invocation)")
    print("final (quick evaluation, " + f"{cfg['eval']['games']} games per bot): "
          + ", ".join(f"vs {k[3:]} {v:.1%}" for k, v in f.items() if k.startswith("vs_")))
    print(f"checkpoint: {s['checkpoint']}; curve: {out}/curve.png, {out}/curve.json")
    final_games = int(cfg["eval"]["final_games"])
    if final_games:
        from .evaluate import evaluate
        # the checkpoint as a policy bot, in C (learner_player): the printed command reproduces it
        spec = "policy:" + s["checkpoint"] + ("" if cfg["eval"]["greedy"] else ":temp=1")
        print(f"final evaluation: {final_games} games per bot, paired deals, seats and decks balanced, "
              f"{'most likely legal action' if cfg['eval']['greedy'] else 'sampled actions'} "
              f"(python -m azuki eval {spec} BOT --games {final_games} --seed {int(cfg['run']['seed']) + 1})")
        for bot in cfg["eval"]["bots"]:
            r = evaluate(spec, bot, games=final_games, seed=int(cfg["run"]["seed"]) + 1)
            wr = r["win_rate"]
            print(f"  vs {bot:<8} win rate {wr['rate']:.1%} [{wr['ci95'][0]:.1%}, {wr['ci95'][1]:.1%}]  "
                  f"({r['wins']} wins, {r['losses']} losses, {r['draws']} draws, {r['truncated']} truncated)")
            # per deck matchup (the policy's deck first): a run trained on some pairings shows where it is weak
            decks = {k: v["win_rate"]["rate"] for k, v in r["by_decks"].items()}
            print("    by decks: " + ", ".join(f"{k} {v:.1%}" for k, v in decks.items()))
            s.setdefault("final_eval", {})[bot] = {"rate": wr["rate"], "ci95": wr["ci95"], "games": final_games,
                                                   "by_decks": decks}
        _write_text(Path(out, "summary.json"), json.dumps(s, indent=1, default=float))

"""azuki.expert — training from search (expert iteration, docs/training.md "Expert iteration").

A search player labels the decisions of games it plays against itself: for every decision the
deciding player's observation, the search root's visit distribution over the legal actions (the
C search reports it: azuki._core.search_label / pbot_label, azuki.h azk_bot_search_label) and,
once the game ends, its outcome from that player's seat. The policy is then distilled to those
labels: cross-entropy of the masked policy to the visit distribution (the "expert"'s improved
policy, not only its argmax as the greedy kickstart's behavioural cloning) plus vf_coef times the
squared error of the value head to the discounted outcome gamma ** k * z (z = +1 / -1 / 0 for a
win / loss / draw of the labelled player, k its own decisions left, as PPO's returns and
azuki.distill count them).

Teachers: "search:N" (the built-in information-set search bot, N simulations, greedy playouts) or
"psearch:N" (PUCT search guided by a C policy: the current learner exported with
policy.state_azkw, its priors and value head; the labels then improve on the policy itself).
Both search over determinizations of the labelled player's information set (azk_resample), so a
label never depends on hidden cards (tests/test_expert.py). There is no privileged critic: the
value head is trained on the player's observation only, as it is played.

Label generation runs on `threads` threads (the search runs without the GIL) and is the same
dataset byte for byte for any thread count (games are numbered and put together in game order,
azuki.distill's scheme). Labels are stored sparsely: the `topk` most visited actions per decision
(renormalized; search-N visits at most N actions, so topk >= N loses nothing).

Used by `azuki train` through [expert] in azuki/data/train.toml. Needs numpy (labels) and torch
(fit_labels).
"""
from __future__ import annotations

import math
import threading
import time

import numpy as np

from . import _core

OBS_LEN = _core.OBS_LEN
NUM_ACTIONS = _core.NUM_ACTIONS
TEACHERS = ("search", "psearch")


def parse_teacher(spec):
    """("search" | "psearch", sims) of a label teacher spec "search:N" / "psearch:N" (N simulations;
    no N: the search bot's default)."""
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"expert teacher must be 'search:N' or 'psearch:N', got {spec!r}")
    name, _, sims = spec.partition(":")
    if name not in TEACHERS:
        raise ValueError(f"expert teacher {name!r} is not a search (one of {', '.join(TEACHERS)})")
    if not sims:
        return name, _core.SEARCH_SIMS
    try:
        n = int(sims)
    except ValueError:
        raise ValueError(f"expert teacher {spec!r}: simulations must be an integer") from None
    top = _core.SEARCH_MAX_SIMS if name == "search" else _core.PSEARCH_MAX_SIMS
    if not 1 <= n <= top:
        raise ValueError(f"expert teacher {spec!r}: simulations must be in [1, {top}]")
    return name, n


def label_dataset(decisions, teacher="search:16", pairings=(("STT01", "STT02"),), seed=0, cards=None, gamma=0.99,
                  threads=1, topk=16, policy=None, settings=None, progress=None):
    """Self-play games of the teacher until `decisions` labelled decisions (the last game is cut
    there: its decisions keep their visit labels, value target 0). Game i is dealt from
    splitmix64(seed * 1000003 + i) with the decks of distill.teacher_game (the C deal schedule: each pairing from both seats, cycled) and
    the teacher's rng from bot_seed_for(seed, i) — the games azuki.distill.teacher_dataset plays.
    policy: the CPolicy guiding "psearch" (required there, refused for "search"); settings: extra
    psearch settings (pbot_defaults("psearch")).
    Returns dict(obs uint8 [N, OBS_LEN], label_actions int32 [N, topk] (-1 padding), label_probs
    float32 [N, topk] (rows sum to 1), actions int32 [N] (the action played), values float32 [N]
    (discounted outcome), search_values float32 [N] (the root's mean result in [0, 1], -1 when no
    simulation ran), games, simulations (sims x the decisions that simulated), seconds)."""
    decisions = int(decisions)
    if decisions < 1:
        raise ValueError(f"decisions must be >= 1, got {decisions}")
    threads, topk = int(threads), int(topk)
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    if not 1 <= topk <= NUM_ACTIONS:
        raise ValueError(f"topk must be in [1, {NUM_ACTIONS}], got {topk}")
    name, sims = parse_teacher(teacher)
    if name == "psearch":
        if not isinstance(policy, _core.CPolicy):
            raise TypeError("a psearch teacher needs policy=, a CPolicy (azuki.policy.state_azkw of the learner)")
        psettings = dict(settings or {})
        psettings["sims"] = sims
        _core.pbot_defaults("psearch", psettings)   # checked: ValueError for a bad setting
    elif policy is not None or settings:
        raise ValueError("policy= and settings= are for a psearch teacher")
    pairs = [tuple(p) for p in pairings]
    if not pairs:
        raise ValueError("pairings must name at least one pair of decks")
    from .distill import discounted_values, play_games_into, play_teacher_game
    obs = np.zeros((decisions, OBS_LEN), dtype=np.uint8)
    lab_a = np.full((decisions, topk), -1, dtype=np.int32)
    lab_p = np.zeros((decisions, topk), dtype=np.float32)
    actions = np.zeros(decisions, dtype=np.int32)
    values = np.zeros(decisions, dtype=np.float32)
    svalues = np.zeros(decisions, dtype=np.float32)
    t0 = time.perf_counter()

    def play(i, out, limit):
        """Game i, at most `limit` decisions (distill.play_teacher_game): each decision's labels."""
        vis = np.zeros(NUM_ACTIONS, dtype=np.float32)

        def decide(g, rng):
            if name == "search":
                a, v = _core.search_label(g, rng, vis, sims=sims)
            else:
                a, v = _core.pbot_label(g, policy, rng, vis, psettings)
            nz = np.flatnonzero(vis)
            if nz.size > topk:          # the most visited (ties: the played one, then lower actions), renormalized
                nz = nz[np.lexsort((nz, nz != a, -vis[nz]))[:topk]]
            return a, (a, v, nz.astype(np.int32), vis[nz] / vis[nz].sum())
        return play_teacher_game(seed, i, pairs, cards, out, limit, decide)

    def record(start, k, labels, who, z):
        for j in range(k):
            a, v, la, lp = labels[j]
            r = start + j
            actions[r], svalues[r] = a, v
            lab_a[r, :la.size] = la
            lab_p[r, :lp.size] = lp
        values[start:start + k] = discounted_values(who[:k], z, gamma)

    games = play_games_into(play, record, obs, decisions, threads, progress)
    return {"obs": obs, "label_actions": lab_a, "label_probs": lab_p, "actions": actions, "values": values,
            "search_values": svalues, "games": games, "simulations": int(sims * np.count_nonzero(svalues >= 0)),
            "seconds": time.perf_counter() - t0}


def _full_log_prob(policy, obs):
    """(log pi [B, NUM_ACTIONS] over the masked policy, value [B]) on uint8 obs, either head."""
    import torch
    from .policy import Factored
    dist, value = policy.forward_eval(obs)
    if isinstance(dist, Factored):
        return dist.full_log_prob(), value.reshape(-1)
    return torch.log_softmax(dist.float(), dim=-1), value.reshape(-1)


def fit_labels(policy, data, epochs=2, batch=1024, lr=1e-3, vf_coef=0.5, seed=0, log=None, played_weight=0.0,
               threads=1):
    """Distill the search labels (label_dataset's dict) into `policy` by minibatch Adam:
    loss = -mean sum_k p_k log pi(a_k) + vf_coef * mean (v - outcome target)^2, with the target
    p = (1 - played_weight) * the visit shares + played_weight * one-hot(the action the search
    played). played_weight 1 is behavioural cloning of the search; 0 the visit distribution alone,
    which a few-simulation UCB1 search makes nearly flat (docs/training.md "Expert iteration":
    measured much worse). Returns the last epoch's mean losses and the share of decisions where the
    policy's most likely action is the search's played one (on up to 4096 sampled decisions).
    `threads`: each minibatch split across that many threads (azuki.distill.fit_epochs)."""
    import torch
    if int(epochs) < 1 or int(batch) < 1:
        raise ValueError("epochs and batch must be >= 1")
    if isinstance(played_weight, bool) or not isinstance(played_weight, (int, float)) or not 0 <= played_weight <= 1:
        raise ValueError(f"played_weight must be a number in [0, 1], got {played_weight!r}")
    t = _label_tensors(data, played_weight)
    n = t["obs"].shape[0]
    from .distill import fit_epochs

    def losses(idx):
        return _label_losses(policy, t, idx, played_weight)

    out, gen = fit_epochs(policy, n, losses, epochs, batch, lr, vf_coef, seed, log,
                          "expert", "cross-entropy to the search's target", threads=threads)
    with torch.no_grad():
        k = min(n, 4096)
        idx = torch.randperm(n, generator=gen)[:k]
        logp, _ = _full_log_prob(policy, t["obs"][idx].to(next(policy.parameters()).device))
        out["agreement"] = float((logp.argmax(1).cpu() == t["played"][idx]).float().mean())
    return out


def _label_tensors(data, played_weight):
    """label_dataset's arrays as the tensors _label_losses reads (the target mixed by played_weight)."""
    import torch
    la = torch.as_tensor(data["label_actions"]).long()
    played = torch.as_tensor(data["actions"]).long()
    lp = torch.as_tensor(data["label_probs"]).float()
    return {"obs": torch.as_tensor(data["obs"]), "label_actions": la, "played": played,
            "target": (1.0 - played_weight) * lp + played_weight * (la == played[:, None]).float(),
            "values": torch.as_tensor(data["values"]).float()}


def _label_losses(policy, t, idx, played_weight):
    """(policy loss, value loss) of `policy` on label rows `idx` of _label_tensors' dict `t`: the
    cross-entropy to the target and the squared error to the outcome target."""
    import torch
    from .distill import _action_log_prob
    dev = next(policy.parameters()).device
    o, v = t["obs"][idx].to(dev), t["values"][idx].to(dev)
    if played_weight == 1.0:      # a one-hot target: the played action's log-probability alone (~10x cheaper)
        logp_a, value = _action_log_prob(policy, o, t["played"][idx].to(dev))
        lpi = -logp_a.mean()
    else:
        a, p = t["label_actions"][idx].to(dev), t["target"][idx].to(dev)
        logp, value = _full_log_prob(policy, o)
        picked = logp.gather(1, a.clamp(min=0))
        picked = torch.where(p > 0, picked, torch.zeros_like(picked))   # padding and -inf off the labels
        lpi = -(p * picked).sum(1).mean()
    return lpi, ((value - v) ** 2).mean()


class Imitation:
    """The auxiliary imitation loss of [expert] during PPO (imitation_weight > 0): every PPO minibatch's
    loss gains w(steps) x (cross-entropy to the latest label round's targets + vf_coef x its value
    loss) on `imitation_batch` label rows drawn at random, w decaying linearly from imitation_weight at the
    first PPO step to 0 at imitation_steps agent-steps (0: constant). Kickstarting's distillation term
    (Schmitt et al. 2018) with the search as teacher: PPO improves on the labels while they keep it
    near the search early on, instead of the rounds' one-shot fits alone. The rows are drawn from a
    generator reseeded from (seed, agent-steps) at each PPO update, so a resumed run draws what the
    uninterrupted one did."""

    def __init__(self, ex, seed):
        self.weight0 = float(ex["imitation_weight"])
        self.steps = int(ex["imitation_steps"])
        self.batch = int(ex["imitation_batch"])
        self.vf_coef = float(ex["vf_coef"])
        self.played_weight = float(ex["played_weight"])
        self.seed = int(seed)
        self.t = None          # the label round's tensors (set_labels)
        self.mark = None
        self.w = 0.0
        self.gen = None
        self.last = None       # the last draw's (policy loss, value loss), unweighted

    def set_labels(self, data, mark):
        """The latest round's labels (label_dataset's dict) become the Imitation's."""
        self.t = _label_tensors(data, self.played_weight)
        self.mark = int(mark)

    def weight(self, steps):
        if self.steps <= 0:
            return self.weight0
        return self.weight0 * max(0.0, 1.0 - int(steps) / self.steps)

    def active(self, steps):
        return self.t is not None and self.weight(steps) > 0

    def begin(self, steps):
        """Before PPO's update at `steps` agent-steps: the weight and the draw's generator."""
        import torch
        self.w = self.weight(steps) if self.t is not None else 0.0
        self.gen = torch.Generator().manual_seed((self.seed * 1000003 + int(steps)) & ((1 << 63) - 1))

    def __call__(self, policy):
        """The weighted loss of one draw of label rows (a scalar tensor), or None when off."""
        import torch
        if self.w <= 0 or self.t is None:
            return None
        n = self.t["obs"].shape[0]
        idx = torch.randint(n, (min(self.batch, n),), generator=self.gen)
        lpi, lv = _label_losses(policy, self.t, idx, self.played_weight)
        self.last = (lpi.detach(), lv.detach())      # tensors: no device sync per minibatch
        return self.w * (lpi + self.vf_coef * lv)


# ---- [expert] in `azuki train` (azuki/train.py) ----------------------------------------------------------------

EXPERT_KEYS = ("decisions", "teacher", "every_steps", "epochs", "batch", "learning_rate", "vf_coef", "threads",
               "topk", "played_weight", "prefetch")
# optional keys (a config saved before them reads as off): the imitation term during PPO (Imitation),
# and quiet_end (no label round in the budget's last fraction: near_end)
OPTIONAL_DEFAULTS = {"imitation_weight": 0.0, "imitation_steps": 0, "imitation_batch": 256, "quiet_end": 0.0}


def check_config(ex):
    """ValueError (one line) for a bad [expert] section; the section as typed values otherwise."""
    missing = [k for k in EXPERT_KEYS if k not in ex]
    if missing:
        raise ValueError(f"[expert] lacks {', '.join(missing)}")
    ex = {**OPTIONAL_DEFAULTS, **ex}
    for k in ("decisions", "every_steps", "epochs", "batch", "threads", "topk", "imitation_steps", "imitation_batch"):
        if isinstance(ex[k], bool) or not isinstance(ex[k], int):
            raise ValueError(f"expert.{k} must be an integer, got {ex[k]!r}")
    if ex["decisions"] < 0 or ex["every_steps"] < 0:
        raise ValueError("expert.decisions and expert.every_steps must be >= 0")
    if ex["epochs"] < 1 or ex["batch"] < 1 or ex["threads"] < 1 or not 1 <= ex["topk"] <= NUM_ACTIONS:
        raise ValueError(f"expert.epochs, batch and threads must be >= 1 and topk in [1, {NUM_ACTIONS}]")
    if ex["imitation_steps"] < 0 or ex["imitation_batch"] < 1:
        raise ValueError("expert.imitation_steps must be >= 0 and expert.imitation_batch >= 1")
    for k in ("learning_rate", "vf_coef", "played_weight", "imitation_weight"):
        if isinstance(ex[k], bool) or not isinstance(ex[k], (int, float)) or ex[k] < 0:
            raise ValueError(f"expert.{k} must be a number >= 0, got {ex[k]!r}")
    if isinstance(ex["quiet_end"], bool) or not isinstance(ex["quiet_end"], (int, float)) \
            or not 0 <= ex["quiet_end"] < 1:
        raise ValueError(f"expert.quiet_end must be a fraction in [0, 1), got {ex['quiet_end']!r}")
    if ex["played_weight"] > 1:
        raise ValueError(f"expert.played_weight must be in [0, 1], got {ex['played_weight']!r}")
    if not isinstance(ex["prefetch"], bool):
        raise ValueError(f"expert.prefetch must be true or false, got {ex['prefetch']!r}")
    name, _ = parse_teacher(ex["teacher"])
    if ex["imitation_weight"] > 0 and name == "psearch":
        raise ValueError("expert.imitation_weight needs a \"search\" teacher: a psearch teacher's labels depend on "
                         "the policy of the moment, so a resumed run could not make them again")
    return ex


def round_mark(ex, steps):
    """The label rounds due by `steps` agent-steps: a round before PPO (mark 0, a fresh run only),
    then one each time the step count crosses a multiple of every_steps (0: the first round only).
    Derived from the step count alone, so a resumed run keeps the cadence with no extra state
    (as the league's snapshots)."""
    every = int(ex["every_steps"])
    return int(steps) // every if every > 0 else 0


def near_end(ex, train_s, budget_s, steps, budget_steps):
    """True when the run is in the last `quiet_end` fraction of a budget it has (its wall-clock
    seconds, its agent-steps; either one): no label round starts there. A round's fit pulls the
    policy toward the teacher's moves and PPO needs time to find its way back (a round right before
    the end cost make run's recipe 20 points against greedy; docs/training.md "Expert iteration"),
    so the run's last stretch is PPO only. 0: rounds until the end."""
    q = float(ex.get("quiet_end", 0.0))
    if q <= 0:
        return False
    if math.isfinite(budget_s) and budget_s - train_s < q * budget_s:
        return True
    return budget_steps is not None and budget_steps - int(steps) < q * budget_steps


def round_seed(seed, mark):
    """The seed of label round `mark`'s games: seed + 7919 * mark (each round plays new deals)."""
    return (int(seed) + 7919 * int(mark)) & ((1 << 64) - 1)


class _Cancelled(Exception):
    pass


class Prefetch:
    """[expert] prefetch: the next round's labels made on one background thread while the run does
    something else (the kickstart's fit, PPO), so a round costs only its fit in the foreground.

    Why it pays: `azuki train` runs its learner on one torch thread and its envs on one C thread
    (the measured defaults), so on a 2-core machine the second core idles during PPO; the search
    runs without the GIL. Only a "search" teacher is prefetched: its labels do not depend on the
    policy, so the round made early is the round made on time, byte for byte (label_dataset gives
    the same dataset for any thread count), and the run's trajectory is the same with prefetch on
    or off (tests/envs/test_expert_train.py). A "psearch" teacher is guided by the policy of the
    moment: never prefetched. One round is in flight at a time; start() of another mark cancels it."""

    def __init__(self, ex, seed, pairings, gamma, cards=None):
        self.ex, self.seed, self.pairings, self.gamma, self.cards = ex, int(seed), list(pairings), float(gamma), cards
        self.on = bool(ex["prefetch"]) and parse_teacher(ex["teacher"])[0] == "search"
        self._job = None            # (mark, thread, box)

    def start(self, mark):
        """Begin round `mark`'s labels in the background (no-op when off or already under way)."""
        if not self.on or (self._job is not None and self._job[0] == mark):
            return
        self.cancel()
        box = {"stop": False}
        ex = self.ex

        def check(n, total):
            if box["stop"]:
                raise _Cancelled

        def work():
            t0 = time.perf_counter()
            try:
                box["data"] = label_dataset(int(ex["decisions"]), ex["teacher"], pairings=self.pairings,
                                            seed=round_seed(self.seed, mark), cards=self.cards, gamma=self.gamma,
                                            threads=1, topk=int(ex["topk"]), progress=check)
            except _Cancelled:
                pass
            except BaseException as e:        # raised in the caller by take()
                box["error"] = e
            box["seconds"] = time.perf_counter() - t0

        t = threading.Thread(target=work, name=f"azuki-expert-prefetch-{mark}", daemon=True)
        self._job = (mark, t, box)
        t.start()

    def take(self, mark):
        """(labels, background seconds) of round `mark` if it was started (waits for it to finish),
        else None (the caller labels in the foreground)."""
        if self._job is None or self._job[0] != mark:
            return None
        _, t, box = self._job
        self._job = None
        while t.is_alive():
            t.join(0.2)       # a timeout, so Ctrl-C reaches the main thread
        if "error" in box:
            raise box["error"]
        return box["data"], box["seconds"]

    def cancel(self):
        """Stop the round in flight, if any (it ends after its current game) and wait for its thread."""
        if self._job is not None:
            _, t, box = self._job
            self._job = None
            box["stop"] = True
            t.join()


def run_round(ex, policy, seed, mark, pairings, gamma, log=print, cards=None, prefetch=None, imitation=None,
              fit_threads=1):
    """One label round of [expert] `ex`: `decisions` labels from the teacher's self-play (game
    seeds round_seed(seed, mark); a psearch teacher is guided by the current `policy`, exported to
    the C forward pass), distilled into `policy` in place (fit_labels, its own Adam). `prefetch`: a
    Prefetch whose round `mark`, when it made it, supplies the labels. `fit_threads`: the fit's
    minibatches split across that many threads. Returns a JSON-able dict of what it did
    (label_seconds: the foreground's wait for the labels)."""
    n = int(ex["decisions"])
    name, sims = parse_teacher(ex["teacher"])
    cpol = None
    was_training = policy.training
    if name == "psearch":
        from .policy import state_azkw
        cpol = _core.CPolicy.from_bytes(state_azkw(policy))
    rseed = round_seed(seed, mark)
    t0 = time.perf_counter()
    got = prefetch.take(mark) if prefetch is not None else None
    if got is None:
        data, background = label_dataset(n, ex["teacher"], pairings=pairings, seed=rseed, cards=cards, gamma=gamma,
                                         threads=int(ex["threads"]), topk=int(ex["topk"]), policy=cpol), None
    else:
        data, background = got
    t1 = time.perf_counter()
    how = f"in {t1 - t0:.1f} s" if background is None else \
        f"in the background in {background:.1f} s (waited {t1 - t0:.1f} s)"
    log(f"expert round {mark}: {n:,} {ex['teacher']} labels ({data['simulations']:,} simulations) from "
        f"{data['games']:,} games {how}")
    if imitation is not None:
        imitation.set_labels(data, mark)
    r = fit_labels(policy, data, epochs=int(ex["epochs"]), batch=int(ex["batch"]), lr=float(ex["learning_rate"]),
                   vf_coef=float(ex["vf_coef"]), seed=rseed, log=log, played_weight=float(ex["played_weight"]),
                   threads=fit_threads)
    policy.train(was_training)
    t2 = time.perf_counter()
    log(f"expert round {mark}: fitted in {t2 - t1:.1f} s; the policy's most likely action is the search's on {100 * r['agreement']:.1f}%")
    out = {"round": int(mark), "decisions": n, "games": data["games"], "simulations": data["simulations"],
           "label_seconds": round(t1 - t0, 2), "fit_seconds": round(t2 - t1, 2),
           "policy_loss": round(r["policy_loss"], 4), "value_loss": round(r["value_loss"], 4),
           "agreement": round(r["agreement"], 4)}
    if background is not None:
        out["background_seconds"] = round(background, 2)
    return out


__all__ = ["TEACHERS", "parse_teacher", "label_dataset", "fit_labels", "check_config", "round_mark", "near_end",
           "round_seed", "Prefetch", "run_round", "Imitation"]

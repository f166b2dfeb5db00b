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
        _core._check_pbot_settings("psearch", psettings)
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


def fit_labels(policy, data, epochs=2, batch=1024, lr=1e-3, vf_coef=0.5, seed=0, log=None, played_weight=0.0):
    """Distill the search labels (label_dataset's dict) into `policy` by minibatch Adam:
    loss = -mean sum_k p_k log pi(a_k) + vf_coef * mean (v - outcome target)^2, with the target
    p = (1 - played_weight) * the visit shares + played_weight * one-hot(the action the search
    played). played_weight 1 is behavioural cloning of the search; 0 the visit distribution alone,
    which a few-simulation UCB1 search makes nearly flat (docs/training.md "Expert iteration":
    measured much worse). Returns the last epoch's mean losses and the share of decisions where the
    policy's most likely action is the search's played one (on up to 4096 sampled decisions)."""
    import torch
    if int(epochs) < 1 or int(batch) < 1:
        raise ValueError("epochs and batch must be >= 1")
    if isinstance(played_weight, bool) or not isinstance(played_weight, (int, float)) or not 0 <= played_weight <= 1:
        raise ValueError(f"played_weight must be a number in [0, 1], got {played_weight!r}")
    obs = torch.as_tensor(data["obs"])
    la = torch.as_tensor(data["label_actions"]).long()
    played = torch.as_tensor(data["actions"]).long()
    lp = torch.as_tensor(data["label_probs"]).float()
    lp = (1.0 - played_weight) * lp + played_weight * (la == played[:, None]).float()
    vals = torch.as_tensor(data["values"]).float()
    n = obs.shape[0]
    dev = next(policy.parameters()).device
    from .distill import _action_log_prob, fit_epochs

    def losses(idx):
        o, a, p, v = obs[idx].to(dev), la[idx].to(dev), lp[idx].to(dev), vals[idx].to(dev)
        if played_weight == 1.0:      # a one-hot target: the played action's log-probability alone (~10x cheaper)
            logp_a, value = _action_log_prob(policy, o, played[idx].to(dev))
            lpi = -logp_a.mean()
        else:
            logp, value = _full_log_prob(policy, o)
            picked = logp.gather(1, a.clamp(min=0))
            picked = torch.where(p > 0, picked, torch.zeros_like(picked))   # padding and -inf off the labels
            lpi = -(p * picked).sum(1).mean()
        return lpi, ((value - v) ** 2).mean()

    out, gen = fit_epochs(policy, n, losses, epochs, batch, lr, vf_coef, seed, log,
                          "expert", "cross-entropy to the search's target")
    with torch.no_grad():
        k = min(n, 4096)
        idx = torch.randperm(n, generator=gen)[:k]
        logp, _ = _full_log_prob(policy, obs[idx].to(dev))
        out["agreement"] = float((logp.argmax(1).cpu() == played[idx]).float().mean())
    return out


# ---- [expert] in `azuki train` (azuki/train.py) ----------------------------------------------------------------

EXPERT_KEYS = ("decisions", "teacher", "every_steps", "epochs", "batch", "learning_rate", "vf_coef", "threads",
               "topk", "played_weight", "prefetch")


def check_config(ex):
    """ValueError (one line) for a bad [expert] section; the section as typed values otherwise."""
    missing = [k for k in EXPERT_KEYS if k not in ex]
    if missing:
        raise ValueError(f"[expert] lacks {', '.join(missing)}")
    for k in ("decisions", "every_steps", "epochs", "batch", "threads", "topk"):
        if isinstance(ex[k], bool) or not isinstance(ex[k], int):
            raise ValueError(f"expert.{k} must be an integer, got {ex[k]!r}")
    if ex["decisions"] < 0 or ex["every_steps"] < 0:
        raise ValueError("expert.decisions and expert.every_steps must be >= 0")
    if ex["epochs"] < 1 or ex["batch"] < 1 or ex["threads"] < 1 or not 1 <= ex["topk"] <= NUM_ACTIONS:
        raise ValueError(f"expert.epochs, batch and threads must be >= 1 and topk in [1, {NUM_ACTIONS}]")
    for k in ("learning_rate", "vf_coef", "played_weight"):
        if isinstance(ex[k], bool) or not isinstance(ex[k], (int, float)) or ex[k] < 0:
            raise ValueError(f"expert.{k} must be a number >= 0, got {ex[k]!r}")
    if ex["played_weight"] > 1:
        raise ValueError(f"expert.played_weight must be in [0, 1], got {ex['played_weight']!r}")
    if not isinstance(ex["prefetch"], bool):
        raise ValueError(f"expert.prefetch must be true or false, got {ex['prefetch']!r}")
    parse_teacher(ex["teacher"])
    return ex


def round_mark(ex, steps):
    """The label rounds due by `steps` agent-steps: a round before PPO (mark 0, a fresh run only),
    then one each time the step count crosses a multiple of every_steps (0: the first round only).
    Derived from the step count alone, so a resumed run keeps the cadence with no extra state
    (as the league's snapshots)."""
    every = int(ex["every_steps"])
    return int(steps) // every if every > 0 else 0


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


def run_round(ex, policy, seed, mark, pairings, gamma, log=print, cards=None, prefetch=None):
    """One label round of [expert] `ex`: `decisions` labels from the teacher's self-play (game
    seeds round_seed(seed, mark); a psearch teacher is guided by the current `policy`, exported to
    the C forward pass), distilled into `policy` in place (fit_labels, its own Adam). `prefetch`: a
    Prefetch whose round `mark`, when it made it, supplies the labels. Returns a JSON-able dict of
    what it did (label_seconds: the foreground's wait for the labels)."""
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
    r = fit_labels(policy, data, epochs=int(ex["epochs"]), batch=int(ex["batch"]), lr=float(ex["learning_rate"]),
                   vf_coef=float(ex["vf_coef"]), seed=rseed, log=log, played_weight=float(ex["played_weight"]))
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


__all__ = ["TEACHERS", "parse_teacher", "label_dataset", "fit_labels", "check_config", "round_mark", "round_seed",
           "Prefetch", "run_round"]

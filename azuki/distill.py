"""azuki.distill — start a policy from a teacher bot's play (kickstarting).

PPO from a random network spends its first hundreds of thousands of
agent-steps discovering what the built-in greedy bot already knows (play
cards, attack the leader). This module gives the learner that knowledge
first, by behavioural cloning: the teacher (a built-in bot: "greedy", or
"search" with its simulations, "search:N") plays games against itself from
both seats over the run's pairings; every decision it makes is recorded as
(the deciding player's observation, the teacher's action, a value target);
the policy is fitted to them by supervised learning (cross-entropy of the
teacher's action under the masked policy, exact for both heads, plus
`vf_coef` times the squared error of the value head to the discounted game
result gamma ** k * z, where z is +1 / -1 / 0 for that player's win / loss /
draw and k the number of its own decisions left, as PPO's returns count
them). PPO then continues from the cloned policy against the league.

Used by `azuki train` through the [kickstart] config section (decisions = 0
turns it off; docs/training.md "Kickstarting"). The teacher games are
deterministic for a seed; the dataset and the fit do not depend on the
machine's load. Teacher decisions are not agent-steps: the run's summary
states both.

Needs torch (like azuki.policy); the dataset part (teacher_dataset) needs
numpy only.
"""
from __future__ import annotations

import time

import numpy as np

from . import _core

OBS_LEN = _core.OBS_LEN


def parse_teacher(spec):
    """("greedy" | "search" | "random", sims or None) of a teacher spec such as
    "greedy", "search" or "search:32"."""
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"kickstart teacher must be a bot name such as 'greedy' or 'search:32', got {spec!r}")
    name, _, sims = spec.partition(":")
    if name not in _core.BOT_KINDS:
        raise ValueError(f"kickstart teacher {name!r} is not a built-in bot (one of {', '.join(_core.BOT_KINDS)})")
    if sims:
        if name != "search":
            raise ValueError(f"kickstart teacher {spec!r}: only the search bot takes a number of simulations")
        try:
            n = int(sims)
        except ValueError:
            raise ValueError(f"kickstart teacher {spec!r}: simulations must be an integer") from None
        if n < 1:
            raise ValueError(f"kickstart teacher {spec!r}: simulations must be >= 1")
        return name, n
    return name, None


def teacher_dataset(decisions, teacher="greedy", pairings=(("STT01", "STT02"),), seed=0, cards=None, gamma=0.99,
                    progress=None, threads=1):
    """Play teacher-vs-teacher games until `decisions` decisions are recorded
    (the last game is cut there). Returns dict(obs uint8 [N, OBS_LEN],
    actions int32 [N], values float32 [N], games int, seconds float).
    Games cycle over `pairings`, each from both seats; game i is dealt from
    seed (seed, i) and the teacher's rng from bot_seed_for(seed, i).
    threads > 1: the games are played on that many threads (the bot's move
    runs without the GIL: worth it for the search teacher) and put together
    in game order, so the dataset is the one of threads=1, byte for byte."""
    decisions = int(decisions)
    if decisions < 1:
        raise ValueError(f"decisions must be >= 1, got {decisions}")
    threads = int(threads)
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    kind_name, sims = parse_teacher(teacher)
    kind = _core.bot_kind(kind_name)
    pairs = [tuple(p) for p in pairings]
    if not pairs:
        raise ValueError("pairings must name at least one pair of decks")
    obs = np.zeros((decisions, OBS_LEN), dtype=np.uint8)
    actions = np.zeros(decisions, dtype=np.int32)
    values = np.zeros(decisions, dtype=np.float32)
    t0 = time.perf_counter()

    def play(i, out, limit):
        """Game i, at most `limit` decisions (play_teacher_game): the teacher's actions."""
        def decide(g, rng):
            a = _core.bot_act(g, kind, rng, sims=sims)
            return a, a
        return play_teacher_game(seed, i, pairs, cards, out, limit, decide)

    def record(start, k, acts, who, z):
        actions[start:start + k] = acts
        values[start:start + k] = discounted_values(who[:k], z, gamma)

    games = play_games_into(play, record, obs, decisions, threads, progress)
    return {"obs": obs, "actions": actions, "values": values, "games": games,
            "seconds": time.perf_counter() - t0}


def teacher_game(seed, i, pairs, cards):
    """Game i of a teacher's dataset and the teacher's rng for it: the engine
    seed splitmix64(seed * 1,000,003 + i), the decks of the pairing and seats
    the C deal schedule gives episode i (azk_deal_schedule: each pairing twice
    in a row, the second time with seats swapped), the rng bot_seed_for(seed,
    i). Shared by teacher_dataset and expert.label_dataset, whose datasets are
    the same games."""
    d = _core.deal_schedule(i, npairs=len(pairs))
    a, b = pairs[d["pairing"]]
    g = _core.Game(seed=int(_core.splitmix64((int(seed) * 1_000_003 + i) & ((1 << 64) - 1))),
                   decks=(b, a) if d["swapped"] else (a, b), cards=cards)
    return g, _core.bot_rng(_core.bot_seed_for(int(seed), i))


def play_teacher_game(seed, i, pairs, cards, out, limit, decide):
    """Game i of a teacher's dataset (teacher_game) played by `decide(game, rng) -> (action, data)` until
    it ends or `limit` decisions are made; each deciding player's observation goes into out[k] (an
    array) or is appended to out (a list). Returns (k, [data per decision], [deciding player per
    decision], result per seat: [z0, z1] with +1 / -1 / 0 for a win / loss / draw, None when cut).
    The one game loop of teacher_dataset and expert.label_dataset."""
    g, rng = teacher_game(seed, i, pairs, cards)
    data, who = [], []
    while not g.is_terminal and len(data) < limit:
        p = g.current_player
        if isinstance(out, list):
            out.append(g.observe(p))
        else:
            g.observe(p, out=out[len(data)])
        a, d = decide(g, rng)
        data.append(d)
        who.append(p)
        g.step(a)
    if not g.is_terminal:
        return len(data), data, who, None
    w = g.winner
    return len(data), data, who, ([0.0, 0.0] if w is None or w < 0 else
                                  [1.0 if w == 0 else -1.0, 1.0 if w == 1 else -1.0])


def discounted_values(who, z, gamma):
    """The value target of each decision of a game (`who`: its deciding players in order): z[p] *
    gamma ** k, k the number of p's own decisions after it, as PPO's returns count them; all 0 when
    z is None (a cut game: no result to learn from)."""
    out = np.zeros(len(who))
    if z is None:
        return out
    left = [0, 0]
    for j in range(len(who) - 1, -1, -1):
        p = who[j]
        out[j] = z[p] * gamma ** left[p]
        left[p] += 1
    return out


def play_games_into(play, record, obs, decisions, threads, progress):
    """The teacher datasets' one collection loop (kickstart here, search
    labels in azuki.expert): `play(game, obs_rows, budget)` plays game number
    `game` writing its observations into obs_rows and returns (k, per-decision
    data, who, result); `record(start, k, data, who, result)` files it. One
    thread plays the games in order; several put them together in game order,
    so the dataset is the same byte for byte. Returns the number of games."""
    if threads == 1:
        n = games = 0
        while n < decisions:
            k, data, who, z = play(games, obs[n:], decisions - n)
            record(n, k, data, who, z)
            n += k
            games += 1
            if progress is not None:
                progress(n, decisions)
        return games
    return _played_in_threads(play, record, obs, decisions, threads, progress)[1]


def _played_in_threads(play, record, obs, decisions, threads, progress):
    """teacher_dataset's games on `threads` threads: each takes the next game number, plays it
    whole into a buffer of its own; the main thread copies finished games in game order (the
    game that crosses the budget cut there, as threads=1 cuts it) until `decisions` are recorded.
    (decisions recorded, games used)."""
    import threading
    lock = threading.Condition()
    done, state = {}, {"next": 0, "stop": False, "error": None}

    def worker():
        try:
            while True:
                with lock:
                    if state["stop"]:
                        return
                    i = state["next"]
                    state["next"] += 1
                rows = []
                res = play(i, rows, decisions)
                with lock:
                    done[i] = (rows, res)
                    lock.notify_all()
        except BaseException as e:        # reported by the main thread
            with lock:
                state["error"] = e
                state["stop"] = True
                lock.notify_all()

    pool = [threading.Thread(target=worker, name=f"azuki-teacher-{t}", daemon=True) for t in range(threads)]
    n = games = 0
    try:
        for t in pool:
            t.start()
        while n < decisions:
            with lock:
                while games not in done and state["error"] is None:
                    lock.wait(0.2)        # a timeout, so Ctrl-C reaches the main thread
                if state["error"] is not None:
                    raise state["error"]
                buf, (k, acts, who, z) = done.pop(games)
            if k > decisions - n:          # the game that crosses the budget is cut: no result
                k, acts, who, z = decisions - n, acts[:decisions - n], who[:decisions - n], None
            if k:
                obs[n:n + k] = np.stack(buf[:k])
            record(n, k, acts, who, z)
            n += k
            games += 1
            if progress is not None:
                progress(n, decisions)
    finally:
        with lock:
            state["stop"] = True
        for t in pool:
            t.join()
    return n, games


def _action_log_prob(policy, obs, actions):
    """(log pi(a) [B], value [B]) of the policy (either head) on uint8 obs."""
    import torch
    from .policy import Factored
    dist, value = policy.forward_eval(obs)
    if isinstance(dist, Factored):
        return dist.log_prob(actions), value.reshape(-1)
    logp = torch.log_softmax(dist.float(), dim=-1)
    return logp.gather(1, actions.long().reshape(-1, 1)).reshape(-1), value.reshape(-1)


def fit_epochs(policy, n, losses, epochs, batch, lr, vf_coef, seed, log, what, pi_name, threads=1):
    """The distillations' one minibatch Adam loop (kickstart's fit here,
    azuki.expert.fit_labels): each epoch a fresh permutation of the n rows
    from a generator seeded by `seed`; `losses(idx)` gives (policy loss,
    value loss), means over those rows; loss = policy + vf_coef * value,
    gradients clipped to norm 1. `threads` > 1: each minibatch's rows in that
    many shares, each share's forward and backward on its own thread, its loss
    weighted by its share of the rows (azuki.learner_threads: the same
    gradient to float rounding, deterministic for a fixed count). Returns (the
    last epoch's mean losses, the generator, which the callers go on drawing
    from)."""
    import torch

    from .learner_threads import Shares, shares, sum_grads
    params = list(policy.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    gen = torch.Generator().manual_seed(int(seed) & ((1 << 63) - 1))
    out = {}
    policy.train()

    def share(idx, weight):
        lpi, lv = losses(idx)
        grads = torch.autograd.grad(weight * (lpi + vf_coef * lv), params, allow_unused=True)
        return grads, float(lpi.detach()) * idx.numel(), float(lv.detach()) * idx.numel()

    with Shares(threads) as pool:
        for ep in range(int(epochs)):
            perm = torch.randperm(n, generator=gen)
            tot_pi = tot_v = 0.0
            seen = 0
            for s in range(0, n, int(batch)):
                idx = perm[s:s + int(batch)]
                opt.zero_grad(set_to_none=True)
                if threads == 1:         # one thread: backward as it always was (the same run bit for bit)
                    lpi, lv = losses(idx)
                    (lpi + vf_coef * lv).backward()
                    tot_pi += float(lpi.detach()) * idx.numel()
                    tot_v += float(lv.detach()) * idx.numel()
                else:
                    parts = pool.run(share, [(idx[lo:hi], (hi - lo) / idx.numel())
                                             for lo, hi in shares(idx.numel(), threads)])
                    sum_grads(params, [p[0] for p in parts])
                    tot_pi += sum(p[1] for p in parts)
                    tot_v += sum(p[2] for p in parts)
                torch.nn.utils.clip_grad_norm_(params, 1.0)
                opt.step()
                seen += idx.numel()
            out = {"epoch": ep + 1, "policy_loss": tot_pi / seen, "value_loss": tot_v / seen}
            if log:
                log(f"{what}: epoch {ep + 1}/{epochs}: {pi_name} {out['policy_loss']:.3f}, "
                    f"value loss {out['value_loss']:.3f}")
    return out, gen


def fit(policy, data, epochs=2, batch=1024, lr=1e-3, vf_coef=0.5, seed=0, log=None, threads=1):
    """Fit `policy` to a teacher dataset (teacher_dataset's dict) by minibatch
    Adam: loss = -mean log pi(teacher action) + vf_coef * mean (v - target)^2,
    each minibatch split across `threads` threads (fit_epochs). Returns a dict
    of the last epoch's mean losses and the share of decisions where the
    policy's most likely action is the teacher's (on the last minibatches,
    sampled, so cheap)."""
    import torch
    if epochs < 1 or batch < 1:
        raise ValueError("epochs and batch must be >= 1")
    obs = torch.as_tensor(data["obs"])
    acts = torch.as_tensor(data["actions"]).long()
    vals = torch.as_tensor(data["values"])
    n = obs.shape[0]
    dev = next(policy.parameters()).device

    def losses(idx):
        logp, value = _action_log_prob(policy, obs[idx].to(dev), acts[idx].to(dev))
        return -logp.mean(), ((value - vals[idx].to(dev)) ** 2).mean()

    out, gen = fit_epochs(policy, n, losses, epochs, batch, lr, vf_coef, seed, log,
                          "kickstart", "-log pi(teacher)", threads=threads)
    with torch.no_grad():
        k = min(n, 4096)
        idx = torch.randperm(n, generator=gen)[:k]
        from .policy import Factored
        dist, _ = policy.forward_eval(obs[idx].to(dev))
        best = dist.argmax() if isinstance(dist, Factored) else dist.argmax(dim=-1)
        out["agreement"] = float((best.cpu() == acts[idx]).float().mean())
    return out


__all__ = ["parse_teacher", "teacher_dataset", "fit"]

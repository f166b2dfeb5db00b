"""`python -m azuki bench`: one table of azuki's speed on this machine.

Every figure is the median of several repetitions run in this process, and
every one is also given relative to a calibration loop (a fixed integer
recurrence timed in the same run), so tables taken on different machines, or
on one shared machine at different moments, can be compared. Engine figures
come from C loops over the public API without the GIL (`simulate`, whose
loop is csrc/play.c, and the loops of csrc/bench.c behind one call,
`azuki._core._bench`), so Python's call overhead is measured only where the
row says "through Python".

Rows of optional layers (the PufferLib env, a short `azuki train` run) join
the table when those layers are installed; a skipped training row says why
under the table.
"""
from __future__ import annotations

import json
import platform
import random
import statistics
import time

__all__ = ["run_bench", "format_table", "bench_micro", "bench_search", "bench_vec"]


def bench_micro(reps=200000, seed=1):
    """ns per call of reset (azk_game_init), clone, hash, serialize,
    deserialize, the flat mask, the legal list and observe, on a mid-game
    position; a calibration loop (ns per iteration of a fixed integer
    recurrence) to normalize rates across machines; and memcpy bandwidth
    (bytes/s). csrc/bench.c, AZK_BENCH_MICRO."""
    from ._core import OBS_LEN, SERIALIZED_SIZE, STATE_SIZE, _bench
    r = _bench("micro", reps, seed)
    keys = ("calibration_ns", "reset_ns", "clone_ns", "hash_ns", "serialize_ns", "deserialize_ns", "mask_ns",
            "legal_list_ns", "observe_ns")
    return {**{k: r[k] for k in keys}, "obs_bytes": OBS_LEN, "memcpy_bytes_per_s": r["memcpy_bytes_per_s"],
            "state_bytes": STATE_SIZE, "serialized_bytes": SERIALIZED_SIZE, "_sink": r["sink"] & 1}


def bench_search(decisions=40, sims=None, seed=1):
    """The search bot's speed: positions from greedy self-play (every third
    decision with two or more legal actions outside the mulligan) get one
    search decision each, only those timed, in C without the GIL
    (csrc/bench.c, AZK_BENCH_SEARCH). Returns simulations/s, ms per
    decision, decisions and sims. (Also azuki._core._bench_search.)"""
    from ._core import SEARCH_SIMS, _bench
    r = _bench("search", decisions, seed, sims=sims)
    sims = SEARCH_SIMS if sims is None else sims
    done, spent = r["count"], r["seconds"]
    return {"sims_per_s": done * sims / spent if spent > 0 else 0.0,
            "ms_per_decision": 1e3 * spent / done if done else 0.0,
            "decisions": done, "sims": sims, "_sink": r["sink"] & 1}


def bench_vec(n, steps, mode="self", obs=True, seed=1, obs_dtype="uint8", waiting_obs="full", threads=1):
    """Agent-steps per second of VecGame(n, threads=threads) with
    observations (if obs, in obs_dtype) and masks. Each acting row's action
    is drawn uniformly from its game's legal-action list (azk_legal_actions,
    pcg32) by the C loop, as the engine loop (simulate) picks: no mask scan,
    and the picking is part of the timed loop as it is of the engine rate.
    An agent-step is one decision applied for an agent row (ignored NO_OP
    rows do not count). mode="policy": each round is a step() for the acting
    agent rows followed by step_opponent() for the pending games, both
    answered by the same C picker (opponent decisions are not counted as
    agent-steps). csrc/bench.c, AZK_BENCH_VEC.
    bytes_per_agent_step: what the buffers receive per agent-step (masks and
    scalars of every row; observations of every row with waiting_obs="full",
    else of the acting rows plus the MASK field of the others)."""
    from ._core import NUM_ACTIONS, OBS_LEN, VecGame, _bench
    v = VecGame(n, seed=seed, mode=mode, bot="random", obs=obs, obs_dtype=obs_dtype, waiting_obs=waiting_obs,
                threads=threads)
    r = _bench("vec", steps, seed, vec=v)
    applied, dt = r["count"], r["seconds"]
    acting_rows = max(1.0, applied / steps)
    per_step = v.rows * (NUM_ACTIONS + 4 + 1 + 1)
    if obs:
        if waiting_obs == "full":
            per_step += v.rows * OBS_LEN
        else:
            per_step += acting_rows * OBS_LEN + (v.rows - acting_rows) * ((NUM_ACTIONS + 7) // 8)
    return {"agent_steps_per_s": applied / dt, "agent_steps": applied, "seconds": dt,
            "bytes_per_agent_step": per_step / acting_rows}


def _median(xs):
    return statistics.median(xs)


def _python_steps(games: int, seed: int) -> float:
    """Decisions per second through Python: Game.legal_actions + a random
    choice + Game.step, per decision."""
    from . import Game
    rng = random.Random(seed)
    n = 0
    t0 = time.perf_counter()
    for i in range(games):
        g = Game(seed=seed + i)
        while not g.is_terminal:
            legal = g.legal_actions()
            g.step(int(legal[rng.randrange(len(legal))]))
            n += 1
    return n / (time.perf_counter() - t0)


def pick_from_masks(obs, mask_off, out, rng):
    """out[r] = a uniform choice among the legal actions in the packed MASK
    field (bit k of byte k >> 3, at mask_off) of uint8 observation row r, 0
    for a row with none: the Python-layer rows' picker (numpy; they time it
    apart)."""
    import numpy as np
    from ._core import NUM_ACTIONS
    bits = np.unpackbits(obs[:, mask_off:mask_off + (NUM_ACTIONS + 7) // 8], axis=1, bitorder="little")
    cum = bits[:, :NUM_ACTIONS].cumsum(axis=1)
    j = (rng.random(len(out)) * cum[:, -1]).astype(np.int64)       # the j-th legal action, j < the count
    out[:] = np.where(cum[:, -1] > 0, (cum <= j[:, None]).sum(axis=1), 0)


def _layer_rates(n: int, steps: int, seed: int) -> dict:
    """Agent-steps/s of the Python layers over VecGame, self-play,
    n games, actions drawn uniformly from the MASK slice of each observation
    (pick_from_masks, timed apart: its time is left out of the rate, so the
    rows measure the layers, not the picker's mask scans), counting
    applied decisions (one per game per step):
    VecGame.step through Python, and, when pufferlib is installed, AzukiEnv
    alone, under pufferlib.vector.Serial and under Multiprocessing (2
    workers of n / 2 games)."""
    import numpy as np
    from ._core import VecGame
    from .obs import obs_layout
    off = obs_layout()["MASK"]["offset"]
    rng = np.random.default_rng(seed)

    def timed(step, obs_of, rows):
        acts = np.zeros(rows, dtype=np.int32)
        for k in range(3):      # warm-up
            pick_from_masks(obs_of(), off, acts, rng)
            step(acts)
        spent = 0.0
        for k in range(steps):
            pick_from_masks(obs_of(), off, acts, rng)
            t0 = time.perf_counter()
            step(acts)
            spent += time.perf_counter() - t0
        return n * steps / spent

    v = VecGame(n, seed=seed)
    out = {"vec_py_per_s": timed(v.step, lambda: v.obs, v.rows)}
    try:
        import pufferlib.vector as pv
        from .envs.puffer import AzukiEnv, make
    except ImportError:
        return out
    env = AzukiEnv(num_envs=n, report_interval=1 << 30)
    env.reset(seed)
    out["env_native_per_s"] = timed(env.step, lambda: env.observations, env.num_agents)
    for key, kw in (("env_serial_per_s", dict(backend="serial")),
                    ("env_serial_mask_per_s", dict(backend="serial", waiting_obs="mask")),
                    ("env_mp_per_s", dict(backend="multiprocessing", num_workers=2))):
        games = n // 2 if key == "env_mp_per_s" else n
        vec = make(num_envs=games, report_interval=1 << 30, **kw)
        try:
            state = {"obs": vec.reset(seed)[0]}

            def step(a, vec=vec, state=state):
                state["obs"] = vec.step(a)[0]
            out[key] = timed(step, lambda: state["obs"], vec.num_agents)
        finally:
            vec.close()
    del pv
    return out


def _cards_rates(cards, decks, games: int, seed: int) -> dict:
    """Engine-only random play over another card set: every ordered pairing
    of `decks`, `games` games in all, one C loop per pairing."""
    from ._core import simulate
    pairs = [(a, b) for a in decks for b in decks]
    per = max(1, games // len(pairs))
    decisions = seconds = n = 0
    for k, (a, b) in enumerate(pairs):
        s = simulate(per, seed=seed + k * per, decks=(a, b), cards=cards)
        decisions += s["decisions_per_game"] * per
        seconds += s["decisions_per_game"] * per / s["decisions_per_second"]
        n += per
    return {"cards_decisions_per_s": decisions / seconds, "cards_games_per_s": n / seconds,
            "cards_decisions_per_game": decisions / n}


def _policy_rates(n_obs: int, seed: int) -> dict:
    """ns per call of the default network (the shipped reference: structured:factored, hidden 256)
    on ONE observation, through Python: the C forward pass (azuki._core.CPolicy.forward: every
    action's log-probability and the value) and act (forward + one keyed sample, what a league
    snapshot does), and, when torch is installed, torch's forward_eval + full_log_prob and its
    PolicyPlayer.act on the same weights (torch's default threads); the ratio torch / C of the
    forward and of act, per repetition. Each figure is the median over the observations' calls."""
    import importlib.util
    import numpy as np
    from . import Game
    from .policy_np import REFERENCE, load_cpolicy, load_numpy_policy
    rng = random.Random(seed)
    obs = []
    g = Game(seed=seed)
    while len(obs) < n_obs:
        if g.is_terminal:
            g = Game(seed=seed + len(obs))
        obs.append(g.observe(g.current_player).copy())
        legal = g.legal_actions()
        g.step(int(legal[rng.randrange(len(legal))]))
    obs = [o[None, :] for o in obs]
    cp = load_cpolicy(REFERENCE)

    def per_call(f):
        """the median of the calls' times (a call the OS preempts on a shared machine is an outlier)"""
        for o in obs[:5]:
            f(o)
        ts = []
        for o in obs:
            t0 = time.perf_counter_ns()
            f(o)
            ts.append(time.perf_counter_ns() - t0)
        return float(statistics.median(ts))
    keys = np.zeros(1, dtype=np.uint64)
    out = {"cpolicy_forward_ns": per_call(cp.forward), "cpolicy_act_ns": per_call(lambda o: cp.act(o, keys=keys))}
    if importlib.util.find_spec("torch") is None:
        return out
    import torch
    from .policy import Factored, PolicyPlayer, make_policy
    npol = load_numpy_policy(REFERENCE)
    pol = make_policy(npol.meta["arch"], **npol.meta["model"]).eval()
    pol.load_state_dict({k: torch.as_tensor(v) for k, v in npol.w.items()})
    player = PolicyPlayer(pol, seed=0)

    @torch.no_grad()
    def forward(o):
        d, v = pol.forward_eval(torch.as_tensor(o))
        return d.full_log_prob() if isinstance(d, Factored) else d
    out["torch_forward_ns"] = per_call(forward)
    out["torch_act_ns"] = per_call(lambda o: player.act(o, keys=keys))
    out["cpolicy_forward_speedup"] = out["torch_forward_ns"] / out["cpolicy_forward_ns"]
    out["cpolicy_act_speedup"] = out["torch_act_ns"] / out["cpolicy_act_ns"]
    return out


def _train_rate(steps: int, seed: int, overrides=()) -> dict:
    """Agent-steps/s of a short `azuki train` (the default config: league,
    snapshots, PPO) for a fixed budget of `steps` agent-steps, in a child
    process (its own torch threads and signal handlers), with the curve's
    evaluations left out of the rate (summary.json's steps_per_second) and
    league.snapshot_steps a quarter of the budget, so snapshots play in it
    as in a long run. {} with a note in "_note" when torch or pufferlib is
    not installed or the run fails."""
    import importlib.util
    import os
    import subprocess
    import sys
    import tempfile
    missing = [m for m in ("torch", "pufferlib") if importlib.util.find_spec(m) is None]
    if missing:
        return {"_note": f"training row skipped: {' and '.join(missing)} not installed here (run the bench in "
                         f".venv-puffer: tools/setup_envs.sh puffer)"}
    sets = [f"league.snapshot_steps={max(1, steps // 4)}", "eval.games=8", "eval.final_games=0",
            "eval.minutes=1000", "run.checkpoint_minutes=1000", "kickstart.decisions=0", *overrides]
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "azuki", "train", "--minutes", "0", "--steps", str(steps), "--seed", str(seed),
               "--quiet", "--out", out] + [a for x in sets for a in ("--set", x)]
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        if p.returncode != 0:
            last = (p.stderr.strip().splitlines() or ["no output"])[-1]
            return {"_note": f"training row skipped: azuki train failed (status {p.returncode}): {last}"}
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    return {"train_per_s": float(summary["steps_per_second"]), "train_steps": float(summary["steps"])}


def run_bench(reps: int = 5, games: int = 4000, py_games: int = 100, micro_reps: int = 200000,
              vec_steps: int = 40000, seed: int = 1, search_decisions: int = 12, cards=None, decks=None,
              train_steps: int = 32768, train_overrides=(), policy_obs: int = 200) -> dict:
    """Run every row `reps` times; return medians (and the raw runs). With
    `cards` (a CardSet or JSON path), the engine-only rows are also timed
    over that set, every ordered pairing of `decks` (default: all its decks).
    train_steps: the budget of the training row (0: no training row);
    train_overrides: "section.key=value" settings for it (tests: a tiny
    config)."""
    from ._core import simulate
    if reps < 1 or games < 1 or py_games < 1 or micro_reps < 1 or vec_steps < 1 or train_steps < 0:
        raise ValueError("reps, games, py_games, micro_reps and vec_steps must be >= 1, train_steps >= 0")
    runs = []
    notes = []
    if cards is not None:
        from ._core import CardSet
        cards = cards if isinstance(cards, CardSet) else CardSet.from_json(str(cards))
        decks = list(decks or cards.decks)
        for d in decks:
            cards.deck_index(d)
    k1024 = max(1, vec_steps // 1024)
    for r in range(reps):
        sim = simulate(games, seed=seed + r * games)
        micro = bench_micro(micro_reps, seed=seed + r)
        row = {
            "decisions_per_s": sim["decisions_per_second"], "games_per_s": sim["games_per_second"],
            "decisions_per_game": sim["decisions_per_game"], "turns_per_game": sim["turns_per_game"],
            "python_decisions_per_s": _python_steps(py_games, seed + r * py_games),
            **{f"vec{n}_per_s": bench_vec(n, max(1, vec_steps // n), seed=seed + r)["agent_steps_per_s"]
               for n in (1, 64, 1024)},
            "vec1024_mask_per_s": bench_vec(1024, k1024, seed=seed + r, waiting_obs="mask")["agent_steps_per_s"],
            "vec1024_noobs_per_s": bench_vec(1024, k1024, obs=False, seed=seed + r)["agent_steps_per_s"],
            # the worker pool (VecGame(threads=2)): the same rows on two threads
            "vec1024_t2_per_s": bench_vec(1024, k1024, seed=seed + r, threads=2)["agent_steps_per_s"],
            "vec1024_noobs_t2_per_s": bench_vec(1024, k1024, obs=False, seed=seed + r,
                                                 threads=2)["agent_steps_per_s"],
            "vec1024_policy_per_s": bench_vec(1024, k1024, mode="policy", seed=seed + r)["agent_steps_per_s"],
            **{f"vec_bytes{k}": bench_vec(2, 2, seed=seed, waiting_obs=w)["bytes_per_agent_step"]
               for k, w in (("", "full"), ("_mask", "mask"))},
            **{k: v for k, v in micro.items() if not k.startswith("_")},
            "search_sims_per_s": bench_search(search_decisions, seed=seed + r)["sims_per_s"],
            **_layer_rates(1024, k1024, seed + r),
            **_policy_rates(policy_obs, seed + r),
            **(_cards_rates(cards, decks, games, seed + r * games) if cards is not None else {}),
        }
        if train_steps:
            t = _train_rate(train_steps, seed + r, train_overrides)
            if "_note" in t:
                if t["_note"] not in notes:
                    notes.append(t["_note"])
            else:
                row.update(t)
        runs.append(row)
    for r in runs:
        for k in ("", "_mask"):
            r[f"vec_limit{k}"] = r["memcpy_bytes_per_s"] / r[f"vec_bytes{k}"]
        # threads=2 against threads=1, within each repetition (side by side, so load drifts hit both)
        r["vec1024_t2_speedup"] = r["vec1024_t2_per_s"] / r["vec1024_per_s"]
        r["vec1024_noobs_t2_speedup"] = r["vec1024_noobs_t2_per_s"] / r["vec1024_noobs_per_s"]
    keys = [k for k in runs[0] if all(k in r for r in runs)]     # a row one repetition lacks is left out
    med = {k: _median([r[k] for r in runs]) for k in keys}
    return {"machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}",
            "reps": reps, "games": games, "median": med, "runs": runs, "notes": notes,
            "cards": None if cards is None else {"source": cards.source, "decks": decks}}


# (key, label, unit, kind): kind "rate" (higher is better) or "time" (ns per call) or "size"
_ROWS = [
    ("decisions_per_s", "engine-only random legal decisions (C loop)", "decisions/s", "rate"),
    ("games_per_s", "engine-only games (C loop)", "games/s", "rate"),
    ("decisions_per_game", "decisions per game", "", "plain"),
    ("turns_per_game", "turns per game", "", "plain"),
    ("cards_decisions_per_s", "engine-only decisions over --cards (every pairing)", "decisions/s", "rate"),
    ("cards_games_per_s", "engine-only games over --cards", "games/s", "rate"),
    ("cards_decisions_per_game", "decisions per game over --cards", "", "plain"),
    ("python_decisions_per_s", "Game.legal_actions + Game.step through Python", "decisions/s", "rate"),
    ("obs_bytes", "observation bytes per agent row (packed mask inside)", "bytes", "size"),
    ("vec1_per_s", "VecGame self-play, obs + masks, n = 1", "agent-steps/s", "rate"),
    ("vec64_per_s", "VecGame self-play, obs + masks, n = 64", "agent-steps/s", "rate"),
    ("vec1024_per_s", "VecGame self-play, obs + masks, n = 1024, threads=1", "agent-steps/s", "rate"),
    ("vec1024_t2_per_s", "VecGame self-play, obs + masks, n = 1024, threads=2", "agent-steps/s", "rate"),
    ("vec1024_t2_speedup", "  threads=2 / threads=1, obs + masks (same repetition)", "x", "plain"),
    ("vec1024_mask_per_s", "  same, threads=1, waiting_obs='mask'", "agent-steps/s", "rate"),
    ("vec1024_noobs_per_s", "VecGame self-play, masks only, n = 1024, threads=1", "agent-steps/s", "rate"),
    ("vec1024_noobs_t2_per_s", "VecGame self-play, masks only, n = 1024, threads=2", "agent-steps/s", "rate"),
    ("vec1024_noobs_t2_speedup", "  threads=2 / threads=1, masks only (same repetition)", "x", "plain"),
    ("vec1024_policy_per_s", "VecGame policy mode, n = 1024 (+ opponent)", "agent-steps/s", "rate"),
    ("vec_py_per_s", "VecGame.step through Python, n = 1024", "agent-steps/s", "rate"),
    ("env_native_per_s", "AzukiEnv (PufferEnv) alone, n = 1024", "agent-steps/s", "rate"),
    ("env_serial_per_s", "AzukiEnv under pufferlib Serial, n = 1024", "agent-steps/s", "rate"),
    ("env_serial_mask_per_s", "  AzukiEnv under Serial, waiting_obs='mask'", "agent-steps/s", "rate"),
    ("env_mp_per_s", "AzukiEnv under Multiprocessing, 2 x 512", "agent-steps/s", "rate"),
    ("cpolicy_forward_ns", "policy in C: forward, batch 1 (all log-probs + value)", "ns/call", "time"),
    ("torch_forward_ns", "  torch: forward_eval + full_log_prob, batch 1, same net", "ns/call", "time"),
    ("cpolicy_forward_speedup", "  torch / C, forward (same repetition)", "x", "plain"),
    ("cpolicy_act_ns", "policy in C: act, batch 1 (forward + keyed sample)", "ns/call", "time"),
    ("torch_act_ns", "  torch: PolicyPlayer.act, batch 1, same net", "ns/call", "time"),
    ("cpolicy_act_speedup", "  torch / C, act (same repetition)", "x", "plain"),
    ("train_per_s", "azuki train, default config (league, PPO), short run", "agent-steps/s", "rate"),
    ("train_steps", "  its budget", "agent-steps", "plain"),
    ("vec_bytes", "bytes per agent-step into VecGame's buffers (both seats)", "bytes", "size"),
    ("vec_bytes_mask", "  bytes per agent-step, waiting_obs='mask'", "bytes", "size"),
    ("vec_limit", "memcpy bandwidth / bytes per agent-step", "agent-steps/s", "rate"),
    ("vec_limit_mask", "  memcpy bandwidth / bytes, waiting_obs='mask'", "agent-steps/s", "rate"),
    ("search_sims_per_s", "search-bot simulations/s (default budget, one core)", "simulations/s", "rate"),
    ("reset_ns", "reset (azk_game_init: shuffle, deal)", "ns/call", "time"),
    ("clone_ns", "clone", "ns/call", "time"),
    ("hash_ns", "state hash", "ns/call", "time"),
    ("serialize_ns", "serialize (includes the card-set hash)", "ns/call", "time"),
    ("deserialize_ns", "deserialize (checks every invariant)", "ns/call", "time"),
    ("mask_ns", "flat legal mask (from the cached set)", "ns/call", "time"),
    ("legal_list_ns", "legal-action list (from the cached set)", "ns/call", "time"),
    ("observe_ns", "observe (one player's view, packed mask inside)", "ns/call", "time"),
    ("state_bytes", "game state", "bytes", "size"),
    ("serialized_bytes", "serialized state", "bytes", "size"),
    ("memcpy_bytes_per_s", "memcpy bandwidth (64 MiB blocks)", "bytes/s", "rate"),
    ("calibration_ns", "calibration loop", "ns/iteration", "time"),
]


def format_table(result: dict) -> str:
    med = result["median"]
    cal = med["calibration_ns"]
    eng = med["decisions_per_s"]
    lines = [f"azuki bench — {result['machine']}; medians of {result['reps']} runs "
             f"({result['games']} games per engine run); one core unless a row says threads=2",
             f"'x cal': the cost of one operation (one byte for bandwidth) in calibration-loop "
             f"iterations of {cal:.3f} ns, comparable across machines; 'of engine': an agent-steps/s "
             f"row against the engine-only decision rate of the same run ({eng:,.0f}/s, one core)",
             "",
             f"| {'what':<60} | {'value':>16} | {'unit':<13} | {'x cal':>10} | {'of engine':>9} |",
             f"|{'-' * 62}|{'-' * 18}|{'-' * 15}|{'-' * 12}|{'-' * 11}|"]
    for key, label, unit, kind in _ROWS:
        if key not in med:      # a layer not installed here (the PufferLib rows need pufferlib)
            continue
        v = med[key]
        # calibration-loop iterations per operation (per byte for bandwidth)
        rel = {"rate": f"{1e9 / (v * cal):.4g}" if v else "", "time": f"{v / cal:.4g}"}.get(kind, "")
        val = (f"{v:,.2f}" if unit == "x" else f"{v:,.1f}") if kind in ("time", "plain") else f"{v:,.0f}"
        of_engine = f"{100 * v / eng:.1f} %" if unit == "agent-steps/s" and eng else ""
        lines.append(f"| {label:<60} | {val:>16} | {unit:<13} | {rel:>10} | {of_engine:>9} |")
    if result.get("cards"):
        lines += ["", f"--cards: {result['cards']['source']}, decks {', '.join(result['cards']['decks'])}"]
    for note in result.get("notes", ()):
        lines += ["", note]
    lines += ["", "An agent-step is one decision applied for an agent row (a self-play game has two rows; the "
              "waiting seat's NO_OP row does not count); the VecGame rows draw actions uniformly from each acting "
              "game's legal-action list in C, as the engine loop does (no mask scan), and that picking is "
              "inside their rate as the engine loop's is inside its own (csrc/bench.c). "
              "Policy mode: one step() for the agent rows then one step_opponent() for the pending games "
              "per round, opponent decisions not counted (docs/vecgame.md). "
              "The rows through Python (VecGame.step, AzukiEnv) draw actions from the MASK slice of each "
              "observation (numpy), timed apart (left out of the rate); the AzukiEnv rows need pufferlib (run the bench in .venv-puffer, "
              "tools/setup_envs.sh puffer) and are left out without it. The training row runs `azuki train` "
              "(the default config, its league with snapshots from a quarter of the budget on, in a child "
              "process, torch on every core) for a fixed step budget and reports summary.json's rate (the "
              "curve's evaluations left out); it needs torch and pufferlib. Heap "
              "allocations per step: 0, proved by tests/c/test_noalloc.c (malloc interposed around azk_step). "
              "The policy rows run the shipped reference network (structured:factored, hidden 256) on one "
              "observation per call through Python, C (csrc/policy.c) and, when torch is installed, torch on the "
              "same weights (docs/policy_c.md)."]
    return "\n".join(lines)


# --quick's training row: a tiny config (2 envs x 16 games, 256 agent-steps per iteration)
QUICK_TRAIN = ("env.envs=2", "env.games_per_env=16", "ppo.bptt_horizon=8", "ppo.minibatch_size=128",
               "policy.hidden=32")


def main(args) -> int:
    train_steps = getattr(args, "train_steps", None)
    if args.quick:
        r = run_bench(reps=1, games=200, py_games=5, micro_reps=2000, vec_steps=2048, seed=args.seed, policy_obs=20,
                      cards=args.cards, decks=args.decks, train_steps=1024 if train_steps is None else train_steps,
                      train_overrides=QUICK_TRAIN)
    else:
        r = run_bench(reps=args.reps, games=args.games, seed=args.seed, cards=args.cards, decks=args.decks,
                      train_steps=32768 if train_steps is None else train_steps)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print(format_table(r))
    return 0

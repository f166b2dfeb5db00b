"""`python -m azuki bench`: one table of azuki's speed on this machine.

Every figure is the median of several repetitions run in this process, and
every one is also given relative to a calibration loop (a fixed integer
recurrence timed in the same run), so tables taken on different machines, or
on one shared machine at different moments, can be compared. Engine figures
come from C loops over the public API without the GIL (`simulate`,
`_bench_micro`), so Python's call overhead is measured only where the row
says "through Python".

Rows of optional layers (the PufferLib env) join the table when those layers
are installed.
"""
from __future__ import annotations

import json
import platform
import random
import statistics
import time

__all__ = ["run_bench", "format_table"]


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


def _layer_rates(n: int, steps: int, seed: int) -> dict:
    """Agent-steps/s of the Python layers over VecGame, self-play, uint8,
    n games, actions drawn uniformly from the MASK slice of each observation
    in C (_bench_pick, timed apart: its time is left out of the rate, so the
    rows measure the layers, not the picker's two mask scans), counting
    applied decisions (one per game per step):
    VecGame.step through Python, and, when pufferlib is installed, AzukiEnv
    alone, under pufferlib.vector.Serial and under Multiprocessing (2
    workers of n / 2 games)."""
    import numpy as np
    from ._core import VecGame, _bench_pick
    from .obs import obs_layout
    off = obs_layout()["MASK"]["offset"]

    def timed(step, obs_of, rows):
        acts = np.zeros(rows, dtype=np.int32)
        for k in range(3):      # warm-up
            _bench_pick(obs_of(), off, acts, seed + k)
            step(acts)
        spent = 0.0
        for k in range(steps):
            _bench_pick(obs_of(), off, acts, seed + 10 + k)
            t0 = time.perf_counter()
            step(acts)
            spent += time.perf_counter() - t0
        return n * steps / spent

    v = VecGame(n, seed=seed, obs_dtype="uint8")
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


def run_bench(reps: int = 5, games: int = 4000, py_games: int = 100, micro_reps: int = 200000,
              vec_steps: int = 40000, seed: int = 1, search_decisions: int = 12, cards=None, decks=None) -> dict:
    """Run every row `reps` times; return medians (and the raw runs). With
    `cards` (a CardSet or JSON path), the engine-only rows are also timed
    over that set, every ordered pairing of `decks` (default: all its decks)."""
    from ._core import _bench_micro, _bench_search, _bench_vec, simulate
    if reps < 1 or games < 1 or py_games < 1 or micro_reps < 1 or vec_steps < 1:
        raise ValueError("reps, games, py_games and micro_reps must be >= 1")
    runs = []
    if cards is not None:
        from ._core import CardSet
        cards = cards if isinstance(cards, CardSet) else CardSet.from_json(str(cards))
        decks = list(decks or cards.decks)
        for d in decks:
            cards.deck_index(d)
    for r in range(reps):
        sim = simulate(games, seed=seed + r * games)
        micro = _bench_micro(micro_reps, seed=seed + r)
        runs.append({
            "decisions_per_s": sim["decisions_per_second"], "games_per_s": sim["games_per_second"],
            "decisions_per_game": sim["decisions_per_game"], "turns_per_game": sim["turns_per_game"],
            "python_decisions_per_s": _python_steps(py_games, seed + r * py_games),
            **{f"vec{n}_{dt}_per_s": _bench_vec(n, max(1, vec_steps // n), seed=seed + r,
                                                obs_dtype=dt)["agent_steps_per_s"]
               for dt in ("float32", "uint8") for n in (1, 64, 1024)},
            "vec1024_uint8_mask_per_s": _bench_vec(1024, max(1, vec_steps // 1024), seed=seed + r, obs_dtype="uint8",
                                                   waiting_obs="mask")["agent_steps_per_s"],
            "vec1024_noobs_per_s": _bench_vec(1024, max(1, vec_steps // 1024), obs=False,
                                              seed=seed + r)["agent_steps_per_s"],
            # the worker pool (VecGame(threads=2)): the same rows on two threads
            "vec1024_uint8_t2_per_s": _bench_vec(1024, max(1, vec_steps // 1024), seed=seed + r, obs_dtype="uint8",
                                                 threads=2)["agent_steps_per_s"],
            "vec1024_noobs_t2_per_s": _bench_vec(1024, max(1, vec_steps // 1024), obs=False, seed=seed + r,
                                                 threads=2)["agent_steps_per_s"],
            "vec1024_policy_per_s": _bench_vec(1024, max(1, vec_steps // 1024), mode="policy", seed=seed + r,
                                               obs_dtype="uint8")["agent_steps_per_s"],
            **{f"vec_bytes_{k}": _bench_vec(2, 2, seed=seed, obs_dtype=dt, waiting_obs=w)["bytes_per_agent_step"]
               for k, dt, w in (("float32", "float32", "full"), ("uint8", "uint8", "full"),
                                ("uint8_mask", "uint8", "mask"))},
            **{k: v for k, v in micro.items() if not k.startswith("_")},
            "search_sims_per_s": _bench_search(search_decisions, seed=seed + r)["sims_per_s"],
            **_layer_rates(1024, max(1, vec_steps // 1024), seed + r),
            **(_cards_rates(cards, decks, games, seed + r * games) if cards is not None else {}),
        })
    for r in runs:
        for k in ("float32", "uint8", "uint8_mask"):
            r[f"vec_limit_{k}"] = r["memcpy_bytes_per_s"] / r[f"vec_bytes_{k}"]
        # threads=2 against threads=1, within each repetition (side by side, so load drifts hit both)
        r["vec1024_uint8_t2_speedup"] = r["vec1024_uint8_t2_per_s"] / r["vec1024_uint8_per_s"]
        r["vec1024_noobs_t2_speedup"] = r["vec1024_noobs_t2_per_s"] / r["vec1024_noobs_per_s"]
    med = {k: _median([r[k] for r in runs]) for k in runs[0]}
    return {"machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}",
            "reps": reps, "games": games, "median": med, "runs": runs,
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
    ("vec1_float32_per_s", "VecGame self-play, float32 obs + masks, n = 1", "agent-steps/s", "rate"),
    ("vec64_float32_per_s", "VecGame self-play, float32 obs + masks, n = 64", "agent-steps/s", "rate"),
    ("vec1024_float32_per_s", "VecGame self-play, float32 obs + masks, n = 1024", "agent-steps/s", "rate"),
    ("vec1_uint8_per_s", "VecGame self-play, uint8 obs + masks, n = 1", "agent-steps/s", "rate"),
    ("vec64_uint8_per_s", "VecGame self-play, uint8 obs + masks, n = 64", "agent-steps/s", "rate"),
    ("vec1024_uint8_per_s", "VecGame self-play, uint8 obs + masks, n = 1024", "agent-steps/s", "rate"),
    ("vec1024_uint8_mask_per_s", "  same, waiting_obs='mask', n = 1024", "agent-steps/s", "rate"),
    ("vec1024_noobs_per_s", "VecGame self-play, masks only, n = 1024", "agent-steps/s", "rate"),
    ("vec1024_uint8_t2_per_s", "VecGame self-play, uint8 obs + masks, n = 1024, threads=2", "agent-steps/s", "rate"),
    ("vec1024_uint8_t2_speedup", "  threads=2 / threads=1 (same repetition)", "x", "plain"),
    ("vec1024_noobs_t2_per_s", "VecGame self-play, masks only, n = 1024, threads=2", "agent-steps/s", "rate"),
    ("vec1024_noobs_t2_speedup", "  threads=2 / threads=1 (same repetition)", "x", "plain"),
    ("vec1024_policy_per_s", "VecGame policy mode, uint8, n = 1024 (+ opponent)", "agent-steps/s", "rate"),
    ("vec_py_per_s", "VecGame.step through Python, uint8, n = 1024", "agent-steps/s", "rate"),
    ("env_native_per_s", "AzukiEnv (PufferEnv) alone, uint8, n = 1024", "agent-steps/s", "rate"),
    ("env_serial_per_s", "AzukiEnv under pufferlib Serial, n = 1024", "agent-steps/s", "rate"),
    ("env_serial_mask_per_s", "  same, waiting_obs='mask'", "agent-steps/s", "rate"),
    ("env_mp_per_s", "AzukiEnv under Multiprocessing, 2 x 512", "agent-steps/s", "rate"),
    ("vec_bytes_float32", "bytes per agent-step, float32 (both seats)", "bytes", "size"),
    ("vec_bytes_uint8", "bytes per agent-step, uint8 (both seats)", "bytes", "size"),
    ("vec_bytes_uint8_mask", "bytes per agent-step, uint8, waiting_obs='mask'", "bytes", "size"),
    ("vec_limit_float32", "memcpy bandwidth / bytes, float32", "agent-steps/s", "rate"),
    ("vec_limit_uint8", "memcpy bandwidth / bytes, uint8", "agent-steps/s", "rate"),
    ("vec_limit_uint8_mask", "memcpy bandwidth / bytes, uint8, waiting_obs='mask'", "agent-steps/s", "rate"),
    ("search_sims_per_s", "search-bot simulations/s (default budget, one core)", "simulations/s", "rate"),
    ("reset_ns", "reset (azk_game_init: shuffle, deal)", "ns/call", "time"),
    ("clone_ns", "clone", "ns/call", "time"),
    ("hash_ns", "state hash", "ns/call", "time"),
    ("serialize_ns", "serialize (includes the card-set hash)", "ns/call", "time"),
    ("deserialize_ns", "deserialize (checks every invariant)", "ns/call", "time"),
    ("mask_ns", "flat legal mask (from the cached set)", "ns/call", "time"),
    ("legal_list_ns", "legal-action list (from the cached set)", "ns/call", "time"),
    ("observe_ns", "observe, float32 (one player's view, mask inside)", "ns/call", "time"),
    ("observe_u8_ns", "observe, uint8 (same layout)", "ns/call", "time"),
    ("obs_bytes_float32", "observation, float32", "bytes", "size"),
    ("obs_bytes_uint8", "observation, uint8", "bytes", "size"),
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
    lines += ["", "An agent-step is one decision applied for an agent row (a self-play game has two rows; the "
              "waiting seat's NO_OP row does not count); the VecGame rows draw actions uniformly from each acting "
              "game's legal-action list in C, as the engine loop does (no mask scan). "
              "Policy mode: one step() for the agent rows then one step_opponent() for the pending games "
              "per round, opponent decisions not counted (docs/vecgame.md). "
              "The rows through Python (VecGame.step, AzukiEnv) draw actions from the MASK slice of each "
              "observation in C, timed apart (left out of the rate); the AzukiEnv rows need pufferlib (run the bench in .venv-puffer, "
              "tools/setup_envs.sh puffer) and are left out without it. Heap "
              "allocations per step: 0, proved by tests/c/test_noalloc.c (malloc interposed around azk_step)."]
    return "\n".join(lines)


def main(args) -> int:
    if args.quick:
        r = run_bench(reps=1, games=200, py_games=5, micro_reps=2000, vec_steps=2048, seed=args.seed,
                      cards=args.cards, decks=args.decks)
    else:
        r = run_bench(reps=args.reps, games=args.games, seed=args.seed, cards=args.cards, decks=args.decks)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print(format_table(r))
    return 0

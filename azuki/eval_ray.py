"""azuki.eval_ray — one match of `azuki eval` spread over Ray workers
(`eval A B --ray W`, docs/eval.md "Very large evaluations: Ray")."""
from __future__ import annotations

import os
import time

from .eval_play import merge_blocks
from .eval_report import elo_diff
from .eval_schedule import DEFAULT_DECKS, MASK64, check_games, pairings


def ray_chunk(a, b, games, seed, decks, n, outcomes):
    """One worker's share: evaluate() of its deals."""
    from .evaluate import evaluate
    return evaluate(a, b, games=games, seed=seed, decks=decks, n=n, outcomes=outcomes)


def ray_chunks(games, decks, workers):
    """[(first deal, deals)] of each worker: whole rounds of the deck pairings."""
    quantum = 2 * 2 * len(pairings(decks))          # games: both seats x each ordered pairing x deck swap
    deals = games // 2
    per = max(quantum // 2, -(-deals // workers))
    per += (-per) % (quantum // 2)
    return [(k, min(per, deals - k)) for k in range(0, deals, per)]


def evaluate_ray(a, b, games=1000, seed=0, decks=DEFAULT_DECKS, n=256, workers=2, address=None, outcomes=True):
    """evaluate() spread over Ray workers, for very large evaluations (a local
    Ray instance, or the cluster at `address` / $RAY_ADDRESS). The deals are
    the same as one process plays (chunk j starts at deal j * chunk, engine
    seed seed + deal; chunks are whole rounds of the deck pairings, so every
    chunk is balanced); the players' and bots' random streams are per chunk,
    so results are reproducible for the same `workers` but not identical to
    evaluate()'s. Players must be specs (strings) or picklable objects.
    ``outcomes``: include the per-game list (as evaluate(outcomes=True));
    the command line leaves it out."""
    import ray
    check_games(games)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    decks = list(dict.fromkeys(decks))
    chunks = ray_chunks(games, decks, workers)
    if not ray.is_initialized():
        ray.init(address=address or os.environ.get("RAY_ADDRESS"), include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    remote = ray.remote(ray_chunk)
    t0 = time.perf_counter()
    parts = ray.get([remote.remote(a, b, 2 * m, (seed + k) & MASK64, decks, n, outcomes) for k, m in chunks])
    seconds = time.perf_counter() - t0
    tot = merge_blocks(parts)
    first = parts[0]
    return {
        "players": first["players"], "path": f"ray[{len(chunks)} chunks]/" + first["path"], "games": games,
        "seed": seed, "decks": decks, "n": n, **{k: tot[k] for k in ("wins", "losses", "draws", "truncated")},
        "win_rate": tot["win_rate"], "score": tot["score"],
        "elo_diff": elo_diff(tot["wins"], tot["losses"], tot["draws"] + tot["truncated"]),
        "by_seat": {k: merge_blocks([p["by_seat"][k] for p in parts]) for k in first["by_seat"]},
        "by_decks": {k: merge_blocks([p["by_decks"][k] for p in parts]) for k in first["by_decks"]},
        "seconds": seconds, "games_per_second": games / seconds if seconds > 0 else 0.0,
        "seeds": {"seed": seed, "chunks": [[(seed + k) & MASK64, 2 * m] for k, m in chunks]},
        "search_sims": first.get("search_sims"), "replays": None,
        **({"outcomes": [o for p in parts for o in p["outcomes"]]} if outcomes else {}),
    }

"""azuki.arena — bot against bot, balanced, with confidence intervals.

The schedule (exactly reproducible from the seed):
  * games come in pairs sharing one deal: game 2i and 2i+1 use engine seed
    seed + i (mod 2**64), so the same player goes first (D1) and the same
    shuffles happen per seat; in game 2i player A sits in seat 0, in game
    2i+1 in seat 1, each keeping its deck, so every deal is played from both
    seats;
  * deal i uses deck pairing i mod P of all ordered (deck of A, deck of B)
    pairs over `decks` (for STT01/STT02: 01-01, 01-02, 02-01, 02-02);
  * each bot in each game draws from its own stream seeded by splitmix64
    from (seed, game, seat), so a game can be replayed alone.
Results: win rates with 95 % Wilson intervals (azuki.stats), draws and
truncated games counted and reported (they are not wins for anyone),
breakdowns by A's seat, by deck pairing and by who went first.
"""
from __future__ import annotations

from . import _core
from .stats import rate

MASK64 = (1 << 64) - 1


def schedule(games, seed, players, decks):
    """The arena's game list: dict of columns (engine seed, decks, kinds and
    bot seeds per seat, A's seat, pairing index)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even integer >= 2 (each deal is played from both seats), got {games!r}")
    kinds = [_core.bot_kind(p) for p in players]
    if len(kinds) != 2:
        raise ValueError("players must be two bot names")
    names = list(decks)
    pairings = [(a, b) for a in names for b in names]
    cols = {k: [] for k in ("seed", "deck0", "deck1", "kind0", "kind1", "bseed0", "bseed1", "a_seat", "pairing")}
    for g in range(games):
        deal, a_seat = divmod(g, 2)
        pi = deal % len(pairings)
        da, db = pairings[pi]
        seat_deck = [da, db] if a_seat == 0 else [db, da]
        seat_kind = [kinds[0], kinds[1]] if a_seat == 0 else [kinds[1], kinds[0]]
        base = _core.bot_seed_for(seed, g)
        cols["seed"].append((seed + deal) & MASK64)
        for s in range(2):
            cols[f"deck{s}"].append(seat_deck[s])
            cols[f"kind{s}"].append(seat_kind[s])
            cols[f"bseed{s}"].append(_core.bot_seed_for(base, s))
        cols["a_seat"].append(a_seat)
        cols["pairing"].append(pi)
    return cols, pairings


def _play(cols, d0, d1, cs_obj, turn_cap, decision_cap, sims, jobs):
    """play_games over the schedule, split over `jobs` threads (the games are
    independent and played without the GIL: the same results for any jobs)."""
    import numpy as np
    n = len(d0)

    def run(lo, hi):
        return _core.play_games(cols["seed"][lo:hi], d0[lo:hi], d1[lo:hi], cols["kind0"][lo:hi],
                                cols["kind1"][lo:hi], cols["bseed0"][lo:hi], cols["bseed1"][lo:hi],
                                cards=cs_obj, turn_cap=turn_cap, decision_cap=decision_cap, sims=sims)
    if jobs <= 1 or n < 2:
        return run(0, n)
    import time
    from concurrent.futures import ThreadPoolExecutor
    jobs = min(jobs, n)
    # interleaved chunks of a few games, so slow games spread over the threads
    step = 2
    spans = [(lo, min(n, lo + step)) for lo in range(0, n, step)]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        parts = list(ex.map(lambda s: run(*s), spans))
    wall = time.perf_counter() - t0
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "seconds"}
    out["seconds"] = sum(p["seconds"] for p in parts)      # CPU-side time: per-decision figures stay per core
    out["wall_seconds"] = wall
    return out


def _per_bot(r, a_seat, labels):
    """Mean microseconds per decision of each bot (time inside its act calls)."""
    t = [0.0, 0.0]
    n = [0, 0]
    for i, s in enumerate(a_seat):
        for seat in (0, 1):
            who = 0 if seat == s else 1
            t[who] += float(r[f"seat{seat}_seconds"][i])
            n[who] += int(r[f"seat{seat}_decisions"][i])
    return {labels[k]: (1e6 * t[k] / n[k] if n[k] else 0.0) for k in (0, 1)}


def run_arena(players, games, seed=0, decks=None, cards=None, turn_cap=200, decision_cap=10000, sims=None,
              jobs=1):
    """Play the arena and return its report (a JSON-able dict). `sims`: the
    search bot's simulations per decision (None: its default); `jobs`: threads
    playing games at once (the results do not depend on it)."""
    players = tuple(players)
    if len(players) != 2:
        raise ValueError(f"players must be two bot names, got {players!r}")
    cs_obj = _core.CardSet.default() if cards is None else _core.CardSet.from_json(cards)
    decks = list(dict.fromkeys(cs_obj.decks if decks is None else decks))
    for d in decks:
        cs_obj.deck_index(d)      # ValueError for an unknown deck
    cols, pairings = schedule(games, seed, players, decks)
    index = {d: cs_obj.deck_index(d) for d in decks}
    d0 = [index[d] for d in cols["deck0"]]
    d1 = [index[d] for d in cols["deck1"]]
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    r = _play(cols, d0, d1, cs_obj, turn_cap, decision_cap, sims, jobs)
    labels = list(players) if players[0] != players[1] else [f"{players[0]}#A", f"{players[1]}#B"]
    winner = r["winner"].tolist()
    first = r["first_player"].tolist()
    a_seat = cols["a_seat"]
    res = r["result"].tolist()
    draws = sum(1 for x in res if x == 3)
    trunc = sum(1 for x in res if x == 4)
    a_win = [w == s for w, s in zip(winner, a_seat)]
    b_win = [w >= 0 and w != s for w, s in zip(winner, a_seat)]

    def block(sel):
        idx = [i for i in range(games) if sel(i)]
        n = len(idx)
        return {"games": n,
                labels[0]: rate(sum(a_win[i] for i in idx), n),
                labels[1]: rate(sum(b_win[i] for i in idx), n),
                "draws": sum(res[i] == 3 for i in idx), "truncated": sum(res[i] == 4 for i in idx)}

    reasons = {}
    for e in r["end_reason"].tolist():
        name = _core.END_REASONS[e]
        reasons[name] = reasons.get(name, 0) + 1
    decisions = int(r["decisions"].sum())
    secs = r["seconds"]
    return {
        "players": labels, "bot_versions": {p: _core.BOT_VERSIONS[p] for p in players},
        "search_sims": (_core.SEARCH_SIMS if sims is None else sims) if "search" in players else None,
        "jobs": jobs, "wall_seconds": r.get("wall_seconds", secs),
        "games": games, "seed": seed, "decks": decks, "turn_cap": turn_cap, "decision_cap": decision_cap,
        "overall": block(lambda i: True),
        "score": {labels[0]: (sum(a_win) + 0.5 * draws) / games, labels[1]: (sum(b_win) + 0.5 * draws) / games},
        "draws": draws, "truncated": trunc, "errors": int(r["error"].sum()), "end_reasons": reasons,
        "by_seat": {f"{labels[0]} in seat {s}": block(lambda i, s=s: a_seat[i] == s) for s in (0, 1)},
        "by_first_player": {f"{labels[0]} first": block(lambda i: first[i] == a_seat[i]),
                            f"{labels[1]} first": block(lambda i: first[i] != a_seat[i])},
        "by_decks": {f"{labels[0]} {a} vs {labels[1]} {b}": block(lambda i, k=k: cols["pairing"][i] == k)
                     for k, (a, b) in enumerate(pairings)},
        "decisions": decisions, "seconds": secs,
        "games_per_second": games / secs if secs > 0 else 0.0,
        "us_per_decision": 1e6 * secs / decisions if decisions else 0.0,
        "us_per_decision_by_bot": _per_bot(r, a_seat, labels),
    }

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

Public API (used by azuki.evaluate and azuki.balance; docs/eval.md):
schedule(), kind_codes(), play_schedule(), chunk_for() / CHUNK / SEARCH_CHUNK,
run_arena().
"""
from __future__ import annotations

from . import _core
from .stats import rate

MASK64 = (1 << 64) - 1


def schedule(games, seed, players, decks, lo=0, hi=None):
    """The arena's game list, games lo..hi-1 of `games` (default all): dict of
    columns (engine seed, decks, kinds and bot seeds per seat, A's seat,
    pairing index)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even integer >= 2 (each deal is played from both seats), got {games!r}")
    # a bot name, or a kind code (an int: -1 - j is play_games' policy bot j)
    kinds = [p if isinstance(p, int) and not isinstance(p, bool) else _core.bot_kind(p) for p in players]
    if len(kinds) != 2:
        raise ValueError("players must be two bot names")
    names = list(decks)
    pairings = [(a, b) for a in names for b in names]
    cols = {k: [] for k in ("seed", "deck0", "deck1", "kind0", "kind1", "bseed0", "bseed1", "a_seat", "pairing")}
    for g in range(lo, games if hi is None else min(hi, games)):
        d = _core.arena_deal(g, seed=seed, npairs=len(pairings))   # the schedule is defined in C (azk_arena_deal)
        a_seat, pi, base = d["agent_seat"], d["pairing"], d["bot_seed"]
        da, db = pairings[pi]
        seat_deck = [da, db] if a_seat == 0 else [db, da]
        seat_kind = [kinds[0], kinds[1]] if a_seat == 0 else [kinds[1], kinds[0]]
        cols["seed"].append(d["engine_seed"])
        for s in range(2):
            cols[f"deck{s}"].append(seat_deck[s])
            cols[f"kind{s}"].append(seat_kind[s])
            cols[f"bseed{s}"].append(_core.bot_seed_for(base, s))
        cols["a_seat"].append(a_seat)
        cols["pairing"].append(pi)
    return cols, pairings


def kind_codes(entries):
    """(codes, pbots) for schedule() and play_schedule(): each entry is a
    built-in bot name (its own code) or a loaded policy bot (CPolicy, kind,
    settings), which gets code -1 - j for its place j in `pbots`."""
    codes, pbots = [], []
    for e in entries:
        if isinstance(e, tuple):
            pbots.append(e)
            codes.append(-len(pbots))
        else:
            codes.append(e)                # a name (schedule() checks it)
    return tuple(codes), pbots


def play_schedule(cols, d0, d1, cs_obj, turn_cap, decision_cap, sims, jobs, pbots=()):
    """Play the games of a schedule() slice: `cols` its columns, `d0` / `d1`
    the seats' deck indices in `cs_obj` (CardSet.deck_index), `pbots` the
    policy bots that kind codes -1 - j name ((CPolicy, kind, settings):
    _core.play_games). Returns play_games' columns (winner, result,
    end_reason, first_player, decisions, per-seat times, error, seconds). The
    games are split over `jobs` threads (they are independent and played
    without the GIL: the same results for any jobs). Public: azuki.evaluate
    and azuki.balance play the arena's games through it."""
    import numpy as np
    n = len(d0)

    def run(lo, hi):
        return _core.play_games(cols["seed"][lo:hi], d0[lo:hi], d1[lo:hi], cols["kind0"][lo:hi],
                                cols["kind1"][lo:hi], cols["bseed0"][lo:hi], cols["bseed1"][lo:hi],
                                cards=cs_obj, turn_cap=turn_cap, decision_cap=decision_cap, sims=sims,
                                pbots=pbots)
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


# Games per play_games call: one chunk's schedule and results are all that is held at once (memory does
# not grow with --games), and Ctrl-C (KeyboardInterrupt) and progress come between chunks. The search
# bot is ~1,000x slower per game than random or greedy: its chunks are smaller.
CHUNK = 4096
SEARCH_CHUNK = 64


def chunk_for(kinds):
    """Games per play_games call for a match of these bot kinds."""
    return SEARCH_CHUNK if {"search", "psearch", "policy"} & set(kinds) else CHUNK


def run_arena(players, games, seed=0, decks=None, cards=None, turn_cap=200, decision_cap=10000, sims=None,
              jobs=1, progress=None):
    """Play the arena and return its report (a JSON-able dict). `players`:
    two built-in bot names or policy-bot specs (``policy:PATH``,
    ``psearch:PATH[:sims=N,...]``, azuki.bots.parse_pbot_spec). `sims`: the
    search bot's simulations per decision (None: its default); `jobs`: threads
    playing games at once (the results do not depend on it). The games are
    played chunk_for(players) at a time and counted as they end; `progress(done, total)`
    is called after each chunk."""
    import numpy as np
    players = tuple(players)
    if len(players) != 2:
        raise ValueError(f"players must be two bot names, got {players!r}")
    cs_obj = _core.CardSet.default() if cards is None else _core.CardSet.from_json(cards)
    # policy bots (azuki.bots.parse_pbot_spec: policy:PATH, psearch:PATH[:k=v,...]) play in C too:
    # their weights are loaded (and checked against the card set) once; kind code -1 - j is pbots[j]
    from .bots import PBOT_VERSIONS, parse_pbot_spec
    entries, versions = [], {}
    for p in players:
        spec = parse_pbot_spec(p)
        if spec is None:
            entries.append(p)
            versions[p] = _core.BOT_VERSIONS.get(p)
            continue
        from .policy_np import cpolicy_for
        entries.append((cpolicy_for(spec[1], cs_obj), spec[0], spec[2]))
        versions[p] = PBOT_VERSIONS[spec[0]]
    codes, pbots = kind_codes(entries)
    kinds_used = [parse_pbot_spec(p)[0] if parse_pbot_spec(p) else p for p in players]
    decks = list(dict.fromkeys(cs_obj.decks if decks is None else decks))
    for d in decks:
        cs_obj.deck_index(d)      # ValueError for an unknown deck
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    schedule(2, seed, tuple(codes), decks)            # argument checks (games, players) before any play
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even integer >= 2 (each deal is played from both seats), got {games!r}")
    pairings = [(a, b) for a in decks for b in decks]
    index = {d: cs_obj.deck_index(d) for d in decks}
    labels = list(players) if players[0] != players[1] else [f"{players[0]}#A", f"{players[1]}#B"]
    # counts[group][member] = [games, A wins, B wins, draws, truncated]
    by_seat = np.zeros((2, 5), dtype=np.int64)
    by_first = np.zeros((2, 5), dtype=np.int64)       # 0: A went first, 1: B went first
    by_decks = np.zeros((len(pairings), 5), dtype=np.int64)
    reasons = np.zeros(len(_core.END_REASONS), dtype=np.int64)
    decisions = errors = 0
    secs = wall = 0.0
    t_bot = [0.0, 0.0]
    n_bot = [0, 0]
    chunk = chunk_for(kinds_used)
    for lo in range(0, games, chunk):
        cols, _ = schedule(games, seed, tuple(codes), decks, lo=lo, hi=lo + chunk)
        d0 = [index[d] for d in cols["deck0"]]
        d1 = [index[d] for d in cols["deck1"]]
        r = play_schedule(cols, d0, d1, cs_obj, turn_cap, decision_cap, sims, jobs, pbots)
        a_seat = np.asarray(cols["a_seat"], dtype=np.int64)
        winner = r["winner"].astype(np.int64)
        res = r["result"].astype(np.int64)
        row = np.stack([np.ones_like(a_seat), winner == a_seat, (winner >= 0) & (winner != a_seat), res == 3,
                        res == 4], axis=1).astype(np.int64)
        np.add.at(by_seat, a_seat, row)
        np.add.at(by_first, (r["first_player"].astype(np.int64) != a_seat).astype(np.int64), row)
        np.add.at(by_decks, np.asarray(cols["pairing"], dtype=np.int64), row)
        np.add.at(reasons, r["end_reason"].astype(np.int64), 1)
        decisions += int(r["decisions"].sum())
        errors += int(r["error"].sum())
        secs += float(r["seconds"])
        wall += float(r.get("wall_seconds", r["seconds"]))
        for seat in (0, 1):
            mine = a_seat == seat                      # A sits in `seat` in these games
            for who, sel in ((0, mine), (1, ~mine)):
                t_bot[who] += float(r[f"seat{seat}_seconds"][sel].sum())
                n_bot[who] += int(r[f"seat{seat}_decisions"][sel].sum())
        if progress is not None:
            progress(min(games, lo + chunk), games)

    def block(c):
        n = int(c[0])
        return {"games": n, labels[0]: rate(int(c[1]), n), labels[1]: rate(int(c[2]), n),
                "draws": int(c[3]), "truncated": int(c[4])}

    tot = by_seat.sum(axis=0)
    draws, trunc = int(tot[3]), int(tot[4])
    return {
        "players": labels, "bot_versions": versions,
        "search_sims": (_core.SEARCH_SIMS if sims is None else sims) if "search" in players else None,
        "jobs": jobs, "wall_seconds": wall,
        "games": games, "seed": seed, "decks": decks, "turn_cap": turn_cap, "decision_cap": decision_cap,
        "overall": block(tot),
        "score": {labels[0]: (int(tot[1]) + 0.5 * draws) / games, labels[1]: (int(tot[2]) + 0.5 * draws) / games},
        "draws": draws, "truncated": trunc, "errors": errors,
        "end_reasons": {_core.END_REASONS[k]: int(v) for k, v in enumerate(reasons) if v},
        "by_seat": {f"{labels[0]} in seat {s}": block(by_seat[s]) for s in (0, 1)},
        "by_first_player": {f"{labels[0]} first": block(by_first[0]), f"{labels[1]} first": block(by_first[1])},
        "by_decks": {f"{labels[0]} {a} vs {labels[1]} {b}": block(by_decks[k]) for k, (a, b) in enumerate(pairings)},
        "decisions": decisions, "seconds": secs,
        "games_per_second": games / secs if secs > 0 else 0.0,
        "us_per_decision": 1e6 * secs / decisions if decisions else 0.0,
        "us_per_decision_by_bot": {labels[k]: (1e6 * t_bot[k] / n_bot[k] if n_bot[k] else 0.0) for k in (0, 1)},
    }

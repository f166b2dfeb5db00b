"""Playing many games: `azuki.simulate` and `azuki._core.play_games` (the
binding re-exports both, and bot_kind), the bot names, the policy bots'
settings.

The loops are C (csrc/play.c); this module checks what is plain Python, runs
them in stretches of SIM_SIGNAL_GAMES games through `azuki._core._Players`
(each stretch without the GIL; Ctrl-C lands between stretches) and builds the
results. It imports the extension only inside functions, because the
extension imports it.
"""
from __future__ import annotations

import time

import numpy as np

from . import spec_autogen as S
from ._util import excerpt

# Games per GIL-free stretch of simulate() and play_games(): signals (Ctrl-C) are checked between
# stretches whatever simulate's `chunk` is.
SIM_SIGNAL_GAMES = 64

# Each policy bot's settings (pbot_defaults(kind) gives their defaults); all but the counts (sims, threads, halving)
# are held in C as thousandths, in these ranges.
PBOT_SETTINGS = {"policy": ("temp",), "psearch": ("sims", "cpuct", "prior_temp", "value", "threads", "halving")}
_MILLI_RANGE = {"temp": (0, 1000), "cpuct": (0, 1000), "prior_temp": (0.001, 1000), "value": (0, 1)}

# play_games' output columns (azk_play_rows), all int32 but the seconds (float64)
PLAY_COLUMNS = ("result", "winner", "first_player", "end_reason", "turns", "decisions", "error",
                "seat0_seconds", "seat1_seconds", "seat0_decisions", "seat1_decisions")
# the dtypes of _Players.play_rows' columns: seeds, bseed0, bseed1, deck0, deck1, kind0, kind1, then PLAY_COLUMNS
PLAY_DTYPES = (np.uint64,) * 3 + (np.int32,) * 4 + tuple(
    np.float64 if name.endswith("_seconds") else np.int32 for name in PLAY_COLUMNS)


def simulate(games, seed=0, decks=("STT01", "STT02"), cards=None, turn_cap=200, progress=None, chunk=500,
             decision_cap=10000, players=None, pbots=None):
    """Play `games` games between two uniform-random legal players. Game i uses
    engine seed `seed + i` (mod 2**64); the players draw from a separate pcg32
    stream. Returns a dict of results; `progress(done, games)` is called after
    every `chunk` games. Ctrl-C (KeyboardInterrupt) stops it within a few
    games, progress callback or not. `end_reasons` counts how the games
    ended (azuki.END_REASONS; docs/rules.md §13).

    `players`: None (the uniform-random players above), or two built-in bot
    names (azuki.BOT_KINDS, docs/bots.md), e.g. ("greedy", "random"):
    players[k] plays decks[k] (a "side"); sides alternate seats like the
    decks, and side k's bot draws from its own stream seeded with
    azuki.bot_seed_for(seed, k). The result then also has `players` and
    `wins_by_side`. Played in C without the GIL (csrc/play.c). `pbots`: None,
    or per side None or a policy bot (CPolicy, kind, settings) (pbot_act)
    that plays that side instead; its players entry is then only the label
    (e.g. the spec).
    """
    from ._core import _Players
    labels, kinds, specs = sim_sides(players, pbots)
    run = _Players(cards, turn_cap, decision_cap, None, specs, "simulate")
    n, chunk, d0, d1 = run.sim_start(games, seed, decks, kinds, chunk)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, got {type(progress).__name__}")
    start, next_report, counters = 0, min(n, chunk), run.sim_run(0, 0)
    t0 = time.perf_counter()
    while start < n:
        end = min(next_report, start + SIM_SIGNAL_GAMES)
        counters = run.sim_run(start, end)
        start = end
        if start == next_report:
            if progress is not None:
                progress(start, n)
            next_report = min(n, next_report + chunk)
    return sim_result(counters, time.perf_counter() - t0, n, labels, run.cards.decks, d0, d1)


def play_games(seeds, deck0, deck1, kind0, kind1, bseed0, bseed1, cards=None, turn_cap=200, decision_cap=10000,
               sims=None, pbots=()):
    """Play one game per row of the equal-length integer arrays: engine seed,
    the deck indices of seats 0 and 1, their bot kinds and bot seeds; in C
    (csrc/play.c), without the GIL. Returns a dict of numpy arrays: result
    (azk result number), winner (-1 none), first_player, end_reason, turns,
    decisions, error (1 where the engine refused a bot's action: a bug),
    seat0/1_seconds and seat0/1_decisions (time in each seat's bot and its
    decisions), and seconds. `sims`: the search bot's simulations per
    decision (None: SEARCH_SIMS). `pbots`: policy bots, a sequence of
    (CPolicy, kind, settings) (pbot_act); kind -1 - j in a kind column plays
    pbots[j] (its workspace allocated once here, not per decision). Several
    threads may call it at once (each game is independent)."""
    from ._core import BOT_KINDS, _Players
    run = _Players(cards, turn_cap, decision_cap, sims, pbots, "play_games")
    cols, res = play_columns((seeds, bseed0, bseed1), (deck0, deck1, kind0, kind1), len(run.cards.decks),
                             len(run.pbots), len(BOT_KINDS))
    n = len(cols[0])
    t0 = time.perf_counter()
    for start in range(0, n, SIM_SIGNAL_GAMES):
        run.play_rows(cols, start, min(n, start + SIM_SIGNAL_GAMES))
    res["seconds"] = time.perf_counter() - t0
    return res


def bot_kind(name):
    """The kind number of a bot name (azuki.BOT_KINDS); ValueError otherwise."""
    from ._core import BOT_KINDS
    if isinstance(name, str) and name in BOT_KINDS:
        return BOT_KINDS.index(name)
    if isinstance(name, str):
        raise ValueError(f"unknown bot {excerpt(name)}: expected one of {', '.join(BOT_KINDS)}")
    raise TypeError(f"a bot is named by a string ({', '.join(BOT_KINDS)}), got {type(name).__name__}")


def sim_sides(players, pbots):
    """simulate's players as (labels, side kinds, policy-bot specs): (None, None, []) for the random
    players; else side k's kind is its bot's number, or -1 - j for the j-th policy bot spec."""
    if players is None:
        return None, None, []
    pb = list(pbots) if pbots is not None else [None, None]
    if isinstance(players, str) or not hasattr(players, "__len__") or len(players) != 2 or len(pb) != 2:
        raise ValueError(f"players must be two bot names, got {excerpt(players)}")
    kinds, specs = [], []
    for k in range(2):
        if pb[k] is None:
            kinds.append(bot_kind(players[k]))
        else:
            specs.append(pb[k])
            kinds.append(-len(specs))
    return (str(players[0]), str(players[1])), kinds, specs


def sim_result(t, seconds, games, labels, deck_names, d0, d1):
    """simulate's result dict from azk_sim's counters `t` (a dict) after `games` games in `seconds`."""
    extra = {} if labels is None else {"players": labels, "wins_by_side": list(t["wins_by_side"])}
    results, reasons, by_side = t["results"], t["end_reasons"], t["wins_by_side"]
    decisions, turns = t["decisions"], t["turns"]
    return extra | {
        "games": games, "decks": (deck_names[d0], deck_names[d1]),
        "wins_by_deck": {deck_names[d0]: by_side[0], deck_names[d1]: by_side[1]} if d0 != d1 else None,
        "wins_by_seat": list(t["wins_by_seat"]), "wins_first_player": t["first_player_wins"],
        "mirror": d0 == d1, "draws": results[S.RESULT.index("DRAW")],
        "truncated": results[S.RESULT.index("TRUNCATED")],
        "end_reasons": {S.END[k]: reasons[k] for k in range(1, len(S.END)) if reasons[k]},
        "errors": t["errors"], "decisions": decisions, "turns": turns, "seconds": seconds,
        "decisions_per_game": decisions / games if games else 0.0,
        "turns_per_game": turns / games if games else 0.0,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
        "decisions_per_second": decisions / seconds if seconds > 0 else 0.0}


def play_columns(u64, i32, ndecks, npbots, nkinds):
    """play_games' columns checked and made contiguous: (the columns _Players.play_rows reads: the uint64
    seeds, bseed0, bseed1, the int32 deck0, deck1, kind0, kind1, then the zeroed outputs; the result dict
    of the outputs), or ValueError."""
    u = [np.ascontiguousarray(np.asarray(a, dtype=np.uint64)) for a in u64]
    i = [np.ascontiguousarray(np.asarray(a, dtype=np.int32)) for a in i32]
    n = u[0].shape[0]
    if any(a.ndim != 1 or a.shape[0] != n for a in u + i):
        raise ValueError("play_games: every column must be a 1-d array of the same length")
    if n and any(a.min() < 0 or a.max() >= ndecks for a in i[:2]):
        raise ValueError(f"play_games: deck index out of range [0, {ndecks})")
    if n and any(a.min() < -npbots or a.max() >= nkinds for a in i[2:]):
        raise ValueError(f"play_games: bot kind out of range [{-npbots}, {nkinds})")
    res = {name: np.zeros(n, dtype=dt) for name, dt in zip(PLAY_COLUMNS, PLAY_DTYPES[7:])}
    return u + i + list(res.values()), res


def pbot_specs(pbots, what, most):
    """_Players' policy bots: a list of (CPolicy, kind, settings), at most `most` (ValueError naming `what`)."""
    pbots = list(pbots)
    if len(pbots) > most:
        raise ValueError(f"{what}: at most two policy bots")
    return pbots


def checked_columns(cols, end, ncols):
    """_Players.play_rows' columns (as play_columns makes them) checked by the one array checker: inputs read only,
    outputs writeable, each at least `end` rows (ValueError otherwise)."""
    from ._core import _out_array
    assert len(PLAY_DTYPES) == ncols, "azuki.games.PLAY_DTYPES and azk_play_rows_columns disagree"
    c = list(cols)
    if len(c) != ncols:
        raise ValueError("_Players.play_rows: the columns of azuki.games.play_columns")
    for k, a in enumerate(c):
        if a is None or _out_array(a, PLAY_DTYPES[k], (None,), f"play_rows column {k}", k >= 7).shape[0] < end:
            raise ValueError(f"_Players.play_rows: column {k} is missing or shorter than {end} rows")
    return c


def pbot_kind(kind):
    """The number of policy bot `kind` (azuki.PBOT_KINDS: "policy", "psearch"); ValueError otherwise."""
    from ._core import PBOT_KINDS
    if isinstance(kind, str) and kind in PBOT_KINDS:
        return PBOT_KINDS.index(kind)
    raise ValueError(f"unknown policy bot {excerpt(kind)}: expected one of {', '.join(PBOT_KINDS)}")


def pbot_settings_dict(kind, p):
    """The settings of policy bot `kind` from its C parameters `p` (a dict of azk_pbot_params' fields)."""
    full = {"temp": p["temp_milli"] / 1000, "sims": p["sims"], "cpuct": p["cpuct_milli"] / 1000,
            "prior_temp": p["prior_temp_milli"] / 1000, "value": p["value_milli"] / 1000, "threads": p["threads"],
            "halving": p["halving"]}
    return {n: full[n] for n in PBOT_SETTINGS[kind]}


def pbot_settings_milli(kind, settings):
    """`settings` of policy bot `kind` checked: {name: value}, thousandths for all but sims, or ValueError for
    an unknown name or a value out of range."""
    settings = dict(settings or {})
    out = {}
    for name, v in settings.items():
        if name not in PBOT_SETTINGS[kind]:
            raise ValueError(f"{kind}: unknown setting {excerpt(name)} (settings: {', '.join(PBOT_SETTINGS[kind])})")
        if name == "sims":
            from ._core import PSEARCH_MAX_SIMS, _int_in
            out[name] = _int_in(v, "sims", 1, PSEARCH_MAX_SIMS)
            continue
        if name == "threads":   # psearch's trees (root parallelism); more than sims: refused in C (one message)
            from ._core import PSEARCH_MAX_THREADS, _int_in
            out[name] = _int_in(v, "threads", 1, PSEARCH_MAX_THREADS)
            continue
        if name == "halving":   # psearch's root: 0 (or 1) PUCT, m >= 2 sequential halving over m candidates
            from ._core import PSEARCH_MAX_HALVING, _int_in
            out[name] = _int_in(v, "halving", 0, PSEARCH_MAX_HALVING)
            continue
        lo, hi = _MILLI_RANGE[name]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo <= v <= hi):
            raise ValueError(f"{name} must be a number in [{lo:g}, {hi:g}], got {excerpt(v)}")
        out[name] = int(round(v * 1000))
    if out.get("threads", 1) > 1:   # every tree runs at least one simulation
        from ._core import SEARCH_SIMS
        if out["threads"] > out.get("sims", SEARCH_SIMS):
            raise ValueError(f"threads ({out['threads']}) must not exceed sims ({out.get('sims', SEARCH_SIMS)})")
    return out


def deal_dict(d):
    """deal_schedule's / arena_deal's dict from azk_deal's fields `d` (a dict)."""
    return {"deal": d["deal"], "engine_seed": d["engine_seed"], "pairing": d["pairing"], "swapped": bool(d["swapped"]),
            "agent_seat": d["agent_seat"], "bot_seed": d["bot_seed"]}


def rng_words(rng):
    """A bot's rng words as the bot calls take them (azuki._core.bot_rng's array, advanced in place: checked
    by the one array checker), or TypeError."""
    from ._core import _out_array
    try:
        if rng is None:
            raise ValueError("rng must be a numpy array, got NoneType")
        return _out_array(rng, np.uint64, (2,), "rng")
    except ValueError as e:
        raise TypeError(f"{e} (azuki._core.bot_rng makes one)") from None


def visits_out(visits, num_actions):
    """The caller's visit-share array for a search label (float32 [num_actions], written: the one array
    checker), TypeError / ValueError otherwise."""
    from ._core import _out_array
    if visits is None:
        raise TypeError(f"visits must be a numpy float32 array of shape ({num_actions},), got None")
    return _out_array(visits, np.float32, (num_actions,), "visits")

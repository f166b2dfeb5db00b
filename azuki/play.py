"""The plain-Python half of playing many games: simulate's and play_games'
argument shapes and result dicts, the bot names, the policy bots' settings.

The loops are C (csrc/play.c) and their calls live in the binding
(azuki/_play.pxi: `azuki.simulate`, `azuki._core.play_games`, which re-exports
what is public here); this module holds what is not a C call. It imports the
extension only inside functions, because the extension imports it.
"""
from __future__ import annotations

import numpy as np

from . import spec_autogen as S
from ._util import excerpt

# Games per GIL-free stretch of simulate() and play_games(): signals (Ctrl-C) are checked between
# stretches whatever simulate's `chunk` is.
SIM_SIGNAL_GAMES = 64

# Each policy bot's settings (pbot_defaults(kind) gives their defaults); all but sims are held in C
# as thousandths, in these ranges.
PBOT_SETTINGS = {"policy": ("temp",), "psearch": ("sims", "cpuct", "prior_temp", "value")}
_MILLI_RANGE = {"temp": (0, 1000), "cpuct": (0, 1000), "prior_temp": (0.001, 1000), "value": (0, 1)}

# play_games' int32 output columns (azk_play_rows)
PLAY_INT_COLUMNS = ("result", "winner", "first_player", "end_reason", "turns", "decisions", "error",
                    "seat0_decisions", "seat1_decisions")


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
    """play_games' columns checked and made contiguous: (the uint64 columns seeds, bseed0, bseed1; the
    int32 columns deck0, deck1, kind0, kind1; the zeroed result dict), or ValueError."""
    u = [np.ascontiguousarray(np.asarray(a, dtype=np.uint64)) for a in u64]
    i = [np.ascontiguousarray(np.asarray(a, dtype=np.int32)) for a in i32]
    n = u[0].shape[0]
    if any(a.ndim != 1 or a.shape[0] != n for a in u + i):
        raise ValueError("play_games: every column must be a 1-d array of the same length")
    if n and any(a.min() < 0 or a.max() >= ndecks for a in i[:2]):
        raise ValueError(f"play_games: deck index out of range [0, {ndecks})")
    if n and any(a.min() < -npbots or a.max() >= nkinds for a in i[2:]):
        raise ValueError(f"play_games: bot kind out of range [{-npbots}, {nkinds})")
    res = {name: np.zeros(n, dtype=np.int32) for name in PLAY_INT_COLUMNS}
    res |= {"seat0_seconds": np.zeros(n, dtype=np.float64), "seat1_seconds": np.zeros(n, dtype=np.float64)}
    return u, i, res


def pbot_settings_dict(kind, p):
    """The settings of policy bot `kind` from its C parameters `p` (a dict of azk_pbot_params' fields)."""
    full = {"temp": p["temp_milli"] / 1000, "sims": p["sims"], "cpuct": p["cpuct_milli"] / 1000,
            "prior_temp": p["prior_temp_milli"] / 1000, "value": p["value_milli"] / 1000}
    return {n: full[n] for n in PBOT_SETTINGS[kind]}


def pbot_settings_milli(kind, settings):
    """`settings` of policy bot `kind` checked: {name: value}, thousandths for all but sims (whose range
    the binding checks), or ValueError for an unknown name or a value out of range."""
    settings = dict(settings or {})
    out = {}
    for name, v in settings.items():
        if name not in PBOT_SETTINGS[kind]:
            raise ValueError(f"{kind}: unknown setting {excerpt(name)} (settings: {', '.join(PBOT_SETTINGS[kind])})")
        if name == "sims":
            out[name] = v
            continue
        lo, hi = _MILLI_RANGE[name]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo <= v <= hi):
            raise ValueError(f"{name} must be a number in [{lo:g}, {hi:g}], got {excerpt(v)}")
        out[name] = int(round(v * 1000))
    return out


def deal_dict(d):
    """deal_schedule's / arena_deal's dict from azk_deal's fields `d` (a dict)."""
    return {"deal": d["deal"], "engine_seed": d["engine_seed"], "pairing": d["pairing"], "swapped": bool(d["swapped"]),
            "agent_seat": d["agent_seat"], "bot_seed": d["bot_seed"]}

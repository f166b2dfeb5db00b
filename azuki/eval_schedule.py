"""azuki.eval_schedule — which games `azuki eval` plays (docs/eval.md, "The schedule").

Games come in seat-swapped pairs on one deal (game 2k and 2k+1: engine seed
``seed + k``), deals rotate over every ordered pairing of the decks; the
deal, seat and bot seeds are defined once in C (azk_deal_schedule,
azk_arena_deal) and read here through _core. Round robin pair number p
plays seed ``seed + p * games / 2`` (pair_seed), so no two pairs share deals.
"""
from __future__ import annotations

from . import _core

MASK64 = (1 << 64) - 1
DEFAULT_DECKS = ("STT01", "STT02")
OUTCOMES = ("win", "loss", "draw", "truncated")


def check_games(games):
    """ValueError unless `games` is an even integer >= 2."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even integer >= 2 (each deal is played from both seats), got {games!r}")


def pairings(decks):
    """Every ordered (deck, deck) pairing of `decks`, in the schedule's order."""
    return [(a, b) for a in decks for b in decks]


def vec_deal(e, seed, pairs):
    """Episode e of a paired VecGame: (engine seed, (deck of seat 0, deck of seat 1), agent seat), as the
    C schedule defines it (azuki.h azk_deal_schedule; _core.deal_schedule)."""
    d = _core.deal_schedule(e, seed=seed, npairs=len(pairs), paired=True)
    p = pairs[d["pairing"]]
    return d["engine_seed"], (p[1], p[0]) if d["swapped"] else tuple(p), d["agent_seat"]


def vec_bot_seed(seed, e):
    """The seed of VecGame's built-in bot in episode e (azuki.h azk_vec_bot_seed, through the schedule)."""
    return _core.deal_schedule(e, seed=seed)["bot_seed"]


def round_robin_pairs(m):
    """The round robin's pairs (i, j), i < j, in play order: (0,1), (0,2), ..., (1,2), ..."""
    return [(i, j) for i in range(m) for j in range(i + 1, m)]


def pair_seed(seed, p, games_per_pair):
    """The seed of round robin pair number p: its deals follow the previous pairs' deals."""
    return (seed + p * (games_per_pair // 2)) & MASK64


def outcome(result, a_seat):
    """'win' / 'loss' / 'draw' / 'truncated' for A from a Game.result string."""
    if result == "DRAW":
        return "draw"
    if result == "TRUNCATED":
        return "truncated"
    w = 0 if result == "WIN_P0" else 1
    return "win" if w == a_seat else "loss"


_RESULTS = None


def result_names():
    """Game.result's names, indexed as play_games' result column."""
    global _RESULTS
    if _RESULTS is None:
        from . import spec_autogen as S
        _RESULTS = tuple(S.RESULT)
    return _RESULTS

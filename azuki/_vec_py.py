"""The plain-Python half of azuki.VecGame (the C half: azuki/_vec.pxi):
VecGameMixin (the per-game arrays), the deck pairings and the buffers a
VecGame is built with, its episode log as a dict and its error messages.
Imports azuki._core only inside functions: _core imports this module while
it initialises.
"""
from __future__ import annotations

import numpy as np

from ._cardset_py import deck_pair
from ._util import excerpt
from .spec_autogen import VEC_LOG

# VecGame's option names (azuki/_vec.pxi maps them to the C values, in this order)
MODES, WAITING, ILLEGAL = ("self", "bot", "policy"), ("full", "mask"), ("raise", "lose")
# the vector log's entry names, as azk_enums.def declares them (AZK_VEC_LOG; tests/test_def_mirrors.py)
VEC_LOG_NAMES = tuple(n.lower() for n in VEC_LOG)
# where the per-deck counts start (AZK_VLOG_DECK_*): games by deck, then wins by deck 8 entries on
DECK_WINS_OFFSET = 8


class VecGameMixin:
    """Methods of azuki.VecGame that make no C call of their own (base of the cdef class)."""
    __slots__ = ()

    def episodes(self):
        """int64 [n]: every game's current episode number (episode(i) for all i)."""
        return np.array(self._per_game()[0], dtype=np.int64)

    def agent_seats(self):
        """int8 [n]: every game's agent seat this episode (agent_seat(i) for all i)."""
        return np.array(self._per_game()[1], dtype=np.int8)

    def state_hash(self, i):
        """State hash of game i (as Game.state_hash())."""
        return self._game_facts(i, "state_hash")[0]

    def agent_seat(self, i):
        """The seat the agent plays in game i this episode (docs/vecgame.md, Seeding and pairings)."""
        return self._game_facts(i, "agent_seat")[1]

    def episode(self, i):
        """The episode number game i's current episode started with (its engine seed: seed + episode)."""
        return self._game_facts(i, "episode")[2]

    def observe_others(self, out=None):
        """Mode "bot" or "policy": every game's observation from the seat that is not the agent's (uint8
        [n, OBS_LEN], into `out` when given, else a new array): the opponent's view, hidden cards included, for
        a privileged critic in training only (docs/training.md "Privileged critic"); the agent's rows are obs."""
        from ._core import OBS_LEN, _out_array
        if self.mode == "self":
            raise RuntimeError("observe_others is for mode='bot' or 'policy' (in self-play both seats are agents)")
        return self._observe_others(_out_array(out, np.uint8, (self.n, OBS_LEN), "observe_others: out"))


def busy_error(call, same_thread, busy_call):
    """The RuntimeError of a call made while another call of the same VecGame runs."""
    who = "this thread" if same_thread else "another thread"
    return RuntimeError(f"VecGame.{call}(): this VecGame is in use by {who} ({busy_call}() has not returned); "
                        f"a VecGame serves one call at a time: give each thread its own VecGame or hold one lock "
                        f"around every call (docs/vecgame.md, Threads)")


def step_illegal(opponent, bad, action, mode):
    """The IllegalActionError of a refused step (bad: the row, or the game for an opponent action)."""
    from .errors import IllegalActionError
    if opponent:
        return IllegalActionError(f"game {bad}: opponent action {action} is not legal")
    return IllegalActionError(f"row {bad}: action {action} is not legal in game {bad // 2 if mode == 'self' else bad}")


def vec_actions(actions, count):
    """VecGame.step's / step_opponent's actions as an int32 C-contiguous array of shape (count,) (the given array
    when it is one, else a copy); ValueError for another shape, a non-integer dtype or a value out of int32."""
    a = np.asarray(actions)
    if a.shape != (count,) or a.dtype.kind not in "iu":
        raise ValueError(f"actions must be an integer array of shape ({count},), got {a.dtype} {a.shape}")
    if a.dtype == np.int32 and a.flags.c_contiguous:
        return a
    if a.size and (a.min() < -2**31 or a.max() >= 2**31):
        raise ValueError("actions out of the int32 range")
    return np.ascontiguousarray(a, dtype=np.int32)


def check_opponent_keys(nkeys, n, opp_obs):
    """policy_opponent_actions' checks: a key per game, the opponent observations kept."""
    if nkeys != n:
        raise ValueError(f"policy_opponent_actions: {nkeys} keys for {n} games")
    if opp_obs is None or opp_obs.dtype != np.uint8:
        raise RuntimeError("policy_opponent_actions needs the uint8 opponent observations (obs=True)")


def vec_options(n, seed, threads, mode, bot, obs_dtype, waiting_obs, illegal, obs, masks, max_games, max_threads):
    """VecGame's scalar arguments checked: (n, seed, threads, bot kind (0 unless mode="bot"))."""
    from ._core import _int_in, _seed, bot_kind
    nn = _int_in(n, "n", 1, max_games)
    s = _seed(seed, "seed")
    nthreads = _int_in(threads, "threads", 1, max_threads)
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode must be 'self', 'bot' or 'policy', got {excerpt(mode)}")
    if not isinstance(obs_dtype, str) or obs_dtype != "uint8":
        raise ValueError(f"obs_dtype must be 'uint8' (the only observation encoding since layout v4), "
                         f"got {excerpt(obs_dtype)}")
    if not isinstance(waiting_obs, str) or waiting_obs not in WAITING:
        raise ValueError(f"waiting_obs must be 'full' or 'mask', got {excerpt(waiting_obs)}")
    if not obs and not masks:
        raise ValueError("VecGame: obs=False and masks=False leaves no way to see the legal actions")
    if not isinstance(illegal, str) or illegal not in ILLEGAL:
        raise ValueError(f"illegal must be 'raise' or 'lose', got {excerpt(illegal)}")
    return nn, s, nthreads, (bot_kind(bot) if mode == "bot" else 0)


def pairing_table(cs, pairings, max_pairs):
    """(int32 [2k] deck indices, ((name, name), ...)) of k deck pairs."""
    if isinstance(pairings, (str, bytes)) or not hasattr(pairings, "__len__"):
        raise TypeError("pairings must be a list of (deck, deck) pairs")
    if not 1 <= len(pairings) <= max_pairs:
        raise ValueError(f"pairings: 1 to {max_pairs} deck pairs, got {len(pairings)}")
    pairs = np.empty(2 * len(pairings), dtype=np.int32)
    names = []
    for k, p in enumerate(pairings):
        d0, d1 = deck_pair(cs, p)
        pairs[2 * k], pairs[2 * k + 1] = d0, d1
        names.append((cs.decks[d0], cs.decks[d1]))
    return pairs, tuple(names)


def make_buffers(n, rows, policy, obs, masks, given):
    """A VecGame's buffers (obs, masks, rewards, terminals, truncations, acting, opp_obs, opp_masks,
    opp_pending): the caller's (`given`, each checked by azuki._core._out_array) or new zeroed ones; None
    where obs=False / masks=False turn a buffer off, and for the opp_* ones outside mode "policy"."""
    from ._core import NUM_ACTIONS, OBS_LEN, _out_array
    specs = {"obs": ((rows, OBS_LEN), np.uint8), "masks": ((rows, NUM_ACTIONS), np.uint8),
             "rewards": ((rows,), np.float32), "terminals": ((rows,), np.uint8),
             "truncations": ((rows,), np.uint8), "acting": ((rows,), np.uint8)}
    if policy:
        specs.update({"opp_obs": ((n, OBS_LEN), np.uint8), "opp_masks": ((n, NUM_ACTIONS), np.uint8),
                      "opp_pending": ((n,), np.uint8)})
    given = {} if given is None else dict(given)
    for k in given:
        if k not in specs:
            raise ValueError(f"buffers: unknown buffer {excerpt(k)} (known here: {', '.join(specs)})")
    made = dict.fromkeys(("opp_obs", "opp_masks", "opp_pending"))
    for k, (shape, dt) in specs.items():
        off = (k in ("obs", "opp_obs") and not obs) or (k == "masks" and not masks)
        made[k] = None if off else _out_array(given.get(k), dt, shape, f"buffers[{k!r}]", zero=True)
    return tuple(made[k] for k in ("obs", "masks", "rewards", "terminals", "truncations", "acting", "opp_obs",
                                   "opp_masks", "opp_pending"))


def log_dict(values, decks):
    """VecGame.log()'s dict from azk_vec_log's floats (deck names: the card set's)."""
    d = {name: float(values[i]) for i, name in enumerate(VEC_LOG_NAMES)}
    if d["episodes"]:
        d["length"] /= d["episodes"]
    base = len(VEC_LOG_NAMES)
    d["deck_games"] = {decks[k]: float(values[base + k]) for k in range(len(decks))}
    d["deck_wins"] = {decks[k]: float(values[base + DECK_WINS_OFFSET + k]) for k in range(len(decks))}
    return d

"""VecGame (csrc/vec.c, azuki._core.VecGame): n games per C call.

The central property: stepping n games together gives exactly the
trajectories (state hashes) of the same games stepped one by one through
Game, episode after episode (auto-reset from seed + episode counter)."""
import random
import subprocess
import sys
import threading

import numpy as np
import pytest

import azuki
from azuki._core import VecGame
from azuki.obs import mask_of

PAIRS = (("STT01", "STT02"), ("STT02", "STT02"))


def pick(rng, mask_row):
    legal = np.flatnonzero(mask_row)
    return int(legal[rng.randrange(len(legal))])


def test_vecgame_equals_games_stepped_alone_self_play():
    n, seed = 5, 100
    v = VecGame(n, seed=seed, pairings=PAIRS, mode="self", obs=False)
    rng = random.Random(1)
    solo = [v.game(i) for i in range(n)]
    for i in range(n):   # the solo games start where Game(seed + e, decks) starts
        e = v.episode(i)
        pair = PAIRS[(e // 2) % len(PAIRS)]
        decks = pair if e % 2 == 0 else pair[::-1]
        assert azuki.Game(seed=seed + e, decks=decks).state_hash() == solo[i].state_hash() == v.state_hash(i)
    episodes = 0
    for _ in range(3000):
        actions = np.zeros(v.rows, dtype=np.int32)
        for r in range(v.rows):
            if v.acting[r]:
                actions[r] = pick(rng, v.masks[r])
        for i in range(n):
            r = next(r for r in (2 * i, 2 * i + 1) if v.acting[r])
            solo[i].step(int(actions[r]))
        v.step(actions)
        for i in range(n):
            if v.terminals[2 * i] or v.truncations[2 * i]:
                episodes += 1
                w = solo[i].winner
                assert v.rewards[2 * i] == (0 if w is None else (1 if w == 0 else -1))
                assert v.rewards[2 * i + 1] == -v.rewards[2 * i]
                e = v.episode(i)
                pair = PAIRS[(e // 2) % len(PAIRS)]
                solo[i] = azuki.Game(seed=seed + e, decks=pair if e % 2 == 0 else pair[::-1])
            assert solo[i].state_hash() == v.state_hash(i)
    assert episodes >= 10
    log = v.log()
    assert log["episodes"] == episodes and log["wins_seat0"] + log["wins_seat1"] + log["draws"] + log["truncated"] == episodes
    assert sum(log["deck_games"].values()) == 2 * episodes      # self-play: both seats' decks
    assert sum(log["deck_wins"].values()) == log["wins_seat0"] + log["wins_seat1"]
    assert v.log()["episodes"] == 0     # log() drains


def test_self_play_masks_and_observations():
    v = VecGame(3, seed=7, mode="self")
    for _ in range(50):
        for i in range(3):
            g = v.game(i)
            p = g.current_player
            for s in (0, 1):
                r = 2 * i + s
                if s == p:
                    assert v.acting[r] == 1
                    assert np.array_equal(v.masks[r], g.action_mask())
                    assert np.array_equal(v.obs[r], g.observe(s))
                else:   # the waiting seat: NO_OP only, in the mask and inside its observation
                    assert v.acting[r] == 0 and v.masks[r].sum() == 1 and v.masks[r][0] == 1
                    m = mask_of(v.obs[r])
                    assert m.sum() == 1 and m[0]
        rng = random.Random(_)
        v.step(np.array([pick(rng, v.masks[r]) for r in range(v.rows)], dtype=np.int32))


def test_bot_mode_agent_rows_rewards_and_seats():
    v = VecGame(4, seed=3, mode="bot", bot="random", pairings=(("STT01", "STT02"),), obs=False)
    assert v.rows == 4
    rng = random.Random(2)
    seats = {}
    for _ in range(4000):
        for i in range(4):
            g = v.game(i)
            assert g.current_player == v.agent_seat(i)     # only the agent is ever asked
            seats.setdefault(v.episode(i), v.agent_seat(i))
        v.step(np.array([pick(rng, v.masks[r]) for r in range(4)], dtype=np.int32))
        assert set(np.unique(v.rewards)) <= {-1.0, 0.0, 1.0}
    log = v.log()
    assert log["episodes"] >= 8 and log["agent_games_seat0"] > 0 and log["agent_games_seat1"] > 0
    assert log["agent_wins"] + log["agent_losses"] + log["draws"] + log["truncated"] == log["episodes"]
    # by deck: the agent's deck; with one pairing it plays both decks
    assert sum(log["deck_games"].values()) == log["episodes"]
    assert log["deck_games"]["STT01"] > 0 and log["deck_games"]["STT02"] > 0
    assert sum(log["deck_wins"].values()) == log["agent_wins"]
    assert all(seats[e] == (e >> 1) & 1 for e in seats)  # the agent's seat alternates every two episodes


def test_greedy_bot_opponent_beats_a_random_agent():
    v = VecGame(8, seed=11, mode="bot", bot="greedy", obs=False)
    rng = random.Random(0)
    for _ in range(3000):
        v.step(np.array([pick(rng, v.masks[r]) for r in range(8)], dtype=np.int32))
    log = v.log()
    assert log["episodes"] >= 10 and log["agent_losses"] > log["agent_wins"]


def test_illegal_action_changes_nothing():
    v = VecGame(2, seed=1, mode="self", obs=False)
    before = [v.state_hash(i) for i in range(2)]
    masks = v.masks.copy()
    actions = np.zeros(v.rows, dtype=np.int32)
    for r in range(v.rows):
        actions[r] = int(np.flatnonzero(v.masks[r])[0])
    bad_row = int(np.flatnonzero(v.acting)[1])
    actions[bad_row] = int(np.flatnonzero(v.masks[bad_row] == 0)[0])
    with pytest.raises(azuki.IllegalActionError, match=f"row {bad_row}"):
        v.step(actions)
    assert [v.state_hash(i) for i in range(2)] == before and np.array_equal(v.masks, masks)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError):
        VecGame(0)
    with pytest.raises(TypeError):
        VecGame(True)
    with pytest.raises(ValueError):
        VecGame(2, mode="league")
    with pytest.raises(ValueError):
        VecGame(2, mode="bot", bot="alphazero")
    with pytest.raises(ValueError):
        VecGame(2, pairings=(("STT01", "NOPE"),))
    with pytest.raises(ValueError):
        VecGame(2, pairings=())
    with pytest.raises(ValueError):
        VecGame(2, buffers={"masks": np.zeros((4, 3), dtype=np.uint8)})
    with pytest.raises(ValueError):
        VecGame(2, buffers={"nonsense": np.zeros(3)})
    v = VecGame(2, obs=False)
    for bad in (np.zeros(3, dtype=np.int32), np.zeros(4, dtype=np.float32), [[0] * 4], "abcd"):
        with pytest.raises(ValueError):
            v.step(bad)
    with pytest.raises(RuntimeError):
        VecGame.__new__(VecGame).step(np.zeros(4, dtype=np.int32))


def test_caller_owned_buffers_are_written_in_place():
    rows = 6
    bufs = {"masks": np.zeros((rows, azuki.NUM_ACTIONS), dtype=np.uint8), "rewards": np.zeros(rows, dtype=np.float32),
            "obs": np.zeros((rows, azuki.OBS_LEN), dtype=np.uint8)}
    v = VecGame(3, seed=2, buffers=bufs)
    assert v.masks is bufs["masks"] and v.rewards is bufs["rewards"] and v.obs is bufs["obs"]
    assert bufs["masks"].sum() > 0 and np.abs(bufs["obs"]).sum() > 0


def test_default_obs_dtype_is_uint8():
    v = VecGame(2, seed=1)
    assert v.obs_dtype == "uint8" and v.obs.dtype == np.uint8 and v.obs.shape == (4, azuki.OBS_LEN)
    assert v.waiting_obs == "full"


# ---- mode="policy": the opponent seat answered from Python ------------------------------------------------------

def solo_game(seed, e, pairs=PAIRS):
    pair = pairs[(e // 2) % len(pairs)]
    return azuki.Game(seed=seed + e, decks=pair if e % 2 == 0 else pair[::-1])


def scripted_opponent(mask_row, i, k):
    """A deterministic opponent policy: the (i + k)-th legal action, cyclically."""
    legal = np.flatnonzero(mask_row)
    return int(legal[(i + k) % len(legal)])


def _without_mask(o):
    """An observation with its MASK field zeroed."""
    f = azuki.obs_layout()["MASK"]
    o = o.copy()
    o[f["offset"]:f["offset"] + f["cols"]] = 0
    return o


def check_policy_buffers(v, solo, obs_too):
    for i in range(v.n):
        g, seat = solo[i], v.agent_seat(i)
        assert v.state_hash(i) == g.state_hash()
        assert v.agent_seat(i) == (v.episode(i) >> 1) & 1     # the agent's seat alternates every two episodes
        assert not g.is_terminal
        agent_turn = g.current_player == seat
        assert v.acting[i] == agent_turn and v.opp_pending[i] == (not agent_turn)   # exactly one of them decides
        if agent_turn:
            assert np.array_equal(v.masks[i], g.action_mask())
            assert v.opp_masks[i].sum() == 1 and v.opp_masks[i][0] == 1
        else:
            assert v.masks[i].sum() == 1 and v.masks[i][0] == 1
            assert np.array_equal(v.opp_masks[i], g.action_mask())
        if obs_too:
            assert np.array_equal(_without_mask(v.obs[i]), _without_mask(g.observe(seat)))
            assert np.array_equal(mask_of(v.obs[i]), v.masks[i] != 0)
            if not agent_turn:
                assert np.array_equal(v.opp_obs[i], g.observe(1 - seat))


@pytest.mark.parametrize("obs_too", [False, True])
def test_policy_mode_equals_games_stepped_alone(obs_too):
    """Agent batches and opponent batches alternate; every game equals the
    same Game stepped alone (same seed + episode, same pairing), with a random
    agent and a scripted opponent; rewards / terminals on the call that ended
    the episode."""
    n, seed = 5, 40
    v = VecGame(n, seed=seed, pairings=PAIRS, mode="policy", obs=obs_too)
    assert v.rows == n and v.opp_masks.shape == (n, azuki.NUM_ACTIONS) and v.opp_pending.shape == (n,)
    assert (v.opp_obs is not None) == obs_too
    solo = [solo_game(seed, v.episode(i)) for i in range(n)]
    check_policy_buffers(v, solo, obs_too)
    rng = random.Random(5)
    episodes = seen_pending = 0
    for k in range(1500 if obs_too else 4000):
        for opp in (0, 1):
            live = v.opp_pending if opp else v.acting
            seen_pending += int(opp and live.sum())
            actions = np.zeros(n, dtype=np.int32)
            seats = [v.agent_seat(i) for i in range(n)]
            for i in range(n):
                if live[i]:
                    actions[i] = scripted_opponent(v.opp_masks[i], i, k) if opp else pick(rng, v.masks[i])
                    solo[i].step(int(actions[i]))
            (v.step_opponent if opp else v.step)(actions)
            for i in range(n):
                ended = solo[i].is_terminal
                assert bool(v.terminals[i] or v.truncations[i]) == ended   # reported by this very call
                if ended:
                    episodes += 1
                    w = solo[i].winner
                    assert v.truncations[i] == (solo[i].result == "TRUNCATED")
                    assert v.rewards[i] == (0 if w is None else (1 if w == seats[i] else -1))
                    solo[i] = solo_game(seed, v.episode(i))
                else:
                    assert v.rewards[i] == 0
            check_policy_buffers(v, solo, obs_too)
    assert episodes >= 5 and seen_pending > 100
    log = v.log()
    assert log["episodes"] == episodes
    assert log["agent_wins"] + log["agent_losses"] + log["draws"] + log["truncated"] == episodes


def test_policy_mode_reward_sign_follows_the_agent_seat():
    """Play to the end with Game copies and check the reward against the
    agent's seat of the episode that ended."""
    v = VecGame(3, seed=9, mode="policy", obs=False)
    rng = random.Random(3)
    seat_of = {i: v.agent_seat(i) for i in range(3)}
    checked = 0
    for _ in range(20000):
        if checked >= 6:
            break
        opp = bool(v.opp_pending.any())
        live, masks = (v.opp_pending, v.opp_masks) if opp else (v.acting, v.masks)
        actions = np.array([pick(rng, masks[i]) if live[i] else 0 for i in range(3)], dtype=np.int32)
        before = [v.game(i) for i in range(3)]
        (v.step_opponent if opp else v.step)(actions)
        for i in range(3):
            if v.terminals[i] or v.truncations[i]:
                g = before[i]
                g.step(int(actions[i]))
                assert g.is_terminal
                w = g.winner
                assert v.rewards[i] == (0 if w is None else (1 if w == seat_of[i] else -1))
                checked += 1
            seat_of[i] = v.agent_seat(i)
    assert checked >= 6


def test_policy_mode_plays_episodes_with_a_random_opponent():
    """The loop a league trainer runs: a batch of agent decisions, then a
    batch of opponent decisions (random from the mask); episodes counted by
    log()."""
    n = 16
    v = VecGame(n, seed=123, mode="policy", pairings=PAIRS)
    rng = np.random.default_rng(0)

    def sample(masks, live):
        u = rng.random(masks.shape) * masks          # a uniform legal action per row
        return np.where(live, u.argmax(axis=1), 0).astype(np.int32)

    ended = 0
    agent_steps = opp_steps = 0
    for _ in range(3000):
        agent_steps += int(v.acting.sum())
        v.step(sample(v.masks, v.acting))
        ended += int((v.terminals | v.truncations).sum())
        opp_steps += int(v.opp_pending.sum())
        v.step_opponent(sample(v.opp_masks, v.opp_pending))
        ended += int((v.terminals | v.truncations).sum())
    log = v.log()
    assert log["episodes"] == ended >= 2 * n
    assert log["agent_games_seat0"] > 0 and log["agent_games_seat1"] > 0
    assert log["agent_games_seat0"] + log["agent_games_seat1"] == ended
    assert agent_steps > 0 and opp_steps > 0
    assert np.all(v.acting + v.opp_pending == 1)


def test_policy_mode_bad_inputs():
    v = VecGame(3, seed=4, mode="policy", obs=False)
    with pytest.raises(ValueError):
        v.step_opponent(np.zeros(4, dtype=np.int32))
    with pytest.raises(ValueError):
        v.step_opponent(np.zeros(3, dtype=np.float64))
    with pytest.raises(RuntimeError):
        VecGame(2, mode="self", obs=False).step_opponent(np.zeros(2, dtype=np.int32))
    with pytest.raises(RuntimeError):
        VecGame(2, mode="bot", obs=False).step_opponent(np.zeros(2, dtype=np.int32))
    with pytest.raises(ValueError):
        VecGame(2, mode="policy", buffers={"opp_masks": np.zeros((2, 3), dtype=np.uint8)})
    with pytest.raises(ValueError):
        VecGame(2, mode="self", buffers={"opp_masks": np.zeros((2, azuki.NUM_ACTIONS), dtype=np.uint8)})
    # get some games pending, then send one illegal opponent action: nothing changes
    rng = random.Random(0)
    for _ in range(50):
        if v.opp_pending.sum() >= 1:
            break
        v.step(np.array([pick(rng, v.masks[i]) for i in range(3)], dtype=np.int32))
    pend = np.flatnonzero(v.opp_pending)
    assert len(pend)
    before = [v.state_hash(i) for i in range(3)]
    bufs = [b.copy() for b in (v.masks, v.opp_masks, v.opp_pending, v.acting)]
    actions = np.array([pick(rng, v.opp_masks[i]) for i in range(3)], dtype=np.int32)
    bad = int(pend[-1])
    actions[bad] = int(np.flatnonzero(v.opp_masks[bad] == 0)[0])
    with pytest.raises(azuki.IllegalActionError, match=f"game {bad}"):
        v.step_opponent(actions)
    assert [v.state_hash(i) for i in range(3)] == before
    assert all(np.array_equal(a, b) for a, b in zip(bufs, (v.masks, v.opp_masks, v.opp_pending, v.acting)))
    # actions for games that are not pending are ignored, whatever they are
    actions[bad] = pick(rng, v.opp_masks[bad])
    actions[v.opp_pending == 0] = 10**6
    v.step_opponent(actions)


# ---- compact observations ------------------------------------------------------------------------------------------

def test_observations_are_uint8_only():
    """Layout v4 has one encoding (docs/observation.md): every row is
    Game.observe's bytes; obs_dtype other than "uint8" and float buffers are
    clear ValueErrors that build nothing."""
    v = VecGame(2, seed=21, pairings=PAIRS, mode="self")
    assert v.obs.dtype == np.uint8 and v.obs.shape == (4, azuki.OBS_LEN) and v.obs_dtype == "uint8"
    for r in range(v.rows):
        if v.acting[r]:
            assert np.array_equal(v.obs[r], v.game(r // 2).observe(r % 2))
    for bad in ("float32", "float16", 8, None):
        with pytest.raises(ValueError, match="uint8"):
            VecGame(2, obs_dtype=bad)
    with pytest.raises(ValueError):
        VecGame(2, buffers={"obs": np.zeros((4, azuki.OBS_LEN), dtype=np.float32)})


def test_waiting_obs_mask_writes_only_the_mask_field():
    kw = dict(seed=3, mode="self")
    full = VecGame(3, waiting_obs="full", **kw)
    cheap = VecGame(3, waiting_obs="mask", **kw)
    rng = random.Random(4)
    for _ in range(200):
        assert np.array_equal(full.masks, cheap.masks) and np.array_equal(full.acting, cheap.acting)
        for r in range(full.rows):
            m = azuki.obs_slice(cheap.obs[r], "MASK")          # packed: NO_OP is bit 0 of byte 0
            if full.acting[r]:
                assert np.array_equal(cheap.obs[r], full.obs[r])
            else:
                assert m[0] == 1 and np.all(m[1:] == 0)
                assert np.array_equal(azuki.obs_slice(full.obs[r], "MASK"), m)
        actions = np.array([pick(rng, full.masks[r]) for r in range(full.rows)], dtype=np.int32)
        full.step(actions)
        cheap.step(actions)
    with pytest.raises(ValueError):
        VecGame(2, waiting_obs="none")
    with pytest.raises(ValueError):
        VecGame(2, obs_dtype="float16")


# -- illegal="lose" and masks=False (used by azuki.envs) ---------------------------------------------

@pytest.mark.parametrize("mode", ["self", "bot", "policy"])
def test_illegal_lose_ends_only_that_game_lost_by_its_chooser(mode):
    v = azuki.VecGame(6, seed=5, mode=mode, illegal="lose")
    assert v.illegal == "lose"
    ref = azuki.VecGame(6, seed=5, mode=mode)
    rng = np.random.default_rng(0)
    acts = (rng.random(v.masks.shape) * v.masks).argmax(axis=1).astype(np.int32)
    bad_game = 2
    rows = [2 * bad_game + s for s in (0, 1)] if mode == "self" else [bad_game]
    bad_row = next(r for r in rows if v.acting[r])
    chooser = v.game(bad_game).current_player
    acts_bad = acts.copy()
    acts_bad[bad_row] = int(np.flatnonzero(v.masks[bad_row] == 0)[-1])
    episode_before = v.episode(bad_game)
    v.step(acts_bad)
    ref.step(acts)
    # the chooser lost: -1 on its row, +1 on the other seat's row (self-play)
    assert v.terminals[bad_row] == 1 and v.rewards[bad_row] == -1.0
    if mode == "self":
        other = 2 * bad_game + (1 - chooser)
        assert v.rewards[other] == 1.0 and v.terminals[other] == 1
    assert v.episode(bad_game) != episode_before       # a new episode began
    log = v.log()
    assert log["illegal"] == 1.0 and log["episodes"] >= 1
    assert log[f"wins_seat{1 - chooser}"] >= 1
    # every other game stepped exactly as without the illegal row
    for i in range(6):
        if i != bad_game:
            assert v.state_hash(i) == ref.state_hash(i)


def test_illegal_raise_is_the_default_and_bad_policy_rejected():
    v = azuki.VecGame(2, seed=1)
    assert v.illegal == "raise"
    with pytest.raises(ValueError):
        azuki.VecGame(2, illegal="ignore")


def test_masks_false_keeps_the_mask_in_the_observation():
    a = azuki.VecGame(8, seed=3, masks=False)
    b = azuki.VecGame(8, seed=3)
    assert a.masks is None
    rng = np.random.default_rng(1)
    for _ in range(30):
        np.testing.assert_array_equal(a.obs, b.obs)
        np.testing.assert_array_equal(mask_of(a.obs), b.masks == 1)
        acts = (rng.random(b.masks.shape) * b.masks).argmax(axis=1).astype(np.int32)
        a.step(acts)
        b.step(acts)
    with pytest.raises(ValueError):
        azuki.VecGame(2, obs=False, masks=False)


@pytest.mark.parametrize("mode", ["bot", "policy"])
def test_paired_deals_each_deal_from_both_seats(mode):
    """paired=True: episodes 2k and 2k + 1 are the same deal (Game(seed + k),
    same decks, same seats) with the agent in seat 0 then seat 1; deal k
    uses pairing (k // 2) % len, decks swapped when k is odd."""
    pairings = [("STT01", "STT02"), ("STT02", "STT02")]
    v = azuki.VecGame(8, seed=40, mode=mode, pairings=pairings, paired=True)
    assert v.paired
    for i in range(8):
        e = v.episode(i)
        k = e // 2
        d = pairings[(k // 2) % 2]
        d = d if k % 2 == 0 else d[::-1]
        g = azuki.Game(seed=40 + k, decks=d)
        if mode == "bot":   # the bot may already have moved: compare the deal through the first player
            assert v.game(i).decks == g.decks
        else:
            assert v.state_hash(i) == g.state_hash()
        assert v.agent_seat(i) == e % 2


# ---- threads (docs/vecgame.md, Threads) ----------------------------------------------------------------------------
# step() runs without the GIL. One VecGame serves one call at a time: a call made while another is in progress on
# the same object - from another thread, or re-entered from a callback - raises RuntimeError and changes nothing.
# The tests hold a call open deterministically: an argument whose conversion (__index__, __array__, __eq__) runs
# inside the call makes the other calls from there, from a second thread (joined) and from the same thread.

class _Hooked:
    """An int / array / bot name whose conversion inside a VecGame call runs fn (once)."""

    def __init__(self, value, fn):
        self.value, self.fn = value, fn

    def _fire(self):
        fn, self.fn = self.fn, None
        if fn is not None:
            fn()

    def __index__(self):
        self._fire()
        return self.value

    def __array__(self, dtype=None, copy=None):
        self._fire()
        return np.asarray(self.value, dtype=dtype)


class _HookedName(str):
    """A bot name (str) whose comparison runs fn (bot_kind compares it with BOT_KINDS)."""

    def __eq__(self, other):
        fn, self.fn = getattr(self, "fn", None), None
        if fn is not None:
            fn()
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _legal(v, opp=False):
    """The first legal action of every acting row (every pending game with opp)."""
    masks, on = (v.opp_masks, v.opp_pending) if opp else (v.masks, v.acting)
    return np.where(on == 1, masks.argmax(axis=1), 0).astype(np.int32)


# Every public method of VecGame (and __init__), called with arguments it would accept. A method added to
# VecGame without an entry here fails test_every_vecgame_method_is_covered: give it one (and the guard).
def _reference_cpolicy():
    from azuki.policy_np import REFERENCE, load_cpolicy
    return load_cpolicy(REFERENCE)


_CALLS = {
    "state_hash": lambda v: v.state_hash(0),
    "agent_seat": lambda v: v.agent_seat(0),
    "episode": lambda v: v.episode(0),
    "episodes": lambda v: v.episodes(),
    "agent_seats": lambda v: v.agent_seats(),
    "game": lambda v: v.game(0),
    "log": lambda v: v.log(),
    "bot_opponent_actions": lambda v: v.bot_opponent_actions("random"),
    "policy_opponent_actions": lambda v: v.policy_opponent_actions(_reference_cpolicy(), 0, np.zeros(v.n, np.uint64)),
    "pbot_opponent_actions": lambda v: v.pbot_opponent_actions(_reference_cpolicy(), "policy"),
    "observe_others": lambda v: v.observe_others(),
    "step": lambda v: v.step(_legal(v)),
    "step_opponent": lambda v: v.step_opponent(_legal(v, opp=True)),
    "__init__": lambda v: v.__init__(2, seed=1, mode="self"),
}

# The calls that can be held open (their arguments are converted inside the call). log, episodes and
# agent_seats run entirely with the GIL held, so no other Python code can run during them.
_HOLD = {
    "step": lambda v, fn: v.step(_Hooked(_legal(v), fn)),
    "step_opponent": lambda v, fn: v.step_opponent(_Hooked(_legal(v, opp=True), fn)),
    "__init__": lambda v, fn: v.__init__(_Hooked(4, fn), seed=7, mode="policy"),
    "state_hash": lambda v, fn: v.state_hash(_Hooked(1, fn)),
    "agent_seat": lambda v, fn: v.agent_seat(_Hooked(1, fn)),
    "episode": lambda v, fn: v.episode(_Hooked(1, fn)),
    "game": lambda v, fn: v.game(_Hooked(1, fn)),
    "bot_opponent_actions": lambda v, fn: v.bot_opponent_actions(_HookedName("greedy")),
}


def _snapshot(v):
    return ([v.state_hash(i) for i in range(v.n)], v.episodes().tolist(), v.log(),
            [b.copy() for b in (v.obs, v.masks, v.acting, v.opp_obs, v.opp_masks, v.opp_pending)])


def _same(a, b):
    return a[:3] == b[:3] and all(np.array_equal(x, y) for x, y in zip(a[3], b[3]))


def _policy_vec():
    v = VecGame(4, seed=5, mode="policy")
    for k in range(200):   # until some games wait for the opponent and some for the agent
        if v.opp_pending.any() and v.acting.any():
            return v
        v.step_opponent(_legal(v, opp=True)) if k % 3 == 2 else v.step(_legal(v))
    raise AssertionError("no mixed position in 200 calls")


def test_every_vecgame_method_is_covered():
    public = {m for m in dir(VecGame) if not m.startswith("_") and callable(getattr(VecGame, m))}
    assert public | {"__init__"} == set(_CALLS), "a VecGame method without a thread-guard test: add it to _CALLS"


@pytest.mark.parametrize("held", sorted(_HOLD))
def test_a_call_in_progress_refuses_every_call_from_any_thread(held):
    """While `held` runs, every VecGame call on the same object, from another
    thread or from the same one, raises RuntimeError naming the call in
    progress; nothing changes (the object ends as a twin that made only
    `held`'s call), and the object works afterwards."""
    v, twin = _policy_vec(), _policy_vec()
    outcomes = []

    def attempt(name):
        try:
            _CALLS[name](v)
            return None
        except BaseException as e:      # noqa: BLE001 - reported below
            return e

    def probe():
        for name in sorted(_CALLS, key=lambda k: k == "__init__"):     # __init__ last
            for where in ("another thread", "this thread"):
                if where == "this thread":
                    e = attempt(name)
                else:
                    box = []
                    t = threading.Thread(target=lambda: box.append(attempt(name)))
                    t.start()
                    t.join()
                    e = box[0]
                outcomes.append((name, where, e))
                assert isinstance(e, RuntimeError) and "in use by " + where in str(e) \
                    and f"{held}() has not returned" in str(e), (name, where, e)

    if held == "bot_opponent_actions":
        name = _HookedName("greedy")
        name.fn = probe
        v.bot_opponent_actions(name)
    else:
        _HOLD[held](v, probe)
    assert len(outcomes) == 2 * len(_CALLS)
    _HOLD[held](twin, lambda: None)
    assert _same(_snapshot(v), _snapshot(twin))
    v.step(_legal(v))      # usable again
    v.__init__(2, seed=1, mode="self")
    assert v.rows == 4


_RACE = r"""
import sys, threading
import numpy as np
from azuki import VecGame, IllegalActionError
other = sys.argv[1]
v = VecGame(256, seed=1, mode="self", illegal="raise")
refused, unexpected = [0], []
def call(fn):
    try:
        fn()
    except RuntimeError as e:
        if "in use by another thread" not in str(e):
            unexpected.append(repr(e))
        refused[0] += 1
    except IllegalActionError:
        pass    # actions read from the buffers before the other thread's call changed the games: the caller's race
    except BaseException as e:
        unexpected.append(repr(e))
def step():
    call(lambda: v.step(np.where(v.acting == 1, v.masks.argmax(axis=1), 0).astype(np.int32)))
def init():
    call(lambda: v.__init__(256, seed=2, mode="self", illegal="raise"))
def stepper():
    for _ in range(300):
        step()
def other_thread():
    for _ in range(300):
        init() if other == "init" else step()
ts = [threading.Thread(target=stepper), threading.Thread(target=other_thread)]
for t in ts: t.start()
for t in ts: t.join()
assert not unexpected, unexpected[:5]
for i in range(v.n):
    g = v.game(i)
    g.check_invariants()
    assert g.state_hash() == v.state_hash(i)
print("ok", refused[0])
"""


@pytest.mark.parametrize("other", ["init", "step"])
def test_two_threads_hammering_one_vecgame_never_crash(other):
    """Real threads, no hooks: one steps, the other re-initialises (which
    used to free the games under the running step: a segfault) or steps
    too. Every call runs whole or is refused; the games stay valid."""
    p = subprocess.run([sys.executable, "-c", _RACE, other], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and p.stdout.startswith("ok"), (p.returncode, p.stdout, p.stderr[-2000:])


def test_separate_vecgames_step_in_parallel_threads():
    """The guard is per object: two VecGames, one per thread, both step (and
    give the trajectories a single thread gives)."""
    def run(v, out):
        for _ in range(40):
            v.step(_legal(v))
        out.extend(v.state_hash(i) for i in range(v.n))
    a, b, ref = (VecGame(16, seed=3) for _ in range(3))
    ha, hb, href = [], [], []
    ts = [threading.Thread(target=run, args=(a, ha)), threading.Thread(target=run, args=(b, hb))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    run(ref, href)
    assert ha == hb == href


# ---- threads=k (the worker pool, csrc/vec.c azk_vec_set_threads) ----------

def _run_pair(mode, steps, seed=11, n=24, **kw):
    """A VecGame with threads=1 and one with threads=2 (and a third with 3)
    fed the same actions; every buffer, hash, episode and the log compared
    after every call. Returns the episodes that ended."""
    vs = [VecGame(n, seed=seed, pairings=PAIRS, mode=mode, bot="greedy", threads=k, **kw) for k in (1, 2, 3)]
    assert [v.threads for v in vs] == [1, 2, 3]
    names = ("obs", "masks", "rewards", "terminals", "truncations", "acting", "opp_obs", "opp_masks", "opp_pending")

    def same():
        for name in names:
            a = getattr(vs[0], name)
            for v in vs[1:]:
                b = getattr(v, name)
                assert (a is None and b is None) or np.array_equal(a, b), name
        for v in vs[1:]:
            assert np.array_equal(v.episodes(), vs[0].episodes())
            assert np.array_equal(v.agent_seats(), vs[0].agent_seats())
            assert [v.state_hash(i) for i in range(n)] == [vs[0].state_hash(i) for i in range(n)]

    rng = random.Random(seed)
    ended = 0
    same()
    for k in range(steps):
        if mode == "policy" and k % 2 == 1:
            acts = vs[0].bot_opponent_actions("greedy") if k % 4 == 1 else \
                np.array([pick(rng, vs[0].opp_masks[i]) if vs[0].opp_pending[i] else 0 for i in range(n)], np.int32)
            for v in vs[1:]:
                if k % 4 == 1:
                    assert np.array_equal(v.bot_opponent_actions("greedy"), acts)
            for v in vs:
                v.step_opponent(acts)
        else:
            acts = np.array([pick(rng, vs[0].masks[r]) if vs[0].acting[r] else 0 for r in range(vs[0].rows)],
                            np.int32)
            for v in vs:
                v.step(acts)
        ended += int(vs[0].terminals.sum() + vs[0].truncations.sum())
        same()
    logs = [v.log() for v in vs]
    assert logs[1] == logs[0] and logs[2] == logs[0]
    return ended


@pytest.mark.parametrize("mode,kw", [("self", {}), ("self", {"waiting_obs": "mask"}),
                                     ("self", {"obs": False}),
                                     ("bot", {}), ("policy", {}), ("self", {"illegal": "lose"}),
                                     ("bot", {"paired": True})])
def test_threads_give_the_same_trajectories_and_buffers_as_one_thread(mode, kw):
    """threads=2 and 3 write exactly what threads=1 writes, call after call,
    across many episodes (resets happen while the pool runs)."""
    assert _run_pair(mode, 400, **kw) >= 24


def test_threads_bad_values_are_clear_errors():
    for bad in (0, -1, 65, 10**6):
        with pytest.raises(ValueError, match="threads"):
            VecGame(2, threads=bad)
    with pytest.raises(TypeError):
        VecGame(2, threads="2")
    v = VecGame(2, threads=4)
    with pytest.raises(ValueError, match="threads"):   # a failed re-init changes nothing
        v.__init__(2, threads=0)
    assert v.threads == 4
    v.step(np.zeros(v.rows, np.int32) + _legal(v))


def test_threads_vecgames_are_freed_and_reinitialised_cleanly():
    """Creating, re-initialising and dropping many pooled VecGames joins
    their workers (the thread count returns to where it was)."""
    import gc
    import os
    before = len(os.listdir("/proc/self/task"))
    for k in range(20):
        v = VecGame(8, threads=3)
        v.step(_legal(v))
        v.__init__(8, threads=2)
        v.step(_legal(v))
        del v
        gc.collect()
    assert len(os.listdir("/proc/self/task")) == before


# ---- the deal schedule: defined once in C (azk_deal_schedule) -------------

@pytest.mark.parametrize("paired", [False, True])
def test_deal_schedule_is_what_vecgame_plays(paired):
    seed, n = 40, 12
    v = VecGame(n, seed=seed, pairings=PAIRS, mode="bot", bot="random", paired=paired, obs=False)
    for i in range(n):
        e = v.episode(i)
        d = azuki._core.deal_schedule(e, seed=seed, npairs=len(PAIRS), paired=paired)
        assert d["engine_seed"] == seed + d["deal"]
        assert d["agent_seat"] == v.agent_seat(i)
        pair = PAIRS[d["pairing"]]
        decks = pair[::-1] if d["swapped"] else pair
        assert v.game(i).decks == decks
        g = azuki.Game(seed=d["engine_seed"], decks=decks)
        assert g.legal_actions().tolist() is not None
    # the bot stream of each episode: the same bot seeded from bot_seed plays what the VecGame's bot played
    for e in range(6):
        assert azuki._core.deal_schedule(e, seed=seed)["bot_seed"] == seed ^ ((0x9E3779B97F4A7C15 * (e + 1))
                                                                                  & ((1 << 64) - 1))
    with pytest.raises(ValueError):
        azuki._core.deal_schedule(0, npairs=0)
    with pytest.raises(ValueError):
        azuki._core.deal_schedule(-1)


def test_seed_mixers_are_the_c_ones():
    """splitmix64 and bot_seed_for come from C (azk_splitmix64,
    azk_bot_seed_for): the published first output of splitmix64 from 0,
    and bot_seed_for(s, k) = splitmix64(s + golden * k)."""
    from azuki._core import bot_seed_for, splitmix64
    assert splitmix64(0) == 0xE220A8397B1DCDAF
    G, M = 0x9E3779B97F4A7C15, (1 << 64) - 1
    for s, k in ((0, 0), (5, 3), (M, 1000), (123456789, 1)):
        assert bot_seed_for(s, k) == splitmix64((s + G * k) & M)


# ---- the schedule and the seed mixers are not copied back (issue 26) ------

_ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
# No Python file keeps its own splitmix64 (sampler.keyed_uniforms asks the C hash, azk_keyed_uniform).
_MIXER_COPIES_ALLOWED = set()
# Files that use the golden-ratio constant for something other than a seed stream, and what.
_GOLDEN_NOT_A_SEED = {"state.c": "the position hash's lane constants and multiplier (azk_hash)",
                      "bench.c": "the start of the benchmark's calibration recurrence, not a seed anyone derives"}


def _code_of(path):
    """The Python code of a file without its strings and comments."""
    import io
    import tokenize
    toks = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    return " ".join(t.string for t in toks if t.type not in (tokenize.STRING, tokenize.COMMENT))


def test_seed_mixer_and_deal_schedule_are_written_once():
    """splitmix64's multipliers and its golden-ratio increment appear in C only
    in csrc/rng.h (azk_mix64, azk_weyl: below every file that seeds, so the
    bots' and VecGame's seed derivations and the keyed uniforms share them);
    no Python module recomputes the deal schedule ((e // 2) % len(...), its
    period, the seat swap and the like) or a seed from the golden-ratio
    constant: they ask azuki._core (deal_schedule, arena_deal, splitmix64,
    bot_seed_for, keyed_uniforms_c)."""
    import re
    bad = []
    for p in sorted((_ROOT / "csrc").glob("*.[ch]")) + sorted((_ROOT / "azuki").glob("_*.px[ix]")):
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", p.read_text(), flags=re.S).lower()
        for const in ("0xBF58476D1CE4E5B9", "0x94D049BB133111EB", "0x9E3779B97F4A7C15"):
            if const == "0x9E3779B97F4A7C15" and p.name in _GOLDEN_NOT_A_SEED:
                continue
            if const.lower() in text and p.name != "rng.h":
                bad.append(f"{p.relative_to(_ROOT)}: {const}, a copy of the seed mixer or stream step (use rng.h's "
                           "azk_splitmix64_of / azk_mix64 / azk_weyl, or azk_splitmix64)")
    schedule = re.compile(
        r"\(\s*\w+\s*//\s*[24]\s*\)\s*%\s*len\s*\(|\bdeal\s*%\s*len\s*\(|//\s*4\s*\)\s*%"
        # the schedule's period (e % (2 * len(pairings)), e % (len(p) * 4)): the envs ask C with the whole
        # episode number (mod 2**64, its uint64) instead of reducing it by a period they would have to know
        r"|%\s*\(\s*\d+\s*\*\s*len\s*\(|%\s*\(\s*len\s*\([^()]*\)\s*\*\s*\d+\s*\)"
        # the seat swap of an episode / game number (e % 2, e & 1, (e >> 1) & 1)
        r"|\b(?:e|ep|episode|game|g)\s*(?:%\s*2|&\s*1)\b|\(\s*(?:e|ep|episode)\s*>>\s*1\s*\)\s*&\s*1")
    for p in sorted((_ROOT / "azuki").rglob("*.py")):
        rel = str(p.relative_to(_ROOT))
        code = _code_of(p)
        if rel not in _MIXER_COPIES_ALLOWED and re.search(r"0x9e3779b97f4a7c15|0xbf58476d1ce4e5b9", code, re.I):
            bad.append(f"{rel}: a seed mixer copy (use azuki._core.splitmix64 / bot_seed_for / deal_schedule)")
        if schedule.search(code):
            bad.append(f"{rel}: a deal-schedule copy (use azuki._core.deal_schedule / arena_deal)")
    assert not bad, bad


def test_keyed_uniforms_are_the_c_mixer():
    """sampler.keyed_uniforms (the learner's keyed sampling) is the C hash:
    splitmix64(key ^ splitmix64(seed)), top 53 bits, for any seed (taken
    mod 2**64) and keys of any shape."""
    pytest.importorskip("torch")        # sampler.py is the learner's (the RL world)
    from azuki import sampler
    from azuki._core import keyed_uniforms_c, splitmix64
    for seed in (77, 0, 2**64 - 1, 2**70 + 77, -1):
        keys = np.array([0, 1, 2, 2**40 + 3, 2**64 - 1], dtype=np.uint64)
        want = [(splitmix64(int(k) ^ splitmix64(seed % 2**64)) >> 11) / (1 << 53) for k in keys]
        assert sampler.keyed_uniforms(seed, keys).tolist() == want
        assert keyed_uniforms_c(seed % 2**64, keys).tolist() == want
        assert sampler.keyed_uniforms(seed, keys.reshape(5, 1)).shape == (5, 1)
        assert sampler.keyed_uniforms(seed, [2**40 + 3]).tolist() == want[3:4]


def test_python_schedules_equal_the_c_schedule():
    """evaluate.vec_deal / vec_bot_seed, the arena's schedule, the
    PettingZoo and Gymnasium envs' episode decks read the C schedule, and
    give what the formulas documented for them give (so results stay those
    of 4310ef3)."""
    from azuki import arena, evaluate
    M = (1 << 64) - 1
    pairs = [("A", "B"), ("B", "A"), ("A", "A")]
    for seed in (0, 7, M):
        for e in range(40):
            k = e // 2
            p = pairs[(k // 2) % 3]
            assert evaluate.vec_deal(e, seed, pairs) == ((seed + k) & M, p if k % 2 == 0 else p[::-1], e & 1)
            assert evaluate.vec_bot_seed(seed, e) == seed ^ ((0x9E3779B97F4A7C15 * (e + 1)) & M)
    cols, pairings = arena.schedule(24, 5, ("random", "greedy"), ("STT01", "STT02"))
    for g in range(24):
        deal, a_seat = divmod(g, 2)
        assert cols["seed"][g] == 5 + deal and cols["a_seat"][g] == a_seat
        assert cols["pairing"][g] == deal % len(pairings)
        base = azuki._core.bot_seed_for(5, g)
        assert (cols["bseed0"][g], cols["bseed1"][g]) == tuple(azuki._core.bot_seed_for(base, s) for s in (0, 1))
    try:
        from azuki.envs.pettingzoo import _episode_decks
    except ImportError:
        return
    for e in range(30):
        d0, d1 = pairs[(e // 2) % 3]
        assert _episode_decks(pairs, e) == ((d1, d0) if e % 2 else (d0, d1))
    # episode numbers count mod 2**64 (the C schedule's uint64), whatever the number of pairings
    for e in (2**64 - 1, 2**64, 2**70 + 5, 3 * 2**64 + 7):
        assert _episode_decks(pairs, e) == _episode_decks(pairs, e % 2**64)
    try:
        from azuki.envs.gymnasium import AzukiEnv
    except ImportError:
        return
    envs = {seat: AzukiEnv(seat=seat, decks=[("STT01", "STT02"), ("STT02", "STT02"), ("STT01", "STT01")])
            for seat in ("alternate", 1)}
    gp = envs[1].pairings
    for e in range(40):
        d0, d1 = gp[(e // 4) % 3]
        assert envs["alternate"]._setup(e) == (e % 2, (d1, d0) if (e // 2) % 2 else (d0, d1))
        d0, d1 = gp[(e // 2) % 3]
        assert envs[1]._setup(e) == (1, (d1, d0) if e % 2 else (d0, d1))
    for e in (2**64, 2**70 + 5):
        for env in envs.values():
            assert env._setup(e) == env._setup(e % 2**64)


def test_threads_vecgame_in_a_forked_child_runs_on_one_thread():
    """After fork() the child has no workers: its pooled VecGame steps on the
    calling thread and gives what the parent gives (no hang, no crash)."""
    import os
    v = VecGame(16, seed=3, threads=2)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:        # the child: step, report the hashes, leave without cleanup
        try:
            for _ in range(50):
                v.step(_legal(v))
            os.write(w, repr([v.state_hash(i) for i in range(16)]).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        child = f.read()
    os.waitpid(pid, 0)
    for _ in range(50):
        v.step(_legal(v))
    assert child == repr([v.state_hash(i) for i in range(16)])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("mode", ["policy", "bot"])
def test_observe_others_is_the_other_seats_observation(mode, threads):
    """VecGame.observe_others (the privileged critic's input, docs/training.md "Privileged critic"):
    after every call, row i is Game.observe of game i from the seat that is not the agent's (the
    opponent's view, hidden cards included), over many episodes; into a given buffer the same bytes;
    on the vector's threads too."""
    v = VecGame(6, seed=11, mode=mode, bot="greedy", threads=threads)
    buf = np.full((v.n, azuki.OBS_LEN), 7, dtype=np.uint8)
    for k in range(300):
        if mode == "policy" and v.opp_pending.any() and k % 2:
            v.step_opponent(_legal(v, opp=True))
        else:
            v.step(_legal(v))
        o = v.observe_others()
        assert v.observe_others(buf) is buf and np.array_equal(buf, o)
        seats = v.agent_seats()
        for i in range(v.n):
            g = v.game(i)
            assert np.array_equal(o[i], g.observe(1 - seats[i]))
    assert v.episodes().max() > 0


def test_observe_others_refuses_self_play_and_bad_buffers():
    with pytest.raises(RuntimeError, match="observe_others"):
        VecGame(2, seed=1, mode="self").observe_others()
    v = VecGame(3, seed=1, mode="policy")
    before = _snapshot(v)
    for bad in (np.zeros((3, azuki.OBS_LEN), np.int8), np.zeros((2, azuki.OBS_LEN), np.uint8),
                np.zeros((3, azuki.OBS_LEN + 1), np.uint8), np.zeros((azuki.OBS_LEN, 3), np.uint8).T):
        with pytest.raises(ValueError, match="observe_others: out must"):
            v.observe_others(bad)
    with pytest.raises(TypeError, match="observe_others: out must be a numpy array"):
        v.observe_others([[0] * azuki.OBS_LEN] * 3)
    ro = np.zeros((3, azuki.OBS_LEN), np.uint8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="observe_others"):
        v.observe_others(ro)
    assert _same(_snapshot(v), before)

"""VecGame (csrc/vec.c, azuki._core.VecGame): n games per C call.

The central property: stepping n games together gives exactly the
trajectories (state hashes) of the same games stepped one by one through
Game, episode after episode (auto-reset from seed + episode counter)."""
import random

import numpy as np
import pytest

import azuki
from azuki._core import VecGame

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
                    mask_slice = azuki.obs_slice(v.obs[r], "MASK")
                    assert mask_slice.sum() == 1 and mask_slice[0] == 1
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
            "obs": np.zeros((rows, azuki.OBS_LEN), dtype=np.float32)}
    v = VecGame(3, seed=2, buffers=bufs)
    assert v.masks is bufs["masks"] and v.rewards is bufs["rewards"] and v.obs is bufs["obs"]
    assert bufs["masks"].sum() > 0 and np.abs(bufs["obs"]).sum() > 0

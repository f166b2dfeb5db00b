"""azuki.envs.gymnasium: the single-agent env against a built-in bot
(docs/envs.md "Gymnasium").

* Gymnasium's check_env passes (ansi render checked too), also through
  gymnasium.make("azuki/Azuki-v0");
* masked random play: never an illegal action, rewards +1/-1/0 matching the
  game's result and the agent's seat, observation = Game.observe(seat), mask
  in the observation = info["action_mask"];
* the seat alternates per reset, decks balanced; same seed, same episodes;
* illegal action: terminated, -1, info flag, never raises; engine truncation:
  truncated, 0;
* SyncVectorEnv (both worlds) and make_vec (gymnasium >= 1.0) run with masks
  from the infos;
* importing the module never imports pufferlib or torch.

Skipped where gymnasium is not installed (the main test venv).
"""
from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import azuki  # noqa: E402
import azuki.bots  # noqa: E402
from azuki.envs.gymnasium import ENV_ID, MASK_OFFSET, AzukiEnv, AzukiVectorEnv  # noqa: E402
from azuki.envs import mask_from_obs  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

MASK = slice(MASK_OFFSET, MASK_OFFSET + (azuki.NUM_ACTIONS + 7) // 8)   # the packed MASK field
GYM_1 = int(gymnasium.__version__.split(".")[0]) >= 1


def sample(rng, mask):
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if len(legal) else 0


def test_mask_offset_is_the_layout():
    assert MASK_OFFSET == azuki.obs_layout()["MASK"]["offset"]
    assert azuki.obs_layout()["MASK"]["n"] == azuki.NUM_ACTIONS and azuki.obs_layout()["MASK"]["kind"] == "bits"


@pytest.mark.parametrize("kw", [dict(render_mode="ansi"), dict(opponent="greedy", seat=1),
                                dict(seat=0, decks=[("STT02", "STT02"), ("STT01", "STT02")])])
def test_check_env(kw):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not having a spec")
        check_env(AzukiEnv(**kw), skip_render_check=False)


def test_make_registered_id_and_check_env():
    env = gymnasium.make(ENV_ID, opponent="greedy", render_mode="ansi")
    assert isinstance(env.unwrapped, AzukiEnv) and env.unwrapped.opponent.name == "greedy"
    check_env(env.unwrapped, skip_render_check=False)
    import azuki.envs.gymnasium as mod
    mod._register()                          # a second registration is a no-op
    assert ENV_ID in gymnasium.envs.registration.registry


def test_masked_random_play():
    env = AzukiEnv(opponent="random")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=11)
    results = {-1.0: 0, 0.0: 0, 1.0: 0}
    seats = []
    for episode in range(30):
        if episode:
            obs, info = env.reset()
        seats.append(info["seat"])
        while True:
            g = env.game
            assert env.observation_space.contains(obs) and info["action_mask"].dtype == np.int8
            assert g.current_player == env.seat == info["seat"]
            assert np.array_equal(obs, g.observe(env.seat))
            assert np.array_equal(mask_from_obs(obs), info["action_mask"] != 0)
            assert np.array_equal(info["action_mask"], g.action_mask())
            obs, reward, terminated, truncated, info = env.step(sample(rng, info["action_mask"]))
            assert "illegal_action" not in info
            if terminated or truncated:
                break
            assert reward == 0.0
        g = env.game
        assert g.is_terminal and terminated != truncated
        assert not info["action_mask"].any() and not obs[MASK].any()
        assert info["result"] == g.result and info["end_reason"] == g.end_reason
        if truncated:
            assert reward == 0.0 and g.result == "TRUNCATED"
        elif g.winner is None:
            assert reward == 0.0
        else:
            assert reward == (1.0 if g.winner == env.seat else -1.0)
        results[reward] += 1
    assert sum(results.values()) == 30 and results[1.0] > 0 and results[-1.0] > 0
    assert seats == [(11 + k) % 2 for k in range(30)]


def test_seats_and_decks_alternate():
    env = AzukiEnv()
    env.reset(seed=0)
    seen = [(env.seat, env.game.decks)]
    for _ in range(3):
        env.reset()
        seen.append((env.seat, env.game.decks))
    assert seen == [(0, ("STT01", "STT02")), (1, ("STT01", "STT02")),
                    (0, ("STT02", "STT01")), (1, ("STT02", "STT01"))]
    # over four episodes the agent plays each deck from each seat
    assert sorted((s, d[s]) for s, d in seen) == [(0, "STT01"), (0, "STT02"), (1, "STT01"), (1, "STT02")]
    fixed = AzukiEnv(seat=1)
    for s in range(4):
        fixed.reset(seed=s)
        assert fixed.seat == 1 and fixed.game.current_player == 1


def test_determinism_from_seed():
    def trace(seed, opponent):
        env, rng, out = AzukiEnv(opponent=opponent), np.random.default_rng(3), []
        obs, info = env.reset(seed=seed)
        for step in range(150):
            out.append(obs.tobytes())
            obs, reward, terminated, truncated, info = env.step(sample(rng, info["action_mask"]))
            out.append((reward, terminated, truncated))
            if terminated or truncated:
                obs, info = env.reset()
        return out

    for opponent in ("random", "greedy"):
        assert trace(4, opponent) == trace(4, opponent)
    assert trace(4, "random") != trace(5, "random")
    a, b = AzukiEnv(), AzukiEnv()           # unseeded envs draw their own seeds
    a.reset()
    b.reset()
    assert a.game.state_hash() != b.game.state_hash()


def test_illegal_action_loses():
    env = AzukiEnv()
    for bad in ("masked-out", azuki.NUM_ACTIONS, -1, 2.5, None, True):
        obs, info = env.reset(seed=2)
        h = env.game.state_hash()
        if bad == "masked-out":
            bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
        obs, reward, terminated, truncated, info = env.step(bad)
        assert (reward, terminated, truncated) == (-1.0, True, False)
        assert info["illegal_action"] is True
        assert env.game.state_hash() == h       # the game itself is left as it was
        assert not info["action_mask"].any() and not obs[MASK].any()
        with pytest.raises(RuntimeError):
            env.step(0)


def test_truncation_by_the_engine():
    env = AzukiEnv(decision_cap=6)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    while True:
        obs, reward, terminated, truncated, info = env.step(sample(rng, info["action_mask"]))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0
    assert info["result"] == "TRUNCATED" and info["end_reason"] == "DECISION_CAP"


def test_render_ansi():
    env = AzukiEnv(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text == env.game.render() and "p0.leader" in text
    quiet = AzukiEnv()
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="render mode"):
        assert quiet.render() is None
    with pytest.raises(ValueError):
        AzukiEnv(render_mode="human")


def test_opponents_and_bad_arguments():
    for kind in azuki.BOT_KINDS:
        kw = {"sims": 4} if kind == "search" else {}
        env = AzukiEnv(opponent=kind, opponent_kwargs=kw, seat=1)   # seat 1: the bot moves first in reset
        obs, info = env.reset(seed=1)
        assert env.opponent.name == kind and info["action_mask"].any()
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(ValueError):
        AzukiEnv(opponent="nobody")
    with pytest.raises(TypeError):
        AzukiEnv(opponent=42)
    with pytest.raises(TypeError):
        AzukiEnv(opponent=azuki.bots.GreedyBot(1), opponent_kwargs={"sims": 4})
    mine = AzukiEnv(opponent=azuki.bots.GreedyBot(1))          # any object with act(game)
    obs, info = mine.reset(seed=0)
    assert info["action_mask"].any()
    with pytest.raises(ValueError):
        AzukiEnv(seat=2)
    with pytest.raises(ValueError):
        AzukiEnv(decks=("STT01", "NOPE"))


def _run_vector(venv, steps, seed=0):
    """Step a vector env with masked random actions taken from the infos."""
    rng = np.random.default_rng(seed)
    obs, infos = venv.reset(seed=seed)
    assert obs.shape == (venv.num_envs, azuki.OBS_LEN) and obs.dtype == np.uint8
    ends = 0
    for _ in range(steps):
        masks = infos["action_mask"]
        actions = np.array([sample(rng, m) for m in masks])
        obs, rewards, terminated, truncated, infos = venv.step(actions)
        assert "illegal_action" not in infos
        finals = infos.get("final_info")        # gymnasium 0.29: the infos of finished episodes
        for final in ([] if finals is None else finals):
            assert final is None or "illegal_action" not in final
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        ends += int(np.sum(terminated | truncated))
    venv.close()
    return ends


def test_sync_vector_env():
    venv = gymnasium.vector.SyncVectorEnv([lambda: AzukiEnv(opponent="random") for _ in range(4)])
    assert _run_vector(venv, 200) > 0


@pytest.mark.skipif(not GYM_1, reason="gymnasium.make_vec needs gymnasium >= 1.0")
def test_make_vec():
    venv = gymnasium.make_vec(ENV_ID, num_envs=4, vectorization_mode="sync", opponent="greedy")
    assert _run_vector(venv, 100) > 0


@pytest.mark.skipif(not GYM_1, reason="AzukiVectorEnv needs gymnasium >= 1.0")
def test_native_vector_env():
    """AzukiVectorEnv on VecGame: rows are Game.observe of the agent's seat,
    masks in the infos, same-step autoreset, deterministic from the seed."""
    def run(seed, steps, check=False):
        venv = AzukiVectorEnv(4, opponent="greedy", decks=[("STT01", "STT02"), ("STT02", "STT02")])
        assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
        assert venv.single_observation_space == AzukiEnv().observation_space
        rng = np.random.default_rng(seed)
        obs, infos = venv.reset(seed=seed)
        trace, ends, total = [], 0, 0.0
        for t in range(steps):
            masks = infos["action_mask"]
            assert masks.dtype == np.int8 and masks.shape == (4, azuki.NUM_ACTIONS) and masks.any(axis=1).all()
            if check and t % 10 == 0:
                for i in range(4):
                    g = venv.vec.game(i)
                    assert g.current_player == venv.vec.agent_seat(i)
                    assert np.array_equal(obs[i], g.observe(venv.vec.agent_seat(i)))
                    assert np.array_equal(masks[i], g.action_mask())
            obs, rewards, terminated, truncated, infos = venv.step(np.array([sample(rng, m) for m in masks]))
            assert obs.shape == (4, azuki.OBS_LEN) and obs.dtype == np.uint8
            assert not (terminated & truncated).any()
            assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
            assert not rewards[~(terminated | truncated)].any()
            ends += int(np.sum(terminated | truncated))
            total += float(rewards.sum())
            trace.append(obs.tobytes())
        return trace, ends, total

    trace, ends, total = run(0, 200, check=True)
    assert ends > 4 and total < 0                 # random play against the greedy bot mostly loses
    assert run(7, 60)[0] == run(7, 60)[0]
    assert run(7, 60)[0] != run(8, 60)[0]
    venv = AzukiVectorEnv(2, illegal_action="raise")
    obs, infos = venv.reset(seed=1)
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in infos["action_mask"]])
    with pytest.raises(azuki.IllegalActionError):
        venv.step(bad)
    # the default: the illegal row loses its game, the other row plays on
    venv = AzukiVectorEnv(2)
    obs, infos = venv.reset(seed=1)
    acts = np.array([bad[0], int(np.flatnonzero(infos["action_mask"][1])[0])])
    obs, rew, term, trunc, infos = venv.step(acts)
    assert infos["illegal_action"].tolist() == [True, False]
    assert rew[0] == -1 and term[0]
    with pytest.raises(ValueError):
        venv.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError):
        AzukiVectorEnv(2, opponent="nobody")


@pytest.mark.skipif(GYM_1, reason="gymnasium < 1.0 only")
def test_native_vector_env_needs_gymnasium_1():
    with pytest.raises(RuntimeError):
        AzukiVectorEnv(2)


def test_no_pufferlib_or_torch_import():
    # (not pettingzoo: in the PufferLib world gymnasium 0.29 loads shimmy's plugins, which import it)
    code = ("import sys, azuki.envs.gymnasium; "
            "bad = [m for m in ('pufferlib', 'torch') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")

"""azuki.envs.pettingzoo: the AEC env (docs/envs.md "PettingZoo").

* PettingZoo's own api_test and seed_test pass (wrapped and raw, ansi);
* random masked games end with rewards +1/-1 (or 0/0 truncated) summing to 0;
* the observation is Game.observe(seat), the mask exactly the legal set of
  the agent to decide (all 0 for the other);
* same seed, same episodes; pairings and seat swaps alternate;
* illegal actions: "lose" ends the episode (-1 / +1, info flag), "raise" raises
  and changes nothing; engine truncation gives truncations and rewards 0;
* importing the module never imports pufferlib or torch.

Skipped where pettingzoo is not installed (the main test venv).
"""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")

import azuki  # noqa: E402
from azuki.envs.pettingzoo import AzukiAECEnv, env, raw_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

MASK = azuki.obs_layout()["MASK"]["offset"]
MASK_BYTES = azuki.obs_layout()["MASK"]["cols"]     # the packed mask's bytes

# api_test's generic advice for dict observations (its own classic games are exempted by name)
pytestmark = [pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
              pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")]


def play(e, seed, rng, check=None):
    """Play one episode with uniform masked actions; returns {agent: total reward}, steps."""
    e.reset(seed=seed)
    totals = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        if check:
            check(e, agent, obs, terminated, truncated, info)
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        steps += 1
    return totals, steps


def test_api_test_wrapped():
    api_test(env(), num_cycles=1000)


def test_api_test_raw_ansi_and_pairings():
    api_test(raw_env(render_mode="ansi", decks=[("STT01", "STT01"), ("STT02", "STT01")]), num_cycles=1000)


def test_seed_test():
    seed_test(env)
    seed_test(lambda: raw_env(decks=("STT02", "STT02")))


def test_metadata_and_spaces():
    e = raw_env()
    assert e.metadata["name"] == "azuki_v0"
    assert e.metadata["render_modes"] == ["ansi"]
    assert e.metadata["is_parallelizable"] is False
    assert e.possible_agents == ["player_0", "player_1"]
    for a in e.possible_agents:
        assert e.observation_space(a) is e.observation_space(a)
        assert e.action_space(a) is e.action_space(a)
        assert e.action_space(a).n == azuki.NUM_ACTIONS
        sp = e.observation_space(a)
        assert sp["observation"].shape == (azuki.OBS_LEN,) and sp["observation"].dtype == np.uint8
        assert sp["action_mask"].shape == (azuki.NUM_ACTIONS,) and sp["action_mask"].dtype == np.int8


def test_random_games_to_the_end():
    """Observation = Game.observe(seat); mask = the legal set of the decider,
    zeros for the other; rewards sum to zero and match the result."""
    rng = np.random.default_rng(0)
    e = raw_env()

    def check(e, agent, obs, terminated, truncated, info):
        g = e.game
        seat = e.possible_agents.index(agent)
        assert obs["action_mask"].dtype == np.int8
        assert e.observation_space(agent).contains(obs)
        expect = g.observe(seat)
        if terminated or truncated:
            assert not obs["action_mask"].any()
            expect[MASK:MASK + MASK_BYTES] = 0
        else:
            assert g.current_player == seat
            assert np.array_equal(obs["action_mask"], g.action_mask().astype(np.int8))
            other = e.possible_agents[1 - seat]
            assert not e.observe(other)["action_mask"].any()
        assert np.array_equal(obs["observation"], expect)

    for seed in range(8):
        totals, steps = play(e, seed, rng, check)
        g = e.game
        assert g.is_terminal and steps > 10
        assert sum(totals.values()) == 0
        if g.winner is None:
            assert totals == {"player_0": 0, "player_1": 0}
        else:
            assert totals[e.possible_agents[g.winner]] == 1
            assert totals[e.possible_agents[1 - g.winner]] == -1
        assert e.agents == []


def test_determinism_from_seed():
    def trace(seed, resets=3):
        e, rng, out = raw_env(), np.random.default_rng(1), []
        e.reset(seed=seed)
        for r in range(resets):
            if r:
                e.reset()
            out.append((e.game.decks, e.game.state_hash()))
            for agent in e.agent_iter(60):
                obs, _, term, trunc, _ = e.last()
                out.append((agent, obs["observation"].tobytes()))
                e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    assert trace(5) == trace(5)
    assert trace(5) != trace(6)
    e1, e2 = raw_env(), raw_env()            # unseeded envs draw their own seeds
    e1.reset()
    e2.reset()
    assert e1.game.state_hash() != e2.game.state_hash()


def test_pairings_alternate_seats():
    e = raw_env(decks=[("STT01", "STT01"), ("STT01", "STT02")])
    e.reset(seed=0)
    seen = [e.game.decks]
    for _ in range(3):
        e.reset()
        seen.append(e.game.decks)
    assert seen == [("STT01", "STT01"), ("STT01", "STT01"), ("STT01", "STT02"), ("STT02", "STT01")]
    e.reset(seed=3)                          # reset(seed=s) starts at episode number s
    assert e.game.decks == ("STT02", "STT01")


def test_illegal_action_loses():
    e = env()
    e.reset(seed=3)
    agent = e.agent_selection
    other = "player_1" if agent == "player_0" else "player_0"
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(bad)
    assert e.terminations == {agent: True, other: True}
    assert e.rewards == {agent: -1, other: 1}
    assert e.infos[agent]["illegal_action"] is True
    assert "illegal_action" not in e.infos[other]
    totals = {}
    for a in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert term and not trunc and not obs["action_mask"].any()
        assert not obs["observation"][MASK:MASK + MASK_BYTES].any()
        totals[a] = reward
        e.step(None)
    assert totals == {agent: -1, other: 1}
    for bad in (azuki.NUM_ACTIONS, -1, 10**9):   # out of range is illegal too
        e.reset(seed=3)
        e.step(bad)
        assert e.rewards[agent] == -1


def test_illegal_action_raise():
    e = raw_env(illegal_action="raise")
    e.reset(seed=3)
    h = e.game.state_hash()
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(azuki.IllegalActionError):
        e.step(bad)
    assert e.game.state_hash() == h and e.agent_selection == agent
    assert not any(e.terminations.values())
    with pytest.raises(ValueError):
        raw_env(illegal_action="ignore")


def test_truncation_by_decision_cap():
    e = raw_env(decision_cap=5)
    totals, steps = play(e, 0, np.random.default_rng(0))
    assert e.game.result == "TRUNCATED" and e.game.end_reason == "DECISION_CAP"
    assert totals == {"player_0": 0, "player_1": 0}
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if trunc:
            assert not term and reward == 0 and info["end_reason"] == "DECISION_CAP"
            assert e.truncations == {a: True for a in e.agents}
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))


def test_render_ansi():
    e = env(render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and text == e.unwrapped.game.render()
    assert "p0.leader" in text
    quiet = raw_env()
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="render mode"):
        assert quiet.render() is None
    with pytest.raises(ValueError):
        raw_env(render_mode="human")


def test_bad_arguments():
    with pytest.raises(ValueError):
        raw_env(decks=("STT01", "NOPE"))
    with pytest.raises((TypeError, ValueError)):
        raw_env(decks="STT01")
    assert isinstance(raw_env(), AzukiAECEnv)


def test_no_pufferlib_or_torch_import():
    code = ("import sys, azuki.envs.pettingzoo; "
            "bad = [m for m in ('pufferlib', 'torch') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")

"""The league's snapshot opponents answered across all envs at once
(azuki.envs.puffer.play_opponents, batched_serial; docs/training.md) and
the snapshot cadence in agent-steps (azuki.train). Deterministic: keyed
opponents sample from (seed, stream, game, decision), so the batched
forward must give exactly the actions of one forward per env. Runs in
.venv-puffer; skipped elsewhere."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pufferlib")

import pufferlib.vector as pv  # noqa: E402

from azuki import train as T  # noqa: E402
from azuki.envs import mask_from_obs  # noqa: E402
from azuki.envs.puffer import AzukiEnv, batched_serial  # noqa: E402
from azuki.policy import PolicyPlayer, make_policy  # noqa: E402


class Counting(PolicyPlayer):
    """A PolicyPlayer that counts its calls and the rows of each."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.calls = []

    def act(self, obs, masks=None, keys=None):
        self.calls.append(len(obs))
        return super().act(obs, masks, keys=keys)

    __call__ = act


def league_vec(backend, seed=11):
    torch.manual_seed(seed)
    snaps = [make_policy("flat", hidden=16).eval() for _ in range(2)]
    players = [Counting(snaps[0], seed=101, name="a"), Counting(snaps[1], seed=202, name="b")]
    vec = pv.make(AzukiEnv, backend=backend, num_envs=4,
                  env_kwargs=dict(num_envs=6, mode="policy", opponent="random", report_interval=1 << 30))
    for k, env in enumerate(vec.envs):
        env.stream = k
    # slots 0 and 2 play snapshot a, slot 1 snapshot b, slot 3 the greedy bot
    for env, opp in zip(vec.envs, (players[0], players[1], players[0], "greedy")):
        env.set_opponent(opp, name=getattr(opp, "name", opp))
    vec.async_reset(seed)
    return vec, players


def run(backend, steps=60):
    vec, players = league_vec(backend)
    rng = np.random.default_rng(0)
    trace = []
    try:
        for _ in range(steps):
            obs = vec.recv()[0]
            trace.append((obs.copy(), vec.rewards.copy(), vec.terminals.copy()))
            m = mask_from_obs(obs)
            vec.send(np.array([rng.choice(np.flatnonzero(r)) for r in m], dtype=np.int32))
        results = [env.take_results() for env in vec.envs]
    finally:
        vec.close()
    return trace, results, players


def test_batched_opponents_play_exactly_like_one_forward_per_env():
    per_env, res_a, players_a = run(pv.Serial)
    batched, res_b, players_b = run(batched_serial())
    for (oa, ra, ta), (ob, rb, tb) in zip(per_env, batched):
        assert np.array_equal(oa, ob) and np.array_equal(ra, rb) and np.array_equal(ta, tb)
    assert res_a == res_b and any(res_a)                    # games finished, same results per opponent
    # snapshot a plays two slots: per env it is called for each, batched once per round with both slots' rows
    a_env, a_bat = players_a[0].calls, players_b[0].calls
    assert sum(a_env) == sum(a_bat) > 0
    assert len(a_bat) < len(a_env)
    assert max(a_bat) > 6                                  # rows of both slots (6 games each) in one forward
    assert players_a[1].calls == players_b[1].calls        # a snapshot playing one slot: the same calls


def test_keyed_player_ignores_the_batch_it_is_in():
    torch.manual_seed(0)
    env = AzukiEnv(num_envs=32, mode="self", seed=2)
    env.reset()
    obs = env.observations.copy()
    p = PolicyPlayer(make_policy("flat", hidden=16).eval(), seed=9)
    keys = np.arange(len(obs), dtype=np.uint64) * np.uint64(977)
    whole = p.act(obs, keys=keys)
    parts = np.concatenate([p.act(obs[i:i + 5], keys=keys[i:i + 5]) for i in range(0, len(obs), 5)])
    assert np.array_equal(whole, parts)
    assert mask_from_obs(obs)[np.arange(len(obs)), whole].all()


def tiny(**over):
    cfg = T.load_config(overrides=[
        "env.envs=2", "env.games_per_env=16", "ppo.bptt_horizon=8", "ppo.minibatch_size=128",
        "eval.games=8", "eval.minutes=1000.0", "eval.final_games=0", "league.pool_size=2",
        "run.checkpoint_minutes=1000.0", "run.log_seconds=1000.0", "policy.hidden=16", "kickstart.decisions=0"])
    cfg["run"].update({"minutes": 0.0, "threads": 1, **over})
    return cfg


def test_snapshots_come_every_snapshot_steps_agent_steps(tmp_path):
    """One epoch is 2 x 16 x 8 = 256 agent-steps; a snapshot every 512 steps
    gives one every second epoch, by step count alone (no clock), and a
    resumed run keeps the cadence."""
    cfg = tiny(steps=2048)
    cfg["league"]["snapshot_steps"] = 512
    s = T.train(cfg, tmp_path / "r", log=lambda m: None, quiet=True)
    import json
    meta = json.loads((tmp_path / "r" / "checkpoint" / "latest.json").read_text())
    lg = meta["extra"]["league"]
    assert s["steps"] == 2048 and lg["made"] == 4
    assert lg["order"] == ["snap3-1k", "snap4-2k"]          # pool_size 2 keeps the newest
    assert s["budget"] == {"minutes": None, "steps": 2048} and s["steps_per_second"] > 0
    cfg2 = tiny(steps=3072)
    cfg2["league"]["snapshot_steps"] = 512
    T.train(cfg2, tmp_path / "r", resume=tmp_path / "r", log=lambda m: None, quiet=True)
    lg = json.loads((tmp_path / "r" / "checkpoint" / "latest.json").read_text())["extra"]["league"]
    assert lg["made"] == 6 and lg["order"] == ["snap5-2k", "snap6-3k"]


def test_snapshot_steps_zero_means_every_epoch_and_negative_is_refused(tmp_path):
    cfg = tiny(steps=768)
    cfg["league"]["snapshot_steps"] = 0
    T.train(cfg, tmp_path / "z", log=lambda m: None, quiet=True)
    import json
    assert json.loads((tmp_path / "z" / "checkpoint" / "latest.json").read_text())["extra"]["league"]["made"] == 3
    cfg["league"]["snapshot_steps"] = -1
    with pytest.raises(ValueError, match="snapshot_steps"):
        T.train(cfg, tmp_path / "n", log=lambda m: None, quiet=True)

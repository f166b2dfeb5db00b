"""AzukiEnv (azuki.envs.puffer) under PufferLib 3.0.0: the native env, the
Serial / Multiprocessing / Ray backends, masks, heads, illegal actions,
seeding and logs (docs/envs.md). Runs in .venv-puffer (tools/setup_envs.sh
puffer); skipped where pufferlib is not installed."""
import os
import subprocess
import sys

import numpy as np
import pytest

pufferlib = pytest.importorskip("pufferlib")
import pufferlib.vector as pv  # noqa: E402

import azuki  # noqa: E402
from azuki.envs import (HEAD_SIZES, MASK_OFFSET, NUM_ACTIONS, OBS_LEN, apply_mask, decode_obs,  # noqa: E402
                        head_masks, mask_from_obs, resolve_heads)
from azuki.envs.puffer import AzukiEnv, engine_seed, make  # noqa: E402


# The Ray tests: AZUKI_SKIP_RAY=1 skips them (tools/test.sh, README "Tests"); a skip says why in the pytest
# summary (tools/test.sh runs pytest with -rs).
SKIP_RAY = pytest.mark.skipif(os.environ.get("AZUKI_SKIP_RAY") == "1",
                              reason="AZUKI_SKIP_RAY=1 is set: the Ray backend tests are skipped (unset it to run them)")


def start_ray():
    """A local Ray instance (2 CPUs) that is patient with a loaded machine.
    Ray 2.60 waits a fixed 30 s for its raylet to register (hard-coded in
    ray/_private/node.py) and 60 s for a worker process to register; on a
    busy 2-core machine both have run out. Worker registration gets 600 s
    (a Ray system setting), and a start that times out is retried: 4 starts
    in all, i.e. up to about 2 minutes for the node."""
    ray = pytest.importorskip("ray", reason="ray is not installed here (it is in the puffer world, .venv-puffer)")
    for attempt in range(4):
        try:
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
                     _system_config={"worker_register_timeout_seconds": 600})
            return ray
        except Exception as e:          # noqa: BLE001 - Ray raises a bare Exception for a start-up timeout
            ray.shutdown()
            if "timed out" not in str(e).lower() or attempt == 3:
                raise



def test_start_ray_retries_a_start_up_timeout(monkeypatch):
    """A Ray start that times out (a loaded machine) is retried, with the
    patient worker-registration setting; any other error is not."""
    calls = []

    class FakeRay:
        def init(self, **kw):
            calls.append(kw)
            if len(calls) < 4:      # two starts time out (each followed by a shutdown), the third works
                raise Exception("The current node timed out during startup. ...")

        def shutdown(self):
            calls.append("shutdown")

    monkeypatch.setitem(sys.modules, "ray", FakeRay())
    start_ray()
    assert [c for c in calls if c != "shutdown"][-1]["_system_config"]["worker_register_timeout_seconds"] >= 600
    assert calls.count("shutdown") == 2 and len(calls) == 5

    class BrokenRay(FakeRay):
        def init(self, **kw):
            raise ValueError("bad argument")

    monkeypatch.setitem(sys.modules, "ray", BrokenRay())
    with pytest.raises(ValueError):
        start_ray()

def masked_random(obs, rng):
    """A uniform legal action per row, read from the mask inside the observation."""
    m = mask_from_obs(obs)
    assert m.any(axis=1).all(), "every row has a legal action"
    return (rng.random(m.shape) * m).argmax(axis=1).astype(np.int32)


def drive(vec, steps, seed=0):
    """Random masked play on a PufferLib vector; returns (applied decisions, logs)."""
    rng = np.random.default_rng(seed)
    obs, _ = vec.reset(seed)
    applied, logs = 0, []
    for _ in range(steps):
        applied += obs.shape[0] // 2     # self-play: one seat of every game decides at every step
        obs, rew, term, trunc, infos = vec.step(masked_random(obs, rng))
        logs.extend(infos)
        assert np.all(np.isin(rew, (-1.0, 0.0, 1.0)))
    return applied, logs


def check_logs(logs, mode="self"):
    assert logs, "episodes completed and were logged"
    for log in logs:
        assert log["n"] >= 1
        assert log["illegal_rate"] == 0.0
        assert 10 < log["episode_length"] < 10_000
        total = log["win_rate_seat0"] + log["win_rate_seat1"] + log["draw_rate"] + log["truncation_rate"]
        assert abs(total - 1.0) < 1e-5
        if mode != "self":
            assert 0.0 <= log["agent_win_rate"] <= 1.0


def test_native_env_spaces_and_mask_offset():
    env = AzukiEnv(num_envs=8)
    assert env.num_agents == 16
    assert env.single_observation_space.shape == (OBS_LEN,)
    assert env.single_observation_space.dtype == np.uint8
    assert env.single_action_space.n == NUM_ACTIONS
    obs, infos = env.reset(seed=1)
    assert obs is env.observations and infos == []
    assert MASK_OFFSET == azuki.obs_layout()["MASK"]["offset"]
    # the mask in the observation is the engine's legal set for the acting seat, NO_OP only for the other
    for i in range(8):
        g = env.vec.game(i)
        seat = g.current_player
        np.testing.assert_array_equal(mask_from_obs(obs[2 * i + seat]), g.action_mask().astype(bool))
        other = mask_from_obs(obs[2 * i + 1 - seat])
        assert other[0] and other.sum() == 1
        # the observation is the engine's, from the row's seat
        np.testing.assert_array_equal(obs[2 * i + seat], g.observe(seat))
        d = decode_obs(obs[2 * i + seat])
        assert d["HAND_N"][0, 0] == len(g.state_dict()["players"][seat]["hand"])
        np.testing.assert_array_equal(d["MASK"], g.action_mask().astype(bool))


def test_reset_seed_reproducible_and_engine_seed():
    a, b = AzukiEnv(num_envs=4), AzukiEnv(num_envs=4)
    oa, _ = a.reset(seed=7)
    ob, _ = b.reset(seed=7)
    np.testing.assert_array_equal(oa, ob)
    rng = np.random.default_rng(3)
    for _ in range(50):
        act = masked_random(a.observations, rng)
        a.step(act)
        b.step(act)
        np.testing.assert_array_equal(a.observations, b.observations)
    # game i's first episode is Game(seed=engine_seed + i), seats swapped for odd episodes (VecGame)
    c = AzukiEnv(num_envs=3, stream=5)
    c.reset(seed=11)
    assert c.engine_seed == engine_seed(11, 5)
    for i in range(3):
        decks = ("STT01", "STT02") if i % 2 == 0 else ("STT02", "STT01")
        assert c.vec.game(i).state_hash() == azuki.Game(seed=c.engine_seed + i, decks=decks).state_hash()
    # different seeds or streams give different deals
    assert engine_seed(11, 5) != engine_seed(11, 6) != engine_seed(12, 5)


@pytest.mark.parametrize("bad", [dict(mode="x"), dict(mode="bot", bot="nobot"), dict(obs_dtype="int8"), dict(obs_dtype="float32"),
                                 dict(illegal_action="ignore"), dict(num_envs=0), dict(num_envs=True),
                                 dict(seed=-1), dict(render_mode="human"), dict(report_interval=0)])
def test_bad_arguments(bad):
    with pytest.raises((ValueError, TypeError)):
        AzukiEnv(**bad)


def test_step_before_reset_is_an_error():
    env = AzukiEnv(num_envs=2)
    with pytest.raises(RuntimeError):
        env.step(np.zeros(4, dtype=np.int32))


def test_serial_100k_masked_steps_no_illegal():
    vec = pv.make(AzukiEnv, backend=pv.Serial, num_envs=2,
                  env_kwargs=dict(num_envs=256, illegal_action="raise", report_interval=16))
    applied, logs = drive(vec, 260)
    assert applied >= 100_000, applied
    check_logs(logs)
    vec.close()


def test_multiprocessing_100k_masked_steps_no_illegal():
    vec = make(num_envs=256, backend="multiprocessing", num_workers=2, illegal_action="raise",
               report_interval=16)
    try:
        applied, logs = drive(vec, 260)
        assert applied >= 100_000, applied
        check_logs(logs)
    finally:
        vec.close()


def test_multiprocessing_seeded_by_stream_not_by_worker():
    """The two workers' envs play different deals from one reset seed."""
    vec = make(num_envs=4, backend="multiprocessing", num_workers=2)
    try:
        obs, _ = vec.reset(5)
        half = obs.shape[0] // 2
        assert not np.array_equal(obs[:half], obs[half:])
    finally:
        vec.close()


def test_bot_mode_per_seat_and_deck_logs():
    env = AzukiEnv(num_envs=64, mode="bot", bot="greedy", pairings=[("STT01", "STT02"), ("STT02", "STT02")],
                   illegal_action="raise", report_interval=10_000)
    rng = np.random.default_rng(0)
    env.reset(seed=2)
    for _ in range(400):
        env.step(masked_random(env.observations, rng))
    log = env.log()
    check_logs([log], mode="bot")
    # random play loses to the greedy bot from both seats
    assert log["agent_win_rate"] < 0.2
    assert {"agent_win_rate_seat0", "agent_win_rate_seat1", "win_rate_STT01", "win_rate_STT02"} <= set(log)


def test_policy_mode_frozen_opponent_every_row_acts():
    calls = []

    def first_legal(obs, masks):
        calls.append(len(obs))
        assert obs.shape[1] == OBS_LEN and masks.shape[1] == NUM_ACTIONS
        return masks.argmax(axis=1)

    env = AzukiEnv(num_envs=32, mode="policy", opponent=first_legal, illegal_action="raise", report_interval=50)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    logs, ended = [], 0
    for _ in range(600):
        assert env.vec.acting.all(), "after reset and every step each game waits for the agent"
        _, rew, term, trunc, infos = env.step(masked_random(env.observations, rng))
        ended += int(term.sum() + trunc.sum())
        logs.extend(infos)
        np.testing.assert_array_equal(env.observations, env.vec.obs)
    assert calls and ended > 0
    check_logs(logs, mode="policy")
    env.set_opponent(lambda o, m: m.argmax(axis=1))
    with pytest.raises(TypeError):
        env.set_opponent(3)


def test_policy_mode_without_opponent_is_a_clear_error():
    env = AzukiEnv(num_envs=8, mode="policy")
    with pytest.raises(RuntimeError, match="opponent"):
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        for _ in range(50):
            env.step(masked_random(env.observations, rng))


def test_illegal_action_lose_and_raise():
    env = AzukiEnv(num_envs=16, mode="bot", report_interval=1)
    env.reset(seed=0)
    obs, rew, term, trunc, infos = env.step(np.full(16, NUM_ACTIONS - 1, dtype=np.int32))
    illegal = ~mask_from_obs(obs)[:, NUM_ACTIONS - 1]   # (the new episodes' masks; the old ones were checked)
    assert term.sum() >= 1 and np.all(rew[term] == -1.0)
    assert infos and infos[0]["illegal_rate"] > 0
    strict = AzukiEnv(num_envs=4, illegal_action="raise")
    strict.reset(seed=0)
    before = strict.observations.copy()
    with pytest.raises(azuki.IllegalActionError):
        strict.step(np.full(8, NUM_ACTIONS - 1, dtype=np.int32))
    np.testing.assert_array_equal(before, strict.observations)
    del illegal


def test_action_heads_marginals_and_resolution():
    env = AzukiEnv(num_envs=32, action_heads=True, illegal_action="raise", report_interval=40)
    assert list(env.single_action_space.nvec) == list(HEAD_SIZES)
    obs, _ = env.reset(seed=9)
    assert obs.shape == (64, OBS_LEN + sum(HEAD_SIZES))
    rng = np.random.default_rng(2)
    logs = []
    offs = np.cumsum((0,) + HEAD_SIZES)
    for _ in range(200):
        tail = env.observations[:, OBS_LEN:] == 1        # the head masks: 0/1 bytes after the observation
        np.testing.assert_array_equal(tail, head_masks(env.vec.masks) != 0)
        # sample each head independently from its marginal, as PuffeRL does
        acts = np.stack([(rng.random((64, HEAD_SIZES[k])) * tail[:, offs[k]:offs[k + 1]]).argmax(1)
                         for k in range(3)], axis=1).astype(np.int32)
        _, _, _, _, infos = env.step(acts)     # illegal_action="raise": a wrong resolution would raise
        logs.extend(infos)
    assert logs and any(log["heads_replaced"] > 0 for log in logs)
    # resolve_heads keeps legal joints and agrees on the longest legal prefix otherwise
    m = env.vec.masks
    legal_rows = np.flatnonzero(m.sum(1) > 1)
    r = legal_rows[0]
    a = int(np.flatnonzero(m[r])[-1])
    flat, rep = resolve_heads(np.array([azuki.envs.HEADS[a]]), m[r:r + 1])
    assert flat[0] == a and not rep[0]


def test_apply_mask_numpy_and_torch_never_samples_illegal():
    torch = pytest.importorskip("torch")
    env = AzukiEnv(num_envs=64)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    g = torch.Generator().manual_seed(0)
    for _ in range(100):
        obs_t = torch.from_numpy(env.observations)
        mask = mask_from_obs(obs_t)       # the torch path: a bit table, no numpy round trip
        assert mask.dtype == torch.bool and np.array_equal(mask.numpy(), mask_from_obs(env.observations))
        logits = torch.randn(obs_t.shape[0], NUM_ACTIONS, generator=g) * 5
        masked = apply_mask(logits, mask)
        a = torch.distributions.Categorical(logits=masked).sample()
        assert bool(mask[torch.arange(len(a)), a].all())
        np_masked = apply_mask(logits.numpy(), mask.numpy())
        assert np.all(np_masked[~mask.numpy()] == -1e9)
        env.step(masked_random(env.observations, rng))


def test_render_ansi():
    env = AzukiEnv(num_envs=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "STT01" in text or "Raizan" in text


def test_no_pufferlib_in_pettingzoo_and_gymnasium_modules():
    code = ("import sys, azuki.envs\n"
            "for m in ('azuki.envs.pettingzoo', 'azuki.envs.gymnasium'):\n"
            "    try:\n        __import__(m)\n    except ImportError:\n        pass\n"
            "assert 'pufferlib' not in sys.modules and 'torch' not in sys.modules, sorted(sys.modules)\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=os.path.dirname(__file__))


@SKIP_RAY
def test_ray_backend_two_workers():
    """pufferlib.vector.Ray with a local Ray instance (2 workers): masked random
    play, episodes complete, the workers play different deals."""
    ray = start_ray()
    try:
        vec = make(num_envs=32, backend="ray", num_workers=2, illegal_action="raise", report_interval=8)
        applied, logs = drive(vec, 120, seed=1)
        assert applied > 3000
        check_logs(logs)
        obs, _ = vec.reset(2)
        assert not np.array_equal(obs[:64], obs[64:])
        vec.close()
    finally:
        ray.shutdown()


def test_policy_mode_switches_between_bots_and_policies_with_results():
    """A league: one env's opponent switches between a built-in bot (in C, on
    the games) and a frozen policy; results are kept per opponent name."""
    env = AzukiEnv(num_envs=32, mode="policy", opponent="greedy", illegal_action="raise")
    env.reset(seed=6)
    rng = np.random.default_rng(0)
    for _ in range(400):
        env.step(masked_random(env.observations, rng))
    env.set_opponent(lambda o, m: m.argmax(axis=1), name="first-legal")
    for _ in range(400):
        env.step(masked_random(env.observations, rng))
    res = env.take_results()
    assert set(res) == {"greedy", "first-legal"}
    w, l, d = res["greedy"]
    assert w + l + d > 10 and l > w              # random play loses to greedy
    assert env.take_results() == {}
    with pytest.raises(TypeError):
        env.set_opponent("nobot")
    # the bot answers from each game's own stream: reproducible
    a, b = (AzukiEnv(num_envs=8, mode="policy", opponent="random") for _ in range(2))
    a.reset(seed=1)
    b.reset(seed=1)
    for _ in range(100):
        act = masked_random(a.observations, rng)
        a.step(act)
        b.step(act)
    np.testing.assert_array_equal(a.observations, b.observations)


@SKIP_RAY
def test_large_evaluation_over_ray():
    """azuki.evaluate.evaluate_ray (`python -m azuki eval --ray W`): the games
    split into balanced chunks over Ray workers, merged exactly, reproducible."""
    ray = start_ray()
    from azuki.evaluate import evaluate_ray
    try:
        r = evaluate_ray("greedy", "random", games=96, seed=3, workers=2)
        assert r["wins"] + r["losses"] + r["draws"] + r["truncated"] == 96
        assert [r["by_seat"][k]["games"] for k in ("seat 0", "seat 1")] == [48, 48]
        assert all(b["games"] == 24 for b in r["by_decks"].values())
        assert r["win_rate"]["rate"] > 0.9 and r["path"].startswith("ray[")
        assert evaluate_ray("greedy", "random", games=96, seed=3, workers=2)["outcomes"] == r["outcomes"]
    finally:
        ray.shutdown()


def _threads_trace(threads, mode, steps, **kw):
    """obs, rewards, terminals, truncations after every step of one AzukiEnv
    under masked random actions (a fixed action stream), and its log."""
    env = AzukiEnv(num_envs=24, mode=mode, threads=threads, report_interval=1 << 30, **kw)
    env.reset(seed=13)
    rng = np.random.default_rng(2)
    trace = []
    for _ in range(steps):
        env.step(masked_random(env.observations, rng))
        trace.append((env.observations.copy(), env.rewards.copy(), env.terminals.copy(), env.truncations.copy()))
    return trace, env.log(), env.take_results()


@pytest.mark.parametrize("mode, kw", [("self", {}), ("bot", dict(bot="greedy")),
                                      ("policy", dict(opponent="greedy"))])
def test_threads_give_the_same_trajectories(mode, kw):
    """AzukiEnv(threads=2) passes threads to its VecGame (C worker pool) and
    every buffer after every step equals threads=1's: self-play, a built-in
    bot moving inside step(), and a league slot whose bot answers in C."""
    env = AzukiEnv(num_envs=24, mode=mode, threads=2, **kw)
    env.reset(seed=1)
    assert env.vec.threads == 2
    one, log1, res1 = _threads_trace(1, mode, 150, **kw)
    two, log2, res2 = _threads_trace(2, mode, 150, **kw)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    assert log1 == log2 and log1["n"] > 0
    assert res1 == res2


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "2"])
def test_bad_threads(bad):
    with pytest.raises(ValueError, match="threads"):
        AzukiEnv(num_envs=2, threads=bad)
    env = AzukiEnv(num_envs=2, threads=10 ** 6)        # above VecGame's bound: refused at reset, nothing built
    with pytest.raises(ValueError, match="threads"):
        env.reset(seed=0)
    assert env.vec is None


def _league_trace(threads, steps=50):
    """A league under batched_serial: slots against a keyed snapshot (two
    slots, one forward per round), greedy and random bots; every step's
    buffers, and each slot's opponent answers in order."""
    torch = pytest.importorskip("torch")
    from azuki.envs import puffer
    from azuki.policy import PolicyPlayer, make_policy
    torch.manual_seed(3)
    snap = PolicyPlayer(make_policy("flat", hidden=16).eval(), seed=77, name="snap")
    vec = pv.make(AzukiEnv, backend=puffer.batched_serial(), num_envs=4,
                  env_kwargs=dict(num_envs=12, mode="policy", opponent="random", report_interval=1 << 30,
                                  threads=threads))
    answers = {}                            # stream -> [(opponent name, actions)]
    real_answered = AzukiEnv._opponent_answered

    def answered(self, acts, idx):          # the opponents' actions, bots' included, as applied
        answers.setdefault(self.stream, []).append((self.opponent_name, np.asarray(acts)[idx].copy()))
        return real_answered(self, acts, idx)
    try:
        AzukiEnv._opponent_answered = answered
        for k, (env, opp) in enumerate(zip(vec.envs, (snap, "greedy", snap, "random"))):
            env.stream = k
            env.set_opponent(opp, name=getattr(opp, "name", opp))
            assert env.threads == threads
        vec.async_reset(21)
        rng = np.random.default_rng(5)
        trace = []
        for _ in range(steps):
            obs = vec.recv()[0]
            trace.append((obs.copy(), vec.rewards.copy(), vec.terminals.copy(), vec.truncations.copy()))
            vec.send(masked_random(obs, rng))
        results = [env.take_results() for env in vec.envs]
    finally:
        AzukiEnv._opponent_answered = real_answered
        vec.close()
    return trace, results, answers


def test_threads_give_the_same_league_play():
    """The training league (batched snapshot forwards, bots in C) with
    threads=2 per env: the same observations, rewards, ends, per-opponent
    results and opponent actions (the bots' included) as threads=1."""
    t1, r1, b1 = _league_trace(1)
    t2, r2, b2 = _league_trace(2)
    for a, b in zip(t1, t2):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    assert r1 == r2 and any(sum(v) for res in r1 for v in res.values())
    assert sorted(b1) == sorted(b2) == [0, 1, 2, 3]
    assert {name for k in b1 for name, _ in b1[k]} == {"snap", "greedy", "random"}
    for k in b1:
        assert len(b1[k]) == len(b2[k]) > 0
        for (n1, a1), (n2, a2) in zip(b1[k], b2[k]):
            assert n1 == n2
            np.testing.assert_array_equal(a1, a2)

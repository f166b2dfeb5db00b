"""The PPO update split across threads (azuki.envs.ppo_update, `[ppo] learner_threads`;
docs/training.md "Speed"): from the same trainer state (a real rollout of AzukiEnvs, the same
random generator state), PuffeRL's own update and azuki's with 1, 2 and 3 threads give the same
parameters, optimizer state, stored values and ratios and logged losses, to float rounding
(the shares' gradients are sums in another order), for the dense and the factored head, with
and without an extra loss (the expert imitation hook); bad thread counts are refused before any
work; the worker threads end with the trainer. Runs in .venv-puffer; skipped elsewhere."""
import copy

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pufferlib")

from azuki.envs.puffer import AzukiEnv  # noqa: E402
from azuki import learner_threads  # noqa: E402
from azuki.envs import ppo_update  # noqa: E402


def test_shares_cover_the_segments_in_order():
    for n in (1, 2, 7, 128):
        for k in (1, 2, 3, 16):
            s = learner_threads.shares(n, k)
            assert s[0][0] == 0 and s[-1][1] == n and len(s) == min(n, k)
            assert all(a[1] == b[0] for a, b in zip(s, s[1:])) and all(hi > lo for lo, hi in s)
            assert max(hi - lo for lo, hi in s) - min(hi - lo for lo, hi in s) <= 1


@pytest.mark.parametrize("bad", [0, -1, 17, 1.5, "2", None, True])
def test_bad_thread_counts_are_refused(bad):
    with pytest.raises(ValueError, match="learner_threads must be an integer"):
        learner_threads.check_threads(bad)
    with pytest.raises(ValueError, match="learner_threads must be an integer"):
        learner_threads.Shares(bad)


def _trainer(tmp_path, arch):
    import pufferlib.vector as pv
    from azuki import train as T
    from azuki.envs import pufferl_adapter as adapter
    from azuki.envs.puffer import batched_serial
    from azuki.policy import make_policy

    torch.manual_seed(0)
    cfg = T.load_config(overrides=["env.envs=2", "env.games_per_env=16", "ppo.bptt_horizon=8",
                                   "ppo.minibatch_size=128", "policy.hidden=32", "ppo.update_epochs=2"])
    vec = pv.make(AzukiEnv, backend=batched_serial(), num_envs=2,
                  env_kwargs=dict(num_envs=16, mode="policy", opponent="random", report_interval=1 << 30))
    for k, env in enumerate(vec.envs):
        env.stream = k
    policy = make_policy(arch, hidden=32)
    trainer = adapter.make_trainer(T._puffer_config(cfg, "cpu", tmp_path / "puffer", vec.num_agents), vec, policy)
    return trainer, vec, policy


def _state(trainer, policy):
    return dict(policy=copy.deepcopy(policy.state_dict()), opt=copy.deepcopy(trainer.optimizer.state_dict()),
                values=trainer.values.clone(), ratio=trainer.ratio.clone(), epoch=trainer.epoch,
                rng=torch.get_rng_state())


def _restore(trainer, policy, st):
    policy.load_state_dict(st["policy"])
    trainer.optimizer.load_state_dict(copy.deepcopy(st["opt"]))
    trainer.optimizer.zero_grad()
    trainer.values.copy_(st["values"])
    trainer.ratio.copy_(st["ratio"])
    trainer.epoch = st["epoch"]
    trainer.last_log_time = 0.0          # both updates log (losses set)
    torch.set_rng_state(st["rng"])


def _result(trainer, policy):
    return dict(params={k: v.clone() for k, v in policy.state_dict().items()},
                exp_avg=[s["exp_avg"].clone() for s in trainer.optimizer.state.values()],
                values=trainer.values.clone(), ratio=trainer.ratio.clone(), losses=dict(trainer.losses),
                epoch=trainer.epoch)


def _assert_same(a, b, tol=2e-5):
    assert a["epoch"] == b["epoch"]
    for k in a["params"]:
        assert torch.allclose(a["params"][k], b["params"][k], rtol=tol, atol=tol), k
    for x, y in zip(a["exp_avg"], b["exp_avg"]):
        assert torch.allclose(x, y, rtol=1e-3, atol=1e-7)
    assert torch.allclose(a["values"], b["values"], rtol=tol, atol=tol)
    assert torch.allclose(a["ratio"], b["ratio"], rtol=tol, atol=tol)
    assert a["losses"].keys() == b["losses"].keys()
    for k in a["losses"]:
        assert a["losses"][k] == pytest.approx(b["losses"][k], rel=1e-3, abs=1e-6), k


@pytest.mark.parametrize("arch", ["structured:factored", "flat:dense"])
@pytest.mark.parametrize("extra", [False, True])
def test_the_threaded_update_is_puffers_update(tmp_path, arch, extra):
    import pufferlib.pufferl as pufferl
    from azuki.envs import pufferl_adapter as adapter

    trainer, vec, policy = _trainer(tmp_path, arch)
    try:
        with adapter.masked_sampling():
            trainer.evaluate()
            if extra:       # a loss PPO's cannot name (the imitation term's way in: Policy.extra_loss)
                policy.extra_loss = lambda pol: 0.1 * (pol.critic.weight ** 2).sum()
            st = _state(trainer, policy)
            trainer.last_log_time = 0.0          # it logs (losses set)
            pufferl.PuffeRL.train(trainer)                   # PuffeRL's own update
            ref = _result(trainer, policy)
            assert any(not torch.equal(ref["params"][k], st["policy"][k]) for k in ref["params"])
            for threads in (1, 2, 3):
                _restore(trainer, policy, st)
                upd = ppo_update.ParallelUpdate(trainer, threads)
                try:
                    upd()
                finally:
                    upd.close()
                _assert_same(ref, _result(trainer, policy))
                assert policy.extra_loss is not None if extra else policy.__dict__.get("extra_loss") is None
    finally:
        adapter.stop_trainer(trainer)
        vec.close()


def test_make_trainer_installs_it_and_stop_trainer_ends_its_threads(tmp_path):
    import threading

    from azuki import train as T
    from azuki.envs import pufferl_adapter as adapter
    import pufferlib.vector as pv
    from azuki.envs.puffer import batched_serial
    from azuki.policy import make_policy

    cfg = T.load_config(overrides=["env.envs=1", "env.games_per_env=8", "ppo.bptt_horizon=8",
                                   "ppo.minibatch_size=64", "policy.hidden=16"])
    vec = pv.make(AzukiEnv, backend=batched_serial(), num_envs=1,
                  env_kwargs=dict(num_envs=8, mode="policy", opponent="random", report_interval=1 << 30))
    pcfg = T._puffer_config(cfg, "cpu", tmp_path / "puffer", vec.num_agents)
    try:
        with pytest.raises(ValueError, match="learner_threads"):
            adapter.make_trainer(pcfg, vec, make_policy("flat", hidden=16), learner_threads=0)
        one = adapter.make_trainer(pcfg, vec, make_policy("flat", hidden=16), learner_threads=1)
        assert "train" not in one.__dict__            # PuffeRL's own update
        adapter.stop_trainer(one)
        two = adapter.make_trainer(pcfg, vec, make_policy("flat", hidden=16), learner_threads=2)
        assert isinstance(two.train, ppo_update.ParallelUpdate)
        with adapter.masked_sampling():
            two.evaluate()
            two.train()
        assert any(t.name.startswith("azuki-learner") for t in threading.enumerate())
        adapter.stop_trainer(two)
        assert not any(t.name.startswith("azuki-learner") and t.is_alive() for t in threading.enumerate())
    finally:
        vec.close()


def test_a_bad_thread_count_is_refused_before_any_work(tmp_path):
    from test_train import tiny_config

    from azuki import train as T
    cfg = tiny_config()
    cfg["ppo"]["learner_threads"] = 0
    with pytest.raises(ValueError, match="learner_threads"):
        T.train(cfg, tmp_path / "bad", log=lambda m: None)
    assert not (tmp_path / "bad" / "checkpoint").exists()


@pytest.mark.parametrize("arch", ["structured:factored", "flat:dense"])
def test_the_fits_split_across_threads_are_the_same_fit(arch):
    """The kickstart's and the expert rounds' minibatch loop (azuki.distill.fit_epochs) with its
    minibatches split across 2 and 3 threads: the same parameters and losses as one thread, to
    float rounding, and the same again for the same count (deterministic)."""
    from azuki import distill
    from azuki.policy import make_policy

    d = distill.teacher_dataset(700, "greedy", seed=2)

    def run(threads):
        torch.manual_seed(0)
        pol = make_policy(arch, hidden=32)
        r = distill.fit(pol, d, epochs=2, batch=256, seed=5, threads=threads)
        return {k: v.clone() for k, v in pol.state_dict().items()}, r

    base, r1 = run(1)
    for threads in (2, 3):
        got, r = run(threads)
        for k in base:
            assert torch.allclose(base[k], got[k], rtol=1e-4, atol=1e-5), (threads, k)
        assert r["policy_loss"] == pytest.approx(r1["policy_loss"], rel=1e-4)
        assert r["value_loss"] == pytest.approx(r1["value_loss"], rel=1e-4)
    again, twice = run(2)[0], run(2)[0]
    assert all(torch.equal(again[k], twice[k]) for k in again)
    with pytest.raises(ValueError, match="learner_threads"):
        distill.fit(make_policy(arch, hidden=32), d, threads=0)


def _real_rows(n, seed=0):
    """n observations of real positions (random play through AzukiEnv)."""
    import numpy as np
    env = AzukiEnv(num_envs=64, mode="self", seed=seed)
    env.reset(seed=seed)
    rng, rows = np.random.default_rng(seed), []
    from azuki.envs import mask_from_obs
    while sum(len(r) for r in rows) < n:
        m = mask_from_obs(env.observations)
        rows.append(env.observations[m.any(axis=1)].copy())
        acts = np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in m], dtype=np.int32)
        env.step(acts)
    env.close()
    return torch.as_tensor(np.concatenate(rows)[:n])


@pytest.mark.parametrize("arch", ["structured:factored", "flat:factored"])
@pytest.mark.parametrize("threads", [2, 3])
def test_the_split_rollout_forward_samples_what_one_thread_samples(arch, threads):
    """The rollout's forward split across threads (ppo_update.SplitForward): per row the same
    values, the same action for the same uniform, the same log-probability and entropy as the
    whole batch's forward (to float rounding), also through the sampler's own draw; batches too
    small to split, gradients on, and the dense head take the whole forward."""
    from azuki import sampler
    from azuki.policy import Factored, make_policy

    torch.manual_seed(1)
    obs = _real_rows(300)
    policy = make_policy(arch, hidden=32)
    with learner_threads.Shares(threads) as pool, torch.no_grad():
        split = ppo_update.SplitForward(policy, pool)
        d1, v1 = policy.forward_eval(obs)
        d2, v2 = split(obs)
        assert isinstance(d2, ppo_update.SplitFactored) and len(d2.parts) == threads
        assert d2.shape == d1.shape and torch.allclose(v1, v2, atol=1e-5)
        u = torch.rand(len(obs), dtype=torch.float64)
        a1, a2 = d1.sample(u), d2.sample(u)
        assert torch.equal(a1, a2)
        for x, y in zip(d1.log_prob_entropy(a1), d2.log_prob_entropy(a2)):
            assert torch.allclose(x, y, atol=1e-5)
        torch.manual_seed(7)
        s1 = sampler.sample_logits(d1)
        torch.manual_seed(7)
        s2 = sampler.sample_logits(d2)
        assert torch.equal(s1[0], s2[0]) and torch.allclose(s1[1], s2[1], atol=1e-5)
        assert isinstance(split(obs[:ppo_update.SPLIT_MIN_ROWS * 2 - 1])[0], Factored)      # too small to split
        with torch.enable_grad():
            assert isinstance(split(obs)[0], Factored)                                        # a training forward
        dense = make_policy(arch.split(":")[0] + ":dense", hidden=32)
        assert isinstance(ppo_update.SplitForward(dense, pool)(obs)[0], torch.Tensor)


def test_the_threaded_rollout_stores_what_the_policy_gives(tmp_path):
    """make_trainer(learner_threads=2) splits the rollout's forward (adapter item 9): the stored
    log-probabilities are the whole forward's of the stored actions on the stored observations,
    and the policy carries no forward_eval of its own after the rollout (snapshots deep-copy it)."""
    import pufferlib.vector as pv

    from azuki import train as T
    from azuki.envs import pufferl_adapter as adapter
    from azuki.envs.puffer import batched_serial
    from azuki.policy import make_policy

    torch.manual_seed(0)
    cfg = T.load_config(overrides=["env.envs=1", "env.games_per_env=128", "ppo.bptt_horizon=4",
                                   "ppo.minibatch_size=128", "policy.hidden=32"])
    vec = pv.make(AzukiEnv, backend=batched_serial(), num_envs=1,
                  env_kwargs=dict(num_envs=128, mode="policy", opponent="random", report_interval=1 << 30))
    policy = make_policy("structured:factored", hidden=32)
    trainer = adapter.make_trainer(T._puffer_config(cfg, "cpu", tmp_path / "puffer", vec.num_agents), vec, policy,
                                   learner_threads=2)
    seen = []
    orig = ppo_update.SplitFactored.sample
    try:
        ppo_update.SplitFactored.sample = lambda self, u: seen.append(len(self.parts)) or orig(self, u)
        with adapter.masked_sampling():
            trainer.evaluate()
        assert seen and set(seen) == {2}                   # every rollout batch was split in 2
        assert "forward_eval" not in policy.__dict__
        obs = trainer.observations.reshape(-1, trainer.observations.shape[-1])
        act = trainer.actions.reshape(-1)
        with torch.no_grad():
            d, _ = policy.forward_eval(obs)
            lp = d.log_prob(act)
        assert torch.allclose(lp, trainer.logprobs.reshape(-1), atol=1e-4)
    finally:
        ppo_update.SplitFactored.sample = orig
        adapter.stop_trainer(trainer)
        vec.close()

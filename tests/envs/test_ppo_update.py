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

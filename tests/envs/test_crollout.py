"""The learner acting in C during the rollout (azuki.envs.crollout, `[ppo] c_rollout`; docs/training.md
"Speed"): for every architecture / head pair, with the same torch generator state, C's forward_eval picks the
actions torch's sampler picks, with their log-probabilities and values to <= 1e-4, and draws the same uniforms
(the generator ends in the same state); in a real PuffeRL rollout the stored log-probabilities and values are
what torch recomputes from the stored observations; torch acts for a privileged policy, with gradients on, or
for rows that are not observations; the class's forward_eval is back after every rollout, an error included;
a Presampled cannot be re-scored; the trainer's C threads end with stop_trainer. Runs in .venv-puffer."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pufferlib")

from azuki import _core  # noqa: E402
from azuki.envs.crollout import CRollout, Presampled  # noqa: E402
from azuki.envs.puffer import AzukiEnv  # noqa: E402
from azuki.policy import make_policy  # noqa: E402
from azuki.sampler import sample_logits  # noqa: E402


def _observations(n=600, seed=0):
    from azuki.envs import mask_from_obs
    env = AzukiEnv(num_envs=64, mode="self", seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    rows = []
    while sum(len(r) for r in rows) < n:
        m = mask_from_obs(env.observations)
        rows.append(env.observations[m.any(axis=1)].copy())
        env.step(np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in m]))
    return torch.as_tensor(np.concatenate(rows)[:n])


def _policy(spec, seed=1):
    torch.manual_seed(seed)
    arch, _, head = spec.partition(":")
    p = make_policy(arch, head=head or None, hidden=64)
    with torch.no_grad():             # away from the near-uniform start, so the samples mean something
        for q in p.parameters():
            q.add_(torch.randn_like(q) * 0.05)
    return p


@pytest.mark.parametrize("spec", ["structured:factored", "flat:factored", "structured", "flat"])
@pytest.mark.parametrize("threads", [1, 2])
def test_c_acts_as_torch_samples(spec, threads):
    policy, obs = _policy(spec), _observations()
    cr = CRollout(policy, threads)
    try:
        torch.manual_seed(7)
        with cr.acting(), torch.no_grad():
            assert "forward_eval" in policy.__dict__
            dist, value = policy.forward_eval(obs)
            action, logp, _ = sample_logits(dist)
        after_c = torch.rand(3)
        assert "forward_eval" not in policy.__dict__
        torch.manual_seed(7)
        with torch.no_grad():
            tdist, tvalue = policy.forward_eval(obs)
            taction, tlogp, _ = sample_logits(tdist)
        assert torch.equal(torch.rand(3), after_c), "the C rollout draws the sampler's uniforms, no more, no fewer"
        assert isinstance(dist, Presampled) and dist.shape == (len(obs), _core.NUM_ACTIONS)
        assert action.dtype == taction.dtype == torch.int32 and value.shape == tvalue.shape == (len(obs), 1)
        assert torch.equal(action, taction)
        assert float((logp - tlogp).abs().max()) <= 1e-4 and float((value - tvalue).abs().max()) <= 1e-4
    finally:
        cr.close()


def test_torch_acts_where_c_cannot():
    obs = _observations(64)
    priv = make_policy("structured", head="factored", hidden=32, privileged=True)
    cr = CRollout(priv, 1)
    with cr.acting():
        assert not cr.usable() and "forward_eval" not in priv.__dict__
    cr.close()
    policy = _policy("structured:factored")
    cr = CRollout(policy, 1)
    try:
        with cr.acting():
            with torch.no_grad():
                wide = torch.cat([obs, torch.zeros(len(obs), 4, dtype=torch.uint8)], dim=1)   # not OBS_LEN wide
                assert not isinstance(policy.forward_eval(wide)[0], Presampled)
            assert not isinstance(policy.forward_eval(obs)[0], Presampled)      # gradients on: a training pass
        with pytest.raises(RuntimeError, match="boom"):
            with cr.acting():
                raise RuntimeError("boom")
        assert "forward_eval" not in policy.__dict__
    finally:
        cr.close()
    with pytest.raises(TypeError, match="no distribution to recompute"):
        sample_logits(Presampled(torch.zeros(2, dtype=torch.int32), torch.zeros(2)), action=torch.zeros(2))


def test_a_real_rollout_stores_what_torch_recomputes(tmp_path):
    """PuffeRL.evaluate with the C rollout (make_trainer(c_rollout=True)): the stored log-probabilities and
    values equal torch's on the stored observations and actions (<= 1e-4), and the actions are legal."""
    import pufferlib.vector as pv
    from azuki import train as T
    from azuki.envs import mask_from_obs
    from azuki.envs import pufferl_adapter as adapter
    from azuki.envs.puffer import batched_serial
    torch.manual_seed(0)
    cfg = T.load_config(overrides=["env.envs=2", "env.games_per_env=16", "ppo.bptt_horizon=8",
                                   "ppo.minibatch_size=128", "policy.hidden=32"])
    vec = pv.make(AzukiEnv, backend=batched_serial(), num_envs=2,
                  env_kwargs=dict(num_envs=16, mode="policy", opponent="random", report_interval=1 << 30))
    policy = _policy("structured:factored")
    with adapter.masked_sampling():
        trainer = adapter.make_trainer(T._puffer_config(cfg, "cpu", tmp_path / "puffer", vec.num_agents), vec,
                                       policy, learner_threads=2, c_rollout=True)
        try:
            trainer.evaluate()
            assert "forward_eval" not in policy.__dict__
            obs = trainer.observations.reshape(-1, trainer.observations.shape[-1])
            acts = trainer.actions.reshape(-1).long()
            with torch.no_grad():
                dist, value = policy.forward_eval(obs)
                _, logp, _ = sample_logits(dist, action=acts)
            assert float((logp - trainer.logprobs.reshape(-1)).abs().max()) <= 1e-4
            assert float((value.flatten() - trainer.values.reshape(-1)).abs().max()) <= 1e-4
            assert mask_from_obs(obs)[torch.arange(len(acts)), acts].all()
            crollout = trainer.evaluate.crollout
        finally:
            adapter.stop_trainer(trainer)
            vec.close()
    assert crollout.pool.pool is None          # its worker thread ended with the trainer

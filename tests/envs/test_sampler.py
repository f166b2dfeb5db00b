"""azuki.sampler, the masked sampler PuffeRL trains with (docs/training.md,
"Sampling"): log-probabilities and entropy exact under the mask on real game
masks, sampling by inverse CDF on the legal actions only, the one hook into
PuffeRL, and the log-probabilities PuffeRL recomputes in training equal to
the rollout's. Runs in .venv-puffer (torch, pufferlib); skipped elsewhere."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pufferlib")

import pufferlib.pytorch  # noqa: E402

from azuki import sampler  # noqa: E402
from azuki.envs import MASKED_LOGIT, NUM_ACTIONS, apply_mask, mask_from_obs  # noqa: E402
from azuki.envs.puffer import AzukiEnv  # noqa: E402


def real_masks(games=64, steps=40, seed=3):
    """bool [rows, NUM_ACTIONS]: legal masks of self-play games played with
    random legal moves (every phase of a game: few to many legal actions)."""
    env = AzukiEnv(num_envs=games, mode="self", seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        m = mask_from_obs(env.observations)
        out.append(m.copy())
        env.step(np.array([rng.choice(np.flatnonzero(r)) for r in m]))
    return torch.as_tensor(np.concatenate(out))


@pytest.fixture(scope="module")
def masks():
    m = real_masks()
    assert int(m.sum(1).max()) > 8 and int(m.sum(1).min()) >= 1      # a spread of legal counts
    return m


def reference(logits, mask):
    """float64 log-probabilities [B, A] of the masked distribution (-inf where illegal)."""
    return torch.log_softmax(logits.double().masked_fill(~mask, -np.inf), dim=-1)


def test_logprob_and_entropy_are_exact_under_real_masks(masks):
    g = torch.Generator().manual_seed(0)
    logits = apply_mask(torch.randn(masks.shape, generator=g) * 4, masks)
    ref = reference(logits, masks)
    d = sampler.Masked(logits)
    # every legal action's log-probability, and nothing else
    rows, cols = masks.nonzero(as_tuple=True)
    assert torch.equal(d.rows, rows) and torch.equal(d.cols, cols)
    assert torch.allclose(d.logp.double(), ref[rows, cols], atol=2e-6)
    p = ref.exp()
    ent = -(torch.where(masks, p * ref, torch.zeros_like(p))).sum(-1)
    assert torch.allclose(d.entropy().double(), ent, atol=2e-5)
    # and PuffeRL's own dense computation agrees (it pays the -1e9 path for the same numbers)
    a = torch.as_tensor([int(np.flatnonzero(r)[0]) for r in masks.numpy()])
    _, lp_ref, ent_ref = pufferlib.pytorch.sample_logits(logits, action=a)
    _, lp, e = sampler.sample_logits(logits, action=a)
    assert torch.allclose(lp, lp_ref, atol=2e-5) and torch.allclose(e, ent_ref, atol=2e-5)
    assert torch.allclose(lp.double(), ref[torch.arange(len(a)), a], atol=2e-6)


def test_gradients_match_the_dense_reference(masks):
    m = masks[:256]
    g = torch.Generator().manual_seed(1)
    base = torch.randn(m.shape, generator=g)
    a = torch.as_tensor([int(np.flatnonzero(r)[-1]) for r in m.numpy()])
    x1 = base.clone().requires_grad_(True)
    _, lp, e = sampler.sample_logits(apply_mask(x1, m), action=a)
    (lp.sum() + 0.3 * e.sum()).backward()
    x2 = base.clone().requires_grad_(True)
    ref = torch.log_softmax(x2.double().masked_fill(~m, MASKED_LOGIT), dim=-1)    # float64: no rounding doubt
    ent = -(ref.exp() * ref).sum(-1)
    (ref[torch.arange(len(a)), a].sum() + 0.3 * ent.sum()).backward()
    assert torch.allclose(x1.grad.double(), x2.grad.double(), atol=1e-5)


def test_samples_are_legal_and_follow_the_masked_distribution(masks):
    g = torch.Generator().manual_seed(2)
    logits = apply_mask(torch.randn(masks.shape, generator=g) * 2, masks)
    a, lp, _ = sampler.sample_logits(logits)
    assert a.dtype == torch.int32 and bool(masks[torch.arange(len(a)), a.long()].all())
    # inverse CDF: over a grid of N uniforms, each legal action is chosen for a share within 1/N of its probability
    n = 2000
    u = (torch.arange(n, dtype=torch.float64) + 0.5) / n
    for row in (0, int(masks.sum(1).argmax()), len(masks) - 1):
        lg = logits[row].expand(n, -1)
        acts, _ = sampler.sample(lg, u)
        freq = torch.bincount(acts, minlength=NUM_ACTIONS).double() / n
        p = reference(logits[row:row + 1], masks[row:row + 1])[0].exp()
        assert float((freq - p).abs().max()) <= 1.0 / n + 1e-9
        assert bool(masks[row][acts].all())


def test_a_row_without_legal_entries_is_uniform_like_puffer():
    logits = torch.full((2, NUM_ACTIONS), MASKED_LOGIT)
    logits[1, 5] = 0.0
    _, lp, e = sampler.sample_logits(logits, action=torch.tensor([7, 5]))
    assert torch.allclose(lp, torch.tensor([-np.log(NUM_ACTIONS), 0.0], dtype=torch.float32))
    assert abs(float(e[0]) - np.log(NUM_ACTIONS)) < 1e-4 and abs(float(e[1])) < 1e-6


def test_nan_logits_are_an_error_not_a_silent_sample():
    logits = torch.zeros(2, NUM_ACTIONS)
    logits[1, 3] = float("nan")
    with pytest.raises(FloatingPointError):
        sampler.sample_logits(logits)


def test_installed_is_the_adapters_hook():
    """sampler.installed() is pufferl_adapter.masked_sampling: restoring, nesting and the exception path are
    tested once, in tests/envs/test_pufferl_adapter.py::test_masked_sampling_restores_pufferls_function_and_nests;
    here only that the sampler's name installs that hook and that it samples with sampler.sample_logits."""
    orig = pufferlib.pytorch.sample_logits
    with sampler.installed():
        hooked = pufferlib.pytorch.sample_logits
        assert hooked is not orig and hooked._azuki_original is orig
        logits = torch.zeros(1, NUM_ACTIONS)
        _, lp, _ = hooked(logits, action=torch.tensor([4]))
        assert torch.allclose(lp, sampler.sample_logits(logits, action=torch.tensor([4]))[1])
    assert pufferlib.pytorch.sample_logits is orig


def test_keyed_uniforms_depend_on_seed_and_key_only():
    keys = np.arange(1000, dtype=np.uint64) * np.uint64(7919)
    u = sampler.keyed_uniforms(3, keys)
    assert u.min() >= 0 and u.max() < 1 and len(np.unique(u)) == 1000
    assert np.array_equal(sampler.keyed_uniforms(3, keys[500:]), u[500:])
    assert not np.array_equal(sampler.keyed_uniforms(4, keys), u)
    assert 0.45 < u.mean() < 0.55


@pytest.mark.parametrize("arch", ["flat", "structured:factored"])
def test_rollout_logprobs_equal_the_training_recomputation(tmp_path, arch):
    """PuffeRL's rollout (evaluate) stores the sampled actions and their
    log-probabilities; its training pass recomputes them from the stored
    observations through the same hook: they must agree, or the first PPO
    ratio is not 1. For the dense head (masked logits) and the factored one
    (azuki.policy.Factored, tests/envs/test_head.py)."""
    import pufferlib.pufferl as pufferl
    import pufferlib.vector as pv
    from azuki import train as T
    from azuki.envs.puffer import batched_serial
    from azuki.policy import make_policy

    torch.manual_seed(0)
    cfg = T.load_config(overrides=["env.envs=2", "env.games_per_env=16", "ppo.bptt_horizon=8",
                                   "ppo.minibatch_size=128", "policy.hidden=32"])
    vec = pv.make(AzukiEnv, backend=batched_serial(), num_envs=2,
                  env_kwargs=dict(num_envs=16, mode="policy", opponent="random", report_interval=1 << 30))
    for k, env in enumerate(vec.envs):
        env.stream = k
    policy = make_policy(arch, hidden=32)
    trainer = None
    try:
        trainer = pufferl.PuffeRL(T._puffer_config(cfg, "cpu", tmp_path / "puffer", vec.num_agents), vec, policy)
        trainer.print_dashboard = lambda *a, **k: None
        with sampler.installed():
            trainer.evaluate()
            obs = trainer.observations.reshape(-1, trainer.observations.shape[-1])
            acts = trainer.actions.reshape(-1)
            old = trainer.logprobs.reshape(-1)
            masks = mask_from_obs(obs)
            live = masks.any(-1)
            assert bool(masks[torch.arange(len(acts)), acts.long()][live].all())      # every stored action legal
            with torch.no_grad():
                dist, _ = policy(obs)
                _, new, ent = pufferlib.pytorch.sample_logits(dist, action=acts)
        assert torch.allclose(new, old, atol=1e-6), float((new - old).abs().max())
        assert bool(torch.isfinite(ent).all()) and bool((ent >= -1e-6).all())
    finally:
        if trainer is not None:
            trainer.utilization.stop()
        vec.close()

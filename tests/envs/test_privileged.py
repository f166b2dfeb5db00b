"""The privileged critic (docs/training.md "Privileged critic"; issue 27 item 3): in training the value
PPO uses may read the opponent's hidden cards; what plays (the policy, the player's value head, every
export, the C policy, league snapshots) never does. The env rows, the policy's two values, the
no-peeking property of everything exported, the fit of the player's value head, and a run that trains,
resumes and refuses a mismatched resume. Runs in .venv-puffer; skipped elsewhere."""
import copy

import numpy as np
import pytest

pytest.importorskip("pufferlib")
torch = pytest.importorskip("torch")

from azuki import train as T  # noqa: E402
from azuki.envs import OBS_LEN, mask_from_obs  # noqa: E402
from azuki.envs.puffer import AzukiEnv  # noqa: E402
from azuki.policy import CheckpointError, load_checkpoint, make_policy, state_azkw  # noqa: E402
from azuki.policy_np import NumpyPolicy, playing_weights  # noqa: E402

from test_train import tiny_config  # noqa: E402

ARCHS = ["structured:factored", "flat:factored", "structured:dense"]


def _rows(n=32, seed=3, steps=12):
    """Privileged env rows (own observation | the opponent seat's) after some greedy-opponent play, and the
    same env's plain twin's rows (the same games)."""
    a = AzukiEnv(n, mode="policy", opponent="greedy", privileged=True)
    b = AzukiEnv(n, mode="policy", opponent="greedy")
    oa, _ = a.reset(seed=seed)
    ob, _ = b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        assert np.array_equal(oa[:, :OBS_LEN], ob)
        m = mask_from_obs(ob)
        acts = np.array([rng.choice(np.flatnonzero(r)) for r in m], dtype=np.int32)
        oa = a.step(acts)[0]
        ob = b.step(acts)[0]
    return a, oa.copy(), ob.copy()


def test_env_rows_carry_the_other_seats_view():
    env, rows, plain = _rows()
    assert env.single_observation_space.shape == (2 * OBS_LEN,) and rows.shape == (32, 2 * OBS_LEN)
    assert np.array_equal(rows[:, :OBS_LEN], plain)           # the same games as without it
    seats = env.vec.agent_seats()
    for i in range(env.n):
        g = env.vec.game(i)
        assert np.array_equal(rows[i, :OBS_LEN], g.observe(seats[i]))
        assert np.array_equal(rows[i, OBS_LEN:], g.observe(1 - seats[i]))
    with pytest.raises(ValueError, match="privileged"):
        AzukiEnv(4, mode="self", privileged=True)


@pytest.mark.parametrize("arch", ARCHS)
def test_what_plays_never_reads_the_hidden_block(arch):
    """Scrambling the opponent's view changes the privileged value only: the distribution and the
    player's value are those of the row without it, bit for bit."""
    _, rows, plain = _rows()
    torch.manual_seed(0)
    p = make_policy(arch, hidden=64, privileged=True)
    for prm in p.priv.parameters():      # a trained-looking critic (its last layer starts at 0)
        torch.nn.init.normal_(prm, std=0.3)
    full = torch.as_tensor(rows)
    scrambled = full.clone()
    scrambled[:, OBS_LEN:] = torch.as_tensor(np.random.default_rng(1).permutation(rows[:, OBS_LEN:]))
    with torch.no_grad():
        d0, v0, q0 = p._forward(torch.as_tensor(plain))
        d1, v1, q1 = p._forward(full)
        d2, v2, q2 = p._forward(scrambled)
    assert q0 is None and q1 is not None
    assert torch.equal(v0, v1) and torch.equal(v1, v2)
    probs = [d.full_log_prob() if hasattr(d, "full_log_prob") else d for d in (d0, d1, d2)]
    assert torch.equal(probs[0], probs[1]) and torch.equal(probs[1], probs[2])
    assert not torch.equal(q1, q2)                               # the hidden cards do reach the critic
    # forward_eval: the privileged value on privileged rows (the rollout), the player's on plain rows
    with torch.no_grad():
        assert torch.equal(p.forward_eval(full)[1], q1) and torch.equal(p.forward_eval(torch.as_tensor(plain))[1], v0)


@pytest.mark.parametrize("arch", ARCHS)
def test_exports_hold_no_privileged_parameters(arch):
    """The C weight file of a privileged policy is byte for byte that of the same network without the
    critic; the numpy export and the numpy player drop it too."""
    torch.manual_seed(1)
    p = make_policy(arch, hidden=64, privileged=True)
    q = make_policy(arch, hidden=64)
    q.load_state_dict({k: v for k, v in p.state_dict().items() if not k.startswith("priv.")})
    assert state_azkw(p) == state_azkw(q)
    w = {k: v.numpy() for k, v in p.state_dict().items()}
    assert any(k.startswith("priv.") for k in w) and not any(k.startswith("priv.") for k in playing_weights(w))
    meta = {"arch": p.spec, "model": dict(p.config)}
    assert not any(k.startswith("priv.") for k in NumpyPolicy(w, meta).w)


def test_the_players_value_head_is_fitted_to_the_privileged_value():
    """In training (gradients on, privileged rows) the returned value is the privileged one, and the
    backward also sends the gradient of PRIVILEGED_VALUE_COEF x 1/2 (v - v_priv)^2 (v_priv held fixed),
    summed over the rows / state["rows"] (a share of a split minibatch) or averaged: exactly, for every
    parameter (the privileged critic's own get none from it)."""
    from azuki.policy import PRIVILEGED_VALUE_COEF
    _, rows, _ = _rows(steps=6)
    torch.manual_seed(2)
    p = make_policy("flat:factored", hidden=32, privileged=True)
    for prm in p.priv.parameters():
        torch.nn.init.normal_(prm, std=0.3)
    x = torch.as_tensor(rows)
    params = [q for q in p.parameters()]
    for rows_arg, div in ((None, x.shape[0]), (3 * x.shape[0], 3 * x.shape[0])):
        _, val = p(x, {"rows": rows_arg} if rows_arg else None)
        with torch.no_grad():
            assert torch.equal(val, p._forward(x)[2])
        got = torch.autograd.grad((val * 0).sum(), params, allow_unused=True)   # only the fit's gradient
        _, v, q = p._forward(x)
        want = torch.autograd.grad(PRIVILEGED_VALUE_COEF * 0.5 * (v - q.detach()).pow(2).sum() / div, params,
                                   allow_unused=True)
        for (name, _), g, w in zip(p.named_parameters(), got, want):
            if name.startswith("priv."):
                assert g is None or not g.any(), name
            else:
                assert (g is None) == (w is None), name
                if g is not None:
                    torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-7)
        assert any(g is not None and g.any() for g in got)
    # the player's value head moves toward the privileged value: a few SGD steps on the fit alone
    opt = torch.optim.SGD([p.critic.weight, p.critic.bias], lr=0.05)
    with torch.no_grad():
        _, v, q = p._forward(x)
    gap0 = (v - q).pow(2).mean().item()
    for _ in range(30):
        opt.zero_grad()
        (p(x)[1] * 0).sum().backward()
        opt.step()
    with torch.no_grad():
        _, v, q = p._forward(x)
    assert (v - q).pow(2).mean().item() < gap0


def test_a_privileged_run_trains_resumes_and_exports_without_it(tmp_path):
    cfg = tiny_config(seed=3)
    cfg["policy"]["privileged"] = True
    s = T.train(cfg, tmp_path / "run", log=lambda m: None)
    assert s["losses"] and all(np.isfinite(v) for v in s["losses"].values())
    pol, meta = load_checkpoint(s["checkpoint"])
    assert meta["model"]["privileged"] is True and pol.priv is not None
    z = np.load(tmp_path / "run" / "play.npz")
    assert z.files and not any(k.startswith("priv.") for k in z.files)
    cfg2 = copy.deepcopy(cfg)
    cfg2["run"]["steps"] = 4096
    lines = []
    s2 = T.train(cfg2, tmp_path / "run", resume=tmp_path / "run", log=lines.append)
    assert any("resumed" in m for m in lines) and s2["steps"] >= 4096
    plain = tiny_config(seed=3, steps=8192)
    with pytest.raises(CheckpointError, match="privileged"):
        T.train(plain, tmp_path / "run", resume=tmp_path / "run", log=lambda m: None)
    bad = tiny_config()
    bad["policy"]["privileged"] = "yes"
    with pytest.raises(ValueError, match="policy.privileged"):
        T.train(bad, tmp_path / "bad", log=lambda m: None)

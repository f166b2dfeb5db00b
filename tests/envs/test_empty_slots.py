"""The structured encoder skips empty entity slots (azuki.policy._entity_layer; docs/training.md
"Policy"): a place, hand slot or prompt option whose observation bytes are all 0 reads exactly
as the all-zero observation's slot at that position, so its value is computed once per
position, and the tables stay compact (azuki.policy._Ents: the distinct rows and each slot's row;
pooling and scoring read them without writing [B, S, D]). On batches of real positions (starter
and expansion decks, every kind of decision, options occupied) the entity tables equal the padded
form's bit for bit at every batch size; the trunk state, the values, the action distributions and
the gradients are the same sums in another order (equal to float32 rounding). Runs in
.venv-puffer; skipped elsewhere."""
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pufferlib")

from envs_helpers import starter_and_expansion_positions  # noqa: E402
from azuki.sampler import sample_logits  # noqa: E402
from azuki.policy import Factored, _Ents, _oh_input, _tab_full, make_policy, obs_inputs  # noqa: E402


@pytest.fixture(scope="module")
def obs():
    o = torch.as_tensor(starter_and_expansion_positions())
    inp = obs_inputs(make_policy("structured:factored").ix, o)
    for name in ("place", "hand", "opt"):           # both kinds of slot occur in every table
        used = inp[f"{name}_used"]
        assert bool(used.any()) and not bool(used.all()), name
    return o


def policy(head, seed=0):
    torch.manual_seed(seed)
    pol = make_policy("structured", head=head, hidden=64)
    with torch.no_grad():        # weights larger than the init, so the distributions are far from uniform
        for p in pol.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    return pol


def test_an_unused_slot_reads_as_the_all_zero_observations(obs):
    """The invariant the skip rests on: `{name}_used` False => the slot's inputs (features,
    one-hot codes, card id) are the all-zero observation's at that position; and a slot with a
    single nonzero byte counts as used."""
    pol = make_policy("structured:factored")
    inp, empty = obs_inputs(pol.ix, obs), pol.empty_inputs(obs.device)
    for name in ("place", "hand", "opt"):
        lin = getattr(pol.enc, f"{name}_x")
        x = _oh_input(lin, inp[f"{name}_x"], inp[f"{name}_oh"])
        x0 = _oh_input(lin, empty[f"{name}_x"], empty[f"{name}_oh"])
        free = ~inp[f"{name}_used"]
        assert bool((x == x0).all(dim=-1)[free].all()), name
        assert bool((inp[f"{name}_id"] == empty[f"{name}_id"])[free].all()), name
        src = getattr(pol.ix, f"{name}_src")
        for slot in (0, src.shape[0] - 1):
            for col in src[slot].tolist():
                one = torch.zeros(1, obs.shape[1], dtype=torch.uint8)
                one[0, col] = 1
                used = obs_inputs(pol.ix, one)[f"{name}_used"][0]
                reads = torch.as_tensor([col in row for row in src.tolist()])    # the slots reading that byte
                assert bool(reads[slot]) and torch.equal(used, reads), (name, slot, col)


@pytest.mark.parametrize("head", ["factored", "dense"])
@pytest.mark.parametrize("rows", [1, 5, 64, 512, None])
def test_the_forward_is_the_padded_forms(obs, head, rows):
    pol = policy(head)
    x = obs if rows is None else obs[torch.randperm(len(obs), generator=torch.Generator().manual_seed(rows))[:rows]]
    out = {}
    with torch.no_grad():
        for skip in (False, True):
            pol.skip_empty = skip
            inp = obs_inputs(pol.ix, x)
            h, ent = pol.enc(inp, pol.empty_inputs(x.device) if skip else None)
            d, v = pol.forward_eval(x)
            dist = d.full_log_prob() if isinstance(d, Factored) else d
            assert all(isinstance(t, _Ents) == skip for t in ent)
            out[skip] = (h, v, dist, *(_tab_full(t) for t in ent))
    for i, (a, b) in enumerate(zip(out[False], out[True])):
        if i >= 3:                              # the tables: the same rows, copied
            assert torch.equal(a, b)
        else:                                   # the pooled sums in another order
            fin = torch.isfinite(a)
            assert torch.equal(fin, torch.isfinite(b)) and torch.equal(a[~fin], b[~fin])
            assert torch.allclose(a[fin], b[fin], rtol=1e-5, atol=1e-5 * float(a[fin].abs().max()))


def _both_forms(pol, x, acts):
    """{skip_empty: (value, full log pi, log pi(acts), entropy, a loss, {parameter: its gradient})} of
    pol on x, padded / full form (False) and skipping (True)."""
    res = {}
    for skip in (False, True):
        pol.skip_empty = skip
        pol.zero_grad()
        d, v = pol(x)
        lp, ent = d.log_prob_entropy(acts)
        loss = -(lp * torch.linspace(-1, 1, len(x))).mean() - 0.01 * ent.mean() + (v ** 2).mean()
        loss.backward()
        res[skip] = (v.detach(), d.full_log_prob().detach(), lp.detach(), ent.detach(), loss.detach(),
                     {k: p.grad.clone() for k, p in pol.named_parameters() if p.grad is not None})
    pol.skip_empty = True
    return res


def _assert_same_gradients(g0, g1):
    assert g0.keys() == g1.keys()
    for k in g0:
        scale = float(g0[k].abs().max())        # 0 for a layer no sampled action uses (then both are 0)
        assert float((g0[k] - g1[k]).abs().max()) <= 1e-4 * scale, k


def test_the_gradients_are_the_same_sums(obs):
    """log-probabilities, entropy, loss and every parameter's gradient equal to float32 rounding
    (the empty slots' contributions are summed per position first)."""
    pol = policy("factored")
    with torch.no_grad():
        u = torch.rand(len(obs), generator=torch.Generator().manual_seed(1), dtype=torch.float64)
        acts = pol(obs)[0].sample(u)
    res = _both_forms(pol, obs, acts)
    for a, b in zip(res[False][2:5], res[True][2:5]):
        assert torch.allclose(a, b, rtol=1e-5, atol=1e-5)
    g0, g1 = res[False][5], res[True][5]
    assert any(k.startswith("enc.opt_") for k in g0)
    _assert_same_gradients(g0, g1)
    assert float(g0["enc.opt_x.weight"].abs().max()) > 0


def test_compact_inputs_are_the_full_forms_at_the_occupied_slots(obs):
    """obs_inputs(compact=True) computes the place / hand / option inputs of the occupied slots
    only: the same features, one-hot codes and card ids bit for bit as the full form's rows."""
    ix = make_policy("structured:factored").ix
    full, comp = obs_inputs(ix, obs), obs_inputs(ix, obs, compact=True)
    for name in ("place", "hand", "opt"):
        used = full[f"{name}_used"]
        assert torch.equal(used, comp[f"{name}_used"])
        b, s = used.shape
        rows = used.reshape(-1).nonzero().squeeze(1)
        assert torch.equal(comp[f"{name}_rows"], rows)
        assert torch.equal(comp[f"{name}_xo"], full[f"{name}_x"].reshape(b * s, -1)[rows])
        assert torch.equal(comp[f"{name}_ido"], full[f"{name}_id"].reshape(-1)[rows])
        oh = full[f"{name}_oh"]
        assert (oh is None) == (comp[f"{name}_oho"] is None)
        if oh is not None:
            assert torch.equal(comp[f"{name}_oho"], oh.reshape(b * s, -1)[rows])
        assert f"{name}_x" not in comp
    for k in ("bags", "glob_x", "glob_id", "mask"):
        assert torch.equal(full[k], comp[k])


@pytest.mark.parametrize("rows", [1, 5, 512, None])
def test_the_flat_encoder_skips_zero_columns_exactly(obs, rows):
    """The flat encoder's first layer reads only the input columns nonzero somewhere in the batch
    (Policy.skip_empty; obs_inputs(flat=True, compact=True) makes only those columns): the
    values, the distributions and every parameter's gradient are the full product's to float32
    rounding; the skipped columns' weight gradients are exactly 0, as the full product's are
    (their inputs are 0 in every row)."""
    torch.manual_seed(0)
    pol = make_policy("flat:factored", hidden=64)
    with torch.no_grad():
        for p in pol.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    x = obs if rows is None else obs[torch.randperm(len(obs), generator=torch.Generator().manual_seed(rows))[:rows]]
    inp = obs_inputs(pol.ix, x, flat=True)["flat"]
    zero_cols = ~(inp != 0).any(dim=0)
    assert bool(zero_cols.any()) and not bool(zero_cols.all())
    comp = obs_inputs(pol.ix, x, flat=True, compact=True)          # the same values at the nonzero columns
    assert torch.equal(comp["flat_cols"], (~zero_cols).nonzero().squeeze(1))
    assert torch.equal(comp["flat_x"].t(), inp[:, ~zero_cols])
    with torch.no_grad():
        acts = pol(x)[0].sample(torch.rand(len(x), generator=torch.Generator().manual_seed(2), dtype=torch.float64))
    res = _both_forms(pol, x, acts)
    for a, b in zip(res[False][:5], res[True][:5]):
        fin = torch.isfinite(a)
        assert torch.equal(fin, torch.isfinite(b)) and torch.equal(a[~fin], b[~fin])
        assert torch.allclose(a[fin], b[fin], rtol=1e-5, atol=1e-5 * max(1.0, float(a[fin].abs().max())))
    g0, g1 = res[False][5], res[True][5]
    _assert_same_gradients(g0, g1)
    w0, w1 = g0["enc.net.0.weight"], g1["enc.net.0.weight"]
    assert bool((w1[:, zero_cols] == 0).all()) and bool((w0[:, zero_cols] == 0).all())
    assert float(w1.abs().max()) > 0


@pytest.mark.parametrize("arch", ["flat:factored", "flat:dense", "structured:factored", "structured:dense"])
def test_an_empty_batch(obs, arch):
    """0 rows (a vector whose games all wait, say): 0 values and an empty distribution, either form
    (a compact flat batch of 0 rows has no nonzero column)."""
    pol = make_policy(arch, hidden=16)
    for skip in (True, False):
        pol.skip_empty = skip
        d, v = pol.forward_eval(obs[:0])
        probs = d.full_log_prob() if isinstance(d, Factored) else d
        assert v.shape == (0, 1) and probs.shape[0] == 0
        a, logp, ent = sample_logits(d)                   # PuffeRL's sampling of an empty rollout batch
        assert a.shape[0] == logp.shape[0] == ent.shape[0] == 0


def test_bags_on_the_cpu_are_the_scatter_of_the_identity_lists():
    """obs_inputs counts the identity lists in C on a CPU (azk_count_ids); the counts equal the torch scatter
    every other device runs, exactly (small integers in float32)."""
    import numpy as np
    from azuki.envs import mask_from_obs
    from azuki.envs.puffer import AzukiEnv
    from azuki.policy import _Cols, _gather
    env = AzukiEnv(num_envs=64, mode="self", seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(30):
        rows.append(env.observations.copy())
        m = mask_from_obs(env.observations)
        env.step(np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in m]))
    u = torch.as_tensor(np.concatenate(rows))
    ix = make_policy("structured", head="factored").ix
    b, nc = u.shape[0], ix.n_cards
    idx = ix.list_bag * nc + _gather(_Cols(u), ix.list_cols).long()
    ref = torch.zeros(b, ix.n_bags * nc).scatter_add_(1, idx, torch.ones(idx.shape)).reshape(b, ix.n_bags, nc)
    ref[..., 0] = 0.0
    got = obs_inputs(ix, u, compact=True)["bags"]
    assert got.dtype == torch.float32 and torch.equal(got, ref) and ref.sum() > 0
    strided = u.t().contiguous().t()                  # the same rows, not C-contiguous
    assert not strided.is_contiguous() and torch.equal(obs_inputs(ix, strided)["bags"], ref)

"""The policy in C (csrc/policy.c, azuki._core.CPolicy; docs/policy_c.md), torch-free checks: the
shipped C weight file is the re-export of the shipped numpy checkpoint (byte for byte) and computes
what the numpy reference computes (max |delta log-probability| <= 1e-4, both seats, many decision
kinds); sampling is the inverse CDF of those probabilities; keyed uniforms equal
azuki.sampler.keyed_uniforms; a file of another layout / action space / card set is refused with a
message naming it; truncated or corrupted bytes are refused, never crash; results are deterministic
and independent of batching; bad observation arrays get a clear error. The comparison with torch
(every architecture / head pair, float32 and float16) is tests/envs/test_cpolicy_torch.py."""
import random
import struct

import numpy as np
import pytest

import azuki
from azuki import _core
from azuki.policy_np import (REFERENCE, CheckpointError, NumpyPolicy, azkw_bytes, load_cpolicy, load_numpy_policy,
                             resolve_checkpoint)

OBS_LEN, NA = _core.OBS_LEN, _core.NUM_ACTIONS


def observations(n=300, seed=0):
    rng = random.Random(seed)
    out, k = [], 0
    while len(out) < n:
        g = azuki.Game(seed=seed + k)
        k += 1
        while not g.is_terminal and len(out) < n:
            p = g.current_player
            out.append(g.observe(p).copy())
            if rng.random() < 0.25:
                out.append(g.observe(1 - p).copy())      # the waiting seat: no legal action in its mask
            g.step(rng.choice(list(g.legal_actions())))
    return np.stack(out)


def reference_weights():
    meta, files, _, _ = resolve_checkpoint(REFERENCE)
    with np.load(files["weights"]) as z:
        return {k: z[k] for k in z.files}, meta


def with_checksum(body):
    return body + struct.pack("<Q", _core.fnv1a64(body))


def test_shipped_weight_file_is_the_reexport_of_the_numpy_checkpoint():
    w, meta = reference_weights()
    with open(REFERENCE + ".azkw", "rb") as f:
        shipped = f.read()
    assert azkw_bytes(w, meta, "float16") == shipped, "run tools/make_reference.sh's export step (--format azkw)"
    cp = load_cpolicy(REFERENCE)
    assert cp.hashes == meta["hashes"] and (cp.arch, cp.head) == ("structured", "factored")


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_c_matches_numpy_reference(dtype):
    w, meta = reference_weights()
    cp = _core.CPolicy.from_bytes(azkw_bytes(w, meta, dtype))
    npol = NumpyPolicy(w, meta)
    obs = observations()
    lc, vc = cp.forward(obs)
    ln, vn = npol.forward_numpy(obs)
    legal = ln > -1e8
    assert (np.isfinite(lc) == legal).all()
    assert np.abs(lc[legal] - ln[legal]).max() <= 1e-4 and np.abs(vc - vn).max() <= 1e-4
    p, v = npol.probabilities(obs)                 # the public numpy player runs the C forward
    assert np.abs(p - np.exp(np.where(legal, ln, -np.inf))).max() <= 1e-4 and np.abs(v - vn).max() <= 1e-4


def test_sampling_is_the_inverse_cdf_of_the_probabilities():
    cp = load_cpolicy(REFERENCE)
    obs = observations(200, seed=3)
    u = np.random.default_rng(1).random(len(obs))
    lp, _ = cp.forward(obs)
    p = np.exp(lp.astype(np.float64))
    c = np.cumsum(p, axis=1)
    flat = np.minimum((c <= (u * c[:, -1])[:, None]).sum(1), NA - 1)
    last = NA - 1 - np.argmax(np.isfinite(lp)[:, ::-1], axis=1)
    flat = np.minimum(flat, last)
    a = cp.act(obs, u=u)
    assert np.isfinite(lp[np.arange(len(obs)), a]).all()              # always a legal action
    assert (a == flat).mean() >= 0.99                                  # hierarchical == flat inverse CDF (up to rounding)
    g = cp.act(obs, greedy=True)
    assert (g == lp.argmax(1)).all()
    a2, v = cp.act(obs, u=u, with_value=True)
    assert (a2 == a).all() and np.array_equal(v, cp.forward(obs)[1])


_M64 = (1 << 64) - 1


def keyed_uniforms(seed, keys):
    """azuki.sampler.keyed_uniforms, restated in plain Python ints (azuki.sampler needs torch;
    tests/envs/test_cpolicy_torch.py compares with it directly)."""
    def mix(x):
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
        return x ^ (x >> 31)
    s = mix((int(seed) + 0x9E3779B97F4A7C15) & _M64)
    return np.array([(mix(((int(k) ^ s) + 0x9E3779B97F4A7C15) & _M64) >> 11) * (1.0 / (1 << 53)) for k in keys])


def test_keyed_uniforms_equal_python():
    keys = np.array([0, 1, 2, 12345, (1 << 64) - 1, 0x9E3779B97F4A7C15], dtype=np.uint64)
    for seed in (0, 1, 7, (1 << 63) - 1):
        assert np.array_equal(_core.keyed_uniforms_c(seed, keys), keyed_uniforms(seed, keys))
    cp = load_cpolicy(REFERENCE)
    obs = observations(20)[:20]
    assert np.array_equal(cp.act(obs, keys=np.arange(20), seed=5), cp.act(obs, u=keyed_uniforms(5, np.arange(20))))


def test_deterministic_and_batch_independent():
    cp = load_cpolicy(REFERENCE)
    obs = observations(60, seed=9)[:60]
    l1, v1 = cp.forward(obs)
    l2, v2 = cp.forward(obs)
    assert np.array_equal(l1, l2) and np.array_equal(v1, v2)
    for i in (0, 17, 59):
        li, vi = cp.forward(obs[i])
        assert np.array_equal(li[0], l1[i]) and vi[0] == v1[i]
    wide = np.concatenate([obs, np.zeros((len(obs), 7), np.uint8)], axis=1)   # extra trailing columns are ignored
    assert np.array_equal(cp.forward(wide)[0], l1)


def test_bad_observations_get_clear_errors():
    cp = load_cpolicy(REFERENCE)
    obs = observations(4)[:4]
    with pytest.raises(ValueError, match="uint8"):
        cp.forward(obs.astype(np.float32))
    with pytest.raises(ValueError, match="OBS_LEN"):
        cp.forward(obs[:, :100])
    with pytest.raises(ValueError, match="contiguous"):
        cp.forward(np.asfortranarray(obs))
    with pytest.raises(TypeError):
        cp.forward(obs.tolist())
    with pytest.raises(ValueError, match="uniforms"):
        cp.act(obs, u=np.ones(4))
    with pytest.raises(ValueError, match="exactly one"):
        cp.act(obs)
    bad = np.full((1, OBS_LEN), 255, np.uint8)                   # identity bytes past the card table
    with pytest.raises(ValueError, match="row 0"):
        cp.forward(bad)


def _patch(data, off, fmt, value):
    body = bytearray(data[:-8])
    struct.pack_into(fmt, body, off, value)
    return with_checksum(bytes(body))


def test_refuses_another_layout_action_space_or_card_set(tmp_path):
    w, meta = reference_weights()
    data = azkw_bytes(w, meta, "float16")
    for off, what in ((16, "observation layout v"), (20, "observation layout"), (24, "actions")):
        with pytest.raises(_core.PolicyFileError, match=what):
            _core.CPolicy.from_bytes(_patch(data, off, "<I", struct.unpack_from("<I", data, off)[0] + 1))
    for k, (name, words) in enumerate((("obs_layout", "observation layout"), ("action_space", "action space"),
                                        ("card_set", "card set"))):
        other = dict(meta["hashes"], **{name: "0123456789abcdef"})
        (tmp_path / f"x{k}.azkw").write_bytes(azkw_bytes(w, dict(meta, hashes=other), "float16"))
        with pytest.raises(CheckpointError, match=words):
            load_cpolicy(tmp_path / f"x{k}.azkw")
    with pytest.raises(CheckpointError, match="cannot read"):
        load_cpolicy(tmp_path / "missing.azkw")


def test_corrupt_or_truncated_files_are_refused_never_crash():
    w, meta = reference_weights()
    data = azkw_bytes(w, meta, "float16")
    rng = np.random.default_rng(0)
    obs = observations(8)[:8]
    for n in sorted(set(rng.integers(0, len(data), 60).tolist()) | {0, 3, 79, 80, 81, len(data) - 1}):
        with pytest.raises(_core.PolicyFileError):
            _core.CPolicy.from_bytes(data[:n])
    for _ in range(60):                              # a flipped byte: the checksum catches it
        b = bytearray(data)
        b[int(rng.integers(0, len(b)))] ^= 1 << int(rng.integers(0, 8))
        with pytest.raises(_core.PolicyFileError, match="CHECKSUM|MAGIC|VERSION"):
            _core.CPolicy.from_bytes(bytes(b))
    # flips with a valid checksum (a hostile or buggy writer) reach the parser and the table checks:
    # refused, or (a flipped weight value) loaded and still computing without a crash
    body = data[:-8]
    loaded = 0
    for i in range(400):
        b = bytearray(body)
        pos = int(rng.integers(0, 4000)) if i % 2 else int(rng.integers(0, len(b)))   # half in the header / records
        b[pos] = int(rng.integers(0, 256))
        try:
            cp = _core.CPolicy.from_bytes(with_checksum(bytes(b)))
        except _core.PolicyFileError:
            continue
        loaded += 1
        try:
            cp.forward(obs)
            cp.act(obs, u=np.full(len(obs), 0.5))
        except ValueError:
            pass
    assert loaded > 0
    with pytest.raises(_core.PolicyFileError, match="missing|not part"):
        _core.CPolicy.from_bytes(azkw_bytes({k: v for k, v in w.items() if k != "critic.bias"}, meta))
    with pytest.raises(CheckpointError, match="do not fit"):
        NumpyPolicy({k: v for k, v in w.items() if k != "head.b0"}, meta)


def test_numpy_player_plays_with_the_c_forward():
    p = load_numpy_policy(REFERENCE)
    assert isinstance(p.cpolicy, _core.CPolicy)
    obs = observations(30)
    lg, v = p.forward(obs)
    assert lg.dtype == np.float32 and (lg[lg > -1e8] <= 0).all()


def _masked_random(obs, rng):
    from azuki.envs import mask_from_obs
    m = mask_from_obs(obs)
    return np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in m], dtype=np.int32)


def _policy_vec_trace(threads, steps=40, greedy=False):
    """A VecGame(mode="policy") whose opponent is the reference policy in C inside the vector
    (policy_opponent_actions, keyed per game and decision): every buffer after every call and
    every answer, checked against CPolicy.act on the pending rows."""
    cp = load_cpolicy(REFERENCE)
    v = _core.VecGame(16, seed=4, mode="policy", threads=threads)
    rng = np.random.default_rng(1)
    decisions = np.zeros(v.n, dtype=np.uint64)
    trace, answered = [], 0
    for _ in range(steps):
        v.step(_masked_random(v.obs, rng))
        while v.opp_pending.any():
            idx = np.flatnonzero(v.opp_pending)
            keys = (np.arange(v.n, dtype=np.uint64) << np.uint64(32)) | decisions
            a = v.policy_opponent_actions(cp, 9, keys, greedy=greedy)
            want = cp.act(v.opp_obs[idx], greedy=True) if greedy else cp.act(v.opp_obs[idx], keys=keys[idx], seed=9)
            assert np.array_equal(a[idx], want) and not a[v.opp_pending == 0].any()
            answered += idx.size
            v.step_opponent(a)
            decisions[idx] += np.uint64(1)
            trace.append((v.obs.copy(), v.rewards.copy(), v.terminals.copy(), a.copy()))
    return trace, v.log(), answered


@pytest.mark.parametrize("greedy", [False, True])
def test_policy_opponent_in_the_vector_threads_agree(greedy):
    """VecGame.policy_opponent_actions: the policy's keyed (or greedy) answers for exactly the pending
    games, equal to CPolicy.act on their observations, and threads=2 plays the same trajectories."""
    one, log1, n1 = _policy_vec_trace(1, greedy=greedy)
    two, log2, n2 = _policy_vec_trace(2, greedy=greedy)
    assert n1 == n2 > 100 and log1 == log2
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_policy_opponent_bad_calls():
    cp = load_cpolicy(REFERENCE)
    v = _core.VecGame(4, seed=1, mode="policy")
    with pytest.raises(ValueError, match="keys"):
        v.policy_opponent_actions(cp, 0, np.zeros(3, np.uint64))
    with pytest.raises(TypeError, match="CPolicy"):
        v.policy_opponent_actions(object(), 0, np.zeros(4, np.uint64))
    with pytest.raises(RuntimeError, match="mode='policy'"):
        _core.VecGame(4, seed=1).policy_opponent_actions(cp, 0, np.zeros(4, np.uint64))


def test_cpolicy_pickles_as_its_weight_file():
    import pickle
    cp = load_cpolicy(REFERENCE)
    cp2 = pickle.loads(pickle.dumps(cp))
    obs = observations(10)[:10]
    assert cp2.hashes == cp.hashes and np.array_equal(cp2.forward(obs)[0], cp.forward(obs)[0])


def _counts_reference(obs, cols, bag, n_bags, n_ids):
    """count_ids by its definition, in numpy."""
    out = np.zeros((obs.shape[0], n_bags, n_ids), dtype=np.float32)
    for j, (c, k) in enumerate(zip(cols, bag)):
        ids = obs[:, c].astype(np.int64)
        np.add.at(out, (np.arange(obs.shape[0]), k, ids), 1.0)
    out[:, :, 0] = 0.0
    return out


def test_count_ids_counts_each_bags_identities():
    """azk_count_ids (the torch encoder's bags, azuki.policy.obs_inputs): real observations with the encoder's
    own tables, and arbitrary bytes / columns / bags; identity 0 never counted; the rows' stride respected."""
    from azuki._cpolicy_py import count_ids
    from azuki.policy_np import obs_tables
    t = obs_tables()
    obs = observations(200)
    got = count_ids(obs, t["list_cols"], t["list_bag"], t["n_bags"], t["n_cards"])
    assert got.dtype == np.float32 and got.shape == (200, t["n_bags"], t["n_cards"])
    assert np.array_equal(got, _counts_reference(obs, t["list_cols"], t["list_bag"], t["n_bags"], t["n_cards"]))
    assert got.sum() > 0 and not got[:, :, 0].any()
    rng = np.random.default_rng(0)
    u = rng.integers(0, 7, size=(33, 50), dtype=np.uint8)
    cols, bag = rng.integers(0, 50, size=80), rng.integers(0, 3, size=80)      # repeated columns count twice
    assert np.array_equal(count_ids(u, cols, bag, 3, 7), _counts_reference(u, cols, bag, 3, 7))
    assert not count_ids(u[:0], cols, bag, 3, 7).size and not count_ids(u, cols[:0], bag[:0], 3, 7).any()


def test_count_ids_refuses_bad_arguments():
    from azuki._cpolicy_py import count_ids
    u = np.ones((4, 10), dtype=np.uint8)
    cols, bag = np.arange(10), np.zeros(10, dtype=np.int64)
    with pytest.raises(ValueError, match="dtype uint8"):
        count_ids(u.astype(np.int16), cols, bag, 1, 4)
    with pytest.raises(ValueError, match="C-contiguous"):
        count_ids(np.ones((4, 20), dtype=np.uint8)[:, ::2], cols, bag, 1, 4)
    with pytest.raises(ValueError, match="a bag per column"):
        count_ids(u, cols, bag[:5], 1, 4)
    for c, b, nb, ni in ((cols + 1, bag, 1, 4), (cols - 1, bag, 1, 4), (cols, bag + 1, 1, 4), (cols, bag, 0, 4),
                         (cols, bag, 1, 0)):
        with pytest.raises(ValueError, match="columns must lie in"):
            count_ids(u, c, b, nb, ni)
    u[2, 3] = 4                       # an identity byte outside [0, n_ids): the row is named
    with pytest.raises(ValueError, match="observation row 2: an identity byte outside the card table"):
        count_ids(u, cols, bag, 1, 4)

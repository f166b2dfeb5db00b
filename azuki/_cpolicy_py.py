"""The plain-Python half of azuki._core.CPolicy (the C half: azuki/_cpolicy.pxi):
its errors, file reading, pickling, the observation rows' check and act()'s
choice of uniforms. Imports
azuki._core only inside functions: _core imports this module while it
initialises.
"""
from __future__ import annotations

import os

import numpy as np


class PolicyFileError(ValueError):
    """An AZKW weight file the C loader refused (truncated, corrupt, another format, or made for
    another observation layout / action count); the message says what."""


class CPolicyMixin:
    """Methods of CPolicy that make no C call (base of the cdef class)."""
    __slots__ = ()

    @classmethod
    def from_bytes(cls, data):
        """The policy of AZKW weight-file bytes (PolicyFileError saying why if refused)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"CPolicy.from_bytes takes bytes, got {type(data).__name__}")
        return cls._load(bytes(data))

    @classmethod
    def from_file(cls, path):
        """The policy of an AZKW weight file (PolicyFileError naming the file if refused)."""
        with open(os.fspath(path), "rb") as f:
            data = f.read()
        try:
            return cls.from_bytes(data)
        except PolicyFileError as e:
            raise PolicyFileError(f"{os.fspath(path)}: {e}") from None

    @property
    def hashes(self):
        """The three compatibility hashes the file carries (compare with azuki.policy_np.check_compat)."""
        return dict(zip(("obs_layout", "action_space", "card_set"), self._info()[0]))

    @property
    def arch(self):
        return ("structured", "flat")[self._info()[1]]

    @property
    def head(self):
        return ("dense", "factored")[self._info()[2]]

    @property
    def hidden(self):
        return self._info()[3]

    def __reduce__(self):          # pickles as its weight file (multiprocessing envs, copies)
        return (cpolicy_from_bytes, (self.data,))


def cpolicy_from_bytes(data):
    from ._core import CPolicy
    return CPolicy.from_bytes(data)


def policy_rows(obs):
    """CPolicy's observation rows checked: uint8 [B, >= OBS_LEN] C-contiguous (one row: [OBS_LEN]), read
    only (the binding's one array checker, _out_array)."""
    from ._core import OBS_LEN, _out_array
    if isinstance(obs, np.ndarray) and obs.ndim == 1:
        obs = obs[None, :]
    if isinstance(obs, np.ndarray) and (obs.ndim != 2 or obs.shape[1] < OBS_LEN):
        raise ValueError(f"observations must be [B, >= OBS_LEN = {OBS_LEN}] uint8, got shape {obs.shape}")
    return _out_array(obs, np.uint8, (None, None), "observations", writeable=False)


def count_ids(obs, cols, bag, n_bags, n_ids):
    """float32 [B, n_bags, n_ids]: how often each identity 1..n_ids-1 occurs in each bag of each row of uint8
    observations obs [B, L] (entry j: byte cols[j] of the row, counted in bag[j]; identity 0, an empty entry,
    never counted; azk_count_ids). The torch structured encoder's bags (azuki.policy.obs_inputs). ValueError
    for arrays or indices out of shape, or an identity byte >= n_ids (naming the row)."""
    from ._core import _count_ids, _out_array
    obs = _out_array(obs, np.uint8, (None, None), "observations", writeable=False)
    cols, bag = (np.ascontiguousarray(x, dtype=np.int32).reshape(-1) for x in (cols, bag))
    if cols.shape != bag.shape:
        raise ValueError(f"count_ids: a bag per column, got {cols.shape[0]} columns and {bag.shape[0]} bags")
    if not (n_bags > 0 and n_ids > 0 and (cols.size == 0 or (0 <= cols.min() and cols.max() < obs.shape[1] and
                                                             0 <= bag.min() and bag.max() < n_bags))):
        raise ValueError(f"count_ids: columns must lie in [0, {obs.shape[1]}), bags in [0, {n_bags}) "
                         f"(n_bags, n_ids > 0)")
    out = np.empty((obs.shape[0], n_bags, n_ids), dtype=np.float32)     # azk_count_ids writes every row whole
    if not (obs.shape[0] and cols.size):
        out.fill(0.0)
        return out
    status, bad = _count_ids(obs, cols, bag, out)
    if status is not None:
        raise policy_error(bad >= 0, status, bad)
    return out


def policy_error(bad_obs, status, row):
    """The exception of a refused forward pass (bad_obs: observation row `row` cannot be read)."""
    from ._core import OBS_VERSION
    if bad_obs:
        return ValueError(f"observation row {row}: an identity byte outside the card table (not an observation "
                          f"of layout v{OBS_VERSION})")
    return RuntimeError(f"policy forward failed ({status})")


def act_uniforms(n, u, keys, seed, greedy):
    """CPolicy.act's uniforms: None (greedy), float64 [n] in [0, 1) from `u`,
    or azuki.sampler.keyed_uniforms(seed, keys) computed in C."""
    if greedy:
        if u is not None or keys is not None:
            raise ValueError("act: greedy=True takes no uniforms or keys")
        return None
    if (u is None) == (keys is None):
        raise ValueError("act: give exactly one of u (uniforms) or keys (keyed uniforms), or greedy=True")
    if keys is not None:
        from ._core import keyed_uniforms_c
        u = keyed_uniforms_c(int(seed) & 0xFFFFFFFFFFFFFFFF, keys)
    u = np.ascontiguousarray(u, dtype=np.float64).reshape(-1)
    if u.shape[0] != n:
        raise ValueError(f"act: {u.shape[0]} uniforms for {n} observations")
    if not ((u >= 0.0) & (u < 1.0)).all():
        raise ValueError("act: uniforms must lie in [0, 1)")
    return u

# ---- the policy network in C (csrc/policy.c, docs/policy_c.md); file reading, pickling and act()'s
# uniforms: azuki/_cpolicy_py.py ------------------------------------------------------------------------------

def fnv1a64(data):
    """FNV-1a (64-bit) of bytes: the AZKW weight file's checksum (azk_fnv1a64)."""
    cdef bytes b = bytes(data)
    return azk_fnv1a64(<const uint8_t *><const char *>b, len(b))


def keyed_uniforms_c(uint64_t seed, keys):
    """azuki.sampler.keyed_uniforms computed by the C hash (azk_keyed_uniform): float64 [k]."""
    cdef cnp.ndarray[uint64_t, ndim=1] k = np.ascontiguousarray(keys, dtype=np.uint64).reshape(-1)
    out = np.empty(k.shape[0], dtype=np.float64)
    cdef double[::1] ov = out
    cdef Py_ssize_t i
    for i in range(k.shape[0]):
        ov[i] = azk_keyed_uniform(seed, k[i])
    return out


@cython.auto_pickle(False)   # pickled by CPolicyMixin.__reduce__
cdef class CPolicy(_Binding, CPolicyMixin):
    """A trained policy's forward pass in C from an AZKW weight file (`from_file(path)` /
    `from_bytes(b)`): forward(obs), act(obs, ...), hashes, arch, head (docs/policy_c.md)."""
    cdef azk_policy *p
    cdef readonly bytes data

    def __cinit__(self):
        self.p = NULL

    def __dealloc__(self):
        if self.p != NULL:
            azk_policy_free(self.p)
            self.p = NULL

    @classmethod
    def from_bytes(cls, data):
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"CPolicy.from_bytes takes bytes, got {type(data).__name__}")
        cdef bytes b = bytes(data)
        cdef CPolicy self = cls.__new__(cls)
        cdef char msg[512]
        cdef azk_policy *p = NULL
        cdef const uint8_t *bp = <const uint8_t *><const char *>b
        cdef size_t n = len(b)
        cdef azk_policy_status st
        with nogil:
            st = azk_policy_load(bp, n, &p, msg, sizeof(msg))
        if st != AZK_POLICY_OK:
            raise PolicyFileError(f"weight file refused ({azk_policy_status_name(st).decode()}): "
                                  f"{msg.decode('utf-8', 'replace')}")
        self.p = p
        self.data = b
        return self

    def _info(self):
        """(the three hash strings, arch, head, hidden) as azk_policy reports them (CPolicyMixin's properties)."""
        return (tuple(azk_policy_hash(self.p, i).decode() for i in range(3)), azk_policy_arch(self.p),
                azk_policy_head(self.p), azk_policy_hidden(self.p))

    cdef object _rows(self, obs):
        """uint8 [B, >= OBS_LEN] C-contiguous observation rows (one row: [OBS_LEN]), read only."""
        if isinstance(obs, np.ndarray) and obs.ndim == 1:
            obs = obs[None, :]
        if isinstance(obs, np.ndarray) and (obs.ndim != 2 or obs.shape[1] < OBS_LEN):
            raise ValueError(f"observations must be [B, >= OBS_LEN = {OBS_LEN}] uint8, got shape {obs.shape}")
        return _out_array(obs, np.uint8, (None, None), "observations", writeable=False)

    cdef _check_st(self, azk_policy_status st, int bad):
        if st == AZK_POLICY_E_OBS:
            raise ValueError(f"observation row {bad}: an identity byte outside the card table (not an observation "
                             f"of layout v{azk_obs_version()})")
        if st != AZK_POLICY_OK:
            raise RuntimeError(f"policy forward failed ({azk_policy_status_name(st).decode()})")

    def forward(self, obs):
        """(log-probabilities float32 [B, NUM_ACTIONS] (-inf where illegal), value float32 [B])."""
        obs = self._rows(obs)
        return self._run(obs, np.empty((obs.shape[0], NUM_ACTIONS), dtype=np.float32), None, False)

    def act(self, obs, u=None, keys=None, seed=0, greedy=False, with_value=False):
        """int32 [B]: sampled by inverse CDF with the uniforms u [B] (float64 in [0, 1)), or with
        azuki.sampler.keyed_uniforms(seed, keys), or the most likely legal action (greedy=True);
        with_value=True: (actions, value float32 [B])."""
        obs = self._rows(obs)
        u = act_uniforms(obs.shape[0], u, keys, seed, greedy)
        out, value = self._run(obs, np.zeros(obs.shape[0], dtype=np.int32), u, True)
        return (out, value) if with_value else out

    cdef tuple _run(self, obs, out, u, bint act):
        """(out, value float32 [B]) with out the actions (act: azk_policy_act with the uniforms u, None:
        greedy) or the log-probabilities (azk_policy_forward) of the checked rows obs."""
        cdef int n = obs.shape[0], bad = -1
        cdef size_t stride = obs.shape[1]
        value = np.empty(n, dtype=np.float32)
        if n == 0:
            return out, value
        cdef const uint8_t[:, ::1] ov = obs
        cdef float[::1] vv = value
        cdef const double[::1] uv
        if u is not None:
            uv = u
        cdef const double *up = NULL if u is None else &uv[0]
        cdef void *op = _ptr(out)
        cdef azk_policy_status st
        with nogil:
            if act:
                st = azk_policy_act(self.p, &ov[0, 0], n, stride, up, <int32_t *>op, &vv[0], &bad)
            else:
                st = azk_policy_forward(self.p, &ov[0, 0], n, stride, <float *>op, &vv[0], &bad)
        self._check_st(st, bad)
        return out, value


cdef CPolicy _cpolicy(object policy, str what):
    """`policy` as a CPolicy (TypeError naming the call otherwise)."""
    if not isinstance(policy, CPolicy):
        raise TypeError(f"{what} takes a CPolicy, got {type(policy).__name__}")
    return policy

# ---- CPolicy: the policy network in C (csrc/policy.c, docs/policy_c.md); the rest: azuki/_cpolicy_py.py -----
def fnv1a64(data):
    """FNV-1a (64-bit) of bytes: the AZKW weight file's checksum (azk_fnv1a64)."""
    cdef bytes b = bytes(data)
    return azk_fnv1a64(<const uint8_t *><const char *>b, len(b))


def keyed_uniforms_c(uint64_t seed, keys):
    """azuki.sampler.keyed_uniforms computed by the C hash (azk_keyed_uniforms): float64 [k]."""
    k = np.ascontiguousarray(keys, dtype=np.uint64).reshape(-1)
    out = np.empty(k.shape[0], dtype=np.float64)
    azk_keyed_uniforms(seed, <const uint64_t *>_ptr(k), k.shape[0], <double *>_ptr(out))
    return out


def _count_ids(const uint8_t[:, ::1] obs, const int32_t[::1] cols, const int32_t[::1] bag, float[:, :, ::1] out):
    """azk_count_ids into out -> (status name, bad row) (azuki._cpolicy_py.count_ids checks, calls and raises)."""
    cdef int bad = -1
    with nogil: st = azk_count_ids(&obs[0, 0], obs.shape[0], obs.shape[1], &cols[0], &bag[0], cols.shape[0],
                                   out.shape[1], out.shape[2], &out[0, 0, 0], &bad)
    return azk_policy_status_name(st).decode() if st != AZK_POLICY_OK else None, bad


@cython.auto_pickle(False)   # pickled by CPolicyMixin.__reduce__
cdef class CPolicy(_Binding, CPolicyMixin):
    """A trained policy's forward pass in C from an AZKW weight file (`from_file(path)` / `from_bytes(b)`):
    forward(obs), act(obs, ...), hashes, arch, head (docs/policy_c.md)."""
    cdef azk_policy *p
    cdef readonly bytes data

    def __dealloc__(self):
        azk_policy_free(self.p)

    @classmethod
    def _load(cls, bytes b not None):
        """The policy of AZKW weight-file bytes, loaded by azk_policy_load (CPolicyMixin.from_bytes)."""
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
        self.p, self.data = p, b
        return self

    def _info(self):
        """(the three hash strings, arch, head, hidden) as azk_policy reports them (CPolicyMixin's properties)."""
        return (tuple(azk_policy_hash(self.p, i).decode() for i in range(3)), azk_policy_arch(self.p),
                azk_policy_head(self.p), azk_policy_hidden(self.p))

    def forward(self, obs):
        """(log-probabilities float32 [B, NUM_ACTIONS] (-inf where illegal), value float32 [B])."""
        obs = policy_rows(obs)
        return self._run(obs, np.empty((obs.shape[0], NUM_ACTIONS), dtype=np.float32), None, False)

    def act(self, obs, u=None, keys=None, seed=0, greedy=False, with_value=False, with_logp=False):
        """int32 [B]: sampled by inverse CDF with the uniforms u [B] (float64 in [0, 1)) or keyed_uniforms(seed,
        keys), or the most likely legal action (greedy=True); with_value=True: (actions, value float32 [B]);
        with_logp=True: also each action's log-probability float32 [B] last (azk_policy_sample)."""
        obs = policy_rows(obs)
        u = act_uniforms(obs.shape[0], u, keys, seed, greedy)
        lp = np.empty(obs.shape[0], dtype=np.float32) if with_logp else None
        out, value = self._run(obs, np.zeros(obs.shape[0], dtype=np.int32), u, True, lp)
        if with_logp:
            return (out, value, lp) if with_value else (out, lp)
        return (out, value) if with_value else out

    cdef tuple _run(self, obs, out, u, bint act, alogp=None):
        """(out, value float32 [B]) with out the actions (act: azk_policy_sample with the uniforms u, None:
        greedy; their log-probabilities into alogp when given) or the log-probabilities (azk_policy_forward) of
        the rows obs (checked by policy_rows)."""
        cdef int n = obs.shape[0], bad = -1
        cdef size_t stride = obs.shape[1]
        value = np.empty(n, dtype=np.float32)
        cdef const uint8_t *op = <const uint8_t *>_ptr(obs)
        cdef const double *up = <const double *>_ptr(u)
        cdef void *rp = _ptr(out)
        cdef float *vp = <float *>_ptr(value)
        cdef float *lp = <float *>_ptr(alogp)
        cdef azk_policy_status st = AZK_POLICY_OK
        if n:
            with nogil:
                st = azk_policy_sample(self.p, op, n, stride, up, <int32_t *>rp, lp, vp, &bad) if act else \
                    azk_policy_forward(self.p, op, n, stride, <float *>rp, vp, &bad)
        if st != AZK_POLICY_OK:
            raise policy_error(st == AZK_POLICY_E_OBS, azk_policy_status_name(st).decode(), bad)
        return out, value


cdef CPolicy _cpolicy(object policy, str what):
    """`policy` as a CPolicy (TypeError naming the call otherwise)."""
    if not isinstance(policy, CPolicy):
        raise TypeError(f"{what} takes a CPolicy, got {type(policy).__name__}")
    return policy

# ---- VecGame: n games stepped by one C call (csrc/vec.c); the rest: azuki/_vec_py.py ------------------------
# the C values of VecGame's option names (declared, and checked, in azuki/_vec_py.py)
_VEC_MODES = dict(zip(VEC_MODES, (AZK_VEC_SELF, AZK_VEC_BOT, AZK_VEC_POLICY)))
_VEC_WAITING = dict(zip(VEC_WAITING, (AZK_VEC_WAIT_FULL, AZK_VEC_WAIT_MASK)))
_VEC_ILLEGAL = dict(zip(VEC_ILLEGAL, (AZK_VEC_ILLEGAL_ERROR, AZK_VEC_ILLEGAL_LOSE)))


@cython.auto_pickle(False)   # not picklable (it holds threads and C games)
cdef class VecGame(_Binding, VecGameMixin):
    """n games stepped together in C without the GIL (azuki.h "Vector of games") into numpy buffers it
    owns or the caller gives it; one call at a time. Every argument, buffer and call: docs/vecgame.md."""
    cdef azk_vec *v
    cdef readonly CardSet cards
    cdef readonly int n, rows, threads
    cdef readonly str mode, bot, obs_dtype, waiting_obs, illegal
    cdef readonly bint paired
    cdef readonly tuple pairings
    cdef readonly object obs, masks, rewards, terminals, truncations, acting, opp_obs, opp_masks, opp_pending
    cdef azk_vec_io io      # the buffers' data pointers, set once with them (_init)
    # policy_opponent_actions' workspace (a slot per thread, azk_vec_policy_work_size): held with the
    # vector and grown only when a policy or thread count needs more, so the step path allocates nothing
    cdef object _pwork
    # The one-call guard: step() runs without the GIL, so a second thread could otherwise free or step the
    # games a C call is using. Every method touching the C state or buffers holds it for its whole run
    # (`with _Call(self, name)`); _enter's test-and-set is atomic under the GIL.
    cdef bint _busy
    cdef long _busy_thread
    cdef str _busy_call

    def __dealloc__(self):
        # A call in progress holds a reference to self, so this cannot run during one; if it ever did, leaking beats
        # freeing what C still uses.
        if not self._busy and self.v != NULL:
            azk_vec_set_threads(self.v, 1)    # joins the workers (they are idle between calls)
            PyMem_Free(self.v)

    cdef int _enter(self, str call, bint ready=True, bint policy=False) except -1:
        if self._busy:
            raise busy_error(call, self._busy_thread == PyThread_get_thread_ident(), self._busy_call)
        if ready and self.v == NULL:
            raise RuntimeError("VecGame is not initialised; use azuki.VecGame(n, ...)")
        if policy and self.mode != "policy":
            raise RuntimeError(f"{call} is for mode='policy' (this VecGame is mode={self.mode!r})")
        self._busy, self._busy_thread, self._busy_call = True, PyThread_get_thread_ident(), call

    cdef inline void _leave(self) noexcept:
        self._busy = False

    def __init__(self, n, seed=0, pairings=(("STT01", "STT02"),), mode="self", bot="random", cards=None,
                 obs=True, buffers=None, obs_dtype="uint8", waiting_obs="full", illegal="raise", masks=True,
                 paired=False, threads=1):
        with _Call(self, "__init__", ready=False):
            self._init(n, seed, pairings, mode, bot, cards, obs, buffers, obs_dtype, waiting_obs, illegal, masks,
                       paired, threads)

    cdef _init(self, n, seed, pairings, mode, bot, cards, obs, buffers, obs_dtype, waiting_obs, illegal, masks,
               paired, threads):
        checked = vec_options(n, seed, threads, mode, bot, obs_dtype, waiting_obs, illegal, obs, masks,
                              AZK_VEC_MAX_GAMES, AZK_VEC_MAX_THREADS)
        cdef int nn = checked[0], nthreads = checked[2], kind = checked[3]
        cdef uint64_t s = checked[1]
        cdef CardSet cs = _resolve_cards(cards)
        pairs, names = pairing_table(cs, pairings, AZK_VEC_MAX_PAIRS)
        cdef azk_vec *v = <azk_vec *>PyMem_Malloc(azk_vec_size(nn))
        if v == NULL:
            raise MemoryError()
        cdef azk_status st = azk_vec_init(v, cs.cs, nn, s, _VEC_MODES[mode], kind, <int32_t *>_ptr(pairs), len(names))
        if st == AZK_OK:
            st = azk_vec_set_obs(v, AZK_VEC_OBS_U8, _VEC_WAITING[waiting_obs])   # the one encoding since layout v4
        if st == AZK_OK:
            st = azk_vec_set_illegal(v, _VEC_ILLEGAL[illegal])
        if st == AZK_OK and paired:
            st = azk_vec_set_paired(v, cs.cs, 1)
        try:
            _check(st, "could not create the games", ValueError)
            rows = azk_vec_rows(v)
            made = make_buffers(nn, rows, mode == "policy", obs, masks, buffers)
            if nthreads > 1:
                _check(azk_vec_set_threads(v, nthreads), f"VecGame: could not start {nthreads - 1} worker threads",
                       RuntimeError)
        except BaseException:
            PyMem_Free(v)
            raise
        azk_vec_set_threads(self.v, 1)     # (NULL: refused) stops the old vector's workers before it is freed
        PyMem_Free(self.v)
        self.v, self.threads = v, nthreads
        self.cards, self.n, self.rows, self.mode, self.bot = cs, nn, rows, mode, (bot if mode == "bot" else None)
        self.obs_dtype, self.waiting_obs, self.illegal, self.paired, self.pairings = obs_dtype, waiting_obs, illegal, \
            bool(paired), names
        (self.obs, self.masks, self.rewards, self.terminals, self.truncations, self.acting, self.opp_obs,
         self.opp_masks, self.opp_pending) = made
        self.io.obs, self.io.masks, self.io.rewards = _ptr(self.obs), <uint8_t *>_ptr(self.masks), \
            <float *>_ptr(self.rewards)
        self.io.terminals, self.io.truncations = <uint8_t *>_ptr(self.terminals), <uint8_t *>_ptr(self.truncations)
        self.io.acting, self.io.opp_obs = <uint8_t *>_ptr(self.acting), _ptr(self.opp_obs)
        self.io.opp_masks, self.io.opp_pending = <uint8_t *>_ptr(self.opp_masks), <uint8_t *>_ptr(self.opp_pending)
        with nogil:
            azk_vec_observe(self.v, self.cards.cs, self.io.obs, self.io.masks, NULL)
        self._refresh()

    cdef _refresh(self):
        """acting (all rows) and, in policy mode, the opponent buffers."""
        with nogil:
            azk_vec_acting(self.v, self.io.acting)
            if self.io.opp_pending != NULL:
                azk_vec_observe_opponent(self.v, self.cards.cs, self.io.opp_obs, self.io.opp_masks, self.io.opp_pending)

    cdef _run(self, object actions, int opp):
        a = vec_actions(actions, self.n if opp else self.rows)
        cdef const int32_t[::1] av = a
        cdef azk_vec_io *b = &self.io
        cdef int bad = -1
        cdef azk_status st
        with nogil:
            if opp:
                st = azk_vec_step_opponent(self.v, self.cards.cs, &av[0], b.obs, b.masks, b.rewards, b.terminals,
                                           b.truncations, &bad)
            else:
                st = azk_vec_step(self.v, self.cards.cs, &av[0], b.obs, b.masks, b.rewards, b.terminals,
                                  b.truncations, &bad)
        if st == AZK_ILLEGAL:
            raise step_illegal(opp, bad, int(a[bad]), self.mode)
        _check(st, "VecGame.step failed")
        self._refresh()
        return self.obs, self.rewards, self.terminals, self.truncations

    def step(self, actions):
        """Apply one action per row (int [rows]) to every game, in C without the GIL; returns the buffers (obs,
        rewards, terminals, truncations). Illegal: IllegalActionError, nothing changes (docs/vecgame.md, Calls)."""
        with _Call(self, "step"):
            return self._run(actions, 0)

    def step_opponent(self, actions):
        """mode="policy": one opponent action per pending game (int [n]), as step (docs/vecgame.md, mode="policy")."""
        with _Call(self, "step_opponent", policy=True):
            return self._run(actions, 1)

    def log(self):
        """Episode statistics since the last call, as a dict (then reset; its keys: docs/vecgame.md)."""
        cdef float buf[64]
        with _Call(self, "log"):
            azk_vec_log(self.v, buf, 64)
        return log_dict(buf, self.cards.decks)

    def _game_facts(self, i, str call):
        """(state hash, agent seat, episode) of game i (VecGameMixin's state_hash, agent_seat, episode)."""
        cdef int k
        with _Call(self, call):
            k = _int_in(i, "i", 0, self.n - 1)
            return azk_hash(azk_vec_game(self.v, k)), azk_vec_agent_seat(self.v, k), azk_vec_episode(self.v, k)

    def policy_opponent_actions(self, policy, seed, keys, greedy=False):
        """mode="policy": CPolicy `policy`'s answers for the pending games (int32 [n], 0 elsewhere) from opp_obs
        with keyed_uniforms(seed, keys[i]) or greedy, in C (docs/vecgame.md, docs/policy_c.md)."""
        cdef CPolicy cp = _cpolicy(policy, "policy_opponent_actions")
        cdef int32_t[::1] ov
        cdef const uint64_t[::1] kv
        cdef azk_status st
        cdef int pst = 0, g = 1 if greedy else 0
        cdef uint64_t sd = int(seed) & 0xFFFFFFFFFFFFFFFF
        cdef void *wp
        cdef size_t wn
        k = np.ascontiguousarray(keys, dtype=np.uint64).reshape(-1)
        with _Call(self, "policy_opponent_actions", policy=True):
            check_opponent_keys(k.shape[0], self.n, self.opp_obs)
            out = np.zeros(self.n, dtype=np.int32)
            ov, kv = out, k
            wp = self._work(azk_vec_policy_work_size(self.v, cp.p), &wn)
            with nogil:
                st = azk_vec_policy_opponent(self.v, self.cards.cs, cp.p, <const uint8_t *>self.io.opp_obs, sd, &kv[0],
                                             g, &ov[0], wp, wn, &pst)
            if st != AZK_OK and pst:
                raise ValueError(f"policy_opponent_actions: the policy cannot read an opponent observation "
                                 f"({azk_policy_status_name(<azk_policy_status>pst).decode()})")
            _check(st, "policy_opponent_actions failed")
            return out

    cdef void *_work(self, size_t size, size_t *got) except NULL:
        """The policy workspace (_pwork) grown to at least `size` bytes: its data, *got its size."""
        if self._pwork is None or self._pwork.shape[0] < size:
            self._pwork = np.empty(size, dtype=np.uint8)
        got[0] = self._pwork.shape[0]
        return _ptr(self._pwork)

    def bot_opponent_actions(self, bot):
        """mode="policy": built-in bot `bot`'s answers for the pending games (int32 [n], 0 elsewhere), in C."""
        cdef int kind
        cdef int32_t[::1] ov
        cdef azk_status st
        with _Call(self, "bot_opponent_actions", policy=True):
            kind = bot_kind(bot)
            ov = out = np.zeros(self.n, dtype=np.int32)
            with nogil:
                st = azk_vec_bot_opponent(self.v, self.cards.cs, kind, &ov[0])
            _check(st, "bot_opponent_actions failed")
            return out

    def pbot_opponent_actions(self, policy, kind, settings=None):
        """mode="policy": policy bot `kind`'s answers with `policy` for the pending games, as bot_opponent_actions'."""
        cdef int32_t[::1] ov
        cdef azk_status st
        cdef CPolicy cp = _cpolicy(policy, "pbot_opponent_actions")
        cdef azk_pbot_params pp = _pbot_params(kind, settings)
        cdef void *wp
        cdef size_t wn
        with _Call(self, "pbot_opponent_actions", policy=True):
            wp = self._work(azk_vec_pbot_work_size(self.v, cp.p, &pp), &wn)
            ov = out = np.zeros(self.n, dtype=np.int32)
            with nogil:
                st = azk_vec_pbot_opponent(self.v, self.cards.cs, cp.p, &pp, &ov[0], wp, wn)
            if st == AZK_ERR_CARDSET:
                raise ValueError("pbot_opponent_actions: the policy cannot read this card set's observations")
            _check(st, "pbot_opponent_actions failed")
            return out

    def _observe_others(self, out):
        """observe_others' C call (azk_vec_observe_others; VecGameMixin.observe_others checked `out`)."""
        cdef uint8_t *o = <uint8_t *>_ptr(out)
        with _Call(self, "observe_others"), nogil:
            st = azk_vec_observe_others(self.v, self.cards.cs, o)
        return out if _check(st, "observe_others failed") == 0 else None

    def _per_game(self):
        """([episode number], [agent seat]) of every game (VecGameMixin's episodes / agent_seats)."""
        cdef int i
        with _Call(self, "episodes"):
            return [azk_vec_episode(self.v, i) for i in range(self.n)], \
                [azk_vec_agent_seat(self.v, i) for i in range(self.n)]

    def game(self, i):
        """A Game holding a copy of game i's current position (its decks: the seats' decks C dealt)."""
        cdef int k
        cdef Game g
        with _Call(self, "game"):
            k = _int_in(i, "i", 0, self.n - 1)
            g = _game_of(self.cards, (self.cards.decks[azk_vec_deck(self.v, k, 0)],
                                      self.cards.decks[azk_vec_deck(self.v, k, 1)]))
            azk_game_clone(g.g, azk_vec_game(self.v, k))
            return g


cdef class _Call:
    """`with _Call(vec, name):` a VecGame method's whole run under the one-call guard (_enter / _leave);
    ready: refuse an uninitialised VecGame first; policy: refuse one outside mode "policy"."""
    cdef VecGame v
    cdef str name
    cdef bint ready, policy

    def __cinit__(self, VecGame v, str name, bint ready=True, bint policy=False):
        self.v, self.name, self.ready, self.policy = v, name, ready, policy

    def __enter__(self):
        self.v._enter(self.name, self.ready, self.policy)

    def __exit__(self, *exc):
        self.v._leave()

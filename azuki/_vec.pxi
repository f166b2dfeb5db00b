# ---------------------------------------------------------------------------
# VecGame: n games stepped by one C call (csrc/vec.c). Pairings, buffers and
# the log's dict: azuki/_vec_py.py.
# ---------------------------------------------------------------------------
cdef inline void *_ptr(object a):
    """The data pointer of a C-contiguous numpy array (NULL for None)."""
    return NULL if a is None else cnp.PyArray_DATA(<cnp.ndarray>a)


# the C values of VecGame's option names (declared, and checked, in azuki/_vec_py.py)
_VEC_MODES = dict(zip(VEC_MODES, (AZK_VEC_SELF, AZK_VEC_BOT, AZK_VEC_POLICY)))
_VEC_WAITING = dict(zip(VEC_WAITING, (AZK_VEC_WAIT_FULL, AZK_VEC_WAIT_MASK)))
_VEC_ILLEGAL = dict(zip(VEC_ILLEGAL, (AZK_VEC_ILLEGAL_ERROR, AZK_VEC_ILLEGAL_LOSE)))


cdef class VecGame:
    """n games stepped together in C without the GIL (azuki.h "Vector of
    games"), writing into numpy buffers it owns or the caller gives it
    (checked by _out_array). docs/vecgame.md documents every argument:

    mode "self" (two rows per game, one per seat), "bot" (one agent row per
    game against the built-in `bot`) or "policy" (the opponent answered from
    Python: opp_pending / opp_obs / opp_masks, step_opponent); pairings:
    deck pairs drawn in turn, episode e uses engine seed `seed + e`, so
    every trajectory equals a Game played alone; paired=True: episodes 2k
    and 2k + 1 play one deal with the agent in each seat. Buffers
    (attributes, zero-copy): obs uint8 [rows, OBS_LEN] (obs=False: none),
    masks uint8 [rows, NUM_ACTIONS] (masks=False: none), rewards float32,
    terminals / truncations / acting uint8 [rows]. waiting_obs "full" /
    "mask": what a row that does not act gets. illegal "raise" (nothing
    changes) / "lose" (the chooser's seat loses). threads=k (1 to 64): k - 1
    persistent worker threads; every buffer and trajectory equals
    threads=1's. One call at a time per VecGame: a call made while another
    is in progress on it raises RuntimeError and changes nothing."""
    cdef azk_vec *v
    cdef readonly CardSet cards
    cdef readonly int n, rows, threads
    cdef readonly str mode, bot, obs_dtype, waiting_obs, illegal
    cdef readonly bint paired
    cdef readonly tuple pairings
    cdef readonly object obs, masks, rewards, terminals, truncations, acting, opp_obs, opp_masks, opp_pending
    cdef int32_t[::1] _acting32
    cdef uint64_t _seedv    # the base seed (the deal schedule's)
    # policy_opponent_actions' workspace (a slot per thread, azk_vec_policy_work_size): held with the
    # vector and grown only when a policy or thread count needs more, so the step path allocates nothing
    cdef object _pwork
    # The one-call guard. step() runs without the GIL, so a second Python
    # thread could otherwise re-initialise the object (freeing the games and
    # buffers the C call is using) or step the same games at once. Every
    # method that touches the C state or the buffers takes the guard for its
    # whole run (`with _Call(self, name)`: _enter / _leave) and refuses to start while it is held. The
    # test and the set in _enter are atomic: the GIL is held and nothing
    # between them can release it. Threads the C code starts inside one call
    # never see it.
    cdef bint _busy
    cdef long _busy_thread
    cdef str _busy_call

    def __cinit__(self, *args, **kwargs):
        self.v = NULL
        self._busy = False

    def __dealloc__(self):
        # A call in progress holds a reference to self, so this cannot run
        # during one; if it ever did, leaking beats freeing what C still uses.
        if not self._busy and self.v != NULL:
            azk_vec_set_threads(self.v, 1)    # joins the workers (they are idle between calls)
            PyMem_Free(self.v)

    cdef int _enter(self, str call, bint ready=True) except -1:
        if self._busy:
            who = "this thread" if self._busy_thread == PyThread_get_thread_ident() else "another thread"
            raise RuntimeError(
                f"VecGame.{call}(): this VecGame is in use by {who} ({self._busy_call}() has not returned); "
                f"a VecGame serves one call at a time: give each thread its own VecGame or hold one lock "
                f"around every call (docs/vecgame.md, Threads)")
        if ready:
            self._ck()
        self._busy = True
        self._busy_thread = PyThread_get_thread_ident()
        self._busy_call = call
        return 0

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
        cdef int32_t[::1] pv = pairs
        cdef azk_vec *v = <azk_vec *>PyMem_Malloc(azk_vec_size(nn))
        if v == NULL:
            raise MemoryError()
        cdef azk_status st = azk_vec_init(v, cs.cs, nn, s, _VEC_MODES[mode], kind, &pv[0], len(pairings))
        if st == AZK_OK:
            st = azk_vec_set_obs(v, AZK_VEC_OBS_U8, _VEC_WAITING[waiting_obs])   # the one encoding since layout v4
        if st == AZK_OK:
            st = azk_vec_set_illegal(v, _VEC_ILLEGAL[illegal])
        if st == AZK_OK and paired:
            st = azk_vec_set_paired(v, cs.cs, 1)
        if st != AZK_OK:
            PyMem_Free(v)
            raise ValueError(f"could not create the games ({azk_status_name(st).decode()})")
        rows = azk_vec_rows(v)
        try:
            made = make_buffers(nn, rows, mode == "policy", obs, masks, buffers)
        except BaseException:
            PyMem_Free(v)
            raise
        if nthreads > 1:
            st = azk_vec_set_threads(v, nthreads)
            if st != AZK_OK:
                PyMem_Free(v)
                raise RuntimeError(f"VecGame: could not start {nthreads - 1} worker threads "
                                   f"({azk_status_name(st).decode()})")
        if self.v != NULL:
            azk_vec_set_threads(self.v, 1)
        PyMem_Free(self.v)
        self.v = v
        self.threads = nthreads
        self._seedv = s
        self.cards, self.n, self.rows, self.mode, self.bot = cs, nn, rows, mode, (bot if mode == "bot" else None)
        self.obs_dtype, self.waiting_obs, self.illegal = obs_dtype, waiting_obs, illegal
        self.paired = bool(paired)
        self.pairings = names
        self.obs, self.masks, self.rewards = made["obs"], made["masks"], made["rewards"]
        self.terminals, self.truncations, self.acting = made["terminals"], made["truncations"], made["acting"]
        self.opp_obs, self.opp_masks, self.opp_pending = made.get("opp_obs"), made.get("opp_masks"), \
            made.get("opp_pending")
        self._acting32 = np.zeros(rows, dtype=np.int32)
        cdef void *op = _ptr(self.obs)
        cdef uint8_t *mp = <uint8_t *>_ptr(self.masks)
        with nogil:
            azk_vec_observe(self.v, self.cards.cs, op, mp, &self._acting32[0])
        self._refresh()

    cdef int _ck(self) except -1:
        if self.v == NULL:
            raise RuntimeError("VecGame is not initialised; use azuki.VecGame(n, ...)")
        return 0

    cdef int _policy_mode(self, str call) except -1:
        if self.mode != "policy":
            raise RuntimeError(f"{call} is for mode='policy' (this VecGame is mode={self.mode!r})")
        return 0

    cdef _refresh(self):
        """acting (all rows) and, in policy mode, the opponent buffers."""
        cdef void *oo = _ptr(self.opp_obs)
        cdef uint8_t *om = <uint8_t *>_ptr(self.opp_masks)
        cdef uint8_t *pp = <uint8_t *>_ptr(self.opp_pending)
        with nogil:
            azk_vec_observe(self.v, self.cards.cs, NULL, NULL, &self._acting32[0])
            if pp != NULL:
                azk_vec_observe_opponent(self.v, self.cards.cs, oo, om, pp)
        self.acting[:] = self._acting32

    cdef object _actions(self, object actions, int count):
        a = np.asarray(actions)
        if a.shape != (count,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be an integer array of shape ({count},), got {a.dtype} {a.shape}")
        if a.dtype != np.int32 or not a.flags.c_contiguous:
            if a.size and (a.min() < -2**31 or a.max() >= 2**31):
                raise ValueError("actions out of the int32 range")
            a = np.ascontiguousarray(a, dtype=np.int32)
        return a

    cdef _run(self, object actions, int opp):
        if opp:
            self._policy_mode("step_opponent")
        a = self._actions(actions, self.n if opp else self.rows)
        cdef const int32_t[::1] av = a
        cdef void *op = _ptr(self.obs)
        cdef uint8_t *mp = <uint8_t *>_ptr(self.masks)
        cdef float *rp = <float *>_ptr(self.rewards)
        cdef uint8_t *tp = <uint8_t *>_ptr(self.terminals)
        cdef uint8_t *up = <uint8_t *>_ptr(self.truncations)
        cdef int bad = -1
        cdef azk_status st
        with nogil:
            if opp:
                st = azk_vec_step_opponent(self.v, self.cards.cs, &av[0], op, mp, rp, tp, up, &bad)
            else:
                st = azk_vec_step(self.v, self.cards.cs, &av[0], op, mp, rp, tp, up, &bad)
        if st == AZK_ILLEGAL:
            if opp:
                raise IllegalActionError(f"game {bad}: opponent action {int(a[bad])} is not legal")
            raise IllegalActionError(f"row {bad}: action {int(a[bad])} is not legal in game "
                                     f"{bad // 2 if self.mode == 'self' else bad}")
        if st != AZK_OK:
            raise AzukiError(f"VecGame.step failed ({azk_status_name(st).decode()})")
        self._refresh()
        return self.obs, self.rewards, self.terminals, self.truncations

    def step(self, actions):
        """Apply one action per row (int array of shape [rows]; rows not
        acting are ignored) to every game at once, in C without the GIL, and
        refresh the buffers. An illegal action in an acting row raises
        azuki.IllegalActionError naming the row, and nothing changes. In
        policy mode each stepped game plays on until its agent or its
        opponent must decide (opp_pending). Returns (obs, rewards, terminals,
        truncations) — the buffers, describing this call only."""
        with _Call(self, "step"):
            return self._run(actions, 0)

    def step_opponent(self, actions):
        """mode="policy": apply one opponent action per game (int array of
        shape [n]; games not pending are ignored) and play each on until its
        agent or its opponent must decide again; refresh every buffer. An
        illegal action for a pending game raises azuki.IllegalActionError
        naming the game, and nothing changes. Returns (obs, rewards,
        terminals, truncations): the agent rows' buffers for this call (an
        episode the opponent's move ended is reported here)."""
        with _Call(self, "step_opponent"):
            return self._run(actions, 1)

    def log(self):
        """Episode statistics since the last call (then reset): episodes,
        mean length in decisions, draws, truncated, wins by seat, in bot and
        policy modes the agent's wins / losses overall and by seat, and
        deck_games / deck_wins by deck name (self-play: both seats' decks;
        bot and policy modes: the agent's deck)."""
        cdef float buf[64]
        with _Call(self, "log"):
            azk_vec_log(self.v, buf, 64)
        return log_dict([buf[i] for i in range(64)], self.cards.decks)

    def state_hash(self, i):
        """State hash of game i (as Game.state_hash())."""
        with _Call(self, "state_hash"):
            return azk_hash(azk_vec_game(self.v, <int>_int_in(i, "i", 0, self.n - 1)))

    def agent_seat(self, i):
        with _Call(self, "agent_seat"):
            return azk_vec_agent_seat(self.v, _int_in(i, "i", 0, self.n - 1))

    def episode(self, i):
        """The episode counter value game i's current episode started with
        (its engine seed is seed + episode)."""
        with _Call(self, "episode"):
            return azk_vec_episode(self.v, _int_in(i, "i", 0, self.n - 1))

    def policy_opponent_actions(self, policy, seed, keys, greedy=False):
        """mode="policy": the C policy `policy`'s (a CPolicy) answers for the
        pending games (int32 [n], 0 where not pending), each from its
        opponent observation (opp_obs) with the uniform
        keyed_uniforms(seed, keys[i]) (keys: uint64 [n], e.g.
        AzukiEnv.opponent_keys of every game), or its most likely legal
        action (greedy=True): the action azuki.policy.PolicyPlayer picks for
        the same key (docs/policy_c.md). In C, on the vector's threads,
        without the GIL; pass them to step_opponent."""
        cdef CPolicy cp
        cdef int32_t[::1] ov
        cdef const uint64_t[::1] kv
        cdef const uint8_t *oo
        cdef azk_status st
        cdef void *wp
        cdef size_t wl, wn
        cdef int pst = 0, g = 1 if greedy else 0
        cdef uint64_t sd
        if not isinstance(policy, CPolicy):
            raise TypeError(f"policy_opponent_actions takes a CPolicy, got {type(policy).__name__}")
        cp = policy
        sd = int(seed) & 0xFFFFFFFFFFFFFFFF
        k = np.ascontiguousarray(keys, dtype=np.uint64).reshape(-1)
        with _Call(self, "policy_opponent_actions"):
            self._policy_mode("policy_opponent_actions")
            if k.shape[0] != self.n:
                raise ValueError(f"policy_opponent_actions: {k.shape[0]} keys for {self.n} games")
            if self.opp_obs is None or self.opp_obs.dtype != np.uint8:
                raise RuntimeError("policy_opponent_actions needs the uint8 opponent observations (obs=True)")
            out = np.zeros(self.n, dtype=np.int32)
            ov = out
            kv = k
            oo = <const uint8_t *>_ptr(self.opp_obs)
            wl = azk_vec_policy_work_size(self.v, cp.p)
            if self._pwork is None or self._pwork.shape[0] < wl:
                self._pwork = np.empty(wl, dtype=np.uint8)
            wp = <void *>_ptr(self._pwork)
            wn = self._pwork.shape[0]
            with nogil:
                st = azk_vec_policy_opponent(self.v, self.cards.cs, cp.p, oo, sd, &kv[0], g, &ov[0], wp, wn, &pst)
            if st != AZK_OK:
                if pst:
                    raise ValueError(f"policy_opponent_actions: the policy cannot read an opponent observation "
                                     f"({azk_policy_status_name(<azk_policy_status>pst).decode()})")
                raise AzukiError(f"policy_opponent_actions failed ({azk_status_name(st).decode()})")
            return out

    def bot_opponent_actions(self, bot):
        """mode="policy": the built-in bot `bot`'s answers for the pending
        games (int32 [n], 0 where not pending), from each game's own bot
        stream; pass them to step_opponent. In C, without the GIL."""
        cdef int kind
        cdef int32_t[::1] ov
        cdef azk_status st
        with _Call(self, "bot_opponent_actions"):
            self._policy_mode("bot_opponent_actions")
            kind = bot_kind(bot)
            out = np.zeros(self.n, dtype=np.int32)
            ov = out
            with nogil:
                st = azk_vec_bot_opponent(self.v, self.cards.cs, kind, &ov[0])
            if st != AZK_OK:
                raise AzukiError(f"bot_opponent_actions failed ({azk_status_name(st).decode()})")
            return out

    def pbot_opponent_actions(self, policy, kind, settings=None):
        """mode="policy": policy bot `kind` ("policy" / "psearch", settings as
        pbot_defaults) playing the C policy `policy` (a CPolicy): its answers
        for the pending games (int32 [n], 0 where not pending), each from its
        game's own bot stream (as bot_opponent_actions); pass them to
        step_opponent. In C, on the vector's threads, without the GIL, in a
        workspace this VecGame holds (nothing allocated per decision)."""
        cdef int32_t[::1] ov
        cdef azk_status st
        cdef azk_pbot_params pp
        cdef CPolicy cp
        cdef void *wp
        cdef size_t wl, wn
        if not isinstance(policy, CPolicy):
            raise TypeError(f"pbot_opponent_actions takes a CPolicy, got {type(policy).__name__}")
        cp = policy
        pp = _pbot_params(kind, settings)
        with _Call(self, "pbot_opponent_actions"):
            self._policy_mode("pbot_opponent_actions")
            wl = azk_vec_pbot_work_size(self.v, cp.p, &pp)
            if self._pwork is None or self._pwork.shape[0] < wl:
                self._pwork = np.empty(wl, dtype=np.uint8)
            wp = <void *>_ptr(self._pwork)
            wn = self._pwork.shape[0]
            out = np.zeros(self.n, dtype=np.int32)
            ov = out
            with nogil:
                st = azk_vec_pbot_opponent(self.v, self.cards.cs, cp.p, &pp, &ov[0], wp, wn)
            if st == AZK_ERR_CARDSET:
                raise ValueError(f"pbot_opponent_actions: the policy cannot read this card set's observations")
            if st != AZK_OK:
                raise AzukiError(f"pbot_opponent_actions failed ({azk_status_name(st).decode()})")
            return out

    def episodes(self):
        """int64 [n]: every game's current episode number (episode(i) for all i)."""
        cdef int64_t[::1] ov
        cdef int i
        with _Call(self, "episodes"):
            out = np.empty(self.n, dtype=np.int64)
            ov = out
            for i in range(self.n):
                ov[i] = azk_vec_episode(self.v, i)
            return out

    def agent_seats(self):
        """int8 [n]: every game's agent seat this episode (agent_seat(i) for all i)."""
        cdef int8_t[::1] ov
        cdef int i
        with _Call(self, "agent_seats"):
            out = np.empty(self.n, dtype=np.int8)
            ov = out
            for i in range(self.n):
                ov[i] = <int8_t>azk_vec_agent_seat(self.v, i)
            return out

    def game(self, i):
        """A Game holding a copy of game i's current position."""
        cdef int k, e
        cdef azk_deal d
        cdef Game g
        with _Call(self, "game"):
            k = _int_in(i, "i", 0, self.n - 1)
            e = azk_vec_episode(self.v, k)
            g = Game.__new__(Game)
            g.cards = self.cards
            g.cs = self.cards.cs
            azk_game_clone(g.g, azk_vec_game(self.v, k))
            azk_deal_schedule(self._seedv, e, len(self.pairings), self.paired, &d)  # the schedule C played
            pair = self.pairings[d.pairing]
            g.decks = (pair[1], pair[0]) if d.swapped else pair
            return g


cdef class _Call:
    """`with _Call(vec, name):` a VecGame method's whole run under the
    one-call guard (VecGame._enter / _leave); ready: refuse an
    uninitialised VecGame first."""
    cdef VecGame v
    cdef str name
    cdef bint ready

    def __cinit__(self, VecGame v, str name, bint ready=True):
        self.v, self.name, self.ready = v, name, ready

    def __enter__(self):
        self.v._enter(self.name, self.ready)

    def __exit__(self, *exc):
        self.v._leave()

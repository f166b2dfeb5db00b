# ---- Game: the C calls on one game; the rest: azuki/_game_py.py ------------------------------------------
@cython.auto_pickle(False)   # pickled by GameMixin.__reduce__
cdef class Game(_Binding, GameMixin):
    """One game of Azuki (DESIGN §5): the rules run in C, the position is read through the flat export."""
    cdef azk_game *g
    cdef const azk_cardset *cs
    cdef readonly CardSet cards
    cdef readonly tuple decks

    def __cinit__(self, *args, **kwargs):
        self.g = <azk_game *>PyMem_Calloc(1, azk_game_size())
        if self.g == NULL:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.g)

    def __init__(self, seed=0, decks=("STT01", "STT02"), cards=None, turn_cap=None, decision_cap=None):
        # validate everything before touching the object (a failed re-__init__ changes nothing)
        cdef CardSet cs = _resolve_cards(cards)
        d0, d1 = _deck_pair(cs, decks)
        cdef uint64_t s = _seed(seed)
        cdef int tc = 0 if turn_cap is None else _turn_cap(turn_cap)
        cdef int dc = 0 if decision_cap is None else _decision_cap(decision_cap)
        if azk_game_init(self.g, cs.cs, s, d0, d1) != AZK_OK:
            self.cs = NULL
            raise ValueError("could not initialise the game")
        self.cards, self.cs, self.decks = cs, cs.cs, (cs.decks[d0], cs.decks[d1])
        if tc:
            azk_game_set_turn_cap(self.g, tc)
        if dc:
            azk_game_set_decision_cap(self.g, dc)

    cdef inline int _ck(self) except -1:
        if self.cs == NULL:
            raise RuntimeError("Game is not initialised; use azuki.Game(...)")

    def _check_ready(self):
        self._ck()

    def _position(self):
        """The position as azuki.state.Position (one azk_export)."""
        self._ck()
        cdef array.array a = array.clone(_EXPORT_TEMPLATE, _EXPORT_SIZE, False)
        if azk_export(self.g, self.cs, <int32_t *>a.data.as_ints, _EXPORT_SIZE) != _EXPORT_SIZE:
            raise AzukiError("the engine's export failed")
        return Position(a, EXPORT_LAYOUT, self.cards)

    # ---- caps and facts (the properties over _facts: GameMixin) -------------------------------
    def set_turn_cap(self, turns):
        """Per-game turn cap (docs/rules.md §13.1, default 200)."""
        self._ck()
        azk_game_set_turn_cap(self.g, _turn_cap(turns))

    def set_decision_cap(self, decisions):
        """Per-game decision cap (docs/rules.md §13.2, default 10,000)."""
        self._ck()
        azk_game_set_decision_cap(self.g, _decision_cap(decisions))

    def _facts(self):
        """The engine's accessors in one call (the order of GameMixin's properties over it)."""
        self._ck()
        cdef const azk_game *g = self.g
        return (azk_phase(g), azk_turn(g), azk_active_player(g), azk_first_player(g), azk_result(g), azk_winner(g),
                azk_end_reason(g), azk_decisions(g), azk_turn_cap(g), azk_decision_cap(g))

    @property
    def current_player(self):
        self._ck()
        return azk_current_player(self.g)

    @property
    def is_terminal(self):
        self._ck()
        return bool(azk_is_terminal(self.g))

    # ---- actions -------------------------------------------------------------
    def legal_actions(self):
        self._ck()
        out = np.empty(NUM_ACTIONS, dtype=np.int32)
        cdef int n = azk_legal_actions(self.g, self.cs, <int32_t *>_ptr(out), NUM_ACTIONS)
        return out[:n].copy()

    def action_mask(self, out=None):
        """The legal actions as np.uint8[NUM_ACTIONS] (1 = legal), into `out` if given (checked first)."""
        self._ck()
        out = _out_array(out, np.uint8, (NUM_ACTIONS,), "out")
        azk_legal_mask(self.g, self.cs, <uint8_t *>_ptr(out))
        return out

    def observe(self, player, out=None):
        """Player's observation: np.uint8[OBS_LEN], into `out` if given (docs/observation.md)."""
        self._ck()
        cdef int p = _int_in(player, "player", 0, 1)
        out = _out_array(out, np.uint8, (OBS_LEN,), "out")
        if azk_observe(self.g, self.cs, p, <uint8_t *>_ptr(out)) != OBS_LEN:
            raise AzukiError("the engine's observation failed")
        return out

    def resample(self, player, seed):
        """Information-set sampling in place, observe(player) unchanged (docs/observation.md); ValueError if over."""
        self._ck()
        cdef int p = _int_in(player, "player", 0, 1)
        cdef uint64_t s = _seed(seed)
        if azk_resample(self.g, self.cs, p, s) != AZK_OK:
            raise ValueError("cannot resample a finished game")

    def card_known(self, player, card):
        """May `player` know physical card `card`'s identity where it is now (docs/observation.md)?"""
        self._ck()
        cdef int p = _int_in(player, "player", 0, 1)
        cdef int c = _int_in(card, "card", 0, NUM_CARDS - 1)
        return azk_card_known(self.g, p, c) == 1

    def head_masks(self, type=None, p0=None, out=None):
        """Per-head masks (np.uint8 arrays of HEAD_SIZES), marginal or conditioned on `type` (and `p0`); into
        `out` if given (docs/python_api.md, Actions)."""
        self._ck()
        ti, pi, (mt, m0, m1) = head_mask_args(type, p0, out)
        if azk_head_masks(self.g, ti, pi, <uint8_t *>_ptr(mt), <uint8_t *>_ptr(m0), <uint8_t *>_ptr(m1)) < 0:
            raise ValueError(f"p0 {pi} out of range for type {ACTION_TYPES[ti]}")
        return mt, m0, m1

    def is_legal(self, a):
        self._ck()
        ai = _as_int(a, "action")
        return 0 <= ai < NUM_ACTIONS and bool(azk_is_legal(self.g, self.cs, ai))

    def step(self, a):
        """Apply flat action `a`. Raises IllegalActionError (state unchanged)."""
        self._ck()
        ai = _as_int(a, "action")
        if not 0 <= ai < NUM_ACTIONS:
            raise IllegalActionError(f"action {excerpt(ai)} out of range [0, {NUM_ACTIONS})")
        cdef azk_status st = azk_step(self.g, self.cs, ai)
        if st != AZK_OK:
            raise step_error(self, azk_status_name(st).decode(), ai)

    def _describe_fields(self, a):
        """azk_describe's fields of action `a`: ([9 ints], (owner player, card) or None)."""
        self._ck()
        ai = _as_int(a, "action")
        cdef int32_t raw[16]
        if not 0 <= ai < NUM_ACTIONS or azk_describe(self.g, self.cs, ai, raw) != 0:
            raise ValueError(f"action {excerpt(ai)} out of range [0, {NUM_ACTIONS})")
        return [raw[i] for i in range(9)], ((raw[9], raw[10]) if raw[9] >= 0 else None)

    def _card_facts(self, where):
        """(attack, maximum health, status bits, cost now) at `where` (GameMixin.attack_of etc.)."""
        cdef int c = self.locate(where)
        return (azk_card_attack(self.g, self.cs, c), azk_card_health(self.g, self.cs, c),
                azk_card_statuses(self.g, self.cs, c), azk_card_cost(self.g, self.cs, c))

    # ---- services ------------------------------------------------------------
    def clone(self):
        self._ck()
        cdef Game o = _game_of(self.cards, self.decks)
        azk_game_clone(o.g, self.g)
        return o

    def state_hash(self):
        self._ck()
        return int(azk_hash(self.g))

    def to_bytes(self):
        self._ck()
        buf = bytearray(azk_serialized_size())
        cdef size_t n = azk_serialize(self.g, self.cs, <unsigned char *><char *>buf, len(buf))
        if n == 0:
            raise AzukiError("serialization failed")
        return bytes(buf[:n])

    @staticmethod
    def _from_state(CardSet cs, bytes b, decks):
        """A game loaded by azk_deserialize from to_bytes() output (from_bytes; decks None: recovered)."""
        cdef Game o = _game_of(cs, decks)
        cdef const unsigned char *p = b
        cdef azk_status st = azk_deserialize(o.g, cs.cs, p if len(b) else NULL, len(b))
        if st != AZK_OK:
            raise state_error(azk_status_name(st).decode(), len(b))
        if decks is None:
            o.decks = o._recover_decks()
        return o

    @staticmethod
    def _from_plan(CardSet cs, uint64_t seed, int d0, int d1, words, tuple decks):
        """A game set up by azk_game_setup from a flat plan (from_setup; validated again, completely, in C)."""
        cdef Game o = _game_of(cs, decks)
        cdef int32_t[::1] w = words
        cdef int detail = 0
        if azk_game_init(o.g, cs.cs, seed, d0, d1) != AZK_OK:
            raise ValueError("could not initialise the game")
        if azk_game_setup(o.g, cs.cs, &w[0], <size_t>w.shape[0], &detail) != AZK_OK:
            raise setup_error(detail, words)
        return o

    def events(self):
        """Semantic events since the last call (drains the log)."""
        self._ck()
        cdef uint32_t buf[128]
        cdef int n, i, t, pl, c, val
        rows = []
        while True:
            n = azk_events(self.g, buf, 128)
            for i in range(n):
                azk_event_unpack(buf[i], &t, &pl, &c, &val)
                rows.append((t, pl, c, val, azk_card_definition(self.g, c) if c >= 0 else -1))
            if n < 128:
                return _events.event_dicts(rows, EVENT_TYPES, self.cards.ids)

    def render(self):
        self._ck()
        cdef int cap = 16384, n = 0
        while True:   # azk_render stops at cap - 1 characters: a full buffer means "grow and retry"
            buf = bytearray(cap)
            n = azk_render(self.g, self.cs, <char *>buf, cap)
            if n < cap - 1 or cap >= (1 << 22):
                return bytes(buf[:n]).decode("utf-8", "replace")
            cap *= 4

    def check_invariants(self):
        """0, or the first invariant violation's negative code (azuki.invariant_text(code))."""
        self._ck()
        return azk_check_invariants(self.g, self.cs)


cdef inline Game _game_of(CardSet cs, decks):
    """A new Game over `cs` with `decks` whose azk_game its caller fills (clone, loads, VecGame.game)."""
    cdef Game o = Game.__new__(Game)
    o.cards, o.cs, o.decks = cs, cs.cs, decks
    return o

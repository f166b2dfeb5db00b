# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""azuki._core — the Cython binding of the C core (contract: _core.pxd).

Everything that crosses the boundary is validated here (action ids, array
dtypes/shapes/contiguity, state bytes, setup dicts, card sets); the C calls
themselves then run without the GIL where that matters (simulate). The C core
never allocates: a Game owns one malloc'd azk_game, a CardSet one azk_cardset.
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memcpy, memset, strncpy
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t
cimport numpy as cnp
import numpy as np
import operator
import time

from . import spec_autogen as S

cnp.import_array()

NUM_ACTIONS = azk_num_actions()
# Sizes of the action heads (type, p0, p1) for factored policies (DESIGN §3).
HEAD_SIZES = (azk_head_size(0), azk_head_size(1), azk_head_size(2))
ACTION_TYPES = S.ACTION
PHASES = S.PHASE
PROMPT_KINDS = S.PROMPT
RESULTS = S.RESULT
ZONES = S.ZONE
STATUSES = S.STATUS
MAX_OPTIONS = AZK_MAX_OPTIONS
STATE_SIZE = azk_game_size()
SERIALIZED_SIZE = azk_serialized_size()
EVENT_TYPES = tuple(azk_event_name(i).decode() for i in range(azk_num_event_types()))
# The state checker's codes (csrc/azk_invariants.def): code -> (name, what must hold).
INVARIANTS = {a[0]: (n, d) for n, a, d in zip(S.INV, S.INV_ARGS, S.INV_DOC)}


def invariant_text(code):
    """'NAME: what must hold' for a code check_invariants() returned."""
    if code == 0:
        return "OK"
    n, d = INVARIANTS.get(code, ("UNKNOWN", "unknown invariant"))
    return f"invariant {code} {n}: {d}"


END_REASONS = tuple(azk_end_reason_name(i).decode() for i in range(azk_num_end_reasons()))
assert END_REASONS == S.END, "azuki/spec_autogen.py is stale against the C core"
_ZONE_NAMES = tuple(z.lower() for z in S.ZONE)
_DURATIONS = tuple(d.lower() for d in S.DURATION)
_STATUS_NAMES = tuple(s.lower() for s in S.STATUS)


class AzukiError(Exception):
    """Base class of azuki's errors."""


class IllegalActionError(AzukiError, ValueError):
    """An action that is not legal now (or out of range). The game is unchanged."""


class StateError(AzukiError, ValueError):
    """State bytes that are corrupt, truncated, of another version or card set."""


class CardSetError(AzukiError, ValueError):
    """A card set the engine's verifier rejected."""


# ---------------------------------------------------------------------------
# RNG (exposed for the golden-vector tests and for users who want the engine's
# generator, e.g. to derive seeds reproducibly)
# ---------------------------------------------------------------------------
def rng_outputs(uint64_t initstate, uint64_t initseq, Py_ssize_t n):
    """The first n outputs of pcg32 seeded (initstate, initseq), as uint32."""
    if n < 0:
        raise ValueError("n must be >= 0")
    cdef azk_rng r
    azk_rng_seed(&r, initstate, initseq)
    out = np.empty(n, dtype=np.uint32)
    cdef uint32_t[::1] v = out
    cdef Py_ssize_t i
    for i in range(n):
        v[i] = azk_rng_next(&r)
    return out


def rng_bounded(uint64_t initstate, uint64_t initseq, bounds):
    """One bounded draw per entry of `bounds` (uint32 each), in order."""
    b = np.ascontiguousarray(bounds, dtype=np.uint64)
    if b.ndim != 1 or (b.size and int(b.max()) > 0xFFFFFFFF):
        raise ValueError("bounds must be a 1-D sequence of uint32 values")
    cdef azk_rng r
    azk_rng_seed(&r, initstate, initseq)
    out = np.empty(b.shape[0], dtype=np.uint32)
    cdef uint32_t[::1] v = out
    cdef uint64_t[::1] bv = b
    cdef Py_ssize_t i
    for i in range(bv.shape[0]):
        v[i] = azk_rng_bounded(&r, <uint32_t>bv[i])
    return out


def rng_shuffle(uint64_t initstate, uint64_t initseq, Py_ssize_t n):
    """Fisher-Yates shuffle of range(n) (n <= 255) and the generator's next output."""
    if not 0 <= n <= 255:
        raise ValueError("n must be in [0, 255]")
    cdef azk_rng r
    azk_rng_seed(&r, initstate, initseq)
    a = np.arange(n, dtype=np.uint8)
    cdef uint8_t[::1] v = a
    if n:
        azk_rng_shuffle_u8(&r, &v[0], <uint32_t>n)
    return a, int(azk_rng_next(&r))


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------
def _type_index(t):
    if isinstance(t, str):
        try:
            return S.ACTION.index(t.upper())
        except ValueError:
            raise ValueError(f"unknown action type {t!r} (known: {', '.join(S.ACTION)})") from None
    return _as_int(t, "action type")


cdef object _as_int(object v, str what):
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, got a boolean")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {type(v).__name__}") from None


def encode(t, p0=0, p1=0, p2=0):
    """Flat action id of (type, p0, p1, p2); type may be a name. p2 is reserved (must be 0)."""
    ti = _type_index(t)
    a0, a1, a2 = _as_int(p0, "p0"), _as_int(p1, "p1"), _as_int(p2, "p2")
    if a2 != 0 or not (-2**31 < ti < 2**31 and -2**31 < a0 < 2**31 and -2**31 < a1 < 2**31):
        raise ValueError(f"no action ({t}, {p0}, {p1}, {p2})")
    cdef int a = azk_encode(ti, a0, a1)
    if a < 0:
        raise ValueError(f"no action ({t}, {p0}, {p1}, {p2})")
    return a


def decode(a):
    """(type name, p0, p1, p2) of a flat action id."""
    cdef int t, p0, p1
    ai = _as_int(a, "action")
    if not 0 <= ai < NUM_ACTIONS or azk_decode(ai, &t, &p0, &p1) != 0:
        raise ValueError(f"action {ai} out of range [0, {NUM_ACTIONS})")
    return (S.ACTION[t], p0, p1, 0)


# ---------------------------------------------------------------------------
# Card sets
# ---------------------------------------------------------------------------
cdef class CardSet:
    """A verified card set: the embedded default or one compiled at run time
    from JSON (azuki.convert). Immutable once built."""
    cdef azk_cardset *owned
    cdef const azk_cardset *cs
    cdef readonly object ids, names, card_types, decks, source, keywords
    cdef readonly uint64_t hash

    def __cinit__(self):
        self.owned = NULL
        self.cs = NULL

    def __dealloc__(self):
        if self.owned != NULL:
            PyMem_Free(self.owned)

    @staticmethod
    def default():
        global _DEFAULT
        if _DEFAULT is None:
            c = CardSet()
            c.cs = azk_default_cardset()
            c.source = "<embedded default>"
            c._index()
            _DEFAULT = c
        return _DEFAULT

    @staticmethod
    def from_json(path=None, text=None):
        """Compile a JSON card set (raises azuki.convert.ConvertError with
        file/path/message problems) and verify it in C (CardSetError)."""
        from .convert import load_cardset
        return CardSet.from_compiled(load_cardset(path, text=text))

    @staticmethod
    def from_compiled(object cs):
        cdef CardSet c = CardSet()
        cdef azk_cardset *p = <azk_cardset *>PyMem_Malloc(sizeof(azk_cardset))
        if p == NULL:
            raise MemoryError()
        memset(p, 0, sizeof(azk_cardset))
        c.owned = p
        c.cs = p
        c.source = cs.source
        _fill_cardset(p, cs)
        cdef azk_status st = azk_cardset_finish(p)
        if st != AZK_OK:
            raise CardSetError(f"{cs.source}: the engine rejected the card set: {azk_status_name(st).decode()}")
        c._index()
        return c

    def _index(self):
        cdef const azk_cardset *cs = self.cs
        self.ids = tuple(cs.defs[i].id.decode() for i in range(cs.num_defs))
        self.names = tuple(cs.defs[i].name.decode("utf-8", "replace") for i in range(cs.num_defs))
        self.card_types = tuple(S.CARD_TYPE[cs.defs[i].card_type].lower() for i in range(cs.num_defs))
        self.keywords = tuple(cs.defs[i].keywords for i in range(cs.num_defs))
        self.decks = tuple(cs.decks[i].name.decode() for i in range(cs.num_decks))
        self.hash = azk_cardset_hash(cs)

    def deck_index(self, name):
        if isinstance(name, (int, np.integer)) and not isinstance(name, bool):
            if 0 <= name < len(self.decks):
                return int(name)
        elif isinstance(name, str) and name in self.decks:
            return self.decks.index(name)
        raise ValueError(f"unknown deck {name!r} (known: {', '.join(self.decks)})")

    def def_index(self, card_id):
        try:
            return self.ids.index(card_id)
        except ValueError:
            raise ValueError(f"unknown card id {card_id!r}") from None

    def deck_list(self, int k):
        cdef const azk_decklist *d = &self.cs.decks[k]
        return dict(leader=d.leader, gate=d.gate, token=d.token,
                    ikz=[d.ikz[i] for i in range(AZK_DECK_IKZ)], main=[d.main[i] for i in range(AZK_DECK_MAIN)])


_DEFAULT = None


cdef void _copy_str(char *dst, str s, size_t cap):
    b = s.encode("utf-8")[:cap - 1]
    memset(dst, 0, cap)
    memcpy(dst, <const char *>b, len(b))


cdef _fill_cardset(azk_cardset *p, object cs):
    comp = cs.compiled
    if len(cs.defs) > AZK_MAX_CARD_DEFS or len(cs.decks) > AZK_MAX_DECKS or len(cs.subtypes) > AZK_MAX_SUBTYPES \
            or len(comp.abilities) > AZK_MAX_ABILITIES or len(comp.selectors) > AZK_MAX_SELECTORS \
            or len(comp.bytecode) > AZK_MAX_BYTECODE:
        raise CardSetError("card set exceeds the engine's capacities")
    p.num_defs = len(cs.defs)
    p.num_decks = len(cs.decks)
    p.num_subtypes = len(cs.subtypes)
    p.num_abilities = len(comp.abilities)
    p.num_selectors = len(comp.selectors)
    p.bytecode_len = len(comp.bytecode)
    cdef int i, j
    for i, d in enumerate(cs.defs):
        first, count = comp.ranges[i]
        _copy_str(p.defs[i].id, d["id"], AZK_CARD_ID_LEN)
        _copy_str(p.defs[i].name, d["name"], AZK_CARD_NAME_LEN)
        p.defs[i].card_type = d["card_type"]
        p.defs[i].element = d["element"]
        p.defs[i].rarity = d["rarity"]
        p.defs[i].keywords = d["keywords"]
        p.defs[i].cost = d["cost"]
        p.defs[i].attack = d["attack"]
        p.defs[i].health = d["health"]
        p.defs[i].gate_points = d["gate_points"]
        p.defs[i].carapace = d["carapace"]
        p.defs[i].ability_count = count
        p.defs[i].ability_first = first
        p.defs[i].subtypes = d["subtypes"]
    for i, d in enumerate(cs.decks):
        _copy_str(p.decks[i].name, d["name"], AZK_DECK_NAME_LEN)
        p.decks[i].leader = d["leader"]
        p.decks[i].gate = d["gate"]
        p.decks[i].token = d["token"]
        for j in range(AZK_DECK_IKZ):
            p.decks[i].ikz[j] = d["ikz"][j]
        for j in range(AZK_DECK_MAIN):
            p.decks[i].main[j] = d["main"][j]
    for i, s in enumerate(cs.subtypes):
        _copy_str(p.subtype_names[i], s, AZK_SUBTYPE_NAME_LEN)
    for i, a in enumerate(comp.abilities):
        p.abilities[i].kind = a.kind
        p.abilities[i].trigger = a.trigger
        p.abilities[i].flags = a.flags
        p.abilities[i].ikz_cost = a.ikz_cost
        p.abilities[i].program = a.program
        p.abilities[i].requirement = a.requirement
        p.abilities[i].condition = a.condition
        p.abilities[i].static_target = a.static_target
        p.abilities[i].selector = a.selector
        p.abilities[i].attack = a.attack
        p.abilities[i].health = a.health
        p.abilities[i].set_bonus = a.set_bonus
    for i, s in enumerate(comp.selectors):
        p.selectors[i].zones = s.zones
        p.selectors[i].side = s.side
        p.selectors[i].types = s.types
        p.selectors[i].flags = s.flags
        p.selectors[i].cost_min = s.cost_min
        p.selectors[i].cost_max = s.cost_max
        p.selectors[i].cost_max_reg = s.cost_max_reg
        p.selectors[i].element = s.element
        p.selectors[i].def_ = s.def_index
        p.selectors[i].exclude_t = s.exclude_t
        p.selectors[i].subtypes = s.subtypes
    bc = bytes(comp.bytecode)
    memcpy(p.bytecode, <const char *>bc, len(bc))


cdef CardSet _resolve_cards(object cards):
    if cards is None:
        return CardSet.default()
    if isinstance(cards, CardSet):
        return cards
    return CardSet.from_json(cards)


# ---------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------
cdef class Game:
    """One game of Azuki (DESIGN §5). All rules run in C; this object owns
    one flat azk_game struct."""
    cdef azk_game *g
    cdef const azk_cardset *cs
    cdef readonly CardSet cards
    cdef readonly tuple decks

    def __cinit__(self, *args, **kwargs):
        self.g = <azk_game *>PyMem_Malloc(azk_game_size())
        if self.g == NULL:
            raise MemoryError()
        memset(self.g, 0, azk_game_size())

    def __dealloc__(self):
        if self.g != NULL:
            PyMem_Free(self.g)

    def __init__(self, seed=0, decks=("STT01", "STT02"), cards=None, turn_cap=None, decision_cap=None):
        self.cards = _resolve_cards(cards)
        self.cs = self.cards.cs
        if not isinstance(decks, (tuple, list)) or len(decks) != 2:
            raise ValueError("decks must be a pair, e.g. ('STT01', 'STT02')")
        d0, d1 = self.cards.deck_index(decks[0]), self.cards.deck_index(decks[1])
        self.decks = (self.cards.decks[d0], self.cards.decks[d1])
        s = _as_int(seed, "seed")
        if not 0 <= s < 2**64:
            raise ValueError("seed must be in [0, 2**64)")
        if azk_game_init(self.g, self.cs, <uint64_t>s, d0, d1) != AZK_OK:
            raise ValueError("could not initialise the game")
        if turn_cap is not None:
            self.set_turn_cap(turn_cap)
        if decision_cap is not None:
            self.set_decision_cap(decision_cap)

    cdef Game _blank(self):
        cdef Game o = Game.__new__(Game)
        o.cards = self.cards
        o.cs = self.cs
        o.decks = self.decks
        return o

    def set_turn_cap(self, turns):
        t = _as_int(turns, "turn_cap")
        if not 1 <= t <= 60000:
            raise ValueError("turn_cap must be in [1, 60000]")
        azk_game_set_turn_cap(self.g, t)

    def set_decision_cap(self, decisions):
        """Per-game decision cap (docs/rules.md §13, default 10,000): the step
        that applies the cap-th decision ends a still-ongoing game as
        TRUNCATED with end_reason "DECISION_CAP"."""
        t = _as_int(decisions, "decision_cap")
        if not 1 <= t <= 60000:
            raise ValueError("decision_cap must be in [1, 60000]")
        azk_game_set_decision_cap(self.g, t)

    @property
    def decisions(self):
        """Decisions applied so far (steps; one-answer choices do not count)."""
        return azk_decisions(self.g)

    @property
    def decision_cap(self):
        return self.g.decision_cap

    @property
    def turn_cap(self):
        return self.g.turn_cap

    @property
    def end_reason(self):
        """Why the game ended (END_REASONS): None while it goes on; "LEADER",
        "DECK_OUT"; for TRUNCATED games the cap or engine bound reached
        ("TURN_CAP", "DECISION_CAP", "VM_STEPS", ...; docs/rules.md §13)."""
        r = azk_end_reason(self.g)
        return None if r == 0 else END_REASONS[r]

    # ---- facts ---------------------------------------------------------------
    @property
    def current_player(self):
        return azk_current_player(self.g)

    @property
    def phase(self):
        return S.PHASE[azk_phase(self.g)]

    @property
    def turn(self):
        return azk_turn(self.g)

    @property
    def active_player(self):
        return self.g.active

    @property
    def first_player(self):
        return self.g.first_player

    @property
    def is_terminal(self):
        return bool(azk_is_terminal(self.g))

    @property
    def result(self):
        return S.RESULT[azk_result(self.g)]

    @property
    def winner(self):
        w = azk_winner(self.g)
        return None if w < 0 else w

    # ---- actions -------------------------------------------------------------
    def legal_actions(self):
        out = np.empty(NUM_ACTIONS, dtype=np.int32)
        cdef int32_t[::1] v = out
        cdef int n = azk_legal_actions(self.g, self.cs, &v[0], NUM_ACTIONS)
        return out[:n].copy()

    def action_mask(self, out=None):
        if out is None:
            out = np.empty(NUM_ACTIONS, dtype=np.uint8)
        else:
            if not isinstance(out, np.ndarray):
                raise TypeError("out must be a numpy array")
            if out.dtype != np.uint8 or out.shape != (NUM_ACTIONS,):
                raise ValueError(f"out must have dtype uint8 and shape ({NUM_ACTIONS},), got {out.dtype} {out.shape}")
            if not out.flags.c_contiguous or not out.flags.writeable:
                raise ValueError("out must be C-contiguous and writeable")
        cdef uint8_t[::1] v = out
        azk_legal_mask(self.g, self.cs, &v[0])
        return out

    def head_masks(self, type=None, p0=None):
        """Per-head masks (np.uint8 arrays of HEAD_SIZES) for factored policies.

        With no arguments: marginals (a value is 1 when some legal action has
        it). With `type` (name or id): p0 and p1 masks over that type's legal
        actions; with `p0` too: the p1 mask over (type, p0, *). The type mask
        is always the marginal. Sampling type, then p0 given type, then p1
        given both always gives a legal action; marginals alone are not exact
        jointly (see actions.c)."""
        cdef int ti = -1, pi = -1
        if type is not None:
            tv = _type_index(type)
            if not 0 <= tv < HEAD_SIZES[0]:
                raise ValueError(f"no action type {type!r}")
            ti = tv
        if p0 is not None:
            if type is None:
                raise ValueError("p0 needs a type")
            pv = _as_int(p0, "p0")
            if not 0 <= pv < HEAD_SIZES[1]:
                raise ValueError(f"p0 {pv} out of range [0, {HEAD_SIZES[1]})")
            pi = pv
        mt = np.zeros(HEAD_SIZES[0], dtype=np.uint8)
        m0 = np.zeros(HEAD_SIZES[1], dtype=np.uint8)
        m1 = np.zeros(HEAD_SIZES[2], dtype=np.uint8)
        cdef uint8_t[::1] vt = mt
        cdef uint8_t[::1] v0 = m0
        cdef uint8_t[::1] v1 = m1
        if azk_head_masks(self.g, ti, pi, &vt[0], &v0[0], &v1[0]) < 0:
            raise ValueError(f"p0 {pi} out of range for type {ACTION_TYPES[ti]}")
        return mt, m0, m1

    def is_legal(self, a):
        ai = _as_int(a, "action")
        if not 0 <= ai < NUM_ACTIONS:
            return False
        return bool(azk_is_legal(self.g, self.cs, ai))

    def step(self, a):
        """Apply flat action `a`. Raises IllegalActionError (state unchanged)."""
        ai = _as_int(a, "action")
        if not 0 <= ai < NUM_ACTIONS:
            raise IllegalActionError(f"action {ai} out of range [0, {NUM_ACTIONS})")
        cdef azk_status st = azk_step(self.g, self.cs, ai)
        if st == AZK_OK:
            return None
        if st == AZK_TERMINAL:
            raise IllegalActionError(f"the game is over ({self.result}); action {ai} not applied")
        if st == AZK_ILLEGAL:
            raise IllegalActionError(f"illegal action {ai} ({self.action_str(ai)}) in phase {self.phase}")
        raise AzukiError(f"engine error {azk_status_name(st).decode()} on action {ai}")

    def decode(self, a):
        return decode(a)

    def encode(self, t, p0=0, p1=0, p2=0):
        return encode(t, p0, p1, p2)

    def action_str(self, a):
        t, p0, p1, _ = decode(a)
        p = self.current_player
        me = p if p >= 0 else self.g.active
        def slot(who, zone, s):
            c = self._slot_card(who, zone, s)
            return f"{zone}[{s}]" + (f" {self.cards.names[self.g.cards[c].def_]}" if c >= 0 else "")
        def holder(who, code):
            return "leader" if code == 0 else slot(who, "garden", code - 1)
        def hand(i):
            if i < self.g.pl[me].hand_n:
                return f"hand[{i}] {self.cards.names[self.g.cards[self.g.pl[me].hand[i]].def_]}"
            return f"hand[{i}]"
        if t in ("PLAY_ENTITY_TO_GARDEN", "PLAY_ENTITY_TO_ALLEY"):
            zone = "garden" if t.endswith("GARDEN") else "alley"
            return f"{t} {hand(p0)} -> {slot(me, zone, p1)}"
        if t == "PLAY_WEAPON":
            return f"{t} {hand(p0)} -> {holder(me, p1)}"
        if t in ("PLAY_SPELL_MAIN", "PLAY_SPELL_RESPONSE"):
            return f"{t} {hand(p0)}"
        if t == "ATTACK":
            a = "leader" if p0 == 0 else slot(me, "garden", p0 - 1)
            d = "enemy leader" if p1 == 0 else "enemy " + slot(1 - me, "garden", p1 - 1)
            return f"ATTACK {a} -> {d}"
        if t == "DECLARE_DEFENDER":
            return f"{t} {slot(me, 'garden', p0)}"
        if t == "PORTAL_GATE":
            return f"{t} {slot(me, 'alley', p0)} -> garden[{p1}]"
        if t == "ACTIVATE_ABILITY":
            src = "leader" if p0 == 0 else slot(me, "garden", p0 - 1) if p0 <= 5 else slot(me, "alley", p0 - 6)
            return f"{t} {src} ability {p1}"
        if t == "CHOOSE":
            pr = self.prompt()
            if pr is not None and p0 < len(pr["options"]):
                return f"CHOOSE {p0}: {pr['options'][p0]['label']}"
            return f"CHOOSE {p0}"
        return t

    cdef int _slot_card(self, int p, str zone, int s):
        if not 0 <= s < AZK_ROW:
            return -1
        cdef int c = self.g.pl[p].garden[s] if zone == "garden" else self.g.pl[p].alley[s]
        return -1 if c == AZK_NONE else c

    # ---- card naming ---------------------------------------------------------
    cdef str _where(self, int c):
        cdef azk_card *k = &self.g.cards[c]
        cdef azk_player *pl
        cdef int j, n
        p = f"p{k.owner}"
        z = _ZONE_NAMES[k.zone]
        if z in ("leader", "gate"):
            return f"{p}.{z}"
        if z == "weapon":   # k-th weapon of its holder, in attachment order
            pl = &self.g.pl[k.owner]
            n = 0
            for j in range(pl.weapons_n):
                if pl.weapons[j] == c:
                    break
                if self.g.cards[pl.weapons[j]].holder == k.holder:
                    n += 1
            return f"{self._where(k.holder)}.weapons[{n}]"
        if z in ("aside", "out", "resolving"):
            return f"{p}.{z}"
        return f"{p}.{z}[{k.pos}]"

    def card_info(self, int c):
        """Id, name, owner, zone and location of physical card index c."""
        if not 0 <= c < AZK_NUM_CARDS:
            raise ValueError(f"card index {c} out of range")
        cdef azk_card *k = &self.g.cards[c]
        return {"index": c, "id": self.cards.ids[k.def_], "name": self.cards.names[k.def_],
                "owner": k.owner, "zone": _ZONE_NAMES[k.zone], "where": self._where(c)}

    def attack_of(self, where):
        """Current attack of the card at `where` ("p0.garden[1]", "p1.leader")."""
        return azk_attack_of(self.g, self.cs, self._locate(where))

    def health_of(self, where):
        """Current maximum health of the card at `where`."""
        return azk_health_of(self.g, self.cs, self._locate(where))

    def statuses_of(self, where):
        cdef unsigned s = azk_status_of(self.g, self.cs, self._locate(where))
        st = s
        return sorted(n for i, n in enumerate(_STATUS_NAMES) if st & (1 << i))

    def _locate(self, where):
        """Card index at a location string: p0.leader, p1.gate, p0.garden[2],
        p1.alley[0], p0.hand[3], p0.discard[0], p0.deck[0] (0 = top)."""
        if not isinstance(where, str) or len(where) < 4 or where[0] != "p" or where[1] not in "01" or where[2] != ".":
            raise ValueError(f"bad location {where!r} (e.g. 'p0.garden[1]')")
        cdef int p = int(where[1])
        rest = where[3:]
        cdef azk_player *pl = &self.g.pl[p]
        if rest == "leader":
            return pl.leader
        if rest == "gate":
            return pl.gate
        if "[" not in rest or not rest.endswith("]"):
            raise ValueError(f"bad location {where!r}")
        zone, idx = rest[:-1].split("[", 1)
        i = int(idx)
        c = -1
        if zone in ("garden", "alley"):
            c = self._slot_card(p, zone, i)
        elif zone == "hand" and 0 <= i < pl.hand_n:
            c = pl.hand[i]
        elif zone == "discard" and 0 <= i < pl.discard_n:
            c = pl.discard[i]
        elif zone == "deck" and 0 <= i < pl.deck_n:
            c = pl.deck[pl.deck_n - 1 - i]
        elif zone == "ikz_area" and 0 <= i < pl.ikz_area_n:
            c = pl.ikz_area[i]
        if c < 0:
            raise ValueError(f"no card at {where!r}")
        return c

    # ---- prompt --------------------------------------------------------------
    def prompt(self):
        """None, or the pending choice: kind, chooser, optional, source and the
        options (each with its CHOOSE action id and what it names)."""
        if azk_phase(self.g) != S.PHASE_PROMPT:
            return None
        cdef azk_prompt *pr = &self.g.prompt
        kind = S.PROMPT[pr.kind]
        opts = []
        cdef int i, v, c
        for i in range(pr.n):
            v = pr.opt[i]
            o = {"index": i, "action": azk_encode(S.ACTION_CHOOSE, i, 0)}
            if kind in ("CARD", "BOTTOM_ORDER"):
                o.update(card=self.cards.ids[self.g.cards[v].def_], card_index=v, where=self._where(v),
                         label=f"{self.cards.names[self.g.cards[v].def_]} @ {self._where(v)}")
            elif kind == "YES_NO":
                o.update(value=v, label="yes" if v else "no")
            elif kind == "NUMBER":
                o.update(value=v, label=str(v))
            elif kind == "SLOT":
                o.update(slot=v, label=f"slot {v}")
            else:
                label = "leader" if v == 0 else f"garden[{v - 1}]"
                o.update(holder=v, label=label)
            opts.append(o)
        d = {"kind": kind, "chooser": pr.chooser, "optional": bool(pr.optional), "options": opts,
             "decline_action": azk_encode(S.ACTION_NO_OP, 0, 0) if pr.optional else None}
        if self.g.vm.active:
            d["source"] = self.cards.ids[self.g.cards[self.g.vm.source].def_]
            d["source_where"] = self._where(self.g.vm.source)
        return d

    # ---- services ------------------------------------------------------------
    def clone(self):
        cdef Game o = self._blank()
        azk_game_clone(o.g, self.g)
        return o

    def state_hash(self):
        return int(azk_hash(self.g))

    def to_bytes(self):
        cdef size_t cap = azk_serialized_size()
        buf = bytearray(cap)
        cdef unsigned char[::1] v = buf
        cdef size_t n = azk_serialize(self.g, self.cs, &v[0], cap)
        if n == 0:
            raise AzukiError("serialization failed")
        return bytes(buf[:n])

    @staticmethod
    def from_bytes(data, cards=None, decks=None):
        """Rebuild a game from to_bytes() output. Raises StateError."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("state bytes must be bytes-like")
        b = bytes(data)
        cdef Game o = Game.__new__(Game)
        o.cards = _resolve_cards(cards)
        o.cs = o.cards.cs
        o.decks = tuple(decks) if decks else ("?", "?")
        cdef const unsigned char *p = b
        cdef azk_status st = azk_deserialize(o.g, o.cs, p if len(b) else NULL, len(b))
        if st != AZK_OK:
            reason = {AZK_ERR_CARDSET: "the bytes belong to another card set",
                      AZK_ERR_CORRUPT: "corrupt, truncated or wrong-version state bytes"}.get(st, azk_status_name(st).decode())
            raise StateError(f"cannot load state ({len(b)} bytes): {reason}")
        return o

    def events(self):
        """Semantic events since the last call (drains the log)."""
        cdef uint32_t buf[128]
        out = []
        cdef int n, i, c
        cdef uint32_t e
        while True:
            n = azk_events(self.g, buf, 128)
            for i in range(n):
                e = buf[i]
                c = (e >> 10) & 0xFF
                val = (e >> 18) & 0x3FFF
                if val & 0x2000:
                    val -= 0x4000
                pl = (e >> 8) & 3
                ev = {"type": EVENT_TYPES[e & 0xFF] if (e & 0xFF) < len(EVENT_TYPES) else str(e & 0xFF),
                      "player": None if pl == 3 else pl, "value": val}
                if c != AZK_NONE and c < AZK_NUM_CARDS:
                    ev["card"] = self.cards.ids[self.g.cards[c].def_]
                    ev["card_index"] = c
                out.append(ev)
            if n < 128:
                return out

    def render(self):
        cdef int cap = 16384
        buf = bytearray(cap)
        cdef char *p = buf
        cdef int n = azk_render(self.g, self.cs, p, cap)
        return bytes(buf[:n]).decode("utf-8", "replace")

    def check_invariants(self):
        """0 when the engine's invariant checker accepts the state, else the
        negative code of the first invariant violated (azuki.INVARIANTS,
        azuki.invariant_text(code))."""
        return azk_check_invariants(self.g, self.cs)

    def __repr__(self):
        return f"<azuki.Game turn {self.turn} {self.phase} to act P{self.current_player} {self.result}>"

    # ---- state_dict / from_setup ------------------------------------------------
    cdef list _weapons_of(self, int p, int h):
        cdef azk_player *pl = &self.g.pl[p]
        cdef int j
        out = []
        for j in range(pl.weapons_n):
            if self.g.cards[pl.weapons[j]].holder == h:
                out.append(self._card_dict(pl.weapons[j], False))
        return out

    cdef dict _card_dict(self, int c, bint field):
        cdef azk_card *k = &self.g.cards[c]
        d = {"card": self.cards.ids[k.def_], "index": c}
        if field:
            d["tapped"] = bool(k.flags & AZK_CF_TAPPED)
            d["damage"] = k.damage
            d["cooldown"] = bool(k.flags & AZK_CF_COOLDOWN)
            d["shocked"] = bool(k.flags & AZK_CF_SHOCKED)
            d["once_used"] = [i for i in range(8) if k.once_used & (1 << i)]
            d["attack"] = azk_attack_of(self.g, self.cs, c)
            d["health"] = azk_health_of(self.g, self.cs, c)
            st = azk_status_of(self.g, self.cs, c)
            d["statuses"] = [n for i, n in enumerate(_STATUS_NAMES) if st & (1 << i)]
        return d

    def state_dict(self):
        """The whole position as plain JSON-able data (docs/state_format.md)."""
        cdef azk_game *g = self.g
        cdef azk_player *pl
        cdef int p, i, c
        players = []
        for p in range(2):
            pl = &g.pl[p]
            leader = self._card_dict(pl.leader, True)
            leader["weapons"] = self._weapons_of(p, pl.leader)
            garden, alley = [], []
            for i in range(AZK_ROW):
                c = pl.garden[i]
                if c == AZK_NONE:
                    garden.append(None)
                else:
                    e = self._card_dict(c, True)
                    e["weapons"] = self._weapons_of(p, c)
                    garden.append(e)
                c = pl.alley[i]
                alley.append(None if c == AZK_NONE else self._card_dict(c, True))
            tz = _ZONE_NAMES[g.cards[pl.token].zone]
            players.append({
                "leader": leader,
                "gate": {"card": self.cards.ids[g.cards[pl.gate].def_], "tapped": bool(g.cards[pl.gate].flags & AZK_CF_TAPPED)},
                "hand": [self.cards.ids[g.cards[pl.hand[i]].def_] for i in range(pl.hand_n)],
                "deck": [self.cards.ids[g.cards[pl.deck[pl.deck_n - 1 - i]].def_] for i in range(pl.deck_n)],
                "discard": [self.cards.ids[g.cards[pl.discard[i]].def_] for i in range(pl.discard_n)],
                "garden": garden,
                "alley": alley,
                "ikz_area": [{"card": self.cards.ids[g.cards[pl.ikz_area[i]].def_],
                              "tapped": bool(g.cards[pl.ikz_area[i]].flags & AZK_CF_TAPPED),
                              "token": pl.ikz_area[i] == pl.token} for i in range(pl.ikz_area_n)],
                "ikz_pile": pl.ikz_pile_n,
                "token": "ikz_area" if tz == "ikz_area" else tz,
                "look": [self.cards.ids[g.cards[pl.look[i]].def_] for i in range(pl.look_n)],
                "out": [self.cards.ids[g.cards[c].def_] for c in range(p * AZK_CARDS_PER_PLAYER, (p + 1) * AZK_CARDS_PER_PLAYER)
                        if g.cards[c].zone == S.ZONE_OUT and c != pl.token],
                "played_entities": pl.played_entities,
                "mulligan_done": bool(pl.mulligan_done),
            })
        effects = []
        cdef azk_effect *fe
        for i in range(g.fx_n):
            fe = &g.fx[i]
            if g.cards[fe.card].incarnation != fe.incarnation:
                continue
            fx = {"where": self._where(fe.card), "card": self.cards.ids[g.cards[fe.card].def_],
                  "duration": _DURATIONS[fe.duration], "creator": fe.creator}
            if fe.kind == 0:
                fx["attack"] = fe.amount
            else:
                st = fe.status
                fx["statuses"] = [n for j, n in enumerate(_STATUS_NAMES) if st & (1 << j)]
            effects.append(fx)
        combat = None
        if g.in_attack:
            combat = {"attacker": self._where(g.attacker), "target": self._where(g.target),
                      "defender_used": bool(g.defender_used)}
        return {
            "format": "azuki-state/1",
            "cardset": f"{self.cards.hash:016x}",
            "decks": list(self.decks),
            "turn": g.turn, "turn_cap": g.turn_cap, "active": g.active, "first_player": g.first_player,
            "decisions": g.decisions, "decision_cap": g.decision_cap,
            "phase": self.phase, "result": self.result, "end_reason": self.end_reason,
            "current_player": self.current_player,
            "rng": [int(g.rng.state), int(g.rng.inc)],
            "players": players,
            "effects": effects,
            "combat": combat,
            "prompt": self.prompt(),
            "pending_triggers": g.trig_n,
            "hash": f"{azk_hash(g):016x}",
        }

    @staticmethod
    def from_setup(d, cards=None, seed=None):
        """Build a position at the start of `active`'s main phase from a dict in
        state_dict() form (missing parts get defaults; docs/state_format.md).
        Raises ValueError on anything that cannot be a legal position."""
        from ._setup import build_setup
        if not isinstance(d, dict):
            raise ValueError("setup must be a dict")
        cs = _resolve_cards(cards if cards is not None else d.get("cards"))
        plan = build_setup(d, cs)
        cdef Game o = Game.__new__(Game)
        o.cards = cs
        o.cs = cs.cs
        o.decks = tuple(plan["decks"])
        s = plan["seed"] if seed is None else _as_int(seed, "seed")
        azk_game_init(o.g, o.cs, <uint64_t>s, plan["deck_index"][0], plan["deck_index"][1])
        o._apply_plan(plan)
        return o

    def _apply_plan(self, plan):
        cdef azk_game *g = self.g
        cdef azk_player *pl
        cdef azk_card *k
        cdef int p, i, c, base, h
        azk_events(g, NULL, 1 << 30)   # drain: setup is not news
        g.fx_n = 0
        g.trig_n = 0
        memset(&g.prompt, 0, sizeof(azk_prompt))
        for p in range(2):
            pl = &g.pl[p]
            base = p * AZK_CARDS_PER_PLAYER
            pl.deck_n = pl.hand_n = pl.discard_n = pl.weapons_n = pl.ikz_area_n = pl.ikz_pile_n = pl.look_n = 0
            memset(pl.garden, AZK_NONE, AZK_ROW)
            memset(pl.alley, AZK_NONE, AZK_ROW)
            pp = plan["players"][p]
            for c in range(base, base + AZK_CARDS_PER_PLAYER):
                k = &g.cards[c]
                k.flags = 0
                k.damage = 0
                k.once_used = 0
                k.holder = AZK_NONE
                k.pos = 0
                g.next_incarnation += 1
                k.incarnation = g.next_incarnation
            for c, spec in pp["cards"].items():
                k = &g.cards[c]
                k.def_ = spec["def"]
                k.zone = spec["zone"]
                k.flags = spec.get("flags", 0)
                k.damage = spec.get("damage", 0)
                k.once_used = spec.get("once_used", 0)
            _fill_list(g, pl.deck, &pl.deck_n, pp["deck"])     # bottom first
            _fill_list(g, pl.hand, &pl.hand_n, sorted(pp["hand"], key=lambda x: (pp["cards"][x]["def"], x)))
            _fill_list(g, pl.discard, &pl.discard_n, pp["discard"])
            _fill_list(g, pl.weapons, &pl.weapons_n, [c for c, _ in pp["weapons"]])
            for c, h in pp["weapons"]:
                g.cards[c].holder = h
            _fill_list(g, pl.ikz_area, &pl.ikz_area_n, pp["ikz_area"])
            _fill_list(g, pl.ikz_pile, &pl.ikz_pile_n, pp["ikz_pile"])
            for i, c in pp["garden"].items():
                g.cards[c].pos = i
                pl.garden[i] = c
            for i, c in pp["alley"].items():
                g.cards[c].pos = i
                pl.alley[i] = c
            pl.played_entities = pp["played_entities"]
            pl.mulligan_done = 1
        for fx in plan["effects"]:
            i = g.fx_n
            g.fx[i].card = fx["card"]
            g.fx[i].kind = fx["kind"]
            g.fx[i].duration = fx["duration"]
            g.fx[i].creator = fx["creator"]
            g.fx[i].amount = fx["amount"]
            g.fx[i].status = fx["status"]
            g.fx[i].incarnation = g.cards[fx["card"]].incarnation
            g.fx_n += 1
        g.turn = plan["turn"]
        g.active = plan["active"]
        g.first_player = plan["first_player"]
        g.turn_cap = plan["turn_cap"]
        g.decision_cap = plan["decision_cap"]
        g.decisions = 0
        g.in_attack = 0
        g.attacker = g.target = 0
        g.flow = AZK_FLOW_MAIN
        g.phase = S.PHASE_MAIN
        g.result = S.RESULT_ONGOING
        cdef int bad = azk_check_state(g, self.cs, 0)   # the legal cache is built by azk_advance below
        if bad != 0:
            raise ValueError(f"setup does not describe a valid position ({invariant_text(bad)})")
        azk_state_check_all(g, self.cs)   # also rebuilds the engine's state-check hint
        azk_advance(g, self.cs)
        azk_events(g, NULL, 1 << 30)   # drain: setup is not news


cdef void _fill_list(azk_game *g, uint8_t *arr, uint8_t *n, object cards):
    """Append physical cards to a zone array, keeping each record's pos."""
    for c in cards:
        g.cards[c].pos = n[0]
        arr[n[0]] = c
        n[0] += 1


# ---------------------------------------------------------------------------
# Simulation (the main job): uniform-random legal players, C speed
# ---------------------------------------------------------------------------
def simulate(long games, uint64_t seed=0, decks=("STT01", "STT02"), cards=None, int turn_cap=200,
             progress=None, long chunk=500):
    """Play `games` games between two uniform-random legal players. Game i uses
    engine seed `seed + i`; the players draw from a separate pcg32 stream.
    Returns a dict of results; `progress(done, games)` is called between chunks."""
    if games < 0:
        raise ValueError("games must be >= 0")
    if not 1 <= turn_cap <= 60000:
        raise ValueError("turn_cap must be in [1, 60000]")
    cdef CardSet cs = _resolve_cards(cards)
    cdef int d0 = cs.deck_index(decks[0]), d1 = cs.deck_index(decks[1])
    cdef azk_game *g = <azk_game *>PyMem_Malloc(azk_game_size())
    cdef int32_t *legal = <int32_t *>PyMem_Malloc(sizeof(int32_t) * NUM_ACTIONS)
    if g == NULL or legal == NULL:
        PyMem_Free(g)
        PyMem_Free(legal)
        raise MemoryError()
    cdef azk_rng pick
    azk_rng_seed(&pick, seed, 0x5eed5eedULL)
    cdef long by_seat[2]
    cdef long by_deck[2]
    cdef long first_wins = 0
    cdef long results[5]
    cdef long long decisions = 0, turns = 0
    cdef long i, start = 0, end, errors = 0
    cdef int n, r, w, swap, na = NUM_ACTIONS
    memset(by_seat, 0, sizeof(by_seat))
    memset(by_deck, 0, sizeof(by_deck))
    memset(results, 0, sizeof(results))
    t0 = time.perf_counter()
    try:
        while start < games:
            end = min(games, start + chunk)
            with nogil:
                for i in range(start, end):
                    swap = <int>(i & 1)   # alternate seats so deck and seat effects separate
                    azk_game_init(g, cs.cs, seed + <uint64_t>i, d1 if swap else d0, d0 if swap else d1)
                    azk_game_set_turn_cap(g, turn_cap)
                    while not azk_is_terminal(g):
                        n = azk_legal_actions(g, cs.cs, legal, na)
                        if n <= 0:
                            errors += 1
                            break
                        if azk_step(g, cs.cs, legal[azk_rng_bounded(&pick, <uint32_t>n)]) != AZK_OK:
                            errors += 1
                            break
                        decisions += 1
                    r = azk_result(g)
                    results[r] += 1
                    turns += azk_turn(g)
                    w = azk_winner(g)
                    if w >= 0:
                        by_seat[w] += 1
                        by_deck[w ^ swap] += 1
                        if w == g.first_player:
                            first_wins += 1
            start = end
            if progress is not None:
                progress(start, games)
    finally:
        PyMem_Free(g)
        PyMem_Free(legal)
    dt = time.perf_counter() - t0
    return {"games": games, "decks": (cs.decks[d0], cs.decks[d1]),
            "wins_by_deck": {cs.decks[d0]: by_deck[0], cs.decks[d1]: by_deck[1]} if d0 != d1 else None,
            "wins_by_seat": [by_seat[0], by_seat[1]], "wins_first_player": first_wins,
            "mirror": d0 == d1, "draws": results[3], "truncated": results[4],
            "errors": errors, "decisions": decisions, "turns": turns, "seconds": dt,
            "decisions_per_game": <double>decisions / games if games else 0.0,
            "turns_per_game": <double>turns / games if games else 0.0,
            "games_per_second": games / dt if dt > 0 else 0.0,
            "decisions_per_second": decisions / dt if dt > 0 else 0.0}

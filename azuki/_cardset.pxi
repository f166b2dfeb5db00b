# ---- CardSet: the azk_cardset it owns and the queries that read it; the rest: azuki/_cardset_py.py ----------
@cython.auto_pickle(False)   # pickled by CardSetMixin.__reduce__
cdef class CardSet(_Binding, CardSetMixin):
    """A verified card set: the embedded default (`CardSet.default()`) or one compiled from JSON (`from_json(path)`,
    cached by path and content hash); immutable, its copies itself, its pickles the JSON text (default: hash)."""
    cdef azk_cardset *owned
    cdef const azk_cardset *cs
    cdef readonly object ids, names, card_types, decks, source, keywords
    cdef readonly uint64_t hash
    cdef readonly object _json        # the JSON text a run-time set was compiled from (for pickling)
    cdef readonly bint _is_default
    cdef public object _labels       # {CHOOSE_MODE pc: [label, ...]}, None until known (mode_labels sets it)

    def __init__(self, *args, **kwargs):
        raise TypeError("use azuki.CardSet.default() or azuki.CardSet.from_json(path)")

    def __dealloc__(self):      # C attributes start NULL (Cython zeroes a new object), PyMem_Free(NULL) is a no-op
        PyMem_Free(self.owned)

    cdef inline int _ck(self) except -1:
        if self.cs == NULL:
            raise RuntimeError("CardSet is not initialised; use azuki.CardSet.default() or CardSet.from_json(path)")

    def _check_ready(self):
        self._ck()

    @staticmethod
    def default():
        """The embedded default card set (one shared object)."""
        return _DEFAULT

    @staticmethod
    def _load(const uint8_t[::1] data, source, text, dict labels):
        """A CardSet over packed card-set bytes (CardSetMixin.from_json / from_compiled), verified in C."""
        cdef CardSet c = CardSet.__new__(CardSet)
        c.owned = <azk_cardset *>PyMem_Calloc(1, sizeof(azk_cardset))
        if c.owned == NULL:
            raise MemoryError()
        _check(azk_cardset_load(c.owned, &data[0], data.shape[0]),
               f"{excerpt(source)}: the engine rejected the card set", CardSetError)
        c.cs, c.source, c._json, c._labels = c.owned, source, text, labels
        c._index()
        return c

    def _index(self):
        self._ck()
        cdef const azk_cardset *cs = self.cs
        self.ids = tuple(cs.defs[i].id.decode() for i in range(cs.num_defs))
        self.names = tuple(cs.defs[i].name.decode("utf-8", "replace") for i in range(cs.num_defs))
        self.card_types = tuple(S.CARD_TYPE[cs.defs[i].card_type].lower() for i in range(cs.num_defs))
        self.keywords = tuple(cs.defs[i].keywords for i in range(cs.num_defs))
        self.decks = tuple(cs.decks[i].name.decode() for i in range(cs.num_decks))
        self.hash = azk_cardset_hash(cs)

    def deck_list(self, deck):
        """The decklist (definition indices) of a deck given by index or name."""
        cdef int k = self.deck_index(deck)
        cdef const azk_decklist *d = &self.cs.decks[k]
        return dict(leader=d.leader, gate=d.gate, token=d.token,
                    ikz=[d.ikz[i] for i in range(AZK_DECK_IKZ)], main=[d.main[i] for i in range(AZK_DECK_MAIN)])

    def __eq__(self, other):
        if not isinstance(other, CardSet):
            return NotImplemented
        return self is other or ((<CardSet>self).cs != NULL and (<CardSet>other).cs != NULL
                                 and self.hash == other.hash)

    def __hash__(self):
        return hash(("azuki.CardSet", self.hash))


# The embedded default card set, made once at import (CardSet.default(), cards=None).
cdef CardSet _DEFAULT = CardSet.__new__(CardSet)
_DEFAULT.cs, _DEFAULT.source, _DEFAULT._is_default = azk_default_cardset(), "<embedded default>", True
_DEFAULT._index()


cpdef CardSet _resolve_cards(object cards):
    """None: the default set; a CardSet; or a JSON path (else an error). In Cython: every Game() starts here."""
    if cards is None:
        return _DEFAULT
    if isinstance(cards, CardSet):
        (<CardSet>cards)._ck()
        return cards
    return CardSet.from_json(cards)


def cardset_layout():
    """[(record, field, offset, size)] of the card-set records as compiled (field "": the record's size)."""
    cdef int n = 0
    cdef const azk_field_layout *t = azk_cardset_layout(&n)
    return [(t[i].record.decode(), t[i].field.decode(), t[i].offset, t[i].size) for i in range(n)]


cdef int _turn_cap(object v) except -1:
    return _int_in(v, "turn_cap", 1, S.CAPS["AZK_MAX_TURN_CAP"])


cdef int _decision_cap(object v) except -1:
    return _int_in(v, "decision_cap", 1, S.CAPS["AZK_MAX_DECISION_CAP"])

# ---------------------------------------------------------------------------
# Card sets
# ---------------------------------------------------------------------------
cdef class CardSet:
    """A verified card set: the embedded default (`CardSet.default()`) or one
    compiled at run time from JSON (`CardSet.from_json(path)`, cached by path
    and content hash). Immutable once built; copies are the object itself;
    pickles carry the JSON text (or, for the default, just its hash)."""
    cdef azk_cardset *owned
    cdef const azk_cardset *cs
    cdef readonly object ids, names, card_types, decks, source, keywords
    cdef readonly uint64_t hash
    cdef object _json        # the JSON text a run-time set was compiled from (for pickling)
    cdef bint _is_default
    cdef object _mode_labels  # {CHOOSE_MODE pc: [label, ...]}, None until known

    def __cinit__(self):
        self.owned = NULL
        self.cs = NULL
        self._json = None
        self._is_default = False

    def __init__(self, *args, **kwargs):
        raise TypeError("use azuki.CardSet.default() or azuki.CardSet.from_json(path)")

    def __dealloc__(self):
        if self.owned != NULL:
            PyMem_Free(self.owned)

    cdef inline int _ck(self) except -1:
        if self.cs == NULL:
            raise RuntimeError("CardSet is not initialised; use azuki.CardSet.default() or CardSet.from_json(path)")
        return 0

    @staticmethod
    def default():
        """The embedded default card set (one shared object)."""
        global _DEFAULT
        cdef CardSet c
        if _DEFAULT is None:
            c = CardSet.__new__(CardSet)
            c.cs = azk_default_cardset()
            c.source = "<embedded default>"
            c._is_default = True
            c._index()
            _DEFAULT = c
        return _DEFAULT

    @staticmethod
    def from_json(path=None, text=None):
        """Compile a JSON card set (raises azuki.convert.ConvertError with
        file/path/message problems) and verify it in C (CardSetError).
        Compiled sets are cached by (path, SHA-256 of the bytes) or by the
        text's hash, and the hashes of every file the set included: a second
        call with unchanged content costs a read and a hash per file; a
        changed file, the top one or an include, is recompiled. `text` with
        a `path`: the text of that file (its includes resolve beside it)."""
        if text is not None:
            if not isinstance(text, str):
                raise TypeError(f"text must be a str, got {type(text).__name__}")
            if path is not None:
                path = _as_path(path)
            return _cached_compile(("text", path, hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()),
                                   path, text)
        if path is None:
            raise TypeError("from_json needs a path or text")
        path = _as_path(path)
        from .convert import MAX_JSON_BYTES, load_cardset
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                raw = f.read(min(size, MAX_JSON_BYTES) + 1)
                if len(raw) > size:   # it grew since fstat: read the rest (up to the cap)
                    raw += f.read(MAX_JSON_BYTES + 1 - len(raw))
        except OSError:
            return CardSet.from_compiled(load_cardset(path))   # its ConvertError names the problem
        if len(raw) > MAX_JSON_BYTES:
            return CardSet.from_compiled(load_cardset(path))
        try:
            txt = raw.decode("utf-8")
        except UnicodeDecodeError:
            return CardSet.from_compiled(load_cardset(path))
        return _cached_compile(("path", os.path.abspath(path), hashlib.sha256(raw).digest()), path, txt)

    @staticmethod
    def from_compiled(object cs):
        """Verify and load an azuki.convert.CardSet (uncached): its bytes
        (azuki.convert.pack, laid out from csrc/azk_cardset.def) go to
        azk_cardset_load, which checks them and runs the verifier."""
        from .convert import CardSet as CompiledCardSet
        from .convert.pack import PackError, pack_cardset
        if not isinstance(cs, CompiledCardSet):
            raise TypeError(f"expected an azuki.convert.CardSet, got {type(cs).__name__}")
        try:
            data = pack_cardset(cs)
        except PackError as e:
            raise CardSetError(f"{excerpt(cs.source)}: the card set does not fit the engine's records: {e}") from None
        cdef const uint8_t[::1] view = data
        cdef CardSet c = CardSet.__new__(CardSet)
        cdef azk_cardset *p = <azk_cardset *>PyMem_Malloc(sizeof(azk_cardset))
        if p == NULL:
            raise MemoryError()
        memset(p, 0, sizeof(azk_cardset))
        c.owned = p
        cdef azk_status st = azk_cardset_load(p, &view[0], view.shape[0])
        if st != AZK_OK:
            raise CardSetError(f"{excerpt(cs.source)}: the engine rejected the card set: {azk_status_name(st).decode()}")
        c.cs = p
        c.source = cs.source
        c._mode_labels = dict(getattr(cs.compiled, "mode_labels", {}) or {})
        c._index()
        return c

    def mode_labels(self, pc):
        """The labels of the modes of the choose_mode whose
        CHOOSE_MODE instruction is at bytecode `pc` (a MODE prompt's
        PROMPT_PC), in mode order; None if no choose_mode is there. The
        embedded default set compiles azuki/data/cards.json once to know them."""
        self._ck()
        if self._mode_labels is None:
            labels = {}
            if self._is_default:
                from .convert import load_cardset
                labels = dict(load_cardset().compiled.mode_labels)
            self._mode_labels = labels
        return self._mode_labels.get(pc)

    def _index(self):
        self._ck()
        cdef const azk_cardset *cs = self.cs
        self.ids = tuple(cs.defs[i].id.decode() for i in range(cs.num_defs))
        self.names = tuple(cs.defs[i].name.decode("utf-8", "replace") for i in range(cs.num_defs))
        self.card_types = tuple(S.CARD_TYPE[cs.defs[i].card_type].lower() for i in range(cs.num_defs))
        self.keywords = tuple(cs.defs[i].keywords for i in range(cs.num_defs))
        self.decks = tuple(cs.decks[i].name.decode() for i in range(cs.num_decks))
        self.hash = azk_cardset_hash(cs)

    def deck_index(self, name):
        """Index of a deck given by name or index (ValueError / IndexError / TypeError)."""
        self._ck()
        if isinstance(name, str):
            if name in self.decks:
                return self.decks.index(name)
            raise ValueError(f"unknown deck {excerpt(name)} (known: {', '.join(self.decks)})")
        if name is None or isinstance(name, (bool, np.bool_)) or not hasattr(type(name), "__index__"):
            raise TypeError(f"a deck is a name or an index, got {type(name).__name__}")
        k = operator.index(name)
        if not 0 <= k < len(self.decks):
            raise IndexError(f"deck index {excerpt(k)} out of range [0, {len(self.decks)})")
        return k

    def def_index(self, card_id):
        self._ck()
        if not isinstance(card_id, str):
            raise TypeError(f"a card id is a str, got {type(card_id).__name__}")
        try:
            return self.ids.index(card_id)
        except ValueError:
            raise ValueError(f"unknown card id {excerpt(card_id)}") from None

    def deck_list(self, deck):
        """The decklist (definition indices) of a deck given by index or name."""
        cdef int k = self.deck_index(deck)
        cdef const azk_decklist *d = &self.cs.decks[k]
        return dict(leader=d.leader, gate=d.gate, token=d.token,
                    ikz=[d.ikz[i] for i in range(AZK_DECK_IKZ)], main=[d.main[i] for i in range(AZK_DECK_MAIN)])

    def __repr__(self):
        if self.cs == NULL:
            return "<azuki.CardSet (not initialised)>"
        return f"<azuki.CardSet {excerpt(self.source)} {len(self.ids)} cards, decks {', '.join(self.decks)}, hash {self.hash:016x}>"

    def __eq__(self, other):
        if not isinstance(other, CardSet):
            return NotImplemented
        return self is other or ((<CardSet>self).cs != NULL and (<CardSet>other).cs != NULL
                                 and self.hash == other.hash)

    def __hash__(self):
        return hash(("azuki.CardSet", self.hash))

    # ---- copy / pickle: card sets are immutable --------------------------------
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        self._ck()
        if self._is_default:
            return (_restore_cardset, (None, None, self.hash))
        if self._json is None:
            raise TypeError("this CardSet was built from a compiled object without its JSON text; "
                            "build it with CardSet.from_json to pickle it")
        return (_restore_cardset, (self.source, self._json, self.hash))


def _restore_cardset(source, text, h):
    """Unpickle a CardSet (see CardSet.__reduce__); checks the hash."""
    cdef CardSet c
    if text is None:
        c = CardSet.default()
    else:
        c = CardSet.from_json(source if isinstance(source, str) else None, text=text)
    if c.hash != h:
        raise CardSetError(f"the pickled card set (hash {h:016x}) compiles to {c.hash:016x} with this engine")
    return c


cdef object _as_path(object path):
    if isinstance(path, CardSet):
        raise TypeError("expected a path, got a CardSet")
    try:
        p = os.fspath(path)
    except TypeError:
        raise TypeError(f"a card-set path must be a str or os.PathLike, got {type(path).__name__}") from None
    if not isinstance(p, str):
        raise TypeError(f"a card-set path must be a str or os.PathLike, got {type(p).__name__}")
    if not p:
        raise ValueError("empty card-set path (use cards=None for the default set)")
    if "\0" in p:
        raise ValueError(f"card-set path {excerpt(p)} contains a NUL character")
    return p


# Compiled run-time card sets: key -> (CardSet, files it included) (LRU, bounded).
_CACHE = {}
_CACHE_MAX = 32
_CACHE_LOCK = threading.Lock()
_CACHE_STATS = {"hits": 0, "misses": 0}


def _files_unchanged(files):
    """Do the files a cached set was read from (its includes: (path, sha256),
    azuki.convert.CardSet.files) still hold the same bytes?"""
    from .convert import MAX_JSON_BYTES
    for p, digest in files:
        try:
            with open(p, "rb") as f:
                raw = f.read(MAX_JSON_BYTES + 1)
        except OSError:
            return False
        if hashlib.sha256(raw).hexdigest() != digest:
            return False
    return True


def _cached_compile(key, path, text):
    """A compiled set by `key` (the top file's path and hash, or the text's):
    an entry counts only while every file it included still has the bytes it
    was compiled from (an edited include is recompiled)."""
    cdef CardSet c
    with _CACHE_LOCK:
        entry = _CACHE.get(key)
    if entry is not None and _files_unchanged(entry[1]):
        with _CACHE_LOCK:
            if _CACHE.get(key) is entry:
                del _CACHE[key]
                _CACHE[key] = entry      # most recently used last
            _CACHE_STATS["hits"] += 1
        return entry[0]
    from .convert import load_cardset
    compiled = load_cardset(path, text=text)
    c = CardSet.from_compiled(compiled)
    c._json = text
    with _CACHE_LOCK:
        _CACHE_STATS["misses"] += 1
        _CACHE.pop(key, None)
        _CACHE[key] = (c, compiled.files)
        while len(_CACHE) > _CACHE_MAX:
            del _CACHE[next(iter(_CACHE))]
    return c


def clear_cardset_cache():
    """Forget every cached run-time card set (games keep theirs)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def cardset_cache_info():
    """{"size", "max", "hits", "misses"} of the run-time card-set cache."""
    with _CACHE_LOCK:
        return {"size": len(_CACHE), "max": _CACHE_MAX, **_CACHE_STATS}


_DEFAULT = None


def cardset_layout():
    """[(record, field, offset, size)] of the card-set records as the C core
    was compiled (azk_cardset_layout; field "" is the record's own size)."""
    cdef int n = 0
    cdef const azk_field_layout *t = azk_cardset_layout(&n)
    return [(t[i].record.decode(), t[i].field.decode(), t[i].offset, t[i].size) for i in range(n)]


cdef CardSet _resolve_cards(object cards):
    """None: the default set; a CardSet; or a JSON path (str / os.PathLike).
    Anything else (including "", {} and []) is an error."""
    cdef CardSet c
    if cards is None:
        return CardSet.default()
    if isinstance(cards, CardSet):
        c = cards
        c._ck()
        return c
    return CardSet.from_json(_as_path(cards))


cdef object _deck_pair(CardSet cs, object decks):
    """(d0, d1) deck indices of a pair of deck names/indices."""
    if not isinstance(decks, (tuple, list)):
        raise TypeError(f"decks must be a pair (tuple or list), e.g. ('STT01', 'STT02'), got {type(decks).__name__}")
    if len(decks) != 2:
        raise ValueError(f"decks must be a pair, e.g. ('STT01', 'STT02'), got {len(decks)} entries")
    return cs.deck_index(decks[0]), cs.deck_index(decks[1])


cdef int _turn_cap(object v) except -1:
    return _int_in(v, "turn_cap", 1, S.CAPS["AZK_MAX_TURN_CAP"])


cdef int _decision_cap(object v) except -1:
    return _int_in(v, "decision_cap", 1, S.CAPS["AZK_MAX_DECISION_CAP"])





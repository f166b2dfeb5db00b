# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""azuki._core — the Cython binding of the C core (contract: _core.pxd).

A thin layer: everything that crosses the boundary is validated here once
(action ids, array dtypes/shapes/contiguity, state bytes, setup plans, card
sets), then the public C API of csrc/azuki.h is called - without the GIL
where that matters (simulate). The game struct is opaque to this module:
positions are read through the engine's flat export (azk_export, turned into
Python data by azuki/state.py, azuki/text.py, azuki/events.py) and built
through azk_game_setup (plans from azuki/_setup.py). The C core never
allocates: a Game owns one malloc'd game, a CardSet one azk_cardset.
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport PyThread_get_thread_ident
from cpython cimport array
from libc.string cimport memcpy, memset, strncpy
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t, int64_t
cimport numpy as cnp
import array as _pyarray
import numpy as np
import hashlib
import operator
import os
import threading
import time

from . import spec_autogen as S
from . import locations as L
from . import events as _events
from . import text as _text
from .errors import AzukiError, IllegalActionError, StateError, CardSetError, INVARIANTS, invariant_text
from .state import Layout, Position, status_names
from ._util import excerpt

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
NUM_CARDS = azk_num_cards()
STATE_SIZE = azk_game_size()
SERIALIZED_SIZE = azk_serialized_size()
EVENT_TYPES = tuple(azk_event_name(i).decode() for i in range(azk_num_event_types()))
END_REASONS = tuple(azk_end_reason_name(i).decode() for i in range(azk_num_end_reasons()))
assert END_REASONS == S.END, "azuki/spec_autogen.py is stale against the C core"


cdef object _layout(int version, int size, int nfields, object field, object name, object names):
    cdef int i
    fields = []
    for i in range(nfields):
        off, cnt = field(i)
        fields.append((name(i), (off, cnt)))
    return Layout(version, size, fields, names)


def _export_field(int i):
    cdef int off = 0, cnt = 0
    azk_export_field(i, &off, &cnt)
    return off, cnt


def _plan_field(int i):
    cdef int off = 0, cnt = 0
    azk_plan_field(i, &off, &cnt)
    return off, cnt


# The two flat layouts of csrc/azk_export.def: names from spec_autogen,
# offsets and counts from the C library (which builds them from the same file).
EXPORT_LAYOUT = _layout(azk_export_version(), azk_export_size(), azk_export_num_fields(), _export_field,
                        lambda i: azk_export_field_name(i).decode(), S.EXPORT)
PLAN_LAYOUT = _layout(azk_plan_version(), azk_plan_size(), azk_plan_num_fields(), _plan_field,
                      lambda i: azk_plan_field_name(i).decode(), S.PLAN)
MAX_OPTIONS = EXPORT_LAYOUT.count("PROMPT_OPT")
cdef int _EXPORT_SIZE = EXPORT_LAYOUT.size
cdef array.array _EXPORT_TEMPLATE = _pyarray.array("i", [0])
assert _EXPORT_TEMPLATE.itemsize == sizeof(int32_t)
# The observation layout of csrc/azk_obs.def, as the C library built it:
# (name, offset, rows, cols, kind, n, doc) per field (azuki.obs.obs_layout;
# kind: "id", "enum", "num", "snum", "bits" or "place").
OBS_LEN = azk_obs_len()
OBS_VERSION = azk_obs_version()


def _obs_fields():
    cdef int i, off = 0, rows = 0, cols = 0, kind = 0, n = 0
    out = []
    for i in range(azk_obs_num_fields()):
        azk_obs_field(i, &off, &rows, &cols, &kind, &n)
        out.append((azk_obs_field_name(i).decode(), off, rows, cols, azk_obs_kind_name(kind).decode(), n,
                    azk_obs_field_doc(i).decode()))
    return tuple(out)


OBS_FIELDS = _obs_fields()
assert tuple(f[0] for f in OBS_FIELDS) == S.OBS, "azuki/spec_autogen.py is stale against the C core (OBS)"
cdef int _CHOOSE = azk_encode(S.ACTION_CHOOSE, 0, 0)
cdef int _NO_OP = azk_encode(S.ACTION_NO_OP, 0, 0)


def _choose_action(i):
    return azk_encode(S.ACTION_CHOOSE, i, 0)

# ---------------------------------------------------------------------------
# Argument checks shared by every entry point: integers are ints (Python or
# numpy, never bools or floats), seeds are in [0, 2**64).
# ---------------------------------------------------------------------------
cdef object _as_int(object v, str what):
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, got a boolean")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {type(v).__name__}") from None


cdef object _int_in(object v, str what, object lo, object hi):
    """An int in [lo, hi] (TypeError / ValueError otherwise)."""
    i = _as_int(v, what)
    if not lo <= i <= hi:
        raise ValueError(f"{what} must be in [{lo}, {hi}], got {excerpt(i)}")
    return i


cdef object _seed(object v, str what="seed"):
    return _int_in(v, what, 0, 2**64 - 1)


# Largest n of rng_outputs / rng_bounded per call (bounded work per call).
RNG_MAX_N = 1 << 24


# ---------------------------------------------------------------------------
# RNG (exposed for the golden-vector tests and for users who want the engine's
# generator, e.g. to derive seeds reproducibly)
# ---------------------------------------------------------------------------
def rng_outputs(initstate, initseq, n):
    """The first n outputs of pcg32 seeded (initstate, initseq), as uint32."""
    cdef uint64_t s0 = _seed(initstate, "initstate"), s1 = _seed(initseq, "initseq")
    cdef Py_ssize_t k = _int_in(n, "n", 0, RNG_MAX_N)
    cdef azk_rng r
    azk_rng_seed(&r, s0, s1)
    out = np.empty(k, dtype=np.uint32)
    cdef uint32_t[::1] v = out
    cdef Py_ssize_t i
    for i in range(k):
        v[i] = azk_rng_next(&r)
    return out


def rng_bounded(initstate, initseq, bounds):
    """One bounded draw per entry of `bounds` (uint32 each), in order."""
    cdef uint64_t s0 = _seed(initstate, "initstate"), s1 = _seed(initseq, "initseq")
    if isinstance(bounds, (str, bytes, bytearray, dict)) or bounds is None:
        raise TypeError(f"bounds must be a 1-D sequence of integers, got {type(bounds).__name__}")
    if isinstance(bounds, np.ndarray):
        if bounds.dtype.kind not in "iu":
            raise TypeError(f"bounds must hold integers, got dtype {bounds.dtype}")
        if bounds.ndim != 1:
            raise ValueError(f"bounds must be 1-D, got shape {bounds.shape}")
        if bounds.shape[0] > RNG_MAX_N:
            raise ValueError(f"at most {RNG_MAX_N} bounds per call")
        vals = bounds.tolist()
    else:
        try:
            n = len(bounds)
        except TypeError:
            raise TypeError(f"bounds must be a 1-D sequence of integers, got {type(bounds).__name__}") from None
        if n > RNG_MAX_N:
            raise ValueError(f"at most {RNG_MAX_N} bounds per call")
        vals = list(bounds)
    vals = [_int_in(x, "bound", 0, 0xFFFFFFFF) for x in vals]
    b = np.array(vals, dtype=np.uint64)
    cdef azk_rng r
    azk_rng_seed(&r, s0, s1)
    out = np.empty(b.shape[0], dtype=np.uint32)
    cdef uint32_t[::1] v = out
    cdef uint64_t[::1] bv = b
    cdef Py_ssize_t i
    for i in range(bv.shape[0]):
        v[i] = azk_rng_bounded(&r, <uint32_t>bv[i])
    return out


def rng_shuffle(initstate, initseq, n):
    """Fisher-Yates shuffle of range(n) (n <= 255) and the generator's next output."""
    cdef uint64_t s0 = _seed(initstate, "initstate"), s1 = _seed(initseq, "initseq")
    cdef Py_ssize_t k = _int_in(n, "n", 0, 255)
    cdef azk_rng r
    azk_rng_seed(&r, s0, s1)
    a = np.arange(k, dtype=np.uint8)
    cdef uint8_t[::1] v = a
    if k:
        azk_rng_shuffle_u8(&r, &v[0], <uint32_t>k)
    return a, int(azk_rng_next(&r))


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------
def _type_index(t):
    if isinstance(t, str):
        try:
            return S.ACTION.index(t.upper())
        except ValueError:
            raise ValueError(f"unknown action type {excerpt(t)} (known: {', '.join(S.ACTION)})") from None
    return _as_int(t, "action type")


def encode(t, p0=0, p1=0, p2=0):
    """Flat action id of (type, p0, p1, p2); type may be a name. p2 is reserved (must be 0)."""
    ti = _type_index(t)
    a0, a1, a2 = _as_int(p0, "p0"), _as_int(p1, "p1"), _as_int(p2, "p2")
    if a2 != 0 or not (-2**31 < ti < 2**31 and -2**31 < a0 < 2**31 and -2**31 < a1 < 2**31):
        raise ValueError(f"no action ({excerpt(t)}, {excerpt(a0)}, {excerpt(a1)}, {excerpt(a2)})")
    cdef int a = azk_encode(ti, a0, a1)
    if a < 0:
        raise ValueError(f"no action ({excerpt(t)}, {a0}, {a1}, {a2})")
    return a


def decode(a):
    """(type name, p0, p1, p2) of a flat action id."""
    cdef int t, p0, p1
    ai = _as_int(a, "action")
    if not 0 <= ai < NUM_ACTIONS or azk_decode(ai, &t, &p0, &p1) != 0:
        raise ValueError(f"action {excerpt(ai)} out of range [0, {NUM_ACTIONS})")
    return (S.ACTION[t], p0, p1, 0)


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




# ---------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------
cdef class Game:
    """One game of Azuki (DESIGN §5). All rules run in C; this object owns
    one game (opaque to Python: read through the flat export)."""
    cdef azk_game *g
    cdef const azk_cardset *cs
    cdef readonly CardSet cards
    cdef readonly tuple decks

    def __cinit__(self, *args, **kwargs):
        self.cs = NULL
        self.g = <azk_game *>PyMem_Malloc(azk_game_size())
        if self.g == NULL:
            raise MemoryError()
        memset(self.g, 0, azk_game_size())

    def __dealloc__(self):
        if self.g != NULL:
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
        self.cards = cs
        self.cs = cs.cs
        self.decks = (cs.decks[d0], cs.decks[d1])
        if tc:
            azk_game_set_turn_cap(self.g, tc)
        if dc:
            azk_game_set_decision_cap(self.g, dc)

    cdef inline int _ck(self) except -1:
        if self.cs == NULL:
            raise RuntimeError("Game is not initialised; use azuki.Game(...)")
        return 0

    cdef Game _blank(self):
        cdef Game o = Game.__new__(Game)
        o.cards = self.cards
        o.cs = self.cs
        o.decks = self.decks
        return o

    cdef object _position(self):
        """The position as azuki.state.Position (one azk_export)."""
        cdef array.array a = array.clone(_EXPORT_TEMPLATE, _EXPORT_SIZE, False)
        if azk_export(self.g, self.cs, <int32_t *>a.data.as_ints, _EXPORT_SIZE) != _EXPORT_SIZE:
            raise AzukiError("the engine's export failed")
        return Position(a, EXPORT_LAYOUT, self.cards)

    def export(self):
        """The engine's flat export of the position (numpy int32, layout
        azuki._core.EXPORT_LAYOUT; docs/state_format.md "Flat export")."""
        self._ck()
        return np.frombuffer(self._position().a, dtype=np.int32).copy()

    def set_turn_cap(self, turns):
        self._ck()
        azk_game_set_turn_cap(self.g, _turn_cap(turns))

    @property
    def turn_cap(self):
        self._ck()
        return azk_turn_cap(self.g)

    # ---- copy / pickle -------------------------------------------------------
    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()   # the card set is immutable and shared

    def __reduce__(self):
        """Pickles carry the card set (the default one by hash, a run-time one
        as its JSON text), the deck names and the state bytes."""
        self._ck()
        return (_restore_game, (self.cards, self.decks, self.to_bytes()))

    def set_decision_cap(self, decisions):
        """Per-game decision cap (docs/rules.md §13.2, default 10,000): the step
        that applies the cap-th decision ends a still-ongoing game as
        TRUNCATED with end_reason "DECISION_CAP"."""
        self._ck()
        azk_game_set_decision_cap(self.g, _decision_cap(decisions))

    @property
    def decisions(self):
        """Decisions applied so far (steps; one-answer choices do not count)."""
        self._ck()
        return azk_decisions(self.g)

    @property
    def decision_cap(self):
        self._ck()
        return azk_decision_cap(self.g)

    @property
    def end_reason(self):
        """Why the game ended (END_REASONS): None while it goes on; "LEADER",
        "DECK_OUT"; for TRUNCATED games the cap or engine bound reached
        ("TURN_CAP", "DECISION_CAP", "VM_STEPS", ...; docs/rules.md §13)."""
        self._ck()
        r = azk_end_reason(self.g)
        return None if r == 0 else END_REASONS[r]

    # ---- facts ---------------------------------------------------------------
    @property
    def current_player(self):
        self._ck()
        return azk_current_player(self.g)

    @property
    def phase(self):
        self._ck()
        return S.PHASE[azk_phase(self.g)]

    @property
    def turn(self):
        self._ck()
        return azk_turn(self.g)

    @property
    def active_player(self):
        self._ck()
        return azk_active_player(self.g)

    @property
    def first_player(self):
        self._ck()
        return azk_first_player(self.g)

    @property
    def is_terminal(self):
        self._ck()
        return bool(azk_is_terminal(self.g))

    @property
    def result(self):
        self._ck()
        return S.RESULT[azk_result(self.g)]

    @property
    def winner(self):
        self._ck()
        w = azk_winner(self.g)
        return None if w < 0 else w

    # ---- actions -------------------------------------------------------------
    def legal_actions(self):
        self._ck()
        out = np.empty(NUM_ACTIONS, dtype=np.int32)
        cdef int32_t[::1] v = out
        cdef int n = azk_legal_actions(self.g, self.cs, &v[0], NUM_ACTIONS)
        return out[:n].copy()

    def action_mask(self, out=None):
        self._ck()
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

    def observe(self, player, out=None):
        """Player's observation: np.uint8[OBS_LEN] (bytes) in the layout of
        azuki.obs_layout() (docs/observation.md; azuki.obs.decode names and
        unpacks it). Only what that player may know; the legal-action mask
        is field MASK, packed bits (all 0 when the player does not decide).
        `out`: a C-contiguous, writeable uint8 array of shape (OBS_LEN,) to
        fill instead of a new one (checked before anything is written)."""
        self._ck()
        cdef int p = _int_in(player, "player", 0, 1)
        if out is None:
            out = np.empty(OBS_LEN, dtype=np.uint8)
        else:
            if not isinstance(out, np.ndarray):
                raise TypeError(f"out must be a numpy array, got {type(out).__name__}")
            if out.dtype != np.uint8 or out.shape != (OBS_LEN,):
                raise ValueError(f"out must have dtype uint8 and shape ({OBS_LEN},), got {out.dtype} {out.shape}")
            if not out.flags.c_contiguous or not out.flags.writeable:
                raise ValueError("out must be C-contiguous and writeable")
        cdef uint8_t[::1] v = out
        if azk_observe(self.g, self.cs, p, &v[0]) != OBS_LEN:
            raise AzukiError("the engine's observation failed")
        return out

    def resample(self, player, seed):
        """Information-set sampling, in place: redistribute the cards `player`
        cannot know (the opponent's unknown hand cards, its deck and looked-at
        cards among themselves; player's own deck order) and reseed the
        game's RNG, consistently with everything player knows (azk_resample,
        docs/observation.md). observe(player) is unchanged. ValueError on a
        finished game."""
        self._ck()
        cdef int p = _int_in(player, "player", 0, 1)
        cdef uint64_t s = _seed(seed)
        if azk_resample(self.g, self.cs, p, s) != AZK_OK:
            raise ValueError("cannot resample a finished game")

    def card_known(self, player, card):
        """May `player` know physical card `card`'s identity where it is now
        (the rule observe follows; docs/observation.md)?"""
        self._ck()
        cdef int p = _int_in(player, "player", 0, 1)
        cdef int c = _int_in(card, "card", 0, NUM_CARDS - 1)
        return azk_card_known(self.g, p, c) == 1

    def head_masks(self, type=None, p0=None):
        """Per-head masks (np.uint8 arrays of HEAD_SIZES) for factored policies.

        With no arguments: marginals (a value is 1 when some legal action has
        it). With `type` (name or id): p0 and p1 masks over that type's legal
        actions; with `p0` too: the p1 mask over (type, p0, *). The type mask
        is always the marginal. Sampling type, then p0 given type, then p1
        given both always gives a legal action; marginals alone are not exact
        jointly (see actions.c)."""
        self._ck()
        cdef int ti = -1, pi = -1
        if type is not None:
            tv = _type_index(type)
            if not 0 <= tv < HEAD_SIZES[0]:
                raise ValueError(f"no action type {excerpt(type)}")
            ti = tv
        if p0 is not None:
            if type is None:
                raise ValueError("p0 needs a type")
            pv = _as_int(p0, "p0")
            if not 0 <= pv < HEAD_SIZES[1]:
                raise ValueError(f"p0 {excerpt(pv)} out of range [0, {HEAD_SIZES[1]})")
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
        self._ck()
        ai = _as_int(a, "action")
        if not 0 <= ai < NUM_ACTIONS:
            return False
        return bool(azk_is_legal(self.g, self.cs, ai))

    def step(self, a):
        """Apply flat action `a`. Raises IllegalActionError (state unchanged)."""
        self._ck()
        ai = _as_int(a, "action")
        if not 0 <= ai < NUM_ACTIONS:
            raise IllegalActionError(f"action {excerpt(ai)} out of range [0, {NUM_ACTIONS})")
        cdef azk_status st = azk_step(self.g, self.cs, ai)
        if st == AZK_OK:
            return None
        if st == AZK_TERMINAL:
            raise IllegalActionError(f"the game is over ({self.result}); action {ai} not applied")
        if st == AZK_ILLEGAL:
            raise IllegalActionError(f"illegal action {ai} ({self.action_str(ai)}) in phase {self.phase}")
        raise AzukiError(f"engine error {azk_status_name(st).decode()} on action {ai}")

    def decode(self, a):
        self._ck()
        return decode(a)

    def encode(self, t, p0=0, p1=0, p2=0):
        self._ck()
        return encode(t, p0, p1, p2)

    def action_str(self, a):
        """Text of action `a` in the current position; the places it names
        are locations (docs/python_api.md), e.g.
        "ATTACK p0.garden[0] Crate Rat Kurobo -> p1.leader"."""
        return _text.describe_str(self.describe(a))

    def describe(self, a):
        """What action `a` names in the current position, resolved from the
        parameter kinds csrc/azk_actions.def declares (docs/python_api.md):
        {"type", "p0", "p1", "player" (who would take it), "params" (per
        parameter: kind, value, and the location / card / option label it
        names), "places" (their locations, in click order), "cards" (card ids
        named), "hand_index", "option" (a CHOOSE's prompt option), "ability"
        (the ability used or answered: index, card, number within the card)}.
        Legal or not; ValueError for an action out of range."""
        self._ck()
        ai = _as_int(a, "action")
        cdef int32_t raw[16]
        if not 0 <= ai < NUM_ACTIONS or azk_describe(self.g, self.cs, ai, raw) != 0:
            raise ValueError(f"action {excerpt(ai)} out of range [0, {NUM_ACTIONS})")
        pos = self._position()
        owner = (raw[9], raw[10]) if raw[9] >= 0 else None
        return _text.describe(pos, [raw[i] for i in range(9)], owner, lambda: pos.prompt(_choose_action, _NO_OP))

    # ---- locations (one grammar: azuki/locations.py) ---------------------------
    cdef int _locate(self, object pos, object where) except -1:
        loc = where if isinstance(where, L.Location) else L.parse_location(where)
        if isinstance(where, L.Location):
            L.format_location(loc)   # validates
        cdef int c = pos.card_at(loc)
        if c < 0:
            raise ValueError(f"no card at {excerpt(str(loc))}")
        return c

    def locate(self, where):
        """Physical card index (0..125) at a location string (or
        azuki.locations.Location). TypeError for a non-location type,
        ValueError for a malformed location or an empty place."""
        self._ck()
        return self._locate(self._position(), where)

    def where(self, c):
        """The location string of physical card index c (= card_info(c)["where"])."""
        self._ck()
        ci = _int_in(c, "card index", 0, NUM_CARDS - 1)
        return self._position().where(ci)

    def card_info(self, c):
        """Id, name, owner, zone and location of a card given by physical
        index (0..125) or by location string."""
        self._ck()
        pos = self._position()
        cdef int ci
        if isinstance(c, (str, L.Location)):
            ci = self._locate(pos, c)
        else:
            ci = _int_in(c, "card index", 0, NUM_CARDS - 1)
        return pos.card_info(ci)

    def attack_of(self, where):
        """Current attack of the card at `where` ("p0.garden[1]", "p1.leader")."""
        self._ck()
        return azk_card_attack(self.g, self.cs, self.locate(where))

    def health_of(self, where):
        """Current maximum health of the card at `where`."""
        self._ck()
        return azk_card_health(self.g, self.cs, self.locate(where))

    def statuses_of(self, where):
        """Sorted status names of the card at `where`."""
        self._ck()
        return sorted(status_names(azk_card_statuses(self.g, self.cs, self.locate(where))))

    def cost_of(self, where):
        """What the card at `where` ("p0.hand[2]") costs to play now: its
        printed cost plus the cost modifiers on the field, at least 0
        (docs/rules.md §18.4); the printed cost outside a hand."""
        self._ck()
        return azk_card_cost(self.g, self.cs, self.locate(where))

    # ---- prompt --------------------------------------------------------------
    def prompt(self):
        """None, or the pending choice: kind, chooser, optional, source and the
        options (each with its CHOOSE action id and what it names). CARD,
        BOTTOM_ORDER, SEARCH, TOP_ORDER, SLOT and HOLDER options carry a
        location `where`."""
        self._ck()
        if azk_phase(self.g) != S.PHASE_PROMPT:
            return None
        return self._position().prompt(_choose_action, _NO_OP)

    # ---- services ------------------------------------------------------------
    def clone(self):
        self._ck()
        cdef Game o = self._blank()
        azk_game_clone(o.g, self.g)
        return o

    def state_hash(self):
        self._ck()
        return int(azk_hash(self.g))

    def to_bytes(self):
        self._ck()
        cdef size_t cap = azk_serialized_size()
        buf = bytearray(cap)
        cdef unsigned char[::1] v = buf
        cdef size_t n = azk_serialize(self.g, self.cs, &v[0], cap)
        if n == 0:
            raise AzukiError("serialization failed")
        return bytes(buf[:n])

    @staticmethod
    def from_bytes(data, cards=None, decks=None):
        """Rebuild a game from to_bytes() output (the engine's own format,
        unchanged). `cards` must be the card set the bytes were made with.
        The deck names are not part of the bytes: give them as `decks`, or
        they are recovered from the position (each player's leader, gate,
        IKZ and main-deck composition matched against the card set's
        decklists - exact for every game built by Game(); see
        docs/python_api.md). Raises StateError, TypeError, ValueError."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"state bytes must be bytes-like, got {type(data).__name__}")
        b = bytes(data)
        cdef CardSet cs = _resolve_cards(cards)
        if decks is not None:
            d0, d1 = _deck_pair(cs, decks)
        cdef Game o = Game.__new__(Game)
        cdef const unsigned char *p = b
        cdef azk_status st = azk_deserialize(o.g, cs.cs, p if len(b) else NULL, len(b))
        if st != AZK_OK:
            reason = {AZK_ERR_CARDSET: "the bytes belong to another card set",
                      AZK_ERR_CORRUPT: "corrupt, truncated or wrong-version state bytes"}.get(st, azk_status_name(st).decode())
            raise StateError(f"cannot load state ({len(b)} bytes): {reason}")
        o.cards = cs
        o.cs = cs.cs
        o.decks = (cs.decks[d0], cs.decks[d1]) if decks is not None else o._recover_decks()
        return o

    def _recover_decks(self):
        """Deck names from the position (azuki.state.Position.recover_decks)."""
        self._ck()
        return self._position().recover_decks()

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
        cdef int cap = 16384
        cdef int n = 0
        cdef char *p
        while True:   # azk_render stops at cap - 1 characters: a full buffer means "grow and retry"
            buf = bytearray(cap)
            p = buf
            n = azk_render(self.g, self.cs, p, cap)
            if n < cap - 1 or cap >= (1 << 22):
                return bytes(buf[:n]).decode("utf-8", "replace")
            cap *= 4

    def check_invariants(self):
        """0 when the engine's invariant checker accepts the state, else the
        negative code of the first invariant violated (azuki.INVARIANTS,
        azuki.invariant_text(code))."""
        self._ck()
        return azk_check_invariants(self.g, self.cs)

    def __repr__(self):
        if self.cs == NULL:
            return "<azuki.Game (not initialised)>"
        return f"<azuki.Game turn {self.turn} {self.phase} to act P{self.current_player} {self.result}>"

    # ---- state_dict / from_setup ------------------------------------------------
    def state_dict(self):
        """The whole position as plain JSON-able data (docs/state_format.md)."""
        self._ck()
        pos = self._position()
        return pos.state_dict(self.decks, azk_hash(self.g), pos.prompt(_choose_action, _NO_OP))

    @staticmethod
    def from_setup(d, cards=None, seed=None):
        """Build a position at the start of `active`'s main phase from a dict in
        state_dict() form (missing parts get defaults; docs/state_format.md).
        Raises ValueError on anything that cannot be a legal position."""
        from ._setup import build_setup, pack_plan
        if not isinstance(d, dict):
            raise ValueError(f"setup must be a dict, got {type(d).__name__}")
        cdef CardSet cs = _resolve_cards(cards if cards is not None else d.get("cards"))
        cdef uint64_t s = 0
        if seed is not None:
            s = _seed(seed)
        plan = build_setup(d, cs)
        if seed is None:
            s = plan["seed"]
        words = np.array(pack_plan(plan, PLAN_LAYOUT), dtype=np.int32)
        cdef Game o = Game.__new__(Game)
        if azk_game_init(o.g, cs.cs, s, plan["deck_index"][0], plan["deck_index"][1]) != AZK_OK:
            raise ValueError("could not initialise the game")
        o._setup(cs, words)
        o.decks = tuple(plan["decks"])
        return o

    cdef _setup(self, CardSet cs, object words):
        """azk_game_setup with a flat plan (validated again, completely, in C)."""
        cdef int32_t[::1] w = words
        cdef int detail = 0
        cdef azk_status st = azk_game_setup(self.g, cs.cs, &w[0], <size_t>w.shape[0], &detail)
        if st != AZK_OK:
            if detail < 0:
                raise ValueError(f"setup does not describe a valid position ({invariant_text(detail)})")
            fx = detail - PLAN_LAYOUT.FX_STATUS
            if 0 <= fx < PLAN_LAYOUT.count("FX_STATUS") and words[PLAN_LAYOUT.FX_KIND + fx] == 1:
                raise ValueError(f"effects[{fx}].statuses: {', '.join(status_names(words[detail]))}: stealth, "
                                 f"lifesteal and poisonous work only in card sets where some card has or gives "
                                 f"them, and no card of this set does")
            raise ValueError(f"setup plan rejected at word {detail} ({_plan_word_name(detail)})")
        self.cards = cs
        self.cs = cs.cs


cdef str _plan_word_name(int k):
    for name, (off, cnt) in PLAN_LAYOUT.fields.items():
        if off <= k < off + cnt:
            return name if cnt == 1 else f"{name}[{k - off}]"
    return "?"


def _restore_game(cards, decks, state):
    """Unpickle a Game (see Game.__reduce__)."""
    return Game.from_bytes(state, cards=cards, decks=decks)


# ---------------------------------------------------------------------------
# Simulation (the main job): uniform-random legal players, C speed
# ---------------------------------------------------------------------------
# Games per GIL-free stretch of simulate(): signals (Ctrl-C) are checked
# between stretches whatever `chunk` is.
SIM_SIGNAL_GAMES = 64


def simulate(games, seed=0, decks=("STT01", "STT02"), cards=None, turn_cap=200, progress=None, chunk=500,
             decision_cap=10000, players=None, pbots=None):
    """Play `games` games between two uniform-random legal players. Game i uses
    engine seed `seed + i` (mod 2**64); the players draw from a separate pcg32
    stream. Returns a dict of results; `progress(done, games)` is called after
    every `chunk` games. Ctrl-C (KeyboardInterrupt) stops it within a few
    games, progress callback or not. `end_reasons` counts how the games
    ended (azuki.END_REASONS; docs/rules.md §13).

    `players`: None (the uniform-random players above), or two built-in bot
    names (azuki.BOT_KINDS, docs/bots.md), e.g. ("greedy", "random"):
    players[k] plays decks[k] (a "side"); sides alternate seats like the
    decks, and side k's bot draws from its own stream seeded with
    azuki.bot_seed_for(seed, k). The result then also has `players` and
    `wins_by_side`. Played in C without the GIL. `pbots`: None, or per side
    None or a policy bot (CPolicy, kind, settings) (pbot_act) that plays that
    side instead; its players entry is then only the label (e.g. the spec).
    """
    cdef int kinds[2]
    cdef uint64_t brng[4]
    cdef uint64_t seat_rng[4]
    cdef int seat_kinds[2]
    cdef bint use_bots = players is not None
    cdef bint any_pbot = False
    cdef azk_pbot_params sbp[2]
    cdef const azk_policy *sbpol[2]
    cdef void *sbw[2]
    cdef size_t sbwl[2]
    cdef int q2, act2, side
    sbw[0] = sbw[1] = NULL
    labels = None
    if use_bots:
        pb = list(pbots) if pbots is not None else [None, None]
        if isinstance(players, str) or not hasattr(players, "__len__") or len(players) != 2 or len(pb) != 2:
            raise ValueError(f"players must be two bot names, got {excerpt(players)}")
        pk = [0, 0]
        for sk in range(2):
            if pb[sk] is None:
                pk[sk] = bot_kind(players[sk])
                continue
            pol, pkind, psettings = pb[sk]
            if not isinstance(pol, CPolicy):
                raise TypeError(f"simulate: a policy bot needs a CPolicy, got {type(pol).__name__}")
            sbp[sk] = _pbot_params(pkind, psettings)
            sbpol[sk] = (<CPolicy>pol).p
            sbwl[sk] = azk_pbot_work_size(sbpol[sk], &sbp[sk])
            pk[sk] = -1 - sk
            any_pbot = True
        labels = (str(players[0]), str(players[1]))
        kinds[0] = pk[0]
        kinds[1] = pk[1]
        azk_bot_seed(&brng[0], bot_seed_for(seed, 0))
        azk_bot_seed(&brng[2], bot_seed_for(seed, 1))
    cdef long ngames = _int_in(games, "games", 0, 2**62)
    cdef uint64_t seed_ = _seed(seed)
    cdef CardSet cs = _resolve_cards(cards)
    dd = _deck_pair(cs, decks)
    cdef int d0 = dd[0], d1 = dd[1]
    cdef int tcap = _turn_cap(turn_cap)
    cdef int dcap = _decision_cap(decision_cap)
    cdef long reasons[32]
    memset(reasons, 0, sizeof(reasons))
    assert len(END_REASONS) <= 32
    cdef long chunk_ = _int_in(chunk, "chunk", 1, 2**62)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, got {type(progress).__name__}")
    cdef azk_game *g = <azk_game *>PyMem_Malloc(azk_game_size())
    cdef int32_t *legal = <int32_t *>PyMem_Malloc(sizeof(int32_t) * NUM_ACTIONS)
    if g == NULL or legal == NULL:
        PyMem_Free(g)
        PyMem_Free(legal)
        raise MemoryError()
    cdef azk_rng pick
    azk_rng_seed(&pick, seed_, <uint64_t>S.CAPS["AZK_SIM_RNG_STREAM"])
    cdef long by_seat[2]
    cdef long by_deck[2]
    cdef long first_wins = 0
    cdef long results[5]
    cdef long long decisions = 0, turns = 0
    cdef long i, start = 0, end, errors = 0, next_report
    cdef int n, r, w, swap, k, na = NUM_ACTIONS
    memset(by_seat, 0, sizeof(by_seat))
    memset(by_deck, 0, sizeof(by_deck))
    memset(results, 0, sizeof(results))
    next_report = min(ngames, chunk_)
    if any_pbot:
        for k in range(2):
            if kinds[k] < 0:
                sbw[k] = PyMem_Malloc(sbwl[k])
                if sbw[k] == NULL:
                    PyMem_Free(sbw[0])
                    PyMem_Free(g)
                    PyMem_Free(legal)
                    raise MemoryError()
    t0 = time.perf_counter()
    try:
        while start < ngames:
            end = min(next_report, start + SIM_SIGNAL_GAMES)
            with nogil:
                for i in range(start, end):
                    swap = <int>(i & 1)   # alternate seats so deck and seat effects separate
                    azk_game_init(g, cs.cs, seed_ + <uint64_t>i, d1 if swap else d0, d0 if swap else d1)
                    azk_game_set_turn_cap(g, tcap)
                    azk_game_set_decision_cap(g, dcap)
                    if use_bots:
                        for k in range(2):   # seat k is played by side k ^ swap
                            seat_kinds[k] = kinds[k ^ swap]
                            seat_rng[2 * k] = brng[2 * (k ^ swap)]
                            seat_rng[2 * k + 1] = brng[2 * (k ^ swap) + 1]
                        if not any_pbot:
                            n = azk_bot_play_game(g, cs.cs, seat_kinds, seat_rng)
                        else:   # a policy bot plays a side: the decisions one by one
                            n = 0
                            while not azk_is_terminal(g):
                                q2 = azk_current_player(g)
                                if seat_kinds[q2] < 0:
                                    side = -1 - seat_kinds[q2]
                                    act2 = azk_pbot_act(g, cs.cs, sbpol[side], &sbp[side], &seat_rng[2 * q2],
                                                        sbw[side], sbwl[side])
                                else:
                                    act2 = azk_bot_act(g, cs.cs, seat_kinds[q2], &seat_rng[2 * q2])
                                if act2 < 0 or azk_step(g, cs.cs, act2) != AZK_OK:
                                    n = -1
                                    break
                                n += 1
                        for k in range(2):
                            brng[2 * (k ^ swap)] = seat_rng[2 * k]
                            brng[2 * (k ^ swap) + 1] = seat_rng[2 * k + 1]
                        if n < 0:
                            errors += 1
                        else:
                            decisions += n
                    while not use_bots and not azk_is_terminal(g):
                        n = azk_legal_actions(g, cs.cs, legal, na)
                        if n <= 0:
                            errors += 1
                            break
                        if azk_step(g, cs.cs, legal[azk_rng_bounded(&pick, <uint32_t>n)]) != AZK_OK:
                            errors += 1
                            break
                        decisions += 1
                    r = azk_result(g)
                    if 0 <= r < 5:
                        results[r] += 1
                        reasons[azk_end_reason(g)] += 1
                    turns += azk_turn(g)
                    w = azk_winner(g)
                    if w >= 0:
                        by_seat[w] += 1
                        by_deck[w ^ swap] += 1
                        if w == azk_first_player(g):
                            first_wins += 1
            start = end
            PyErr_CheckSignals()   # raises KeyboardInterrupt & co.
            if start == next_report:
                if progress is not None:
                    progress(start, ngames)
                next_report = min(ngames, next_report + chunk_)
    finally:
        PyMem_Free(g)
        PyMem_Free(legal)
        PyMem_Free(sbw[0])
        PyMem_Free(sbw[1])
    dt = time.perf_counter() - t0
    games = ngames
    extra = {}
    if use_bots:
        extra = {"players": labels, "wins_by_side": [by_deck[0], by_deck[1]]}
    return extra | {"games": games, "decks": (cs.decks[d0], cs.decks[d1]),
            "wins_by_deck": {cs.decks[d0]: by_deck[0], cs.decks[d1]: by_deck[1]} if d0 != d1 else None,
            "wins_by_seat": [by_seat[0], by_seat[1]], "wins_first_player": first_wins,
            "mirror": d0 == d1, "draws": results[3], "truncated": results[4],
            "end_reasons": {END_REASONS[k]: reasons[k] for k in range(1, len(END_REASONS)) if reasons[k]},
            "errors": errors, "decisions": decisions, "turns": turns, "seconds": dt,
            "decisions_per_game": <double>decisions / games if games else 0.0,
            "turns_per_game": <double>turns / games if games else 0.0,
            "games_per_second": games / dt if dt > 0 else 0.0,
            "decisions_per_second": decisions / dt if dt > 0 else 0.0}


# ---------------------------------------------------------------------------
# Micro-benchmarks for `python -m azuki bench` (azuki/bench.py): C loops over
# the public API without the GIL, so Python's call overhead is not measured.
# ---------------------------------------------------------------------------
cdef extern from "time.h" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk, timespec *ts)
    enum: CLOCK_MONOTONIC


cdef inline double _now() nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return <double>t.tv_sec + 1e-9 * <double>t.tv_nsec


def _bench_search(decisions=40, sims=None, seed=1):
    """The search bot's speed (`python -m azuki bench`): positions from greedy
    self-play (every third decision with two or more legal actions outside
    the mulligan) get one search decision each, timed in C without the GIL.
    Returns simulations/s, ms per decision, decisions and sims."""
    cdef azk_search_params sp = _search_params(sims)
    cdef int ndec = _int_in(decisions, "decisions", 1, 1 << 30)
    cdef uint64_t s0 = _seed(seed)
    cdef azk_game *g = <azk_game *>PyMem_Malloc(azk_game_size())
    cdef int32_t *legal = <int32_t *>PyMem_Malloc(sizeof(int32_t) * NUM_ACTIONS)
    if g == NULL or legal == NULL:
        PyMem_Free(g)
        PyMem_Free(legal)
        raise MemoryError()
    cdef uint64_t grng[2]
    cdef uint64_t srng[2]
    cdef int done = 0, k = 0, a, n, na = NUM_ACTIONS
    cdef uint64_t gi = 0
    cdef double spent = 0.0, t0
    cdef long sink = 0
    azk_bot_seed(grng, s0)
    azk_bot_seed(srng, s0 + 1)
    try:
        with nogil:
            while done < ndec:
                azk_game_init(g, azk_default_cardset(), s0 + gi, <int>(gi & 1), <int>((gi >> 1) & 1))
                gi += 1
                while not azk_is_terminal(g) and done < ndec:
                    n = azk_legal_actions(g, azk_default_cardset(), legal, na)
                    if n >= 2 and azk_phase(g) != 0:
                        k += 1
                        if k % 3 == 0:
                            t0 = _now()
                            a = azk_bot_act_search(g, azk_default_cardset(), srng, &sp)
                            spent += _now() - t0
                            sink += a
                            done += 1
                    a = azk_bot_act(g, azk_default_cardset(), AZK_BOT_GREEDY, grng)
                    azk_step(g, azk_default_cardset(), a)
    finally:
        PyMem_Free(g)
        PyMem_Free(legal)
    return {"sims_per_s": done * sp.sims / spent if spent > 0 else 0.0,
            "ms_per_decision": 1e3 * spent / done if done else 0.0,
            "decisions": done, "sims": sp.sims, "_sink": sink & 1}


def _bench_micro(reps=200000, seed=1):
    """ns per call of reset (azk_game_init), clone, hash, serialize,
    deserialize, the flat mask and the legal list, on a mid-game position;
    a calibration loop (ns per iteration of a fixed integer recurrence) to
    normalize rates across machines; and memcpy bandwidth (bytes/s)."""
    cdef long n = _int_in(reps, "reps", 1, 10**9)
    cdef const azk_cardset *cs = azk_default_cardset()
    cdef size_t gsz = azk_game_size(), ssz = azk_serialized_size()
    cdef azk_game *g = <azk_game *>PyMem_Malloc(gsz)
    cdef azk_game *c = <azk_game *>PyMem_Malloc(gsz)
    cdef uint8_t *buf = <uint8_t *>PyMem_Malloc(ssz)
    cdef uint8_t *mask = <uint8_t *>PyMem_Malloc(NUM_ACTIONS)
    cdef int32_t *legal = <int32_t *>PyMem_Malloc(sizeof(int32_t) * NUM_ACTIONS)
    cdef size_t big = 64 << 20
    cdef uint8_t *src = <uint8_t *>PyMem_Malloc(big)
    cdef uint8_t *dst = <uint8_t *>PyMem_Malloc(big)
    if not (g and c and buf and mask and legal and src and dst):
        for p in (<size_t>g, <size_t>c, <size_t>buf, <size_t>mask, <size_t>legal, <size_t>src, <size_t>dst):
            PyMem_Free(<void *>p)
        raise MemoryError()
    cdef int na = NUM_ACTIONS
    cdef uint64_t sink = 0, x = 0x9E3779B97F4A7C15ULL, s_ = _seed(seed)
    cdef long i
    cdef int k, m
    cdef double t0, cal, reset, clone, hsh, ser, des, msk, lst, bw, obsu
    cdef azk_rng pick
    try:
        with nogil:
            t0 = _now()
            for i in range(n):
                x = x * 6364136223846793005ULL + 1442695040888963407ULL
                sink += x >> 60
            cal = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n):
                azk_game_init(g, cs, s_ + <uint64_t>i, <int>(i & 1), <int>((i >> 1) & 1))
            reset = (_now() - t0) / n * 1e9
            azk_rng_seed(&pick, s_, 7)
            for k in range(40):   # a mid-game position
                if azk_is_terminal(g):
                    break
                m = azk_legal_actions(g, cs, legal, na)
                azk_step(g, cs, legal[azk_rng_bounded(&pick, <uint32_t>m)])
            t0 = _now()
            for i in range(n):
                azk_game_clone(c, g)
                sink += <uint64_t>azk_turn(c)
            clone = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n):
                sink += azk_hash(g)
            hsh = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n):
                sink += azk_serialize(g, cs, buf, ssz)
            ser = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n // 10 + 1):
                sink += <uint64_t>azk_deserialize(c, cs, buf, ssz)
            des = (_now() - t0) / (n // 10 + 1) * 1e9
            t0 = _now()
            for i in range(n):
                sink += <uint64_t>azk_legal_mask(g, cs, mask)
            msk = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n):
                sink += <uint64_t>azk_legal_actions(g, cs, legal, na)
            lst = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n // 10 + 1):
                sink += <uint64_t>azk_observe(g, cs, <int>(i & 1), src)
            obsu = (_now() - t0) / (n // 10 + 1) * 1e9
            memset(src, 1, big)
            memset(dst, 0, big)
            t0 = _now()
            for k in range(8):
                memcpy(dst, src, big)
                sink += dst[k * 4096]
            bw = 8.0 * big / (_now() - t0)
    finally:
        for p in (<size_t>g, <size_t>c, <size_t>buf, <size_t>mask, <size_t>legal, <size_t>src, <size_t>dst):
            PyMem_Free(<void *>p)
    return {"calibration_ns": cal, "reset_ns": reset, "clone_ns": clone, "hash_ns": hsh,
            "serialize_ns": ser, "deserialize_ns": des, "mask_ns": msk, "legal_list_ns": lst,
            "observe_ns": obsu, "obs_bytes": OBS_LEN,
            "memcpy_bytes_per_s": bw, "state_bytes": gsz, "serialized_bytes": ssz, "_sink": sink & 1}


# ---------------------------------------------------------------------------
# Built-in bots (csrc/bot.c, docs/bots.md; the Python objects: azuki.bots)
# ---------------------------------------------------------------------------
BOT_KINDS = tuple(azk_bot_name(k).decode() for k in range(azk_bot_num_kinds()))
BOT_VERSIONS = {BOT_KINDS[k]: azk_bot_version(k) for k in range(azk_bot_num_kinds())}
GREEDY_VERSION = AZK_BOT_GREEDY_VERSION
SEARCH_VERSION = AZK_BOT_SEARCH_VERSION
SEARCH_SIMS = AZK_BOT_SEARCH_SIMS            # the search bot's default simulations per decision
SEARCH_MAX_SIMS = AZK_BOT_SEARCH_MAX_SIMS


# The policy bots (azuki.h "Policy bots"): a loaded CPolicy plays alone ("policy") or guides a PUCT
# information-set search ("psearch"). Settings are a dict (pbot_defaults(kind) lists them).
PBOT_KINDS = tuple(azk_pbot_name(k).decode() for k in (AZK_PBOT_POLICY, AZK_PBOT_PSEARCH))
PBOT_VERSIONS = {PBOT_KINDS[k]: azk_pbot_version(k) for k in range(2)}
PSEARCH_MAX_SIMS = AZK_PSEARCH_MAX_SIMS
_PBOT_SETTINGS = {"policy": ("temp",), "psearch": ("sims", "cpuct", "prior_temp", "value")}


def pbot_defaults(kind):
    """The default settings of policy bot `kind` ("policy" or "psearch") as a dict: policy: temp (0:
    the most likely legal action, else sample softmax(log p / temp)); psearch: sims, cpuct,
    prior_temp, value (the value head's share of a leaf's score; the rest a greedy playout)."""
    cdef azk_pbot_params p
    k = _pbot_kind(kind)
    azk_pbot_defaults(&p, k)
    full = {"temp": p.temp_milli / 1000, "sims": p.sims, "cpuct": p.cpuct_milli / 1000,
            "prior_temp": p.prior_temp_milli / 1000, "value": p.value_milli / 1000}
    return {n: full[n] for n in _PBOT_SETTINGS[kind]}


cdef int _pbot_kind(object kind) except -1:
    if isinstance(kind, str) and kind in PBOT_KINDS:
        return PBOT_KINDS.index(kind)
    raise ValueError(f"unknown policy bot {excerpt(kind)}: expected one of {', '.join(PBOT_KINDS)}")


cdef int _milli(object v, str what, double lo, double hi) except? -1:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo <= v <= hi):
        raise ValueError(f"{what} must be a number in [{lo:g}, {hi:g}], got {excerpt(v)}")
    return <int>round(v * 1000)


cdef azk_pbot_params _pbot_params(object kind, object settings) except *:
    """The C settings for policy bot `kind` with `settings` (a dict; missing keys: the defaults)."""
    cdef azk_pbot_params p
    cdef int k = _pbot_kind(kind)
    azk_pbot_defaults(&p, k)
    settings = dict(settings or {})
    for name in settings:
        if name not in _PBOT_SETTINGS[kind]:
            raise ValueError(f"{kind}: unknown setting {excerpt(name)} (settings: {', '.join(_PBOT_SETTINGS[kind])})")
    if "temp" in settings:
        p.temp_milli = _milli(settings["temp"], "temp", 0, 1000)
    if "sims" in settings:
        p.sims = _int_in(settings["sims"], "sims", 1, AZK_PSEARCH_MAX_SIMS)
    if "cpuct" in settings:
        p.cpuct_milli = _milli(settings["cpuct"], "cpuct", 0, 1000)
    if "prior_temp" in settings:
        p.prior_temp_milli = _milli(settings["prior_temp"], "prior_temp", 0.001, 1000)
    if "value" in settings:
        p.value_milli = _milli(settings["value"], "value", 0, 1)
    return p


def _check_pbot_settings(kind, settings):
    """ValueError (one line) for an unknown policy bot kind or a bad setting."""
    _pbot_params(kind, settings)


def pbot_act(Game game, CPolicy policy, kind, rng, settings=None, control=None):
    """The action policy bot `kind` ("policy" / "psearch") takes in `game` with the C policy `policy`
    and `settings` (pbot_defaults); `rng` (from bot_rng) is advanced in place; `control` (psearch): a
    SearchControl another thread may stop the search with. The game is not modified. ValueError for
    a policy that cannot read this card set's observations."""
    if game is None or policy is None:
        raise TypeError("pbot_act needs an azuki.Game and a CPolicy")
    game._ck()
    cdef azk_pbot_params p = _pbot_params(kind, settings)
    if not isinstance(rng, np.ndarray) or rng.dtype != np.uint64 or rng.shape != (2,) \
            or not rng.flags.c_contiguous or not rng.flags.writeable:
        raise TypeError("rng must be a writeable numpy uint64 array of shape (2,) (azuki._core.bot_rng)")
    if control is not None and not isinstance(control, SearchControl):
        raise TypeError(f"control must be an azuki._core.SearchControl, got {type(control).__name__}")
    if control is not None:
        p.ctl = &(<SearchControl>control).c
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    cdef uint64_t[::1] v = rng
    cdef int a
    with nogil:
        a = azk_pbot_act(game.g, game.cs, policy.p, &p, &v[0], NULL, 0)
    if a == -<int>AZK_ERR_CARDSET:
        raise ValueError(f"{kind}: the policy cannot read this card set's observations (a card outside its "
                         f"card table)")
    if a < 0:
        raise AzukiError(f"azk_pbot_act failed: {azk_status_name(<azk_status>(-a)).decode()}")
    return a


cdef azk_search_params _search_params(object sims) except *:
    """The search settings for `sims` simulations per decision (None: default)."""
    cdef azk_search_params p
    azk_search_defaults(&p)
    if sims is not None:
        p.sims = _int_in(sims, "sims", 1, AZK_BOT_SEARCH_MAX_SIMS)
    return p
_MASK64 = (1 << 64) - 1


def bot_kind(name):
    """The kind number of a bot name (azuki.BOT_KINDS); ValueError otherwise."""
    if isinstance(name, str) and name in BOT_KINDS:
        return BOT_KINDS.index(name)
    if isinstance(name, str):
        raise ValueError(f"unknown bot {excerpt(name)}: expected one of {', '.join(BOT_KINDS)}")
    raise TypeError(f"a bot is named by a string ({', '.join(BOT_KINDS)}), got {type(name).__name__}")


cdef object _bot_kinds(object players):
    if isinstance(players, str) or not hasattr(players, "__len__") or len(players) != 2:
        raise ValueError(f"players must be two bot names, got {excerpt(players)}")
    return (bot_kind(players[0]), bot_kind(players[1]))


def splitmix64(x):
    """splitmix64 of a 64-bit value (azuki.h azk_splitmix64: the project's one
    seed mixer; the bots, eval, arena and the envs' streams derive from it)."""
    return azk_splitmix64(<uint64_t>_seed(x, "x"))


def bot_seed_for(seed, k):
    """The bot seed of side/seat k derived from a run's seed (azk_bot_seed_for:
    splitmix64, defined once in C)."""
    return azk_bot_seed_for(<uint64_t>_seed(seed), <uint64_t>_int_in(k, "k", 0, 2**64 - 1))


def deal_schedule(episode, seed=0, npairs=1, paired=False):
    """Episode `episode` of a VecGame (or game `episode` of a paired
    evaluation) as the C schedule defines it (azuki.h azk_deal_schedule, the
    one definition VecGame plays): a dict with deal (the deal index),
    engine_seed (seed + deal), pairing (index into the pairings list),
    swapped (the pairing's decks trade seats), agent_seat and bot_seed (the
    stream a VecGame's bot draws from in that episode)."""
    cdef azk_deal d
    cdef azk_status st = azk_deal_schedule(<uint64_t>_seed(seed), <uint64_t>_int_in(episode, "episode", 0, 2**64 - 1),
                                           <int>_int_in(npairs, "npairs", 1, AZK_VEC_MAX_PAIRS), 1 if paired else 0,
                                           &d)
    if st != AZK_OK:
        raise ValueError(f"deal_schedule: bad arguments ({azk_status_name(st).decode()})")
    return {"deal": d.deal, "engine_seed": d.engine_seed, "pairing": d.pairing, "swapped": bool(d.swapped),
            "agent_seat": d.agent_seat, "bot_seed": d.bot_seed}


def arena_deal(game, seed=0, npairs=1):
    """Game `game` of an arena run as C defines it (azuki.h azk_arena_deal):
    a dict as deal_schedule's, agent_seat being player A's seat (each
    player keeps its deck), bot_seed the game's base bot seed (seat s's bot:
    bot_seed_for(bot_seed, s))."""
    cdef azk_deal d
    if _int_in(npairs, "npairs", 1, 2**31 - 1) < 1:
        raise ValueError("npairs must be >= 1")
    azk_arena_deal(<uint64_t>_seed(seed), <uint64_t>_int_in(game, "game", 0, 2**64 - 1), <int>npairs, &d)
    return {"deal": d.deal, "engine_seed": d.engine_seed, "pairing": d.pairing, "swapped": bool(d.swapped),
            "agent_seat": d.agent_seat, "bot_seed": d.bot_seed}


def bot_rng(seed):
    """A bot's pcg32 state for `seed`: a numpy uint64 array [state, inc]."""
    out = np.zeros(2, dtype=np.uint64)
    cdef uint64_t[::1] v = out
    azk_bot_seed(&v[0], _seed(seed))
    return out


cdef class SearchControl:
    """A stop flag for the search bot (azk_search_ctl), for bot_act(...,
    control=): `cancel()` from any thread while a search runs stops it before
    its next simulation, and it plays the best action found so far (the
    first legal one if no simulation ran); `sims_run` is the number of
    simulations the last decision ran. The flag stays set until `reset()`."""
    cdef azk_search_ctl c

    def cancel(self):
        azk_search_cancel(&self.c)

    def reset(self):
        azk_search_reset(&self.c)

    @property
    def cancelled(self):
        return azk_search_cancelled(&self.c) != 0

    @property
    def sims_run(self):
        return self.c.sims_run


def bot_act(Game game, kind, rng, sims=None, control=None):
    """The action built-in bot `kind` (an index in BOT_KINDS) takes in `game`;
    `rng` (from bot_rng) is advanced in place. The game is not modified.
    `sims`: the search bot's simulations per decision (None: SEARCH_SIMS).
    `control`: a SearchControl through which another thread may stop the
    search (the search bot only; None: it runs its sims)."""
    if game is None:
        raise TypeError("bot_act needs an azuki.Game, got None")
    game._ck()
    cdef int k = _int_in(kind, "kind", 0, azk_bot_num_kinds() - 1)
    if not isinstance(rng, np.ndarray) or rng.dtype != np.uint64 or rng.shape != (2,) \
            or not rng.flags.c_contiguous or not rng.flags.writeable:
        raise TypeError("rng must be a writeable numpy uint64 array of shape (2,) (azuki._core.bot_rng)")
    if control is not None and not isinstance(control, SearchControl):
        raise TypeError(f"control must be an azuki._core.SearchControl, got {type(control).__name__}")
    cdef uint64_t[::1] v = rng
    cdef int a
    cdef azk_search_params sp = _search_params(sims)
    if control is not None:
        sp.ctl = &(<SearchControl>control).c
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    with nogil:
        if k == AZK_BOT_SEARCH:
            a = azk_bot_act_search(game.g, game.cs, &v[0], &sp)
        else:
            a = azk_bot_act(game.g, game.cs, k, &v[0])
    if a < 0:
        raise AzukiError(f"azk_bot_act failed: {azk_status_name(<azk_status>(-a)).decode()}")
    return a


cdef float[::1] _visits_out(object visits) except *:
    """The caller's visit-share array for a search label: float32, shape (NUM_ACTIONS,), contiguous, writeable."""
    if not isinstance(visits, np.ndarray):
        raise TypeError(f"visits must be a numpy float32 array of shape ({NUM_ACTIONS},), got {type(visits).__name__}")
    if visits.dtype != np.float32 or visits.shape != (NUM_ACTIONS,) or not visits.flags.c_contiguous \
            or not visits.flags.writeable:
        raise ValueError(f"visits must be a writeable contiguous float32 array of shape ({NUM_ACTIONS},), got "
                         f"{visits.dtype} {visits.shape}{'' if visits.flags.writeable else ' read-only'}")
    return visits


cdef int _rng_ok(object rng) except -1:
    if not isinstance(rng, np.ndarray) or rng.dtype != np.uint64 or rng.shape != (2,) \
            or not rng.flags.c_contiguous or not rng.flags.writeable:
        raise TypeError("rng must be a writeable numpy uint64 array of shape (2,) (azuki._core.bot_rng)")
    return 0


def search_label(Game game, rng, visits, sims=None):
    """The search bot's decision in `game` with its labels (azk_bot_search_label; training from search,
    docs/training.md "Expert iteration"): returns (action, value), the action bot_act(game, "search",
    rng, sims) takes (rng advanced the same), and fills `visits` (float32 [NUM_ACTIONS]) with each root
    action's share of the simulations (1 on the action when none ran: one legal action, a mulligan);
    value: the mean simulation result for the player to act in [0, 1], -1.0 when no simulation ran.
    Runs without the GIL (threads label in parallel). Bad arguments change nothing."""
    if game is None:
        raise TypeError("search_label needs an azuki.Game, got None")
    game._ck()
    _rng_ok(rng)
    cdef float[::1] vv = _visits_out(visits)
    cdef azk_search_params sp = _search_params(sims)
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    cdef uint64_t[::1] v = rng
    cdef float value = -1.0
    cdef int a
    with nogil:
        a = azk_bot_search_label(game.g, game.cs, &v[0], &sp, &vv[0], <int>vv.shape[0], &value)
    if a < 0:
        raise AzukiError(f"azk_bot_search_label failed: {azk_status_name(<azk_status>(-a)).decode()}")
    return a, float(value)


def pbot_label(Game game, CPolicy policy, rng, visits, settings=None):
    """psearch's decision in `game` with the C policy `policy` and `settings` (pbot_defaults("psearch")),
    with its labels, as search_label: (action, value), visits filled. Runs without the GIL."""
    if game is None or policy is None:
        raise TypeError("pbot_label needs an azuki.Game and a CPolicy")
    game._ck()
    _rng_ok(rng)
    cdef float[::1] vv = _visits_out(visits)
    cdef azk_pbot_params p = _pbot_params("psearch", settings)
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    cdef uint64_t[::1] v = rng
    cdef float value = -1.0
    cdef int a
    with nogil:
        a = azk_pbot_label(game.g, game.cs, policy.p, &p, &v[0], NULL, 0, &vv[0], <int>vv.shape[0], &value)
    if a == -<int>AZK_ERR_CARDSET:
        raise ValueError("psearch: the policy cannot read this card set's observations (a card outside its card table)")
    if a < 0:
        raise AzukiError(f"azk_pbot_label failed: {azk_status_name(<azk_status>(-a)).decode()}")
    return a, float(value)


def play_games(seeds, deck0, deck1, kind0, kind1, bseed0, bseed1, cards=None, turn_cap=200, decision_cap=10000,
               sims=None, pbots=()):
    """Play one game per row of the equal-length integer arrays: engine seed,
    the deck indices of seats 0 and 1, their bot kinds and bot seeds; in C,
    without the GIL. Returns a dict of numpy arrays: result (azk result
    number), winner (-1 none), first_player, end_reason, turns, decisions,
    error (1 where the engine refused a bot's action: a bug), seat0/1_seconds
    and seat0/1_decisions (time in each seat's bot and its decisions), and
    seconds. `sims`: the search bot's simulations per decision (None: SEARCH_SIMS).
    `pbots`: policy bots, a sequence of (CPolicy, kind, settings) (pbot_act); kind -1 - j in a kind
    column plays pbots[j] (its workspace allocated once here, not per decision).
    Several threads may call it at once (each game is independent)."""
    cdef CardSet cs = _resolve_cards(cards)
    cdef azk_search_params sp = _search_params(sims)
    cdef int tcap = _turn_cap(turn_cap)
    cdef int dcap = _decision_cap(decision_cap)
    cols = [np.ascontiguousarray(np.asarray(a, dtype=np.uint64)) for a in (seeds, bseed0, bseed1)]
    ints = [np.ascontiguousarray(np.asarray(a, dtype=np.int32)) for a in (deck0, deck1, kind0, kind1)]
    cdef Py_ssize_t n = cols[0].shape[0], i
    for a in cols + ints:
        if a.ndim != 1 or a.shape[0] != n:
            raise ValueError("play_games: every column must be a 1-d array of the same length")
    ndecks = len(cs.decks)
    for a in ints[:2]:
        if n and (a.min() < 0 or a.max() >= ndecks):
            raise ValueError(f"play_games: deck index out of range [0, {ndecks})")
    pbots = list(pbots)
    if len(pbots) > 2:
        raise ValueError("play_games: at most two policy bots")
    cdef azk_pbot_params pbp[2]
    cdef const azk_policy *pbpol[2]
    cdef void *pbw[2]
    cdef size_t pbwl[2]
    pbw[0] = pbw[1] = NULL
    for j, spec in enumerate(pbots):
        pol, pkind, psettings = spec
        if not isinstance(pol, CPolicy):
            raise TypeError(f"play_games: a policy bot needs a CPolicy, got {type(pol).__name__}")
        pbp[j] = _pbot_params(pkind, psettings)
        pbpol[j] = (<CPolicy>pol).p
        pbwl[j] = azk_pbot_work_size(pbpol[j], &pbp[j])
    for a in ints[2:]:
        if n and (a.min() < -len(pbots) or a.max() >= azk_bot_num_kinds()):
            raise ValueError(f"play_games: bot kind out of range [{-len(pbots)}, {azk_bot_num_kinds()})")
    cdef const uint64_t[::1] sd = cols[0], b0 = cols[1], b1 = cols[2]
    cdef const int32_t[::1] d0 = ints[0], d1 = ints[1], k0 = ints[2], k1 = ints[3]
    res = {name: np.zeros(n, dtype=np.int32) for name in
           ("result", "winner", "first_player", "end_reason", "turns", "decisions", "error")}
    cdef int32_t[::1] o_res = res["result"], o_win = res["winner"], o_first = res["first_player"]
    cdef int32_t[::1] o_end = res["end_reason"], o_turns = res["turns"], o_dec = res["decisions"], o_err = res["error"]
    for name in ("seat0_seconds", "seat1_seconds"):
        res[name] = np.zeros(n, dtype=np.float64)
    for name in ("seat0_decisions", "seat1_decisions"):
        res[name] = np.zeros(n, dtype=np.int32)
    cdef double[::1] o_t0 = res["seat0_seconds"], o_t1 = res["seat1_seconds"]
    cdef int32_t[::1] o_n0 = res["seat0_decisions"], o_n1 = res["seat1_decisions"]
    cdef double t1, t2
    cdef int q, act
    cdef azk_game *g = <azk_game *>PyMem_Malloc(azk_game_size())
    if g == NULL:
        raise MemoryError()
    for j in range(len(pbots)):
        pbw[j] = PyMem_Malloc(pbwl[j])
        if pbw[j] == NULL:
            PyMem_Free(g)
            PyMem_Free(pbw[0])
            raise MemoryError()
    cdef int kinds[2]
    cdef uint64_t rng[4]
    cdef int m
    cdef Py_ssize_t start = 0, end
    t0 = time.perf_counter()
    try:
        while start < n:
            end = min(n, start + SIM_SIGNAL_GAMES)
            with nogil:
                for i in range(start, end):
                    azk_game_init(g, cs.cs, sd[i], d0[i], d1[i])
                    azk_game_set_turn_cap(g, tcap)
                    azk_game_set_decision_cap(g, dcap)
                    kinds[0] = k0[i]
                    kinds[1] = k1[i]
                    azk_bot_seed(&rng[0], b0[i])
                    azk_bot_seed(&rng[2], b1[i])
                    m = 0
                    while not azk_is_terminal(g):
                        q = azk_current_player(g)
                        t1 = _now()
                        if kinds[q] < 0:
                            act = azk_pbot_act(g, cs.cs, pbpol[-1 - kinds[q]], &pbp[-1 - kinds[q]], &rng[2 * q],
                                               pbw[-1 - kinds[q]], pbwl[-1 - kinds[q]])
                        elif kinds[q] == AZK_BOT_SEARCH:
                            act = azk_bot_act_search(g, cs.cs, &rng[2 * q], &sp)
                        else:
                            act = azk_bot_act(g, cs.cs, kinds[q], &rng[2 * q])
                        t2 = _now()
                        if q == 0:
                            o_t0[i] += t2 - t1
                            o_n0[i] += 1
                        else:
                            o_t1[i] += t2 - t1
                            o_n1[i] += 1
                        if act < 0 or azk_step(g, cs.cs, act) != AZK_OK:
                            m = -1
                            break
                        m += 1
                    o_err[i] = 1 if m < 0 else 0
                    o_dec[i] = m if m >= 0 else azk_decisions(g)
                    o_res[i] = azk_result(g)
                    o_win[i] = azk_winner(g)
                    o_first[i] = azk_first_player(g)
                    o_end[i] = azk_end_reason(g)
                    o_turns[i] = azk_turn(g)
            start = end
            PyErr_CheckSignals()
    finally:
        PyMem_Free(g)
        PyMem_Free(pbw[0])
        PyMem_Free(pbw[1])
    res["seconds"] = time.perf_counter() - t0
    return res


# ---------------------------------------------------------------------------
# VecGame: n games stepped by one C call (csrc/vec.c)
# ---------------------------------------------------------------------------
# the vector log's entry names, as azk_enums.def declares them (AZK_VEC_LOG; tests/test_def_mirrors.py)
from azuki.spec_autogen import VEC_LOG as _VEC_LOG_DECL
_VEC_LOG_NAMES = tuple(n.lower() for n in _VEC_LOG_DECL)
_VEC_BUFFERS = ("obs", "masks", "rewards", "terminals", "truncations", "acting", "opp_obs", "opp_masks",
                "opp_pending")


cdef inline void *_ptr(object a):
    """The data pointer of a C-contiguous numpy array (NULL for None)."""
    return NULL if a is None else <void *><size_t>a.ctypes.data


_VEC_MODES = {"self": AZK_VEC_SELF, "bot": AZK_VEC_BOT, "policy": AZK_VEC_POLICY}
_VEC_DTYPES = {"uint8": AZK_VEC_OBS_U8}   # the one observation encoding since layout v4
_VEC_WAITING = {"full": AZK_VEC_WAIT_FULL, "mask": AZK_VEC_WAIT_MASK}
_VEC_ILLEGAL = {"raise": AZK_VEC_ILLEGAL_ERROR, "lose": AZK_VEC_ILLEGAL_LOSE}


cdef class VecGame:
    """n games stepped together in C without the GIL (azuki.h "Vector of
    games"; docs/vecgame.md), writing into numpy buffers it owns or the
    caller gives it.

    mode="self": two rows per game (row 2i + s is seat s of game i); the
    waiting seat's row allows only NO_OP and its action is ignored.
    mode="bot": one row per game for the agent, whose seat alternates every
    two episodes; the built-in bot `bot` plays the other seat inside step().
    mode="policy": rows as in "bot", but the other seat is answered from
    Python: step() stops each game where its opponent must decide;
    opp_pending / opp_obs / opp_masks describe those decisions and
    step_opponent(actions) answers them.
    pairings: deck pairs drawn in turn, each from both seats. Episode e uses
    engine seed `seed + e`, so every trajectory equals a Game played alone.

    Buffers (attributes, numpy arrays, zero-copy): obs uint8 [rows, OBS_LEN]
    (Game.observe's bytes, each row from its seat's view, the packed mask
    inside; azuki.obs.decode names them; obs=False skips it; obs_dtype
    accepts only "uint8", the one encoding since layout v4),
    masks uint8 [rows, NUM_ACTIONS], rewards float32 [rows] (+1 win, -1
    loss, 0 otherwise), terminals / truncations uint8 [rows] (set by the
    call during which the episode ended; the buffers then show the next
    episode), acting uint8 [rows] (1 where the row's action is applied).
    mode="policy" adds opp_obs [n, OBS_LEN], opp_masks uint8 [n, NUM_ACTIONS]
    and opp_pending uint8 [n]. waiting_obs="full": a row that does not act
    gets its seat's full observation with a NO_OP-only MASK field; "mask":
    only that MASK field is rewritten (cheaper; the row's action is ignored
    either way). illegal="raise": an illegal action raises IllegalActionError
    and nothing changes; "lose": it ends its episode, lost by the seat that
    chose it (reward -1 / +1, terminal; log()["illegal"] counts them), and
    the other rows' actions are applied. masks=False: no `masks` buffer
    (None; the mask is still in each observation's MASK field, packed), which saves
    NUM_ACTIONS bytes of writes per row and step. paired=True (evaluation):
    episodes 2k and 2k + 1 play the same deal (engine seed seed + k, same
    decks in the same seats) with the agent in seat 0, then in seat 1.

    threads=k (1 to 64): k - 1 persistent C worker threads, started here
    once, and the calling thread step, observe and answer with bots slices
    of the games in every call; every buffer and trajectory equals
    threads=1's (threads=1: no pool). They stop when the VecGame is freed or
    re-initialised.

    Threads: one call at a time per VecGame. A call made while another is in
    progress on the same object (from another thread, or re-entered from a
    callback) raises RuntimeError and changes nothing; separate VecGames may
    step in parallel (docs/vecgame.md, Threads). The worker threads of
    threads=k live inside one call and never see that guard."""
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
    # whole run (_enter / _leave) and refuses to start while it is held. The
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

    cdef int _enter(self, str call) except -1:
        if self._busy:
            who = "this thread" if self._busy_thread == PyThread_get_thread_ident() else "another thread"
            raise RuntimeError(
                f"VecGame.{call}(): this VecGame is in use by {who} ({self._busy_call}() has not returned); "
                f"a VecGame serves one call at a time: give each thread its own VecGame or hold one lock "
                f"around every call (docs/vecgame.md, Threads)")
        self._busy = True
        self._busy_thread = PyThread_get_thread_ident()
        self._busy_call = call
        return 0

    cdef inline void _leave(self) noexcept:
        self._busy = False

    def __init__(self, n, seed=0, pairings=(("STT01", "STT02"),), mode="self", bot="random", cards=None,
                 obs=True, buffers=None, obs_dtype="uint8", waiting_obs="full", illegal="raise", masks=True,
                 paired=False, threads=1):
        self._enter("__init__")
        try:
            self._init(n, seed, pairings, mode, bot, cards, obs, buffers, obs_dtype, waiting_obs, illegal, masks,
                       paired, threads)
        finally:
            self._leave()

    cdef _init(self, n, seed, pairings, mode, bot, cards, obs, buffers, obs_dtype, waiting_obs, illegal, masks,
               paired, threads):
        cdef int nn = _int_in(n, "n", 1, AZK_VEC_MAX_GAMES)
        cdef uint64_t s = _seed(seed)
        cdef int nthreads = _int_in(threads, "threads", 1, AZK_VEC_MAX_THREADS)
        if not isinstance(mode, str) or mode not in _VEC_MODES:
            raise ValueError(f"mode must be 'self', 'bot' or 'policy', got {excerpt(mode)}")
        if not isinstance(obs_dtype, str) or obs_dtype not in _VEC_DTYPES:
            raise ValueError(f"obs_dtype must be 'uint8' (the only observation encoding since layout v4), "
                             f"got {excerpt(obs_dtype)}")
        if not isinstance(waiting_obs, str) or waiting_obs not in _VEC_WAITING:
            raise ValueError(f"waiting_obs must be 'full' or 'mask', got {excerpt(waiting_obs)}")
        if not obs and not masks:
            raise ValueError("VecGame: obs=False and masks=False leaves no way to see the legal actions")
        if not isinstance(illegal, str) or illegal not in _VEC_ILLEGAL:
            raise ValueError(f"illegal must be 'raise' or 'lose', got {excerpt(illegal)}")
        cdef int kind = bot_kind(bot) if mode == "bot" else 0
        cdef CardSet cs = _resolve_cards(cards)
        if isinstance(pairings, (str, bytes)) or not hasattr(pairings, "__len__"):
            raise TypeError("pairings must be a list of (deck, deck) pairs")
        if not 1 <= len(pairings) <= AZK_VEC_MAX_PAIRS:
            raise ValueError(f"pairings: 1 to {AZK_VEC_MAX_PAIRS} deck pairs, got {len(pairings)}")
        pairs = np.empty(2 * len(pairings), dtype=np.int32)
        names = []
        for k, p in enumerate(pairings):
            d0, d1 = _deck_pair(cs, p)
            pairs[2 * k], pairs[2 * k + 1] = d0, d1
            names.append((cs.decks[d0], cs.decks[d1]))
        cdef int32_t[::1] pv = pairs
        cdef azk_vec *v = <azk_vec *>PyMem_Malloc(azk_vec_size(nn))
        if v == NULL:
            raise MemoryError()
        cdef azk_status st = azk_vec_init(v, cs.cs, nn, s, _VEC_MODES[mode], kind, &pv[0], len(pairings))
        if st == AZK_OK:
            st = azk_vec_set_obs(v, _VEC_DTYPES[obs_dtype], _VEC_WAITING[waiting_obs])
        if st == AZK_OK:
            st = azk_vec_set_illegal(v, _VEC_ILLEGAL[illegal])
        if st == AZK_OK and paired:
            st = azk_vec_set_paired(v, cs.cs, 1)
        if st != AZK_OK:
            PyMem_Free(v)
            raise ValueError(f"could not create the games ({azk_status_name(st).decode()})")
        rows = azk_vec_rows(v)
        odt = np.uint8
        bufs = {"obs": ((rows, OBS_LEN), odt), "masks": ((rows, NUM_ACTIONS), np.uint8),
                "rewards": ((rows,), np.float32), "terminals": ((rows,), np.uint8),
                "truncations": ((rows,), np.uint8), "acting": ((rows,), np.uint8)}
        if mode == "policy":
            bufs.update({"opp_obs": ((nn, OBS_LEN), odt), "opp_masks": ((nn, NUM_ACTIONS), np.uint8),
                         "opp_pending": ((nn,), np.uint8)})
        given = {} if buffers is None else dict(buffers)
        for k in given:
            if k not in bufs:
                PyMem_Free(v)
                raise ValueError(f"buffers: unknown buffer {excerpt(k)} (known here: {', '.join(bufs)})")
        made = {}
        for k, (shape, dt) in bufs.items():
            if (k in ("obs", "opp_obs") and not obs) or (k == "masks" and not masks):
                made[k] = None
                continue
            b = given.get(k)
            if b is None:
                b = np.zeros(shape, dtype=dt)
            elif not isinstance(b, np.ndarray) or b.dtype != dt or b.shape != shape or not b.flags.c_contiguous \
                    or not b.flags.writeable:
                PyMem_Free(v)
                raise ValueError(f"buffers[{k!r}] must be a writeable C-contiguous {np.dtype(dt).name} array of "
                                 f"shape {shape}, got {excerpt(b)}")
            made[k] = b
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
        self.pairings = tuple(names)
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
        self._ck()
        if opp and self.mode != "policy":
            raise RuntimeError(f"step_opponent is for mode='policy' (this VecGame is mode={self.mode!r})")
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
        self._enter("step")
        try:
            return self._run(actions, 0)
        finally:
            self._leave()

    def step_opponent(self, actions):
        """mode="policy": apply one opponent action per game (int array of
        shape [n]; games not pending are ignored) and play each on until its
        agent or its opponent must decide again; refresh every buffer. An
        illegal action for a pending game raises azuki.IllegalActionError
        naming the game, and nothing changes. Returns (obs, rewards,
        terminals, truncations): the agent rows' buffers for this call (an
        episode the opponent's move ended is reported here)."""
        self._enter("step_opponent")
        try:
            return self._run(actions, 1)
        finally:
            self._leave()

    def log(self):
        """Episode statistics since the last call (then reset): episodes,
        mean length in decisions, draws, truncated, wins by seat, in bot and
        policy modes the agent's wins / losses overall and by seat, and
        deck_games / deck_wins by deck name (self-play: both seats' decks;
        bot and policy modes: the agent's deck)."""
        cdef float buf[64]
        self._enter("log")
        try:
            self._ck()
            azk_vec_log(self.v, buf, 64)
        finally:
            self._leave()
        d = {name: float(buf[i]) for i, name in enumerate(_VEC_LOG_NAMES)}
        if d["episodes"]:
            d["length"] /= d["episodes"]
        base = len(_VEC_LOG_NAMES)   # then games and wins by deck (AZK_VLOG_DECK_*)
        names = self.cards.decks
        d["deck_games"] = {names[k]: float(buf[base + k]) for k in range(len(names))}
        d["deck_wins"] = {names[k]: float(buf[base + 8 + k]) for k in range(len(names))}
        return d

    def state_hash(self, i):
        """State hash of game i (as Game.state_hash())."""
        self._enter("state_hash")
        try:
            self._ck()
            return azk_hash(azk_vec_game(self.v, <int>_int_in(i, "i", 0, self.n - 1)))
        finally:
            self._leave()

    def agent_seat(self, i):
        self._enter("agent_seat")
        try:
            self._ck()
            return azk_vec_agent_seat(self.v, _int_in(i, "i", 0, self.n - 1))
        finally:
            self._leave()

    def episode(self, i):
        """The episode counter value game i's current episode started with
        (its engine seed is seed + episode)."""
        self._enter("episode")
        try:
            self._ck()
            return azk_vec_episode(self.v, _int_in(i, "i", 0, self.n - 1))
        finally:
            self._leave()

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
        self._enter("policy_opponent_actions")
        try:
            self._ck()
            if self.mode != "policy":
                raise RuntimeError(f"policy_opponent_actions is for mode='policy' (this VecGame is "
                                   f"mode={self.mode!r})")
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
        finally:
            self._leave()

    def bot_opponent_actions(self, bot):
        """mode="policy": the built-in bot `bot`'s answers for the pending
        games (int32 [n], 0 where not pending), from each game's own bot
        stream; pass them to step_opponent. In C, without the GIL."""
        cdef int kind
        cdef int32_t[::1] ov
        cdef azk_status st
        self._enter("bot_opponent_actions")
        try:
            self._ck()
            if self.mode != "policy":
                raise RuntimeError(f"bot_opponent_actions is for mode='policy' (this VecGame is "
                                   f"mode={self.mode!r})")
            kind = bot_kind(bot)
            out = np.zeros(self.n, dtype=np.int32)
            ov = out
            with nogil:
                st = azk_vec_bot_opponent(self.v, self.cards.cs, kind, &ov[0])
            if st != AZK_OK:
                raise AzukiError(f"bot_opponent_actions failed ({azk_status_name(st).decode()})")
            return out
        finally:
            self._leave()

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
        self._enter("pbot_opponent_actions")
        try:
            self._ck()
            if self.mode != "policy":
                raise RuntimeError(f"pbot_opponent_actions is for mode='policy' (this VecGame is "
                                   f"mode={self.mode!r})")
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
        finally:
            self._leave()

    def episodes(self):
        """int64 [n]: every game's current episode number (episode(i) for all i)."""
        cdef int64_t[::1] ov
        cdef int i
        self._enter("episodes")
        try:
            self._ck()
            out = np.empty(self.n, dtype=np.int64)
            ov = out
            for i in range(self.n):
                ov[i] = azk_vec_episode(self.v, i)
            return out
        finally:
            self._leave()

    def agent_seats(self):
        """int8 [n]: every game's agent seat this episode (agent_seat(i) for all i)."""
        cdef int8_t[::1] ov
        cdef int i
        self._enter("agent_seats")
        try:
            self._ck()
            out = np.empty(self.n, dtype=np.int8)
            ov = out
            for i in range(self.n):
                ov[i] = <int8_t>azk_vec_agent_seat(self.v, i)
            return out
        finally:
            self._leave()

    def game(self, i):
        """A Game holding a copy of game i's current position."""
        cdef int k, e
        cdef azk_deal d
        cdef Game g
        self._enter("game")
        try:
            self._ck()
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
        finally:
            self._leave()


cdef inline void _pick_rows(azk_vec *vp, const azk_cardset *cs, const uint8_t *act, int32_t *out, int rows,
                            int per_game, int32_t *legal, int cap, azk_rng *pick) noexcept nogil:
    """out[r] = a uniform choice from the legal-action list of row r's game
    where act[r] (else 0): as the engine loop (simulate) picks, without
    scanning the NUM_ACTIONS-byte mask."""
    cdef int r, cnt
    for r in range(rows):
        out[r] = 0
        if not act[r]:
            continue
        cnt = azk_legal_actions(azk_vec_game(vp, r // per_game), cs, legal, cap)
        if cnt > 0:
            out[r] = legal[azk_rng_bounded(pick, <uint32_t>cnt)]


def _bench_pick(obs, int mask_off, out, uint64_t seed):
    """For benchmarks of env layers: out[r] (int32) = a uniform choice among
    the legal actions in the packed MASK field (at mask_off: bit k of byte
    k >> 3) of observation row r, in C without the GIL."""
    cdef const uint8_t[:, ::1] ov = obs
    cdef int32_t[::1] outv = out
    cdef int rows = ov.shape[0], na = NUM_ACTIONS, r, k, cnt, j
    if mask_off < 0 or mask_off + (na + 7) // 8 > ov.shape[1] or outv.shape[0] != rows:
        raise ValueError("_bench_pick: shapes")
    cdef azk_rng pick
    azk_rng_seed(&pick, seed, 7)
    cdef const uint8_t *m
    with nogil:
        for r in range(rows):
            m = &ov[r, mask_off]
            cnt = 0
            for k in range(na):
                cnt += (m[k >> 3] >> (k & 7)) & 1
            j = <int>azk_rng_bounded(&pick, <uint32_t>cnt)
            outv[r] = 0
            for k in range(na):
                if (m[k >> 3] >> (k & 7)) & 1:
                    if j == 0:
                        outv[r] = k
                        break
                    j -= 1


def _bench_vec(n, steps, mode="self", obs=True, seed=1, obs_dtype="uint8", waiting_obs="full", threads=1):
    """Agent-steps per second of VecGame(n, threads=threads) with
    observations (if obs, in obs_dtype) and masks: actions are drawn
    uniformly from each acting row's legal-action list by a C loop (pcg32),
    as the engine loop picks, so neither Python nor the picker dominates. An agent-step is
    one decision applied for an agent row (ignored NO_OP rows do not count).
    mode="policy": each step is a step() for the acting agent rows followed
    by step_opponent() for the pending games, both answered by the same C
    picker (opponent decisions are not counted as agent-steps).
    bytes_per_agent_step: what the buffers receive per agent-step (masks and
    scalars of every row; observations of every row with waiting_obs="full",
    else of the acting rows plus the MASK field of the others)."""
    cdef int nsteps = _int_in(steps, "steps", 1, 10**7)
    v = VecGame(n, seed=seed, mode=mode, bot="random", obs=obs, obs_dtype=obs_dtype, waiting_obs=waiting_obs,
                threads=threads)
    cdef VecGame vg = v
    cdef int rows = v.rows, na = NUM_ACTIONS, r, s, nn = v.n
    cdef int policy = mode == "policy"
    cdef uint8_t *mp = <uint8_t *>_ptr(v.masks)
    cdef float *rp = <float *>_ptr(v.rewards)
    cdef uint8_t *tp = <uint8_t *>_ptr(v.terminals)
    cdef uint8_t *up = <uint8_t *>_ptr(v.truncations)
    cdef void *op = _ptr(v.obs)
    cdef void *oo = _ptr(v.opp_obs)
    cdef uint8_t *om = <uint8_t *>_ptr(v.opp_masks)
    cdef uint8_t *pend = <uint8_t *>_ptr(v.opp_pending)
    actions = np.zeros(rows, dtype=np.int32)
    cdef int32_t[::1] av = actions
    cdef int32_t[::1] acting32 = np.zeros(rows, dtype=np.int32)
    cdef uint8_t[::1] act8 = np.zeros(rows, dtype=np.uint8)
    cdef int32_t[::1] legal = np.zeros(NUM_ACTIONS, dtype=np.int32)
    cdef int per_game = 2 if mode == "self" else 1
    cdef azk_rng pick
    azk_rng_seed(&pick, seed, 99)
    cdef long long applied = 0
    cdef int bad = 0
    cdef azk_vec *vp = vg.v
    cdef const azk_cardset *cs = vg.cards.cs
    cdef double t0
    vg._enter("_bench_vec")     # held like any call: the loop below steps vg's games directly
    t0 = time.perf_counter()
    try:
        with nogil:
            for s in range(nsteps):
                azk_vec_observe(vp, cs, NULL, NULL, &acting32[0])
                for r in range(rows):
                    act8[r] = <uint8_t>acting32[r]
                    applied += act8[r]
                _pick_rows(vp, cs, &act8[0], &av[0], rows, per_game, &legal[0], na, &pick)
                azk_vec_step(vp, cs, &av[0], op, mp, rp, tp, up, &bad)
                if policy:
                    azk_vec_observe_opponent(vp, cs, oo, om, pend)
                    _pick_rows(vp, cs, pend, &av[0], nn, 1, &legal[0], na, &pick)
                    azk_vec_step_opponent(vp, cs, &av[0], op, mp, rp, tp, up, &bad)
                    azk_vec_observe_opponent(vp, cs, oo, om, pend)
    finally:
        vg._leave()
    dt = time.perf_counter() - t0
    cdef double acting_rows = max(1.0, applied / nsteps)
    cdef double per_step = rows * (NUM_ACTIONS + 4 + 1 + 1)
    if obs:
        if waiting_obs == "full":
            per_step += rows * OBS_LEN
        else:
            per_step += acting_rows * OBS_LEN + (rows - acting_rows) * ((NUM_ACTIONS + 7) // 8)
    return {"agent_steps_per_s": applied / dt, "agent_steps": applied, "seconds": dt,
            "bytes_per_agent_step": per_step / acting_rows}



# ---- the policy network in C (csrc/policy.c, docs/policy_c.md) --------------------------------------------

class PolicyFileError(ValueError):
    """An AZKW weight file the C loader refused (truncated, corrupt, another format, or made for
    another observation layout / action count); the message says what."""


def fnv1a64(data):
    """FNV-1a (64-bit) of bytes: the AZKW weight file's checksum (csrc/policy.c)."""
    cdef const uint8_t[::1] b = memoryview(bytes(data)).cast("B")
    cdef uint64_t h = 0xcbf29ce484222325ULL
    cdef Py_ssize_t i
    with nogil:
        for i in range(b.shape[0]):
            h = (h ^ b[i]) * 0x100000001b3ULL
    return h


def _cpolicy_from_bytes(data):
    return CPolicy.from_bytes(data)


def keyed_uniforms_c(uint64_t seed, keys):
    """azuki.sampler.keyed_uniforms computed by the C hash (azk_keyed_uniform): float64 [k]."""
    cdef cnp.ndarray[uint64_t, ndim=1] k = np.ascontiguousarray(keys, dtype=np.uint64).reshape(-1)
    out = np.empty(k.shape[0], dtype=np.float64)
    cdef double[::1] ov = out
    cdef Py_ssize_t i
    for i in range(k.shape[0]):
        ov[i] = azk_keyed_uniform(seed, k[i])
    return out


cdef class CPolicy:
    """A trained policy's forward pass in C, from an AZKW weight file
    (`python -m azuki.policy export CKPT OUT --format azkw`, or
    azuki.policy_np.azkw_bytes). `from_file(path)` / `from_bytes(b)`;
    `hashes` (the three compatibility hashes the file carries: compare with
    azuki.policy_np.check_compat); `arch`, `head`; `forward(obs)` ->
    (log-probabilities float32 [B, NUM_ACTIONS], -inf where illegal; value
    float32 [B]); `act(obs, u=None, keys=None, seed=0, greedy=False)` ->
    int32 [B] actions (uniforms u, or keyed_uniforms(seed, keys), or the most
    likely legal action). Observations: uint8 [B, OBS_LEN] or [OBS_LEN]
    (extra trailing columns allowed), C-contiguous rows. Read-only once
    loaded; the calls release the GIL."""
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

    @classmethod
    def from_file(cls, path):
        with open(os.fspath(path), "rb") as f:
            data = f.read()
        try:
            return cls.from_bytes(data)
        except PolicyFileError as e:
            raise PolicyFileError(f"{os.fspath(path)}: {e}") from None

    def __reduce__(self):          # pickles as its weight file (multiprocessing envs, copies)
        return (_cpolicy_from_bytes, (self.data,))

    @property
    def hashes(self):
        return {k: azk_policy_hash(self.p, i).decode() for i, k in enumerate(("obs_layout", "action_space", "card_set"))}

    @property
    def arch(self):
        return ("structured", "flat")[azk_policy_arch(self.p)]

    @property
    def head(self):
        return ("dense", "factored")[azk_policy_head(self.p)]

    @property
    def hidden(self):
        return azk_policy_hidden(self.p)

    cdef object _rows(self, obs):
        if not isinstance(obs, np.ndarray):
            raise TypeError(f"observations must be a numpy uint8 array, got {type(obs).__name__}")
        if obs.dtype != np.uint8:
            raise ValueError(f"observations must be uint8 (layout v{azk_obs_version()}), got {obs.dtype}")
        if obs.ndim == 1:
            obs = obs[None, :]
        if obs.ndim != 2 or obs.shape[1] < OBS_LEN:
            raise ValueError(f"observations must be [B, >= OBS_LEN = {OBS_LEN}] uint8, got shape {obs.shape}")
        if not obs.flags.c_contiguous:
            raise ValueError("observations must be C-contiguous (np.ascontiguousarray)")
        return obs

    cdef _check(self, azk_policy_status st, int bad):
        if st == AZK_POLICY_E_OBS:
            raise ValueError(f"observation row {bad}: an identity byte outside the card table (not an observation "
                             f"of layout v{azk_obs_version()})")
        if st != AZK_POLICY_OK:
            raise RuntimeError(f"policy forward failed ({azk_policy_status_name(st).decode()})")

    def forward(self, obs):
        """(log-probabilities float32 [B, NUM_ACTIONS] (-inf where illegal), value float32 [B])."""
        obs = self._rows(obs)
        cdef int n = obs.shape[0], bad = -1
        cdef size_t stride = obs.shape[1]
        logp = np.empty((n, NUM_ACTIONS), dtype=np.float32)
        value = np.empty(n, dtype=np.float32)
        if n == 0:
            return logp, value
        cdef const uint8_t[:, ::1] ov = obs
        cdef float[:, ::1] lv = logp
        cdef float[::1] vv = value
        cdef azk_policy_status st
        with nogil:
            st = azk_policy_forward(self.p, &ov[0, 0], n, stride, &lv[0, 0], &vv[0], &bad)
        self._check(st, bad)
        return logp, value

    def act(self, obs, u=None, keys=None, seed=0, greedy=False, with_value=False):
        """int32 [B]: sampled by inverse CDF with the uniforms u [B] (float64 in [0, 1)), or with
        azuki.sampler.keyed_uniforms(seed, keys), or the most likely legal action (greedy=True);
        with_value=True: (actions, value float32 [B])."""
        obs = self._rows(obs)
        cdef int n = obs.shape[0], bad = -1
        cdef size_t stride = obs.shape[1]
        if greedy:
            if u is not None or keys is not None:
                raise ValueError("act: greedy=True takes no uniforms or keys")
        elif (u is None) == (keys is None):
            raise ValueError("act: give exactly one of u (uniforms) or keys (keyed uniforms), or greedy=True")
        elif keys is not None:
            u = keyed_uniforms_c(int(seed) & 0xFFFFFFFFFFFFFFFF, keys)
        cdef double[::1] uv
        if not greedy:
            u = np.ascontiguousarray(u, dtype=np.float64).reshape(-1)
            if u.shape[0] != n:
                raise ValueError(f"act: {u.shape[0]} uniforms for {n} observations")
            if not ((u >= 0.0) & (u < 1.0)).all():
                raise ValueError("act: uniforms must lie in [0, 1)")
            uv = u
        out = np.zeros(n, dtype=np.int32)
        value = np.empty(n, dtype=np.float32)
        if n == 0:
            return (out, value) if with_value else out
        cdef const uint8_t[:, ::1] ov = obs
        cdef int32_t[::1] av = out
        cdef float[::1] vv = value
        cdef const double *up = NULL if greedy else &uv[0]
        cdef azk_policy_status st
        with nogil:
            st = azk_policy_act(self.p, &ov[0, 0], n, stride, up, &av[0], &vv[0], &bad)
        self._check(st, bad)
        return (out, value) if with_value else out

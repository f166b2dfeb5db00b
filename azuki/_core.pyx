# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""azuki._core — the Cython binding (contract: _core.pxd): thin wrappers over csrc/azuki.h. Arguments are
checked once (arrays by _out_array, statuses mapped to exceptions by _check), then C is called, without the GIL
where that matters; what is not a C call is plain Python beside it (docs/extending.md, "The binding")."""
from cpython.mem cimport PyMem_Malloc, PyMem_Calloc, PyMem_Free
from cpython.pythread cimport PyThread_get_thread_ident
from cpython cimport array
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint32_t, int32_t, uint64_t
cimport cython
cimport numpy as cnp
import array as _pyarray
import numpy as np

from . import spec_autogen as S
from . import events as _events
from .errors import AzukiError, IllegalActionError, StateError, CardSetError, INVARIANTS, invariant_text
from .state import Layout, Position
from ._util import excerpt
# The plain-Python halves of the classes (mixins: their methods make no C call of their own) and
# helpers; the names kept here for pickles made before they moved (_restore_*, _cpolicy_from_bytes).
from ._cardset_py import CardSetMixin, deck_pair as _deck_pair, restore_cardset as _restore_cardset
from ._game_py import GameMixin, head_mask_args, setup_error, state_error, step_error, restore_game as _restore_game
from ._vec_py import (VecGameMixin, VEC_LOG_NAMES as _VEC_LOG_NAMES, MODES as VEC_MODES, WAITING as VEC_WAITING,
                      ILLEGAL as VEC_ILLEGAL, vec_options, pairing_table, make_buffers, log_dict, busy_error,
                      step_illegal, check_opponent_keys, vec_actions)
from ._cpolicy_py import (CPolicyMixin, PolicyFileError, act_uniforms, policy_rows, policy_error,
                          cpolicy_from_bytes as _cpolicy_from_bytes)
from .convert.cache import clear_cardset_cache, cardset_cache_info
from ._args import as_int as _as_int, int_in as _int_in, seed as _seed    # the shared argument checks
from ._args import (ACTION_TYPES, PHASES, PROMPT_KINDS, RESULTS, ZONES, STATUSES, RNG_MAX_N, rng_outputs, rng_bounded,
                    rng_shuffle, encode, decode, type_index as _type_index)

cnp.import_array()

NUM_ACTIONS = azk_num_actions()
# Sizes of the action heads (type, p0, p1) for factored policies (DESIGN §3).
HEAD_SIZES = (azk_head_size(0), azk_head_size(1), azk_head_size(2))
NUM_CARDS = azk_num_cards()
STATE_SIZE = azk_game_size()
SERIALIZED_SIZE = azk_serialized_size()
EVENT_TYPES = tuple(azk_event_name(i).decode() for i in range(azk_num_event_types()))
END_REASONS = tuple(azk_end_reason_name(i).decode() for i in range(azk_num_end_reasons()))
assert END_REASONS == S.END, "azuki/spec_autogen.py is stale against the C core"


def _flat_field(bint plan, int i):
    """(name, (offset, count)) of field i of the export (plan=False) or the setup plan (plan=True)."""
    cdef int off = 0, cnt = 0
    if plan:
        azk_plan_field(i, &off, &cnt)
    else:
        azk_export_field(i, &off, &cnt)
    return (azk_plan_field_name(i) if plan else azk_export_field_name(i)).decode(), (off, cnt)


# The two flat layouts of csrc/azk_export.def: names from spec_autogen, offsets and counts from C (the same file).
EXPORT_LAYOUT = Layout(azk_export_version(), azk_export_size(),
                       [_flat_field(False, i) for i in range(azk_export_num_fields())], S.EXPORT)
PLAN_LAYOUT = Layout(azk_plan_version(), azk_plan_size(),
                     [_flat_field(True, i) for i in range(azk_plan_num_fields())], S.PLAN)
MAX_OPTIONS = EXPORT_LAYOUT.count("PROMPT_OPT")
cdef int _EXPORT_SIZE = EXPORT_LAYOUT.size
cdef array.array _EXPORT_TEMPLATE = _pyarray.array("i", [0])
assert _EXPORT_TEMPLATE.itemsize == sizeof(int32_t)
# The observation layout of csrc/azk_obs.def as C built it: (name, offset, rows, cols, kind, n, doc) per field
# (azuki.obs.obs_layout; kind: "id", "enum", "num", "snum", "bits" or "place").
OBS_LEN = azk_obs_len()
OBS_VERSION = azk_obs_version()


def _obs_field(int i):
    cdef int off = 0, rows = 0, cols = 0, kind = 0, n = 0
    azk_obs_field(i, &off, &rows, &cols, &kind, &n)
    return (azk_obs_field_name(i).decode(), off, rows, cols, azk_obs_kind_name(kind).decode(), n,
            azk_obs_field_doc(i).decode())


OBS_FIELDS = tuple(_obs_field(i) for i in range(azk_obs_num_fields()))
assert tuple(f[0] for f in OBS_FIELDS) == S.OBS, "azuki/spec_autogen.py is stale against the C core (OBS)"


# The one check of every array the binding writes into or reads rows from (out= arrays, VecGame buffers,
# _Players' columns, CPolicy observations), before anything is written: `a` (a numpy array of `dtype` and `shape`
# (None: any size on that axis), C-contiguous, writeable when asked; TypeError for a non-array, ValueError for the
# rest), or a new array when `a` is None (zeroed when `zero`).
cpdef object _out_array(object a, object dtype, tuple shape, str what, bint writeable=True, bint zero=False):
    if a is None:
        return np.zeros(shape, dtype=dtype) if zero else np.empty(shape, dtype=dtype)
    if not isinstance(a, np.ndarray):
        raise TypeError(f"{what} must be a numpy array, got {type(a).__name__}")
    if a.dtype != dtype:
        raise ValueError(f"{what} must have dtype {np.dtype(dtype).name}, got {a.dtype}")
    cdef Py_ssize_t i
    ok = a.ndim == len(shape)
    for i in range(len(shape) if ok else 0):
        ok = ok and (shape[i] is None or shape[i] == a.shape[i])
    if not ok:
        raise ValueError(f"{what} must have shape {shape}{' (None: any size)' if None in shape else ''}, got {a.shape}")
    if not a.flags.c_contiguous:
        raise ValueError(f"{what} must be C-contiguous (np.ascontiguousarray), got a strided view")
    if writeable and not a.flags.writeable:
        raise ValueError(f"{what} must be writeable, got a read-only array")
    return a


cdef inline void *_ptr(object a):
    """The data pointer of a numpy array (NULL for None): one _out_array (or the code that made it) checked it."""
    return NULL if a is None else cnp.PyArray_DATA(<cnp.ndarray>a)


cdef int _check(azk_status st, str what, type exc=AzukiError) except -1:
    """The one status -> exception mapping of the wrappers: `exc("what (STATUS_NAME)")` unless st is AZK_OK."""
    if st != AZK_OK:
        raise exc(f"{what} ({azk_status_name(st).decode()})")


@cython.auto_pickle(False)   # the mixins pickle their classes
cdef class _Binding:
    """The extension base of the classes with a plain-Python mixin (Cython puts an extension type first)."""


# RNG (for the golden-vector tests and users who want the engine's generator): rng_outputs, rng_bounded and
# rng_shuffle check their arguments in azuki/_args.py and draw here.
def _rng_draws(uint64_t initstate, uint64_t initseq, uint32_t[::1] out not None, const uint32_t[::1] bounds=None,
               uint8_t[::1] shuffle=None):
    """Fill `out` with pcg32 (initstate, initseq) draws, each below bounds[i] if given; first shuffle `shuffle`."""
    cdef azk_rng r
    cdef Py_ssize_t i
    if (bounds is not None and bounds.shape[0] != out.shape[0]) or (shuffle is not None and shuffle.shape[0] > 255):
        raise ValueError("_rng_draws: a bound per output, at most 255 entries to shuffle")
    azk_rng_seed(&r, initstate, initseq)
    if shuffle is not None and shuffle.shape[0]:
        azk_rng_shuffle_u8(&r, &shuffle[0], <uint32_t>shuffle.shape[0])
    for i in range(out.shape[0]):
        out[i] = azk_rng_next(&r) if bounds is None else azk_rng_bounded(&r, bounds[i])


# Actions: the argument handling of encode / decode is azuki/_args.py.
def _encode(int t, int p0, int p1):
    """azk_encode: the flat id of (t, p0, p1), or -1."""
    return azk_encode(t, p0, p1)


def _decode(int a):
    """azk_decode: (type index, p0, p1) of flat id a, or None."""
    cdef int t, p0, p1
    return (t, p0, p1) if azk_decode(a, &t, &p0, &p1) == 0 else None


# The binding's parts (Cython `include` is textual: one module, one namespace):
include "_cardset.pxi"   # CardSet (its files and cache: azuki/convert/cache.py)
include "_game.pxi"      # Game (its Python half: azuki/_game_py.py)
include "_play.pxi"      # simulate, bots, play_games, the micro-benchmarks
include "_vec.pxi"       # VecGame
include "_cpolicy.pxi"   # CPolicy: the policy network in C

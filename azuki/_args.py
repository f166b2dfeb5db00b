"""Argument normalising for the binding's module-level functions that needs
no C (the integer and seed checks every entry point shares, the
plain-Python half of azuki/_core.pyx's RNG helpers and of encode / decode;
rng_outputs and rng_bounded live here and draw through _core._rng_draws).
Imports azuki._core only inside functions: _core imports this module while
it initialises.
"""
from __future__ import annotations

import operator

import numpy as np

from . import spec_autogen as S
from ._util import excerpt


# Argument checks shared by every entry point of the binding (re-exported by azuki._core as _as_int, _int_in,
# _seed): integers are ints (Python or numpy, never bools or floats), seeds are in [0, 2**64).
def as_int(v, what):
    """v as a Python int (TypeError for a boolean or a non-integer)."""
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, got a boolean")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {type(v).__name__}") from None


def int_in(v, what, lo, hi):
    """An int in [lo, hi] (TypeError / ValueError otherwise)."""
    i = as_int(v, what)
    if not lo <= i <= hi:
        raise ValueError(f"{what} must be in [{lo}, {hi}], got {excerpt(i)}")
    return i


def seed(v, what="seed"):
    """A seed: an int in [0, 2**64)."""
    return int_in(v, what, 0, 2**64 - 1)


def uint_list(values, what, hi, max_n):
    """`values` (a 1-D sequence or integer array) as a list of ints in
    [0, hi], at most max_n of them (TypeError / ValueError otherwise)."""
    if isinstance(values, (str, bytes, bytearray, dict)) or values is None:
        raise TypeError(f"{what}s must be a 1-D sequence of integers, got {type(values).__name__}")
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "iu":
            raise TypeError(f"{what}s must hold integers, got dtype {values.dtype}")
        if values.ndim != 1:
            raise ValueError(f"{what}s must be 1-D, got shape {values.shape}")
    else:
        try:
            len(values)
        except TypeError:
            raise TypeError(f"{what}s must be a 1-D sequence of integers, got {type(values).__name__}") from None
    if len(values) > max_n:
        raise ValueError(f"at most {max_n} {what}s per call")
    return [int_in(x, what, 0, hi) for x in (values.tolist() if isinstance(values, np.ndarray) else values)]


_C = None
# The enum names the binding re-exports (azuki.ACTION_TYPES etc.), as spec_autogen declares them.
ACTION_TYPES, PHASES, PROMPT_KINDS, RESULTS, ZONES, STATUSES = S.ACTION, S.PHASE, S.PROMPT, S.RESULT, S.ZONE, S.STATUS
# Largest n of rng_outputs / rng_bounded per call (bounded work per call).
RNG_MAX_N = 1 << 24


def _core():
    """azuki._core, imported once on first use (it imports this module while it initialises; an import
    statement per call would cost encode / decode more than their work)."""
    global _C
    if _C is None:
        from . import _core as c
        _C = c
    return _C


def rng_outputs(initstate, initseq, n):
    """The first n outputs of pcg32 seeded (initstate, initseq), as uint32."""
    c = _core()
    s, q = c._seed(initstate, "initstate"), c._seed(initseq, "initseq")
    out = np.empty(c._int_in(n, "n", 0, RNG_MAX_N), dtype=np.uint32)
    c._rng_draws(s, q, out)
    return out


def rng_bounded(initstate, initseq, bounds):
    """One bounded draw per entry of `bounds` (uint32 each), in order."""
    c = _core()
    s, q = c._seed(initstate, "initstate"), c._seed(initseq, "initseq")
    b = np.array(uint_list(bounds, "bound", 0xFFFFFFFF, RNG_MAX_N), dtype=np.uint32)
    out = np.empty(b.shape[0], dtype=np.uint32)
    c._rng_draws(s, q, out, b)
    return out


def rng_shuffle(initstate, initseq, n):
    """Fisher-Yates shuffle of range(n) (n <= 255) and the generator's next output."""
    c = _core()
    s, q = c._seed(initstate, "initstate"), c._seed(initseq, "initseq")
    a, nxt = np.arange(c._int_in(n, "n", 0, 255), dtype=np.uint8), np.empty(1, dtype=np.uint32)
    c._rng_draws(s, q, nxt, None, a)
    return a, int(nxt[0])


def type_index(t):
    """The index of action type `t` (a name, any case, or an integer)."""
    if isinstance(t, str):
        try:
            return S.ACTION.index(t.upper())
        except ValueError:
            raise ValueError(f"unknown action type {excerpt(t)} (known: {', '.join(S.ACTION)})") from None
    return _core()._as_int(t, "action type")


def encode(t, p0=0, p1=0, p2=0):
    """Flat action id of (type, p0, p1, p2); type may be a name. p2 is reserved (must be 0)."""
    c = _core()
    ti = type_index(t)
    a0, a1, a2 = c._as_int(p0, "p0"), c._as_int(p1, "p1"), c._as_int(p2, "p2")
    if a2 != 0 or not (-2**31 < ti < 2**31 and -2**31 < a0 < 2**31 and -2**31 < a1 < 2**31):
        raise ValueError(f"no action ({excerpt(t)}, {excerpt(a0)}, {excerpt(a1)}, {excerpt(a2)})")
    a = c._encode(ti, a0, a1)
    if a < 0:
        raise ValueError(f"no action ({excerpt(t)}, {a0}, {a1}, {a2})")
    return a


def decode(a):
    """(type name, p0, p1, p2) of a flat action id."""
    c = _core()
    ai = c._as_int(a, "action")
    d = c._decode(ai) if 0 <= ai < c.NUM_ACTIONS else None
    if d is None:
        raise ValueError(f"action {excerpt(ai)} out of range [0, {c.NUM_ACTIONS})")
    return (S.ACTION[d[0]], d[1], d[2], 0)

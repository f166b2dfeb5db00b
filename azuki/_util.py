"""Small helpers shared by every error message of the package.

`excerpt(v)` is the one way an error message quotes a value it was given:
a repr cut to a short excerpt, so hostile input (a 100k-entry list, a 1 MB
string, a 10**100000 integer, an object whose __repr__ raises) never makes a
huge or failing message. azuki._core, azuki._setup, azuki.replay and
azuki.locations use it; azuki.convert may import it from here.
"""
from __future__ import annotations

import reprlib

EXCERPT_LIMIT = 80

_repr = reprlib.Repr()
_repr.maxlevel = 3
_repr.maxstring = EXCERPT_LIMIT
_repr.maxother = EXCERPT_LIMIT
_repr.maxlong = 40
for _k in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset", "maxdeque", "maxarray"):
    setattr(_repr, _k, 8)


def excerpt(v, limit: int = EXCERPT_LIMIT) -> str:
    """repr(v), cut to at most `limit` characters (ending in "…" when cut).

    Never raises and never builds a huge string: containers show their first
    few entries, long strings/bytes their start, huge integers their size."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 8:
        limit = EXCERPT_LIMIT
    limit = min(limit, 4096)
    try:
        if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 128:
            s = f"<int of {v.bit_length()} bits>"
        elif isinstance(v, (str, bytes, bytearray)) and len(v) > 4 * limit:
            s = repr(v[: 2 * limit])
        else:
            s = _repr.repr(v)
    except Exception:  # a hostile __repr__
        try:
            s = f"<{type(v).__name__} object>"
        except Exception:
            s = "<object>"
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return s

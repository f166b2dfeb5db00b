"""azuki — a fast, faithful simulator of the Azuki trading card game.

The engine is a C11 core (csrc/) reached through the Cython extension
``azuki._core``. This package imports it lazily so that ``azuki.convert`` (the
card transpiler, pure Python) runs before the extension is built.
"""
__version__ = "0.1.0"

# DESIGN §5 names (the public contract) plus the RNG helpers.
_CORE_NAMES = ("Game", "VecGame", "CardSet", "IllegalActionError", "StateError", "CardSetError", "AzukiError",
               "NUM_ACTIONS", "ACTION_TYPES", "HEAD_SIZES", "EVENT_TYPES", "END_REASONS", "INVARIANTS",
               "invariant_text", "encode", "decode", "simulate",
               "rng_outputs", "rng_bounded", "rng_shuffle", "BOT_KINDS", "OBS_LEN", "OBS_VERSION")

# The run-time card-set cache (azuki/convert/cache.py; plain Python, no extension needed).
_CACHE_NAMES = ("clear_cardset_cache", "cardset_cache_info")

# Observation helpers (azuki/obs.py; they need the extension).
_OBS_NAMES = ("obs_layout", "obs_slice", "obs_decode")


# Pure-Python helpers (no extension needed).
from ._util import excerpt  # noqa: E402  (the one way error messages quote values)
from .locations import Location, format_location, parse_location  # noqa: E402

_PY_NAMES = ("excerpt", "Location", "format_location", "parse_location")


def __getattr__(name):
    if name in _CORE_NAMES:
        from . import _core
        return getattr(_core, name)
    if name in _CACHE_NAMES:
        from .convert import cache
        return getattr(cache, name)
    if name in _OBS_NAMES:
        from . import obs
        return getattr(obs, "decode" if name == "obs_decode" else name)
    raise AttributeError(f"module 'azuki' has no attribute {name!r}")


__all__ = list(_CORE_NAMES) + list(_CACHE_NAMES) + list(_OBS_NAMES) + list(_PY_NAMES)

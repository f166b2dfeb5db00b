"""Argument normalising for the binding's module-level functions that needs
no C (the plain-Python half of azuki/_core.pyx's RNG helpers). Imports
azuki._core only inside functions: _core imports this module while it
initialises.
"""
from __future__ import annotations

import numpy as np


def uint_list(values, what, hi, max_n):
    """`values` (a 1-D sequence or integer array) as a list of ints in
    [0, hi], at most max_n of them (TypeError / ValueError otherwise)."""
    from ._core import _int_in
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
    return [_int_in(x, what, 0, hi) for x in (values.tolist() if isinstance(values, np.ndarray) else values)]

"""azuki's exception types and the invariant vocabulary (pure Python).

The invariant codes, names and texts come from spec_autogen
(csrc/azk_invariants.def); the C library reports the same through
azk_invariant_name / azk_invariant_message.
"""
from __future__ import annotations

from . import spec_autogen as S

# The state checker's codes (csrc/azk_invariants.def): code -> (name, what must hold).
INVARIANTS = {a[0]: (n, d) for n, a, d in zip(S.INV, S.INV_ARGS, S.INV_DOC)}


def invariant_text(code):
    """'NAME: what must hold' for a code check_invariants() returned."""
    if code == 0:
        return "OK"
    n, d = INVARIANTS.get(code, ("UNKNOWN", "unknown invariant"))
    return f"invariant {code} {n}: {d}"


class AzukiError(Exception):
    """Base class of azuki's errors."""


class IllegalActionError(AzukiError, ValueError):
    """An action that is not legal now (or out of range). The game is unchanged."""


class StateError(AzukiError, ValueError):
    """State bytes that are corrupt, truncated, of another version or card set."""


class CardSetError(AzukiError, ValueError):
    """A card set the engine's verifier rejected."""

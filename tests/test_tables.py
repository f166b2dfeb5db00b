"""Tables declared once (issue: architecture §2): each vocabulary lives in one
.def file, and every consumer (C enums and name tables, Python constants) is
generated from it. These tests check the declarations are complete and
consistent with their uses."""
import pathlib
import re

import azuki
from azuki import spec_autogen as S

ROOT = pathlib.Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"


def test_invariant_codes_unique_declared_and_used():
    """csrc/azk_invariants.def: codes are unique and negative; every
    invariant the checker (state.c) returns is declared there by name (no
    bare numbers), and every declared one is checked somewhere."""
    codes = [a[0] for a in S.INV_ARGS]
    assert len(codes) == len(set(codes)) and all(c < 0 for c in codes)
    src = (CSRC / "state.c").read_text()
    used = set(re.findall(r"AZK_INV_([A-Z_]+)\)", src))
    assert used == set(S.INV), (used ^ set(S.INV))
    # no INV(cond, -NN) with a bare number is left
    assert not re.search(r"INV\([^;]*,\s*-\d+\)\s*;", src)


def test_invariant_text_names_the_rule():
    assert azuki.invariant_text(0) == "OK"
    t = azuki.invariant_text(-15)
    assert "LETHAL_AT_DECISION" in t and "godmode" in t
    assert "UNKNOWN" in azuki.invariant_text(-1234)


def test_end_reasons_match_the_c_core():
    assert azuki.END_REASONS == S.END
    assert azuki.END_REASONS[0] == "NONE"

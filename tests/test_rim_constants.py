"""The Python rim reads the engine's sizes and enums from their one
declaration (issue 31 item 1), never from a hand copy:

* the observation's entity tables (24 places, 50 hand slots, 64 options) and
  a side's places (leader, AZK_ROW garden and alley slots, gate) from the
  layout csrc/azk_obs.def declares (azuki.obs_layout) and spec_autogen.CAPS;
* azuki.state's temporary-effect kinds from AZK_EFFECT_KIND and a card's
  once-per-turn bits from AZK_MAX_CARD_ABILITIES (spec_autogen).

The equalities pin today's values; the token scans fail when a literal copy
comes back in the modules that read observations or the flat export."""
import io
import pathlib
import re
import tokenize

import pytest

import azuki
from azuki import obs, policy_np, spec_autogen as S, state

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The modules that read the observation or the flat export by position.
READERS = ["azuki/policy_np.py", "azuki/policy.py", "azuki/obs.py", "azuki/state.py", "azuki/text.py",
           *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "azuki" / "envs").glob("*.py"))]
# The sizes those modules must not write out (places of a side, place rows, hand, options, AZK_ROW; a
# byte's 8 bits are too common to scan), and where such a number is something else, with the reason.
SIZES = {"5", "12", "24", "50", "64"}
NOT_A_SIZE = {
    ("azuki/policy.py", "glob_dim=64"): "a hyperparameter (the globals' embedding width), not a layout size",
    ("azuki/policy.py", "dim=32, width=64"): "hyperparameters (the privileged critic's widths), not a layout size",
    ("azuki/text.py", 'S.CAPS.get("AZK_ROW", 5)'): "text.py's fallback when spec_autogen lacks the cap",
}


def _code_tokens(rel):
    src = (ROOT / rel).read_text()
    lines = src.splitlines()
    toks = [t for t in tokenize.generate_tokens(io.StringIO(src).readline)
            if t.type not in (tokenize.COMMENT, tokenize.STRING, tokenize.NL, tokenize.NEWLINE)]
    return toks, lines


def test_entity_table_sizes_come_from_the_layout():
    lay = azuki.obs_layout()
    assert policy_np.N_PLACES == lay["PLACE_CARD"]["rows"] == 2 * obs.PLACES
    assert policy_np.N_HAND == lay["HAND_CARD"]["cols"] == S.CAPS["AZK_HAND_CAP"]
    assert policy_np.N_OPT == lay["OPT_CARD"]["rows"] == S.CAPS["AZK_MAX_OPTIONS"]
    assert obs.PLACES == len(obs.PLACE_NAMES) == 2 + 2 * S.CAPS["AZK_ROW"]
    assert obs.PLACE_NAMES[1 + S.CAPS["AZK_ROW"]] == "alley[0]"
    assert policy_np.N_ENT == policy_np.N_PLACES + policy_np.N_HAND + policy_np.N_OPT


@pytest.mark.parametrize("rel", READERS)
def test_no_hand_copy_of_a_layout_size(rel):
    """No integer literal equal to a layout size in a reader's code (a shift
    or power of 2 excepted: 1 << 64, 2 ** 64 are the uint64 width)."""
    toks, lines = _code_tokens(rel)
    bad = []
    for i, t in enumerate(toks):
        if t.type != tokenize.NUMBER or t.string not in SIZES:
            continue
        if i > 0 and toks[i - 1].string in ("<<", "**", ">>"):
            continue
        line = lines[t.start[0] - 1]
        if any(f == rel and snippet in line for f, snippet in NOT_A_SIZE):
            continue
        bad.append(f"{rel}:{t.start[0]}: {line.strip()}")
    assert not bad, "layout sizes written by hand (read them from azuki.obs_layout() / spec_autogen.CAPS):\n" + \
        "\n".join(bad)


def test_state_reads_every_effect_kind():
    """azuki.state reports each AZK_EFFECT_KIND in its order, reads the kind
    by name (no FX_KIND == <number>), and the once-per-turn bits up to the
    declared capacity."""
    assert tuple(state.FX_FIELDS) == S.EFFECT_KIND
    assert all(col in S.EXPORT for _, col, _ in state.FX_FIELDS.values())
    code = " ".join(t.string for t in _code_tokens("azuki/state.py")[0])
    assert not re.search(r"FX_KIND\s*\+\s*\w+\s*\]\s*[=!]=\s*\d", code)
    assert not re.search(r"\brange\s*\(\s*\d+\s*\)", code), "a capacity written by hand in azuki/state.py"

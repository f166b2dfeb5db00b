"""One source per fact (issue 31, item 1): the card-set record vocabularies
(ability kinds and flags, static targets, selector zones / sides / flags, the
rows of a PLACE operand) and
the card flags are declared once, in csrc/azk_enums.def; the C enums
(cardset.h, game.h) and the Python constants (azuki.spec_autogen, and from it
azuki.convert.abilities, azuki.state, azuki._setup) are generated from it.

Per family: a C program built from the headers prints every enum value, and
the Python side must agree with it name for name; every C name has its JSON
word (or is listed as unused), so a value added on one side only fails here.
"""
import pytest

from c_values import ROOT, c_values as read_c_values
from azuki import _setup, spec_autogen as S, state
from azuki.convert import abilities as A


# family -> (C prefix, bit family?)
FAMILIES = {
    "ABILITY_KIND": ("AZK_AB_", False),
    "ABILITY_FLAG": ("AZK_ABF_", True),
    "STATIC_TARGET": ("AZK_STT_", False),
    "SEL_ZONE": ("AZK_SZ_", True),
    "SEL_SIDE": ("AZK_SIDE_", True),
    "SEL_FLAG": ("AZK_SF_", True),
    "CARD_FLAG": ("AZK_CF_", True),
    "PLACE_ROW": ("AZK_PRI_", False),
}


@pytest.fixture(scope="module")
def c_values(tmp_path_factory):
    """{C enum name: value} as the C headers compile them."""
    names = [prefix + n for fam, (prefix, _) in FAMILIES.items() for n in getattr(S, fam)] + ["AZK_SIDE_ANY",
                                                                                             "AZK_PLACE_ANY"]
    return read_c_values(names, tmp_path_factory.mktemp("fam"))


def expected(fam):
    """{C enum name: value} from azuki.spec_autogen (the .def): an index, or its bit."""
    prefix, bits = FAMILIES[fam]
    return {prefix + n: (1 << i if bits else i) for i, n in enumerate(getattr(S, fam))}


@pytest.mark.slow    # the tests that read c_values build a C program: make quick-test skips them
@pytest.mark.parametrize("fam", sorted(FAMILIES))
def test_c_enums_are_the_def(c_values, fam):
    want = expected(fam)
    assert {k: c_values[k] for k in want} == want


@pytest.mark.slow
def test_ability_kinds(c_values):
    assert A.ABILITY_KINDS == {n.lower(): c_values["AZK_AB_" + n] for n in S.ABILITY_KIND}


@pytest.mark.slow
def test_ability_flags(c_values):
    py = {"ONCE_PER_TURN": A.FLAG_ONCE, "ALLEY_ONLY": A.FLAG_ALLEY, "GARDEN_ONLY": A.FLAG_GARDEN,
          "RESPONSE": A.FLAG_RESPONSE, "TAP_COST": A.FLAG_TAP, "SACRIFICE_COST": A.FLAG_SACRIFICE,
          "IGNORES_COOLDOWN": A.FLAG_NO_COOLDOWN}
    assert set(py) == set(S.ABILITY_FLAG), "an ability flag without its compiler constant (or the reverse)"
    assert py == {n: c_values["AZK_ABF_" + n] for n in S.ABILITY_FLAG}


@pytest.mark.slow
def test_static_targets(c_values):
    py = {"SELF": A.STT_SELF, "SELECTOR": A.STT_SELECTOR, "AURA": A.STT_AURA, "COST": A.STT_COST}
    assert set(py) == set(S.STATIC_TARGET)
    assert py == {n: c_values["AZK_STT_" + n] for n in S.STATIC_TARGET}


@pytest.mark.slow
def test_selector_zones_sides_flags(c_values):
    assert set(A.ZONE_WORDS.values()) == set(S.SEL_ZONE), "a selector zone without its JSON word (or the reverse)"
    assert A.ZONE_BITS == {w: c_values["AZK_SZ_" + c] for w, c in A.ZONE_WORDS.items()}
    assert set(A.SEL_FLAG_WORDS.values()) | set(A.SEL_FLAGS_UNUSED) == set(S.SEL_FLAG)
    assert A.SEL_FLAGS == {w: c_values["AZK_SF_" + c] for w, c in A.SEL_FLAG_WORDS.items()}
    assert A.SIDES == {"self": c_values["AZK_SIDE_SELF"], "opponent": c_values["AZK_SIDE_OPP"],
                       "any": c_values["AZK_SIDE_ANY"]}
    assert c_values["AZK_SIDE_ANY"] == c_values["AZK_SIDE_SELF"] | c_values["AZK_SIDE_OPP"]


@pytest.mark.slow
def test_place_operands(c_values):
    """PLACE (PLAY_FREE, MOVE "to"): bit z names row z, as the VM reads it."""
    assert A.PLACES == {"garden": 1 << c_values["AZK_PRI_GARDEN"], "alley": 1 << c_values["AZK_PRI_ALLEY"],
                        "either": c_values["AZK_PLACE_ANY"]}


@pytest.mark.slow
@pytest.mark.parametrize("mod", [state, _setup], ids=["state", "_setup"])
def test_card_flags(c_values, mod):
    for n in ("TAPPED", "COOLDOWN", "SHOCKED", "REVEALED", "EXPOSED"):
        assert getattr(mod, "CF_" + n) == c_values["AZK_CF_" + n], n


def test_no_hand_copy_came_back():
    """The literal tables these families replaced stay gone."""
    for path, literal in (("azuki/convert/abilities.py", '{"triggered": 0'),
                          ("azuki/convert/abilities.py", '{"leader": 1, "garden": 2'),
                          ("azuki/convert/abilities.py", '{"another": 1'),
                          ("azuki/convert/abilities.py", "= 0, 1, 2, 3"),
                          ("azuki/convert/abilities.py", '{"garden": 1, "alley": 2'),
                          ("azuki/state.py", "= 1, 2, 4, 8"), ("azuki/_setup.py", "= 1, 2, 4, 8"),
                          ("csrc/cardset.h", "AZK_AB_TRIGGERED = 0"), ("csrc/cardset.h", "AZK_SZ_LEADER = 1u"),
                          ("csrc/game.h", "AZK_CF_TAPPED = 1u")):
        assert literal not in (ROOT / path).read_text(), f"{path} holds a hand-written copy again: {literal}"

"""Families declared once in csrc/azk_enums.def whose C enum is still written
out by hand (issue 31 item 1): until the header expands the family, these
tests keep the two equal, entry for entry.

* AZK_VEC_LOG, the vector episode log: azuki.h's enum azk_vec_log_entry
  (AZK_VLOG_<NAME>, then the per-deck games and wins) and VecGame.log()'s key
  names (azuki._core._VEC_LOG_NAMES, the names in lower case);
* AZK_EFFECT_KIND, what a temporary effect changes: game.h's enum
  azk_effect_kind (AZK_FX_<NAME>), which the export's FX_KIND carries and the
  static site's words.js reads by name from site.json.

An entry added, moved or renamed on one side only fails here."""
import pytest

from c_values import c_values as read_c_values
from azuki import spec_autogen as S

MIRRORS = {"VEC_LOG": "AZK_VLOG_", "EFFECT_KIND": "AZK_FX_"}
EXTRA = ["AZK_VLOG_DECK_GAMES", "AZK_VLOG_DECK_WINS", "AZK_VEC_LOG_DECKS", "AZK_VEC_LOG_LEN"]


@pytest.fixture(scope="module")
def c_values(tmp_path_factory):
    """{C enum name: value} as azuki.h and game.h compile them."""
    names = [prefix + n for fam, prefix in MIRRORS.items() for n in getattr(S, fam)] + EXTRA
    return read_c_values(names, tmp_path_factory.mktemp("mirrors"))


@pytest.mark.slow     # c_values builds a C program from the headers
@pytest.mark.parametrize("fam", sorted(MIRRORS))
def test_the_c_enum_follows_the_family(c_values, fam):
    prefix = MIRRORS[fam]
    names = getattr(S, fam)
    assert {prefix + n: c_values[prefix + n] for n in names} == {prefix + n: i for i, n in enumerate(names)}


@pytest.mark.slow     # c_values builds a C program from the headers
def test_the_vec_log_ends_with_the_decks(c_values):
    k = len(S.VEC_LOG)      # then the per-deck games and wins
    assert c_values["AZK_VLOG_DECK_GAMES"] == k
    assert c_values["AZK_VLOG_DECK_WINS"] == k + c_values["AZK_VEC_LOG_DECKS"]
    assert c_values["AZK_VEC_LOG_LEN"] == k + 2 * c_values["AZK_VEC_LOG_DECKS"]


def test_vecgame_log_keys_follow_the_family():
    from azuki import _core
    assert tuple(_core._VEC_LOG_NAMES) == tuple(n.lower() for n in S.VEC_LOG)

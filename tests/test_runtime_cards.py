"""Runtime card sets (issue: effect VM §7): azuki.Game(cards="file.json")
compiles the JSON in Python, the engine verifies the bytecode, and the game
plays without a C compiler. Bad card sets fail with clear errors."""
import copy
import json
import pathlib

import pytest

import azuki
from azuki._core import CardSet, simulate
from azuki.convert import ConvertError

ROOT = pathlib.Path(__file__).resolve().parent.parent
CARDS = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())


def write(tmp_path, doc, name="cards.json"):
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return str(p)


def card(doc, cid):
    return next(c for c in doc["cards"] if c["id"] == cid)


def test_runtime_copy_of_default_equals_embedded(tmp_path):
    cs = CardSet.from_json(write(tmp_path, CARDS))
    assert cs.hash == CardSet.default().hash
    g1 = azuki.Game(seed=3, cards=write(tmp_path, CARDS))
    g2 = azuki.Game(seed=3)
    assert g1.state_hash() == g2.state_hash()


def test_changed_card_plays_with_new_stats(tmp_path):
    doc = copy.deepcopy(CARDS)
    card(doc, "STT02-004")["attack"] = 7
    path = write(tmp_path, doc)
    g = azuki.Game.from_setup({"decks": ["STT02", "STT01"],
                               "players": [{"garden": ["STT02-004"], "hand": ["STT02-004"], "ikz_area": 1}, {}]},
                              cards=path)
    assert g.attack_of("p0.garden[0]") == 7
    assert g.cards.hash != CardSet.default().hash
    r = simulate(50, cards=path)
    assert r["errors"] == 0 and r["games"] == 50


def test_changed_ability_runs(tmp_path):
    """Benzai draws 3 instead of 1: the new bytecode runs (§10 STT02-007 modified)."""
    doc = copy.deepcopy(CARDS)
    ab = card(doc, "STT02-007")["abilities"][0]
    ab["effect"] = [{"draw": 3}]
    path = write(tmp_path, doc)
    g = azuki.Game.from_setup({"decks": ["STT02", "STT01"], "players": [{"hand": ["STT02-007", "STT02-004"], "ikz_area": 5}, {}]},
                              cards=path)
    before = len(g.state_dict()["players"][0]["hand"])
    a = next(a for a in g.legal_actions() if g.action_str(a).startswith("PLAY_ENTITY_TO_GARDEN") and "Benzai" in g.action_str(a))
    g.step(a)
    assert len(g.state_dict()["players"][0]["hand"]) == before - 1 + 3


def test_bad_card_set_is_a_clear_error(tmp_path):
    doc = copy.deepcopy(CARDS)
    card(doc, "STT01-003")["attack"] = "three"
    with pytest.raises(ConvertError, match=r"cards\[2\]\.attack"):
        azuki.Game(cards=write(tmp_path, doc))
    with pytest.raises(ConvertError, match="cannot read"):
        azuki.Game(cards=str(tmp_path / "missing.json"))
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(ConvertError, match="malformed JSON"):
        azuki.Game(cards=str(tmp_path / "bad.json"))


def test_hostile_json(tmp_path):
    deep = "[" * 100000 + "]" * 100000
    (tmp_path / "deep.json").write_text(deep)
    with pytest.raises(ConvertError):
        azuki.Game(cards=str(tmp_path / "deep.json"))
    doc = copy.deepcopy(CARDS)
    card(doc, "STT01-003")["cost"] = 10**30
    with pytest.raises(ConvertError, match="cost"):
        azuki.Game(cards=write(tmp_path, doc))
    (tmp_path / "nan.json").write_text(json.dumps(CARDS).replace('"cost": 1', '"cost": NaN', 1))
    with pytest.raises(ConvertError):
        azuki.Game(cards=str(tmp_path / "nan.json"))


def test_state_bytes_are_bound_to_their_card_set(tmp_path):
    doc = copy.deepcopy(CARDS)
    card(doc, "STT02-004")["attack"] = 7
    path = write(tmp_path, doc)
    g = azuki.Game(seed=1, cards=path)
    b = g.to_bytes()
    with pytest.raises(azuki.StateError, match="another card set"):
        azuki.Game.from_bytes(b)
    assert azuki.Game.from_bytes(b, cards=path).state_hash() == g.state_hash()

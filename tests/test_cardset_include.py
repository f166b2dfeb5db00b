"""Combining card sets with `include` (docs/cards.md, "Combining card sets")."""
import json

import pytest

import azuki
from azuki.convert import ConvertError, load_cardset

NEW_CARD = {"id": "TST-001", "name": "Test Brute", "card_type": "entity", "element": "fire", "rarity": "C",
            "subtypes": ["Brute"], "cost": 2, "attack": 2, "health": 2, "gate_points": 1, "keywords": [],
            "text": "", "abilities": []}


def _starter():
    from azuki.convert import DEFAULT_CARDS
    return json.loads(DEFAULT_CARDS.read_text())


def _deck(name="TST"):
    d = dict(_starter()["decks"][0])
    d["name"] = name
    main = dict(d["main"])
    first = next(iter(main))
    main[first] -= 1
    main["TST-001"] = 1
    d["main"] = main
    return d


def _write(tmp_path, name, doc):
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def test_include_puts_included_cards_and_decks_first(tmp_path):
    p = _write(tmp_path, "ext.json", {"format": "azuki-cards/1", "name": "ext", "include": ["azuki:cards.json"],
                                      "cards": [NEW_CARD], "decks": [_deck()]})
    cs = load_cardset(p)
    starter = _starter()
    assert [d["id"] for d in cs.defs] == [c["id"] for c in starter["cards"]] + ["TST-001"]
    assert [d["name"] for d in cs.decks] == [d["name"] for d in starter["decks"]] + ["TST"]
    g = azuki.Game(seed=3, cards=str(p), decks=("TST", "STT02"))
    while not g.is_terminal:
        g.step(g.legal_actions()[0])
    assert g.result != "ONGOING"


def test_relative_include_and_nesting(tmp_path):
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub", "base.json", {"format": "azuki-cards/1", "name": "base", "include": ["azuki:cards.json"],
                                           "cards": [NEW_CARD], "decks": [_deck("BASE")]})
    card2 = dict(NEW_CARD, id="TST-002", name="Second")
    p = _write(tmp_path, "top.json", {"format": "azuki-cards/1", "name": "top", "include": ["sub/base.json"],
                                      "cards": [card2], "decks": [_deck("TOP")]})
    cs = load_cardset(p)
    assert [d["id"] for d in cs.defs][-2:] == ["TST-001", "TST-002"]
    assert [d["name"] for d in cs.decks][-2:] == ["BASE", "TOP"]


def _problems(p):
    with pytest.raises(ConvertError) as ei:
        load_cardset(p)
    return [(q.file, q.path, q.message) for q in ei.value.problems]


def test_own_problems_name_own_paths(tmp_path):
    bad = dict(NEW_CARD, cost=-40)
    p = _write(tmp_path, "ext.json", {"format": "azuki-cards/1", "name": "ext", "include": ["azuki:cards.json"],
                                      "cards": [dict(NEW_CARD, id="TST-000"), bad, dict(_starter()["cards"][3])],
                                      "decks": [_deck()]})
    probs = _problems(p)  # the schema: the own file's own path
    assert any(f == str(p) and path == "cards[1].cost" for f, path, m in probs), probs
    p = _write(tmp_path, "ext.json", {"format": "azuki-cards/1", "name": "ext", "include": ["azuki:cards.json"],
                                      "cards": [dict(NEW_CARD, id="TST-000"), NEW_CARD, dict(_starter()["cards"][3])],
                                      "decks": [_deck()]})
    probs = _problems(p)
    # the duplicate of a starter id is reported on the including file, at its own index
    assert any(f == str(p) and path == "cards[2].id" and "duplicate" in m for f, path, m in probs), probs


def test_included_problems_name_the_included_file(tmp_path):
    broken = _starter()
    broken["decks"][0]["main"] = {"STT01-003": 4}
    _write(tmp_path, "broken.json", broken)
    p = _write(tmp_path, "ext.json", {"format": "azuki-cards/1", "name": "ext", "include": ["broken.json"],
                                      "cards": [NEW_CARD], "decks": [_deck()]})
    probs = _problems(p)
    assert any(f == "broken.json" and path == "decks[0].main" for f, path, m in probs), probs


@pytest.mark.parametrize("ref,needle", [
    ("azuki:../pyproject.json", "shipped in azuki/data"),
    ("azuki:cardset.schema", "shipped in azuki/data"),
    ("missing.json", "cannot read"),
    ("ext.json", "cycle"),
])
def test_bad_includes_are_clear_errors(tmp_path, ref, needle):
    p = _write(tmp_path, "ext.json", {"format": "azuki-cards/1", "name": "ext", "include": [ref],
                                      "cards": [NEW_CARD], "decks": [_deck()]})
    probs = _problems(p)
    assert any(path == "include[0]" and needle in m for f, path, m in probs), probs


def test_include_must_be_a_list_of_strings(tmp_path):
    p = _write(tmp_path, "ext.json", {"format": "azuki-cards/1", "name": "ext", "include": "azuki:cards.json",
                                      "cards": [NEW_CARD], "decks": [_deck()]})
    probs = _problems(p)
    assert any(path == "include" for f, path, m in probs), probs


# ---------------------------------------------------------------- a designer's workflow (issue 25)

def _designer_tree(tmp_path):
    """work/design/top.json includes "base.json" (beside it, with TST-001 and
    deck BASE); the current directory work/elsewhere holds another
    base.json (a copy of the starter set) that must never be read."""
    design, elsewhere = tmp_path / "design", tmp_path / "elsewhere"
    design.mkdir()
    elsewhere.mkdir()
    _write(design, "base.json", {"format": "azuki-cards/1", "name": "base", "include": ["azuki:cards.json"],
                                 "cards": [NEW_CARD], "decks": [_deck("BASE")]})
    _write(elsewhere, "base.json", _starter())
    card2 = dict(NEW_CARD, id="TST-002", name="Second")
    top = _write(design, "top.json", {"format": "azuki-cards/1", "name": "top", "include": ["base.json"],
                                      "cards": [card2], "decks": [_deck("TOP")]})
    return design, elsewhere, top


def test_include_resolves_against_the_including_file_everywhere(tmp_path, monkeypatch):
    """docs/cards.md: a relative include is relative to the including file,
    whatever the current directory, for every way of loading a set: the
    compiler, CardSet.from_json (path, or text with its path), azuki.Game and
    the command line's --cards (which go through from_json)."""
    import subprocess
    import sys

    design, elsewhere, top = _designer_tree(tmp_path)
    monkeypatch.chdir(elsewhere)
    azuki.clear_cardset_cache()
    want = ("TST-001", "TST-002")
    assert tuple(d["id"] for d in load_cardset(top).defs)[-2:] == want
    assert azuki.CardSet.from_json(str(top)).ids[-2:] == want
    assert azuki.CardSet.from_json(str(top), text=top.read_text()).ids[-2:] == want
    g = azuki.Game(seed=1, cards=str(top), decks=("BASE", "TOP"))
    assert g.cards.ids[-2:] == want
    r = subprocess.run([sys.executable, "-m", "azuki", "simulate", "--games", "1", "--cards", str(top),
                        "--decks", "BASE", "TOP"], cwd=elsewhere, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr


def test_an_edited_include_is_recompiled_in_the_same_process(tmp_path, monkeypatch):
    """The run-time cache keys on every file a set was read from: editing the
    included base.json (a designer's next iteration) gives the new card at
    the next from_json, with the top file untouched; unchanged files are a
    cache hit."""
    design, elsewhere, top = _designer_tree(tmp_path)
    monkeypatch.chdir(design)       # where a designer works (the includes resolve the same from anywhere)
    azuki.clear_cardset_cache()
    first = azuki.CardSet.from_json(str(top))
    assert azuki.CardSet.from_json(str(top)) is first            # nothing changed: cached
    base = json.loads((design / "base.json").read_text())
    base["cards"][0]["attack"] = 5
    (design / "base.json").write_text(json.dumps(base))
    second = azuki.CardSet.from_json(str(top))
    assert second is not first and second.hash != first.hash
    assert azuki.Game(seed=1, cards=str(top), decks=("BASE", "TOP")).cards.hash == second.hash
    (design / "base.json").unlink()                                # a vanished include: a clear error, not the stale set
    with pytest.raises(ConvertError, match="cannot read"):
        azuki.CardSet.from_json(str(top))

"""Compiler tests for the deck statements (docs/abilities.md, docs/rules.md §17): search, shuffle, order_top,
top_looked, put_on_deck — the bytecode each emits, and a clear error naming the JSON path for each bad shape
(nothing is compiled then). The C verifier's rule for SEARCH (a selector without zones) is tested in
tests/c/test_vm.c (test_op_search_verifier)."""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from azuki.convert import ConvertError, load_cardset  # noqa: E402
from azuki.convert.abilities import OPS, AbilityError, compile_abilities  # noqa: E402
from expansion_cards import fragment

BASE = json.loads((REPO / "azuki" / "data" / "cards.json").read_text())
FRAGMENT = fragment("deck")


def ops_of(effect, card_type="entity"):
    """Opcode names of one on-play (or spell) program."""
    kind = {"kind": "spell", "effect": effect} if card_type == "spell" else \
        {"kind": "triggered", "trigger": "on_play", "effect": effect}
    out = compile_abilities([{"id": "X", "card_type": card_type, "cost": 2, "element": "fire",
                              "subtypes": ["Cinderkin"], "abilities": [kind]}], {"Cinderkin": 0})
    by_code = {o.code: name for name, o in OPS.items()}
    names, pc, bc = [], out.abilities[0].program, out.bytecode
    while True:
        name = by_code[bc[pc]]
        names.append((name, list(bc[pc + 1:pc + 1 + OPS[name].nbytes])))
        if name == "END":
            return names, out
        pc += 1 + OPS[name].nbytes


def error(effect, card_type="entity"):
    with pytest.raises(AbilityError) as ei:
        ops_of(effect, card_type)
    return ei.value


# ---- bytecode ------------------------------------------------------------------------------------------------

def test_search_to_hand_compiles_to_search_to_hand_shuffle():
    ops, out = ops_of([{"search": {"for": {"subtype": ["Cinderkin"], "cost_max": 3}}}])
    assert [n for n, _ in ops] == ["SEARCH", "TO_HAND", "SHUFFLE", "END"]
    sel = out.selectors[ops[0][1][1]]
    assert sel.zones == 0 and sel.cost_max == 3 and sel.subtypes == 1
    assert ops[2][1] == [0]                    # the controller's deck
    assert ops[0][1][0] == ops[1][1][0]        # the card found is the card moved


def test_search_to_a_place_plays_the_card():
    ops, _ = ops_of([{"search": {"as": "x", "for": {"type": ["entity"]}, "to": "alley"}}, {"tap": "x"}])
    assert [n for n, _ in ops] == ["SEARCH", "PLAY_FREE", "SHUFFLE", "TAP", "END"]
    assert ops[1][1][1] == 2                   # PLACE alley


def test_shuffle_order_top_top_looked_put_on_deck():
    ops, _ = ops_of([{"shuffle": "opponent"}, {"shuffle": True}, {"order_top": 3}, {"look": 2}, {"top_looked": True},
                     {"put_on_deck": {"card": "self", "where": "bottom"}},
                     {"put_on_deck": {"card": "self", "where": "top"}}])
    names = [n for n, _ in ops]
    assert names == ["SHUFFLE", "SHUFFLE", "SETI", "LOOK", "TOP_LOOKED", "SETI", "LOOK", "TOP_LOOKED", "LOAD",
                     "PUT_ON_DECK", "LOAD", "PUT_ON_DECK", "END"]
    assert ops[0][1] == [1] and ops[1][1] == [0]
    assert ops[9][1][1] == 1 and ops[11][1][1] == 0


def test_the_fragment_compiles_with_the_starter_set():
    doc = copy.deepcopy(BASE)
    doc["cards"] += FRAGMENT["cards"]
    cs = load_cardset("mem.json", text=json.dumps(doc))
    assert cs is not None
    ids = [c["id"] for c in FRAGMENT["cards"]]
    assert all(i.startswith("EXP01-0") and 40 <= int(i[-3:]) <= 59 for i in ids) and len(ids) <= 20
    used = json.dumps(FRAGMENT)
    for stmt in ("search", "shuffle", "order_top", "top_looked", "put_on_deck"):
        assert f'"{stmt}"' in used, stmt
    assert '"to": "either"' in used and '"to": "alley"' in used and '"where": "top"' in used \
        and '"where": "bottom"' in used
    elements = {c["element"] for c in FRAGMENT["cards"]}
    assert elements == {"fire", "earth"}


# ---- errors: the JSON path and what was expected ------------------------------------------------------------

@pytest.mark.parametrize("effect, path, words", [
    ([{"search": {"for": {"zone": ["hand"]}}}], "[0].search.for.zone", "own deck"),
    ([{"search": {"for": {"side": "opponent"}}}], "[0].search.for.side", "own deck"),
    ([{"search": {}}], "[0].search", "missing field 'for'"),
    ([{"search": {"for": {}, "to": "deck"}}], "[0].search.to", "unknown destination"),
    ([{"search": {"for": {}, "to": "garden"}}], "[0].search.for.type", "entity"),
    ([{"search": {"for": {"type": ["spell", "entity"]}, "to": "either"}}], "[0].search.for.type", "entity"),
    ([{"search": {"for": {"cost_max": 3}, "bogus": 1}}], "[0].search.bogus", "unknown field"),
    ([{"search": {"for": {"colour": "red"}}}], "[0].search.for.colour", "unknown selector field"),
    ([{"shuffle": "both"}], "[0].shuffle", "\"self\" or \"opponent\""),
    ([{"order_top": 11}], "[0].order_top", "at most 10"),
    ([{"order_top": -1}], "[0].order_top", ">= 0"),
    ([{"top_looked": 1}], "[0].top_looked", "true"),
    ([{"put_on_deck": {"card": "self"}}], "[0].put_on_deck", "missing field 'where'"),
    ([{"put_on_deck": {"card": "self", "where": "middle"}}], "[0].put_on_deck.where", "\"top\" or \"bottom\""),
    ([{"put_on_deck": {"card": "nobody", "where": "top"}}], "[0].put_on_deck.card", "unknown card"),
])
def test_bad_deck_statements_name_the_path(effect, path, words):
    e = error(effect)
    assert e.path.endswith(path), (e.path, path)
    assert words in e.message, e.message


def test_cli_rejects_a_bad_search_and_writes_nothing(tmp_path):
    """Through load_cardset: a ConvertError with one problem naming the card's JSON path."""
    doc = copy.deepcopy(BASE)
    card = next(c for c in doc["cards"] if c["id"] == "STT02-007")
    idx = doc["cards"].index(card)
    card["abilities"] = [{"kind": "triggered", "trigger": "on_play",
                          "effect": [{"search": {"for": {"zone": ["discard"]}}}]}]
    with pytest.raises(ConvertError) as ei:
        load_cardset("mem.json", text=json.dumps(doc))
    (p,) = ei.value.problems
    assert p.path == f"cards[{idx}].abilities[0].effect[0].search.for.zone"

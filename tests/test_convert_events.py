"""Compiler tests of the events group (issue 17): the ability language of
docs/rules.md §15 — the new triggers, `destroy`, `win`, `lose`, the
`replacement` ability kind and the new keywords — compiles to the declared
bytecode, and bad input gets a clear error naming its JSON path."""
import json
import pathlib

import pytest

from azuki.convert.abilities import OPS, TRIGGERS, AbilityError, compile_abilities
from azuki.convert import ConvertError, load_cardset
from expansion_cards import fragment

ROOT = pathlib.Path(__file__).resolve().parent.parent


def entity(abilities, **kw):
    c = {"id": "T-1", "name": "T", "card_type": "entity", "element": "fire", "rarity": "C", "subtypes": [],
         "cost": 2, "attack": 1, "health": 1, "gate_points": 1, "keywords": [], "text": "", "abilities": abilities}
    c.update(kw)
    return c


def compile_one(abilities, **kw):
    return compile_abilities([entity(abilities, **kw)], {})


def error(abilities, **kw):
    with pytest.raises(AbilityError) as ei:
        compile_one(abilities, **kw)
    return ei.value


def ops_of(code, pc):
    """Opcode names of the program at pc, up to its (first) END."""
    names = {o.code: o.name for o in OPS.values()}
    out = []
    while True:
        op = names[code[pc]]
        out.append(op)
        if op == "END":
            return out
        pc += 1 + OPS[op].nbytes


@pytest.mark.parametrize("trig", ["on_destroyed", "entity_destroyed", "on_damaged", "on_draw", "on_discarded",
                                  "game_start", "ally_enters"])
def test_new_triggers_compile(trig):
    out = compile_one([{"kind": "triggered", "trigger": trig, "effect": [{"draw": 1}]}])
    assert out.abilities[0].trigger == TRIGGERS[trig.upper()]


def test_destroy_win_lose_statements():
    out = compile_one([{"kind": "triggered", "trigger": "on_play", "effect": [
        {"choose": {"as": "t", "from": {"zone": "garden", "side": "opponent"}}}, {"destroy": "t"},
        {"win": True}, {"lose": True}]}])
    assert ops_of(out.bytecode, out.abilities[0].program) == ["CHOOSE", "DESTROY", "WIN", "LOSE", "END"]
    e = error([{"kind": "triggered", "trigger": "on_play", "effect": [{"win": 1}]}])
    assert e.path == "cards[0].abilities[0].effect[0].win" and "write \"win\": true" in e.message
    e = error([{"kind": "triggered", "trigger": "on_play", "effect": [{"destroy": "nobody"}]}])
    assert e.path.endswith("effect[0].destroy") and "unknown card 'nobody'" in e.message


def test_context_values():
    out = compile_one([{"kind": "triggered", "trigger": "on_destroyed", "effect": [
        {"deal_damage": {"to": "opponent_leader", "amount": {"context": "trigger_value"}}},
        {"draw": {"context": "subject_gp"}}]}])
    assert ops_of(out.bytecode, out.abilities[0].program).count("CTX") == 2


def test_leave_triggers_take_no_zone_restriction():
    e = error([{"kind": "triggered", "trigger": "on_destroyed", "zone": "garden", "effect": [{"draw": 1}]}])
    assert e.path == "cards[0].abilities[0].zone" and "discard pile" in e.message
    e = error([{"kind": "triggered", "trigger": "on_discarded", "once_per_turn": True, "effect": [{"draw": 1}]}])
    assert e.path == "cards[0].abilities[0].once_per_turn" and "discard pile" in e.message


def test_replacement_prevent_and_instead():
    out = compile_one([
        {"kind": "replacement", "event": "damaged", "applies_to": {"zone": "leader", "side": "self"}, "prevent": 1,
         "once_per_turn": True},
        {"kind": "replacement", "event": "destroyed", "applies_to": "self", "instead": [{"return_to_hand": "self"}]}])
    a, b = out.abilities
    assert a.kind == b.kind == 4
    assert a.trigger == TRIGGERS["ON_DAMAGED"] and a.amount == 1 and a.flags & 1 and a.static_target == 1
    assert a.program == 0xFFFF
    assert b.trigger == TRIGGERS["ON_DESTROYED"] and b.static_target == 0 and b.amount == 0
    assert ops_of(out.bytecode, b.program) == ["LOAD", "RETURN", "END"]


@pytest.mark.parametrize("ab, path, words", [
    ({"kind": "replacement", "event": "played", "applies_to": "self", "prevent": 1}, ".event", "destroyed, damaged"),
    ({"kind": "replacement", "event": "damaged", "prevent": 1}, "", "applies_to"),
    ({"kind": "replacement", "event": "destroyed", "applies_to": "self", "prevent": 1}, ".prevent", "damage only"),
    ({"kind": "replacement", "event": "damaged", "applies_to": "self", "prevent": 0}, ".prevent", "[1, 127]"),
    ({"kind": "replacement", "event": "damaged", "applies_to": "self"}, "", "instead"),
    ({"kind": "replacement", "event": "damaged", "applies_to": "self", "effect": []}, ".effect", "not a field"),
    ({"kind": "replacement", "event": "destroyed", "applies_to": "self",
      "instead": [{"may": [{"return_to_hand": "self"}]}]}, ".instead[0].may", "cannot ask"),
    ({"kind": "replacement", "event": "destroyed", "applies_to": "self",
      "instead": [{"choose": {"as": "t", "from": {"zone": "hand"}}}]}, ".instead[0].choose", "cannot ask"),
    ({"kind": "replacement", "event": "destroyed", "applies_to": {"zone": "nowhere"}, "instead": []},
     ".applies_to.zone", "unknown zone"),
])
def test_replacement_errors(ab, path, words):
    e = error([ab])
    assert e.path == "cards[0].abilities[0]" + path, e
    assert words in e.message, e.message


def test_compile_state_after_a_replacement_error_allows_asking_again():
    """An error inside "instead" does not leave the no-asking rule on for the
    next ability of a fresh compile."""
    error([{"kind": "replacement", "event": "destroyed", "applies_to": "self", "instead": [{"may": []}]}])
    compile_one([{"kind": "triggered", "trigger": "on_play", "effect": [{"may": [{"draw": 1}]}]}])


def test_keywords_and_the_fragment_load(tmp_path):
    doc = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())
    frag = fragment("events")
    doc["cards"] += frag["cards"]
    p = tmp_path / "set.json"
    p.write_text(json.dumps(doc))
    cs = load_cardset(str(p))
    assert cs is not None
    bad = json.loads(json.dumps(doc))
    bad["cards"][-1]["keywords"] = ["sneaky"]
    p.write_text(json.dumps(bad))
    with pytest.raises(ConvertError) as ei:
        load_cardset(str(p))
    assert "sneaky" in str(ei.value)

"""Where the extended mechanics meet (docs/rules.md §15-§18): rules that only
exist because two groups of the language interact."""
import copy
import json

import pytest

import azuki
from azuki.convert import ConvertError, load_cardset

from cont_cards import cont_doc

ELDER = "EXP01-068"
AURA = {"kind": "static", "affects": {"zone": ["garden"], "side": "self", "type": "entity"}, "attack": 1}


def _doc_with(ability):
    doc = cont_doc()
    i = next(k for k, c in enumerate(doc["cards"]) if c["id"] == ELDER)
    doc["cards"][i]["abilities"] = [ability]
    return doc, i


@pytest.mark.parametrize("of", ["attack", "health", "remaining"])
def test_static_condition_cannot_read_computed_stats(of):
    """docs/abilities.md (auras; values `stat`): a static's condition runs
    inside the attack and health computation (§18.2), so reading attack or
    health there would never finish: the compiler refuses it, naming the path."""
    doc, i = _doc_with(dict(AURA, condition={"ge": [{"stat": {"card": "self", "of": of}}, 3]}))
    with pytest.raises(ConvertError) as ei:
        load_cardset(text=json.dumps(doc))
    p = ei.value.problems[0]
    assert p.path == f"cards[{i}].abilities[0].condition.ge[0].stat.of" and "never finish" in p.message


def test_static_condition_may_read_damage_and_requirements_may_read_attack():
    """The safe statistics (damage, GP, cost) are allowed in a static's
    condition; an activated ability's `requires` may read attack (it is not
    evaluated inside the attack computation)."""
    doc, _ = _doc_with(dict(AURA, condition={"ge": [{"stat": {"card": "self", "of": "damage"}}, 1]}))
    load_cardset(text=json.dumps(doc))


def test_verifier_refuses_a_patched_static_condition():
    """The C verifier enforces the same rule on bytecode (a hand-made or
    corrupted set): a STAT of attack in a static condition is not a card set."""
    from azuki.convert.abilities import OPS, STATS
    doc, i = _doc_with(dict(AURA, condition={"ge": [{"stat": {"card": "self", "of": "damage"}}, 1]}))
    cs = load_cardset(text=json.dumps(doc))
    assert azuki.CardSet.from_compiled(cs)
    first, _ = cs.compiled.ranges[i]
    pc = cs.compiled.abilities[first].condition
    code = bytearray(cs.compiled.bytecode)
    by_code = {o.code: o for o in OPS.values()}
    at = pc
    while code[at] != OPS["STAT"].code:     # walk the instructions to the STAT
        at += 1 + by_code[code[at]].nbytes
    assert code[at + 3] == STATS["DAMAGE"]
    code[at + 3] = STATS["ATTACK"]
    bad = copy.copy(cs)
    bad.compiled = copy.copy(cs.compiled)
    bad.compiled.bytecode = bytes(code)
    with pytest.raises(azuki.CardSetError):
        azuki.CardSet.from_compiled(bad)


def test_an_aura_can_give_the_damage_keywords():
    """§15.4 with §18.3: lifesteal given only by an aura (no card prints or
    grants it) still works: the set-wide gate counts auras' grants."""
    doc, i = _doc_with(dict(AURA, attack=0, grant=["lifesteal"]))
    for c in doc["cards"]:      # nothing else in this set has lifesteal
        assert "lifesteal" not in c.get("keywords", [])
    cs = azuki.CardSet.from_compiled(load_cardset(text=json.dumps(doc)))
    elder = doc["cards"][i]
    g = azuki.Game.from_setup({"decks": ["CONTEARTH", "CONTFIRE"], "active": 0, "players": [
        {"garden": [{"card": elder["id"]}, {"card": "STT02-012"}], "leader": {"card": "STT02-001", "damage": 5}},
        {}]}, cards=cs)
    assert "lifesteal" in g.statuses_of("p0.garden[1]")
    g.step(azuki.encode("ATTACK", 2, 0))
    while g.phase != "MAIN" and not g.is_terminal:
        g.step(int(g.legal_actions()[0]))
    atk = g.attack_of("p0.garden[1]")
    assert g.state_dict()["players"][0]["leader"]["damage"] == 5 - atk


def test_a_replacement_inside_a_nested_ability_resumes_the_right_frame():
    """docs/rules.md §15.5 with §16.3: Foresight Scroll (EXP01-024) resolves
    Flare Bolt's effect (trigger_ability: a nested frame); its 2 damage would
    destroy Phoenix Ascendant (EXP01-009), whose replacement returns it to hand
    instead. The replacement runs as a VM of its own, so its end finishes the
    replacement only: Flare Bolt's run ends, then Foresight Scroll's, which
    goes to the discard pile (it stayed in AZK_Z_RESOLVING, invariant
    ONE_RESOLVING, when the replacement's end resumed the suspended frame)."""
    from scenario import discard, do, hand, ikz, row
    cs = azuki.CardSet.from_json(str(__import__("pathlib").Path(azuki.__file__).parent / "data" / "expansion.json"))
    keep = {"card": "STT01-003"}      # an attacker: the turn does not end by itself
    g = azuki.Game.from_setup({"decks": ["EXP01-FIRE", "EXP01-FIRE"], "active": 0, "players": [
        {"hand": ["EXP01-024", "EXP01-066"], "ikz_area": ikz(3), "garden": [None, None, None, None, keep]},
        {"garden": [{"card": "EXP01-009", "damage": 2}]}]}, cards=cs)
    do(g, "PLAY_SPELL", "Foresight Scroll")   # each choice has one candidate: no question (rules §12)
    assert g.check_invariants() == 0
    assert g.prompt() is None and g.phase == "MAIN"
    assert row(g, 1)[0] is None and "EXP01-009" in hand(g, 1)       # replaced: back to hand
    assert "EXP01-024" in discard(g, 0) and "EXP01-066" in hand(g, 0)  # the scroll resolved; the bolt stays

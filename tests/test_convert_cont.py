"""Compiler errors of auras and cost modifiers (docs/abilities.md "Auras and
cost modifiers", docs/rules.md §18): every bad shape is a ConvertError naming
the JSON path and what was expected; good shapes compile to the declared
record fields (csrc/azk_cardset.def: static_target, grant, remove,
cost_change)."""
import copy
import json
import re

import pytest

from azuki.convert import ConvertError, load_cardset
from azuki.convert.abilities import KEYWORDS, STT_AURA, STT_COST

from cont_cards import cont_doc

ELDER = "EXP01-068"


def _doc_with(ability, card_id=ELDER):
    doc = cont_doc()
    i = next(k for k, c in enumerate(doc["cards"]) if c["id"] == card_id)
    doc["cards"][i]["abilities"] = [ability]
    return doc, i


def _problem(doc):
    with pytest.raises(ConvertError) as ei:
        load_cardset(text=json.dumps(doc))
    return ei.value.problems[0]


def _compiled(doc, i):
    cs = load_cardset(text=json.dumps(doc))
    first, n = cs.compiled.ranges[i]
    return cs.compiled.abilities[first], cs.compiled


AURA = {"kind": "static", "affects": {"zone": ["garden"], "side": "self", "type": "entity"}, "attack": 1}
COST = {"kind": "static", "affects": {"zone": "hand", "side": "self", "type": "spell"}, "cost_change": -1}


def _with(base, **kw):
    a = copy.deepcopy(base)
    for k, v in kw.items():
        if v is None:
            a.pop(k, None)
        else:
            a[k] = v
    return a


def test_fragment_compiles_to_aura_and_cost_records():
    """The fragment's cards compile: one aura per aura card, one cost modifier
    per modifier card, with the declared fields."""
    doc = cont_doc()
    cs = load_cardset(text=json.dumps(doc))
    ids = [c["id"] for c in doc["cards"]]
    rec = {}
    for cid in ("EXP01-060", "EXP01-062", "EXP01-063", "EXP01-064", "EXP01-068", "EXP01-071"):
        first, n = cs.compiled.ranges[ids.index(cid)]
        rec[cid] = cs.compiled.abilities[first]
    assert rec["EXP01-060"].static_target == STT_AURA and rec["EXP01-060"].attack == 1
    assert rec["EXP01-062"].remove == 1 << KEYWORDS["CHARGE"] and rec["EXP01-062"].grant == 0
    assert rec["EXP01-064"].grant == 1 << KEYWORDS["CHARGE"]
    assert rec["EXP01-063"].static_target == STT_COST and rec["EXP01-063"].cost_change == -1
    assert rec["EXP01-071"].cost_change == 1
    assert rec["EXP01-068"].health == 1 and rec["EXP01-068"].static_target == STT_AURA
    sel = cs.compiled.selectors[rec["EXP01-060"].selector]
    assert sel.flags & 1  # "another"


BAD = [
    (_with(AURA, affects={"zone": ["hand"], "side": "self"}), "affects.zone", r"an aura changes cards on the field"),
    (_with(AURA, affects={"zone": ["weapon"]}), "affects.zone", r"zone must be some of leader, garden, alley"),
    (_with(AURA, affects={"side": "self"}), "affects.zone", r"an aura changes cards on the field"),
    (_with(AURA, affects=[1]), "affects", r"not of type 'object'"),  # the schema
    (_with(AURA, attack=None), "", r"an aura must change attack, health or keywords"),
    (_with(AURA, grant=["frozen"]), "grant[0]", r"unknown keyword 'frozen'"),
    (_with(AURA, grant="charge"), "grant", r"not of type 'array'"),  # the schema
    (_with(AURA, grant=[]), "grant", r"expected a non-empty list"),
    (_with(AURA, remove=[3]), "remove[0]", r"not of type 'string'"),
    (_with(AURA, grant=["charge"], remove=["charge"]), "remove", r"both granted and removed"),
    (_with(AURA, applies_to={"zone": "weapon"}), "applies_to", r"either applies_to .* or affects"),
    (_with(AURA, weapon_bonus_becomes=5), "weapon_bonus_becomes", r"takes applies_to, not affects"),
    (_with(AURA, affects={"zone": ["garden"], "tapped": 1}), "affects.tapped", r"expected true or false"),
    (_with(COST, affects={"zone": ["garden"], "side": "self"}), "affects.zone", r"a cost modifier changes cards in hand"),
    (_with(COST, affects={"zone": ["hand", "discard"]}), "affects.zone", r"zone must be \[\"hand\"\]"),
    (_with(COST, cost_change=0), "cost_change", r"non-zero cost change in \[-11, 11\]"),
    (_with(COST, cost_change=12), "cost_change", r"greater than the maximum of 11"),
    (_with(COST, cost_change=True), "cost_change", r"not of type 'integer'"),
    (_with(COST, attack=1), "attack", r"a cost modifier changes only cost"),
    (_with(COST, grant=["charge"]), "grant", r"a cost modifier changes only cost"),
    (_with(COST, affects={"zone": "hand", "tapped": True}), "affects.tapped", r"cannot be said of a card in hand"),
    (_with(COST, affects={"zone": "hand", "another": True}), "affects.another", r"cannot be said of a card in hand"),
    (_with(COST, affects={"zone": "hand", "exclude": "x"}), "affects.exclude", r"not available here"),
    ({"kind": "static", "grant": ["charge"]}, "grant", r"grant needs affects"),
    ({"kind": "static", "cost_change": -1}, "cost_change", r"cost_change needs affects"),
    ({"kind": "static", "attack": 1, "applies_to": {"zone": ["garden"], "side": "self"}}, "applies_to",
     r"attack / health for other cards is an aura: use affects"),
]


@pytest.mark.parametrize("ability,where,message", BAD, ids=[f"{i}-{w or 'ability'}" for i, (_, w, _) in enumerate(BAD)])
def test_bad_continuous_abilities_name_the_path(ability, where, message):
    doc, i = _doc_with(ability)
    p = _problem(doc)
    want = f"cards[{i}].abilities[0]" + (f".{where}" if where else "")
    assert p.path == want and re.search(message, p.message), p


def test_schema_rejects_a_non_integer_cost_change():
    doc, i = _doc_with(_with(COST, cost_change="one"))
    p = _problem(doc)
    assert p.path == f"cards[{i}].abilities[0].cost_change"


@pytest.mark.parametrize("card_id,kind", [("EXP01-065", "weapon"), ("EXP01-066", "spell")])
def test_only_leaders_and_entities_are_sources(card_id, kind):
    for base in (AURA, COST):
        doc, i = _doc_with(base, card_id=card_id)
        if kind == "spell":   # a spell keeps its spell ability; the static comes second
            doc["cards"][i]["abilities"] = cont_doc()["cards"][i]["abilities"] + [base]
        p = _problem(doc)
        assert p.path.startswith(f"cards[{i}].abilities[") and p.path.endswith("].affects"), p
        assert f"come from leaders and entities (this card is a {kind})" in p.message


def test_good_shapes_compile():
    """Leader source, several zones, grants with removals of other keywords,
    a positive cost change (a tax), a condition and a zone restriction."""
    doc, i = _doc_with(_with(AURA, affects={"zone": ["leader", "garden", "alley"], "side": "any"},
                             grant=["defender"], remove=["charge", "infiltrate"], health=2,
                             condition={"ge": [{"context": "hand_size"}, 2]}, zone="garden"))
    ab, comp = _compiled(doc, i)
    assert ab.static_target == STT_AURA and ab.health == 2 and ab.condition != 0xFFFF
    assert ab.remove == (1 << KEYWORDS["CHARGE"]) | (1 << KEYWORDS["INFILTRATE"])
    doc, i = _doc_with(_with(COST, cost_change=11, affects={"zone": ["hand"], "side": "opponent",
                                                           "cost_max": 3, "element": "fire"}))
    ab, comp = _compiled(doc, i)
    assert ab.static_target == STT_COST and ab.cost_change == 11
    leader = next(k for k, c in enumerate(doc["cards"]) if c["id"] == "STT01-001")
    doc["cards"][leader]["abilities"].append(copy.deepcopy(AURA))
    load_cardset(text=json.dumps(doc))

"""Compiler tests of the "effects" statements and values (docs/abilities.md,
docs/rules.md §16): what they compile to, and the clear errors (JSON path and
what was expected) for bad input. One bad-input case also goes through the
command line, which must exit 2 and write nothing.
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from azuki.convert import ConvertError, load_cardset  # noqa: E402
from azuki.convert.abilities import OPS, AbilityError, Compiler, compile_abilities  # noqa: E402
from azuki.convert.defs import CAPS  # noqa: E402
from expansion_cards import group_cards

STARTER = json.loads((REPO / "azuki" / "data" / "cards.json").read_text())
FRAGMENT = group_cards("effects")


def spell(effect, requires=None):
    ab = {"kind": "spell", "effect": effect}
    if requires is not None:
        ab["requires"] = requires
    return {"id": "T-1", "name": "T", "card_type": "spell", "element": "fire", "rarity": "C", "subtypes": [],
            "cost": 1, "keywords": [], "text": "", "abilities": [ab]}


def compile_effect(effect, requires=None):
    return compile_abilities([spell(effect, requires)], {})


def error(effect, requires=None):
    with pytest.raises(AbilityError) as e:
        compile_effect(effect, requires)
    return str(e.value)


def ops_of(out, start):
    """Opcode names of the program at `start`, up to its END."""
    names = {o.code: o for o in OPS.values()}
    pc, seq = start, []
    while True:
        o = names[out.bytecode[pc]]
        seq.append(o.name)
        if o.name == "END":
            return seq
        pc += 1 + o.nbytes


def program_of(out):
    return out.abilities[-1].program


OPP_GARDEN = {"zone": "garden", "side": "opponent", "type": "entity"}


# ---- choose_mode ------------------------------------------------------------

def test_choose_mode_compiles_to_a_jump_table_and_records_labels():
    eff = [{"choose_mode": [
        {"label": "Hit", "do": [{"choose": {"as": "t", "from": OPP_GARDEN}}, {"deal_damage": {"to": "t", "amount": 2}}]},
        {"label": "Draw", "do": [{"draw": 1}]},
        {"label": "Both", "requires": {"ge": [{"context": "hand_size"}, 3]}, "do": [{"draw": 2}]}]}]
    out = compile_effect(eff)
    seq = ops_of(out, program_of(out))
    # availability: derived from the first mandatory choose (COUNT_GE), none, explicit requires
    assert seq[:2] == ["SETI", "COUNT_GE"] and "CTX" in seq
    i = seq.index("CHOOSE_MODE")
    assert seq[i + 1:i + 6] == ["JTAB", "JMP", "JMP", "JMP", "JMP"]      # no-mode exit, then the 3-entry table
    (pc, labels), = [(pc, l) for pc, l in out.mode_labels.items()]
    assert labels == ["Hit", "Draw", "Both"]
    assert out.bytecode[pc] == OPS["CHOOSE_MODE"].code and out.bytecode[pc + 3] == 3


def test_choose_mode_optional_first_choose_is_always_available():
    eff = [{"choose_mode": [
        {"label": "a", "do": [{"choose": {"as": "t", "from": OPP_GARDEN, "optional": True}}, {"tap": "t"}]},
        {"label": "b", "do": [{"draw": 1}]}]}]
    seq = ops_of(compile_effect(eff), program_of(compile_effect(eff)))
    assert "COUNT_GE" not in seq


@pytest.mark.parametrize("bad,where,what", [
    ({"choose_mode": [{"label": "x", "do": [{"draw": 1}]}]}, "effect[0].choose_mode", "2 to 7 modes"),
    ({"choose_mode": [{"label": str(i), "do": [{"draw": 1}]} for i in range(8)]}, "effect[0].choose_mode",
     "2 to 7 modes"),
    ({"choose_mode": [{"label": "", "do": [{"draw": 1}]}, {"label": "b", "do": [{"draw": 1}]}]},
     "choose_mode[0].label", "printed text"),
    ({"choose_mode": [{"label": "a", "do": []}, {"label": "b", "do": [{"draw": 1}]}]}, "choose_mode[0].do",
     "non-empty list"),
    ({"choose_mode": [{"label": "a", "do": [{"draw": 1}], "when": 1}, {"label": "b", "do": [{"draw": 1}]}]},
     "choose_mode[0].when", "unknown field"),
    ({"choose_mode": [{"label": "a", "do": [{"draw": 1}]}, {"do": [{"draw": 1}]}]}, "choose_mode[1]",
     "missing field 'label'"),
    ({"choose_mode": {"label": "a"}}, "effect[0].choose_mode", "2 to 7 modes"),
])
def test_choose_mode_errors(bad, where, what):
    msg = error([bad])
    assert where in msg and what in msg, msg


# ---- statements -------------------------------------------------------------------

@pytest.mark.parametrize("stmt,op", [
    ({"heal": {"target": "own_leader", "amount": 3}}, "HEAL"),
    ({"untap": "self"}, "UNTAP"),
    ({"set_cooldown": "self"}, "COOLDOWN"),
    ({"clear_cooldown": "self"}, "COOLDOWN"),
    ({"remove_status": {"target": "self", "status": ["defender", "frozen"]}}, "REMOVE_STATUS"),
    ({"swap": ["self", "own_leader"]}, "SWAP"),
    ({"move": {"card": "self", "to": "alley"}}, "MOVE"),
    ({"portal": "self"}, "PORTAL"),
    ({"attach": "self"}, "ATTACH"),
    ({"trigger_ability": {"card": "self", "ability": "spell"}}, "RUN_ABILITY"),
])
def test_statements_emit_their_opcode(stmt, op):
    out = compile_effect([stmt])
    assert op in ops_of(out, program_of(out))


def test_operands():
    out = compile_effect([{"set_cooldown": "self"}, {"clear_cooldown": "self"},
                          {"trigger_ability": {"card": "self", "ability": "activated"}},
                          {"trigger_ability": {"card": "self"}},
                          {"trigger_ability": {"card": "self", "ability": "activated", "nth": 3}}])
    bc, pc = out.bytecode, program_of(out)
    flags, trig = [], []
    while bc[pc] != OPS["END"].code:
        o = next(o for o in OPS.values() if o.code == bc[pc])
        if o.name == "COOLDOWN":
            flags.append(bc[pc + 2])
        if o.name == "RUN_ABILITY":
            trig.append(bc[pc + 2])
        pc += 1 + o.nbytes
    from azuki.convert.abilities import TRIGGERS
    from azuki.spec_autogen import CAPS
    assert flags == [1, 0] and trig == [len(TRIGGERS) + 1, TRIGGERS["ON_PLAY"],    # on_play by default
                                        len(TRIGGERS) + 1 | 2 << CAPS["AZK_TRIG_NTH_SHIFT"]]   # nth 3: index 2


@pytest.mark.parametrize("stmt,where,what", [
    ({"heal": {"target": "own_leader", "amount": -1}}, "heal.amount", "expected an amount >= 0"),
    ({"heal": {"target": "nobody", "amount": 1}}, "heal.target", "unknown card"),
    ({"heal": {"target": "self"}}, "heal", "missing field 'amount'"),
    ({"remove_status": {"target": "self", "status": ["flying"]}}, "remove_status.status[0]", "unknown status"),
    ({"remove_status": {"target": "self", "status": []}}, "remove_status.status", "at least one status"),
    ({"remove_status": {"target": "self", "status": "charge", "duration": "forever"}}, "remove_status.duration",
     "unknown duration"),
    ({"swap": ["self"]}, "swap", "list of two cards"),
    ({"move": {"card": "self", "to": "deck"}}, "move.to", "unknown place"),
    ({"trigger_ability": {"card": "self", "ability": "on_flip"}}, "trigger_ability.ability", "unknown ability"),
    ({"trigger_ability": {"ability": "spell"}}, "trigger_ability", "missing field 'card'"),
    ({"trigger_ability": {"card": "self", "nth": 0}}, "trigger_ability.nth", "expected an integer in [1, 8]"),
    ({"trigger_ability": {"card": "self", "nth": 9}}, "trigger_ability.nth", "expected an integer in [1, 8]"),
    ({"trigger_ability": {"card": "self", "nth": "2"}}, "trigger_ability.nth", "expected an integer"),
    ({"trigger_ability": {"card": "self", "nth": True}}, "trigger_ability.nth", "expected an integer"),
    ({"trigger_ability": {"card": "self", "ability": "spell", "nth": 2}}, "trigger_ability.nth", "in [1, 1]"),
    ({"trigger_ability": {"card": "self", "which": 2}}, "trigger_ability.which", "unknown field"),
    ({"portal": 3}, "portal", "expected a card variable"),
])
def test_statement_errors(stmt, where, what):
    msg = error([stmt])
    assert where in msg and what in msg, msg


# ---- values ---------------------------------------------------------------------------

@pytest.mark.parametrize("value,op", [
    ({"mul": [2, {"count": OPP_GARDEN}]}, "MUL"),
    ({"max": [2, 3]}, "MAX"),
    ({"abs": {"sub": [1, 3]}}, "ABS"),
    ({"stat": {"card": "self", "of": "attack"}}, "STAT"),
    ({"stat": {"card": "opponent_leader", "of": "remaining"}}, "STAT"),
    ({"random": [1, 4]}, "RANDOM"),
])
def test_values_emit_their_opcode(value, op):
    out = compile_effect([{"draw": value}])
    assert op in ops_of(out, program_of(out))


@pytest.mark.parametrize("value,where,what", [
    ({"mul": [2]}, "draw.mul", "two values"),
    ({"max": 3}, "draw.max", "two values"),
    ({"stat": {"card": "self", "of": "speed"}}, "draw.stat.of", "unknown statistic"),
    ({"stat": {"card": "self"}}, "draw.stat", "missing field 'of'"),
    ({"random": [4, 1]}, "draw.random", "below low"),
    ({"random": [1]}, "draw.random", "[low, high]"),
    ({"pow": [1, 2]}, "draw.pow", "unknown value kind"),
])
def test_value_errors(value, where, what):
    msg = error([{"draw": value}])
    assert where in msg and what in msg, msg


def test_random_is_refused_in_conditions():
    """A requirement or static condition must not draw from the game's RNG
    (legality would consume random numbers): a compile error."""
    msg = error([{"draw": 1}], requires={"ge": [{"random": [1, 6]}, 3]})
    assert "requires" in msg and "random is not allowed in a condition program" in msg
    # the pure values are fine there
    compile_effect([{"draw": 1}], requires={"ge": [{"max": [{"abs": -2}, {"stat": {"card": "own_leader",
                                                                                       "of": "damage"}}]}, 1]})


def test_fragment_compiles_and_uses_every_mechanic():
    """The expansion fragment compiles with the starter cards, and between its
    cards uses every statement and value of the group."""
    text = json.dumps(FRAGMENT)
    for word in ("choose_mode", "trigger_ability", "heal", "untap", "set_cooldown", "clear_cooldown",
                 "remove_status", "swap", "\"move\"", "portal", "attach", "\"mul\"", "\"max\"", "\"abs\"",
                 "\"stat\"", "\"random\""):
        assert word in text, word
    doc = copy.deepcopy(STARTER)
    doc["cards"] += copy.deepcopy(FRAGMENT)
    cs = load_cardset(text=json.dumps(doc))
    assert len(cs.compiled.mode_labels) == 3
    assert all(c["element"] in ("fire", "earth") for c in FRAGMENT)
    assert all(c["id"].startswith("EXP01-0") and 20 <= int(c["id"][-3:]) <= 39 for c in FRAGMENT)
    assert len(FRAGMENT) <= 20


def test_cli_rejects_a_bad_effect_and_writes_nothing(tmp_path):
    doc = copy.deepcopy(STARTER)
    doc["cards"].append(spell([{"swap": ["self"]}]))
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(doc))
    out = tmp_path / "out"
    out.mkdir()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    r = subprocess.run([sys.executable, "-m", "azuki.convert", str(src), "--out", str(out)], cwd=str(REPO),
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert "abilities[0].effect[0].swap" in r.stderr and "list of two cards" in r.stderr
    assert "Traceback" not in r.stderr
    assert list(out.iterdir()) == []

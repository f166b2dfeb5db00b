"""The "effects" group of the ability language, played through the expansion
fragment the expansion (effects cards, tests/expansion_cards.py) (docs/rules.md §16): modal
effects, trigger_ability, heal / untap / cooldown / remove_status, swap /
move / portal / attach, and the values mul / max / abs / stat / random.

Every test loads a card set made of the starter cards plus the fragment
(plus, where a test needs one, a test-only card) and cites the rule it
checks. The property test at the end plays random games of two decks built
from the fragment and checks every invariant, the mask and the clone /
serialize round trips after every step.
"""
import copy
import json
import pathlib
import random

import numpy as np
import pytest

import azuki
from azuki._core import encode
from scenario import P, choose, decline, do, hand, ikz, make_game, options, row, strs
from expansion_cards import group_cards

ROOT = pathlib.Path(__file__).resolve().parent.parent
STARTER = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())
FRAGMENT = group_cards("effects")
END_TURN = encode("END_TURN", 0, 0)

# Test-only cards (never part of the expansion): the edge cases of §16.2/§16.3.
TEST_CARDS = [
    {"id": "EXP01-090", "name": "Test No Mode", "card_type": "spell", "element": "fire", "rarity": "C",
     "subtypes": [], "cost": 1, "keywords": [], "text": "Choose one: two modes that both need a target.",
     "abilities": [{"kind": "spell", "effect": [{"choose_mode": [
         {"label": "Damage an opponent's alley entity", "do": [
             {"choose": {"as": "t", "from": {"zone": "alley", "side": "opponent", "type": "entity"}}},
             {"deal_damage": {"to": "t", "amount": 1}}]},
         {"label": "Damage an opponent's garden entity", "do": [
             {"choose": {"as": "t", "from": {"zone": "garden", "side": "opponent", "type": "entity"}}},
             {"deal_damage": {"to": "t", "amount": 1}}]}]}]}]},
    {"id": "EXP01-091", "name": "Test Echo Loop", "card_type": "entity", "element": "fire", "rarity": "C",
     "subtypes": [], "cost": 1, "attack": 1, "health": 1, "gate_points": 1, "keywords": [],
     "text": "On Play: resolve the On Play ability of an Echo Loop in your discard pile.",
     "abilities": [{"kind": "triggered", "trigger": "on_play", "effect": [
         {"choose": {"as": "c", "from": {"zone": "discard", "side": "self", "card": "EXP01-091"}}},
         {"trigger_ability": {"card": "c", "ability": "on_play"}}]}]},
    {"id": "EXP01-092", "name": "Test Gone", "card_type": "entity", "element": "fire", "rarity": "C",
     "subtypes": [], "cost": 1, "attack": 1, "health": 1, "gate_points": 1, "keywords": [],
     "text": "On Play: return another entity of yours to hand, then resolve its On Play ability.",
     "abilities": [{"kind": "triggered", "trigger": "on_play", "effect": [
         {"choose": {"as": "c", "from": {"zone": "garden", "side": "self", "type": "entity", "another": True}}},
         {"return_to_hand": "c"},
         {"trigger_ability": {"card": "c", "ability": "on_play"}}]}]},
    {"id": "EXP01-093", "name": "Test Twin Spark", "card_type": "entity", "element": "fire", "rarity": "C",
     "subtypes": [], "cost": 1, "attack": 1, "health": 1, "gate_points": 1, "keywords": [],
     "text": "On Play: 1 damage to the opponent's leader. On Play: draw a card.",
     "abilities": [{"kind": "triggered", "trigger": "on_play", "effect": [
                        {"deal_damage": {"to": "opponent_leader", "amount": 1}}]},
                   {"kind": "triggered", "trigger": "on_play", "effect": [{"draw": 1}]}]},
    {"id": "EXP01-094", "name": "Test Second Echo", "card_type": "spell", "element": "fire", "rarity": "C",
     "subtypes": [], "cost": 1, "keywords": [],
     "text": "Resolve the second On Play ability of a Twin Spark in your discard pile, then its third.",
     "abilities": [{"kind": "spell", "effect": [
         {"choose": {"as": "c", "from": {"zone": "discard", "side": "self", "card": "EXP01-093"}}},
         {"trigger_ability": {"card": "c", "ability": "on_play", "nth": 2}},
         {"trigger_ability": {"card": "c", "ability": "on_play", "nth": 3}}]}]},
]


def _deck(name, leader, gate, mine, filler):
    main = {c: 3 for c in mine}
    n = sum(main.values())
    for c in filler:
        if n >= 50:
            break
        k = min(4, 50 - n)
        main[c] = main.get(c, 0) + k
        n += k
    return {"name": name, "title": name, "leader": leader, "gate": gate, "token": "IKZ-002",
            "ikz": {"IKZ-001": 10}, "main": main}


def effects_set_doc(test_cards=True):
    """Starter cards + the effects fragment (+ test cards), with two decks
    (EFXF: Raizan + the fire cards, EFXE: Shao + the earth cards)."""
    doc = copy.deepcopy(STARTER)
    doc["cards"] += copy.deepcopy(FRAGMENT) + (copy.deepcopy(TEST_CARDS) if test_cards else [])
    starter_main = [c["id"] for c in STARTER["cards"] if c["card_type"] in ("entity", "weapon", "spell")]
    fire = [c["id"] for c in FRAGMENT if c["element"] == "fire"]
    earth = [c["id"] for c in FRAGMENT if c["element"] == "earth"]
    doc["decks"] += [_deck("EFXF", "STT01-001", "STT01-002", fire, [c for c in starter_main if c.startswith("STT01")]),
                     _deck("EFXE", "STT02-001", "STT02-002", earth, [c for c in starter_main if c.startswith("STT02")])]
    return doc


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    p = tmp_path_factory.mktemp("effects") / "effects_set.json"
    p.write_text(json.dumps(effects_set_doc()))
    return str(p)


SPARE = "STT01-004"   # a 1-cost card kept in hand (with 1 IKZ to pay it): the main phase stays a decision


def game(cards, p0=None, p1=None, decks=("STT01", "STT02"), **kw):
    """A position with p0 to act; p0 also holds SPARE and one more IKZ, so
    that after an effect the main phase is a real decision (rules §12.2
    would otherwise end a turn whose only legal action is END_TURN)."""
    p0 = dict(p0 or {})
    p0["hand"] = list(p0.get("hand", [])) + [SPARE]
    p0["ikz_area"] = p0.get("ikz_area", 0) + 1
    g = make_game(decks, p0, p1, cards=cards, **kw)
    assert g.check_invariants() == 0
    return g


NAMES = {c["id"]: c["name"] for c in STARTER["cards"] + FRAGMENT + TEST_CARDS}


def play(g, card_id, *parts):
    """Take the action naming card `card_id` (by its name) and `parts`."""
    do(g, NAMES.get(card_id, card_id), *parts)
    assert g.check_invariants() == 0


def mode_labels(g):
    pr = g.prompt()
    assert pr is not None and pr["kind"] == "MODE", pr
    return [o["label"] for o in pr["options"]]


def choose_mode(g, label):
    for o in options(g):
        if o["label"] == label:
            g.step(o["action"])
            assert g.check_invariants() == 0
            return
    raise AssertionError(f"no mode {label!r}: {mode_labels(g)}")


def label_of(cid, i):
    c = next(c for c in FRAGMENT + TEST_CARDS if c["id"] == cid)
    return c["abilities"][0]["effect"][0]["choose_mode"][i]["label"]


# ---------------------------------------------------------------- §16.2 modal effects

def test_mode_prompt_names_each_mode(cards):
    """docs/rules.md §16.2: a modal spell asks a MODE prompt whose options are
    the mode indices; Game.prompt() gives each the mode's printed text."""
    g = game(cards, {"hand": ["EXP01-020"], "ikz_area": 3}, {"garden": ["STT02-010"]})
    play(g, "EXP01-020")
    pr = g.prompt()
    assert pr["kind"] == "MODE" and not pr["optional"] and pr["source"] == "EXP01-020"
    assert [o["mode"] for o in pr["options"]] == [0, 1]
    assert mode_labels(g) == [label_of("EXP01-020", 0), label_of("EXP01-020", 1)]
    assert g.state_dict()["prompt"]["options"][0]["label"] == label_of("EXP01-020", 0)
    choose_mode(g, label_of("EXP01-020", 0))        # one target: taken without asking (§12.2)
    assert P(g, 1)["garden"][0]["damage"] == 2
    assert "EXP01-020" in P(g, 0)["discard"]


def test_mode_without_its_mandatory_target_is_not_offered(cards):
    """docs/rules.md §16.2: a mode whose first statement is a mandatory choose
    with no candidate is not offered; the one mode left is taken without
    asking (§12.2)."""
    g = game(cards, {"hand": ["EXP01-020"], "ikz_area": 3})
    n = len(hand(g, 0))
    play(g, "EXP01-020")
    assert g.phase == "MAIN" and g.prompt() is None
    assert len(hand(g, 0)) == n            # played one, drew one


def test_explicit_requires_and_three_modes(cards):
    """docs/rules.md §16.2: `requires` decides a mode's availability. With an
    undamaged leader and no tapped garden entity only the third mode of
    Stonewarden's Decree is left; with both, all three are offered."""
    g = game(cards, {"hand": ["EXP01-021"], "ikz_area": 4}, {"garden": ["EXP01-037"]})
    play(g, "EXP01-021")
    assert g.prompt() is None                              # one mode: no question
    assert "defender" not in g.statuses_of("p1.garden[0]")
    g = game(cards, {"hand": ["EXP01-021"], "ikz_area": 4, "leader": {"card": "STT01-001", "damage": 5},
                     "garden": [{"card": "STT01-008", "tapped": True}]}, {"garden": ["EXP01-037"]})
    play(g, "EXP01-021")
    assert mode_labels(g) == [label_of("EXP01-021", i) for i in range(3)]
    choose_mode(g, label_of("EXP01-021", 0))
    assert P(g, 0)["leader"]["damage"] == 2


def test_no_mode_available_does_nothing(cards):
    """docs/rules.md §16.2: with no mode available the effect does nothing
    (the spell still resolves and goes to the discard pile)."""
    g = game(cards, {"hand": ["EXP01-090"], "ikz_area": 2})
    play(g, "EXP01-090")
    assert g.phase == "MAIN" and g.prompt() is None
    assert "EXP01-090" in P(g, 0)["discard"]


def test_mode_requires_with_context(cards):
    """docs/rules.md §16.2: Crossroads Oracle's third mode needs 3 cards in
    the discard pile and an alley target."""
    g = game(cards, {"hand": ["EXP01-038"], "ikz_area": 2}, {"alley": ["STT02-004"]})
    play(g, "EXP01-038", "garden[0]")
    assert len(options(g)) == 2
    g = game(cards, {"hand": ["EXP01-038"], "ikz_area": 2, "discard": ["STT01-003"] * 3},
             {"alley": ["STT02-004"]})
    play(g, "EXP01-038", "garden[0]")
    assert len(options(g)) == 3
    choose_mode(g, label_of("EXP01-038", 2))
    assert row(g, 1, "alley")[0] is None                    # Rei (health 2) took 2


# ---------------------------------------------------------------- §16.3 trigger_ability

def test_trigger_ability_of_a_card_in_the_discard_pile(cards):
    """docs/rules.md §16.3: Mirror Adept resolves Emberling's On Play (1
    damage to the opponent's leader) as its own; Emberling stays put."""
    g = game(cards, {"hand": ["EXP01-022"], "ikz_area": 3, "discard": ["EXP01-036"]})
    play(g, "EXP01-022", "garden[0]")
    assert P(g, 1)["leader"]["damage"] == 1
    assert P(g, 0)["discard"] == ["EXP01-036"]


def test_trigger_ability_of_a_card_on_the_field(cards):
    """docs/rules.md §16.3: Echo Sage copies the On Play of an entity in its
    garden (Emberling: 1 damage to the opponent's leader)."""
    g = game(cards, {"garden": ["EXP01-023", "EXP01-036"], "ikz_area": 2})
    play(g, "ACTIVATE_ABILITY", "garden[0]")
    assert P(g, 1)["leader"]["damage"] == 1
    assert row(g, 0) == ["EXP01-023", "EXP01-036", None, None, None]


def test_trigger_ability_of_a_spell_in_hand(cards):
    """docs/rules.md §16.3: Foresight Scroll resolves Ember Choice's effect
    from the hand: its MODE prompt is asked inside the nested frame, and the
    copied spell stays in hand."""
    g = game(cards, {"hand": ["EXP01-024", "EXP01-020"], "ikz_area": 3}, {"garden": ["STT02-010"]})
    play(g, "EXP01-024")
    assert g.prompt()["kind"] == "MODE" and g.prompt()["source"] == "EXP01-024"
    b = g.to_bytes()
    g2 = azuki.Game.from_bytes(b, cards=cards)             # mid-nesting round trip
    assert g2.state_hash() == g.state_hash() and g2.check_invariants() == 0
    choose_mode(g, label_of("EXP01-020", 0))
    assert P(g, 1)["garden"][0]["damage"] == 2
    assert "EXP01-020" in hand(g, 0) and "EXP01-024" in P(g, 0)["discard"]
    choose_mode(g2, label_of("EXP01-020", 1))
    assert len(hand(g2, 0)) == 3                            # Ember Choice, SPARE and the drawn card


def test_trigger_ability_of_a_card_that_left_play(cards):
    """docs/rules.md §16.3: a card that changed zone after it was named is a
    new object (RULES §2.1): its ability is not resolved."""
    g = game(cards, {"hand": ["EXP01-092"], "ikz_area": 2, "garden": ["EXP01-036"]})
    play(g, "EXP01-092", "garden[1]")
    assert "EXP01-036" in hand(g, 0)
    assert P(g, 1)["leader"]["damage"] == 0


def test_trigger_ability_nth(cards):
    """docs/rules.md §16.3: `"nth": 2` resolves the card's second ability of
    that kind in printed order (Twin Spark's second On Play: draw a card, not
    its first: 1 damage); a card without an n-th one resolves nothing."""
    g = game(cards, {"hand": ["EXP01-094"], "ikz_area": 1, "discard": ["EXP01-093"], "deck": ["STT01-004"] * 5})
    n_hand = len(hand(g, 0))
    play(g, "EXP01-094")
    assert len(hand(g, 0)) == n_hand                      # the spell left, one card drawn
    assert P(g, 1)["leader"]["damage"] == 0 and P(g, 0)["discard"].count("EXP01-093") == 1


def test_trigger_ability_recursion_is_bounded(cards):
    """docs/rules.md §16.3, §13.3: an ability that resolves itself again
    through trigger_ability nests at most AZK_VM_DEPTH frames; one more ends
    the game as TRUNCATED with end reason VM_DEPTH."""
    g = game(cards, {"hand": ["EXP01-091"], "ikz_area": 2, "discard": ["EXP01-091"]})
    play(g, "EXP01-091", "garden[0]")
    assert g.is_terminal and g.result == "TRUNCATED" and g.end_reason == "VM_DEPTH"


# ---------------------------------------------------------------- §16.4 heal, untap, cooldown, statuses

def test_heal_is_capped_at_the_damage(cards):
    """docs/rules.md §16.4: heal removes up to N damage; damage never goes
    below 0."""
    g = game(cards, {"hand": ["EXP01-025"], "ikz_area": 2, "leader": {"card": "STT01-001", "damage": 1}})
    play(g, "EXP01-025", "garden[0]")
    choose(g, where="p0.leader")
    assert P(g, 0)["leader"]["damage"] == 0
    g = game(cards, {"hand": ["EXP01-025"], "ikz_area": 2, "leader": {"card": "STT01-001", "damage": 5}})
    play(g, "EXP01-025", "garden[0]")
    choose(g, where="p0.leader")
    assert P(g, 0)["leader"]["damage"] == 3


def test_untap_and_clear_cooldown(cards):
    """docs/rules.md §16.4: Rallying Drummer untaps an entity that entered the
    garden this turn and clears its cooldown: it can attack."""
    g = game(cards, {"hand": ["EXP01-026"], "ikz_area": 3,
                     "garden": [{"card": "STT01-008", "tapped": True, "cooldown": True}]})
    assert not any("ATTACK" in s and "garden[0]" in s.split("->")[0] for s in strs(g))
    play(g, "EXP01-026", "garden[1]")
    assert not P(g, 0)["garden"][0]["tapped"]
    assert any(s.startswith("ATTACK") for s in strs(g))


def test_set_cooldown_in_the_response_window(cards):
    """docs/rules.md §16.4: Tremor Ward, a [Response] spell, gives an
    attacking player's other entity cooldown: it cannot attack this turn."""
    g = game(cards, {"garden": ["STT01-008", "STT01-003"]}, {"hand": ["EXP01-034"], "ikz_area": 1})
    g.step(encode("ATTACK", 1, 0))
    assert g.phase == "RESPONSE"
    play(g, "EXP01-034")
    choose(g, where="p0.garden[1]")
    while g.phase != "MAIN":
        g.step(g.legal_actions()[0])
    assert not any(s.startswith("ATTACK") for s in strs(g))
    assert g.state_dict()["players"][0]["garden"][1]["cooldown"]


def test_remove_a_printed_keyword_until_the_duration_ends(cards):
    """docs/rules.md §16.4: remove_status masks a printed keyword for its
    duration (Boulder Sentinel loses defender until the end of the turn),
    then the keyword is back."""
    g = game(cards, {"hand": ["EXP01-021"], "ikz_area": 4}, {"garden": ["EXP01-037"]})
    assert "defender" in g.statuses_of("p1.garden[0]")
    play(g, "EXP01-021")
    assert "defender" not in g.statuses_of("p1.garden[0]")
    fx = g.state_dict()["effects"]
    assert fx and fx[0]["removes"] and "defender" in fx[0]["removes"]
    g.step(END_TURN)
    assert "defender" in g.statuses_of("p1.garden[0]")


def test_remove_status_effect_round_trips_through_state_dicts(cards):
    """docs/rules.md §16.4, docs/state_format.md: a remove_status effect is
    `removes` in state_dict() and from_setup() builds it back."""
    g = game(cards, p1={"garden": ["EXP01-037"]},
             effects=[{"where": "p1.garden[0]", "removes": ["defender"], "duration": "end_of_turn", "creator": 0}])
    assert "defender" not in g.statuses_of("p1.garden[0]")
    fx = g.state_dict()["effects"]
    assert fx == [{"where": "p1.garden[0]", "card": "EXP01-037", "duration": "end_of_turn", "creator": 0,
                   "removes": ["defender"]}]
    with pytest.raises(ValueError, match="removes"):
        game(cards, p1={"garden": ["EXP01-037"]}, effects=[{"where": "p1.garden[0]", "removes": ["flying"]}])


# ---------------------------------------------------------------- §16.5 swap and move

def test_swap_with_a_full_garden(cards):
    """docs/rules.md §16.5: a garden entity and an alley entity exchange
    places even when the garden is full (no replacement); the one entering
    the garden gets cooldown, the other leaves its weapons behind."""
    garden = ["STT01-003", "STT01-004", "STT01-007", "STT01-008", "STT01-009"]
    g = game(cards, {"hand": ["EXP01-027"], "ikz_area": 1, "garden": garden, "alley": ["STT01-010"]})
    play(g, "EXP01-027")
    choose(g, where="p0.garden[2]")
    assert row(g, 0) == ["STT01-003", "STT01-004", "STT01-010", "STT01-008", "STT01-009"]
    assert row(g, 0, "alley")[0] == "STT01-007"
    assert P(g, 0)["garden"][2]["cooldown"]
    assert len(P(g, 0)["discard"]) == 1                     # only Cinder Shift


def test_move_to_an_empty_slot(cards):
    """docs/rules.md §16.5: move asks for an empty slot of the entity's
    owner's rows (SLOT prompt); into the garden it gets cooldown."""
    g = game(cards, {"hand": ["EXP01-035"], "ikz_area": 1, "alley": ["STT01-008"],
                     "garden": ["STT01-003", "STT01-004", "STT01-007", "STT01-009"]})
    play(g, "EXP01-035")
    choose(g, where="p0.alley[0]")
    pr = g.prompt()
    assert pr["kind"] == "SLOT"
    assert [o["slot"] for o in pr["options"]] == [4, 9, 10, 11, 12]
    choose(g, where="p0.garden[4]")
    assert row(g, 0)[4] == "STT01-008" and P(g, 0)["garden"][4]["cooldown"]


# ---------------------------------------------------------------- §16.6 portal, §16.7 attach

def test_portal_effect(cards):
    """docs/rules.md §16.6: Flame Gate Acolyte portals an alley entity: it
    moves to a chosen garden slot with cooldown, not played; the gate stays
    untapped and can still portal this turn."""
    g = game(cards, {"hand": ["EXP01-028"], "ikz_area": 3, "alley": ["STT01-008", "STT01-003"]})
    play(g, "EXP01-028", "garden[0]")
    choose(g, where="p0.alley[0]")
    choose(g, where="p0.garden[1]")
    assert row(g, 0)[1] == "STT01-008" and P(g, 0)["garden"][1]["cooldown"]
    assert not P(g, 0)["gate"]["tapped"]
    assert any(s.startswith("PORTAL_GATE") for s in strs(g))


def test_portal_effect_without_an_alley_entity(cards):
    """docs/rules.md §16.6: no alley entity: nothing happens, no prompt."""
    g = game(cards, {"hand": ["EXP01-028"], "ikz_area": 3})
    play(g, "EXP01-028", "garden[0]")
    assert g.phase == "MAIN" and g.prompt() is None


def test_attach_a_weapon_from_the_discard_pile(cards):
    """docs/rules.md §16.7: Forge Keeper attaches a weapon from the discard
    pile to a chosen holder (HOLDER prompt); it is not played."""
    g = game(cards, {"hand": ["EXP01-029"], "ikz_area": 4, "discard": ["STT01-014"], "garden": ["STT01-008"]})
    a0 = g.attack_of("p0.garden[0]")
    play(g, "EXP01-029", "garden[1]")
    choose(g, card="STT01-014")
    assert g.prompt()["kind"] == "HOLDER"
    choose(g, holder=1)
    assert [w["card"] for w in P(g, 0)["garden"][0]["weapons"]] == ["STT01-014"]
    assert g.attack_of("p0.garden[0]") >= a0 + 2
    assert P(g, 0)["discard"] == []


# ---------------------------------------------------------------- §16.8 values

def test_stat_max_abs_mul(cards):
    """docs/rules.md §16.8: Magma Titan deals max(2, its attack) = 3; Colossus
    Measure |1 - 3| against Boulder Sentinel; Blazing Tithe 2 x entities in the garden."""
    g = game(cards, {"hand": ["EXP01-031"], "ikz_area": 6}, {"garden": ["EXP01-037"]})
    play(g, "EXP01-031", "garden[0]")
    assert P(g, 1)["garden"][0]["damage"] == 3
    g = game(cards, {"hand": ["EXP01-032"], "ikz_area": 5}, {"garden": ["EXP01-037"]})   # Sentinel: attack 1
    play(g, "EXP01-032", "garden[0]")
    assert P(g, 1)["garden"][0]["damage"] == 2
    g = game(cards, {"hand": ["EXP01-033"], "ikz_area": 3, "garden": ["STT01-003", "STT01-004", "STT01-007"]})
    play(g, "EXP01-033")
    assert P(g, 1)["leader"]["damage"] == 6


def test_random_is_reproducible(cards):
    """docs/rules.md §16.8: random draws from the game's own RNG: a clone, a
    deserialized copy and a rebuilt game with the same seed all deal the same
    damage; different seeds reach every value 1..4 (on Boulder Sentinel, 4
    health: 4 destroys it)."""
    seen = set()
    for seed in range(40):
        g = game(cards, {"hand": ["EXP01-030"], "ikz_area": 2}, {"garden": [{"card": "EXP01-037"}]}, seed=seed)
        c, b = g.clone(), g.to_bytes()
        d = azuki.Game.from_bytes(b, cards=cards)
        dmg = []
        for x in (g, c, d):
            play(x, "EXP01-030")
            target = P(x, 1)["garden"][0]
            dmg.append(target["damage"] if target else 4)
        assert dmg[0] == dmg[1] == dmg[2] and 1 <= dmg[0] <= 4
        assert g.state_hash() == c.state_hash() == d.state_hash()
        seen.add(dmg[0])
    assert seen == {1, 2, 3, 4}


# ---------------------------------------------------------------- property test

def test_random_play_invariants(cards):
    """Random play over the two fragment decks (and the mirror): after every
    step every invariant holds, the mask equals the legal actions, and clone
    and to_bytes / from_bytes reproduce the position (hash and legal set)."""
    rng = random.Random(7)
    ends, kinds = {}, set()
    for seed in range(24):
        decks = [("EFXF", "EFXE"), ("EFXE", "EFXF"), ("EFXF", "EFXF"), ("EFXE", "EFXE")][seed % 4]
        g = azuki.Game(seed=seed, decks=decks, cards=cards)
        steps = 0
        while not g.is_terminal:
            legal = g.legal_actions()
            mask = g.action_mask()
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal.tolist())
            pr = g.prompt()
            if pr is not None:
                kinds.add(pr["kind"])
            if pr is not None and pr["kind"] == "MODE":
                assert all(not o["label"].startswith("mode ") for o in pr["options"])
            if rng.random() < 0.1:
                c = g.clone()
                d = azuki.Game.from_bytes(g.to_bytes(), cards=cards)
                assert c.state_hash() == d.state_hash() == g.state_hash()
                assert d.legal_actions().tolist() == legal.tolist()
            g.step(int(rng.choice(legal.tolist())))
            assert g.check_invariants() == 0
            steps += 1
        ends[g.end_reason] = ends.get(g.end_reason, 0) + 1
        assert steps > 10
    assert set(ends) <= {"LEADER", "DECK_OUT"}, ends
    assert {"MODE", "SLOT", "CARD"} <= kinds, kinds

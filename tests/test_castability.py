"""Card data cannot contradict the rules (issue 25).

- Castability is derived by the compiler: a spell or an activated ability
  whose effect must choose a card can only be played / used while a choice
  exists (docs/rules.md §5.4, §8.3, §8.7; docs/rulings.md X-CAST-1 .. 4),
  whatever the card's JSON says; explicit `requires` adds to it.
- "all_keywords" is one word that follows the keyword table (X-CAST-5).
- The end reason when a `win` and a fallen leader name the same winner, and
  `modify_attack`'s default duration (X-CAST-6, X-CAST-7).

Scenario tests drive positions built with Game.from_setup over the expansion
(azuki/data/expansion.json) and a small test set that includes the starter;
compiler tests read the compiled requirement programs.
"""
import json
from pathlib import Path

import pytest

import azuki
from azuki.convert import load_cardset
from azuki.convert.abilities import (ALL_KEYWORD_BITS, KEYWORDS, OPS, STATUSES, Compiler, compile_abilities,
                                     stealth_possible)
from scenario import P, choose, do, find, hand, ikz, leader_damage, make_game, options, row

DATA = Path(azuki.__file__).resolve().parent / "data"
EXP = str(DATA / "expansion.json")
CS = azuki.CardSet.from_json(EXP)

CULL, RITUAL, DECREE, SCROLL, SHIFT, QUARRY = "EXP01-006", "EXP01-008", "EXP01-021", "EXP01-024", "EXP01-027", \
    "EXP01-035"
LEECH, SHADE, ASP = "EXP01-001", "EXP01-003", "EXP01-002"
CHILL, ORB, KUROBO, LORB = "STT02-014", "STT02-016", "STT01-003", "STT01-017"
SPELL = "PLAY_SPELL"
KEEP = {"garden": [None, None, None, None, {"card": KUROBO}]}   # an attacker: the turn does not end by itself


def game(p0=None, p1=None, decks=("EXP01-FIRE", "EXP01-EARTH"), active=0, cards=CS):
    return azuki.Game.from_setup({"decks": list(decks), "active": active, "players": [p0 or {}, p1 or {}]},
                                 cards=cards)


def castable(g, name):
    return bool(find(g, SPELL, name))


# ------------------------------------------------------------ §5.4: the expansion's spells

def test_flame_cull_needs_a_target():
    """EXP01-006 Flame Cull, docs/rules.md §5.4: "destroy an entity with cost 3
    or less in your opponent's garden" is a mandatory target: with none it
    cannot be played (it could, paying 3 IKZ for nothing); with one it can."""
    g = game({"hand": [CULL], "ikz_area": ikz(3)}, {"garden": [{"card": "EXP01-018"}]})   # cost 6: no candidate
    assert not castable(g, "Flame Cull")
    g = game({"hand": [CULL], "ikz_area": ikz(3)}, {"garden": [LEECH]})
    do(g, SPELL, "Flame Cull")
    assert row(g, 1)[0] is None


def test_foresight_scroll_needs_a_cheap_spell_in_hand():
    """EXP01-024 Foresight Scroll, §5.4: it must choose a spell of cost 2 or
    less in hand; itself (cost 3) and a cost-3 spell do not count."""
    g = game({"hand": [SCROLL, CULL], "ikz_area": ikz(3)})
    assert not castable(g, "Foresight Scroll")
    g = game({"hand": [SCROLL, LORB], "ikz_area": ikz(3)})
    assert castable(g, "Foresight Scroll")


def test_cinder_shift_needs_both_entities():
    """EXP01-027 Cinder Shift, §5.4: two mandatory choices (an entity in your
    garden and one in your alley): both must have a candidate."""
    g = game({"hand": [SHIFT], "ikz_area": ikz(1), "garden": [LEECH]})
    assert not castable(g, "Cinder Shift")
    g = game({"hand": [SHIFT], "ikz_area": ikz(1), "alley": [LEECH]})
    assert not castable(g, "Cinder Shift")
    g = game({"hand": [SHIFT], "ikz_area": ikz(1), "garden": [LEECH], "alley": [ASP]})
    do(g, SPELL, "Cinder Shift")
    assert row(g, 0)[0] == ASP and row(g, 0, "alley")[0] == LEECH


def test_target_plus_independent_effect_needs_the_target():
    """X-CAST-3, §5.4: Quarry Shuffle ("move an entity of yours ... Draw 1")
    and Ritual of Embers ("discard a card, then draw 2") have a mandatory
    target and a second effect that needs none; the target is still
    mandatory, so without one the spell cannot be played at all. Ritual of
    Embers itself is not a card in hand to discard (X-CAST-4)."""
    g = game({"hand": [QUARRY], "ikz_area": ikz(1)})
    assert not castable(g, "Quarry Shuffle")
    g = game({"hand": [QUARRY], "ikz_area": ikz(1), "alley": [LEECH]})
    assert castable(g, "Quarry Shuffle")
    g = game({"hand": [RITUAL], "ikz_area": ikz(1)})
    assert not castable(g, "Ritual of Embers")
    g = game({"hand": [RITUAL, KUROBO], "ikz_area": ikz(1)})
    do(g, SPELL, "Ritual of Embers")
    assert P(g, 0)["discard"] == [KUROBO, RITUAL]


# ------------------------------------------------------------ §15.4: stealthed candidates

def test_opponents_damage_spell_with_only_a_stealthed_candidate():
    """X-CAST-2, §5.4 with §15.4: a stealthed entity cannot be chosen by its
    opponent's effects, so it is no candidate: Flame Cull and the starter's
    Chilling Water (whose explicit requires counts entities, stealthed ones
    too) cannot be played against a lone stealthed Ashen Shade. A player's
    own stealthed entity is a candidate for its own spells (Quarry Shuffle)."""
    g = game({"hand": [CULL], "ikz_area": ikz(3)}, {"garden": [SHADE]})
    assert not castable(g, "Flame Cull")
    g = game({"hand": [CHILL], "ikz_area": ikz(3)}, {"garden": [SHADE]}, decks=("STT02", "EXP01-FIRE"))
    assert not castable(g, "Chilling Water")
    g = game({"hand": [CHILL], "ikz_area": ikz(3)}, {"garden": [SHADE, LEECH]}, decks=("STT02", "EXP01-FIRE"))
    do(g, SPELL, "Chilling Water")                      # one candidate (Leech): taken without asking
    assert "frozen" in g.statuses_of("p1.garden[1]") and "frozen" not in g.statuses_of("p1.garden[0]")
    g = game({"hand": [QUARRY], "ikz_area": ikz(1), "garden": [SHADE]})
    assert castable(g, "Quarry Shuffle")


def test_exposed_stealth_entity_is_a_candidate_again():
    """§15.4: stealth protects until the entity attacks; an exposed Ashen Shade
    is a candidate, so Flame Cull becomes playable."""
    g = game({"garden": [SHADE]}, {"hand": [CULL], "ikz_area": ikz(3)})
    do(g, "ATTACK", "Ashen Shade", "p1.leader")
    while g.active_player == 0 and not g.is_terminal:
        if find(g, "END_TURN"):
            do(g, "END_TURN")
        else:
            g.step(g.legal_actions()[0])
    assert castable(g, "Flame Cull")


def test_mode_with_only_a_stealthed_target_is_not_offered():
    """§16.2 with §15.4: a mode whose first step is a mandatory choice is
    available only when the choice has a candidate; the opponent's stealthed
    entity is none. Stonewarden's Decree with an undamaged leader, no tapped
    entity of its own and only a stealthed opponent: no mode is available
    (X-EFFECTS-1); with an Ember Leech beside it the keyword mode is the one
    available, taken without asking, and the one candidate is the Leech."""
    g = game({"hand": [DECREE], "ikz_area": ikz(3)}, {"garden": [SHADE]}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    do(g, SPELL, "Stonewarden")                         # a spell with only modes stays playable (§16.2)
    assert g.prompt() is None and "stealth" in g.statuses_of("p1.garden[0]")
    g = game({"hand": [DECREE], "ikz_area": ikz(3), **KEEP}, {"garden": [SHADE, LEECH]},
             decks=("EXP01-EARTH", "EXP01-FIRE"))
    do(g, SPELL, "Stonewarden")
    assert g.prompt() is None and "stealth" in g.statuses_of("p1.garden[0]")
    assert "lifesteal" not in g.statuses_of("p1.garden[1]")


# ------------------------------------------------------------ all keywords

def test_decree_removes_every_keyword_of_the_table():
    """EXP01-021 Stonewarden's Decree "loses all its keywords": the compiled
    mask is every keyword of the keyword table (csrc/azk_enums.def), so
    lifesteal, poisonous and stealth (missing from the old hand-written
    list) are removed too; in play an Ember Leech given every keyword but
    stealth (which would hide it) loses them all until the end of turn."""
    cs = load_cardset(EXP)
    i = [d["id"] for d in cs.defs].index(DECREE)
    first, n = cs.compiled.ranges[i]
    bc = cs.compiled.bytecode
    prog = cs.compiled.abilities[first].program
    code = {o.code: o for o in OPS.values()}
    masks, pc = [], prog
    while bc[pc] != OPS["END"].code:
        o = code[bc[pc]]
        if o.name == "REMOVE_STATUS":
            masks.append(bc[pc + 2] | bc[pc + 3] << 8)
        pc += 1 + o.nbytes
    assert masks == [ALL_KEYWORD_BITS]
    assert ALL_KEYWORD_BITS == sum(1 << STATUSES[k] for k in KEYWORDS) and {"LIFESTEAL", "POISONOUS", "STEALTH"} <= set(KEYWORDS)
    every = [k.lower() for k in KEYWORDS if k != "STEALTH"]
    d = {"decks": ["EXP01-EARTH", "EXP01-FIRE"], "active": 0,
         "players": [{"hand": [DECREE], "ikz_area": ikz(3), **KEEP}, {"garden": [LEECH]}],
         "effects": [{"where": "p1.garden[0]", "statuses": every, "duration": "end_of_turn", "creator": 1}]}
    g = azuki.Game.from_setup(d, cards=CS)
    assert set(g.statuses_of("p1.garden[0]")) >= set(every)
    do(g, SPELL, "Stonewarden")
    assert not g.statuses_of("p1.garden[0]")


def test_all_keywords_is_for_removing_only():
    """"all_keywords" takes keywords away; a grant naming it is a clear error."""
    card = {"id": "X", "card_type": "spell", "cost": 1, "element": "fire",
            "abilities": [{"kind": "spell", "effect": [{"grant": {"target": "own_leader", "status": "all_keywords"}}]}]}
    from azuki.convert.abilities import AbilityError
    with pytest.raises(AbilityError) as ei:
        compile_abilities([card], {})
    assert "all_keywords" in ei.value.message and ei.value.path.endswith("status[0]")
    card["abilities"][0]["effect"] = [{"remove_status": {"target": "own_leader", "status": "all_keywords"}}]
    compile_abilities([card], {})
    aura = {"id": "A", "card_type": "entity", "cost": 1, "attack": 1, "health": 1, "gate_points": 1,
            "element": "fire", "abilities": [{"kind": "static", "affects": {"zone": "garden", "side": "opponent"}}]}
    aura["abilities"][0]["remove"] = "all_keywords"       # an aura's remove: every keyword of the table
    assert compile_abilities([aura], {}).abilities[0].remove == ALL_KEYWORD_BITS
    aura["abilities"][0]["remove"], aura["abilities"][0]["grant"] = ["charge"], "all_keywords"
    with pytest.raises(AbilityError, match="all_keywords"):
        compile_abilities([aura], {})


# ------------------------------------------------------------ the class: activated, triggered, merged, test set

def _card(cid, card_type, abilities, **kw):
    c = {"id": cid, "name": cid, "card_type": card_type, "element": "fire", "rarity": "C", "subtypes": [],
         "keywords": [], "text": "", "abilities": abilities}
    c.update({"cost": 1} if card_type == "spell" else {"cost": 1, "attack": 1, "health": 2, "gate_points": 1})
    c.update(kw)
    return c


HIT = [{"choose": {"as": "t", "from": {"zone": "garden", "side": "opponent", "type": "entity"}}},
       {"deal_damage": {"to": "t", "amount": 1}}]
TEST_CARDS = [
    _card("TST-ACT", "entity", [{"kind": "activated", "cost": {"ikz": 1}, "effect": HIT}]),
    _card("TST-TRIG", "entity", [{"kind": "triggered", "trigger": "on_play", "effect": HIT}]),
    _card("TST-MERGE", "spell", [{"kind": "spell", "requires": {"ge": [{"context": "hand_size"}, 2]}, "effect": HIT}]),
    _card("TST-UPTO", "spell", [{"kind": "spell", "effect": [
        {"choose": {"as": "t", "from": {"zone": "garden", "side": "opponent", "type": "entity"}, "optional": True}},
        {"deal_damage": {"to": "t", "amount": 1}}]}]),
    _card("TST-LATE", "spell", [{"kind": "spell", "effect": [{"draw": 1}] + HIT}]),
    _card("TST-WIN", "spell", [{"kind": "spell", "effect": [
        {"win": True}, {"deal_damage": {"to": "opponent_leader", "amount": 5}}]}]),
    _card("TST-PUMP", "spell", [{"kind": "spell", "effect": [
        {"modify_attack": {"target": "own_leader", "amount": 2}}]}]),
]


@pytest.fixture(scope="module")
def tset(tmp_path_factory):
    p = tmp_path_factory.mktemp("cast") / "cast.json"
    deck = dict(json.loads((DATA / "cards.json").read_text())["decks"][0], name="TST")
    main, free = dict(deck["main"]), len(TEST_CARDS)
    for cid in list(main):                # make room for one copy of each test card
        take = min(main[cid] - 1, free)
        main[cid] -= take
        free -= take
    deck["main"] = {**main, **{c["id"]: 1 for c in TEST_CARDS}}
    p.write_text(json.dumps({"format": "azuki-cards/1", "name": "cast", "include": ["azuki:cards.json"],
                             "cards": TEST_CARDS, "decks": [deck]}))
    return azuki.CardSet.from_json(str(p))


def tgame(tset, p0=None, p1=None):
    return make_game(("STT01", "STT02"), p0, p1, cards=tset)


ACT = "ACTIVATE_ABILITY p0.garden[0]"


def test_activated_ability_needs_its_target(tset):
    """docs/rules.md §8.3, §8.7 (X-CAST-1): an activated ability whose
    mandatory target does not exist cannot be used, with no `requires`
    written: the compiler derives it."""
    g = tgame(tset, {"garden": ["TST-ACT"], "ikz_area": ikz(1)})
    assert not find(g, ACT)
    g = tgame(tset, {"garden": ["TST-ACT"], "ikz_area": ikz(1)}, {"garden": [KUROBO]})
    do(g, ACT)
    assert any(e["type"] == "DAMAGE" and e["card"] == KUROBO for e in g.events())


def test_triggered_ability_and_entity_play_are_not_restricted(tset):
    """§8.7 (X-CAST-1): a triggered ability with nothing to choose does
    nothing; the entity carrying it is played as usual (§5.2)."""
    g = tgame(tset, {"hand": ["TST-TRIG"], "ikz_area": ikz(1), **KEEP})
    do(g, "PLAY_ENTITY_TO_GARDEN", "TST-TRIG")
    assert row(g, 0)[0] == "TST-TRIG" and g.prompt() is None


def test_explicit_requires_and_derived_condition_both_hold(tset):
    """X-CAST-1: the author's `requires` (2+ cards in hand) and the derived
    "a target exists" must both hold."""
    g = tgame(tset, {"hand": ["TST-MERGE"], "ikz_area": ikz(1)}, {"garden": [KUROBO]})
    assert not castable(g, "TST-MERGE")                 # target, but 1 card in hand
    g = tgame(tset, {"hand": ["TST-MERGE", KUROBO], "ikz_area": ikz(1)})
    assert not castable(g, "TST-MERGE")                 # 2 cards, no target
    g = tgame(tset, {"hand": ["TST-MERGE", KUROBO], "ikz_area": ikz(1)}, {"garden": [KUROBO]})
    assert castable(g, "TST-MERGE")


def test_optional_and_later_choices_do_not_restrict(tset):
    """§5.4, §8.5 (X-CAST-1): an "up to" (optional) choice never makes a spell
    unplayable; a choice after a step that changes the game (draw, then
    choose) is judged when it resolves, not at play time."""
    g = tgame(tset, {"hand": ["TST-UPTO", "TST-LATE"], "ikz_area": ikz(2)})
    assert castable(g, "TST-UPTO") and castable(g, "TST-LATE")


def test_derived_conditions_leave_the_starter_image_unchanged():
    """The starter's explicit requires already say what the derived
    conditions say (and Shao's choice always has a leader): its compiled
    image is the same with and without derivation (the goldens, the reference
    checkpoint and the embedded set's hash stay)."""
    cs = load_cardset()
    orig = Compiler._derived_choices
    try:
        Compiler._derived_choices = lambda self, a, kind, path: []
        plain = load_cardset()
    finally:
        Compiler._derived_choices = orig
    assert cs.compiled.bytecode == plain.compiled.bytecode
    assert [s.key() for s in cs.compiled.selectors] == [s.key() for s in plain.compiled.selectors]
    assert [a.__dict__ for a in cs.compiled.abilities] == [a.__dict__ for a in plain.compiled.abilities]
    assert not stealth_possible(json.loads((DATA / "cards.json").read_text())["cards"])
    assert stealth_possible(json.loads((DATA / "expansion.json").read_text())["cards"])


def test_derived_condition_is_compiled_from_the_same_selector():
    """Flame Cull's play condition is one CAN_CHOOSE over the selector its
    choose uses (stealth is in the expansion); in a set without stealth the
    same card compiles to COUNT_GE sel 1, the condition fast path."""
    exp = json.loads((DATA / "expansion.json").read_text())
    cull = next(c for c in exp["cards"] if c["id"] == CULL)
    for cards, op in (([cull], "COUNT_GE"), ([cull, _card("S", "entity", [], keywords=["stealth"])], "CAN_CHOOSE")):
        out = compile_abilities(cards, {})
        ab = out.abilities[0]
        req, prog = ab.requirement, ab.program
        assert out.bytecode[req] == OPS[op].code and out.bytecode[req + 1] == 0
        sel = out.bytecode[req + 2]
        assert out.bytecode[prog] == OPS["CHOOSE"].code and out.bytecode[prog + 2] == sel


# ------------------------------------------------------------ rulings where the rules are silent

def test_win_and_fallen_leader_naming_the_same_winner(tset):
    """X-CAST-6, docs/rules.md §15.6: a `win` and the opponent's leader falling
    at the same state check name the same winner: that player wins, and the
    end reason is LEADER (the leader's fall ends the game by the rules; the
    effect adds nothing to it)."""
    g = tgame(tset, {"hand": ["TST-WIN"], "ikz_area": ikz(1)}, {"leader": {"damage": 19}})
    do(g, SPELL, "TST-WIN")
    assert g.is_terminal and g.result == "WIN_P0" and g.end_reason == "LEADER"


def test_modify_attack_lasts_until_the_end_of_the_turn_by_default(tset):
    """X-CAST-7, docs/rules.md §8.8: a `modify_attack` without `duration` lasts
    until the end of the turn (as `grant` and `remove_status`)."""
    g = tgame(tset, {"hand": ["TST-PUMP"], "ikz_area": ikz(1), **KEEP})
    base = g.attack_of("p0.leader")
    do(g, SPELL, "TST-PUMP")
    assert g.attack_of("p0.leader") == base + 2
    do(g, "END_TURN")
    assert g.attack_of("p0.leader") == base

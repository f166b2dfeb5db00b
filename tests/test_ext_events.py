"""Events, keywords, replacement effects and game end (issue 17, group
"events"): scenario tests of docs/rules.md §15 over a card set made of the
starter cards plus the events fragment (the expansion (events cards, tests/expansion_cards.py)),
and a random-play property test over that set.

Each test cites the section of docs/rules.md (§15.x) or the ruling of
docs/rulings.md (X-EVENTS-n) it checks.
"""
import json
import pathlib
import random

import numpy as np
import pytest

import azuki
from azuki._core import CardSet, encode
from scenario import NO_OP, P, choose, discard, do, find, hand, ikz, leader_damage, make_game, options, row, strs
from expansion_cards import fragment

ROOT = pathlib.Path(__file__).resolve().parent.parent
STARTER = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())
FRAGMENT = fragment("events")

LEECH, ASP, SHADE, MARTYR, KILN, CULL, TITHE, RITUAL, PHOENIX, AVENGER, RUIN, SENTINEL, ORACLE, VIPER, SEED, \
    GAIA, GROVE, MONOLITH, BASTION = (f"EXP01-{i:03d}" for i in range(1, 20))


def _deck(name, leader, gate, main):
    return {"name": name, "title": name, "leader": leader, "gate": gate, "token": "IKZ-002",
            "ikz": {"IKZ-001": 10}, "main": main}


def events_doc():
    """The starter set plus the fragment, with a Fire and an Earth deck that
    play every card of the fragment."""
    doc = json.loads(json.dumps(STARTER))
    doc["name"] = "starter+events"
    doc["cards"] += FRAGMENT["cards"]
    # a test-only body with carapace 1 (no starter card has carapace): §15.4 poisonous vs carapace
    doc["cards"].append({"id": "EVT-SHELL", "name": "Test Shell", "card_type": "entity", "element": "earth",
                         "rarity": "C", "subtypes": [], "cost": 2, "attack": 1, "health": 3, "gate_points": 1,
                         "carapace": 1, "keywords": [], "text": "Carapace 1", "abilities": []})
    # test-only replacements whose statements do not move the card (§15.5, X-EVENTS-1)
    doc["cards"].append({"id": "EVT-WARD", "name": "Test Ward", "card_type": "entity", "element": "earth",
                         "rarity": "C", "subtypes": [], "cost": 2, "attack": 1, "health": 3, "gate_points": 1,
                         "keywords": [], "text": "If this would be dealt damage, draw a card instead.",
                         "abilities": [{"kind": "replacement", "event": "damaged", "applies_to": "self",
                                        "instead": [{"draw": 1}]}]})
    doc["cards"].append({"id": "EVT-STUB", "name": "Test Stubborn", "card_type": "entity", "element": "earth",
                         "rarity": "C", "subtypes": [], "cost": 2, "attack": 1, "health": 1, "gate_points": 1,
                         "keywords": [], "text": "If this would be destroyed, draw a card instead.",
                         "abilities": [{"kind": "replacement", "event": "destroyed", "applies_to": "self",
                                        "instead": [{"draw": 1}]}]})
    fire = {f"EXP01-{i:03d}": 4 for i in range(1, 12)}
    fire.update({"STT01-003": 4, "STT01-007": 2})
    earth = {f"EXP01-{i:03d}": 4 for i in (12, 13, 14, 15, 17, 18, 19)}
    earth.update({"STT02-003": 4, "STT02-004": 4, "STT02-005": 4, "STT02-006": 4, "STT02-007": 4, "STT02-008": 2})
    assert sum(fire.values()) == 50 and sum(earth.values()) == 50
    doc["decks"] += [_deck("EVFIRE", "STT01-001", "STT01-002", fire),
                     _deck("EVEARTH", GAIA, "STT02-002", earth)]
    return doc


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    p = tmp_path_factory.mktemp("events") / "events.json"
    p.write_text(json.dumps(events_doc()))
    return str(p)


def game(cards, p0=None, p1=None, decks=("STT01", "STT02"), **kw):
    return make_game(decks, p0, p1, cards=cards, **kw)


def test_fragment_compiles_and_uses_every_mechanic(cards):
    """Every trigger, keyword, statement and ability kind of §15 appears on a card."""
    cs = CardSet.from_json(cards)
    assert len(cs.ids) == len(STARTER["cards"]) + len(FRAGMENT["cards"]) + 3
    text = json.dumps(FRAGMENT)
    for word in ("on_destroyed", "on_damaged", "on_draw", "on_discarded", "game_start", "ally_enters",
                 '"destroy"', '"win"', '"lose"', "lifesteal", "poisonous", "stealth", '"replacement"',
                 '"prevent"', '"instead"', "trigger_value", "subject_gp"):
        assert word in text, word
    ids = [c["id"] for c in FRAGMENT["cards"]]
    assert ids == [f"EXP01-{i:03d}" for i in range(1, 20)]
    els = [c["element"] for c in FRAGMENT["cards"]]
    assert set(els) == {"fire", "earth"}


# ---------------------------------------------------------------- random play (property test)

PAIRINGS = [("EVFIRE", "EVEARTH"), ("EVEARTH", "EVFIRE"), ("EVFIRE", "STT02"), ("STT01", "EVEARTH"),
            ("EVEARTH", "EVEARTH"), ("EVFIRE", "EVFIRE")]


@pytest.mark.parametrize("pairing", PAIRINGS)
def test_random_play_keeps_every_invariant(cards, pairing):
    """Random games of the events decks: after every step the invariants hold
    (azk_check_invariants, which includes the legal cache and the state checks
    before every decision, rules §9 / §13.4), the mask equals the legal list,
    a clone and a serialize round trip are the same game, and resampling the
    hidden information keeps the observation (docs/observation.md)."""
    rng = random.Random(hash(pairing) & 0xFFFF)
    results = set()
    for seed in range(12):
        g = azuki.Game(seed=seed, decks=pairing, cards=cards)
        steps = 0
        while not g.is_terminal and steps < 3000:
            legal = [int(a) for a in g.legal_actions()]
            mask = g.action_mask()
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal)
            g.step(rng.choice(legal))
            steps += 1
            assert g.check_invariants() == 0, (pairing, seed, steps)
            if steps % 25 == 0:
                c = g.clone()
                assert c.state_hash() == g.state_hash()
                b = azuki.Game.from_bytes(g.to_bytes(), cards=cards, decks=pairing)
                assert b.state_hash() == g.state_hash() and b.check_invariants() == 0
                if not g.is_terminal:
                    me = g.current_player
                    r = g.clone()
                    obs = r.observe(me)
                    r.resample(me, seed + steps)
                    assert np.array_equal(r.observe(me), obs) and r.check_invariants() == 0
        results.add((g.result, g.end_reason))
    assert results


# ---------------------------------------------------------------- §15.4 keywords

REI, CRAB, MIZUKI, KUROBO, CREWLEADER = "STT02-004", "STT02-006", "STT02-013", "STT01-003", "STT01-008"
KEEP = {"hand": [REI], "ikz_area": ikz(1)}   # a choice left in the main phase: the turn does not end by itself


def test_lifesteal_heals_own_leader_by_damage_dealt(cards):
    """docs/rules.md §15.4: combat damage an Ember Leech (1/1) deals heals its
    controller's leader by that amount (1, 2 with +1 attack), never below 0 damage."""
    g = game(cards, {"garden": [LEECH], "leader": {"damage": 5}, **KEEP}, {"garden": [{"card": REI, "tapped": True}]})
    do(g, "ATTACK", "Ember Leech", "p1.garden[0]")
    assert leader_damage(g, 0) == 4
    assert P(g, 1)["garden"][0]["damage"] == 1        # Rei (1/2) took 1
    g = game(cards, {"garden": [LEECH], "leader": {"damage": 5}}, {"garden": [{"card": REI, "tapped": True}]},
             effects=[{"where": "p0.garden[0]", "attack": 1, "duration": "end_of_turn"}])
    do(g, "ATTACK", "Ember Leech", "p1.garden[0]")
    assert leader_damage(g, 0) == 3
    assert row(g, 1) == [None] * 5                    # Rei took 2
    g = game(cards, {"garden": [LEECH], "leader": {"damage": 1}},
             effects=[{"where": "p0.garden[0]", "attack": 1, "duration": "end_of_turn"}])
    do(g, "ATTACK", "Ember Leech", "p1.leader")
    assert leader_damage(g, 0) == 0 and leader_damage(g, 1) == 2


def test_lifesteal_on_prevented_damage_heals_only_what_was_dealt(cards):
    """docs/rules.md §15.4, §15.5 (X-EVENTS-3): the Stonehide Sentinel prevents 1
    of the 2 damage to its leader; the attacking Ember Leech (1 + 1 attack)
    heals only the 1 dealt. Against Foamback Crab (effect immune does not stop combat) all 2."""
    g = game(cards, {"garden": [LEECH], "leader": {"damage": 4}, **KEEP}, {"garden": [{"card": SENTINEL, "tapped": True}]},
             effects=[{"where": "p0.garden[0]", "attack": 1, "duration": "end_of_turn"}])
    do(g, "ATTACK", "Ember Leech", "p1.leader")
    assert leader_damage(g, 1) == 1 and leader_damage(g, 0) == 3
    assert P(g, 1)["garden"][0]["once_used"] == [0]    # once per turn: used


def test_poisonous_destroys_any_damaged_entity(cards):
    """docs/rules.md §15.4: Cinder Asp (2 attack) deals damage to Mizuki (3/4),
    which is destroyed although 2 < 4; the Asp takes 3 and dies too."""
    g = game(cards, {"garden": [ASP]}, {"garden": [{"card": MIZUKI, "tapped": True}]})
    do(g, "ATTACK", "Cinder Asp", "p1.garden[0]")
    assert row(g, 1) == [None] * 5 and MIZUKI in discard(g, 1)
    assert ASP in discard(g, 0)


def test_poisonous_vs_carapace(cards):
    """docs/rules.md §15.4 (X-EVENTS-2): carapace reduces the damage first;
    damage reduced to 0 is not dealt, so poisonous does nothing. A 1-attack
    poisonous dealer against carapace 1 leaves the shell; 2 attack kills it."""
    weak = game(cards, {"garden": [{"card": ASP}], **KEEP}, {"garden": [{"card": "EVT-SHELL", "tapped": True}]})
    assert weak.attack_of("p0.garden[0]") == 1         # printed
    do(weak, "ATTACK", "Cinder Asp", "p1.garden[0]")
    assert row(weak, 1)[0] == "EVT-SHELL" and P(weak, 1)["garden"][0]["damage"] == 0
    g = game(cards, {"garden": [ASP]}, {"garden": [{"card": "EVT-SHELL", "tapped": True}]},
             effects=[{"where": "p0.garden[0]", "attack": 1, "duration": "end_of_turn"}])
    do(g, "ATTACK", "Cinder Asp", "p1.garden[0]")
    assert row(g, 1) == [None] * 5                    # 2 - 1 = 1 dealt: destroyed


def test_poisonous_does_not_destroy_a_leader_or_godmode(cards):
    """docs/rules.md §15.4: poisonous destroys entities only; godmode stops the
    destruction (it is a destruction like any other, §15.3)."""
    g = game(cards, {"garden": [ASP]})
    do(g, "ATTACK", "Cinder Asp", "p1.leader")
    assert leader_damage(g, 1) == 1 and not g.is_terminal
    g = game(cards, {"garden": [ASP]}, {"garden": [{"card": MONOLITH, "tapped": True}]})
    do(g, "ATTACK", "Cinder Asp", "p1.garden[0]")
    assert row(g, 1)[0] == MONOLITH and g.check_invariants() == 0


def test_stealth_cannot_be_attacked_until_it_attacks(cards):
    """docs/rules.md §15.4: a tapped Ashen Shade is no attack target; once it
    has attacked (it is tapped by its attack), it can be attacked."""
    g = game(cards, {"garden": [REI]}, {"garden": [{"card": SHADE, "tapped": True}]})
    assert not find(g, "ATTACK", "p1.garden[0]")
    g = game(cards, {"garden": [SHADE], **KEEP}, {"garden": [REI]})
    do(g, "ATTACK", "Ashen Shade", "p1.leader")
    do(g, "END_TURN")
    assert P(g, 0)["garden"][0]["tapped"] and g.active_player == 1
    assert find(g, "ATTACK", "p0.garden[0]")          # it attacked: exposed


def test_stealth_blocks_only_the_opponents_choices(cards):
    """docs/rules.md §15.4 (X-EVENTS-4), §5.4 (X-CAST-2): Flame Cull cannot
    choose the opponent's stealthed Ashen Shade, so with no other candidate it
    cannot be played at all; with Rei beside it, Rei is the one candidate."""
    g = game(cards, {"hand": [CULL], "ikz_area": ikz(3)}, {"garden": [SHADE]})
    assert not find(g, "PLAY_SPELL", "Flame Cull")
    assert row(g, 1)[0] == SHADE and g.phase == "MAIN"
    g = game(cards, {"hand": [CULL], "ikz_area": ikz(3)}, {"garden": [SHADE, REI]})
    do(g, "PLAY_SPELL", "Flame Cull")                 # one candidate: Rei, taken without asking
    assert row(g, 1) == [SHADE, None, None, None, None]


def test_stealth_defender_may_still_block(cards):
    """docs/rules.md §15.4 (X-EVENTS-5): stealth stops the opponent choosing it;
    declaring a defender is its own controller's choice, so a stealthed
    Hidden Bastion may redirect an attack to itself (and stays stealthed:
    it did not attack)."""
    g = game(cards, {"garden": [{"card": CREWLEADER}], **KEEP}, {"garden": [BASTION]})
    do(g, "ATTACK", "Crewleader", "p1.leader")
    while g.phase == "RESPONSE":
        g.step(NO_OP)
    assert g.phase == "DEFENDER"
    do(g, "DECLARE_DEFENDER")
    assert leader_damage(g, 1) == 0
    assert P(g, 1)["garden"][0]["damage"] == 2 and P(g, 1)["garden"][0]["tapped"]
    assert not find(g, "ATTACK", "p1.garden[0]")      # the attacker is tapped anyway; the point: no crash, no exposure


# ---------------------------------------------------------------- §15.2 triggers, §15.3 destroy

def test_on_destroyed_uses_last_known_attack(cards):
    """docs/rules.md §15.2, §15.3: Pyre Martyr's [On Destroyed] deals damage
    equal to its attack as it last was on the field (2 + 2 from an effect = 4),
    although the card in the discard pile has its printed 2."""
    g = game(cards, {"garden": [{"card": MARTYR, "tapped": True}]}, {"garden": [MIZUKI], "hand": [CULL, REI],
             "ikz_area": ikz(4)}, active=1,
             effects=[{"where": "p0.garden[0]", "attack": 2, "duration": "end_of_turn"}])
    assert g.attack_of("p0.garden[0]") == 4
    do(g, "PLAY_SPELL", "Flame Cull")
    assert MARTYR in discard(g, 0)
    assert leader_damage(g, 1) == 4


def test_on_destroyed_gp_and_entity_destroyed_subject(cards):
    """docs/rules.md §15.2: Grave Seed draws cards equal to its GP (2) when
    destroyed in combat."""
    g = game(cards, {"garden": [MIZUKI], **KEEP}, {"garden": [{"card": SEED, "tapped": True}]})
    n = len(hand(g, 1))
    do(g, "ATTACK", "Mizuki", "p1.garden[0]")
    assert SEED in discard(g, 1) and len(hand(g, 1)) == n + 2


def test_destroy_statement_is_stopped_by_godmode(cards):
    """docs/rules.md §15.3: `destroy` counts as destroyed; godmode stops it."""
    g = game(cards, {"hand": [CULL, REI], "ikz_area": ikz(4)}, {"garden": [SEED]})
    n = len(hand(g, 1))
    do(g, "PLAY_SPELL", "Flame Cull")
    assert SEED in discard(g, 1) and len(hand(g, 1)) == n + 2   # its on_destroyed fired


def test_on_damaged_gets_the_amount(cards):
    """docs/rules.md §15.2: Scorched Avenger (2/2) takes 1 in combat from
    Alley Guy (1/2) and survives: 1 damage to the opponent's leader."""
    g = game(cards, {"garden": [{"card": "STT01-007"}], **KEEP}, {"garden": [{"card": AVENGER, "tapped": True}]})
    do(g, "ATTACK", "Alley Guy", "p1.garden[0]")
    assert P(g, 1)["garden"][0]["damage"] == 1
    assert leader_damage(g, 0) == 1


def test_ally_enters_fires_for_another_entity_only(cards):
    """docs/rules.md §15.2: Kiln Warden hears another entity entering its
    garden, not itself."""
    g = game(cards, {"hand": [KILN, REI], "ikz_area": ikz(5)})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Kiln Warden", "garden[0]")
    assert leader_damage(g, 1) == 0
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[1]")
    assert leader_damage(g, 1) == 1
    do(g, "PLAY_ENTITY_TO_ALLEY", "Kiln", "alley[0]") if find(g, "PLAY_ENTITY_TO_ALLEY", "Kiln") else None
    assert leader_damage(g, 1) == 1


def test_on_discarded_and_on_draw(cards):
    """docs/rules.md §15.2: Ritual of Embers discards Burning Tithe (2 damage to
    the opponent's leader from the discard pile) and draws 2; Moss Oracle
    (once per turn) gets +1 attack on the first draw."""
    g = game(cards, {"hand": [RITUAL, TITHE], "ikz_area": ikz(1), "garden": [ORACLE]})
    do(g, "PLAY_SPELL", "Ritual of Embers")
    assert TITHE in discard(g, 0)
    assert leader_damage(g, 1) == 2
    assert g.attack_of("p0.garden[0]") == 2 and P(g, 0)["garden"][0]["once_used"] == [0]


def test_game_start_trigger(cards):
    """docs/rules.md §15.2: Terra Matriarch Gaia draws 1 at the start of the
    game: after both mulligans, before turn 1 starts; an opening-hand draw
    (turn 0) is no on_draw."""
    for seed in range(4):
        g = azuki.Game(seed=seed, decks=("EVEARTH", "STT01"), cards=cards)
        while g.phase == "MULLIGAN":
            g.events()
            g.step(encode("MULLIGAN_KEEP", 0, 0))
        ev = g.events()
        start = next(i for i, e in enumerate(ev) if e["type"] == "TURN_START")
        before = ev[:start]
        assert [e["card"] for e in before if e["type"] == "ABILITY"] == [GAIA]
        assert [e["player"] for e in before if e["type"] == "DRAWN"] == [0]
        assert len(hand(g, 0)) + len(P(g, 0)["deck"]) == 50


# ---------------------------------------------------------------- §15.5 replacement effects

def test_replacement_returns_phoenix_to_hand(cards):
    """docs/rules.md §15.5: Phoenix Ascendant would be destroyed by lethal
    combat damage; instead it returns to its owner's hand (not destroyed: no
    DESTROYED event, not in the discard pile)."""
    g = game(cards, {"garden": [MIZUKI, "STT02-012"]}, {"garden": [{"card": PHOENIX, "tapped": True, "damage": 2}]})
    do(g, "ATTACK", "Mizuki", "p1.garden[0]")
    assert PHOENIX in hand(g, 1) and PHOENIX not in discard(g, 1)
    assert g.check_invariants() == 0


def test_replacement_vs_godmode(cards):
    """docs/rules.md §15.5 (X-EVENTS-1): godmode is checked first: a godmode
    card is never destroyed, so its "instead" never applies (Eternal
    Monolith stays with lethal damage); frozen (printed keywords off) and
    abilities off too: it is destroyed and the replacement does not apply."""
    g = game(cards, {"hand": [CULL], "ikz_area": ikz(3)}, {"garden": [{"card": MONOLITH, "damage": 7}]})
    assert row(g, 1)[0] == MONOLITH
    g = game(cards, {"garden": [{"card": MIZUKI}]}, {"garden": [{"card": MONOLITH, "tapped": True}]})
    do(g, "ATTACK", "Mizuki", "p1.garden[0]")
    assert row(g, 1)[0] == MONOLITH and MONOLITH not in hand(g, 1)


def test_prevent_is_once_per_turn(cards):
    """docs/rules.md §15.5: "the first time each turn": a second hit in the
    same turn is not reduced; the next turn it works again."""
    g = game(cards, {"garden": [REI, {"card": "STT01-008"}]}, {"garden": [{"card": SENTINEL, "tapped": True}]})
    do(g, "ATTACK", "Rei", "p1.leader")
    assert leader_damage(g, 1) == 0
    do(g, "ATTACK", "Crewleader", "p1.leader")
    assert leader_damage(g, 1) == 2


# ---------------------------------------------------------------- §15.6 game end

def test_win_statement(cards):
    """docs/rules.md §15.6: Endless Grove with 5 entities in the garden wins."""
    g = game(cards, {"hand": [GROVE], "ikz_area": ikz(7), "garden": [REI] * 5})
    do(g, "PLAY_SPELL", "Endless Grove")
    assert g.is_terminal and g.result == "WIN_P0" and g.end_reason == "EFFECT"
    g = game(cards, {"hand": [GROVE], "ikz_area": ikz(7), "garden": [REI] * 4})
    do(g, "PLAY_SPELL", "Endless Grove")
    assert not g.is_terminal


def test_both_players_winning_at_once_is_a_draw(cards):
    """docs/rules.md §15.6, RULES D10 (X-EVENTS-6): Mutual Ruin with 4 entities
    on each side: "you win" and "you lose" are judged at the same state
    check, as two leaders falling to one event are: a draw."""
    g = game(cards, {"hand": [RUIN], "ikz_area": ikz(4), "garden": [REI] * 4}, {"garden": [REI] * 4})
    do(g, "PLAY_SPELL", "Mutual Ruin")
    assert g.is_terminal and g.result == "DRAW" and g.end_reason == "EFFECT"
    g = game(cards, {"hand": [RUIN], "ikz_area": ikz(4), "garden": [REI] * 2}, {"garden": [REI] * 4})
    do(g, "PLAY_SPELL", "Mutual Ruin")
    assert g.is_terminal and g.result == "WIN_P1"


def test_exposed_is_in_the_state_dict_and_setup(cards):
    """docs/rules.md §15.4, docs/state_format.md: the end of stealth is part of
    the position: state_dict shows `exposed`, from_setup takes it, and an
    exposed stealth card has no stealth status (nor protection)."""
    g = game(cards, {"garden": [SHADE], **KEEP}, {"garden": [REI]})
    assert P(g, 0)["garden"][0]["statuses"] == ["stealth"] and "exposed" not in P(g, 0)["garden"][0]
    do(g, "ATTACK", "Ashen Shade", "p1.leader")
    e = P(g, 0)["garden"][0]
    assert e["exposed"] is True and e["statuses"] == []
    h = game(cards, {"garden": [{"card": SHADE, "exposed": True, "tapped": True}]}, {"garden": [REI]}, active=1)
    assert find(h, "ATTACK", "p0.garden[0]")
    assert P(h, 0)["garden"][0]["exposed"] is True


@pytest.mark.parametrize("kind", ["greedy", "search"])
def test_bots_play_the_events_decks(cards, kind):
    """The built-in bots (csrc/bot.c) play the events decks to the end with
    legal actions only, leaving the game untouched while they think."""
    from azuki.bots import make_bot
    for seed in range(2 if kind == "search" else 4):
        g = azuki.Game(seed=seed, decks=("EVFIRE", "EVEARTH"), cards=cards)
        bots = [make_bot(kind, seed=seed), make_bot("greedy" if kind == "search" else "random", seed=seed + 1)]
        while not g.is_terminal:
            legal = set(int(a) for a in g.legal_actions())
            h = g.state_hash()
            a = bots[g.current_player].act(g)
            assert a in legal and g.state_hash() == h
            g.step(a)
            assert g.check_invariants() == 0
        assert g.result in ("WIN_P0", "WIN_P1", "DRAW", "TRUNCATED")


def test_entity_destroyed_hears_every_destruction(cards):
    """docs/rules.md §15.2: Burrow Viper gets +1 attack for each entity
    destroyed (both sides), subject the destroyed card."""
    g = game(cards, {"garden": [VIPER, MIZUKI], **KEEP}, {"garden": [{"card": REI, "tapped": True}]})
    assert g.attack_of("p0.garden[0]") == 1
    do(g, "ATTACK", "Mizuki", "p1.garden[0]")
    assert REI in discard(g, 1) and g.attack_of("p0.garden[0]") == 2


def test_several_replacements_on_one_event(cards):
    """docs/rules.md §15.5: two Stonehide Sentinels each prevent 1 of the same
    damage to their leader (each once per turn, in field order): 3 damage
    becomes 1."""
    g = game(cards, {"garden": [{"card": MIZUKI}], **KEEP},
             {"garden": [{"card": SENTINEL, "tapped": True}, {"card": SENTINEL, "tapped": True}]})
    do(g, "ATTACK", "Mizuki", "p1.leader")
    assert leader_damage(g, 1) == 1
    assert [e["once_used"] for e in P(g, 1)["garden"][:2]] == [[0], [0]]


def test_sentinel_prevents_for_its_leader_only(cards):
    """docs/rules.md §15.5: a replacement applies to what `applies_to` names:
    Stonehide Sentinel's prevention is for its leader, so 1 poisonous damage
    to the Sentinel itself is dealt and destroys it (§15.4)."""
    frag = [c for c in FRAGMENT["cards"] if c["id"] == SENTINEL][0]
    assert frag["abilities"][0]["prevent"] == 1
    g = game(cards, {"garden": [{"card": ASP}], **KEEP}, {"garden": [{"card": SENTINEL, "tapped": True}]})
    do(g, "ATTACK", "Cinder Asp", "p1.garden[0]")        # printed attack 1
    # the Sentinel prevents damage to its leader only: 1 poisonous damage to it destroys it
    assert SENTINEL in discard(g, 1)


ORB = "STT01-017"   # Lightning Orb: up to 1 damage each to 2 different entities in the opponent's garden


def test_instead_runs_inside_another_ability(cards):
    """docs/rules.md §15.5: a damage replacement with statements runs in the
    middle of another ability (Lightning Orb's first damage, in response
    step (a)) in a frame of its own; the Orb's program then goes on with its
    second damage."""
    g = game(cards, {"hand": [ORB, REI], "ikz_area": ikz(2)}, {"garden": [MIZUKI, "EVT-WARD", REI], **KEEP},
             active=1)
    n = len(hand(g, 1))
    do(g, "ATTACK", "Mizuki", "p0.leader")
    do(g, "PLAY_SPELL", "Lightning Orb")                                      # response step (a)
    choose(g, card="EVT-WARD")
    choose(g, card=REI)                       # the Orb deals its damage after both choices
    assert len(hand(g, 1)) == n + 1 and P(g, 1)["garden"][1]["damage"] == 0   # drew instead of damage
    assert P(g, 1)["garden"][2]["damage"] == 1   # the Orb went on after the replacement: its second damage
    assert ORB in discard(g, 0) and g.check_invariants() == 0


def test_instead_that_leaves_the_card_does_not_save_it(cards):
    """docs/rules.md §15.1, X-EVENTS-1: a destroyed-replacement whose statements
    leave the card where it was applies once; the card is destroyed after all
    (no endless replacing)."""
    g = game(cards, {"garden": [MIZUKI], **KEEP}, {"garden": [{"card": "EVT-STUB", "tapped": True}]})
    n = len(hand(g, 1))
    do(g, "ATTACK", "Mizuki", "p1.garden[0]")
    assert "EVT-STUB" in discard(g, 1) and len(hand(g, 1)) == n + 1


def test_new_keywords_are_observed(cards):
    """docs/observation.md, docs/rules.md §15.4: PLACE_STATUS has a bit per
    status (generated from the status table, now 10), and a stealthed entity
    shows its stealth column until it has attacked."""
    from azuki import spec_autogen as S
    assert azuki.obs_layout()["PLACE_STATUS"]["n"] == len(S.STATUS)
    col = {n: i for i, n in enumerate(S.STATUS)}
    g = game(cards, {"garden": [SHADE, LEECH, ASP], **KEEP})
    st = azuki.obs_decode(g.observe(0))["PLACE_STATUS"]    # bits unpacked: [24, len(STATUS)]
    for name in ("STEALTH", "LIFESTEAL", "POISONOUS"):
        assert st[:, col[name]].sum() == 1, name
    do(g, "ATTACK", "Ashen Shade", "p1.leader")
    st = azuki.obs_decode(g.observe(0))["PLACE_STATUS"]
    assert st[:, col["STEALTH"]].sum() == 0


def test_frozen_card_has_no_on_destroyed(cards):
    """docs/rules.md §15.1 step 3, RULES §7: a frozen card has no abilities, so
    a frozen Grave Seed destroyed by Flame Cull draws nothing."""
    g = game(cards, {"hand": [CULL, REI], "ikz_area": ikz(4)}, {"garden": [SEED]},
             effects=[{"where": "p1.garden[0]", "statuses": ["frozen"], "duration": "end_of_turn"}])
    n = len(hand(g, 1))
    do(g, "PLAY_SPELL", "Flame Cull")
    assert SEED in discard(g, 1) and len(hand(g, 1)) == n

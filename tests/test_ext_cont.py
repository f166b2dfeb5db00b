"""Continuous effects: auras and cost modifiers (docs/rules.md §18,
docs/rulings.md "Cont"). Positions use the starter cards plus the expansion
fragment the expansion (cont cards, tests/expansion_cards.py) (tests/cont_cards.py):

  EXP01-060 Ember Warlord       4  2/2  your other Fire entities get +1 attack
  EXP01-061 Cinder Whelp        1  1/1  [Charge]
  EXP01-062 Smoke Veil Shaman   3  1/2  entities in the opponent's garden lose [Charge]
  EXP01-063 Forgemaster Hiroshi 3  1/2  your weapons cost 1 less
  EXP01-064 Warcry Drummer      2  1/1  [Garden Only] your other garden entities have [Charge]
  EXP01-065 Flame Tanto         1  weapon +1
  EXP01-066 Flare Bolt          2  spell: 2 damage to an enemy entity
  EXP01-067 Magma Captain       5  3/3  with 3+ entities in your garden, they get +1/+1
  EXP01-068 Stonewarden Elder   4  1/3  your alley entities get +1 health
  EXP01-069 Runestone Sage      3  1/2  your spells cost 1 less
  EXP01-070 Mountain Sentinel   5  3/4  your other Earth entities have [Defender]
  EXP01-071 Quarry Tollkeeper   2  1/1  the opponent's spells cost 1 more
  EXP01-072 Pebble Golem        1  1/1
  EXP01-073 Tremor              2  spell: 1 damage to each enemy garden entity
"""
import numpy as np
import pytest

import azuki
from azuki._core import encode

from cont_cards import cont_path
from scenario import (END_TURN, attack, choose, decline, do, find, has, make_game, row, discard, untapped_ikz,
                      leader_damage, NO_OP)

WARLORD, WHELP, SHAMAN, HIROSHI, DRUMMER, TANTO, FLARE, CAPTAIN = (f"EXP01-06{i}" for i in range(8))
ELDER, SAGE, SENTINEL, TOLL, GOLEM, TREMOR = (f"EXP01-0{i}" for i in range(68, 74))
CRATE_RAT, TENRAKU, LIGHTNING_ORB, INDRA = "STT01-003", "STT01-015", "STT01-017", "STT01-010"


def game(p0=None, p1=None, active=0, **kw):
    return make_game(["CONTFIRE", "CONTEARTH"], p0, p1, active=active, cards=cont_path(), **kw)


def hand_cost(g, p=0):
    obs = g.observe(p)
    n = len(g.state_dict()["players"][p]["hand"])
    return [int(v) for v in azuki.obs_slice(obs, "HAND_COST")[:n]]      # kind num: the cost itself


# ---- §18.1 / §18.2 attack and health auras ------------------------------------------------
def test_aura_gives_others_attack_not_itself():
    """docs/rules.md §18.1: "your other Fire entities": the source is not
    included ("another"); alley entities match too; the opponent's Fire
    entities and non-Fire ones do not."""
    g = game({"garden": [WARLORD, WHELP, CRATE_RAT], "alley": [WHELP]}, {"garden": [WHELP]})
    assert g.attack_of("p0.garden[0]") == 2          # the Warlord itself: printed
    assert g.attack_of("p0.garden[1]") == 2          # Fire: +1
    assert g.attack_of("p0.garden[2]") == 1          # Lightning: unchanged
    assert g.attack_of("p0.alley[0]") == 2           # the alley matches the selector
    assert g.attack_of("p1.garden[0]") == 1          # the opponent's Fire entity: side self only
    assert g.state_dict()["players"][0]["garden"][1]["attack"] == 2
    assert g.check_invariants() == 0


def test_aura_includes_its_source_when_the_selector_does():
    """docs/rules.md §18.1: without "another" the source matches its own
    selector: Stonewarden Elder in the alley gives itself +1 health."""
    g = game({"alley": [ELDER, GOLEM], "garden": [GOLEM]})
    assert g.health_of("p0.alley[0]") == 4
    assert g.health_of("p0.alley[1]") == 2
    assert g.health_of("p0.garden[0]") == 1          # garden: not an alley entity


def test_two_auras_add_up():
    """docs/rules.md §18.2: several auras add up; each Warlord gets the
    other's +1."""
    g = game({"garden": [WARLORD, WARLORD, WHELP]})
    assert [g.attack_of(f"p0.garden[{i}]") for i in range(3)] == [3, 3, 3]


def test_aura_with_a_condition():
    """docs/rules.md §18.1: an aura works while its condition holds, read
    every time (Magma Captain: 3+ entities in your garden)."""
    g = game({"garden": [CAPTAIN, GOLEM], "hand": [GOLEM], "ikz_area": 1})
    assert g.attack_of("p0.garden[1]") == 1 and g.health_of("p0.garden[1]") == 1
    do(g, "PLAY_ENTITY_TO_GARDEN", "Pebble Golem", "garden[2]")
    assert [g.attack_of(f"p0.garden[{i}]") for i in range(3)] == [4, 2, 2]
    assert [g.health_of(f"p0.garden[{i}]") for i in range(3)] == [4, 2, 2]


def test_frozen_source_has_no_aura_and_frozen_target_keeps_it():
    """docs/rules.md §18.1 (RULES §7: a frozen card's abilities are off): a
    frozen Warlord gives nothing; a frozen Whelp under a live Warlord still
    gets +1 (X-CONT-3)."""
    g = game({"garden": [WARLORD, WHELP]},
             effects=[{"where": "p0.garden[0]", "statuses": ["frozen"], "duration": "end_of_turn", "creator": 1}])
    assert g.attack_of("p0.garden[1]") == 1
    g = game({"garden": [WARLORD, WHELP]},
             effects=[{"where": "p0.garden[1]", "statuses": ["frozen"], "duration": "end_of_turn", "creator": 1}])
    assert g.attack_of("p0.garden[1]") == 2


def test_aura_source_leaving_mid_attack():
    """docs/rules.md §18.2: combat damage uses the attack as it is when damage
    is dealt. The Whelp (1 + 1 from the Warlord) attacks; in the response
    window the defender's Lightning Orb destroys the damaged Warlord; the
    Whelp deals 1, not 2."""
    setup = dict(p0={"garden": [{"card": WARLORD, "damage": 1}, WHELP]},
                 p1={"hand": [LIGHTNING_ORB], "ikz_area": 1})
    g = game(**setup)
    assert g.attack_of("p0.garden[1]") == 2
    attack(g, attacker=2, target=0)
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    choose(g, where="p0.garden[0]")
    decline(g)                                       # no second entity
    assert row(g, 0)[0] is None and WARLORD in discard(g, 0)
    assert g.attack_of("p0.garden[1]") == 1
    while g.current_player == 1 and g.phase != "MAIN":
        g.step(NO_OP)                                # no defender
    assert leader_damage(g, 1) == 1
    # the same attack without the Orb deals 2
    g = game(**setup)
    attack(g, attacker=2, target=0)
    while g.current_player == 1:
        g.step(NO_OP)
    assert leader_damage(g, 1) == 2


def test_health_aura_ending_destroys_a_damaged_entity():
    """docs/rules.md §18.2: when a +health aura ends, an entity whose damage
    now reaches its health is destroyed at the next state check (§9)."""
    g = game({"garden": [{"card": ELDER, "damage": 2}], "alley": [{"card": GOLEM, "damage": 1}]},
             {"hand": [FLARE], "ikz_area": 2}, active=1)
    assert g.health_of("p0.alley[0]") == 2           # 1 + 1: alive with 1 damage
    do(g, "PLAY_SPELL_MAIN", "Flare Bolt")
    choose(g, where="p0.garden[0]")                  # 2 more damage: the Elder dies
    assert row(g, 0) == [None] * 5 and row(g, 0, "alley") == [None] * 5
    assert discard(g, 0).count(GOLEM) == 1 and discard(g, 0).count(ELDER) == 1
    assert g.check_invariants() == 0


# ---- §18.2 auras that lower health (X-CONT-4) ----------------------------------------------
BLIGHT, HEXLORD = "TST-BLIGHT", "TST-HEXLORD"
_LOWER_PATH = None


def _lower_path():
    """cont_doc() plus two test cards: Blight Totem (2/3, "enemy entities get
    -1 health") and Hex Lord (0/5, "all leaders get -2 health"), and a deck
    that plays the Totem."""
    global _LOWER_PATH
    if _LOWER_PATH is None:
        import copy, json, pathlib, tempfile
        from cont_cards import cont_doc
        doc = cont_doc()
        base = {"card_type": "entity", "element": "earth", "rarity": "C", "subtypes": [], "gate_points": 1,
                "keywords": []}
        doc["cards"] += [
            dict(base, id=BLIGHT, name="Blight Totem", cost=2, attack=2, health=3, text="Enemy entities get -1 health.",
                 abilities=[{"kind": "static", "text": "enemy entities get -1 health",
                             "affects": {"zone": ["garden", "alley"], "side": "opponent", "type": "entity"},
                             "health": -1}]),
            dict(base, id=HEXLORD, name="Hex Lord", cost=5, attack=0, health=5, text="All leaders get -2 health.",
                 abilities=[{"kind": "static", "text": "all leaders get -2 health",
                             "affects": {"zone": ["leader"], "side": "any"}, "health": -2}]),
        ]
        deck = copy.deepcopy(doc["decks"][-1])
        deck["name"], deck["title"] = "BLIGHT", "test: Blight Totems"
        del deck["main"]["EXP01-072"]
        deck["main"]["EXP01-073"] -= 2
        deck["main"][BLIGHT] = 4
        deck["main"][HEXLORD] = 2
        doc["decks"].append(deck)
        d = pathlib.Path(tempfile.mkdtemp(prefix="azk_lower_"))
        _LOWER_PATH = str(d / "lower.json")
        pathlib.Path(_LOWER_PATH).write_text(json.dumps(doc))
    return _LOWER_PATH


def lgame(p0=None, p1=None, active=0, **kw):
    return make_game(["CONTFIRE", "BLIGHT"], p0, p1, active=active, cards=_lower_path(), **kw)


def test_lowering_aura_destroys_at_the_next_state_check():
    """docs/rules.md §18.2: "enemy entities get -1 health". Played, the Totem
    lowers every enemy entity's health at once: a 1-health Whelp (no damage)
    and a 2-health Warlord at 1 damage die at the next state check
    (X-CONT-4); the undamaged Warlord lives at 1 health; the Totem's own side
    is unchanged. Damage counts against the lowered health; when the Totem
    leaves, health comes back."""
    g = lgame({"garden": [WHELP, {"card": WARLORD, "damage": 1}, WARLORD]},
              {"hand": [BLIGHT], "ikz_area": 2, "garden": [GOLEM]}, active=1)
    assert g.health_of("p0.garden[0]") == 1
    do(g, "PLAY_ENTITY_TO_GARDEN", "Blight Totem", "garden[1]")
    assert row(g, 0) == [None, None, WARLORD, None, None]
    assert discard(g, 0).count(WHELP) == 1 and discard(g, 0).count(WARLORD) == 1
    assert g.health_of("p0.garden[2]") == 1
    assert g.health_of("p1.garden[0]") == 1          # its own side: printed
    assert g.check_invariants() == 0
    # damage that the lowered health cannot take: 2 damage on a 1-health Warlord
    g2 = lgame({"garden": [WARLORD]}, {"garden": [BLIGHT], "hand": [FLARE], "ikz_area": 2}, active=1)
    assert g2.health_of("p0.garden[0]") == 1
    do(g2, "PLAY_SPELL_MAIN", "Flare Bolt")          # the one enemy entity: no question
    assert row(g2, 0)[0] is None
    # the source leaves: health comes back (an entity at 1 damage under the Totem was dead already)
    g3 = lgame({"garden": [{"card": WARLORD}], "hand": [FLARE], "ikz_area": 2},
               {"garden": [BLIGHT]})
    assert g3.health_of("p0.garden[0]") == 1
    do(g3, "PLAY_SPELL_MAIN", "Flare Bolt")          # 2 damage to the Totem (3 health): it stays
    assert g3.health_of("p0.garden[0]") == 1 and row(g3, 1)[0] == BLIGHT
    g4 = lgame({"garden": [{"card": WARLORD}], "hand": [FLARE, FLARE], "ikz_area": 4},
               {"garden": [{"card": BLIGHT, "damage": 1}]})
    do(g4, "PLAY_SPELL_MAIN", "Flare Bolt")          # the Totem dies: the Warlord is back at 2 health
    assert row(g4, 1)[0] is None and g4.health_of("p0.garden[0]") == 2
    assert g3.check_invariants() == 0 and g4.check_invariants() == 0


def test_lowering_aura_on_leaders_ends_the_game():
    """docs/rules.md §18.2 / §9.1: a leader whose health an aura brings to its
    damage loses at the next state check; both at once: a draw (D10); one
    more health and the game goes on."""
    h0 = lgame().health_of("p0.leader")
    h1 = lgame().health_of("p1.leader")

    def hex_played(d0, d1):
        g = lgame({"leader": {"card": "STT01-001", "damage": d0}},
                  {"leader": {"card": "STT02-001", "damage": d1}, "hand": [HEXLORD], "ikz_area": 5}, active=1)
        do(g, "PLAY_ENTITY_TO_GARDEN", "Hex Lord", "garden[0]")
        return g

    g = hex_played(h0 - 2, 0)
    assert g.is_terminal and g.result == "WIN_P1" and g.end_reason == "LEADER"
    g = hex_played(h0 - 2, h1 - 2)
    assert g.is_terminal and g.result == "DRAW"
    g = hex_played(h0 - 3, h1 - 3)
    assert not g.is_terminal
    assert g.health_of("p0.leader") == h0 - 2 and g.health_of("p1.leader") == h1 - 2
    assert g.check_invariants() == 0


def test_lowering_aura_random_play_keeps_invariants():
    """Random play with the Totem deck (docs/rules.md §18.2, §9.1): the
    invariants hold after every step, in particular no entity stands at a
    decision with damage >= its (lowered) health (-15) and the state-check
    hint covers every entity (-98); and the lowering auras did stand on the
    field in these games."""
    import random
    rng = random.Random(5)
    seen_on_field = 0
    for seed in range(40):
        g = azuki.Game(seed=seed, decks=("CONTFIRE", "BLIGHT"), cards=_lower_path())
        steps = 0
        while not g.is_terminal:
            legal = g.legal_actions()
            g.step(int(legal[rng.randrange(len(legal))]))
            assert g.check_invariants() == 0
            steps += 1
            if steps % 5 == 0:
                rows = [c for pl in g.state_dict()["players"] for c in pl["garden"] + pl["alley"] if c]
                seen_on_field += any(c["card"] in (BLIGHT, HEXLORD) for c in rows)
    assert seen_on_field > 50


# ---- §18.3 keywords ---------------------------------------------------------------------
def _attackers(g):
    return sorted({g.action_str(a).split(" ")[1] for a in find(g, "ATTACK")})


def test_enemy_entities_lose_charge():
    """docs/rules.md §18.3: "entities in your opponent's garden lose
    [Charge]": a Whelp (printed Charge) played under the opponent's Shaman
    cannot attack the turn it entered; without the Shaman it can."""
    # two Whelps in hand: after the first, the turn goes on (not only END_TURN, §12.2)
    g = game({"hand": [WHELP, WHELP], "ikz_area": 2}, {"garden": [SHAMAN]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Cinder Whelp", "garden[0]")
    assert g.active_player == 0 and g.phase == "MAIN"
    assert "charge" not in g.statuses_of("p0.garden[0]")
    assert not has(g, "ATTACK", "garden[0]")
    g = game({"hand": [WHELP, WHELP], "ikz_area": 2}, {"alley": [SHAMAN]})   # statics work from the alley too
    do(g, "PLAY_ENTITY_TO_GARDEN", "Cinder Whelp", "garden[0]")
    assert "charge" not in g.statuses_of("p0.garden[0]")
    g = game({"hand": [WHELP, WHELP], "ikz_area": 2}, {"garden": [GOLEM]})   # no Shaman: Charge works
    do(g, "PLAY_ENTITY_TO_GARDEN", "Cinder Whelp", "garden[0]")
    assert "charge" in g.statuses_of("p0.garden[0]")
    assert has(g, "ATTACK", "garden[0]")
    # the Shaman's own side keeps charge
    g = game({"garden": [SHAMAN, {"card": WHELP, "cooldown": True}]})
    assert "charge" in g.statuses_of("p0.garden[1]")


def test_removal_beats_grant_and_temporary_grants():
    """docs/rules.md §18.3: removals apply after every grant (X-CONT-2): the
    Drummer's charge and a temporary charge effect are both taken away."""
    g = game({"garden": [DRUMMER, {"card": CRATE_RAT, "cooldown": True}]}, {"garden": [SHAMAN]},
             effects=[{"where": "p0.garden[1]", "statuses": ["charge"], "duration": "end_of_turn", "creator": 0}])
    assert "charge" not in g.statuses_of("p0.garden[1]")
    assert not has(g, "ATTACK", "garden[1]")


def test_grant_aura_lets_a_new_entity_attack():
    """docs/rules.md §18.3: the Drummer ([Garden Only]) gives the other
    garden entities Charge: a Crate Rat played this turn attacks; from the
    alley the Drummer gives nothing; it does not give itself Charge."""
    g = game({"garden": [{"card": DRUMMER, "tapped": True}], "hand": [CRATE_RAT], "ikz_area": 1})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Crate Rat", "garden[1]")
    assert g.active_player == 0 and g.phase == "MAIN"   # the Rat can attack: not only END_TURN
    assert "charge" in g.statuses_of("p0.garden[1]")
    assert has(g, "ATTACK", "garden[1]")
    g = game({"garden": [{"card": DRUMMER, "cooldown": True}]})
    assert "charge" not in g.statuses_of("p0.garden[0]")
    g = game({"alley": [DRUMMER], "hand": [CRATE_RAT, CRATE_RAT], "ikz_area": 2})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Crate Rat", "garden[0]")
    assert g.active_player == 0 and g.phase == "MAIN"
    assert "charge" not in g.statuses_of("p0.garden[0]")
    assert not has(g, "ATTACK", "garden[0]")


def test_granted_defender_can_be_declared():
    """docs/rules.md §18.3: Mountain Sentinel gives the other Earth entities
    Defender, and the defender step offers them."""
    g = game({"garden": [CRATE_RAT]}, {"garden": [SENTINEL, GOLEM]})
    assert "defender" in g.statuses_of("p1.garden[1]")
    assert "defender" not in g.statuses_of("p1.garden[0]")
    attack(g, attacker=1, target=0)                  # p1 cannot respond (no IKZ): step (b) at once (§12.2)
    assert g.phase == "DEFENDER" and has(g, "DECLARE_DEFENDER")
    assert g.check_invariants() == 0


# ---- §18.4 cost modifiers -----------------------------------------------------------------
def test_cost_modifier_makes_a_card_playable_and_is_paid():
    """docs/rules.md §18.4: with Hiroshi, Tenraku (3) costs 2: legal with
    exactly 2 IKZ, and playing it pays 2."""
    g = game({"garden": [HIROSHI], "hand": [TENRAKU], "ikz_area": 2})
    assert hand_cost(g) == [2]
    assert has(g, "PLAY_WEAPON", "Tenraku")
    do(g, "PLAY_WEAPON", "Tenraku")
    assert untapped_ikz(g, 0) == 0
    g = game({"garden": [GOLEM], "hand": [TENRAKU], "ikz_area": 2})     # without Hiroshi: 3 > 2
    assert g.active_player == 0 and g.phase == "MAIN"
    assert hand_cost(g) == [3]
    assert not has(g, "PLAY_WEAPON", "Tenraku")
    g = game({"garden": [HIROSHI], "hand": [TENRAKU], "ikz_area": 1})   # 2 > 1
    assert not has(g, "PLAY_WEAPON", "Tenraku")


def test_cost_modifiers_add_up_and_stop_at_zero():
    """docs/rules.md §18.4: two Hiroshis: Tenraku costs 1; Flame Tanto (1)
    costs 0, not -1, and is playable with no IKZ."""
    g = game({"garden": [HIROSHI, HIROSHI], "hand": [TENRAKU, TANTO], "ikz_area": 1})
    costs = dict(zip(g.state_dict()["players"][0]["hand"], hand_cost(g)))
    assert costs == {TENRAKU: 1, TANTO: 0}
    hand = g.state_dict()["players"][0]["hand"]
    assert [g.cost_of(f"p0.hand[{i}]") for i in range(2)] == [costs[c] for c in hand]   # the same through the API
    assert g.cost_of("p0.garden[0]") == 3            # printed, outside a hand
    do(g, "PLAY_WEAPON", "Flame Tanto")
    assert untapped_ikz(g, 0) == 1                   # paid nothing
    do(g, "PLAY_WEAPON", "Tenraku")
    assert untapped_ikz(g, 0) == 0


def test_own_and_opponent_modifiers_sum():
    """docs/rules.md §18.4: modifiers from both players add up: the
    opponent's Tollkeeper (+1) and my Sage (-1) cancel out."""
    g = game({"garden": [GOLEM], "hand": [FLARE], "ikz_area": 2}, {"garden": [TOLL, GOLEM]})
    assert g.active_player == 0 and g.phase == "MAIN"
    assert hand_cost(g) == [3] and not has(g, "PLAY_SPELL_MAIN", "Flare Bolt")
    g = game({"garden": [SAGE], "hand": [FLARE], "ikz_area": 2}, {"garden": [TOLL, GOLEM]})
    assert hand_cost(g) == [2] and has(g, "PLAY_SPELL_MAIN", "Flare Bolt")
    g = game({"garden": [SAGE], "hand": [FLARE], "ikz_area": 1}, {"garden": [GOLEM]})
    assert hand_cost(g) == [1] and has(g, "PLAY_SPELL_MAIN", "Flare Bolt")


def test_cost_modifier_in_the_response_window():
    """docs/rules.md §18.4: the response window's mask uses the modified cost
    too: with Runestone Sage, Lightning Orb (1) is a free response."""
    g = game({"garden": [CRATE_RAT]}, {"garden": [SAGE], "hand": [LIGHTNING_ORB], "ikz_area": 0})
    attack(g, attacker=1, target=0)
    assert has(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    g = game({"garden": [CRATE_RAT]}, {"garden": [GOLEM], "hand": [LIGHTNING_ORB], "ikz_area": 0})
    attack(g, attacker=1, target=0)
    assert not has(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")


def test_cost_modifier_source_leaving():
    """docs/rules.md §18.4: a modifier stops when its source leaves: Hiroshi
    replaced in a full garden, Tenraku costs 3 again and 2 IKZ no longer pay."""
    g = game({"garden": [HIROSHI, GOLEM, GOLEM, GOLEM, GOLEM], "hand": [GOLEM, TENRAKU], "ikz_area": 3})
    assert has(g, "PLAY_WEAPON", "Tenraku")
    do(g, "PLAY_ENTITY_TO_GARDEN", "Pebble Golem", "garden[0]")
    assert HIROSHI in discard(g, 0)
    assert untapped_ikz(g, 0) == 2 and hand_cost(g) == [3]
    assert not has(g, "PLAY_WEAPON", "Tenraku")
    assert g.check_invariants() == 0


def test_cost_modifier_only_in_hand_and_printed_cost_for_selectors():
    """docs/rules.md §18.4: selectors' cost filters read the printed cost
    (X-CONT-5): with Hiroshi, Tenraku still counts as cost 3 for a
    "cost 3 or less" selector and state_dict shows printed costs nowhere else."""
    g = game({"garden": [HIROSHI], "hand": [TENRAKU, CRATE_RAT], "ikz_area": 5})
    costs = dict(zip(g.state_dict()["players"][0]["hand"], hand_cost(g)))
    assert costs == {TENRAKU: 2, CRATE_RAT: 1}       # the entity is not a weapon


# ---- property: random play with the fragment ---------------------------------------------
@pytest.mark.parametrize("decks", [("CONTFIRE", "CONTEARTH"), ("CONTEARTH", "CONTFIRE"), ("CONTFIRE", "STT02"),
                                   ("STT01", "CONTEARTH")])
def test_random_play_keeps_invariants(decks):
    """Random games over the starter set plus the fragment: invariants after
    every step (the aura / cost hints exact), the mask equals the legal list,
    clone and serialize round trips give the same state."""
    rng = np.random.default_rng(17)
    path = cont_path()
    steps = 0
    for seed in range(6):
        g = azuki.Game(seed=seed, decks=decks, cards=path)
        while not g.is_terminal:
            legal = sorted(int(a) for a in g.legal_actions())
            mask = g.action_mask()
            assert sorted(np.flatnonzero(mask).tolist()) == legal
            if steps % 7 == 0:
                c = g.clone()
                assert c.state_hash() == g.state_hash()
                b = azuki.Game.from_bytes(g.to_bytes(), cards=path)
                assert b.state_hash() == g.state_hash()
                assert sorted(int(a) for a in b.legal_actions()) == legal
                assert np.array_equal(b.observe(0), g.observe(0))
            g.step(legal[int(rng.integers(len(legal)))])
            assert g.check_invariants() == 0
            steps += 1
    assert steps > 300


def test_aura_on_leaders_and_a_leader_health_aura_ending(tmp_path):
    """docs/rules.md §18.1-§18.2 with a variant card set: an aura whose
    description names leaders changes them too; a leader kept alive by a
    +health aura loses at the state check after the aura ends (§9)."""
    import json
    from cont_cards import cont_doc
    doc = cont_doc()
    elder = next(c for c in doc["cards"] if c["id"] == ELDER)
    elder["abilities"][0]["affects"] = {"zone": ["leader", "alley"], "side": "self"}
    path = tmp_path / "leader_aura.json"
    path.write_text(json.dumps(doc))
    g = make_game(["CONTFIRE", "CONTEARTH"], {"leader": {"card": "STT01-001", "damage": 20}, "garden": [ELDER]},
                  {"hand": [FLARE], "ikz_area": 2}, active=1, cards=str(path))
    assert g.health_of("p0.leader") == 21 and not g.is_terminal
    assert g.health_of("p0.garden[0]") == 3          # the garden is not in the description
    do(g, "PLAY_SPELL_MAIN", "Flare Bolt")           # the only target: no prompt (§12.2); 2 of 3, the Elder lives
    assert not g.is_terminal and g.health_of("p0.leader") == 21
    g = make_game(["CONTFIRE", "CONTEARTH"],
                  {"leader": {"card": "STT01-001", "damage": 20}, "garden": [{"card": ELDER, "damage": 2}]},
                  {"hand": [FLARE], "ikz_area": 2}, active=1, cards=str(path))
    do(g, "PLAY_SPELL_MAIN", "Flare Bolt")           # the Elder dies, the leader's aura with it
    assert g.is_terminal and g.winner == 1


def test_observation_reads_auras():
    """PLACE_ATTACK / PLACE_HEALTH / PLACE_STATUS read the rules' values
    (docs/observation.md), auras included."""
    g = game({"garden": [WARLORD, WHELP]}, {"garden": [SENTINEL, GOLEM]})
    obs = g.observe(0)
    from azuki import spec_autogen
    d = azuki.obs_decode(obs)
    assert d["PLACE_ATTACK"][2][0] == 2                # p0 garden slot 1: the Whelp, 1 + 1
    st = d["PLACE_STATUS"]                             # bits unpacked: [24, number of statuses]
    defender = list(spec_autogen.STATUS).index("DEFENDER")
    assert st[12 + 2][defender] == 1 and st[12 + 1][defender] == 0   # p1: the Golem, not the Sentinel


def test_freezing_a_health_aura_source_destroys_the_damaged_entity(tmp_path):
    """docs/rules.md §18.1-§18.2, X-CONT-3: a frozen source's aura stops at
    once, and the state check after the freeze destroys an entity the aura
    kept alive (variant set: Stonewarden Elder at cost 2, so Chilling Water,
    "cost 2 or less", can freeze it)."""
    import json
    from cont_cards import cont_doc
    doc = cont_doc()
    next(c for c in doc["cards"] if c["id"] == ELDER)["cost"] = 2
    path = tmp_path / "cheap_elder.json"
    path.write_text(json.dumps(doc))
    g = make_game(["CONTFIRE", "CONTEARTH"], {"garden": [ELDER], "alley": [{"card": GOLEM, "damage": 1}]},
                  {"hand": ["STT02-014"], "ikz_area": 1, "garden": [GOLEM]}, active=1, cards=str(path))
    assert g.health_of("p0.alley[0]") == 2
    do(g, "PLAY_SPELL_MAIN", "Chilling Water")       # one target: no prompt
    assert row(g, 0) == [ELDER, None, None, None, None]
    assert "frozen" in g.statuses_of("p0.garden[0]")
    assert row(g, 0, "alley") == [None] * 5 and GOLEM in discard(g, 0)
    assert g.check_invariants() == 0

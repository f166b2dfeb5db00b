"""Scenario tests for every STT01 (Raizan, Lightning) card with an ability.

Each test builds a position with azuki.Game.from_setup, plays the card or
ability through the public action API, and checks the resulting state against
/work/shared/RULES.md (§10 card semantics, §5-§9 rules, decisions Dn, §12).
Player 0 plays STT01 and player 1 STT02 unless a test says otherwise.
"""
import pytest

import azuki
from azuki._core import encode
from scenario import *  # noqa: F401,F403 (shared scenario helpers)


# ---------------------------------------------------------------- helpers

KUROBO, RECRUIT, PROWLER, HARUHI, ALLEY_GUY = (
    "STT01-003", "STT01-004", "STT01-005", "STT01-006", "STT01-007")
CREWLEADER, YAMADA, INDRA, RAIZAN_E = "STT01-008", "STT01-009", "STT01-010", "STT01-011"
SHURIKEN, DAGGER, TENSHIN, TENRAKU, ZANBATO, ORB = (
    "STT01-012", "STT01-013", "STT01-014", "STT01-015", "STT01-016", "STT01-017")
ITTO, REI, CRAB, BENZAI, MISAKI = "STT02-003", "STT02-004", "STT02-006", "STT02-007", "STT02-008"

WEAPONS = {SHURIKEN, DAGGER, TENSHIN, TENRAKU, ZANBATO}

RAIZAN_LEADER = encode("ACTIVATE_ABILITY", 0, 0)


def game(p0=None, p1=None, active=0, **kw):
    return make_game(("STT01", "STT02"), p0, p1, active, **kw)


def play_garden(g, card_name, slot=0):
    do(g, "PLAY_ENTITY_TO_GARDEN", card_name, f"-> garden[{slot}]")


def play_alley(g, card_name, slot=0):
    do(g, "PLAY_ENTITY_TO_ALLEY", card_name, f"-> alley[{slot}]")


def play_weapon(g, card_name, holder="leader"):
    do(g, "PLAY_WEAPON", card_name, f"-> {holder}")


def filler(n, card=REI):
    """n non-STT01 cards (STT02 Rei) for padding a discard pile."""
    return [card] * n


# ---------------------------------------------------------------- STT01-001 Raizan (leader)

def test_raizan_leader_gives_charge_to_equipped_entity():
    """§10 STT01-001 Raizan, §5.5, §7 charge: paying 1 IKZ gives the only
    equipped garden entity (just played, cooldown) charge; it can then attack
    this turn (auto-chosen target, §12)."""
    g = game({"ikz_area": 3, "hand": [REI],
              "garden": [{"card": KUROBO, "cooldown": True, "weapons": [SHURIKEN]}]})
    assert not legal(g, encode("ATTACK", 1, 0))
    assert legal(g, RAIZAN_LEADER)
    g.step(RAIZAN_LEADER)
    assert g.phase == "MAIN" and g.prompt() is None
    assert untapped_ikz(g, 0) == 2
    assert "charge" in g.statuses_of("p0.garden[0]")
    assert legal(g, encode("ATTACK", 1, 0))
    attack(g, 1, 0)
    assert leader_damage(g, 1) == 2       # Kurobo 1 + Shuriken 1


def test_raizan_leader_needs_equipped_garden_entity():
    """§10 STT01-001 Raizan 'needs such an entity to activate', §8 targets: an
    unequipped garden entity or a weapon on the leader does not qualify."""
    g = game({"ikz_area": 3, "hand": [REI],
              "leader": {"card": "STT01-001", "weapons": [SHURIKEN]},
              "garden": [{"card": KUROBO, "cooldown": True}]})
    assert not legal(g, RAIZAN_LEADER)
    assert not has(g, "ACTIVATE_ABILITY", "leader")


def test_raizan_leader_needs_ikz():
    """§10 STT01-001 Raizan, §5.1/§8 costs: with no untapped IKZ the 1-IKZ cost
    cannot be paid, so the ability is not legal."""
    g = game({"ikz_area": ikz(0, 3), "hand": [REI],
              "garden": [{"card": KUROBO, "cooldown": True, "weapons": [SHURIKEN]}]})
    assert not legal(g, RAIZAN_LEADER)


def test_raizan_leader_choice_and_once_per_turn():
    """§10 STT01-001 Raizan [Once/Turn], §8: with two equipped entities the
    player chooses which gets charge; the other does not, and the ability
    cannot be used a second time this turn."""
    g = game({"ikz_area": 4, "hand": [REI],
              "garden": [{"card": KUROBO, "cooldown": True, "weapons": [SHURIKEN]},
                         {"card": CREWLEADER, "cooldown": True, "weapons": [DAGGER]},
                         {"card": HARUHI, "cooldown": True}]})
    g.step(RAIZAN_LEADER)
    assert g.prompt()["kind"] == "CARD"
    assert option_wheres(g) == ["p0.garden[0]", "p0.garden[1]"]
    choose(g, where="p0.garden[1]")
    assert "charge" in g.statuses_of("p0.garden[1]")
    assert "charge" not in g.statuses_of("p0.garden[0]")
    assert legal(g, encode("ATTACK", 2, 0))
    assert not legal(g, encode("ATTACK", 1, 0))
    assert untapped_ikz(g, 0) == 3
    assert not legal(g, RAIZAN_LEADER)


def test_raizan_leader_charge_ends_with_turn():
    """§10 STT01-001 Raizan: charge 'until the end of the turn' (§4.3 step 3)."""
    g = game({"ikz_area": 3, "hand": [REI],
              "garden": [{"card": KUROBO, "cooldown": True, "weapons": [SHURIKEN]}]},
             {"hand": [REI], "ikz_area": 2})
    g.step(RAIZAN_LEADER)
    assert "charge" in g.statuses_of("p0.garden[0]")
    g.step(END_TURN)
    assert g.active_player == 1
    assert "charge" not in g.statuses_of("p0.garden[0]")


# ---------------------------------------------------------------- STT01-002 Surge (gate)

def test_surge_plays_weapon_from_discard_on_any_holder():
    """§10 STT01-002 Surge, §5.6, §5.7, D6, D11: after portaling Prowler (GP 2)
    the player may play a weapon with cost <= 2 from the discard pile for free
    and equip it to a holder other than the portaled entity."""
    g = game({"ikz_area": 2, "hand": [REI], "alley": [PROWLER],
              "garden": [CREWLEADER],
              "discard": [DAGGER, TENSHIN, TENRAKU, ZANBATO]})
    do(g, "PORTAL_GATE", "Alpine Prowler", "garden[1]")
    assert row(g, 0) == [CREWLEADER, PROWLER, None, None, None]
    assert P(g, 0)["gate"]["tapped"]
    assert P(g, 0)["garden"][1]["cooldown"]
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"] and pr["source"] == "STT01-002"
    assert option_cards(g) == [DAGGER, TENSHIN]        # GP cap: cost <= 2
    choose(g, card=TENSHIN)
    pr = g.prompt()
    assert pr["kind"] == "HOLDER"
    assert sorted(o["holder"] for o in pr["options"]) == [0, 1, 2]   # leader + both garden entities
    choose(g, holder=1)                                  # Crewleader, not the portaled Prowler
    decline(g)                                           # Tenshin's optional ping
    assert P(g, 0)["garden"][0]["weapons"][0]["card"] == TENSHIN
    assert g.attack_of("p0.garden[0]") == 2 + 1 + 2     # Crewleader equipped
    assert TENSHIN not in discard(g, 0)
    assert untapped_ikz(g, 0) == 2                       # free (D6)


def test_surge_gp_cap_higher_gp():
    """§10 STT01-002 Surge GP cap: Indra (GP 3) allows Tenraku (cost 3) but not
    Zanbato (cost 4); the chosen weapon can go on the leader (D11)."""
    g = game({"ikz_area": 2, "hand": [REI], "alley": [INDRA],
              "discard": [TENRAKU, ZANBATO]})
    do(g, "PORTAL_GATE", "Indra", "garden[0]")
    assert option_cards(g) == [TENRAKU]                  # optional: still asked
    choose(g, card=TENRAKU)
    choose(g, holder=0)
    assert [w["card"] for w in P(g, 0)["leader"]["weapons"]] == [TENRAKU]
    assert g.attack_of("p0.leader") == 3
    assert discard(g, 0) == [ZANBATO]


def test_surge_gp_zero_offers_nothing():
    """§10 STT01-002 Surge GP cap: Alley Guy has GP 0, no weapon costs 0, so
    nothing can be played; the portal completes with no prompt."""
    g = game({"ikz_area": 2, "hand": [REI], "alley": [ALLEY_GUY],
              "discard": [SHURIKEN, DAGGER]})
    do(g, "PORTAL_GATE", "Alley Guy", "garden[0]")
    assert g.prompt() is None and g.phase == "MAIN"
    assert row(g, 0)[0] == ALLEY_GUY
    assert discard(g, 0) == [SHURIKEN, DAGGER]


def test_surge_triggers_when_equipping():
    """§10 STT01-002 Surge, §5.7, D11: a weapon played by Surge is 'played', so
    Black Jade Dagger's when-equipping ability triggers (yes: 1 damage to own
    leader, +1 more attack)."""
    g = game({"ikz_area": 2, "hand": [REI], "alley": [KUROBO], "discard": [DAGGER]})
    do(g, "PORTAL_GATE", "Crate Rat Kurobo", "garden[0]")
    choose(g, card=DAGGER)
    choose(g, holder=1)
    pr = g.prompt()
    assert pr["kind"] == "YES_NO" and pr["source"] == DAGGER
    yes(g)
    assert leader_damage(g, 0) == 1
    assert g.attack_of("p0.garden[0]") == 1 + 1 + 1


def test_surge_decline_and_portal_is_not_play():
    """§10 STT01-002 Surge 'may' (D9), §5.6: declining leaves the discard pile
    unchanged; the portaled Kurobo is not 'played', so its on-play mill does
    not happen, and it has cooldown."""
    g = game({"ikz_area": 2, "hand": [REI], "alley": [KUROBO], "discard": [SHURIKEN]})
    deck_before = deck(g, 0)
    do(g, "PORTAL_GATE", "Crate Rat Kurobo", "garden[2]")
    decline(g)
    assert g.phase == "MAIN" and g.prompt() is None
    assert discard(g, 0) == [SHURIKEN]
    assert deck(g, 0) == deck_before
    assert row(g, 0)[2] == KUROBO and P(g, 0)["garden"][2]["cooldown"]
    assert not legal(g, encode("ATTACK", 3, 0))


# ---------------------------------------------------------------- STT01-003 Crate Rat Kurobo

TOP6 = [PROWLER, HARUHI, ALLEY_GUY, CREWLEADER, YAMADA, INDRA]


def test_kurobo_mills_5_without_weapon_in_discard():
    """§10 STT01-003 Kurobo: no weapon card in the discard pile -> the top 5
    cards of the deck go to the discard pile (mandatory, D9)."""
    g = game({"ikz_area": 2, "hand": [KUROBO, REI], "deck_top": TOP6,
              "discard": [ORB, BENZAI]})                # a spell is not a weapon card
    n = len(deck(g, 0))
    play_garden(g, "Kurobo")
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(discard(g, 0)) == sorted([ORB, BENZAI] + TOP6[:5])
    assert len(deck(g, 0)) == n - 5
    assert deck(g, 0)[0] == INDRA


def test_kurobo_mills_3_with_weapon_in_discard():
    """§10 STT01-003 Kurobo: a weapon card in the discard pile -> only the top
    3 are milled; playing it to the alley triggers on play too (§5.2)."""
    g = game({"ikz_area": 2, "hand": [KUROBO, REI], "deck_top": TOP6,
              "discard": [SHURIKEN]})
    n = len(deck(g, 0))
    play_alley(g, "Kurobo")
    assert row(g, 0, "alley")[0] == KUROBO
    assert sorted(discard(g, 0)) == sorted([SHURIKEN] + TOP6[:3])
    assert len(deck(g, 0)) == n - 3
    assert deck(g, 0)[:3] == TOP6[3:]


def test_kurobo_condition_checked_before_milling():
    """§10 STT01-003 Kurobo 'at that moment': the weapon check is made before
    milling, so milling weapons among the first 3 does not cut it to 3."""
    top = [SHURIKEN, DAGGER, TENSHIN, PROWLER, HARUHI, ALLEY_GUY]
    g = game({"ikz_area": 2, "hand": [KUROBO, REI], "deck_top": top})
    play_garden(g, "Kurobo")
    assert sorted(discard(g, 0)) == sorted(top[:5])
    assert deck(g, 0)[0] == ALLEY_GUY


def test_kurobo_short_deck_mills_what_is_there():
    """§10 STT01-003 Kurobo 'a short deck gives what it has', §9: milling is not
    a draw, so a 2-card deck is milled out without losing the game."""
    g = game({"ikz_area": 2, "hand": [KUROBO, REI], "deck": [PROWLER, HARUHI]})
    play_garden(g, "Kurobo")
    assert g.phase == "MAIN" and not g.is_terminal
    assert deck(g, 0) == []
    assert sorted(discard(g, 0)) == sorted([PROWLER, HARUHI])


# ---------------------------------------------------------------- STT01-004 Black Jade Recruit

LOOK5 = [KUROBO, TENSHIN, PROWLER, ZANBATO, ALLEY_GUY]


def test_recruit_discard_weapon_take_weapon_bottom_in_order():
    """§10 STT01-004 Recruit, §8 costs, rulings 2: discarding a weapon from hand
    (only weapons are offered) lets the player look at 5, take one weapon
    (only weapons offered), and bottom the rest one at a time in the chosen
    order (each beneath the previous)."""
    g = game({"ikz_area": 2, "hand": [RECRUIT, DAGGER, SHURIKEN, REI],
              "deck_top": LOOK5 + [INDRA]})
    n = len(deck(g, 0))
    play_garden(g, "Recruit")
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"] and pr["source"] == RECRUIT
    assert option_cards(g) == [SHURIKEN, DAGGER]
    choose(g, card=DAGGER)
    assert DAGGER in discard(g, 0)
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"]
    assert option_cards(g) == [TENSHIN, ZANBATO]          # only the weapons looked at
    choose(g, card=ZANBATO)
    order = [ALLEY_GUY, KUROBO, TENSHIN, PROWLER]
    for c in order[:-1]:
        assert g.prompt()["kind"] == "BOTTOM_ORDER"
        choose(g, card=c)
    assert g.prompt() is None and g.phase == "MAIN"      # last card is forced (§12)
    assert sorted(hand(g, 0)) == sorted([SHURIKEN, REI, ZANBATO])
    assert discard(g, 0) == [DAGGER]
    d = deck(g, 0)
    assert len(d) == n - 1
    assert d[0] == INDRA
    assert d[-4:] == order


def test_recruit_cost_declined_does_nothing():
    """§10 STT01-004 Recruit 'you may discard' (§8 costs): declining the cost
    means no look; the weapon stays in hand and the deck is unchanged."""
    g = game({"ikz_area": 2, "hand": [RECRUIT, DAGGER, REI], "deck_top": LOOK5})
    before = deck(g, 0)
    play_garden(g, "Recruit")
    decline(g)
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == sorted([DAGGER, REI])
    assert discard(g, 0) == []
    assert deck(g, 0) == before


def test_recruit_without_weapon_in_hand_no_prompt():
    """§10 STT01-004 Recruit, §8: the cost needs a weapon card in hand; with
    none, nothing happens (no prompt)."""
    g = game({"ikz_area": 2, "hand": [RECRUIT, REI, KUROBO], "deck_top": LOOK5})
    before = deck(g, 0)
    play_garden(g, "Recruit")
    assert g.prompt() is None and g.phase == "MAIN"
    assert deck(g, 0) == before and discard(g, 0) == []


def test_recruit_may_decline_the_weapon_all_five_bottomed():
    """§10 STT01-004 Recruit 'you may reveal one weapon': declining the pick
    puts all 5 looked-at cards on the bottom (identical copies offered once,
    §12)."""
    look = [KUROBO, KUROBO, TENSHIN, PROWLER, PROWLER]
    g = game({"ikz_area": 2, "hand": [RECRUIT, SHURIKEN, REI], "deck_top": look + [INDRA]})
    n = len(deck(g, 0))
    play_garden(g, "Recruit")
    choose(g, card=SHURIKEN)
    assert option_cards(g) == [TENSHIN]
    decline(g)
    assert g.prompt()["kind"] == "BOTTOM_ORDER"
    assert option_cards(g) == sorted([KUROBO, TENSHIN, PROWLER])  # copies offered once
    order = [PROWLER, KUROBO, TENSHIN, PROWLER]
    for c in order:
        assert g.prompt()["kind"] == "BOTTOM_ORDER"
        choose(g, card=c)
    assert g.prompt() is None                            # last Kurobo forced (§12)
    d = deck(g, 0)
    assert len(d) == n
    assert d[0] == INDRA
    assert d[-5:] == order + [KUROBO]
    assert sorted(hand(g, 0)) == sorted([REI])


# ---------------------------------------------------------------- STT01-005 Alpine Prowler

PROWLER_ALLEY0 = encode("ACTIVATE_ABILITY", 6, 0)


def test_prowler_sacrifice_draw_3_discard_2():
    """§10 STT01-005 Alpine Prowler [Alley Only]: sacrifice (cost) -> draw 3,
    then discard 2 cards of the player's choice from the whole hand."""
    g = game({"ikz_area": 2, "hand": [REI], "alley": [PROWLER],
              "deck_top": [KUROBO, TENSHIN, INDRA, HARUHI]})
    assert legal(g, PROWLER_ALLEY0)
    g.step(PROWLER_ALLEY0)
    assert row(g, 0, "alley")[0] is None
    assert PROWLER in discard(g, 0)
    pr = g.prompt()
    assert pr["kind"] == "CARD" and not pr["optional"]
    assert option_cards(g) == sorted([KUROBO, TENSHIN, INDRA, REI])
    choose(g, card=REI)
    assert option_cards(g) == sorted([KUROBO, TENSHIN, INDRA])
    choose(g, card=KUROBO)
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == sorted([TENSHIN, INDRA])
    assert sorted(discard(g, 0)) == sorted([PROWLER, REI, KUROBO])
    assert deck(g, 0)[0] == HARUHI


def test_prowler_not_activatable_in_garden():
    """§10 STT01-005 Alpine Prowler [Alley Only] (§8): in the garden the
    ability is not legal."""
    g = game({"ikz_area": 2, "hand": [REI], "garden": [PROWLER]})
    assert not legal(g, encode("ACTIVATE_ABILITY", 1, 0))
    assert not has(g, "ACTIVATE_ABILITY")


def test_prowler_forced_discards_of_identical_cards():
    """§10 STT01-005 Alpine Prowler, §12: with an empty hand and three identical
    cards drawn, every discard choice is forced and applied automatically."""
    g = game({"ikz_area": 0, "hand": [], "alley": [PROWLER, KUROBO],
              "deck_top": [HARUHI, HARUHI, HARUHI, INDRA]})
    g.step(PROWLER_ALLEY0)
    assert g.prompt() is None
    assert hand(g, 0) == [HARUHI]
    assert sorted(discard(g, 0)) == sorted([PROWLER, HARUHI, HARUHI])


def test_prowler_draw_from_short_deck_loses():
    """§10 STT01-005 Alpine Prowler, §9: drawing 3 from a 2-card deck is a draw
    from an empty deck -> its controller loses at once."""
    g = game({"ikz_area": 2, "hand": [REI], "alley": [PROWLER], "deck": [KUROBO, HARUHI]})
    g.step(PROWLER_ALLEY0)
    assert g.is_terminal
    assert g.winner == 1


# ---------------------------------------------------------------- STT01-007 Alley Guy

def test_alley_guy_discard_1_draw_1():
    """§10 STT01-007 Alley Guy: on play, may discard 1 card (any card in hand):
    then draw 1."""
    g = game({"ikz_area": 3, "hand": [ALLEY_GUY, TENSHIN, REI], "deck_top": [INDRA]})
    play_alley(g, "Alley Guy", 2)
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"] and pr["source"] == ALLEY_GUY
    assert option_cards(g) == sorted([TENSHIN, REI])
    choose(g, card=TENSHIN)
    assert sorted(hand(g, 0)) == sorted([REI, INDRA])
    assert discard(g, 0) == [TENSHIN]


def test_alley_guy_decline():
    """§10 STT01-007 Alley Guy 'may' (D9): declining discards and draws nothing."""
    g = game({"ikz_area": 3, "hand": [ALLEY_GUY, TENSHIN, REI], "deck_top": [INDRA]})
    before = deck(g, 0)
    play_garden(g, "Alley Guy")
    decline(g)
    assert sorted(hand(g, 0)) == sorted([TENSHIN, REI])
    assert discard(g, 0) == [] and deck(g, 0) == before


def test_alley_guy_empty_hand_nothing():
    """§10 STT01-007 Alley Guy: with no other card in hand the cost cannot be
    paid; no prompt, no draw."""
    g = game({"ikz_area": 3, "hand": [ALLEY_GUY], "alley": [PROWLER]})
    before = deck(g, 0)
    play_garden(g, "Alley Guy")
    assert g.prompt() is None
    assert hand(g, 0) == [] and deck(g, 0) == before


# ---------------------------------------------------------------- STT01-006 Silver Current, Haruhi

def haruhi_game(p0_extra=None, p1_garden=None):
    p0 = {"ikz_area": 2, "hand": [REI], "garden": [HARUHI]}
    p0.update(p0_extra or {})
    p1 = {"garden": p1_garden if p1_garden is not None else
          [REI, {"card": ITTO, "tapped": True}, MISAKI]}
    return game(p0, p1)


def test_haruhi_pings_garden_entity_when_attacking():
    """§10 STT01-006 Haruhi [When Attacking], §9: the player may deal 1 damage
    to the opponent's leader or any entity in the opponent's garden (tapped or
    not); 1 damage destroys the 1-health Itto; then combat damage (1) hits the
    leader."""
    g = haruhi_game()
    attack(g, 1, 0)
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"] and pr["source"] == HARUHI
    assert option_wheres(g) == ["p1.garden[0]", "p1.garden[1]", "p1.garden[2]", "p1.leader"]
    choose(g, where="p1.garden[1]")
    assert g.phase == "MAIN"
    assert row(g, 1) == [REI, None, MISAKI, None, None]
    assert discard(g, 1) == [ITTO]
    assert leader_damage(g, 1) == 1


def test_haruhi_pings_leader():
    """§10 STT01-006 Haruhi: choosing the opponent's leader deals 1 effect
    damage on top of the 1 combat damage."""
    g = haruhi_game()
    attack(g, 1, 0)
    choose(g, where="p1.leader")
    assert leader_damage(g, 1) == 2


def test_haruhi_decline_spends_once_per_turn():
    """§10 STT01-006 Haruhi 'may' (D9), rulings 4: declining deals no damage and
    the once-per-turn use is still spent."""
    g = haruhi_game()
    attack(g, 1, 0)
    decline(g)
    assert leader_damage(g, 1) == 1                      # combat only
    assert all(e is None or e["damage"] == 0 for e in P(g, 1)["garden"])
    assert P(g, 0)["garden"][0]["once_used"] == [0]


def test_haruhi_once_per_turn_already_used():
    """§10 STT01-006 Haruhi [Once/Turn] (§8): when the ability has already been
    used this turn, attacking again gives no ping prompt."""
    g = haruhi_game({"garden": [{"card": HARUHI, "once_used": [0]}]})
    attack(g, 1, 0)
    assert g.prompt() is None and g.phase == "MAIN"
    assert leader_damage(g, 1) == 1


def test_haruhi_once_per_turn_resets_next_turn():
    """§10 STT01-006 Haruhi [Once/Turn], rulings 7: the use resets for the next
    turn; a second Haruhi (another object) has its own use."""
    g = haruhi_game({"garden": [HARUHI, HARUHI], "hand": [REI, REI], "ikz_area": 1},
                    p1_garden=[])
    attack(g, 1, 0)
    choose(g, where="p1.leader")
    attack(g, 2, 0)
    assert g.prompt() is not None and g.prompt()["source"] == HARUHI
    choose(g, where="p1.leader")
    assert leader_damage(g, 1) == 4
    g.step(END_TURN)
    while g.active_player == 1 and not g.is_terminal:   # opponent passes
        g.step(END_TURN)
    assert g.active_player == 0 and g.phase == "MAIN"
    assert P(g, 0)["garden"][0]["once_used"] == []
    attack(g, 1, 0)
    choose(g, where="p1.leader")
    if g.phase == "RESPONSE":                            # Shao may respond now
        g.step(NO_OP)
    assert g.phase == "MAIN"
    assert leader_damage(g, 1) == 6


# ---------------------------------------------------------------- STT01-008 Black Jade Crewleader

def test_crewleader_plus_one_with_a_weapon():
    """§10 STT01-008 Crewleader (static, §8): 2 attack unequipped; +1 while it
    has a weapon attached (on top of the weapon's +1)."""
    g = game({"ikz_area": 3, "hand": [SHURIKEN, DAGGER], "garden": [CREWLEADER]})
    assert g.attack_of("p0.garden[0]") == 2
    play_weapon(g, "Shuriken", "garden[0]")
    assert g.attack_of("p0.garden[0]") == 2 + 1 + 1


def test_crewleader_bonus_not_per_weapon():
    """§10 STT01-008 Crewleader 'not per weapon', D5: with two weapons it gets
    the +1 once (2 + 1 + 1 + 1 = 5)."""
    g = game({"ikz_area": 3, "hand": [SHURIKEN, REI],
              "garden": [{"card": CREWLEADER, "weapons": [SHURIKEN]}]})
    play_weapon(g, "Shuriken", "garden[0]")
    assert len(P(g, 0)["garden"][0]["weapons"]) == 2
    assert g.attack_of("p0.garden[0]") == 5


def test_crewleader_bonus_ends_when_weapons_leave():
    """§10 STT01-008 Crewleader, §4.3 step 4, §8 statics never go stale: after
    the end phase discards its weapon, it is back to 2 attack."""
    g = game({"ikz_area": 3, "hand": [REI],
              "garden": [{"card": CREWLEADER, "weapons": [TENSHIN]}]},
             {"hand": [REI], "ikz_area": 2})
    assert g.attack_of("p0.garden[0]") == 5
    g.step(END_TURN)
    assert P(g, 0)["garden"][0]["weapons"] == []
    assert TENSHIN in discard(g, 0)
    assert g.attack_of("p0.garden[0]") == 2


# ---------------------------------------------------------------- STT01-009 Weapon Master Yamada

def test_yamada_needs_six_weapons_in_discard():
    """§10 STT01-009 Yamada: +2 only with 6 or more weapon cards in its
    controller's discard pile; non-weapon cards do not count."""
    five = [SHURIKEN, SHURIKEN, DAGGER, TENSHIN, TENRAKU]
    g = game({"hand": [REI], "ikz_area": 1, "garden": [YAMADA],
              "discard": five + [ORB] * 4 + [KUROBO] * 4 + filler(2)})
    assert g.attack_of("p0.garden[0]") == 2
    g = game({"hand": [REI], "ikz_area": 1, "garden": [YAMADA],
              "discard": five + [ZANBATO]})
    assert g.attack_of("p0.garden[0]") == 4


def test_yamada_counts_only_own_discard():
    """§10 STT01-009 Yamada 'your discard pile': weapons in the opponent's
    discard pile do not count."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [YAMADA],
              "discard": [SHURIKEN, DAGGER, TENSHIN]},
             {"discard": [SHURIKEN, DAGGER, TENSHIN, ZANBATO]})
    assert g.attack_of("p0.garden[0]") == 2


def test_yamada_bonus_recomputed_mid_attack():
    """§10 STT01-009 Yamada, §8 statics recomputed on every read, §6.3: a
    Shuriken mill (when attacking) that puts the 6th weapon into the discard
    pile raises the combat damage: 2 + 1 (Shuriken) + 2 = 5."""
    g = game({"hand": [REI], "ikz_area": 1,
              "garden": [{"card": YAMADA, "weapons": [SHURIKEN]}],
              "discard": [SHURIKEN, DAGGER, DAGGER, TENSHIN, TENRAKU],
              "deck_top": [ZANBATO]})
    assert g.attack_of("p0.garden[0]") == 3
    attack(g, 1, 0)
    assert discard(g, 0)[-1] == ZANBATO
    assert leader_damage(g, 1) == 5
    assert g.attack_of("p0.garden[0]") == 5


# ---------------------------------------------------------------- STT01-010 Indra

def test_indra_charge_attacks_the_turn_it_is_played():
    """§10 STT01-010 Indra charge, §5.5, §7: played into the garden it can attack
    at once (a Kurobo played the same turn cannot)."""
    g = game({"ikz_area": 7, "hand": [INDRA, KUROBO, REI]})
    play_garden(g, "Indra", 0)
    play_garden(g, "Kurobo", 1)
    assert "charge" in g.statuses_of("p0.garden[0]")
    assert legal(g, encode("ATTACK", 1, 0))
    assert not legal(g, encode("ATTACK", 2, 0))
    attack(g, 1, 0)
    assert leader_damage(g, 1) == 3


def test_indra_charge_after_portal():
    """§10 STT01-010 Indra, §5.5 '(by play, portal or any other way)': a portaled
    Indra also may attack the same turn."""
    g = game({"ikz_area": 1, "hand": [REI], "alley": [INDRA]})
    do(g, "PORTAL_GATE", "Indra", "garden[3]")
    assert P(g, 0)["garden"][3]["cooldown"]
    assert legal(g, encode("ATTACK", 4, 0))


# ---------------------------------------------------------------- STT01-011 Raizan (entity)

def test_raizan_entity_zanbato_plus5_on_itself_and_leader():
    """§10 STT01-011 Raizan, D12: while Raizan is on the field, each of its
    controller's Zanbatos gives +5 instead of +4, on Raizan itself (4 + 5) and
    on the leader (0 + 5)."""
    g = game({"ikz_area": 8, "hand": [ZANBATO, REI], "garden": [RAIZAN_E],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}})
    assert g.attack_of("p0.leader") == 5
    play_weapon(g, "Zanbato", "garden[0]")
    assert g.attack_of("p0.garden[0]") == 9


def test_raizan_entity_in_alley_also_counts():
    """§10 STT01-011 Raizan '(garden or alley)': from the alley it still makes
    the leader's Zanbato +5; without it the Zanbato gives +4."""
    g = game({"ikz_area": 1, "hand": [REI], "alley": [RAIZAN_E],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}})
    assert g.attack_of("p0.leader") == 5
    g = game({"ikz_area": 1, "hand": [REI],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}})
    assert g.attack_of("p0.leader") == 4


def test_two_raizans_do_not_stack():
    """§10 STT01-011 Raizan 'two of them do not stack', D12: with two Raizan
    entities each Zanbato is still +5 (leader 5; Raizan with two Zanbatos
    4 + 5 + 5 = 14)."""
    g = game({"ikz_area": 1, "hand": [REI], "alley": [RAIZAN_E],
              "garden": [{"card": RAIZAN_E, "weapons": [ZANBATO, ZANBATO]}],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}})
    assert g.attack_of("p0.leader") == 5
    assert g.attack_of("p0.garden[0]") == 14


def test_raizan_entity_does_not_boost_opponent_zanbato():
    """§10 STT01-011 Raizan 'you control', D12: the opponent's Zanbato keeps +4
    while only the other player has a Raizan entity."""
    g = game({"ikz_area": 1, "hand": [REI], "garden": [RAIZAN_E],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}},
             {"leader": {"card": "STT02-001", "weapons": [ZANBATO]}})
    assert g.attack_of("p0.leader") == 5
    assert g.attack_of("p1.leader") == 4


def test_raizan_entity_leaving_field_ends_bonus():
    """§10 STT01-011 Raizan 'while it is on the field', §8 statics recomputed,
    §9: Raizan (4/3) attacks a tapped Mizuki (3/4); both are destroyed and the
    leader's Zanbato drops back to +4."""
    g = game({"ikz_area": 1, "hand": [REI], "garden": [RAIZAN_E],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}},
             {"garden": [{"card": "STT02-013", "tapped": True}]})
    assert g.attack_of("p0.leader") == 5
    attack(g, 1, 1)
    assert row(g, 0)[0] is None and RAIZAN_E in discard(g, 0)
    assert row(g, 1)[0] is None
    assert g.attack_of("p0.leader") == 4


# ---------------------------------------------------------------- STT01-012 Lightning Shuriken

def test_shuriken_mills_one_when_holder_attacks():
    """§10 STT01-012 Lightning Shuriken (+1): when the holder attacks, the top
    card of the deck goes to the discard pile; damage 1 + 1."""
    g = game({"ikz_area": 1, "hand": [REI],
              "garden": [{"card": KUROBO, "weapons": [SHURIKEN]}],
              "deck_top": [INDRA, HARUHI]})
    assert g.attack_of("p0.garden[0]") == 2
    attack(g, 1, 0)
    assert discard(g, 0) == [INDRA]
    assert deck(g, 0)[0] == HARUHI
    assert leader_damage(g, 1) == 2


def test_shuriken_on_leader_each_copy_mills():
    """§10 STT01-012 Shuriken, §1 leader attacks with a weapon, D5: a leader with
    two Shurikens attacks for 2 and mills 2 (one per weapon, mandatory)."""
    g = game({"ikz_area": 2, "hand": [SHURIKEN, REI], "deck_top": [INDRA, HARUHI, YAMADA]})
    assert not legal(g, encode("ATTACK", 0, 0))
    play_weapon(g, "Shuriken", "leader")
    assert legal(g, encode("ATTACK", 0, 0))
    attack(g, 0, 0)
    assert discard(g, 0) == [INDRA]
    assert leader_damage(g, 1) == 1
    g2 = game({"ikz_area": 1, "hand": [REI], "deck_top": [INDRA, HARUHI, YAMADA],
               "leader": {"card": "STT01-001", "weapons": [SHURIKEN, SHURIKEN]}})
    assert g2.attack_of("p0.leader") == 2
    attack(g2, 0, 0)
    assert sorted(discard(g2, 0)) == sorted([INDRA, HARUHI])
    assert deck(g2, 0)[0] == YAMADA
    assert leader_damage(g2, 1) == 2


def test_shuriken_mill_from_empty_deck_is_harmless():
    """§10 STT01-012 Shuriken, §9: milling an empty deck is not a draw; the
    attack proceeds and nobody loses."""
    g = game({"ikz_area": 1, "hand": [REI], "deck": [],
              "garden": [{"card": KUROBO, "weapons": [SHURIKEN]}]})
    attack(g, 1, 0)
    assert not g.is_terminal and g.phase == "MAIN"
    assert discard(g, 0) == []
    assert leader_damage(g, 1) == 2


# ---------------------------------------------------------------- STT01-013 Black Jade Dagger

def test_dagger_yes_damages_own_leader_for_plus_one():
    """§10 STT01-013 Black Jade Dagger (+1): when equipping, yes -> 1 damage to
    own leader and the Dagger gives +2 in total."""
    g = game({"ikz_area": 2, "hand": [DAGGER, REI], "garden": [KUROBO]})
    play_weapon(g, "Dagger", "garden[0]")
    pr = g.prompt()
    assert pr["kind"] == "YES_NO" and pr["source"] == DAGGER
    yes(g)
    assert leader_damage(g, 0) == 1
    assert leader_damage(g, 1) == 0
    assert g.attack_of("p0.garden[0]") == 1 + 2
    attack(g, 1, 0)
    assert leader_damage(g, 1) == 3


def test_dagger_no_plain_plus_one():
    """§10 STT01-013 Dagger 'may' (D9): no -> no damage, just +1 (on the leader
    here: 0 + 1)."""
    g = game({"ikz_area": 2, "hand": [DAGGER, REI]})
    play_weapon(g, "Dagger", "leader")
    no(g)
    assert leader_damage(g, 0) == 0
    assert g.attack_of("p0.leader") == 1


def test_dagger_self_damage_can_lose_the_game():
    """§10 STT01-013 Dagger 'this can make you lose', §9: at 1 health, choosing
    to deal 1 damage to the own leader loses the game at once."""
    g = game({"ikz_area": 2, "hand": [DAGGER, REI],
              "leader": {"card": "STT01-001", "damage": 19}})
    play_weapon(g, "Dagger", "leader")
    yes(g)
    assert g.is_terminal and g.phase == "GAME_OVER"
    assert g.winner == 1


# ---------------------------------------------------------------- STT01-014 Tenshin

def test_tenshin_pings_opponent_leader():
    """§10 STT01-014 Tenshin (+2): when equipping, may deal 1 damage to a leader
    (both leaders offered; no entities)."""
    g = game({"ikz_area": 3, "hand": [TENSHIN, REI], "garden": [KUROBO]},
             {"garden": [REI]})
    play_weapon(g, "Tenshin", "garden[0]")
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"] and pr["source"] == TENSHIN
    assert option_wheres(g) == ["p0.leader", "p1.leader"]
    choose(g, where="p1.leader")
    assert leader_damage(g, 1) == 1 and leader_damage(g, 0) == 0
    assert g.attack_of("p0.garden[0]") == 3


def test_tenshin_own_leader_or_decline():
    """§10 STT01-014 Tenshin '(either player's)', 'may' (D9): the own leader can
    be chosen; declining deals no damage."""
    g = game({"ikz_area": 4, "hand": [TENSHIN, TENSHIN, REI]})
    play_weapon(g, "Tenshin", "leader")
    choose(g, where="p0.leader")
    assert leader_damage(g, 0) == 1
    play_weapon(g, "Tenshin", "leader")
    decline(g)
    assert leader_damage(g, 0) == 1 and leader_damage(g, 1) == 0
    assert g.attack_of("p0.leader") == 4


def test_tenshin_ping_can_win():
    """§10 STT01-014 Tenshin, §9: 1 damage to an opponent leader at 1 health wins."""
    g = game({"ikz_area": 3, "hand": [TENSHIN, REI]},
             {"leader": {"card": "STT02-001", "damage": 19}})
    play_weapon(g, "Tenshin", "leader")
    choose(g, where="p1.leader")
    assert g.is_terminal and g.winner == 0


# ---------------------------------------------------------------- STT01-015 Tenraku

def test_tenraku_needs_15_cards_in_discard():
    """§10 STT01-015 Tenraku (+3): +1 more while its controller's discard pile
    holds 15 or more cards (any cards)."""
    g = game({"hand": [REI], "ikz_area": 1,
              "garden": [{"card": KUROBO, "weapons": [TENRAKU]}], "discard": filler(14)})
    assert g.attack_of("p0.garden[0]") == 1 + 3
    g = game({"hand": [REI], "ikz_area": 1,
              "garden": [{"card": KUROBO, "weapons": [TENRAKU]}], "discard": filler(15)})
    assert g.attack_of("p0.garden[0]") == 1 + 4


def test_tenraku_counts_only_own_discard():
    """§10 STT01-015 Tenraku 'your discard pile': the opponent's 20 cards do not
    count."""
    g = game({"hand": [REI], "ikz_area": 1,
              "leader": {"card": "STT01-001", "weapons": [TENRAKU]}, "discard": filler(14)},
             {"discard": [ITTO] * 4 + [REI] * 4 + [BENZAI] * 4 + [MISAKI] * 4 + [CRAB] * 4})
    assert g.attack_of("p0.leader") == 3


def test_tenraku_bonus_recomputed_mid_attack():
    """§10 STT01-015 Tenraku, §8 statics recomputed, §6.3: with 14 cards in the
    discard pile a Shuriken mill (when attacking) makes it 15, so the leader
    deals 3 + 1 + 1 (Shuriken) = 5."""
    g = game({"hand": [REI], "ikz_area": 1, "discard": filler(14),
              "leader": {"card": "STT01-001", "weapons": [TENRAKU, SHURIKEN]}})
    assert g.attack_of("p0.leader") == 4
    attack(g, 0, 0)
    assert len(discard(g, 0)) == 15
    assert leader_damage(g, 1) == 5


# ---------------------------------------------------------------- STT01-016 Raizan's Zanbato

def test_zanbato_sweep_with_raizan_entity_holder():
    """§10 STT01-016 Raizan's Zanbato, §9: when a Raizan holder attacks, each
    entity in the opponent's garden takes 1 (1-health Itto destroyed;
    effect-immune Misaki unharmed, §7), then combat 4 + 5 = 9 to the leader."""
    g = game({"ikz_area": 1, "hand": [REI],
              "garden": [{"card": RAIZAN_E, "weapons": [ZANBATO]}]},
             {"garden": [REI, ITTO, MISAKI]})
    attack(g, 1, 0)
    assert g.phase == "MAIN"
    assert row(g, 1) == [REI, None, MISAKI, None, None]
    assert P(g, 1)["garden"][0]["damage"] == 1
    assert P(g, 1)["garden"][2]["damage"] == 0
    assert discard(g, 1) == [ITTO]
    assert leader_damage(g, 1) == 9


def test_zanbato_sweep_with_raizan_leader():
    """§10 STT01-016 Zanbato: the Raizan leader has subtype Raizan, so its
    Zanbato sweeps too; its own alley and the opponent's alley are untouched."""
    g = game({"ikz_area": 1, "hand": [REI], "garden": [KUROBO],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}},
             {"garden": [REI, BENZAI], "alley": [ITTO]})
    attack(g, 0, 0)
    assert [e["damage"] for e in P(g, 1)["garden"] if e] == [1, 1]
    assert row(g, 1, "alley")[0] == ITTO and P(g, 1)["alley"][0]["damage"] == 0
    assert P(g, 0)["garden"][0]["damage"] == 0
    assert leader_damage(g, 1) == 4


def test_zanbato_no_sweep_on_non_raizan_holder():
    """§10 STT01-016 Zanbato 'if the holder has subtype Raizan': on Crewleader
    (not Raizan) there is no sweep; combat 2 + 1 + 4 = 7."""
    g = game({"ikz_area": 1, "hand": [REI],
              "garden": [{"card": CREWLEADER, "weapons": [ZANBATO]}]},
             {"garden": [REI, ITTO]})
    attack(g, 1, 0)
    assert row(g, 1)[:2] == [REI, ITTO]
    assert all(e["damage"] == 0 for e in P(g, 1)["garden"] if e)
    assert leader_damage(g, 1) == 7


def test_zanbato_sweep_kills_target_attack_ends():
    """§10 STT01-016 Zanbato, §6.1 when-attacking before damage, §6.4: the sweep
    destroys the attacked tapped Itto, so the attack ends with no combat
    damage (the leader takes nothing back)."""
    g = game({"ikz_area": 1, "hand": [REI],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}},
             {"garden": [{"card": ITTO, "tapped": True}, REI]})
    attack(g, 0, 1)
    assert row(g, 1)[0] is None and ITTO in discard(g, 1)
    assert P(g, 1)["garden"][1]["damage"] == 1
    assert leader_damage(g, 0) == 0
    assert leader_damage(g, 1) == 0
    assert P(g, 0)["leader"]["tapped"]


# ---------------------------------------------------------------- STT01-017 Lightning Orb

def orb_game(p0_extra=None, p1_garden=None):
    """Player 1 (STT02) is active and attacks player 0's leader with the
    Hayabusa Itto (1/1) in garden slot 0; player 0 holds Lightning Orb."""
    p0 = {"ikz_area": 1, "hand": [ORB]}
    p0.update(p0_extra or {})
    p1 = {"garden": p1_garden or [ITTO, REI, BENZAI], "ikz_area": 1, "hand": [REI]}
    g = game(p0, p1, active=1)
    attack(g, 1, 0)
    return g


def test_orb_two_different_entities():
    """§10 STT01-017 Lightning Orb, §5.4, §6.2(a): in the response window it
    deals 1 to each of 2 different entities in the attacker's garden; the
    second choice excludes the first."""
    g = orb_game()
    assert g.phase == "RESPONSE" and g.current_player == 0
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"]
    assert option_wheres(g) == ["p1.garden[0]", "p1.garden[1]", "p1.garden[2]"]
    choose(g, where="p1.garden[1]")
    assert option_wheres(g) == ["p1.garden[0]", "p1.garden[2]"]
    choose(g, where="p1.garden[2]")
    assert g.phase == "MAIN" and g.current_player == 1
    assert [e["damage"] for e in P(g, 1)["garden"] if e] == [0, 1, 1]
    assert discard(g, 0) == [ORB]
    assert untapped_ikz(g, 0) == 0
    assert leader_damage(g, 0) == 1                      # Itto's combat damage


def test_orb_up_to_two_one_target():
    """§10 STT01-017 Lightning Orb 'up to 2' (§8): the second target may be
    declined; only one entity is damaged."""
    g = orb_game()
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    choose(g, where="p1.garden[1]")
    decline(g)
    assert [e["damage"] for e in P(g, 1)["garden"] if e] == [0, 1, 0]


def test_orb_kills_attacker_attack_ends():
    """§10 STT01-017 Lightning Orb, §9, §6.4: killing the attacking Itto in the
    response window ends the attack with no damage to the leader."""
    g = orb_game()
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    choose(g, where="p1.garden[0]")
    decline(g)
    assert g.phase == "MAIN" and g.current_player == 1
    assert row(g, 1)[0] is None and ITTO in discard(g, 1)
    assert leader_damage(g, 0) == 0


def test_orb_not_in_main_phase():
    """§10 STT01-017 Lightning Orb is a [Response] spell (§5.4): it cannot be
    played in its controller's main phase."""
    g = game({"ikz_area": 2, "hand": [ORB, REI]}, {"garden": [REI]})
    assert g.phase == "MAIN" and g.current_player == 0
    assert not has(g, "Lightning Orb")


# ---------------------------------------------------------------- further edge cases

def test_raizan_leader_once_per_turn_resets_next_turn():
    """§10 STT01-001 Raizan [Once/Turn], rulings 7: the leader ability is
    usable again on the controller's next turn."""
    g = game({"ikz_area": 3, "hand": [REI, SHURIKEN, SHURIKEN],
              "garden": [{"card": KUROBO, "cooldown": True, "weapons": [SHURIKEN]}]},
             {"deck_top": [REI, REI, REI]})
    g.step(RAIZAN_LEADER)
    assert P(g, 0)["leader"]["once_used"] == [0]
    g.step(END_TURN)
    while g.active_player == 1 and not g.is_terminal:
        g.step(END_TURN)
    assert g.active_player == 0 and g.phase == "MAIN"
    assert P(g, 0)["leader"]["once_used"] == []
    assert not legal(g, RAIZAN_LEADER)                   # the Shuriken is gone (§4.3)
    play_weapon(g, "Shuriken", "garden[0]")
    assert legal(g, RAIZAN_LEADER)


def test_surge_full_garden_replaced_entity_weapon_can_be_replayed():
    """§10 STT01-002 Surge, §5.6 with §2.3, §5.3: portaling into a full garden
    replaces an entity; its Dagger goes to the discard pile before Surge's
    effect, so it can be played again (free) and is offered once with its
    identical copy (§12)."""
    g = game({"ikz_area": 1, "hand": [REI], "alley": [PROWLER],
              "garden": [{"card": KUROBO, "weapons": [DAGGER]}, HARUHI, HARUHI, ALLEY_GUY,
                         CREWLEADER],
              "discard": [DAGGER]})
    do(g, "PORTAL_GATE", "Alpine Prowler", "garden[0]")      # slot 0 = replace Kurobo (rulings 10)
    assert row(g, 0)[0] == PROWLER
    assert sorted(discard(g, 0)) == sorted([DAGGER, KUROBO, DAGGER])
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["source"] == "STT01-002"
    assert option_cards(g) == [DAGGER]
    choose(g, card=DAGGER)
    choose(g, holder=1)
    no(g)
    assert [w["card"] for w in P(g, 0)["garden"][0]["weapons"]] == [DAGGER]
    assert sorted(discard(g, 0)) == sorted([DAGGER, KUROBO])


def test_recruit_short_deck_looks_at_what_is_there():
    """§10 STT01-004 Recruit, §9 'looking at it is not a draw: it uses what is
    there': with 2 cards in the deck it looks at both and takes the weapon."""
    g = game({"ikz_area": 2, "hand": [RECRUIT, DAGGER, REI], "deck": [TENRAKU, INDRA]})
    play_garden(g, "Recruit")
    choose(g, card=DAGGER)
    assert option_cards(g) == [TENRAKU]
    choose(g, card=TENRAKU)
    assert g.prompt() is None and not g.is_terminal
    assert sorted(hand(g, 0)) == sorted([REI, TENRAKU])
    assert deck(g, 0) == [INDRA]


def test_prowler_not_activatable_in_response_window():
    """§10 STT01-005 Alpine Prowler, §8: a non-[Response] activated ability is
    used only by the active player in the main phase, so the defender cannot
    use it; with nothing else to do the window is skipped (§12)."""
    g = game({"ikz_area": 0, "hand": [], "alley": [PROWLER]},
             {"garden": [REI], "hand": [REI], "ikz_area": 1}, active=1)
    attack(g, 1, 0)
    assert g.phase == "MAIN" and g.current_player == 1
    assert row(g, 0, "alley")[0] == PROWLER
    assert leader_damage(g, 0) == 1


def test_haruhi_ping_kills_target_attack_ends():
    """§10 STT01-006 Haruhi, §6.1 then §6.4: pinging the attacked tapped Itto
    (1/1) destroys it before damage; the attack ends and Haruhi takes no
    combat damage."""
    g = haruhi_game(p1_garden=[{"card": ITTO, "tapped": True}, REI])
    attack(g, 1, 1)
    choose(g, where="p1.garden[0]")
    assert row(g, 1)[0] is None
    assert P(g, 0)["garden"][0]["damage"] == 0
    assert P(g, 0)["garden"][0]["tapped"]


def test_alley_guy_draw_from_empty_deck_loses():
    """§10 STT01-007 Alley Guy, §9: discarding with an empty deck forces a draw
    from the empty deck -> its controller loses."""
    g = game({"ikz_area": 3, "hand": [ALLEY_GUY, REI], "deck": []})
    play_garden(g, "Alley Guy")
    choose(g, card=REI)
    assert g.is_terminal and g.winner == 1


def test_crewleader_weapon_on_leader_does_not_count():
    """§10 STT01-008 Crewleader 'while it has a weapon attached': a weapon on
    the leader or on another entity gives it nothing."""
    g = game({"ikz_area": 1, "hand": [REI],
              "leader": {"card": "STT01-001", "weapons": [SHURIKEN]},
              "garden": [CREWLEADER, {"card": KUROBO, "weapons": [DAGGER]}]})
    assert g.attack_of("p0.garden[0]") == 2


def test_frozen_statics_are_off():
    """§7 frozen disables abilities, §10 STT01-008/009/011: frozen Crewleader
    loses its +1, frozen Yamada its +2, and a frozen Raizan entity no longer
    makes the leader's Zanbato +5."""
    frz = lambda w: {"where": w, "statuses": ["frozen"], "duration": "start_of_next_turn",
                     "creator": 1}
    g = game({"ikz_area": 1, "hand": [REI],
              "garden": [{"card": CREWLEADER, "weapons": [SHURIKEN]}, YAMADA, RAIZAN_E],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]},
              "discard": [SHURIKEN, SHURIKEN, SHURIKEN, DAGGER, DAGGER, DAGGER]},
             effects=[frz("p0.garden[0]"), frz("p0.garden[1]"), frz("p0.garden[2]")])
    assert g.attack_of("p0.garden[0]") == 2 + 1
    assert g.attack_of("p0.garden[1]") == 2
    assert g.attack_of("p0.leader") == 4


def test_raizan_entity_of_opponent_does_not_boost_my_zanbato():
    """§10 STT01-011 Raizan, D12: a Raizan entity controlled by the opponent
    leaves my Zanbato at +4."""
    g = game({"ikz_area": 1, "hand": [REI],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}},
             {"garden": [RAIZAN_E]})
    assert g.attack_of("p0.leader") == 4


def test_zanbato_two_copies_sweep_twice():
    """§10 STT01-016 Zanbato, D5, §8: each attached Zanbato triggers; two sweeps
    destroy the 2-health Rei before combat (§6.4 not involved: it is not the
    target)."""
    g = game({"ikz_area": 1, "hand": [REI],
              "garden": [{"card": RAIZAN_E, "weapons": [ZANBATO, ZANBATO]}]},
             {"garden": [REI, {"card": "STT02-013"}]})
    attack(g, 1, 0)
    assert row(g, 1)[0] is None and REI in discard(g, 1)
    assert P(g, 1)["garden"][1]["damage"] == 2
    assert leader_damage(g, 1) == 14


def test_zanbato_sweep_skips_frozen_entity():
    """§10 STT01-016 Zanbato, §7 frozen 'cannot be damaged': the frozen entity
    takes no sweep damage; the others do."""
    g = game({"ikz_area": 1, "hand": [REI],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}},
             {"garden": [REI, BENZAI]},
             effects=[{"where": "p1.garden[0]", "statuses": ["frozen"],
                       "duration": "start_of_next_turn", "creator": 0}])
    attack(g, 0, 0)
    assert P(g, 1)["garden"][0]["damage"] == 0
    assert P(g, 1)["garden"][1]["damage"] == 1


def test_orb_only_opponent_entities_and_repeatable():
    """§10 STT01-017 Lightning Orb, D7: only the attacker's garden entities are
    offered (not the defender's own); after one Orb resolves the window stays
    open and a second Orb can be played."""
    g = orb_game({"ikz_area": 2, "hand": [ORB, ORB], "garden": [KUROBO]})
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    assert all(w.startswith("p1.garden") for w in option_wheres(g))
    choose(g, where="p1.garden[1]")
    choose(g, where="p1.garden[2]")
    assert g.phase == "RESPONSE" and g.current_player == 0
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    choose(g, where="p1.garden[1]")
    choose(g, where="p1.garden[2]")
    assert g.phase == "MAIN" and g.current_player == 1
    assert row(g, 1)[1:3] == [None, None]               # Rei 2 damage, Benzai 2 damage
    assert sorted(discard(g, 0)) == [ORB, ORB]
    assert leader_damage(g, 0) == 1


def test_orb_without_ikz_window_skipped():
    """§10 STT01-017 Lightning Orb, §5.1, §12: with no IKZ the Orb cannot be
    paid; passing is the only action, so the window is skipped."""
    g = orb_game({"ikz_area": 0})
    assert g.phase == "MAIN" and g.current_player == 1
    assert hand(g, 0) == [ORB]
    assert leader_damage(g, 0) == 1


def test_raizan_leader_pays_regular_ikz_before_token():
    """§10 STT01-001 Raizan 'Pay 1 IKZ', §5.1, D4: the cost is paid with a
    regular IKZ card; the untapped token stays in the area."""
    g = game({"ikz_area": [{"tapped": False, "token": False}, {"tapped": False, "token": True}],
              "hand": [REI],
              "garden": [{"card": KUROBO, "cooldown": True, "weapons": [SHURIKEN]}]})
    g.step(RAIZAN_LEADER)
    area = P(g, 0)["ikz_area"]
    assert [(e["token"], e["tapped"]) for e in area] == [(False, True), (True, False)]
    assert P(g, 0)["token"] != "out"


def test_prowler_usable_the_turn_it_is_played():
    """§10 STT01-005 Alpine Prowler, §5.5: the sacrifice cost is not a TAP cost
    and the alley gives no cooldown, so it can be used the turn it is played."""
    g = game({"ikz_area": 4, "hand": [PROWLER, REI], "deck_top": [INDRA, INDRA, INDRA]})
    play_alley(g, "Prowler", 3)
    assert legal(g, encode("ACTIVATE_ABILITY", 9, 0))
    g.step(encode("ACTIVATE_ABILITY", 9, 0))
    assert row(g, 0, "alley")[3] is None
    assert option_cards(g) == sorted([INDRA, REI])
    choose(g, card=INDRA)
    choose(g, card=INDRA)
    assert sorted(hand(g, 0)) == sorted([REI, INDRA])
    assert sorted(discard(g, 0)) == sorted([PROWLER, INDRA, INDRA])


def test_haruhi_ping_on_effect_immune_entity_is_prevented():
    """§10 STT01-006 Haruhi (ability damage = effect damage), §7 'cannot take
    damage from card effects': Misaki takes no damage from the ping."""
    g = haruhi_game(p1_garden=[MISAKI])
    attack(g, 1, 0)
    assert option_wheres(g) == ["p1.garden[0]", "p1.leader"]   # a target, just immune
    choose(g, where="p1.garden[0]")
    assert row(g, 1)[0] == MISAKI
    assert P(g, 1)["garden"][0]["damage"] == 0
    assert leader_damage(g, 1) == 1


def test_orb_on_effect_immune_entity_is_prevented():
    """§10 STT01-017 Lightning Orb, §7: spell damage to Serene Fist, Misaki
    (cannot take damage from card effects) is prevented; the other target is
    hit."""
    g = orb_game(p1_garden=[ITTO, MISAKI, REI])
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    assert "p1.garden[1]" in option_wheres(g)
    choose(g, where="p1.garden[1]")
    choose(g, where="p1.garden[2]")
    assert row(g, 1)[1] == MISAKI and P(g, 1)["garden"][1]["damage"] == 0
    assert P(g, 1)["garden"][2]["damage"] == 1


def test_orb_with_no_enemy_entity_is_still_playable():
    """§10 STT01-017 Lightning Orb 'up to 2', §5.4/§8: its targets are not
    mandatory, so with no entity in the attacker's garden (a leader attack) it
    may still be played; it only costs the IKZ and deals nothing."""
    g = game({"ikz_area": 1, "hand": [ORB]},
             {"leader": {"card": "STT02-001", "weapons": [SHURIKEN]}, "ikz_area": 1,
              "hand": [REI]}, active=1)
    attack(g, 0, 0)
    assert g.phase == "RESPONSE" and g.current_player == 0
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    assert g.prompt() is None
    assert discard(g, 0) == [ORB] and untapped_ikz(g, 0) == 0
    assert leader_damage(g, 0) == 1


def test_haruhi_trigger_before_weapon_trigger_d8():
    """§10 STT01-006 Haruhi and STT01-012 Shuriken, §8/D8: simultaneous
    when-attacking triggers resolve in field order, garden cards before
    weapons, so Haruhi's ping is asked before the Shuriken mills."""
    g = haruhi_game({"garden": [{"card": HARUHI, "weapons": [SHURIKEN]}],
                     "deck_top": [INDRA, YAMADA]})
    attack(g, 1, 0)
    assert g.prompt()["source"] == HARUHI
    assert discard(g, 0) == [] and deck(g, 0)[0] == INDRA
    choose(g, where="p1.leader")
    assert discard(g, 0) == [INDRA]
    assert leader_damage(g, 1) == 1 + 2


def test_dagger_bonus_is_per_dagger_object():
    """§10 STT01-013 Dagger, §2.1: the +1 belongs to the Dagger that paid for
    it; a second Dagger on the same holder declined gives only +1 (1 + 2 + 1)."""
    g = game({"ikz_area": 3, "hand": [DAGGER, DAGGER, REI], "garden": [KUROBO]})
    play_weapon(g, "Dagger", "garden[0]")
    yes(g)
    play_weapon(g, "Dagger", "garden[0]")
    no(g)
    assert leader_damage(g, 0) == 1
    assert g.attack_of("p0.garden[0]") == 1 + 2 + 1


def test_recruit_with_empty_deck_looks_at_nothing():
    """§10 STT01-004 Recruit, §9: with an empty deck the look finds nothing;
    the discarded weapon stays discarded and nobody loses."""
    g = game({"ikz_area": 2, "hand": [RECRUIT, DAGGER, REI], "deck": []})
    play_garden(g, "Recruit")
    choose(g, card=DAGGER)
    assert g.prompt() is None and not g.is_terminal and g.phase == "MAIN"
    assert discard(g, 0) == [DAGGER]
    assert hand(g, 0) == [REI]


def test_shuriken_only_when_its_holder_attacks():
    """§10 STT01-012 Shuriken 'when the holder attacks': a Shuriken on the
    leader does not mill when a garden entity attacks."""
    g = game({"ikz_area": 1, "hand": [REI], "garden": [KUROBO], "deck_top": [INDRA],
              "leader": {"card": "STT01-001", "weapons": [SHURIKEN]}})
    attack(g, 1, 0)
    assert discard(g, 0) == []
    assert deck(g, 0)[0] == INDRA
    assert leader_damage(g, 1) == 1


def test_zanbato_sweep_then_combat_on_surviving_target():
    """§10 STT01-016 Zanbato, §6.1, §6.3: the sweep (1) happens before combat;
    the attacked tapped Rei (1/2) survives it, then combat (4) destroys it and
    the Raizan leader takes 1 back (rulings 6 symmetry)."""
    g = game({"ikz_area": 1, "hand": [REI],
              "leader": {"card": "STT01-001", "weapons": [ZANBATO]}},
             {"garden": [{"card": REI, "tapped": True}, BENZAI]})
    attack(g, 0, 1)
    assert row(g, 1)[0] is None and REI in discard(g, 1)
    assert P(g, 1)["garden"][1]["damage"] == 1
    assert leader_damage(g, 0) == 1
    assert leader_damage(g, 1) == 0


def test_surge_then_raizan_charge_on_portaled_entity():
    """§10 STT01-002 Surge + STT01-001 Raizan, §5.5: a portaled Kurobo (cooldown)
    gets a Shuriken from the discard pile through Surge, then Raizan's charge
    lets it attack this turn; the Shuriken mills on the attack."""
    g = game({"ikz_area": 2, "hand": [REI], "alley": [KUROBO], "discard": [SHURIKEN],
              "deck_top": [INDRA]})
    do(g, "PORTAL_GATE", "Crate Rat Kurobo", "garden[0]")
    choose(g, card=SHURIKEN)
    choose(g, holder=1)
    assert not legal(g, encode("ATTACK", 1, 0))
    g.step(RAIZAN_LEADER)
    assert legal(g, encode("ATTACK", 1, 0))
    attack(g, 1, 0)
    assert discard(g, 0) == [INDRA]
    assert leader_damage(g, 1) == 2


def test_raizan_leader_paid_with_token_sends_it_out():
    """§10 STT01-001 Raizan 'Pay 1 IKZ', §5.1: when the token is the only
    untapped IKZ it pays, and a used token goes out of game."""
    g = game({"ikz_area": [{"tapped": True, "token": False}, {"tapped": False, "token": True}],
              "hand": [REI],
              "garden": [{"card": KUROBO, "cooldown": True, "weapons": [SHURIKEN]}]})
    assert legal(g, RAIZAN_LEADER)
    g.step(RAIZAN_LEADER)
    assert "charge" in g.statuses_of("p0.garden[0]")
    assert P(g, 0)["token"] == "out"
    assert not any(e["token"] for e in P(g, 0)["ikz_area"])

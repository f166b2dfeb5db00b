"""Scenario tests for every STT02 (Shao, Water) card with an ability.

Each test builds a position with azuki.Game.from_setup, plays the card or
ability through the public action API, and checks the resulting state against
/work/shared/RULES.md (§10 card semantics, §5-§9 rules, decisions Dn).
Player 0 plays STT02 and player 1 STT01 unless a test says otherwise.
"""
import pytest

import azuki
from azuki._core import encode
from scenario import *  # noqa: F401,F403 (shared scenario helpers)


# ---------------------------------------------------------------- helpers

def game(p0=None, p1=None, active=0, **kw):
    return make_game(("STT02", "STT01"), p0, p1, active, **kw)


SHAO_RESPONSE = encode("ACTIVATE_ABILITY", 0, 0)


def attacked_by_indra(p0_extra=None, p1_extra=None):
    """Player 1 (STT01) is active with Indra (3/2, charge) in garden slot 0 and
    declares an attack on player 0's leader; player 0 (STT02) is the defender."""
    p0 = {"ikz_area": 3, "garden": ["STT02-004"], "hand": []}
    p0.update(p0_extra or {})
    p1 = {"garden": ["STT01-010"], "ikz_area": 2, "hand": ["STT01-004"]}
    p1.update(p1_extra or {})
    g = game(p0, p1, active=1)
    attack(g, 1, 0)
    return g


# ---------------------------------------------------------------- STT02-001 Shao

def test_shao_response_reduces_attacker_attack():
    """§10 STT02-001 Shao, §6.2(a), §6.3: in the response window Shao pays 1 IKZ
    to give the attacking Indra -1 attack; combat damage to Shao is 2, not 3."""
    g = attacked_by_indra()
    assert g.phase == "RESPONSE" and g.current_player == 0
    assert SHAO_RESPONSE in g.legal_actions()
    g.step(SHAO_RESPONSE)
    assert g.prompt()["kind"] == "CARD"
    # either player's leader or garden entity is a legal target
    assert option_wheres(g) == ["p0.garden[0]", "p0.leader", "p1.garden[0]", "p1.leader"]
    choose(g, where="p1.garden[0]")
    assert untapped_ikz(g, 0) == 2
    # only passing is left: the window closes, combat resolves (§12)
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 2
    assert g.attack_of("p1.garden[0]") == 2


def test_shao_response_once_per_turn():
    """§10 STT02-001 Shao [Once/Turn], §8: after one use the ability is no longer
    legal in the same window, though other responses (Water Orb) still are."""
    g = attacked_by_indra({"hand": ["STT02-016", "STT02-004"]})
    g.step(SHAO_RESPONSE)
    choose(g, where="p1.garden[0]")
    assert g.phase == "RESPONSE" and g.current_player == 0
    assert SHAO_RESPONSE not in g.legal_actions()
    assert has(g, "PLAY_SPELL_RESPONSE", "Water Orb")


def test_shao_response_not_in_main_phase():
    """§10 STT02-001 Shao is [Response], §8: it cannot be activated in its
    controller's own main phase."""
    g = game({"ikz_area": 3, "garden": ["STT02-004"], "hand": ["STT02-004"]},
             {"garden": [{"card": "STT01-010", "tapped": True}]})
    assert g.phase == "MAIN" and g.current_player == 0
    assert SHAO_RESPONSE not in g.legal_actions()
    assert not has(g, "ACTIVATE_ABILITY")


def test_shao_response_needs_ikz():
    """§10 STT02-001 Shao, §8 costs, §12: with no untapped IKZ the cost cannot be
    paid; the defender can only pass, so the window is skipped and combat
    resolves for the full 3 damage."""
    g = attacked_by_indra({"ikz_area": ikz(0, 3)})
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 3


def test_shao_response_lasts_until_end_of_turn():
    """§10 STT02-001 Shao -1 'until the end of the turn', §4.3 step 3: the
    modifier is gone after the end phase."""
    g = attacked_by_indra()
    g.step(SHAO_RESPONSE)
    choose(g, where="p1.garden[0]")
    assert g.attack_of("p1.garden[0]") == 2
    g.step(END_TURN)
    assert g.attack_of("p1.garden[0]") == 3


def test_shao_response_on_own_leader_floor_zero():
    """§10 STT02-001 Shao may target any leader, §6.3: attack below 0 counts as 0.
    Shao targeting its own 0-attack leader: Indra still takes 0 back."""
    g = attacked_by_indra()
    g.step(SHAO_RESPONSE)
    choose(g, where="p0.leader")
    assert g.phase == "MAIN"
    assert P(g, 0)["leader"]["damage"] == 3
    assert P(g, 1)["garden"][0]["damage"] == 0


# ---------------------------------------------------------------- STT02-002 Hydromancy

def portal_position(alley, untapped=1, tapped=3, hand=("STT02-004",)):
    return game({"alley": alley, "ikz_area": ikz(untapped, tapped), "hand": list(hand)})


def test_hydromancy_untap_chosen_count():
    """§10 STT02-002 Hydromancy, §5.6: portal Young Shao (GP 2) with 3 tapped IKZ:
    the player chooses 0..min(2, 3); choosing 2 untaps exactly 2. The gate taps,
    the entity moves to the chosen slot with cooldown."""
    g = portal_position(["STT02-012"], untapped=1, tapped=3)
    g.step(encode("PORTAL_GATE", 0, 2))
    pr = g.prompt()
    assert pr["kind"] == "NUMBER" and pr["source"] == "STT02-002"
    assert sorted(o["value"] for o in pr["options"]) == [0, 1, 2]
    choose(g, value=2)
    assert untapped_ikz(g, 0) == 3 and tapped_ikz(g, 0) == 1
    p = P(g, 0)
    assert p["gate"]["tapped"] is True
    assert row(g, 0) == [None, None, "STT02-012", None, None]
    assert row(g, 0, "alley") == [None] * 5
    assert p["garden"][2]["cooldown"] is True
    # §5.5: cooldown, no attack; §5.6 gate is tapped, no second portal
    assert not has(g, "ATTACK")
    assert not has(g, "PORTAL_GATE")


def test_hydromancy_may_untap_zero():
    """§10 STT02-002 Hydromancy 'you may untap up to GP': 0 is a legal choice."""
    g = portal_position(["STT02-012"], untapped=1, tapped=3)
    g.step(encode("PORTAL_GATE", 0, 0))
    choose(g, value=0)
    assert untapped_ikz(g, 0) == 1 and tapped_ikz(g, 0) == 3
    assert g.phase == "MAIN"


def test_hydromancy_capped_by_tapped_ikz():
    """§10 STT02-002 Hydromancy: the count is 0..min(GP, tapped IKZ); Mizuki has
    GP 2 but only 1 IKZ is tapped, so the options are 0 and 1."""
    g = portal_position(["STT02-013"], untapped=2, tapped=1)
    g.step(encode("PORTAL_GATE", 0, 0))
    assert sorted(o["value"] for o in options(g)) == [0, 1]
    choose(g, value=1)
    assert untapped_ikz(g, 0) == 3 and tapped_ikz(g, 0) == 0


def test_hydromancy_gp_zero_or_nothing_tapped_no_prompt():
    """§10 STT02-002 Hydromancy, §12: with GP 0 (Rei) or no tapped IKZ the only
    answer is 0, so no prompt appears and nothing untaps."""
    g = portal_position(["STT02-004"], untapped=1, tapped=3)
    g.step(encode("PORTAL_GATE", 0, 1))
    assert g.prompt() is None and g.phase == "MAIN"
    assert untapped_ikz(g, 0) == 1 and row(g, 0)[1] == "STT02-004"
    g = portal_position(["STT02-012"], untapped=4, tapped=0)
    g.step(encode("PORTAL_GATE", 0, 1))
    assert g.prompt() is None and g.phase == "MAIN"
    assert untapped_ikz(g, 0) == 4


def test_hydromancy_portal_is_not_play():
    """§5.6: a portaled entity is not 'played': Benzai's on-play draw does not
    trigger and it does not count as played this turn (Saburo, §10 STT02-005)."""
    g = portal_position(["STT02-007"], untapped=1, tapped=3, hand=["STT02-004"])
    before = len(hand(g, 0))
    g.step(encode("PORTAL_GATE", 0, 0))
    assert len(hand(g, 0)) == before
    assert row(g, 0)[0] == "STT02-007"
    assert P(g, 0)["played_entities"] == 0


def test_hydromancy_portal_needs_untapped_alley_entity():
    """§5.6: only an untapped alley entity can be portaled, and only with an
    untapped gate."""
    g = game({"alley": [{"card": "STT02-012", "tapped": True}], "ikz_area": 2,
              "hand": ["STT02-004"]})
    assert not has(g, "PORTAL_GATE")
    g = game({"alley": ["STT02-012"], "gate": {"card": "STT02-002", "tapped": True},
              "ikz_area": 2, "hand": ["STT02-004"]})
    assert not has(g, "PORTAL_GATE")


# ---------------------------------------------------------------- STT02-003 Hayabusa Itto

ITTO_TOP = ["STT02-004", "STT02-009", "STT02-014", "STT02-007", "STT02-016", "STT02-005"]


def test_itto_takes_watercrafting_and_bottoms_rest_in_chosen_order():
    """§10 STT02-003 Hayabusa Itto: look at the top 5, only Watercrafting cards
    (Aya, Chilling Water, Water Orb) are offered; the pick goes to hand, the
    other 4 go to the bottom in the chosen order (docs/rulings.md 2: each card
    goes beneath the previous one); the 6th card becomes the top."""
    g = game({"deck_top": ITTO_TOP, "ikz_area": 3, "hand": ["STT02-003", "STT02-004"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Itto", "garden[0]")
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"] and pr["source"] == "STT02-003"
    assert option_cards(g) == ["STT02-009", "STT02-014", "STT02-016"]
    choose(g, card="STT02-014")
    assert g.prompt()["kind"] == "BOTTOM_ORDER"
    assert option_cards(g) == ["STT02-004", "STT02-007", "STT02-009", "STT02-016"]
    for cid in ["STT02-007", "STT02-016", "STT02-004"]:
        choose(g, card=cid)
    # the last card has one legal answer and is placed automatically (§12)
    assert g.phase == "MAIN" and g.prompt() is None
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-014"]
    d = deck(g, 0)
    assert d[0] == "STT02-005"
    assert d[-4:] == ["STT02-007", "STT02-016", "STT02-004", "STT02-009"]
    assert len(d) == 50 - 2 - 1  # Itto and Rei placed in hand; Chilling Water drawn out


def test_itto_may_decline():
    """§10 STT02-003 Hayabusa Itto 'you may reveal one': declining keeps all 5
    looked cards in the deck (bottomed); the hand gains nothing."""
    g = game({"deck_top": ITTO_TOP, "ikz_area": 3, "hand": ["STT02-003", "STT02-004"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Itto", "garden[0]")
    decline(g)
    bottom_all(g)
    assert g.phase == "MAIN"
    assert hand(g, 0) == ["STT02-004"]
    d = deck(g, 0)
    assert d[0] == "STT02-005"
    assert sorted(d[-5:]) == sorted(ITTO_TOP[:5])


def test_itto_no_watercrafting_no_pick_prompt():
    """§10 STT02-003 Hayabusa Itto, §8: with no Watercrafting card among the top
    5 nothing can be picked; only the bottom order is asked."""
    top = ["STT02-004", "STT02-007", "STT02-005", "STT02-008", "STT02-010", "STT02-003"]
    g = game({"deck_top": top, "ikz_area": 3, "hand": ["STT02-003", "STT02-004"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Itto", "garden[0]")
    assert g.prompt()["kind"] == "BOTTOM_ORDER"
    bottom_all(g)
    assert hand(g, 0) == ["STT02-004"]
    assert deck(g, 0)[0] == "STT02-003"
    assert sorted(deck(g, 0)[-5:]) == sorted(top[:5])


def test_itto_short_deck_looks_at_what_is_there():
    """§10 STT02-003 Hayabusa Itto, §9: looking at a short deck is not a draw; it
    uses the 2 cards there and the player does not lose."""
    g = game({"deck": ["STT02-016", "STT02-004"], "ikz_area": 3,
              "hand": ["STT02-003", "STT02-004"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Itto", "garden[0]")
    choose(g, card="STT02-016")
    assert g.phase == "MAIN" and not g.is_terminal
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-016"]
    assert deck(g, 0) == ["STT02-004"]


def test_itto_in_alley_also_triggers():
    """§10 STT02-003 Hayabusa Itto: 'on play' (not garden-only) also triggers when
    played to the alley (§5.2)."""
    g = game({"deck_top": ITTO_TOP, "ikz_area": 3, "hand": ["STT02-003", "STT02-004"]})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Hayabusa Itto", "alley[0]")
    assert g.prompt()["kind"] == "CARD"
    choose(g, card="STT02-009")
    bottom_all(g)
    assert "STT02-009" in hand(g, 0)


# ---------------------------------------------------------------- STT02-005 Hayabusa Saburo

SABURO_TOP = ["STT02-010", "STT02-011", "STT02-012"]


def test_saburo_draws_after_two_other_entities():
    """§10 STT02-005 Hayabusa Saburo: after playing Rei and Benzai this turn,
    Saburo's on-play draws 1 (the top card)."""
    g = game({"deck_top": SABURO_TOP, "ikz_area": 6,
              "hand": ["STT02-004", "STT02-005", "STT02-006"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[0]")
    do(g, "PLAY_ENTITY_TO_ALLEY", "Foamback Crab", "alley[0]")
    assert P(g, 0)["played_entities"] == 2
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Saburo", "garden[1]")
    assert hand(g, 0) == ["STT02-010"]
    assert deck(g, 0)[0] == "STT02-011"


def test_saburo_one_other_entity_no_draw():
    """§10 STT02-005 Hayabusa Saburo: with only 1 other entity played this turn
    there is no draw."""
    g = game({"deck_top": SABURO_TOP, "ikz_area": 6,
              "hand": ["STT02-004", "STT02-005", "STT02-006"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[0]")
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Saburo", "garden[1]")
    assert hand(g, 0) == ["STT02-006"]
    assert deck(g, 0)[0] == "STT02-010"


def test_saburo_does_not_count_itself():
    """§10 STT02-005 'at least 2 *other* entities': Rei then Saburo then a second
    Saburo: the first sees 1 other (no draw), the second sees 2 others (draw)."""
    g = game({"deck_top": SABURO_TOP, "ikz_area": 6,
              "hand": ["STT02-004", "STT02-005", "STT02-005", "STT02-006"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[0]")
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Saburo", "garden[1]")
    assert sorted(hand(g, 0)) == ["STT02-005", "STT02-006"]
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Saburo", "garden[2]")
    assert sorted(hand(g, 0)) == ["STT02-006", "STT02-010"]


def test_saburo_played_entities_from_setup():
    """§10 STT02-005 with state_format 'played_entities': 2 entities already
    played this turn make Saburo draw."""
    g = game({"deck_top": SABURO_TOP, "ikz_area": 3, "played_entities": 2,
              "hand": ["STT02-004", "STT02-005"]})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Hayabusa Saburo", "alley[0]")
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-010"]


def test_saburo_portal_does_not_count():
    """§10 STT02-005 'portals do not count', §5.6: one play plus one portal is
    only 1 played entity: no draw."""
    g = game({"deck_top": SABURO_TOP, "ikz_area": 6, "alley": ["STT02-004"],
              "hand": ["STT02-004", "STT02-005", "STT02-006"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[0]")
    g.step(encode("PORTAL_GATE", 0, 1))
    assert row(g, 0)[:2] == ["STT02-004", "STT02-004"]
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Saburo", "garden[2]")
    assert hand(g, 0) == ["STT02-006"]
    assert deck(g, 0)[0] == "STT02-010"


def test_saburo_counts_mizuki_free_play():
    """§10 STT02-005 with §5.7: Rei (played), Mizuki (played) whose effect plays
    Saburo free into the alley: Saburo sees 2 other played entities and draws."""
    g = game({"deck_top": ["STT02-005", "STT02-017", "STT02-017", "STT02-010"],
              "ikz_area": 6, "hand": ["STT02-004", "STT02-013"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[0]")
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[1]")
    # Saburo is the only Water card with cost <= 2 among the top 3
    choose(g, card="STT02-005")
    bottom_all(g)
    yes(g)
    if g.prompt() is not None and g.prompt()["kind"] == "SLOT":
        g.step(options(g)[0]["action"])
    assert "STT02-005" in row(g, 0, "alley")
    assert P(g, 0)["played_entities"] == 3
    # Saburo drew the card under the bottomed ones: the new top
    assert hand(g, 0) == ["STT02-010"]


# ---------------------------------------------------------------- STT02-006 Foamback Crab

def crab_attacked(p0_extra=None, p1_extra=None, effects=None):
    """Player 1 active: Indra (3/2, charge) attacks player 0's leader. Player 0
    has Rei in slot 0 and Foamback Crab in slot 1, no IKZ (no responses)."""
    p0 = {"garden": ["STT02-004", "STT02-006"], "ikz_area": 0, "hand": []}
    p0.update(p0_extra or {})
    p1 = {"garden": ["STT01-010"], "hand": ["STT01-004"], "ikz_area": 2}
    p1.update(p1_extra or {})
    g = game(p0, p1, active=1, effects=effects or [])
    attack(g, 1, 0)
    return g


def test_crab_defender_redirects_attack():
    """§10 STT02-006 Foamback Crab defender, §6.2(b): the crab taps and becomes
    the target; Indra's 3 combat damage destroys it (health 1), the leader takes
    nothing and Indra takes the crab's 0."""
    g = crab_attacked()
    assert g.phase == "DEFENDER" and g.current_player == 0
    assert has(g, "DECLARE_DEFENDER", "Foamback Crab")
    assert not has(g, "DECLARE_DEFENDER", "Rei")
    g.step(encode("DECLARE_DEFENDER", 1))
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 0
    assert row(g, 0)[1] is None and discard(g, 0) == ["STT02-006"]
    assert P(g, 1)["garden"][0]["damage"] == 0


def test_crab_may_not_redirect():
    """§6.2(b) 'may': passing leaves the leader as the target (3 damage) and the
    crab untapped."""
    g = crab_attacked()
    g.step(NO_OP)
    assert P(g, 0)["leader"]["damage"] == 3
    assert P(g, 0)["garden"][1]["tapped"] is False


def test_crab_tapped_cannot_defend():
    """§6.2(b): only an untapped defender can redirect; with a tapped crab there is
    no defender step choice and the leader takes the damage."""
    g = crab_attacked({"garden": ["STT02-004", {"card": "STT02-006", "tapped": True}]})
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 3


def test_crab_frozen_cannot_defend():
    """§6.2(b) non-frozen, §7 frozen disables keywords: a frozen crab cannot
    redirect."""
    g = crab_attacked(effects=[{"where": "p0.garden[1]", "statuses": ["frozen"],
                                "duration": "start_of_next_turn", "creator": 0}])
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 3


def test_crab_not_against_infiltrate():
    """§6.2(b), §7 Infiltrate: step (b) is skipped when the attacker has
    infiltrate."""
    g = crab_attacked(effects=[{"where": "p1.garden[0]", "statuses": ["infiltrate"],
                                "duration": "end_of_turn", "creator": 1}])
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 3
    assert row(g, 0)[1] == "STT02-006"


def test_crab_immune_to_haruhi_ping():
    """§10 STT02-006 cannot take damage from card effects, §7: Haruhi's
    when-attacking 1 damage to the crab is prevented."""
    g = game({"garden": ["STT02-006", "STT02-004"], "ikz_area": 0, "hand": []},
             {"garden": ["STT01-006"], "hand": ["STT01-004"], "ikz_area": 2}, active=1)
    attack(g, 1, 0)
    assert g.prompt()["source"] == "STT01-006"
    choose(g, where="p0.garden[0]")
    assert P(g, 0)["garden"][0]["damage"] == 0
    assert row(g, 0)[0] == "STT02-006"


def test_crab_immune_to_zanbato_but_rei_is_hit():
    """§10 STT02-006 effect immunity vs STT01-016 Raizan's Zanbato (1 damage to
    each enemy garden entity): Rei takes 1, the crab takes 0."""
    g = game({"garden": [{"card": "STT02-006", "tapped": True}, "STT02-004"],
              "ikz_area": 0, "hand": []},
             {"leader": {"card": "STT01-001", "weapons": ["STT01-016"]},
              "hand": ["STT01-004"], "ikz_area": 2}, active=1)
    attack(g, 0, 0)
    p = P(g, 0)
    assert p["garden"][0]["damage"] == 0
    assert p["garden"][1]["damage"] == 1
    assert p["leader"]["damage"] == 4


# ---------------------------------------------------------------- STT02-007 Benzai

def test_benzai_draws_one():
    """§10 STT02-007 Benzai the Merchant: on play (garden), draw 1 (the top card)."""
    g = game({"deck_top": ["STT02-013", "STT02-012"], "ikz_area": 3,
              "hand": ["STT02-004", "STT02-007"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Benzai", "garden[0]")
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-013"]
    assert deck(g, 0)[0] == "STT02-012"
    assert untapped_ikz(g, 0) == 1


def test_benzai_draws_from_alley_too():
    """§10 STT02-007 Benzai: the on-play draw is not garden-only (§5.2)."""
    g = game({"deck_top": ["STT02-013"], "ikz_area": 3, "hand": ["STT02-004", "STT02-007"]})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Benzai", "alley[2]")
    assert row(g, 0, "alley")[2] == "STT02-007"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-013"]


def test_benzai_draw_from_empty_deck_loses():
    """§10 STT02-007 Benzai, §9: a draw from an empty deck (by an effect) makes
    its player lose at once."""
    g = game({"deck": [], "ikz_area": 3, "hand": ["STT02-004", "STT02-007"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Benzai", "garden[0]")
    assert g.is_terminal and g.winner == 1 and g.result == "WIN_P1"


# ---------------------------------------------------------------- STT02-008 Misaki

def test_misaki_immune_to_lightning_orb():
    """§10 STT02-008 Serene Fist, Misaki, §7: Lightning Orb (played by the
    defending STT01 player) deals 1 to Misaki and 1 to Rei: Misaki (health 1)
    takes nothing and survives, Rei takes 1."""
    g = game({"garden": ["STT02-008", "STT02-004", "STT02-007"], "ikz_area": 2,
              "hand": ["STT02-004"]},
             {"hand": ["STT01-017"], "ikz_area": 2})
    attack(g, 2, 0)  # Rei attacks the enemy leader
    assert g.phase == "RESPONSE" and g.current_player == 1
    do(g, "PLAY_SPELL_RESPONSE", "Lightning Orb")
    choose(g, where="p0.garden[0]")
    choose(g, where="p0.garden[1]")
    assert g.phase == "MAIN" and g.current_player == 0
    p = P(g, 0)
    assert row(g, 0)[0] == "STT02-008" and p["garden"][0]["damage"] == 0
    assert p["garden"][1]["damage"] == 1
    assert P(g, 1)["leader"]["damage"] == 1


def test_misaki_immune_to_haruhi_ping():
    """§10 STT02-008 Misaki: Haruhi's when-attacking 1 effect damage is prevented."""
    g = game({"garden": ["STT02-008"], "ikz_area": 0, "hand": []},
             {"garden": ["STT01-006"], "hand": ["STT01-004"], "ikz_area": 2}, active=1)
    attack(g, 1, 0)
    choose(g, where="p0.garden[0]")
    assert row(g, 0)[0] == "STT02-008"
    assert P(g, 0)["garden"][0]["damage"] == 0
    assert P(g, 0)["leader"]["damage"] == 1


def test_misaki_still_takes_combat_damage():
    """§10 STT02-008 immunity covers card effects only (§7): attacked while tapped,
    Misaki takes Indra's 3 combat damage and is destroyed; she deals 2 back,
    destroying Indra (health 2) too (§6.3, §9)."""
    g = game({"garden": [{"card": "STT02-008", "tapped": True}], "ikz_area": 0, "hand": []},
             {"garden": ["STT01-010"], "hand": ["STT01-004"], "ikz_area": 2}, active=1)
    attack(g, 1, 1)
    assert row(g, 0)[0] is None and discard(g, 0) == ["STT02-008"]
    assert row(g, 1)[0] is None and discard(g, 1) == ["STT01-010"]


# ---------------------------------------------------------------- STT02-009 Aya

def aya_position(own_garden=("STT02-007", "STT02-004"), ikz_n=4):
    return game({"garden": list(own_garden), "ikz_area": ikz_n,
                 "hand": ["STT02-004", "STT02-009"]},
                {"garden": ["STT01-003", {"card": "STT01-006", "weapons": ["STT01-012"]},
                            "STT01-009"]})


def test_aya_returns_own_cost2_then_opponent_cost2():
    """§10 STT02-009 Aya, D13: the cost offers own garden entities with cost >= 2
    (Benzai, Aya herself; not Rei); after returning Benzai she may return an
    opponent entity with cost <= 2 (Kurobo, Haruhi; not Yamada, cost 4). Haruhi
    goes to its owner's hand and its weapon to the discard pile (§5.3, §2.2)."""
    g = aya_position()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"] and pr["source"] == "STT02-009"
    assert option_cards(g) == ["STT02-007", "STT02-009"]
    choose(g, card="STT02-007")
    assert option_cards(g) == ["STT01-003", "STT01-006"]
    choose(g, card="STT01-006")
    assert g.phase == "MAIN"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007"]
    assert row(g, 0)[:3] == [None, "STT02-004", "STT02-009"]
    assert hand(g, 1) == ["STT01-006"]
    assert row(g, 1)[:3] == ["STT01-003", None, "STT01-009"]
    assert discard(g, 1) == ["STT01-012"]


def test_aya_may_return_herself():
    """§10 STT02-009 Aya, D13: Aya in the garden qualifies as her own cost; the
    effect still resolves after she has left."""
    g = aya_position()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-009")
    choose(g, card="STT01-003")
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-009"]
    assert row(g, 0)[2] is None
    assert hand(g, 1) == ["STT01-003"]


def test_aya_declined_cost_no_effect():
    """§10 STT02-009 Aya, §8: declining the return cost means no effect on the
    opponent's garden."""
    g = aya_position()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    decline(g)
    assert g.phase == "MAIN" and g.prompt() is None
    assert row(g, 1)[:3] == ["STT01-003", "STT01-006", "STT01-009"]
    assert row(g, 0)[:3] == ["STT02-007", "STT02-004", "STT02-009"]


def test_aya_opponent_return_is_up_to_one():
    """§10 STT02-009 Aya 'up to 1', §8: after paying the cost the player may
    return nothing from the opponent's garden."""
    g = aya_position()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    decline(g)
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007"]
    assert row(g, 1)[:3] == ["STT01-003", "STT01-006", "STT01-009"]
    assert hand(g, 1) == []


def test_aya_in_alley_needs_another_cost2_entity():
    """§10 STT02-009 Aya: played to the alley she is not in the garden, so with
    only Rei (cost 1) in the garden the cost cannot be paid and nothing happens."""
    g = aya_position(own_garden=("STT02-004",))
    do(g, "PLAY_ENTITY_TO_ALLEY", "Aya", "alley[0]")
    assert g.prompt() is None and g.phase == "MAIN"
    assert row(g, 0)[0] == "STT02-004" and row(g, 0, "alley")[0] == "STT02-009"
    assert row(g, 1)[:3] == ["STT01-003", "STT01-006", "STT01-009"]


def test_aya_in_alley_returns_garden_entity():
    """§10 STT02-009 Aya: played to the alley, she can pay with a garden entity of
    cost >= 2 (Benzai); she herself is not offered."""
    g = aya_position()
    do(g, "PLAY_ENTITY_TO_ALLEY", "Aya", "alley[0]")
    # Benzai is the only legal cost, but the cost is optional: still a prompt
    assert option_cards(g) == ["STT02-007"]
    choose(g, card="STT02-007")
    choose(g, card="STT01-003")
    assert hand(g, 1) == ["STT01-003"]
    assert row(g, 0, "alley")[0] == "STT02-009"


# ---------------------------------------------------------------- STT02-010 Selis

SELIS_TOP = ["STT02-013", "STT02-012", "STT02-011"]


def selis_aya_position(selis_in_garden=True, selis_extra=None, ikz_n=3):
    selis = {"card": "STT02-010"}
    selis.update(selis_extra or {})
    p0 = {"deck_top": SELIS_TOP, "garden": ["STT02-007", "STT02-004"],
          "ikz_area": ikz_n, "hand": ["STT02-004", "STT02-009"]}
    if selis_in_garden:
        p0["garden"] = ["STT02-007", "STT02-004", None, selis]
    else:
        p0["alley"] = [selis]
    return game(p0, {"garden": ["STT01-003", "STT01-006", "STT01-009"]})


def test_selis_draws_on_return_then_tapped_cannot_pay_again():
    """§10 STT02-010 Selis: Aya returns Benzai and Haruhi: two triggers, one per
    return (after Aya's effect, §8). The first: yes -> Selis taps, draw 1. The
    second: Selis is tapped, cannot pay again: no prompt, no draw."""
    g = selis_aya_position()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    choose(g, card="STT01-006")
    pr = g.prompt()
    assert pr["kind"] == "YES_NO" and pr["source"] == "STT02-010"
    yes(g)
    assert g.prompt() is None and g.phase == "MAIN"
    assert P(g, 0)["garden"][3]["tapped"] is True
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007", "STT02-013"]
    assert deck(g, 0)[0] == "STT02-012"


def test_selis_decline_then_second_return_can_draw():
    """§10 STT02-010 Selis 'may', several returns trigger once each: declining the
    first trigger leaves Selis untapped, and the second trigger may tap her."""
    g = selis_aya_position()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    choose(g, card="STT01-006")
    no(g)
    assert P(g, 0)["garden"][3]["tapped"] is False
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007"]
    yes(g)
    assert P(g, 0)["garden"][3]["tapped"] is True
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007", "STT02-013"]


def test_selis_not_affected_by_cooldown():
    """§10 STT02-010 Selis (not affected by cooldown), §5.5: Selis played this
    turn (cooldown) can still tap to draw."""
    g = selis_aya_position(selis_extra={"cooldown": True})
    assert P(g, 0)["garden"][3]["cooldown"] is True
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    decline(g)
    yes(g)
    assert P(g, 0)["garden"][3]["tapped"] is True
    assert "STT02-013" in hand(g, 0)


def test_selis_played_this_turn_then_aya():
    """§10 STT02-010 Selis with §5.5: Selis played from hand this turn, then Aya
    returns Benzai: Selis may tap and draw despite her cooldown."""
    g = game({"deck_top": SELIS_TOP, "garden": ["STT02-007"], "ikz_area": 7,
              "hand": ["STT02-004", "STT02-009", "STT02-010"]}, {})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Selis", "garden[3]")
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    yes(g)
    assert g.turn == 3 and g.phase == "MAIN"
    assert P(g, 0)["garden"][3]["tapped"] is True
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007", "STT02-013"]


def test_selis_in_alley_does_not_trigger():
    """§10 STT02-010 Selis [Garden Only]: in the alley she does not trigger."""
    g = selis_aya_position(selis_in_garden=False)
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    choose(g, card="STT01-006")
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007"]
    assert P(g, 0)["alley"][0]["tapped"] is False


def test_selis_own_return_does_not_trigger():
    """§10 STT02-010 Selis must be in the garden after the return: Aya returning
    Selis herself gives no draw (docs/rulings.md 3)."""
    g = selis_aya_position()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-010")
    decline(g)
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-010"]


def test_selis_already_tapped_no_prompt():
    """§10 STT02-010 Selis 'once tapped it cannot pay again': a tapped Selis (e.g.
    after attacking) gets no prompt and no draw."""
    g = selis_aya_position(selis_extra={"tapped": True})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    choose(g, card="STT01-006")
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007"]


# ---------------------------------------------------------------- STT02-011 Bubblemancer

BUBBLE = encode("ACTIVATE_ABILITY", 1, 0)  # garden slot 0, ability 0


def test_bubblemancer_sacrifice_grants_immunity_until_next_turn():
    """§10 STT02-011 Bubblemancer, §8 durations, D2: sacrificing it makes Rei
    immune to effect damage through the opponent's turn (Haruhi's ping does 0),
    and the immunity expires at the start of player 0's next turn."""
    g = game({"garden": ["STT02-011", "STT02-004", "STT02-007"], "ikz_area": 0, "hand": []},
             {"garden": ["STT01-006"], "hand": ["STT01-004"], "ikz_area": 2})
    assert has(g, "ACTIVATE_ABILITY", "Bubblemancer")
    g.step(BUBBLE)
    pr = g.prompt()
    assert pr["kind"] == "CARD" and not pr["optional"]
    # "another entity": Bubblemancer itself (already sacrificed) is not offered
    assert option_wheres(g) == ["p0.garden[1]", "p0.garden[2]"]
    choose(g, where="p0.garden[1]")
    assert row(g, 0)[:3] == [None, "STT02-004", "STT02-007"]
    assert discard(g, 0) == ["STT02-011"]
    assert "effect_immune" in g.statuses_of("p0.garden[1]")
    assert "effect_immune" not in g.statuses_of("p0.garden[2]")
    g.step(END_TURN)
    assert g.active_player == 1 and g.phase == "MAIN"
    assert "effect_immune" in g.statuses_of("p0.garden[1]")
    attack(g, 1, 0)  # Haruhi attacks; when attacking she pings Rei
    choose(g, where="p0.garden[1]")
    assert P(g, 0)["garden"][1]["damage"] == 0
    g.step(END_TURN)
    assert g.active_player == 0 and g.turn == 5
    assert "effect_immune" not in g.statuses_of("p0.garden[1]")


def test_bubblemancer_other_entity_still_takes_effect_damage():
    """§10 STT02-011: only the chosen entity is protected; Haruhi pinging the
    unprotected Benzai deals 1."""
    g = game({"garden": ["STT02-011", "STT02-004", "STT02-007"], "ikz_area": 0, "hand": []},
             {"garden": ["STT01-006"], "hand": ["STT01-004"], "ikz_area": 2})
    g.step(BUBBLE)
    choose(g, where="p0.garden[1]")
    g.step(END_TURN)
    attack(g, 1, 0)
    choose(g, where="p0.garden[2]")
    assert P(g, 0)["garden"][2]["damage"] == 1


def test_bubblemancer_needs_another_entity():
    """§10 STT02-011 'Needs such an entity to activate', §8: alone in the garden
    it cannot be activated."""
    g = game({"garden": ["STT02-011"], "ikz_area": 2, "hand": ["STT02-004"]})
    assert not has(g, "ACTIVATE_ABILITY")
    # an alley entity does not count either
    g = game({"garden": ["STT02-011"], "alley": ["STT02-004"], "ikz_area": 2,
              "hand": ["STT02-004"]})
    assert not has(g, "ACTIVATE_ABILITY")


def test_bubblemancer_garden_only():
    """§10 STT02-011 [Garden Only]: in the alley it cannot be activated."""
    g = game({"garden": ["STT02-004"], "alley": ["STT02-011"], "ikz_area": 2,
              "hand": ["STT02-004"]})
    assert encode("ACTIVATE_ABILITY", 6, 0) not in g.legal_actions()
    assert not has(g, "ACTIVATE_ABILITY")


def test_bubblemancer_usable_the_turn_it_is_played():
    """§10 STT02-011 with §5.5: the cost is a sacrifice, not TAP, so cooldown does
    not prevent it; with a single other entity the target is automatic (§12)."""
    g = game({"garden": ["STT02-004"], "ikz_area": 4, "hand": ["STT02-004", "STT02-011"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Bubblemancer", "garden[1]")
    assert P(g, 0)["garden"][1]["cooldown"] is True
    g.step(encode("ACTIVATE_ABILITY", 2, 0))
    assert g.prompt() is None and g.phase == "MAIN"
    assert row(g, 0)[1] is None and discard(g, 0) == ["STT02-011"]
    assert "effect_immune" in g.statuses_of("p0.garden[0]")


def test_bubblemancer_not_a_response():
    """§10 STT02-011 has no [Response] timing (§8): it cannot be activated in a
    response window."""
    g = attacked_by_indra({"garden": ["STT02-011", "STT02-004"], "ikz_area": 1})
    assert g.phase == "RESPONSE" and g.current_player == 0
    assert encode("ACTIVATE_ABILITY", 1, 0) not in g.legal_actions()


# ---------------------------------------------------------------- STT02-012 Young Shao

def test_young_shao_bonus_when_two_more_entities():
    """§10 STT02-012 Young Shao: own garden 3 (itself included) >= opponent 1 + 2:
    +1/+1 (3/3)."""
    g = game({"garden": ["STT02-012", "STT02-004", "STT02-004"], "ikz_area": 2,
              "hand": ["STT02-004"]},
             {"garden": ["STT01-003"]})
    assert g.attack_of("p0.garden[0]") == 3 and g.health_of("p0.garden[0]") == 3


def test_young_shao_no_bonus_when_only_one_more():
    """§10 STT02-012 Young Shao: 3 vs 2 is not 'opponent + 2': base 2/2."""
    g = game({"garden": ["STT02-012", "STT02-004", "STT02-004"], "ikz_area": 2,
              "hand": ["STT02-004"]},
             {"garden": ["STT01-003", "STT01-004"]})
    assert g.attack_of("p0.garden[0]") == 2 and g.health_of("p0.garden[0]") == 2


def test_young_shao_boundary_against_empty_garden():
    """§10 STT02-012: itself alone vs empty garden (1 < 2): no bonus; with Rei
    (2 >= 0 + 2): bonus; alley entities do not count."""
    g = game({"garden": ["STT02-012"], "alley": ["STT02-004", "STT02-004"],
              "ikz_area": 2, "hand": ["STT02-004"]})
    assert g.attack_of("p0.garden[0]") == 2
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[1]")
    assert g.attack_of("p0.garden[0]") == 3 and g.health_of("p0.garden[0]") == 3


def test_young_shao_bonus_recomputed_when_garden_changes():
    """§10 STT02-012, §8 statics are recomputed on every read: playing a third
    garden entity turns the bonus on."""
    g = game({"garden": ["STT02-012", "STT02-004"], "ikz_area": 2,
              "hand": ["STT02-004"]},
             {"garden": ["STT01-003"]})
    assert g.attack_of("p0.garden[0]") == 2
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[2]")
    assert g.attack_of("p0.garden[0]") == 3 and g.health_of("p0.garden[0]") == 3
    assert P(g, 0)["garden"][0]["attack"] == 3


def test_young_shao_losing_bonus_destroys_it_own_sacrifice():
    """§10 STT02-012 'Losing the bonus can destroy it (§9)': Young Shao with 2
    damage survives at health 3; sacrificing Bubblemancer drops the count to
    2 vs 1, health becomes 2 and it is destroyed."""
    g = game({"garden": [{"card": "STT02-012", "damage": 2}, "STT02-011", "STT02-004"],
              "ikz_area": 2, "hand": ["STT02-004"]},
             {"garden": ["STT01-003"]})
    assert row(g, 0)[0] == "STT02-012" and g.health_of("p0.garden[0]") == 3
    g.step(encode("ACTIVATE_ABILITY", 2, 0))
    # the state check after the sacrifice already destroyed Young Shao, so Rei
    # is the only entity left to choose (applied automatically, §12)
    assert g.prompt() is None
    assert row(g, 0)[:3] == [None, None, "STT02-004"]
    assert sorted(discard(g, 0)) == ["STT02-011", "STT02-012"]
    assert "effect_immune" in g.statuses_of("p0.garden[2]")


def test_young_shao_losing_bonus_destroys_it_opponent_plays():
    """§10 STT02-012, §9: in the opponent's turn, the opponent playing a second
    garden entity (3 vs 2) removes the bonus; a damaged Young Shao (2 damage)
    is destroyed."""
    g = game({"garden": [{"card": "STT02-012", "damage": 2}, "STT02-004", "STT02-004"],
              "ikz_area": 0},
             {"garden": ["STT01-003"], "hand": ["STT01-004"], "ikz_area": 2}, active=1)
    assert row(g, 0)[0] == "STT02-012"
    do(g, "PLAY_ENTITY_TO_GARDEN", "Black Jade Recruit", "garden[1]")
    assert row(g, 0)[0] is None and discard(g, 0) == ["STT02-012"]


def test_young_shao_frozen_loses_static():
    """§10 STT02-012 with §7 Frozen (abilities disabled; docs/abilities.md: frozen
    cards' statics are off): a frozen Young Shao is 2/2 despite the count."""
    g = game({"garden": ["STT02-012", "STT02-004", "STT02-004"], "ikz_area": 2,
              "hand": ["STT02-004"]},
             effects=[{"where": "p0.garden[0]", "statuses": ["frozen"],
                       "duration": "start_of_next_turn", "creator": 1}])
    assert g.attack_of("p0.garden[0]") == 2 and g.health_of("p0.garden[0]") == 2


# ---------------------------------------------------------------- STT02-013 Mizuki

def choose_alley_slot(g, s):
    """SLOT prompts code garden slot s as s and alley slot s as 8 + s."""
    pr = g.prompt()
    assert pr["kind"] == "SLOT", pr
    choose_opt = [o for o in pr["options"] if o["slot"] == 8 + s]
    assert choose_opt, pr
    g.step(choose_opt[0]["action"])


MIZUKI_TOP = ["STT02-007", "STT02-012", "STT02-004", "STT02-010", "STT02-011"]


def mizuki_position(top=MIZUKI_TOP, alley=(None, None, None, None, None), ikz_n=6):
    return game({"deck_top": list(top), "ikz_area": ikz_n, "alley": list(alley),
                 "hand": ["STT02-004", "STT02-013"]})


def test_mizuki_reveals_water_entity_and_plays_it_free_into_alley():
    """§10 STT02-013 Mizuki, §5.7, D6: of Benzai (Water 2), Young Shao (cost 4) and
    Rei (Neutral) only Benzai is offered; the rest go to the bottom; Benzai may
    then be played into the alley free of IKZ, counts as played and its on-play
    draw triggers (draws the new top card, Selis)."""
    g = mizuki_position(alley=["STT02-004", None, "STT02-004"])
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[0]")
    assert untapped_ikz(g, 0) == 1
    pr = g.prompt()
    assert pr["kind"] == "CARD" and pr["optional"] and pr["source"] == "STT02-013"
    assert option_cards(g) == ["STT02-007"]
    choose(g, card="STT02-007")
    assert g.prompt()["kind"] == "BOTTOM_ORDER"
    assert option_cards(g) == ["STT02-004", "STT02-012"]
    choose(g, card="STT02-012")
    yes(g)
    # only the empty alley slots are offered (§2.4)
    assert sorted(o["slot"] for o in options(g)) == [9, 11, 12]
    choose_alley_slot(g, 3)
    assert g.prompt() is None and g.phase == "MAIN"
    assert row(g, 0, "alley") == ["STT02-004", None, "STT02-004", "STT02-007", None]
    assert untapped_ikz(g, 0) == 1
    assert P(g, 0)["played_entities"] == 2
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-010"]
    assert deck(g, 0)[0] == "STT02-011"
    assert deck(g, 0)[-2:] == ["STT02-012", "STT02-004"]


def test_mizuki_may_keep_entity_in_hand():
    """§10 STT02-013 Mizuki 'you may then play it': answering no keeps Benzai in
    hand (no draw, nothing enters the alley)."""
    g = mizuki_position()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[0]")
    choose(g, card="STT02-007")
    bottom_all(g)
    no(g)
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007"]
    assert row(g, 0, "alley") == [None] * 5
    assert P(g, 0)["played_entities"] == 1


def test_mizuki_spell_goes_to_hand_without_play_offer():
    """§10 STT02-013 Mizuki: a Water spell with cost <= 2 (Chilling Water) may be
    taken; it is not an entity, so no play is offered. Aya (Water, cost 3) and
    Rei (Neutral, cost 1) are not eligible."""
    g = mizuki_position(top=["STT02-009", "STT02-014", "STT02-004", "STT02-010"])
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[0]")
    assert option_cards(g) == ["STT02-014"]
    choose(g, card="STT02-014")
    bottom_all(g)
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-014"]
    assert deck(g, 0)[0] == "STT02-010"


def test_mizuki_nothing_eligible():
    """§10 STT02-013 Mizuki: with no Water card of cost <= 2 among the top 3,
    nothing is taken and all 3 go to the bottom."""
    top = ["STT02-009", "STT02-012", "STT02-004", "STT02-010"]
    g = mizuki_position(top=top)
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[0]")
    assert g.prompt()["kind"] == "BOTTOM_ORDER"
    bottom_all(g)
    assert hand(g, 0) == ["STT02-004"]
    assert deck(g, 0)[0] == "STT02-010"
    assert sorted(deck(g, 0)[-3:]) == sorted(top[:3])


def test_mizuki_free_play_into_full_alley_replaces():
    """§10 STT02-013 Mizuki with §5.7 'normal placement rules', §2.3: into a full
    alley the player picks an occupied slot; the replaced entity goes to the
    discard pile."""
    full = ["STT02-004", "STT02-006", "STT02-004", "STT02-006", "STT02-004"]
    g = mizuki_position(alley=full)
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[0]")
    choose(g, card="STT02-007")
    bottom_all(g)
    yes(g)
    assert sorted(o["slot"] for o in options(g)) == [8, 9, 10, 11, 12]
    choose_alley_slot(g, 1)
    assert row(g, 0, "alley") == ["STT02-004", "STT02-007", "STT02-004", "STT02-006", "STT02-004"]
    assert discard(g, 0) == ["STT02-006"]


def test_mizuki_free_played_entity_triggers_its_on_play():
    """§10 STT02-013 Mizuki, §5.7: the free-played entity is 'played': Itto's
    on-play (look at 5) triggers."""
    top = ["STT02-003", "STT02-012", "STT02-004", "STT02-016", "STT02-010",
           "STT02-011", "STT02-017", "STT02-008"]
    g = mizuki_position(top=top)
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[0]")
    choose(g, card="STT02-003")
    bottom_all(g)
    yes(g)
    choose_alley_slot(g, 0)
    pr = g.prompt()
    assert pr["source"] == "STT02-003" and pr["kind"] == "CARD"
    # deck top now: Water Orb (Watercrafting), Selis, Bubblemancer, Perseverance, Misaki
    assert option_cards(g) == ["STT02-016", "STT02-017"]
    choose(g, card="STT02-016")
    bottom_all(g)
    assert "STT02-016" in hand(g, 0)
    assert row(g, 0, "alley")[0] == "STT02-003"


# ---------------------------------------------------------------- STT02-014 Chilling Water

def test_chilling_water_freezes_until_start_of_next_turn():
    """§10 STT02-014 Chilling Water, §7 Frozen, D2: only cost <= 2 opponent garden
    entities are offered (Kurobo, Haruhi; not Indra); frozen Haruhi cannot
    attack in the opponent's turn; the freeze ends at the start of player 0's
    next turn."""
    g = game({"ikz_area": 2, "hand": ["STT02-004", "STT02-014"]},
             {"garden": ["STT01-003", "STT01-006", "STT01-010"], "hand": ["STT01-004"],
              "ikz_area": 2})
    do(g, "PLAY_SPELL_MAIN", "Chilling Water")
    pr = g.prompt()
    assert pr["kind"] == "CARD" and not pr["optional"]
    assert option_cards(g) == ["STT01-003", "STT01-006"]
    choose(g, card="STT01-006")
    assert "frozen" in g.statuses_of("p1.garden[1]")
    assert discard(g, 0) == ["STT02-014"] and untapped_ikz(g, 0) == 1
    g.step(END_TURN)
    assert g.active_player == 1 and g.phase == "MAIN"
    assert "frozen" in g.statuses_of("p1.garden[1]")
    assert has(g, "ATTACK garden[0]") and has(g, "ATTACK garden[2]")
    assert not has(g, "ATTACK garden[1]")
    g.step(END_TURN)
    assert g.active_player == 0 and g.turn == 5
    assert "frozen" not in g.statuses_of("p1.garden[1]")


def test_chilling_water_needs_target():
    """§10 STT02-014, §5.4 mandatory target: with only Indra (cost 5) in the
    opponent's garden the spell cannot be played."""
    g = game({"ikz_area": 2, "hand": ["STT02-004", "STT02-014"]},
             {"garden": ["STT01-010"]})
    assert not has(g, "Chilling Water")
    g = game({"ikz_area": 2, "hand": ["STT02-004", "STT02-014"]},
             {"garden": [], "alley": ["STT01-003"]})
    assert not has(g, "Chilling Water")


def test_chilling_water_frozen_cannot_be_damaged_but_deals_combat_damage():
    """§10 STT02-014 with §7 Frozen: a frozen tapped Haruhi attacked by Misaki takes
    no damage, and still deals its 1 combat damage (Misaki, health 1, dies)."""
    g = game({"garden": ["STT02-008"], "ikz_area": 2, "hand": ["STT02-004", "STT02-014"]},
             {"garden": [{"card": "STT01-006", "tapped": True}]})
    do(g, "PLAY_SPELL_MAIN", "Chilling Water")  # single target: automatic (§12)
    assert "frozen" in g.statuses_of("p1.garden[0]")
    attack(g, 1, 1)
    assert row(g, 1)[0] == "STT01-006" and P(g, 1)["garden"][0]["damage"] == 0
    assert row(g, 0)[0] is None and discard(g, 0) == ["STT02-014", "STT02-008"]


def test_chilling_water_frozen_defender_cannot_redirect():
    """§10 STT02-014 with §7 Frozen (keywords disabled) and §6.2(b): player 0
    freezes the opponent's Foamback Crab, then attacks the leader with Rei: the
    crab cannot redirect and the leader takes 1."""
    g = game({"garden": ["STT02-004"], "ikz_area": 2, "hand": ["STT02-004", "STT02-014"]},
             {"garden": ["STT02-006", "STT01-010"], "ikz_area": 0})
    do(g, "PLAY_SPELL_MAIN", "Chilling Water")  # only the crab has cost <= 2
    assert "frozen" in g.statuses_of("p1.garden[0]")
    attack(g, 1, 0)
    assert g.phase == "MAIN" and g.current_player == 0
    assert P(g, 1)["leader"]["damage"] == 1
    assert P(g, 1)["garden"][0]["tapped"] is False


def test_chilling_water_is_main_only():
    """§10 STT02-014 is a [Main] spell (§5.4): it is not playable in a response
    window."""
    g = attacked_by_indra({"hand": ["STT02-014", "STT02-016", "STT02-004"],
                           "ikz_area": 3},
                          {"garden": ["STT01-010", "STT01-003"]})
    assert g.phase == "RESPONSE"
    assert not has(g, "Chilling Water")
    assert has(g, "PLAY_SPELL_RESPONSE", "Water Orb")


# ---------------------------------------------------------------- STT02-015 Commune with Water

def commune_attacked(p0_extra=None, target=0):
    """Player 1 attacks with Black Jade Crewleader (cost 3, 2/2, armed with
    Tenshin +2 and its own +1 while armed: attack 5) from slot 0; Indra
    (cost 5) stands in slot 1."""
    p0 = {"garden": ["STT02-004", "STT02-006"], "ikz_area": 4,
          "hand": ["STT02-004", "STT02-015"]}
    p0.update(p0_extra or {})
    g = game(p0, {"garden": [{"card": "STT01-008", "weapons": ["STT01-014"]}, "STT01-010"],
                  "ikz_area": 2, "hand": ["STT01-004"]}, active=1)
    attack(g, 1, target)
    return g


def test_commune_returning_attacker_ends_attack():
    """§10 STT02-015 Commune with Water, §6.4: returning the attacking Crewleader
    to its owner's hand ends the attack at once: no damage, no defender step
    (the crab is not offered); its weapon goes to the discard pile (§5.3)."""
    g = commune_attacked()
    assert g.phase == "RESPONSE" and g.current_player == 0
    do(g, "PLAY_SPELL_RESPONSE", "Commune with Water")
    pr = g.prompt()
    assert pr["kind"] == "CARD" and not pr["optional"]
    # either garden, cost <= 3: Rei, the crab, the Crewleader; not Indra (5)
    assert option_wheres(g) == ["p0.garden[0]", "p0.garden[1]", "p1.garden[0]"]
    choose(g, where="p1.garden[0]")
    assert g.phase == "MAIN" and g.current_player == 1
    assert g.state_dict()["combat"] is None
    assert P(g, 0)["leader"]["damage"] == 0
    assert sorted(hand(g, 1)) == ["STT01-004", "STT01-008"]
    assert row(g, 1)[:2] == [None, "STT01-010"]
    assert discard(g, 1) == ["STT01-014"]
    assert discard(g, 0) == ["STT02-015"] and untapped_ikz(g, 0) == 2


def test_commune_returning_own_entity_attack_continues():
    """§10 STT02-015 'from either garden': returning player 0's own Rei puts it in
    its owner's hand; the attack goes on (the crab may still redirect, §6.2)."""
    g = commune_attacked()
    do(g, "PLAY_SPELL_RESPONSE", "Commune with Water")
    choose(g, where="p0.garden[0]")
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-004"]
    assert row(g, 0)[0] is None
    # Shao's response (2 IKZ left) is still available in step (a)
    assert g.phase == "RESPONSE"
    g.step(NO_OP)
    assert g.phase == "DEFENDER"
    g.step(NO_OP)
    assert P(g, 0)["leader"]["damage"] == 5


def test_commune_returning_target_ends_attack():
    """§10 STT02-015, §6.4: the Crewleader attacks the tapped Benzai; returning
    Benzai (the target) ends the attack: no damage either way, the attacker
    stays tapped."""
    g = commune_attacked({"garden": ["STT02-004", {"card": "STT02-007", "tapped": True}],
                          "ikz_area": 2}, target=2)
    assert g.state_dict()["combat"] is not None
    do(g, "PLAY_SPELL_RESPONSE", "Commune with Water")
    choose(g, where="p0.garden[1]")
    assert g.phase == "MAIN" and g.current_player == 1
    assert "STT02-007" in hand(g, 0)
    assert P(g, 1)["garden"][0]["damage"] == 0 and P(g, 1)["garden"][0]["tapped"] is True
    assert P(g, 0)["leader"]["damage"] == 0


def test_commune_needs_cost3_target():
    """§10 STT02-015, §5.4 mandatory target: with only Indra (cost 5) in either
    garden it cannot be played, so the response window offers only Shao."""
    g = attacked_by_indra({"garden": [], "hand": ["STT02-004", "STT02-015"], "ikz_area": 3})
    assert g.phase == "RESPONSE"
    assert not has(g, "Commune with Water")
    assert SHAO_RESPONSE in g.legal_actions()


def test_commune_is_response_only():
    """§10 STT02-015 is a [Response] spell (§5.4): not playable in the main phase."""
    g = game({"garden": ["STT02-004"], "ikz_area": 4, "hand": ["STT02-004", "STT02-015"]},
             {"garden": ["STT01-003"]})
    assert not has(g, "Commune with Water")


def test_commune_return_triggers_selis():
    """§10 STT02-015 with STT02-010 Selis: returning the attacker in the opponent's
    turn triggers Selis (any entity, either player's): tap and draw 1."""
    g = commune_attacked({"garden": ["STT02-004", "STT02-010"], "ikz_area": 2,
                          "deck_top": ["STT02-013"]})
    do(g, "PLAY_SPELL_RESPONSE", "Commune with Water")
    choose(g, where="p1.garden[0]")
    pr = g.prompt()
    assert pr["kind"] == "YES_NO" and pr["source"] == "STT02-010"
    yes(g)
    assert P(g, 0)["garden"][1]["tapped"] is True
    assert "STT02-013" in hand(g, 0)
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 0


# ---------------------------------------------------------------- STT02-016 Water Orb

def test_water_orb_discard_cost_and_minus_two():
    """§10 STT02-016 Water Orb, §5.4: the discard cost offers the other cards in
    hand (Rei, Benzai; not the Orb itself); then Indra gets -2 (3 -> 1) and deals
    only 1 to the leader."""
    g = attacked_by_indra({"hand": ["STT02-004", "STT02-007", "STT02-016"], "ikz_area": 1})
    do(g, "PLAY_SPELL_RESPONSE", "Water Orb")
    pr = g.prompt()
    assert pr["kind"] == "CARD" and not pr["optional"]
    assert option_wheres(g) == ["p0.hand[0]", "p0.hand[1]"]
    choose(g, card="STT02-007")
    assert option_wheres(g) == ["p0.garden[0]", "p0.leader", "p1.garden[0]", "p1.leader"]
    choose(g, where="p1.garden[0]")
    assert g.attack_of("p1.garden[0]") == 1
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 1
    assert hand(g, 0) == ["STT02-004"]
    assert discard(g, 0) == ["STT02-007", "STT02-016"]
    assert untapped_ikz(g, 0) == 0


def test_water_orb_needs_another_card_in_hand():
    """§10 STT02-016, §5.4 'the spell itself does not count as a card in hand':
    with the Orb alone in hand it cannot be played (the window offers only Shao)."""
    g = attacked_by_indra({"hand": ["STT02-016"], "ikz_area": 2})
    assert g.phase == "RESPONSE"
    assert not has(g, "Water Orb")
    assert SHAO_RESPONSE in g.legal_actions()


def test_water_orb_second_copy_pays_for_first():
    """§10 STT02-016, §5.4: with two Orbs, one pays the other's discard cost
    (chosen automatically, the only other card, §12)."""
    g = attacked_by_indra({"hand": ["STT02-016", "STT02-016"], "ikz_area": 1})
    do(g, "PLAY_SPELL_RESPONSE", "Water Orb")
    assert g.prompt()["kind"] == "CARD" and "p1.garden[0]" in option_wheres(g)
    assert hand(g, 0) == []
    assert discard(g, 0) == ["STT02-016"]
    choose(g, where="p1.garden[0]")
    assert discard(g, 0) == ["STT02-016", "STT02-016"]
    assert P(g, 0)["leader"]["damage"] == 1


def test_water_orb_and_shao_stack_to_zero():
    """§10 STT02-016 + STT02-001, D7 several responses, §6.3 attack below 0 counts
    as 0: Shao -1 and Orb -2 bring Indra to 0: no damage to the leader."""
    g = attacked_by_indra({"hand": ["STT02-004", "STT02-016"], "ikz_area": 2})
    g.step(SHAO_RESPONSE)
    choose(g, where="p1.garden[0]")
    do(g, "PLAY_SPELL_RESPONSE", "Water Orb")
    choose(g, where="p1.garden[0]")
    assert g.attack_of("p1.garden[0]") == 0
    assert g.phase == "MAIN" and g.current_player == 1
    assert P(g, 0)["leader"]["damage"] == 0


def test_water_orb_negative_attack_counts_as_zero():
    """§10 STT02-016, §6.3: Kurobo (attack 1) at -1 deals 0 combat damage."""
    g = game({"garden": [], "ikz_area": 1, "hand": ["STT02-004", "STT02-016"]},
             {"garden": ["STT01-003"], "ikz_area": 2, "hand": ["STT01-004"]}, active=1)
    attack(g, 1, 0)
    do(g, "PLAY_SPELL_RESPONSE", "Water Orb")
    choose(g, where="p1.garden[0]")
    assert g.attack_of("p1.garden[0]") in (-1, 0)
    assert P(g, 0)["leader"]["damage"] == 0


def test_water_orb_until_end_of_turn_and_response_only():
    """§10 STT02-016 -2 lasts until the end of the turn (§4.3); it is a [Response]
    spell, not playable in its owner's main phase (§5.4)."""
    g = attacked_by_indra({"hand": ["STT02-004", "STT02-016"], "ikz_area": 1})
    do(g, "PLAY_SPELL_RESPONSE", "Water Orb")
    choose(g, where="p1.garden[0]")
    assert g.attack_of("p1.garden[0]") == 1
    g.step(END_TURN)
    assert g.active_player == 0
    assert g.attack_of("p1.garden[0]") == 3
    g = game({"garden": ["STT02-004"], "ikz_area": 2, "hand": ["STT02-004", "STT02-016"]})
    assert not has(g, "Water Orb")


# ---------------------------------------------------------------- STT02-017 Shao's Perseverance

def test_perseverance_returns_every_opponent_garden_entity():
    """§10 STT02-017 Shao's Perseverance, D14: with Shao as leader, every opponent
    garden entity with cost <= 6 (Kurobo 1, Indra 5, Raizan 6) returns to its
    owner's hand; the attached Zanbato goes to the discard pile (§5.3); alley
    entities and player 0's own garden are untouched."""
    g = game({"garden": ["STT02-004"], "ikz_area": 7, "hand": ["STT02-004", "STT02-017"]},
             {"garden": ["STT01-003", "STT01-010", {"card": "STT01-011", "weapons": ["STT01-016"]}],
              "alley": ["STT01-007"]})
    do(g, "PLAY_SPELL_MAIN", "Perseverance")
    assert g.turn == 3 and g.phase == "MAIN" and g.prompt() is None
    assert row(g, 1) == [None] * 5
    assert row(g, 1, "alley")[0] == "STT01-007"
    assert sorted(hand(g, 1)) == ["STT01-003", "STT01-010", "STT01-011"]
    assert discard(g, 1) == ["STT01-016"]
    assert row(g, 0)[0] == "STT02-004"
    assert discard(g, 0) == ["STT02-017"] and untapped_ikz(g, 0) == 1


def test_perseverance_without_shao_leader_does_nothing():
    """§10 STT02-017 'if your leader has subtype Shao': played by a Raizan (STT01)
    player it resolves without effect (IKZ paid, spell discarded)."""
    g = azuki.Game.from_setup({"decks": ["STT01", "STT02"], "players": [
        {"hand": ["STT01-004", "STT02-017"], "ikz_area": 7},
        {"garden": ["STT02-004", "STT02-007"]}]})
    do(g, "PLAY_SPELL_MAIN", "Perseverance")
    assert g.turn == 3 and g.phase == "MAIN"
    assert row(g, 1)[:2] == ["STT02-004", "STT02-007"]
    assert hand(g, 1) == []
    assert discard(g, 0) == ["STT02-017"] and untapped_ikz(g, 0) == 1


def test_perseverance_costs_six():
    """§10 STT02-017, §5.1: with 5 untapped IKZ the 6-cost spell cannot be played."""
    g = game({"ikz_area": ikz(5, 1), "hand": ["STT02-004", "STT02-017"]},
             {"garden": ["STT01-003"]})
    assert not has(g, "Perseverance")
    assert has(g, "Rei")


def test_perseverance_multiple_returns_trigger_selis_once_each():
    """§10 STT02-017 with STT02-010 Selis: three returns give three triggers; Selis
    can pay (tap) only once, so exactly one card is drawn and only one prompt
    appears."""
    g = game({"garden": ["STT02-010"], "ikz_area": 7, "hand": ["STT02-004", "STT02-017"],
              "deck_top": ["STT02-013", "STT02-012"]},
             {"garden": ["STT01-003", "STT01-010", "STT01-005"]})
    do(g, "PLAY_SPELL_MAIN", "Perseverance")
    assert g.prompt()["kind"] == "YES_NO" and g.prompt()["source"] == "STT02-010"
    yes(g)
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-013"]
    assert P(g, 0)["garden"][0]["tapped"] is True
    assert len(hand(g, 1)) == 3


# ---------------------------------------------------------------- further edge cases

def test_selis_on_opponent_side_triggers_on_any_return():
    """§10 STT02-010 Selis 'either player's': player 1's Selis triggers when player
    0's Aya returns player 0's own Benzai; player 1 chooses and draws."""
    g = game({"garden": ["STT02-007"], "ikz_area": 4, "hand": ["STT02-004", "STT02-009"]},
             {"garden": ["STT02-010"], "deck_top": ["STT01-011"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    # the opponent's garden has nothing with cost <= 2: no second Aya prompt
    pr = g.prompt()
    assert pr["kind"] == "YES_NO" and pr["chooser"] == 1 and pr["source"] == "STT02-010"
    yes(g)
    assert hand(g, 1) == ["STT01-011"]
    assert P(g, 1)["garden"][0]["tapped"] is True
    assert g.phase == "MAIN" and g.current_player == 0


def test_selis_returned_in_same_effect_does_not_draw():
    """§10 STT02-010 Selis must be in the garden (docs/rulings.md 3: at the event
    and at resolution): Perseverance returns player 1's Kurobo, Selis and
    Recruit together; Selis is in hand when the triggers resolve: no draw."""
    g = game({"ikz_area": 7, "hand": ["STT02-004", "STT02-017"]},
             {"garden": ["STT01-003", "STT02-010", "STT01-004"], "deck_top": ["STT01-011"]})
    do(g, "PLAY_SPELL_MAIN", "Perseverance")
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 1)) == ["STT01-003", "STT01-004", "STT02-010"]
    assert deck(g, 1)[0] == "STT01-011"


def test_selis_frozen_does_not_trigger():
    """§10 STT02-010 with §7 Frozen (abilities disabled): a frozen Selis gets no
    prompt when Aya returns Benzai."""
    g = game({"deck_top": SELIS_TOP, "garden": ["STT02-007", "STT02-004", None, "STT02-010"],
              "ikz_area": 3, "hand": ["STT02-004", "STT02-009"]},
             {"garden": ["STT01-003"]},
             effects=[{"where": "p0.garden[3]", "statuses": ["frozen"],
                       "duration": "start_of_next_turn", "creator": 1}])
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    decline(g)
    assert g.prompt() is None and g.phase == "MAIN"
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007"]


def test_shao_response_not_in_defender_step_and_alley_not_targetable():
    """§8 [Response] abilities only in step (a): after passing, the defender step
    offers only the crab redirect. §10 STT02-001 targets leaders or garden
    entities: alley entities are not offered."""
    g = game({"garden": ["STT02-006"], "alley": ["STT02-004"], "ikz_area": 2, "hand": []},
             {"garden": ["STT01-010"], "alley": ["STT01-003"], "hand": ["STT01-004"],
              "ikz_area": 2}, active=1)
    attack(g, 1, 0)
    assert g.phase == "RESPONSE"
    g.step(SHAO_RESPONSE)
    assert option_wheres(g) == ["p0.garden[0]", "p0.leader", "p1.garden[0]", "p1.leader"]
    choose(g, where="p1.garden[0]")
    assert g.phase == "DEFENDER"
    assert SHAO_RESPONSE not in g.legal_actions()
    assert sorted(strs(g)) == ["DECLARE_DEFENDER p0.garden[0] Foamback Crab", "NO_OP"]


def test_shao_response_once_per_turn_resets_next_turn():
    """§10 STT02-001 [Once/Turn], §8, docs/rulings.md 7: used in player 1's turn,
    Shao's response is available again in player 1's next turn."""
    g = game({"garden": [], "ikz_area": 2, "hand": ["STT02-004"]},
             {"garden": ["STT01-010"], "hand": ["STT01-004"], "ikz_area": 2}, active=1)
    attack(g, 1, 0)
    g.step(SHAO_RESPONSE)
    choose(g, where="p1.garden[0]")
    assert P(g, 0)["leader"]["damage"] == 2
    g.step(END_TURN)
    assert g.active_player == 0
    g.step(END_TURN)
    assert g.active_player == 1 and g.phase == "MAIN"
    attack(g, 1, 0)
    assert g.phase == "RESPONSE" and SHAO_RESPONSE in g.legal_actions()


def test_saburo_count_resets_each_turn():
    """§10 STT02-005 'this turn', docs/rulings.md 7: two entities played last turn
    do not count; Saburo on the next turn draws nothing."""
    g = game({"ikz_area": 3, "hand": ["STT02-004", "STT02-004", "STT02-005"],
              "deck_top": ["STT02-013", "STT02-012", "STT02-011"]},
             {"hand": ["STT01-004"], "ikz_area": 1})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Rei", "alley[0]")
    do(g, "PLAY_ENTITY_TO_ALLEY", "Rei", "alley[1]")
    assert P(g, 0)["played_entities"] == 2
    g.step(END_TURN)
    assert g.active_player == 1
    g.step(END_TURN)
    assert g.active_player == 0 and g.turn == 5
    assert P(g, 0)["played_entities"] == 0
    assert sorted(hand(g, 0)) == ["STT02-005", "STT02-013"]  # drew Mizuki
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Saburo", "garden[0]")
    assert hand(g, 0) == ["STT02-013"]
    assert deck(g, 0)[0] == "STT02-012"


def test_hydromancy_portal_into_full_garden_replaces():
    """§10 STT02-002 with §5.6 and §2.3: portaling into a full garden replaces the
    chosen entity (to the discard pile); then the untap choice follows."""
    g = game({"ikz_area": ikz(2, 2), "alley": ["STT02-012"],
              "garden": ["STT02-004", "STT02-007", "STT02-004", "STT02-004", "STT02-004"],
              "hand": ["STT02-004"]})
    g.step(encode("PORTAL_GATE", 0, 1))
    assert g.prompt()["kind"] == "NUMBER"
    choose(g, value=2)
    assert row(g, 0) == ["STT02-004", "STT02-012", "STT02-004", "STT02-004", "STT02-004"]
    assert discard(g, 0) == ["STT02-007"]
    assert untapped_ikz(g, 0) == 4


def test_hydromancy_portal_entity_played_to_alley_this_turn():
    """§5.6: any untapped alley entity may be portaled, including one played to
    the alley this turn (cooldown concerns only the garden, §5.5)."""
    g = game({"ikz_area": ikz(5, 1), "hand": ["STT02-004", "STT02-012"]})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Young Shao", "alley[0]")
    assert untapped_ikz(g, 0) == 1 and tapped_ikz(g, 0) == 5
    assert has(g, "PORTAL_GATE alley[0] Young Shao")
    g.step(encode("PORTAL_GATE", 0, 0))
    choose(g, value=2)
    assert row(g, 0)[0] == "STT02-012"
    assert untapped_ikz(g, 0) == 3 and tapped_ikz(g, 0) == 3


def test_bubblemancer_immunity_does_not_stop_combat_damage():
    """§10 STT02-011 'cannot take damage from card effects' (§7) does not prevent
    combat damage: the protected, tapped Benzai attacked by Indra is destroyed."""
    g = game({"garden": ["STT02-011", {"card": "STT02-007", "tapped": True}],
              "ikz_area": 1, "hand": ["STT02-004"]},
             {"garden": ["STT01-010"], "hand": ["STT01-004"], "ikz_area": 2})
    g.step(BUBBLE)
    assert "effect_immune" in g.statuses_of("p0.garden[1]")
    g.step(END_TURN)
    assert g.active_player == 1
    # Benzai untaps only in player 0's untap step: still tapped, attackable
    attack(g, 1, 2)
    assert g.phase == "RESPONSE"  # Shao could respond (1 IKZ): pass
    g.step(NO_OP)
    assert row(g, 0)[1] is None
    assert discard(g, 0) == ["STT02-011", "STT02-007"]


def test_commune_alley_entities_not_offered():
    """§10 STT02-015 'from either garden': alley entities are not offered."""
    g = commune_attacked({"alley": ["STT02-004"]})
    do(g, "PLAY_SPELL_RESPONSE", "Commune with Water")
    assert "p0.alley[0]" not in option_wheres(g)
    assert option_wheres(g) == ["p0.garden[0]", "p0.garden[1]", "p1.garden[0]"]


def godmode(where, creator=0):
    return {"where": where, "statuses": ["godmode"], "duration": "end_of_turn",
            "creator": creator}


def test_perseverance_godmode_entity_stays():
    """§10 STT02-017 with §7 Godmode ('effects that would move it do nothing to
    it'): a godmode Kurobo stays, Indra returns."""
    g = game({"ikz_area": 7, "hand": ["STT02-004", "STT02-017"]},
             {"garden": ["STT01-003", "STT01-010"]}, effects=[godmode("p1.garden[0]", 1)])
    do(g, "PLAY_SPELL_MAIN", "Perseverance")
    assert row(g, 1)[:2] == ["STT01-003", None]
    assert hand(g, 1) == ["STT01-010"]


def test_aya_cost_moves_own_godmode_entity():
    """§10 STT02-009 Aya (the return is a cost, D13) with §7 Godmode: a cost its
    own controller pays still moves a godmode card, so the godmode Benzai goes
    to hand and the opponent's Kurobo can then be returned."""
    g = game({"garden": ["STT02-007"], "ikz_area": 4, "hand": ["STT02-004", "STT02-009"]},
             {"garden": ["STT01-003"]}, effects=[godmode("p0.garden[0]")])
    do(g, "PLAY_ENTITY_TO_GARDEN", "Aya", "garden[2]")
    choose(g, card="STT02-007")
    # RULES: the cost was paid, Benzai is in hand; the cost is never "paid" for free
    assert row(g, 0)[0] is None
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-007"]
    choose(g, card="STT01-003")
    assert hand(g, 1) == ["STT01-003"]


def test_shao_response_paid_with_token():
    """§10 STT02-001 'Pay 1 IKZ', §5.1: paid with the IKZ token (the only untapped
    IKZ), which goes out of game."""
    g = game({"ikz_area": [{"tapped": False, "token": True}], "garden": [], "hand": []},
             {"garden": ["STT01-010"], "ikz_area": 2, "hand": ["STT01-004"]}, active=1)
    assert P(g, 0)["token"] == "ikz_area"
    attack(g, 1, 0)
    g.step(SHAO_RESPONSE)
    choose(g, where="p1.garden[0]")
    assert P(g, 0)["token"] == "out" and P(g, 0)["ikz_area"] == []
    assert P(g, 0)["leader"]["damage"] == 2


def test_shao_response_pays_regular_before_token():
    """§10 STT02-001 with §5.1 / D4: with a regular IKZ and the token untapped,
    the regular card is tapped and the token stays in the area."""
    g = game({"ikz_area": [{"tapped": False, "token": False}, {"tapped": False, "token": True}],
              "garden": [], "hand": []},
             {"garden": ["STT01-010"], "ikz_area": 2, "hand": ["STT01-004"]}, active=1)
    attack(g, 1, 0)
    g.step(SHAO_RESPONSE)
    choose(g, where="p1.garden[0]")
    area = P(g, 0)["ikz_area"]
    assert P(g, 0)["token"] == "ikz_area"
    assert sorted((e["token"], e["tapped"]) for e in area) == [(False, True), (True, False)]


def test_itto_identical_copies_offered_once():
    """§10 STT02-003 Itto, §12 / docs/abilities.md: identical copies among the
    looked-at cards are offered once (two Water Orbs: one option)."""
    top = ["STT02-016", "STT02-004", "STT02-016", "STT02-007", "STT02-005", "STT02-010"]
    g = game({"deck_top": top, "ikz_area": 3, "hand": ["STT02-003", "STT02-004"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Itto", "garden[0]")
    assert option_cards(g) == ["STT02-016"]
    choose(g, card="STT02-016")
    # the bottom order offers the other 4 cards, again one option per card kind
    assert option_cards(g) == ["STT02-004", "STT02-005", "STT02-007", "STT02-016"]
    bottom_all(g)
    assert sorted(hand(g, 0)) == ["STT02-004", "STT02-016"]
    assert deck(g, 0)[0] == "STT02-010"


def test_crab_redirects_attack_on_another_entity():
    """§10 STT02-006 defender, §6.2(b) 'not the current target': Indra attacks the
    tapped Benzai; the crab may become the target instead, saving Benzai."""
    g = game({"garden": [{"card": "STT02-007", "tapped": True}, "STT02-006"],
              "ikz_area": 0, "hand": []},
             {"garden": ["STT01-010"], "hand": ["STT01-004"], "ikz_area": 2}, active=1)
    attack(g, 1, 1)
    assert g.phase == "DEFENDER"
    g.step(encode("DECLARE_DEFENDER", 1))
    assert row(g, 0)[:2] == ["STT02-007", None]
    assert P(g, 0)["garden"][0]["damage"] == 0
    assert discard(g, 0) == ["STT02-006"]


def test_bubblemancer_godmode_still_sacrificed_as_cost():
    """§10 STT02-011 with §7 Godmode: 'costs its own controller pays (sacrifice)
    still move it': a godmode Bubblemancer is sacrificed and Rei gets the
    immunity."""
    g = game({"garden": ["STT02-011", "STT02-004"], "ikz_area": 1, "hand": ["STT02-004"]},
             effects=[godmode("p0.garden[0]")])
    g.step(BUBBLE)
    assert row(g, 0)[:2] == [None, "STT02-004"]
    assert discard(g, 0) == ["STT02-011"]
    assert "effect_immune" in g.statuses_of("p0.garden[1]")


def test_mizuki_short_deck_and_benzai_draw_from_empty_deck_loses():
    """§10 STT02-013 Mizuki with a 1-card deck (looking is not a draw, §9): she
    takes Benzai and plays it; Benzai's on-play draw from the now empty deck
    makes player 0 lose (§9)."""
    g = game({"deck": ["STT02-007"], "ikz_area": 6, "hand": ["STT02-004", "STT02-013"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[0]")
    assert not g.is_terminal
    choose(g, card="STT02-007")
    assert deck(g, 0) == []
    yes(g)
    if g.prompt() is not None and g.prompt()["kind"] == "SLOT":
        choose_alley_slot(g, 0)
    assert g.is_terminal and g.winner == 1

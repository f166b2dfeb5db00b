"""Scenario tests of the expansion's own leaders, gates and the cards that
use the older language elements no starter card used (conditions `lt`,
`gt`, `eq`, `le`, `not`, `or`; triggers `on_play_garden`, `on_play_alley`;
context values `hand_size`, `untapped_ikz`). Card text: azuki/data/expansion.json;
rules: docs/rules.md (§5.6 portal, §8 abilities, §8.3 activated abilities,
§8.5 costs and requirements, §12.2 one answer is no question)."""
from pathlib import Path

import azuki
from azuki._core import encode
from scenario import P, attack, choose, do, has, hand, ikz, legal, row, untapped_ikz

EXP = str(Path(azuki.__file__).resolve().parent / "data" / "expansion.json")
CS = azuki.CardSet.from_json(EXP)
HOMURA_ACT = GAIA_ACT = encode("ACTIVATE_ABILITY", 0, 0)
ASH, SCOUT, KUROBO = "EXP01-084", "EXP01-085", "STT01-003"


def game(p0=None, p1=None, decks=("EXP01-FIRE", "EXP01-EARTH"), active=0):
    return azuki.Game.from_setup({"decks": list(decks), "active": active, "players": [p0 or {}, p1 or {}]}, cards=CS)


def test_homura_small_hand_draws():
    """EXP01-080 Homura, §8.3: with fewer than 3 cards in hand (`lt` on
    `hand_size`) the ability draws one card and pays 1 IKZ."""
    g = game({"ikz_area": ikz(2), "hand": [KUROBO, KUROBO]})
    assert legal(g, HOMURA_ACT)
    g.step(HOMURA_ACT)
    assert len(hand(g, 0)) == 3 and untapped_ikz(g, 0) == 1
    assert not legal(g, HOMURA_ACT)  # once per turn, §8.6


def test_homura_big_hand_pumps_an_entity():
    """EXP01-080 Homura: with 3+ cards in hand the `else` branch gives an own
    garden entity +1 attack until the end of the turn (§8.8)."""
    g = game({"ikz_area": ikz(2), "hand": [KUROBO] * 3, "garden": [{"card": ASH}]})
    g.step(HOMURA_ACT)
    assert g.attack_of("p0.garden[0]") == 2 and len(hand(g, 0)) == 3      # Ash Sentry 1 + 1


def test_homura_requirement_is_an_or():
    """EXP01-080 Homura, §8.5: the requirement `or` (hand < 3, or an own garden
    entity) is part of the legal mask: 3 cards and an empty garden: not legal."""
    g = game({"ikz_area": ikz(2), "hand": [KUROBO] * 3})
    assert not legal(g, HOMURA_ACT)
    g = game({"ikz_area": ikz(2), "hand": [KUROBO] * 2})
    assert legal(g, HOMURA_ACT)


def test_cinder_gate_draws_only_without_untapped_ikz():
    """EXP01-081 Cinder Gate, §5.6: after the portal, `not` (`gt` untapped_ikz 0):
    a draw only when no IKZ is untapped."""
    ready = [None, None, None, None, {"card": SCOUT}]   # an attacker keeps the turn from ending by itself
    g = game({"ikz_area": ikz(0, 3), "alley": [ASH], "hand": [KUROBO], "garden": ready})
    g.step(encode("PORTAL_GATE", 0, 0))
    assert row(g, 0) == [ASH, None, None, None, SCOUT] and len(hand(g, 0)) == 2
    g = game({"ikz_area": ikz(1, 2), "alley": [ASH], "hand": [KUROBO], "garden": ready})
    g.step(encode("PORTAL_GATE", 0, 0))
    assert len(hand(g, 0)) == 1


def test_gaia_taps_a_cheap_enemy_entity():
    """EXP01-016 Terra Matriarch Gaia (Earth leader; its activated ability), §8.3: pay 2 IKZ, tap an untapped enemy garden entity with
    cost <= 3; with one candidate it is taken without a question (§12.2)."""
    g = game({"ikz_area": ikz(2), "garden": [{"card": SCOUT}]}, {"garden": [{"card": ASH}, {"card": "STT01-011"}]},
             decks=("EXP01-EARTH", "EXP01-FIRE"))  # Scout can attack: the turn does not end by itself
    assert legal(g, GAIA_ACT)
    g.step(GAIA_ACT)
    assert P(g, 1)["garden"][0]["tapped"] is True and P(g, 1)["garden"][1]["tapped"] is False
    assert untapped_ikz(g, 0) == 0


def test_gaia_needs_a_target_and_two_ikz():
    """EXP01-016 Terra Matriarch Gaia, §8.5: no untapped enemy entity of cost <= 3, or fewer
    than 2 IKZ: not legal."""
    me = {"ikz_area": ikz(2), "garden": [{"card": SCOUT}]}
    g = game(me, {"garden": [{"card": "STT01-011"}, {"card": ASH, "tapped": True}]}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    assert g.current_player == 0 and not legal(g, GAIA_ACT)
    g = game(dict(me, ikz_area=ikz(1)), {"garden": [{"card": ASH}]}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    assert g.current_player == 0 and not legal(g, GAIA_ACT)
    g = game(me, {"garden": [{"card": ASH}]}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    assert legal(g, GAIA_ACT)


def test_bedrock_gate_pumps_the_portaled_entity():
    """EXP01-083 Bedrock Gate, §5.6: the portaled entity (the trigger's
    `subject`) gets +1 attack until the end of the turn."""
    g = game({"alley": [SCOUT], "hand": [KUROBO], "ikz_area": ikz(1)}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    g.step(encode("PORTAL_GATE", 0, 1))
    assert row(g, 0)[1] == SCOUT and g.attack_of("p0.garden[1]") == 2
    g.step(encode("END_TURN", 0, 0))
    assert g.attack_of("p0.garden[1]") == 1


def test_ash_sentry_on_play_garden_only_with_exactly_one_enemy():
    """EXP01-084 Ash Sentry, §8.1: `on_play_garden` fires when played into the
    garden; `eq` exactly one enemy garden entity -> 1 damage to it."""
    g = game({"ikz_area": ikz(2), "hand": [ASH]}, {"garden": [{"card": KUROBO}]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ash Sentry", "-> garden[0]")
    assert row(g, 1)[0] is None  # Kurobo (1 health) destroyed
    g = game({"ikz_area": ikz(2), "hand": [ASH]}, {"garden": [{"card": ASH}, {"card": ASH}]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ash Sentry", "-> garden[0]")
    assert [e["damage"] for e in P(g, 1)["garden"][:2]] == [0, 0]


def test_ash_sentry_does_not_fire_in_the_alley():
    """EXP01-084 Ash Sentry: played into the alley, `on_play_garden` does not fire."""
    g = game({"ikz_area": ikz(2), "hand": [ASH]}, {"garden": [{"card": KUROBO}]})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Ash Sentry", "-> alley[0]")
    assert row(g, 1)[0] == KUROBO


def test_burrow_scout_on_play_alley_draws_with_a_small_hand():
    """EXP01-085 Burrow Scout, §8.1: `on_play_alley`, `le` on `hand_size`:
    played into the alley with 3 or fewer cards left in hand, draw one; into
    the garden, nothing."""
    g = game({"ikz_area": ikz(1), "hand": [SCOUT, KUROBO]}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    do(g, "PLAY_ENTITY_TO_ALLEY", "Burrow Scout", "-> alley[0]")
    assert len(hand(g, 0)) == 2
    g = game({"ikz_area": ikz(1), "hand": [SCOUT, KUROBO]}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    do(g, "PLAY_ENTITY_TO_GARDEN", "Burrow Scout", "-> garden[0]")
    assert len(hand(g, 0)) == 1
    g = game({"ikz_area": ikz(1), "hand": [SCOUT] + [KUROBO] * 4}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    do(g, "PLAY_ENTITY_TO_ALLEY", "Burrow Scout", "-> alley[0]")
    assert len(hand(g, 0)) == 4


GOLEM, DUELIST, KINDLER, WARDEN, VIPER = "EXP01-086", "EXP01-087", "EXP01-088", "EXP01-089", "EXP01-014"
REI = "STT02-004"           # a vanilla 1/2


def _finish_attack(g):
    """Pass the opponent's response and defender steps (NO_OP) until main."""
    from scenario import NO_OP
    while g.phase in ("RESPONSE", "DEFENDER") and legal(g, NO_OP):
        g.step(NO_OP)


def test_watchtower_golem_when_attacked_hits_the_attacker():
    """EXP01-086 Watchtower Golem, §8.1 / §6.2 (c): `when_attacked` fires when it
    is the target; the `attacker` reference takes 1 damage (a 1-health attacker
    dies before combat damage, §9: the attack ends, §6.4). Only a tapped
    entity can be attacked (§6.1)."""
    g = game({"garden": [{"card": REI}, {"card": KUROBO}]}, {"garden": [{"card": GOLEM, "tapped": True}]})
    attack(g, 1, 1)
    _finish_attack(g)
    assert row(g, 0)[0] is None and P(g, 1)["garden"][0]["damage"] == 1    # Rei (1/2): 1 + 1 damage; Golem: 1
    g = game({"garden": [{"card": KUROBO}, {"card": ASH}]}, {"garden": [{"card": GOLEM, "tapped": True}]})
    attack(g, 1, 1)
    _finish_attack(g)
    assert row(g, 0)[0] is None and P(g, 1)["garden"][0]["damage"] == 0   # Kurobo died first


def test_cinder_duelist_after_attacking_draws_with_a_big_deck():
    """EXP01-087 Cinder Duelist, §6.3: `after_attacking`, `ge` on `deck_size`:
    with 10+ cards in the deck it draws after its attack."""
    g = game({"garden": [{"card": DUELIST}, {"card": ASH}], "hand": [KUROBO]})
    n = len(hand(g, 0))
    attack(g, 1, 0)
    _finish_attack(g)
    assert len(hand(g, 0)) == n + 1
    g = game({"garden": [{"card": DUELIST}, {"card": ASH}], "hand": [KUROBO], "deck": [KUROBO] * 5})
    attack(g, 1, 0)
    _finish_attack(g)
    assert len(hand(g, 0)) == 1


def test_dawn_kindler_start_of_turn_in_the_garden_only():
    """EXP01-088 Dawn Kindler, §4.1 step 3: `start_of_turn` [Garden Only]: +2
    attack this turn in the garden; nothing from the alley."""
    from scenario import END_TURN
    g = game({"garden": [{"card": KINDLER}], "alley": [KINDLER]}, {"garden": [{"card": ASH}]}, active=1)
    g.step(END_TURN)
    assert g.active_player == 0
    assert g.attack_of("p0.garden[0]") == 3 and g.attack_of("p0.alley[0]") == 1


def test_moss_warden_end_of_turn_heals_the_leader():
    """EXP01-089 Moss Warden, §4.3 step 1: `end_of_turn`: `heal` 1 on the own
    leader (never below 0, §16.4)."""
    from scenario import END_TURN
    g = game({"garden": [{"card": WARDEN}], "leader": {"card": "EXP01-016", "damage": 3}},
             decks=("EXP01-EARTH", "EXP01-FIRE"))
    g.step(END_TURN)
    assert P(g, 0)["leader"]["damage"] == 2
    g = game({"garden": [{"card": WARDEN}]}, decks=("EXP01-EARTH", "EXP01-FIRE"))
    g.step(END_TURN)
    assert P(g, 0)["leader"]["damage"] == 0


def test_burrow_viper_entity_destroyed_pumps_it():
    """EXP01-014 Burrow Viper, §15.2 (`entity_destroyed`): whenever any entity is
    destroyed it gets +1 attack until the end of the turn; a `destroy` or lethal
    combat damage both count (§15.1), once per destroyed entity: Ash Sentry (1/1)
    and Kurobo (1/1) destroy each other, +2."""
    g = game({"garden": [{"card": ASH}, {"card": VIPER}]}, {"garden": [{"card": KUROBO, "tapped": True}]})
    before = g.attack_of("p0.garden[1]")
    attack(g, 1, 1)
    _finish_attack(g)
    assert row(g, 1)[0] is None and row(g, 0)[0] is None
    assert g.attack_of("p0.garden[1]") == before + 2

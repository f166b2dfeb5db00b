"""Scenario tests for the rules of /work/shared/RULES.md §1-§9 and §12 (the
engine core; card abilities are in test_cards_stt01/02.py).

Each test builds a position with azuki.Game.from_setup (or a fresh seeded
game for setup and mulligan), acts through the public action API, and checks
the state against the section it cites. Unless a test says otherwise player 0
plays STT01 (Raizan) and player 1 STT02 (Shao); from_setup positions start at
player 0's main phase of turn 3.

Hooks the engine core provides for abilities (start/end of turn, when
attacked, after attacking) are exercised with small runtime card sets: a copy
of the default set in which the vanilla entity Rei (STT02-004) gets one
triggered ability.
"""
import copy
import json
import pathlib
import random

import pytest

import azuki
from azuki._core import encode
from scenario import *  # noqa: F401,F403 (shared scenario helpers)

ROOT = pathlib.Path(__file__).resolve().parent.parent
CARDS = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())

KUROBO, PROWLER, ALLEY_GUY, CREW, INDRA = "STT01-003", "STT01-005", "STT01-007", "STT01-008", "STT01-010"
SHURIKEN, ORB = "STT01-012", "STT01-017"
REI, CRAB, BENZAI, MISAKI = "STT02-004", "STT02-006", "STT02-007", "STT02-008"
CHILLING, WATER_ORB = "STT02-014", "STT02-016"


def game(p0=None, p1=None, active=0, **kw):
    return make_game(("STT01", "STT02"), p0, p1, active, **kw)


def fx(where, creator=0, duration="end_of_turn", attack=None, statuses=None):
    e = {"where": where, "duration": duration, "creator": creator}
    if attack is not None:
        e["attack"] = attack
    if statuses is not None:
        e["statuses"] = statuses
    return e


def decode_p0(a):
    return azuki.decode(int(a))[1]


def events_of(g, kind):
    """Events of one type since the last drain (this drains the log)."""
    return [e for e in g.events() if e["type"] == kind]


def area(g, p):
    """The IKZ area as (tapped, token) entries."""
    return [{"tapped": e["tapped"], "token": e["token"]} for e in P(g, p)["ikz_area"]]


def end_turn(g):
    """END_TURN, after draining the event log so events() then shows this turn change."""
    g.events()
    g.step(END_TURN)


def kept_game(seed):
    """A fresh game after both players keep (turn 1, first player's main phase)."""
    g = azuki.Game(seed=seed)
    g.step(encode("MULLIGAN_KEEP", 0, 0))
    g.step(encode("MULLIGAN_KEEP", 0, 0))
    return g


def rei_with(tmp_path, ability, **fields):
    """A runtime card set in which Rei (STT02-004) has `ability` (None: no
    ability) and the given printed fields changed."""
    doc = copy.deepcopy(CARDS)
    rei = next(c for c in doc["cards"] if c["id"] == REI)
    rei["abilities"] = [] if ability is None else [ability]
    rei.update(fields)
    p = tmp_path / "cards.json"
    p.write_text(json.dumps(doc))
    return str(p)


# ---------------------------------------------------------------- §1, §3 setup and mulligan

@pytest.mark.parametrize("seed", [0, 1, 7])
def test_setup_places_every_component(seed):
    """§1, §3.1, §3.3: leader and gate in place, 50-card deck shuffled, 7 drawn,
    10 IKZ in the pile, token aside, empty rows; 63 physical cards each."""
    g = azuki.Game(seed=seed)
    d = g.state_dict()
    assert d["phase"] == "MULLIGAN" and g.turn == 0
    for p, (leader, gate) in enumerate([("STT01-001", "STT01-002"), ("STT02-001", "STT02-002")]):
        pl = d["players"][p]
        assert pl["leader"]["card"] == leader and pl["gate"]["card"] == gate
        assert len(pl["hand"]) == 7 and len(pl["deck"]) == 43
        assert pl["ikz_pile"] == 10 and pl["ikz_area"] == [] and pl["token"] == "aside"
        assert pl["garden"] == [None] * 5 and pl["alley"] == [None] * 5 and pl["discard"] == []
        main = pl["hand"] + pl["deck"]
        prefix = leader[:5]
        assert all(c.startswith(prefix) for c in main)
        assert 1 + 1 + len(main) + pl["ikz_pile"] + 1 == 63


def test_first_player_from_seed_and_decks_shuffled():
    """§3.2 (D1): the first player comes from the seeded RNG, so both seats
    occur over seeds and a seed always gives the same game; §3.1 decks are
    shuffled (different seeds, different orders)."""
    firsts = {azuki.Game(seed=s).first_player for s in range(40)}
    assert firsts == {0, 1}
    for s in (3, 11):
        a, b = azuki.Game(seed=s), azuki.Game(seed=s)
        assert a.first_player == b.first_player and a.state_hash() == b.state_hash()
    orders = {tuple(azuki.Game(seed=s).state_dict()["players"][0]["deck"]) for s in range(5)}
    assert len(orders) == 5


def test_mulligan_first_player_then_second_once_each():
    """§3.4: the first player decides, then the second, exactly once each; then
    §3.5 the first player's first turn begins."""
    for seed in range(6):
        g = azuki.Game(seed=seed)
        first = g.first_player
        assert g.current_player == first
        assert sorted(strs(g)) == ["MULLIGAN_KEEP", "MULLIGAN_SHUFFLE"]
        g.step(encode("MULLIGAN_KEEP", 0, 0))
        assert g.phase == "MULLIGAN" and g.current_player == 1 - first
        g.step(encode("MULLIGAN_SHUFFLE", 0, 0))
        assert g.phase == "MAIN" and not has(g, "MULLIGAN")
        turn_starts = [e["player"] for e in events_of(g, "TURN_START")]
        assert turn_starts[0] == first
        if g.turn == 1:
            assert g.active_player == first and g.current_player == first
        else:   # §12: the first player had only END_TURN, applied for them
            assert g.turn == 2 and turn_starts == [first, 1 - first] and g.active_player == 1 - first


def test_mulligan_bottoms_hand_draws_seven_then_shuffles():
    """§3.4 MULLIGAN: the hand goes to the bottom, the next 7 are drawn (the old
    deck's top 7), then the deck (with the old hand in it) is shuffled."""
    g = azuki.Game(seed=1)
    p = g.current_player
    before = P(g, p)
    g.step(encode("MULLIGAN_SHUFFLE", 0, 0))
    after = P(g, p)
    assert sorted(after["hand"]) == sorted(before["deck"][:7])
    assert sorted(after["deck"]) == sorted(before["deck"][7:] + before["hand"])
    assert after["deck"] != before["deck"][7:] + before["hand"]       # shuffled
    assert [e["type"] for e in g.events()] == ["DRAWN"] * 7 + ["MULLIGAN"]


def test_mulligan_keep_changes_nothing():
    """§3.4 KEEP: hand and deck stay as they are."""
    g = azuki.Game(seed=2)
    p = g.current_player
    before = P(g, p)
    g.step(encode("MULLIGAN_KEEP", 0, 0))
    after = P(g, p)
    assert after["hand"] == before["hand"] and after["deck"] == before["deck"]


@pytest.mark.parametrize("seed", [0, 1])
def test_first_turn_first_player_draws_and_gains_ikz(seed):
    """§3.5, §4.1 (D3): the first player draws on turn 1 and gains one IKZ; the
    second player has nothing yet and the token stays aside."""
    g = kept_game(seed)
    f = g.first_player
    assert len(hand(g, f)) == 8 and len(deck(g, f)) == 42
    assert area(g, f) == [{"tapped": False, "token": False}] and P(g, f)["ikz_pile"] == 9
    assert len(hand(g, 1 - f)) == 7 and P(g, 1 - f)["ikz_area"] == []
    assert P(g, f)["token"] == "aside" and P(g, 1 - f)["token"] == "aside"


def test_second_player_gets_token_on_first_turn_only():
    """§4.1 step 5: on the second player's first turn the IKZ token joins the
    IKZ area untapped, besides the regular IKZ; never again afterwards."""
    g = kept_game(0)
    f = g.first_player
    end_turn(g)
    s = 1 - f
    assert g.turn == 2 and g.active_player == s
    assert sorted(area(g, s), key=lambda e: e["token"]) == [{"tapped": False, "token": False},
                                                       {"tapped": False, "token": True}]
    assert P(g, s)["ikz_pile"] == 9 and len(hand(g, s)) == 8
    assert [e["value"] for e in events_of(g, "IKZ_GAINED")] == [0, 1]
    end_turn(g)
    end_turn(g)
    assert g.turn == 4 and g.active_player == s
    assert sum(e["token"] for e in P(g, s)["ikz_area"]) == 1 and len(P(g, s)["ikz_area"]) == 3


# ---------------------------------------------------------------- §4.1 start phase

def test_start_phase_untaps_everything_but_shocked():
    """§4.1 step 2, §7 shocked: leader, gate, garden and alley entities and IKZ
    untap; a shocked card stays tapped and loses the condition, untapping at
    the following untap step."""
    g = game({"hand": [REI], "ikz_area": 1},
             {"leader": {"card": "STT02-001", "tapped": True}, "gate": {"card": "STT02-002", "tapped": True},
              "garden": [{"card": REI, "tapped": True}, {"card": MISAKI, "tapped": True, "shocked": True}],
              "alley": [{"card": BENZAI, "tapped": True}], "ikz_area": ikz(0, 2), "hand": [REI]})
    end_turn(g)
    p1 = P(g, 1)
    assert g.active_player == 1
    assert not p1["leader"]["tapped"] and not p1["gate"]["tapped"]
    assert not p1["garden"][0]["tapped"] and not p1["alley"][0]["tapped"]
    assert p1["garden"][1]["tapped"] and not p1["garden"][1]["shocked"]
    assert "shocked" not in g.statuses_of("p1.garden[1]")
    assert untapped_ikz(g, 1) == 3                     # two untapped, one gained
    end_turn(g)
    end_turn(g)
    assert g.active_player == 1 and not P(g, 1)["garden"][1]["tapped"]


def test_start_phase_untaps_only_the_active_player():
    """§4.1 step 2: only the active player's cards untap."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [{"card": KUROBO, "tapped": True}]},
             {"hand": [REI], "garden": [{"card": REI, "tapped": True}]})
    end_turn(g)
    assert P(g, 0)["garden"][0]["tapped"] and not P(g, 1)["garden"][0]["tapped"]


def test_start_phase_draws_then_gains_ikz():
    """§4.1 steps 4-5: the active player draws the top card, then the top IKZ
    of the pile joins the IKZ area untapped."""
    g = game({"hand": [REI], "ikz_area": 1}, {"deck_top": [MISAKI], "ikz_area": 2, "hand": [REI]})
    end_turn(g)
    assert MISAKI in hand(g, 1) and len(hand(g, 1)) == 2
    assert untapped_ikz(g, 1) == 3 and P(g, 1)["ikz_pile"] == 7
    kinds = [e["type"] for e in g.events()]
    assert kinds.index("TURN_END") < kinds.index("TURN_START") < kinds.index("DRAWN") < kinds.index("IKZ_GAINED")


def test_start_phase_with_empty_ikz_pile_gains_nothing():
    """§4.1 step 5: with an empty pile, nothing is gained."""
    g = game({"hand": [REI], "ikz_area": 1}, {"ikz_area": ikz(4, 6), "hand": [REI]})
    assert P(g, 1)["ikz_pile"] == 0
    end_turn(g)
    assert untapped_ikz(g, 1) == 10 and not events_of(g, "IKZ_GAINED")


def test_start_phase_draw_from_empty_deck_loses():
    """§4.1 step 4, §9: drawing from an empty deck loses at once."""
    g = game({"hand": [REI], "ikz_area": 1}, {"deck": []})
    end_turn(g)
    assert g.is_terminal and g.result == "WIN_P0" and g.winner == 0
    assert g.phase == "GAME_OVER" and list(g.legal_actions()) == []


def test_start_phase_last_card_is_drawn_safely():
    """§9: a deck with one card is drawn normally; the loss comes only from a
    draw that finds the deck empty (the next turn's)."""
    g = game({"hand": [REI], "ikz_area": 1}, {"deck": [MISAKI], "ikz_area": 1, "hand": [REI]})
    end_turn(g)
    assert not g.is_terminal and hand(g, 1) == sorted([REI, MISAKI]) and deck(g, 1) == []
    end_turn(g)
    end_turn(g)
    assert g.result == "WIN_P0"


def test_start_of_next_turn_durations_expire_at_creators_turn(tmp_path):
    """§4.1 step 1, §8 durations, D2: an effect "until the start of your next
    turn" covers the whole opponent turn and expires when its creator's next
    turn starts, before the untap step."""
    g = game({"hand": [REI], "ikz_area": 1}, {"hand": [REI], "garden": [MISAKI]},
             effects=[fx("p1.garden[0]", creator=0, duration="start_of_next_turn", attack=-1)])
    assert g.attack_of("p1.garden[0]") == 1
    end_turn(g)                                            # p0's end phase: still on
    assert g.active_player == 1 and g.attack_of("p1.garden[0]") == 1
    end_turn(g)                                            # p0's start: gone
    assert g.active_player == 0 and g.attack_of("p1.garden[0]") == 2


def test_start_of_next_turn_expires_before_untap():
    """D2 (§4.1 step 1 before step 2), §7 shocked: a shock granted "until the
    start of your next turn" by the card's own controller has expired when the
    untap step comes, so the card untaps; one granted by the opponent is still
    live at that untap step: the card stays tapped and the condition is used
    up, so it untaps at the following one."""
    g = game({"hand": [REI], "ikz_area": 1},
             {"hand": [REI], "garden": [{"card": MISAKI, "tapped": True}, {"card": REI, "tapped": True}]},
             effects=[fx("p1.garden[0]", creator=1, duration="start_of_next_turn", statuses=["shocked"]),
                      fx("p1.garden[1]", creator=0, duration="start_of_next_turn", statuses=["shocked"])])
    assert "shocked" in g.statuses_of("p1.garden[0]") and "shocked" in g.statuses_of("p1.garden[1]")
    end_turn(g)
    assert not P(g, 1)["garden"][0]["tapped"]
    assert P(g, 1)["garden"][1]["tapped"] and "shocked" not in g.statuses_of("p1.garden[1]")
    assert g.state_dict()["effects"] == [] and g.check_invariants() == 0
    end_turn(g)
    end_turn(g)
    assert g.active_player == 1 and not P(g, 1)["garden"][1]["tapped"]


def test_start_of_turn_hook_resolves_before_the_draw(tmp_path):
    """§4.1 steps 3-4, §8: "start of your turn" abilities resolve after the untap
    and before the draw: with a one-card deck, a start-of-turn draw takes the
    last card and the turn's own draw then finds the deck empty (§9)."""
    cards = rei_with(tmp_path, {"kind": "triggered", "trigger": "start_of_turn", "effect": [{"draw": 1}]})
    g = make_game(("STT01", "STT02"), {"hand": [KUROBO], "ikz_area": 1},
                  {"garden": [REI], "deck": [MISAKI]}, cards=cards)
    end_turn(g)
    assert g.result == "WIN_P0"
    kinds = [e["type"] for e in g.events()]
    assert kinds.index("TURN_START") < kinds.index("ABILITY") < kinds.index("DRAWN")
    assert MISAKI in hand(g, 1)


def test_start_of_turn_hook_only_for_active_player(tmp_path):
    """§4.1 step 3: only the active player's "start of your turn" abilities."""
    cards = rei_with(tmp_path, {"kind": "triggered", "trigger": "start_of_turn", "effect": [{"draw": 1}]})
    g = make_game(("STT02", "STT01"), {"hand": [REI], "ikz_area": 1, "garden": [REI]},
                  {"hand": [KUROBO], "ikz_area": 1}, cards=cards)
    n0 = len(hand(g, 0))
    end_turn(g)
    assert g.active_player == 1 and len(hand(g, 0)) == n0
    end_turn(g)
    assert g.active_player == 0 and len(hand(g, 0)) == n0 + 2   # ability + turn draw


# ---------------------------------------------------------------- §4.2 main phase

def test_main_phase_passes_only_by_end_turn():
    """§4.2: the main phase has no pass besides END_TURN (NO_OP is illegal)."""
    g = game({"hand": [REI], "ikz_area": 1})
    assert has(g, "END_TURN") and not legal(g, NO_OP)
    h = g.state_hash()
    with pytest.raises(azuki.IllegalActionError):
        g.step(NO_OP)
    assert g.state_hash() == h
    do(g, "PLAY_ENTITY_TO_ALLEY", "Rei")
    assert g.phase == "MAIN" and g.active_player == 0       # any number of actions


# ---------------------------------------------------------------- §4.3 end phase

def test_end_phase_removes_entity_damage_of_both_players_not_leaders():
    """§4.3 step 2, §1 (a leader's damage never resets)."""
    g = game({"hand": [REI], "ikz_area": 1, "leader": {"card": "STT01-001", "damage": 3},
              "garden": [{"card": ALLEY_GUY, "damage": 1}], "alley": [{"card": CREW, "damage": 1}]},
             {"hand": [REI], "leader": {"card": "STT02-001", "damage": 4},
              "garden": [{"card": REI, "damage": 1}]})
    end_turn(g)
    assert P(g, 0)["garden"][0]["damage"] == 0 and P(g, 0)["alley"][0]["damage"] == 0
    assert P(g, 1)["garden"][0]["damage"] == 0
    assert leader_damage(g, 0) == 3 and leader_damage(g, 1) == 4


def test_end_phase_expires_end_of_turn_durations_of_both_players():
    """§4.3 step 3: "until the end of the turn" effects of both creators end;
    "until the start of your next turn" ones do not."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [CREW]}, {"hand": [REI], "garden": [MISAKI, REI]},
             effects=[fx("p0.garden[0]", creator=0, attack=2), fx("p1.garden[0]", creator=1, attack=-1),
                      fx("p1.garden[1]", creator=0, duration="start_of_next_turn", attack=3)])
    assert (g.attack_of("p0.garden[0]"), g.attack_of("p1.garden[0]"), g.attack_of("p1.garden[1]")) == (4, 1, 4)
    end_turn(g)
    assert (g.attack_of("p0.garden[0]"), g.attack_of("p1.garden[0]"), g.attack_of("p1.garden[1]")) == (2, 2, 4)
    assert len(g.state_dict()["effects"]) == 1


def test_end_phase_sends_every_weapon_to_its_owners_discard():
    """§4.3 step 4, §1 weapon, §2.2: weapons of both players go to their owners'
    discard piles; holders stay."""
    g = game({"hand": [REI], "ikz_area": 1,
              "leader": {"card": "STT01-001", "weapons": [SHURIKEN]},
              "garden": [{"card": KUROBO, "weapons": [SHURIKEN, "STT01-013"]}]},
             {"hand": [REI], "garden": [{"card": REI, "weapons": ["STT01-014"]}]})
    assert g.attack_of("p0.garden[0]") == 3
    end_turn(g)
    assert sorted(discard(g, 0)) == sorted([SHURIKEN, SHURIKEN, "STT01-013"])
    assert discard(g, 1) == ["STT01-014"]
    assert P(g, 0)["leader"]["weapons"] == [] and P(g, 0)["garden"][0]["weapons"] == []
    assert row(g, 0) == [KUROBO, None, None, None, None] and row(g, 1)[0] == REI
    assert g.attack_of("p0.garden[0]") == 1


def test_end_phase_passes_the_turn():
    """§4.3 step 5: the other player becomes active and their start phase runs."""
    g = game({"hand": [REI], "ikz_area": 1}, {"hand": [REI]}, turn=5)
    end_turn(g)
    assert g.turn == 6 and g.active_player == 1 and g.current_player == 1 and g.phase == "MAIN"
    kinds = [e["type"] for e in g.events()]
    assert kinds[0] == "TURN_END" and "TURN_START" in kinds


def test_end_of_turn_hook_runs_before_damage_is_removed(tmp_path):
    """§4.3 steps 1-2: "end of your turn" abilities resolve first; damage they
    deal to an entity is then removed in step 2 (here: 1 damage to a 1-health
    entity destroys it before the reset)."""
    cards = rei_with(tmp_path, {"kind": "triggered", "trigger": "end_of_turn", "effect": [
        {"for_each": {"as": "e", "in": {"zone": "garden", "side": "opponent"},
                      "do": [{"deal_damage": {"to": "e", "amount": 1}}]}}]})
    g = make_game(("STT02", "STT01"), {"hand": [REI], "ikz_area": 1, "garden": [REI]},
                  {"hand": [KUROBO], "garden": [KUROBO, ALLEY_GUY]}, cards=cards)
    end_turn(g)
    assert row(g, 1) == [None, ALLEY_GUY, None, None, None]
    assert KUROBO in discard(g, 1) and P(g, 1)["garden"][1]["damage"] == 0


# ---------------------------------------------------------------- §5.1 paying IKZ

def test_payment_uses_regular_ikz_before_the_token():
    """§5.1, D4: regular untapped IKZ pay first; the token stays."""
    g = game({"hand": [REI, KUROBO], "ikz_area": [{"tapped": False, "token": True},
                                                  {"tapped": False, "token": False}]})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Rei")
    assert sorted(area(g, 0), key=lambda e: e["token"]) == [{"tapped": True, "token": False},
                                                       {"tapped": False, "token": True}]
    assert P(g, 0)["token"] != "out" and len(events_of(g, "PAID")) == 1


def test_paying_with_the_token_puts_it_out_of_game():
    """§5.1: a token used to pay goes out of game (not tapped in the area)."""
    g = game({"hand": [REI, KUROBO], "ikz_area": [{"tapped": True, "token": False},
                                                  {"tapped": False, "token": True}]})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Rei")
    assert P(g, 0)["token"] == "out"
    assert area(g, 0) == [{"tapped": True, "token": False}]
    assert not has(g, "PLAY_ENTITY")                         # nothing left to pay with


def test_unaffordable_cards_cannot_be_played():
    """§5.1: a card whose cost cannot be paid cannot be played."""
    g = game({"hand": [CREW, REI], "ikz_area": ikz(2, 3)})
    assert not has(g, "Crewleader") and has(g, "PLAY_ENTITY_TO_GARDEN", "Rei")
    g2 = game({"hand": [CREW, REI], "ikz_area": 4})
    assert has(g2, "PLAY_ENTITY_TO_GARDEN", "Crewleader")
    do(g2, "PLAY_ENTITY_TO_GARDEN", "Crewleader")
    assert untapped_ikz(g2, 0) == 1 and tapped_ikz(g2, 0) == 3


# ---------------------------------------------------------------- §5.2 entities, §2.3 replacement, §2.4 slots

def test_entity_slot_choice_and_entry_state():
    """§5.2, §2.4: every empty garden and alley slot is offered; the entity takes
    the chosen slot untapped; in the garden it has cooldown (§5.5), in the
    alley it does not."""
    g = game({"hand": [REI, BENZAI], "ikz_area": 5, "garden": [KUROBO, None, KUROBO]})
    g.events()
    assert sorted(s.split("-> ")[1] for s in strs(g) if "Rei" in s) == \
        ["p0.alley[0]", "p0.alley[1]", "p0.alley[2]", "p0.alley[3]", "p0.alley[4]", "p0.garden[1]", "p0.garden[3]", "p0.garden[4]"]
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[3]")
    e = P(g, 0)["garden"][3]
    assert e["card"] == REI and not e["tapped"] and e["cooldown"]
    assert P(g, 0)["played_entities"] == 1
    do(g, "PLAY_ENTITY_TO_ALLEY", "Benzai", "alley[2]")
    e = P(g, 0)["alley"][2]
    assert e["card"] == BENZAI and not e["tapped"] and not e["cooldown"]
    assert P(g, 0)["played_entities"] == 2
    assert [e["type"] for e in g.events()].count("PLAYED") == 2


def test_full_garden_replacement_discards_without_destroying():
    """§2.3: entering a full garden, the controller chooses an entity to put into
    the discard pile (replaced, not destroyed); the new one takes its slot; the
    replaced entity's weapons go with it (§5.3)."""
    g = game({"hand": [REI], "ikz_area": 1,
              "garden": [KUROBO, {"card": ALLEY_GUY, "weapons": [SHURIKEN]}, CREW, PROWLER, INDRA]})
    targets = sorted(s.split("-> ")[1].split()[0] for s in strs(g) if s.startswith("PLAY_ENTITY_TO_GARDEN"))
    assert targets == [f"p0.garden[{i}]" for i in range(5)]
    g.events()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[1]")
    assert row(g, 0) == [KUROBO, REI, CREW, PROWLER, INDRA]
    assert sorted(discard(g, 0)) == sorted([ALLEY_GUY, SHURIKEN])
    kinds = [e["type"] for e in g.events()]
    assert "REPLACED" in kinds and "DESTROYED" not in kinds


def test_full_alley_replacement():
    """§2.3 for the alley."""
    g = game({"hand": [REI], "ikz_area": 1, "alley": [KUROBO, ALLEY_GUY, CREW, PROWLER, INDRA]})
    assert not has(g, "PLAY_ENTITY_TO_ALLEY", "alley[5]")
    do(g, "PLAY_ENTITY_TO_ALLEY", "Rei", "alley[4]")
    assert row(g, 0, "alley") == [KUROBO, ALLEY_GUY, CREW, PROWLER, REI]
    assert discard(g, 0) == [INDRA]


# ---------------------------------------------------------------- §5.3 weapons

def test_weapon_holders_are_own_leader_and_garden_entities():
    """§5.3: own leader or own garden entity; never alley entities or the
    opponent's cards."""
    g = game({"hand": [SHURIKEN], "ikz_area": 1, "garden": [None, KUROBO], "alley": [ALLEY_GUY]},
             {"garden": [{"card": REI, "tapped": True}]})
    holders = sorted(s.split("-> ")[1] for s in strs(g) if s.startswith("PLAY_WEAPON"))
    assert holders == ["p0.garden[1] Crate Rat Kurobo", "p0.leader"]


def test_any_number_of_weapons_stack_their_bonuses():
    """§5.3, D5: several weapons on one holder each add their bonus."""
    g = game({"hand": [SHURIKEN, SHURIKEN, SHURIKEN], "ikz_area": 3, "garden": [KUROBO]})
    for _ in range(3):
        do(g, "PLAY_WEAPON", "Lightning Shuriken", "garden[0]")
    assert g.attack_of("p0.garden[0]") == 4
    assert [w["card"] for w in P(g, 0)["garden"][0]["weapons"]] == [SHURIKEN] * 3


def test_leader_attacks_only_with_a_weapon():
    """§1 leader, §6.1: the leader attacks only while it holds a weapon; its
    attack is the weapons' bonus (base 0)."""
    g = game({"hand": [SHURIKEN, REI], "ikz_area": 2})
    assert not legal(g, encode("ATTACK", 0, 0))
    do(g, "PLAY_WEAPON", "Lightning Shuriken", "leader")
    assert g.attack_of("p0.leader") == 1 and legal(g, encode("ATTACK", 0, 0))
    attack(g, 0, 0)
    assert leader_damage(g, 1) == 1 and P(g, 0)["leader"]["tapped"]


def test_weapons_follow_a_destroyed_holder_to_the_discard():
    """§5.3, §9: when a holder leaves the field its weapons go to the discard
    pile at once (not at the end of the turn)."""
    g = game({"garden": [{"card": KUROBO, "weapons": [SHURIKEN]}], "hand": [REI], "ikz_area": 1},
             {"garden": [{"card": MISAKI, "tapped": True}]})
    attack(g, 1, 1)                          # 2 attack vs Misaki 2/1: both die
    assert row(g, 0)[0] is None and row(g, 1)[0] is None
    assert SHURIKEN in discard(g, 0) and KUROBO in discard(g, 0) and MISAKI in discard(g, 1)
    assert g.phase == "MAIN"


# ---------------------------------------------------------------- §5.4 spells

def test_spell_timing_windows():
    """§5.4: [Response] spells are not playable in the main phase; [Main]
    spells are not playable in a response window."""
    g = game({"hand": [ORB, REI], "ikz_area": 3, "garden": [KUROBO]},
             {"hand": [CHILLING, WATER_ORB, REI], "ikz_area": 3, "garden": [{"card": REI, "tapped": True}]})
    assert not has(g, "Lightning Orb")
    attack(g, 1, 0)
    assert g.phase == "RESPONSE" and g.current_player == 1
    assert has(g, "PLAY_SPELL_RESPONSE", "Water Orb") and not has(g, "Chilling Water")


def test_spell_resolves_then_goes_to_discard():
    """§5.4: a spell is paid, resolves, then goes to the discard pile."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [{"card": KUROBO, "tapped": True}]},
             {"hand": [CHILLING, REI], "ikz_area": 2}, active=1)
    do(g, "PLAY_SPELL_MAIN", "Chilling Water")
    assert CHILLING in discard(g, 1) and CHILLING not in hand(g, 1)
    assert "frozen" in g.statuses_of("p0.garden[0]") and untapped_ikz(g, 1) == 1


def test_spell_with_mandatory_target_needs_one():
    """§5.4, §8 targets: Chilling Water needs a cost ≤ 2 entity in the
    opponent's garden."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [INDRA], "alley": [KUROBO]},
             {"hand": [CHILLING, REI], "ikz_area": 2}, active=1)
    assert not has(g, "Chilling Water")


# ---------------------------------------------------------------- §5.5 cooldown, §7 charge

def test_cooldown_lasts_for_the_turn_of_entry():
    """§5.5: an entity that entered the garden this turn cannot attack; from the
    controller's next turn it can."""
    g = game({"hand": [REI, KUROBO], "ikz_area": 2}, {"hand": [REI], "ikz_area": 1})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rei", "garden[0]")
    assert not has(g, "ATTACK")
    end_turn(g)
    end_turn(g)
    assert g.active_player == 0 and not P(g, 0)["garden"][0]["cooldown"]
    assert legal(g, encode("ATTACK", 1, 0))


def test_charge_lifts_cooldown():
    """§5.5, §7 charge: Indra (charge) attacks the turn it is played."""
    g = game({"hand": [INDRA, REI], "ikz_area": 5})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Indra", "garden[0]")
    assert P(g, 0)["garden"][0]["cooldown"] and legal(g, encode("ATTACK", 1, 0))
    attack(g, 1, 0)
    assert leader_damage(g, 1) == 3


def test_granted_charge_is_data_too():
    """§7: keywords are data on cards and durations: a charge effect on a
    cooldown entity lets it attack."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [{"card": KUROBO, "cooldown": True}]},
             effects=[fx("p0.garden[0]", statuses=["charge"])])
    assert legal(g, encode("ATTACK", 1, 0))


# ---------------------------------------------------------------- §5.6 portal

def test_portal_moves_an_untapped_alley_entity_with_cooldown():
    """§5.6: tap the gate, move an untapped alley entity to a chosen garden
    slot; it is not played (no on-play, not counted) and gets cooldown."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO],
              "alley": [BENZAI, {"card": REI, "tapped": True}]})
    portals = [s for s in strs(g) if s.startswith("PORTAL_GATE")]
    assert portals and all("Benzai" in s for s in portals)
    assert sorted(s.split("-> ")[1] for s in portals) == ["p0.garden[1]", "p0.garden[2]", "p0.garden[3]", "p0.garden[4]"]
    n_hand = len(hand(g, 0))
    g.events()
    do(g, "PORTAL_GATE", "Benzai", "garden[2]")
    ev = g.events()
    assert row(g, 0) == [KUROBO, None, BENZAI, None, None] and row(g, 0, "alley")[0] is None
    assert P(g, 0)["gate"]["tapped"] and P(g, 0)["garden"][2]["cooldown"]
    assert len(hand(g, 0)) == n_hand and P(g, 0)["played_entities"] == 0
    assert not has(g, "PORTAL_GATE")
    kinds = [e["type"] for e in ev]
    assert "PORTALED" in kinds and "PLAYED" not in kinds


def test_portal_needs_an_untapped_gate():
    """§5.6: the cost is TAP the gate."""
    g = game({"hand": [REI], "ikz_area": 1, "gate": {"card": "STT01-002", "tapped": True}, "alley": [BENZAI]})
    assert not has(g, "PORTAL_GATE")


def test_portal_into_a_full_garden_replaces():
    """§5.6 with §2.3: a full garden asks which entity to replace."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO, ALLEY_GUY, CREW, PROWLER, INDRA],
              "alley": [BENZAI]})
    assert len([s for s in strs(g) if s.startswith("PORTAL_GATE")]) == 5
    do(g, "PORTAL_GATE", "Benzai", "garden[0]")
    assert row(g, 0)[0] == BENZAI and discard(g, 0) == [KUROBO]


def test_portal_gate_effect_gets_the_portaled_gp():
    """§5.6: the gate's extra effect resolves with the portaled entity's GP
    (Hydromancy: untap up to GP tapped IKZ; Young Shao GP 2, 3 tapped → 0..2)."""
    g = make_game(("STT02", "STT01"), {"hand": [REI], "ikz_area": ikz(1, 3), "alley": ["STT02-012"]})
    do(g, "PORTAL_GATE", "Young Shao", "garden[0]")
    assert g.prompt()["kind"] == "NUMBER"
    assert sorted(o["value"] for o in options(g)) == [0, 1, 2]


# ---------------------------------------------------------------- §6.1 attackers and targets

def test_legal_attackers():
    """§6.1: untapped garden entities without cooldown (or with charge) that are
    not frozen; not alley entities, not tapped ones; the leader only with a
    weapon."""
    g = game({"hand": [REI], "ikz_area": 1,
              "garden": [KUROBO, {"card": ALLEY_GUY, "tapped": True}, {"card": CREW, "cooldown": True},
                         MISAKI, {"card": INDRA, "cooldown": True}],
              "alley": [PROWLER]},
             effects=[fx("p0.garden[3]", statuses=["frozen"], duration="start_of_next_turn", creator=1)])
    attackers = {decode_p0(a) for a in g.legal_actions() if g.decode(a)[0] == "ATTACK"}
    assert attackers == {1, 5}                      # Kurobo and Indra (charge)


def test_legal_targets_are_leader_and_tapped_garden_entities():
    """§6.1: the opponent's leader or a tapped entity in their garden; not
    untapped ones, not alley entities."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO]},
             {"garden": [REI, {"card": MISAKI, "tapped": True}],
              "alley": [{"card": BENZAI, "tapped": True}]})
    targets = sorted(azuki.decode(int(a))[2] for a in g.legal_actions() if g.decode(a)[0] == "ATTACK")
    assert targets == [0, 2]


def test_attacker_taps_and_stays_tapped():
    """§6.1: the attacker taps."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO, REI]})
    attack(g, 1, 0)
    assert P(g, 0)["garden"][0]["tapped"] and not legal(g, encode("ATTACK", 1, 0))
    assert legal(g, encode("ATTACK", 2, 0))


def test_when_attacking_resolves_before_the_response_window():
    """§6.1, §6.2: the attacker's "when attacking" abilities (its weapons'
    too) resolve on declaration, before the defender responds (Shuriken
    mills 1 before the response window opens)."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [{"card": KUROBO, "weapons": [SHURIKEN]}],
              "deck_top": [CREW]},
             {"hand": [WATER_ORB, REI], "ikz_area": 1})
    g.events()
    attack(g, 1, 0)
    assert g.phase == "RESPONSE" and discard(g, 0) == [CREW]
    kinds = [e["type"] for e in g.events()]
    assert kinds.index("ATTACK_DECLARED") < kinds.index("MILLED") < kinds.index("RESPONSE_REQUESTED")


# ---------------------------------------------------------------- §6.2 response window

def crab_position(**kw):
    return game({"hand": [REI], "ikz_area": 1, "garden": [MISAKI, KUROBO]},
                {"hand": [WATER_ORB, REI], "ikz_area": 2, "garden": [CRAB]}, **kw)


def test_response_window_steps_in_order():
    """§6.2: (a) responses, any number (D7), then pass; (b) the defender step;
    then damage."""
    g = crab_position()
    g.events()
    attack(g, 1, 0)
    assert g.phase == "RESPONSE" and g.current_player == 1
    do(g, "PLAY_SPELL_RESPONSE", "Water Orb")
    choose(g, where="p0.garden[0]")       # Misaki -2 (the discard cost took the only card, §12)
    assert discard(g, 1) == [REI, WATER_ORB]
    assert g.attack_of("p0.garden[0]") == 0
    assert g.phase == "RESPONSE" and has(g, "ACTIVATE_ABILITY", "leader")   # more responses allowed
    g.step(NO_OP)
    assert g.phase == "DEFENDER" and g.current_player == 1
    do(g, "DECLARE_DEFENDER", "Foamback Crab")
    assert g.phase == "MAIN" and g.current_player == 0
    assert P(g, 1)["garden"][0]["tapped"] and leader_damage(g, 1) == 0
    kinds = [e["type"] for e in g.events()]
    assert kinds.index("RESPONSE_REQUESTED") < kinds.index("DEFENDER_DECLARED")


def test_defender_redirect_takes_the_damage():
    """§6.2 (b), §6.3: the tapped defender becomes the target and exchanges
    combat damage with the attacker."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO]}, {"garden": [CRAB]})
    attack(g, 1, 0)
    assert g.phase == "DEFENDER"
    assert g.state_dict()["combat"]["target"] == "p1.leader"
    do(g, "DECLARE_DEFENDER", "Foamback Crab")
    assert row(g, 1)[0] is None and CRAB in discard(g, 1)            # 1 damage, 1 health
    assert leader_damage(g, 1) == 0 and row(g, 0)[0] == KUROBO       # Crab has 0 attack


def test_defender_decline_keeps_the_target():
    """§6.2 (b) is optional: declining keeps the original target."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO]}, {"garden": [CRAB]})
    attack(g, 1, 0)
    g.step(NO_OP)
    assert leader_damage(g, 1) == 1 and not P(g, 1)["garden"][0]["tapped"]


def test_defender_must_be_untapped_and_not_frozen():
    """§6.2 (b): a tapped or frozen defender cannot redirect, so the step is
    skipped (§12) and damage happens at once."""
    for crab in ({"card": CRAB, "tapped": True}, CRAB):
        effects = [] if isinstance(crab, dict) else [fx("p1.garden[0]", creator=0, statuses=["frozen"])]
        g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO]}, {"garden": [crab]}, effects=effects)
        attack(g, 1, 0)
        assert g.phase == "MAIN" and leader_damage(g, 1) == 1


def test_defender_not_against_infiltrate():
    """§6.2 (b), §7 infiltrate: the defender step is skipped."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO]}, {"garden": [CRAB]},
             effects=[fx("p0.garden[0]", statuses=["infiltrate"])])
    attack(g, 1, 0)
    assert g.phase == "MAIN" and leader_damage(g, 1) == 1


def test_defender_redirect_from_an_attacked_entity():
    """§6.2 (b): when a tapped entity is attacked, another untapped defender may
    take its place; once per attack."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [INDRA]},
             {"garden": [{"card": REI, "tapped": True}, CRAB, CRAB]})
    attack(g, 1, 1)
    assert sorted(s for s in strs(g)) == ["DECLARE_DEFENDER p1.garden[1] Foamback Crab",
                                          "DECLARE_DEFENDER p1.garden[2] Foamback Crab", "NO_OP"]
    do(g, "DECLARE_DEFENDER", "garden[2]")
    assert g.phase == "MAIN"
    assert row(g, 1) == [REI, CRAB, None, None, None] and P(g, 1)["garden"][0]["damage"] == 0


def test_no_response_window_when_the_defender_cannot_act():
    """§12: a window where the defender can only pass is skipped: damage is
    dealt immediately and the attacker keeps the turn."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO]}, {"hand": [CHILLING], "ikz_area": ikz(0, 3)})
    g.events()
    attack(g, 1, 0)
    assert g.phase == "MAIN" and g.current_player == 0 and leader_damage(g, 1) == 1
    assert not events_of(g, "RESPONSE_REQUESTED")


def test_when_attacked_hook_after_defender_step(tmp_path):
    """§6.2 (c): "when attacked" abilities of the current target resolve after
    the defender step — for the redirected defender, not the first target."""
    cards = rei_with(tmp_path, {"kind": "triggered", "trigger": "when_attacked", "effect": [{"draw": 1}]},
                     keywords=["defender"])
    g = make_game(("STT01", "STT02"), {"hand": [REI], "ikz_area": 1, "garden": [INDRA]},
                  {"garden": [{"card": REI, "tapped": True}, REI]}, cards=cards)
    n = len(hand(g, 1))
    g.events()
    attack(g, 1, 1)
    assert g.phase == "DEFENDER" and len(hand(g, 1)) == n     # not yet
    do(g, "DECLARE_DEFENDER", "garden[1]")
    kinds = [e["type"] for e in g.events()]
    assert len(hand(g, 1)) == n + 1 and kinds.count("ABILITY") == 1
    assert kinds.index("DEFENDER_DECLARED") < kinds.index("ABILITY") < kinds.index("DAMAGE")


# ---------------------------------------------------------------- §6.3 damage, §6.4

def test_combat_damage_is_simultaneous():
    """§6.3: both deal damage at the same time; both can be destroyed."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [MISAKI]}, {"garden": [{"card": REI, "tapped": True}]})
    attack(g, 1, 1)
    assert row(g, 0)[0] is None and row(g, 1)[0] is None
    assert discard(g, 0) == [MISAKI] and discard(g, 1) == [REI]
    assert len(events_of(g, "DESTROYED")) == 2


def test_surviving_combatants_keep_damage():
    """§6.3: damage stays on survivors until the end phase (§4.3)."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO]}, {"garden": [{"card": REI, "tapped": True}]})
    attack(g, 1, 1)
    assert row(g, 0)[0] is None and P(g, 1)["garden"][0]["damage"] == 1


def test_negative_attack_deals_no_damage():
    """§6.3: attack below 0 counts as 0 (no healing, no damage)."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO, REI],
              "leader": {"card": "STT01-001", "damage": 2}},
             {"leader": {"card": "STT02-001", "damage": 2}, "garden": [{"card": MISAKI, "tapped": True}]},
             effects=[fx("p0.garden[0]", attack=-3), fx("p1.garden[0]", attack=-4, creator=0)])
    attack(g, 1, 0)
    assert leader_damage(g, 1) == 2
    attack(g, 2, 1)
    assert P(g, 0)["garden"][1]["damage"] == 0 and row(g, 1)[0] is None


def test_after_attacking_hook_only_if_attacker_survives(tmp_path):
    """§6.3: "after attacking" abilities resolve after damage if the attacker is
    still on the field."""
    cards = rei_with(tmp_path, {"kind": "triggered", "trigger": "after_attacking", "effect": [{"draw": 1}]})
    g = make_game(("STT02", "STT01"), {"hand": [BENZAI], "ikz_area": 1, "garden": [REI, REI]},
                  {"garden": [{"card": KUROBO, "tapped": True}, {"card": INDRA, "tapped": True}]}, cards=cards)
    n = len(hand(g, 0))
    g.events()
    attack(g, 1, 1)                                 # Rei 1/2 vs Kurobo 1/1: Rei survives
    assert len(hand(g, 0)) == n + 1
    kinds = [e["type"] for e in g.events()]
    assert kinds.index("DAMAGE") < kinds.index("ABILITY")
    attack(g, 2, 2)                                 # Rei vs Indra 3/2: Rei destroyed
    assert len(hand(g, 0)) == n + 1 and row(g, 0)[1] is None


def test_attack_ends_early_when_the_attacker_leaves():
    """§6.4: if the attacker left the field before damage, the attack ends with
    no damage (Commune with Water returns it in step (a))."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [KUROBO], "leader": {"card": "STT01-001"}},
             {"hand": ["STT02-015", REI], "ikz_area": 2, "garden": [{"card": REI, "tapped": True}]})
    attack(g, 1, 1)
    g.events()
    do(g, "PLAY_SPELL_RESPONSE", "Commune with Water")
    if g.prompt() is not None:
        choose(g, where="p0.garden[0]")
    assert KUROBO in hand(g, 0) and row(g, 0)[0] is None
    assert P(g, 1)["garden"][0]["damage"] == 0 and g.phase == "MAIN"
    assert not events_of(g, "DAMAGE")


# ---------------------------------------------------------------- §7 keywords and conditions

def test_carapace_reduces_every_damage(tmp_path):
    """§7 Carapace N: each damage is reduced by N, not below 0 (combat and
    effect damage alike)."""
    cards = rei_with(tmp_path, None, carapace=1)
    g = make_game(("STT01", "STT02"), {"hand": [REI], "ikz_area": 1, "garden": [KUROBO, INDRA]},
                  {"garden": [{"card": REI, "tapped": True}]}, cards=cards)
    attack(g, 1, 1)                                 # 1 - 1 = 0
    assert P(g, 1)["garden"][0]["damage"] == 0 and row(g, 0)[0] is None
    attack(g, 2, 1)                                 # 3 - 1 = 2 ≥ health 2
    assert row(g, 1)[0] is None


def test_godmode_stays_at_lethal_damage():
    """§7 Godmode: does not leave the field because of damage."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [INDRA]},
             {"garden": [{"card": REI, "tapped": True}]},
             effects=[fx("p1.garden[0]", creator=1, statuses=["godmode"])])
    attack(g, 1, 1)
    assert row(g, 1)[0] == REI and P(g, 1)["garden"][0]["damage"] == 3      # health 2
    assert "DESTROYED" not in [e["type"] for e in g.events()]


def test_frozen_cannot_be_damaged_but_deals_combat_damage():
    """§7 Frozen: cannot be damaged; still deals combat damage when attacked."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [MISAKI]},
             {"garden": [{"card": REI, "tapped": True}]},
             effects=[fx("p1.garden[0]", statuses=["frozen"], duration="start_of_next_turn")])
    attack(g, 1, 1)
    assert P(g, 1)["garden"][0]["damage"] == 0 and row(g, 1)[0] == REI
    assert row(g, 0)[0] is None and MISAKI in discard(g, 0)


def test_frozen_disables_printed_keywords():
    """§7 Frozen: its abilities, keywords included, are disabled (a frozen Crab
    has no defender and loses its effect immunity)."""
    g = game({"hand": [REI], "ikz_area": 1},
             {"garden": [CRAB]}, effects=[fx("p1.garden[0]", statuses=["frozen"])])
    st = g.statuses_of("p1.garden[0]")
    assert "frozen" in st and "defender" not in st and "effect_immune" not in st


def test_effect_immunity_blocks_effect_damage_only():
    """§7 "cannot take damage from card effects", §8 targets chosen on
    resolution: Haruhi's when-attacking ping may name the Foamback Crab but
    deals it nothing; the combat damage that follows destroys it."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": ["STT01-006"]},
             {"garden": [{"card": CRAB, "tapped": True}]})
    attack(g, 1, 1)
    assert g.phase == "PROMPT" and "p1.garden[0]" in option_wheres(g)
    g.events()
    choose(g, where="p1.garden[0]")
    ev = g.events()
    crab_hits = [e for e in ev if e["type"] == "DAMAGE" and e.get("card") == CRAB]
    assert [e["value"] for e in crab_hits] == [1]                 # the combat hit only
    assert row(g, 1)[0] is None and CRAB in discard(g, 1)


# ---------------------------------------------------------------- §9 winning, losing, state checks

def test_leader_at_zero_loses():
    """§9: a leader at 0 or less health loses; the game is over."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [INDRA]},
             {"leader": {"card": "STT02-001", "damage": 18}})
    attack(g, 1, 0)
    assert g.result == "WIN_P0" and g.winner == 0 and g.is_terminal
    assert events_of(g, "GAME_OVER")
    with pytest.raises(azuki.IllegalActionError):
        g.step(END_TURN)


def test_double_knockout_is_a_draw():
    """§9, D10: both leaders at 0 by the same event is a draw (leader vs leader
    combat, both holding weapons)."""
    g = game({"hand": [REI], "ikz_area": 1,
              "leader": {"card": "STT01-001", "damage": 19, "weapons": [SHURIKEN]}},
             {"leader": {"card": "STT02-001", "damage": 19, "weapons": [SHURIKEN]}})
    attack(g, 0, 0)
    assert g.result == "DRAW" and g.winner is None and g.is_terminal


def test_effect_draw_from_empty_deck_loses():
    """§9: any draw from an empty deck loses (Benzai's on-play draw)."""
    g = make_game(("STT02", "STT01"), {"hand": [BENZAI, REI], "ikz_area": 2, "deck": []})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Benzai")
    assert g.result == "WIN_P1"


def test_milling_a_short_deck_is_not_a_draw():
    """§9: putting cards from a short deck into the discard pile uses what is
    there and does not lose (Kurobo mills 5 of a 2-card deck)."""
    g = game({"hand": [KUROBO, REI], "ikz_area": 2, "deck": [REI, REI]})
    do(g, "PLAY_ENTITY_TO_ALLEY", "Kurobo")
    assert not g.is_terminal and deck(g, 0) == [] and discard(g, 0) == [REI, REI]


def test_setup_at_lethal_damage_runs_state_checks():
    """§9: state checks run on a built position: an entity at lethal damage is
    destroyed with its weapons; a leader at 20 damage loses."""
    g = game({"hand": [REI], "ikz_area": 1, "garden": [{"card": KUROBO, "damage": 1, "weapons": [SHURIKEN]}]})
    assert row(g, 0)[0] is None and sorted(discard(g, 0)) == sorted([KUROBO, SHURIKEN])
    g = game({"hand": [REI], "ikz_area": 1}, {"leader": {"card": "STT02-001", "damage": 20}})
    assert g.result == "WIN_P0"


def test_turn_cap_truncates():
    """§9: the turn cap ends the game as truncated, not as a result."""
    g = game({"hand": [REI], "ikz_area": 1}, {"hand": [REI]}, turn=3, turn_cap=3)
    end_turn(g)
    assert g.result == "TRUNCATED" and g.is_terminal and g.winner is None


def test_random_games_end_within_the_cap():
    """§9: games with the starter decks are finite; the cap is never hit."""
    for seed in range(30):
        g = azuki.Game(seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal:
            g.step(rng.choice(list(g.legal_actions())))
        assert g.result in ("WIN_P0", "WIN_P1", "DRAW")


# ---------------------------------------------------------------- §12 decisions

def test_identical_copies_are_offered_once():
    """§12: identical cards in one hand are interchangeable; the legal actions
    name only the first copy."""
    g = game({"hand": [REI, REI, REI, KUROBO], "ikz_area": 1})
    names = [s.split(" -> ")[0] for s in strs(g) if s.startswith("PLAY_ENTITY_TO_ALLEY")]
    assert sorted(set(names)) == ["PLAY_ENTITY_TO_ALLEY p0.hand[0] Crate Rat Kurobo",
                                  "PLAY_ENTITY_TO_ALLEY p0.hand[1] Rei"]
    assert not legal(g, encode("PLAY_ENTITY_TO_ALLEY", 2, 0))
    with pytest.raises(azuki.IllegalActionError):
        g.step(encode("PLAY_ENTITY_TO_ALLEY", 2, 0))


def test_every_decision_has_at_least_two_answers():
    """§12: the engine asks only when there are at least two legal answers."""
    for seed in range(20):
        g = azuki.Game(seed=seed, decks=[("STT01", "STT02"), ("STT02", "STT02")][seed % 2])
        rng = random.Random(seed)
        while not g.is_terminal:
            acts = list(g.legal_actions())
            assert len(acts) >= 2, (seed, g.phase, strs(g))
            g.step(rng.choice(acts))


# ---------------------------------------------------------------- §2.1 new object

def test_a_card_that_changes_zone_is_a_new_object():
    """§2.1: an attacking Misaki with +1 attack until end of turn is returned to
    hand (Commune with Water, which also ends the attack, §6.4); replayed, it
    is a new object: no modifier, untapped, with cooldown."""
    g = game({"hand": [REI], "ikz_area": 3, "garden": [MISAKI]},
             {"hand": ["STT02-015", REI], "ikz_area": 2},
             effects=[fx("p0.garden[0]", attack=1)])
    assert g.attack_of("p0.garden[0]") == 3
    attack(g, 1, 0)
    do(g, "PLAY_SPELL_RESPONSE", "Commune with Water")
    if g.prompt() is not None:
        choose(g, where="p0.garden[0]")
    assert MISAKI in hand(g, 0) and leader_damage(g, 1) == 0
    assert g.state_dict()["effects"] == []
    do(g, "PLAY_ENTITY_TO_GARDEN", "Misaki", "garden[0]")
    e = P(g, 0)["garden"][0]
    assert g.attack_of("p0.garden[0]") == 2 and not e["tapped"] and e["cooldown"]


def test_used_up_shock_keeps_the_other_granted_statuses():
    """§7 shocked, docs/rulings.md 16: the untap step removes only the shock;
    other statuses of the same effect stay until their duration ends."""
    g = game({"hand": [REI], "ikz_area": 1},
             {"hand": [REI], "garden": [{"card": MISAKI, "tapped": True}]},
             effects=[fx("p1.garden[0]", creator=0, duration="start_of_next_turn", statuses=["shocked", "defender"])])
    end_turn(g)
    st = g.statuses_of("p1.garden[0]")
    assert P(g, 1)["garden"][0]["tapped"] and "shocked" not in st and "defender" in st
    assert [e["statuses"] for e in g.state_dict()["effects"]] == [["defender"]]

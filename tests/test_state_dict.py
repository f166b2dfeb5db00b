"""Game.state_dict() / Game.from_setup() (docs/state_format.md): round trips,
defaults, and clear ValueErrors for setups that cannot be positions."""
import json
import re

import numpy as np
import pytest

import azuki


def strip_index(x):
    """Physical card indices are not part of a position (docs/state_format.md)."""
    if isinstance(x, dict):
        return {k: strip_index(v) for k, v in x.items() if k != "index"}
    if isinstance(x, list):
        return [strip_index(v) for v in x]
    return x


def base():
    return {"turn": 5, "active": 0, "players": [
        {"hand": ["STT01-003", "STT01-016", "STT01-003"], "ikz_area": [{"tapped": True}, {}, {}, {"token": True}],
         "garden": [None, {"card": "STT01-011", "damage": 1, "weapons": ["STT01-016"]}], "alley": ["STT01-007"],
         "discard": ["STT01-012"], "deck_top": ["STT01-017", "STT01-005"]},
        {"garden": [{"card": "STT02-006", "tapped": True}], "ikz_area": 2, "token": "out"}]}


def test_setup_builds_the_described_position():
    g = azuki.Game.from_setup(base())
    assert g.phase == "MAIN" and g.current_player == 0 and g.turn == 5
    d = g.state_dict()
    p0, p1 = d["players"]
    assert p0["hand"] == ["STT01-003", "STT01-003", "STT01-016"]  # canonical order (§12)
    assert p0["garden"][0] is None and p0["garden"][1]["card"] == "STT01-011"
    assert p0["garden"][1]["damage"] == 1 and p0["garden"][1]["weapons"][0]["card"] == "STT01-016"
    assert p0["garden"][1]["attack"] == 4 + 5  # Raizan makes his Zanbato +5 (§10 STT01-011)
    assert p0["alley"][0]["card"] == "STT01-007"
    assert p0["deck"][:2] == ["STT01-017", "STT01-005"] and len(p0["deck"]) == 50 - 3 - 2 - 1 - 1
    assert p0["discard"] == ["STT01-012"]
    assert [e["tapped"] for e in p0["ikz_area"]] == [True, False, False, False]
    assert [e["token"] for e in p0["ikz_area"]] == [False, False, False, True]
    assert p0["ikz_pile"] == 7 and p0["token"] == "ikz_area"
    assert p1["token"] == "out" and p1["ikz_pile"] == 8 and p1["garden"][0]["tapped"]
    assert g.check_invariants() == 0
    json.dumps(d)  # JSON-able


def test_round_trip_state_dict():
    g = azuki.Game.from_setup(base())
    d = g.state_dict()
    d2 = azuki.Game.from_setup(d).state_dict()
    for k in d:
        if k not in ("hash", "rng"):
            assert strip_index(d[k]) == strip_index(d2[k]), k


def test_round_trip_of_random_main_positions():
    """Every main-phase position reached in random play rebuilds to the same state_dict."""
    from azuki._core import rng_bounded
    checked = 0
    for seed in range(6):
        g = azuki.Game(seed=seed)
        i = 0
        while not g.is_terminal and i < 400:
            if g.phase == "MAIN" and i % 5 == 0:
                d = g.state_dict()
                d2 = azuki.Game.from_setup(d).state_dict()
                for k in ("players", "effects", "turn", "active", "first_player", "phase"):
                    assert strip_index(d[k]) == strip_index(d2[k]), (seed, i, k)
                checked += 1
            legal = g.legal_actions()
            g.step(int(legal[int(rng_bounded(seed, i, [len(legal)])[0])]))
            i += 1
    assert checked > 20


def test_defaults():
    # the active player needs a choice, or §12 plays their only action (END_TURN) at once
    g = azuki.Game.from_setup({"players": [{"hand": ["STT01-003"], "ikz_area": 1}, {}]})
    d = g.state_dict()
    assert d["decks"] == ["STT01", "STT02"] and d["turn"] == 3 and d["active"] == 0
    for p in d["players"]:
        assert p["hand"] == [] or p["hand"] == ["STT01-003"]
        assert len(p["deck"]) + len(p["hand"]) == 50 and p["ikz_pile"] + len(p["ikz_area"]) == 10
        assert p["token"] == "aside"


def test_only_action_is_applied_at_once():
    """§12: a setup where the active player can only end the turn moves on by itself."""
    g = azuki.Game.from_setup({"turn": 3})
    assert g.turn > 3


def test_full_deck_leaves_rest_out_of_game():
    g = azuki.Game.from_setup({"players": [{"deck": ["STT01-003"], "hand": ["STT01-004"], "ikz_area": 1}, {}]})
    p0 = g.state_dict()["players"][0]
    assert p0["deck"] == ["STT01-003"] and len(p0["out"]) == 48


def test_effects_in_setup():
    d = {"players": [{"garden": ["STT01-003"]}, {"garden": ["STT02-004"]}],
         "effects": [{"where": "p0.garden[0]", "attack": 2, "duration": "end_of_turn"},
                     {"where": "p1.garden[0]", "statuses": ["frozen"], "duration": "start_of_next_turn", "creator": 0}]}
    g = azuki.Game.from_setup(d)
    assert g.attack_of("p0.garden[0]") == 3
    assert "frozen" in g.statuses_of("p1.garden[0]")
    fx = g.state_dict()["effects"]
    assert {"where": "p0.garden[0]", "card": "STT01-003", "duration": "end_of_turn", "creator": 0, "attack": 2} in fx


def test_lethal_damage_in_setup_is_resolved_by_state_checks():
    """§9: state checks run after the setup; an entity with damage >= health is destroyed."""
    g = azuki.Game.from_setup({"players": [{"garden": [{"card": "STT01-003", "damage": 1}]}, {}]})
    p0 = g.state_dict()["players"][0]
    assert p0["garden"][0] is None and p0["discard"] == ["STT01-003"]


@pytest.mark.parametrize("setup, match", [
    ({"players": [{"garden": ["STT01-003"] * 6}, {}]}, r"garden: at most 5"),
    ({"players": [{"hand": ["STT01-003"] * 51}, {}]}, r"at most 50|more than 50"),
    ({"players": [{"hand": ["STT01-003"] * 30, "discard": ["STT01-004"] * 21}, {}]}, r"more than 50"),
    ({"players": [{"hand": ["NOPE-1"]}, {}]}, r"hand\[0\]: unknown card id"),
    ({"players": [{"hand": ["STT01-002"]}, {}]}, r"is a gate"),
    ({"players": [{"garden": ["STT01-016"]}, {}]}, r"is a weapon; expected entity"),
    ({"players": [{"alley": [{"card": "STT01-003", "weapons": ["STT01-016"]}]}, {}]}, r"only the leader and garden"),
    ({"players": [{"ikz_area": 11}, {}]}, r"ikz_area"),
    ({"players": [{"ikz_area": 3, "ikz_pile": 3}, {}]}, r"ikz_pile"),
    ({"players": [{"ikz_area": [{"token": True}, {"token": True}]}, {}]}, r"only one IKZ token"),
    ({"players": [{"garden": [{"card": "STT01-003", "damage": -1}]}, {}]}, r"damage"),
    ({"players": [{"bogus": 1}, {}]}, r"unknown keys"),
    ({"bogus": 1}, r"unknown keys"),
    ({"players": [{}]}, r"two player"),
    ({"active": 2}, r"active"),
    ({"turn": 0}, r"turn"),
    ({"decks": ["STT01", "XX"]}, r"unknown deck"),
    ({"phase": "RESPONSE"}, r"main-phase"),
    ({"effects": [{"where": "p0.garden[3]", "attack": 1}]}, r"no card at"),
    ({"effects": [{"where": "p0.leader", "statuses": ["sleepy"]}]}, r"unknown status"),
    ({"players": [{"leader": "STT01-003"}, {}]}, r"expected leader"),
    ({"players": [{"garden": [{"card": "STT01-003", "tapped": "yes"}]}, {}]}, r"true or false"),
    ("not a dict", r"dict"),
])
def test_bad_setups_raise_clear_errors(setup, match):
    with pytest.raises(ValueError, match=match):
        azuki.Game.from_setup(setup)


# ---- what the players know survives the round trip (docs/state_format.md) ----------------
KNOWLEDGE_SLICES = ("OPP_HAND_KNOWN", "DECK_TOP", "DECK_OPP_KNOWS", "OPP_DECK_TOP")


def test_round_trip_keeps_what_each_player_knows():
    """docs/state_format.md "Round trip", docs/rules.md §8.9 / §17.5: hand
    cards known to the opponent (hand_revealed) and known deck positions
    (deck_known, from search / order_top / put_on_deck / bottom_looked) go
    through state_dict -> from_setup: the players dicts are equal and both
    seats' observations show the same known cards. Random play over the
    expansion decks, whose cards make such knowledge often."""
    import pathlib
    import random
    from azuki.obs import obs_slice
    exp = str(pathlib.Path(azuki.__file__).parent / "data" / "expansion.json")
    rng = random.Random(3)
    checked = known_hand = known_deck = 0
    for seed in range(12):
        g = azuki.Game(seed=seed, decks=("EXP01-FIRE", "EXP01-EARTH") if seed % 2 else ("EXP01-EARTH", "STT02"),
                       cards=exp)
        i = 0
        while not g.is_terminal and i < 500:
            if g.phase == "MAIN" and i % 3 == 0:
                d = g.state_dict()
                h = azuki.Game.from_setup(d, cards=exp)
                if h.phase == "MAIN" and h.turn == g.turn:
                    d2 = h.state_dict()
                    for p in (0, 1):
                        assert strip_index(d["players"][p]) == strip_index(d2["players"][p]), (seed, i, p)
                        for name in KNOWLEDGE_SLICES:
                            assert np.array_equal(obs_slice(g.observe(p), name), obs_slice(h.observe(p), name)), name
                        known_hand += sum(d["players"][p]["hand_revealed"])
                        known_deck += sum(1 for k in d["players"][p]["deck_known"] if k)
                    checked += 1
            legal = g.legal_actions()
            g.step(int(legal[rng.randrange(len(legal))]))
            i += 1
    assert checked > 100 and known_hand > 0 and known_deck > 0, (checked, known_hand, known_deck)


@pytest.mark.parametrize("key,val,msg", [
    ("hand_revealed", [True], "one true/false per hand card (2), got 1"),
    ("hand_revealed", [1, 0], "expected true or false"),
    ("hand_revealed", "yes", "expected a list"),
    ("deck_known", [[0]], "one list of players per listed deck card (2), got 1"),
    ("deck_known", [[0], [2]], "deck_known[1][0]"),
    ("deck_known", [[0, 0], []], "player 0 listed twice"),
    ("deck_known", [[True], []], "deck_known[0][0]"),
    ("deck_known", [0, []], "deck_known[0]"),
])
def test_knowledge_keys_are_checked(key, val, msg):
    """docs/state_format.md: malformed hand_revealed / deck_known are
    ValueErrors naming the key."""
    d = {"players": [{"hand": ["STT01-003", "STT01-004"], "deck_top": ["STT01-005", "STT01-006"], "ikz_area": 1,
                      key: val}, {}]}
    with pytest.raises(ValueError, match=re.escape(msg) if "[" in msg or "(" in msg else msg):
        azuki.Game.from_setup(d)


def test_knowledge_keys_set_what_the_players_know():
    """docs/state_format.md: from_setup with hand_revealed and deck_known
    gives the observations those facts (docs/rules.md §8.9, §17.5)."""
    from azuki.obs import obs_slice
    d = {"players": [{"hand": ["STT01-003", "STT01-004"], "hand_revealed": [False, True],
                      "deck_top": ["STT01-005", "STT01-006"], "deck_known": [[0, 1], [0]], "ikz_area": 1}, {}]}
    g = azuki.Game.from_setup(d)
    p0 = g.state_dict()["players"][0]
    assert p0["hand_revealed"] == [False, True] and p0["deck_known"][:3] == [[0, 1], [0], []]
    o0, o1 = g.observe(0), g.observe(1)
    assert obs_slice(o0, "DECK_TOP")[:3].any() and obs_slice(o0, "DECK_OPP_KNOWS")[0] & 1 == 1   # bit 0: the top
    assert obs_slice(o0, "DECK_OPP_KNOWS")[0] & 2 == 0
    assert obs_slice(o1, "OPP_DECK_TOP")[0] > 0 and obs_slice(o1, "OPP_DECK_TOP")[1] == 0
    assert obs_slice(o1, "OPP_HAND_KNOWN").sum() > 0
    assert g.check_invariants() == 0


@pytest.mark.parametrize("status", ["stealth", "lifesteal", "poisonous"])
def test_setup_refuses_statuses_the_card_set_does_not_track(status):
    """docs/rules.md §15.4: stealth, lifesteal and poisonous are engine paths
    a card set switches on by using them; a setup that grants one in a set
    where no card has or gives it (the starter set) is refused with a clear
    error, never silently ignored. With the expansion (which uses all three)
    the same setup works."""
    import pathlib
    d = {"players": [{"garden": ["STT01-003"], "hand": ["STT01-004"], "ikz_area": 1}, {}],
         "effects": [{"where": "p0.garden[0]", "statuses": ["charge", status]}]}
    with pytest.raises(ValueError, match=rf"effects\[0\]\.statuses: charge, {status}: stealth, lifesteal and "
                                         "poisonous work only in card sets"):
        azuki.Game.from_setup(d)
    exp = str(pathlib.Path(azuki.__file__).parent / "data" / "expansion.json")
    g = azuki.Game.from_setup(d, cards=exp)
    assert status in g.statuses_of("p0.garden[0]")

"""Locations are one grammar (azuki/locations.py): every location the API
emits parses back to the same card or place, and every method that takes a
location accepts it."""
import random
import re

import pytest

import azuki
from azuki import Game
from azuki.locations import Location, format_location, location, parse_location

GOOD = ["p0.leader", "p1.gate", "p0.garden[0]", "p1.garden[4]", "p0.alley[2]", "p1.hand[49]", "p0.deck[0]",
        "p0.discard[3]", "p1.ikz_area[10]", "p0.ikz_pile[9]", "p1.look[0]", "p0.out[62]", "p1.aside",
        "p0.resolving", "p0.leader.weapons[0]", "p1.garden[3].weapons[12]"]
BAD = ["", "p2.leader", "P0.leader", "p0", "p0.", "p0.leader[0]", "p0.garden", "p0.garden[5]", "p0.garden[-1]",
       "p0.garden[01]", "p0.garden[ 1]", "p0.garden[1] ", " p0.leader", "p0.hand[50]", "p0.deck[1.0]",
       "p0.alley[0].weapons[0]", "p0.hand[0].weapons[0]", "p0.leader.weapons[]", "p0.leader.weapons[50]",
       "p0.garden[١]", "p0.nowhere[0]", "p0.weapons[0]", "p0.gate.weapons[0]", "p0.leader\n", "p0.aside[0]",
       "p0.garden[0]" * 10]


@pytest.mark.parametrize("s", GOOD)
def test_parse_format_round_trip(s):
    loc = parse_location(s)
    assert format_location(loc) == str(loc) == s
    assert parse_location(str(loc)) == loc


@pytest.mark.parametrize("s", BAD)
def test_bad_locations_are_value_errors(s):
    with pytest.raises(ValueError):
        parse_location(s)
    with pytest.raises(ValueError):
        Game().attack_of(s)


@pytest.mark.parametrize("v", [None, 0, True, b"p0.leader", ["p0.leader"], 1.5])
def test_non_strings_are_type_errors(v):
    with pytest.raises(TypeError):
        parse_location(v)
    with pytest.raises(TypeError):
        Game().health_of(v)


def test_location_builder():
    assert str(location(0, "garden", 2)) == "p0.garden[2]"
    assert str(location(1, "leader", weapon=0)) == "p1.leader.weapons[0]"
    assert str(location(0, "garden", 3, weapon=1)) == "p0.garden[3].weapons[1]"
    for args in [(2, "leader"), (0, "garden", 5), (0, "leader", 0), (0, "alley", 0, 0), (0, "nowhere", 0)]:
        with pytest.raises(ValueError):
            location(*args[:3], weapon=args[3] if len(args) > 3 else None)


def test_deck_and_piles_are_numbered_from_the_top():
    g = Game.from_setup({"players": [{"deck": ["STT01-003", "STT01-004", "STT01-005"], "hand": ["STT01-003"],
                                      "discard": ["STT01-004", "STT01-005"], "ikz_area": 3}, {}]})
    assert g.turn == 3 and g.current_player == 0
    sd = g.state_dict()["players"][0]
    for i, cid in enumerate(sd["deck"]):
        assert g.card_info(f"p0.deck[{i}]")["id"] == cid
        c = g.locate(f"p0.deck[{i}]")
        assert g.card_info(c)["where"] == f"p0.deck[{i}]"
    for i, cid in enumerate(sd["discard"]):   # discard: index = state_dict order, 0 = bottom
        assert g.card_info(f"p0.discard[{i}]")["id"] == cid
    assert g.card_info("p0.deck[0]")["id"] == "STT01-003"      # the top, drawn next
    # the top of the IKZ pile is the next IKZ gained
    top = g.locate("p0.ikz_pile[0]")
    assert g.card_info(top)["where"] == "p0.ikz_pile[0]"


def test_slot_options_carry_where():
    """Mizuki plays Benzai free into an empty alley slot (SLOT prompt)."""
    from scenario import choose, do, make_game, yes
    g = make_game(("STT02", "STT01"), {"deck_top": ["STT02-007", "STT02-012", "STT02-004", "STT02-010", "STT02-011"],
                                       "ikz_area": 6, "alley": ["STT02-004", None, "STT02-004"],
                                       "hand": ["STT02-004", "STT02-013"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Mizuki", "garden[0]")
    choose(g, card="STT02-007")
    choose(g, card="STT02-012")
    yes(g)
    pr = g.prompt()
    assert pr["kind"] == "SLOT"
    assert [(o["slot"], o["where"]) for o in pr["options"]] == [(9, "p0.alley[1]"), (11, "p0.alley[3]"),
                                                                 (12, "p0.alley[4]")]
    check_position(g)
    o = next(o for o in pr["options"] if o["where"] == "p0.alley[3]")
    g.step(o["action"])
    assert g.card_info("p0.alley[3]")["id"] == "STT02-007"


def test_holder_options_carry_where():
    """Crewleader's portal trigger attaches a weapon from the discard (HOLDER prompt)."""
    from scenario import choose, do, make_game
    g = make_game(("STT01", "STT02"), {"ikz_area": 2, "hand": ["STT02-004"], "alley": ["STT01-005"],
                                       "garden": ["STT01-008"],
                                       "discard": ["STT01-013", "STT01-014", "STT01-015", "STT01-016"]})
    do(g, "PORTAL_GATE", "Alpine Prowler", "garden[1]")
    choose(g, card="STT01-014")
    pr = g.prompt()
    assert pr["kind"] == "HOLDER"
    assert sorted((o["holder"], o["where"]) for o in pr["options"]) == [(0, "p0.leader"), (1, "p0.garden[0]"),
                                                                        (2, "p0.garden[1]")]
    assert all(g.locate(o["where"]) >= 0 for o in pr["options"])
    check_position(g)
    choose(g, holder=1)
    check_position(g)
    assert g.card_info("p0.garden[0].weapons[0]")["id"] == "STT01-014"


def check_position(g):
    """Every card's where parses back to it; every emitted location is
    accepted by every location-taking method and means the same card."""
    for c in range(126):
        info = g.card_info(c)
        w = info["where"]
        assert g.locate(w) == c, (c, w)
        assert g.where(c) == w
        assert g.card_info(w)["index"] == c
        loc = parse_location(w)
        assert loc.player == info["owner"]
        assert g.locate(loc) == c
        if info["zone"] in ("leader", "garden", "alley", "weapon"):
            g.attack_of(w), g.health_of(w), g.statuses_of(w)
    pr = g.prompt()
    if pr is not None:
        for o in pr["options"]:
            if "card_index" in o:
                assert g.locate(o["where"]) == o["card_index"]
            elif pr["kind"] in ("SLOT", "HOLDER"):
                loc = parse_location(o["where"])   # a place; may be empty
                code = o.get("slot", o.get("holder"))
                if pr["kind"] == "SLOT":
                    assert (loc.place, loc.index) == ("alley" if code >= 8 else "garden", code & 7)
                else:
                    assert (loc.place, loc.index) == (("leader", None) if code == 0 else ("garden", code - 1))
        if "source_where" in pr:
            assert g.card_info(pr["source_where"])["id"] == pr["source"]
    sd = g.state_dict()
    for fx in sd["effects"]:
        assert g.card_info(fx["where"])["id"] == fx["card"]
    if sd["combat"]:
        g.locate(sd["combat"]["attacker"]), g.locate(sd["combat"]["target"])
    for p, pl in enumerate(sd["players"]):
        for zone in ("hand", "deck", "discard"):
            for i, cid in enumerate(pl[zone]):
                assert g.card_info(f"p{p}.{zone}[{i}]")["id"] == cid
        for zone in ("garden", "alley"):
            for s, e in enumerate(pl[zone]):
                if e is not None:
                    assert g.locate(f"p{p}.{zone}[{s}]") == e["index"]
                    for k, w in enumerate(e.get("weapons", [])):
                        assert g.locate(f"p{p}.{zone}[{s}].weapons[{k}]") == w["index"]
        for k, w in enumerate(pl["leader"]["weapons"]):
            assert g.locate(f"p{p}.leader.weapons[{k}]") == w["index"]
        for i, e in enumerate(pl["ikz_area"]):
            assert g.card_info(f"p{p}.ikz_area[{i}]")["id"] == e["card"]
        for i, cid in enumerate(pl["out"]):
            assert g.card_info(f"p{p}.out[{i}]")["id"] == cid
        assert len([1 for i in range(10) if _has(g, f"p{p}.ikz_pile[{i}]")]) == pl["ikz_pile"]
        assert _has(g, f"p{p}.aside") == (pl["token"] == "aside")
    # action_str names places in the grammar
    for a in g.legal_actions()[:40]:
        for w in re.findall(r"p[01]\.[a-z_]+(?:\[\d+\])?(?:\.weapons\[\d+\])?", g.action_str(int(a))):
            parse_location(w)


def _has(g, w):
    try:
        g.locate(w)
        return True
    except ValueError:
        return False


@pytest.mark.slow    # make quick-test skips it; make test runs it (pyproject.toml markers)
def test_every_emitted_location_parses_back_over_random_games():
    rng = random.Random(2024)
    decisions = zones = 0
    kinds = set()
    seen_zones = set()
    for seed in range(6):
        decks = [("STT01", "STT02"), ("STT02", "STT01"), ("STT01", "STT01"), ("STT02", "STT02")][seed % 4]
        g = Game(seed=seed, decks=decks)
        while not g.is_terminal:
            check_position(g)
            pr = g.prompt()
            if pr:
                kinds.add(pr["kind"])
            for c in range(126):
                seen_zones.add(g.card_info(c)["zone"])
            legal = g.legal_actions()
            g.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
        check_position(g)
    assert decisions > 500
    assert {"deck", "hand", "discard", "garden", "alley", "weapon", "ikz_area", "ikz_pile", "leader", "gate"} <= seen_zones
    assert "CARD" in kinds

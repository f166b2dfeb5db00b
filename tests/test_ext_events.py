"""Events, keywords, replacement effects and game end (issue 17, group
"events"): scenario tests of docs/rules.md §15 over a card set made of the
starter cards plus the events fragment (azuki/data/exp_parts/events.json),
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

ROOT = pathlib.Path(__file__).resolve().parent.parent
STARTER = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())
FRAGMENT = json.loads((ROOT / "azuki" / "data" / "exp_parts" / "events.json").read_text())

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
    assert len(cs.ids) == len(STARTER["cards"]) + len(FRAGMENT["cards"])
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

"""The ABILITY event (csrc/game.h, the event log): one per use of an
ability, its value the ability's index in the card set, whoever started it.

An ACTIVATE_ABILITY used to log two ABILITY events for an ability with a
program: one from the action with the ability's number within its card, one
from the effect VM's start with its index in the card set; the page's log
and per-card statistics read them differently. Random games over the starter
and expansion sets check every activation against Game.describe."""
import pathlib

import numpy as np
import pytest

import azuki

EXPANSION = pathlib.Path(__file__).resolve().parent.parent / "azuki" / "data" / "expansion.json"


@pytest.mark.parametrize("which", ["starter", "expansion"])
def test_one_ability_event_per_activation_with_the_card_set_index(which):
    cards = None if which == "starter" else azuki.CardSet.from_json(str(EXPANSION))
    pairs = [("STT01", "STT02")] if cards is None else [("EXP01-FIRE", "EXP01-EARTH"), ("EXP01-EARTH", "STT01")]
    rng = np.random.default_rng(7)
    seen = 0
    for pair in pairs:
        for seed in range(25):
            g = azuki.Game(seed=seed, decks=pair, cards=cards)
            g.events()
            while g.result == "ONGOING":
                a = int(rng.choice(np.flatnonzero(g.action_mask())))
                d = g.describe(a)
                source = d["ability"]["card"] if d["type"] == "ACTIVATE_ABILITY" else None
                g.step(a)
                ev = g.events()
                if source is None:
                    continue
                seen += 1
                mine = [e for e in ev if e["type"] == "ABILITY" and e["card"] == source]
                assert [e["value"] for e in mine] == [d["ability"]["index"]], (d, ev)
    assert seen > 20      # the seeded games activate abilities

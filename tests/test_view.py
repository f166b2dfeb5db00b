"""azuki.view.seat_view: what one seat may see (docs/observation.md "Hidden
information"). Property: a position redrawn from the seat's information set
(Game.resample) gives the identical view, at every kind of decision point of
random games of every deck pairing; and the view shows what is public."""
import json
import random

import pytest

import azuki
from azuki.view import seat_view

PAIRINGS = [("STT01", "STT02"), ("STT02", "STT01"), ("STT01", "STT01"), ("STT02", "STT02")]


def positions(games=24, seed=0):
    rng = random.Random(seed)
    for k in range(games):
        g = azuki.Game(seed=1000 + k, decks=PAIRINGS[k % 4])
        while not g.is_terminal:
            if rng.random() < 0.08:
                yield g, rng
            g.step(rng.choice(list(g.legal_actions())))


def test_view_is_invariant_under_resampling_and_json():
    n = 0
    for g, rng in positions():
        for seat in (0, 1):
            v = seat_view(g, seat)
            json.dumps(v)
            for _ in range(2):
                h = g.clone()
                h.resample(seat, rng.randrange(1 << 64))
                assert seat_view(h, seat) == v, (g.state_hash(), seat)
            n += 1
    assert n > 200


def test_view_shows_what_is_public_and_hides_the_rest():
    for g, rng in positions(games=8, seed=1):
        d = g.state_dict()
        for seat in (0, 1):
            v = seat_view(g, seat)
            me, opp = v["players"][seat], v["players"][1 - seat]
            assert me["hand"] == d["players"][seat]["hand"]
            assert opp["hand_count"] == len(d["players"][1 - seat]["hand"]) == len(opp["hand"])
            assert me["deck_count"] == len(d["players"][seat]["deck"])
            assert "deck" not in me and "rng" not in v and "hash" not in v
            assert v["players"][1 - seat]["garden"] == d["players"][1 - seat]["garden"]
            if d["current_player"] == seat:
                assert [a for a, _ in v["legal"]] == [int(a) for a in g.legal_actions()]
            else:
                assert v["legal"] == []
            if d["prompt"] is not None and d["prompt"]["chooser"] != seat:
                assert "options" not in v["prompt"]


def test_bad_seat():
    g = azuki.Game(seed=0)
    for bad in (2, -1, True, "0"):
        with pytest.raises(ValueError):
            seat_view(g, bad)


# --- deck --- (docs/rules.md §17.5)
def test_view_shows_known_deck_positions_to_the_seat_that_knows_them():
    """A card put on top of the opponent's deck from the field is known to both seats (deck_known, top first);
    cards a seat ordered on top are known to it alone; resampling either seat keeps its view."""
    from test_ext_deck import game
    from scenario import choose, do
    g = game({"ikz_area": 6, "hand": ["EXP01-043", "EXP01-041"], "deck_top": ["STT01-003", "STT01-004", "STT01-005"]},
             {"garden": ["STT02-007"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ashfall Tactician", "garden[0]")
    choose(g, card="STT02-007")
    do(g, "PLAY_ENTITY_TO_GARDEN", "Kiln Oracle", "garden[1]")
    while g.prompt() is not None:
        g.step(g.prompt()["options"][0]["action"])
    v0, v1 = seat_view(g, 0), seat_view(g, 1)
    assert v0["players"][1]["deck_known"] == v1["players"][1]["deck_known"] == [[0, "STT02-007"]]
    known0 = v0["players"][0]["deck_known"]
    assert [i for i, _ in known0] == [0, 1, 2] and {c for _, c in known0} == {"STT01-003", "STT01-004", "STT01-005"}
    assert v1["players"][0]["deck_known"] == []
    for seat, v in ((0, v0), (1, v1)):
        for s in range(5):
            h = g.clone()
            h.resample(seat, s)
            assert seat_view(h, seat) == v

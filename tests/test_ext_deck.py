"""Deck effects and known deck positions (docs/rules.md §17; docs/rulings.md
"Deck: ..."): search, shuffle, order_top / top_looked, put_on_deck, and what
each player knows about a deck — shown by the observation (DECK_TOP, from
either end, DECK_OPP_KNOWS, OPP_DECK_TOP) and seat_view,
kept by clone / serialize / the hash and by the resampler.

The card set is the starter set plus the deck group's expansion fragment
(the expansion (deck cards, tests/expansion_cards.py)) and two test decks using it.
"""
import json
import pathlib
import random
import tempfile

import numpy as np
import pytest

import azuki
from azuki.obs import card_index, obs_slice
from azuki.view import seat_view

from scenario import NO_OP, END_TURN, choose, decline, do, hand, options
from expansion_cards import fragment

ROOT = pathlib.Path(__file__).resolve().parent.parent



def build_set():
    """Starter cards + the deck fragment, and decks DFIRE / DEARTH (4 of each fragment card of that element,
    filled up to 50 with the starter decks' cards)."""
    base = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())
    frag = fragment("deck")
    base["cards"] += frag["cards"]

    def deck(name, leader, gate, element, starter):
        main = {c["id"]: 4 for c in frag["cards"] if c["element"] == element}
        for k, v in starter["main"].items():
            left = 50 - sum(main.values())
            if left <= 0:
                break
            main[k] = min(v, left)
        return {"name": name, "title": name, "leader": leader, "gate": gate, "token": "IKZ-002",
                "ikz": {"IKZ-001": 10}, "main": main}

    base["decks"] += [deck("DFIRE", "STT01-001", "STT01-002", "fire", base["decks"][0]),
                      deck("DEARTH", "STT02-001", "STT02-002", "earth", base["decks"][1])]
    return base


_DIR = tempfile.mkdtemp(prefix="azk_deck_")
CARDS = str(pathlib.Path(_DIR) / "cards_deck.json")
pathlib.Path(CARDS).write_text(json.dumps(build_set()))
PAIRINGS = [("DFIRE", "DEARTH"), ("DEARTH", "DFIRE"), ("DFIRE", "STT02"), ("STT01", "DEARTH")]
NUM = azuki._core.NUM_CARDS


def game(p0=None, p1=None, decks=("DFIRE", "DEARTH"), **kw):
    """A main-phase position (tests/scenario.py). Seat 0 gets a garden entity in slot 4 that can attack unless
    its garden is given, so the turn never ends by itself (a lone END_TURN is taken without asking)."""
    p0 = dict(p0 or {})
    p0.setdefault("garden", [None, None, None, None, "STT01-003"])
    d = {"decks": list(decks), "active": 0, "players": [p0, p1 or {}], "cards": CARDS}
    d.update(kw)
    return azuki.Game.from_setup(d)


def deck_ids(g, p):
    return g.state_dict()["players"][p]["deck"]            # top first


def idx(g, where):
    return g.locate(where)


def known_positions(g, seat, p):
    """[(position from the top, card id)] of p's deck that `seat` knows."""
    d = deck_ids(g, p)
    return [(i, c) for i, c in enumerate(d) if g.card_known(seat, idx(g, f"p{p}.deck[{i}]"))]


def obs_ids(o, name):
    return [int(i) for i in card_index(obs_slice(o, name).reshape(-1))]


def ids_of(g):
    return {i: c for i, c in enumerate(g.cards.ids)} if hasattr(g.cards, "ids") else None


def def_id(g, card_id):
    return list(g.cards.ids).index(card_id)


# ---- §17.1 search ---------------------------------------------------------------------------------

def test_search_offers_each_matching_definition_once_and_reveals_the_card():
    """docs/rules.md §17.1: the searcher sees the matching cards of its deck, identical copies once (RULES
    §12.3), in definition order; the card found goes to hand revealed; then the deck is shuffled."""
    g = game({"ikz_area": 3, "hand": ["EXP01-040"],
              "deck_top": ["EXP01-041", "EXP01-041", "STT01-003", "EXP01-042", "EXP01-043", "EXP01-040"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ember Scout", "garden[0]")
    pr = g.prompt()
    assert pr["kind"] == "SEARCH" and pr["optional"] and pr["chooser"] == 0
    cards = [o["card"] for o in pr["options"]]
    # Cinderkin, cost <= 3: Ember Scout (2), Kiln Oracle (1), Flame Summons (3); not Ashfall Tactician (4)
    assert sorted(cards) == ["EXP01-040", "EXP01-041", "EXP01-042"]
    assert len(cards) == len(set(cards))
    # the chooser's observation shows the options' identities; the opponent sees only the prompt kind
    o0, o1 = g.observe(0), g.observe(1)
    assert sorted(obs_ids(o0, "OPT_CARD")[:3]) == sorted(def_id(g, c) for c in cards)
    assert obs_slice(o1, "PROMPT_N").sum() == 0 and obs_slice(o1, "OPT_CARD").sum() == 0
    assert all(o["card"] is not None for o in seat_view(g, 0)["prompt"]["options"])
    assert "options" not in seat_view(g, 1)["prompt"]
    before = len(deck_ids(g, 0))
    choose(g, card="EXP01-041")
    assert "EXP01-041" in hand(g, 0) and len(deck_ids(g, 0)) == before - 1
    c = [i for i in range(NUM) if g.card_known(1, i) and g.where(i).startswith("p0.hand")]
    assert len(c) == 1, "the card found is revealed: the opponent knows it in the hand"
    assert known_positions(g, 0, 0) == [] and known_positions(g, 1, 0) == []   # shuffled
    assert g.check_invariants() == 0


def test_search_with_nothing_matching_asks_nothing_and_still_shuffles():
    """docs/rules.md §17.1: no matching card: nothing is found, no prompt (RULES §12), the deck is shuffled."""
    g = game({"ikz_area": 6, "hand": ["EXP01-047", "EXP01-046", "STT02-005"],
              "deck": ["STT02-004", "STT02-007", "STT02-004", "STT02-007", "STT02-004"]},
             decks=("DEARTH", "DFIRE"))
    # Stone Diviner orders the top (no earth entity there: nothing to take), so positions become known ...
    do(g, "PLAY_ENTITY_TO_GARDEN", "Stone Diviner", "garden[0]")
    while g.prompt() is not None:
        pr = g.prompt()
        assert pr["kind"] == "TOP_ORDER"
        g.step(pr["options"][0]["action"])
    assert len(known_positions(g, 0, 0)) == 3
    # ... and Burrow Warden's search (a weapon costing <= 2: none in the deck) finds nothing but shuffles
    do(g, "PLAY_ENTITY_TO_GARDEN", "Burrow Warden", "garden[1]")
    assert g.prompt() is None and g.phase == "MAIN"
    assert known_positions(g, 0, 0) == []
    assert sorted(deck_ids(g, 0)) == sorted(["STT02-004", "STT02-007", "STT02-004", "STT02-007", "STT02-004"])


def test_search_may_fail_to_find_even_when_a_card_matches():
    """docs/rulings.md X-DECK-1: a search of the hidden deck may always fail to find (NO_OP)."""
    g = game({"ikz_area": 4, "hand": ["EXP01-040", "STT01-003"], "deck_top": ["EXP01-041"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ember Scout", "garden[0]")
    assert g.prompt()["kind"] == "SEARCH"
    decline(g)
    assert hand(g, 0) == ["STT01-003"] and g.phase == "MAIN" and g.turn == 3


def test_search_and_play_puts_the_found_entity_onto_the_field():
    """docs/rules.md §17.1: "to": a place plays the found entity without paying IKZ (RULES §5.7)."""
    g = game({"ikz_area": 3, "hand": ["EXP01-042"], "deck_top": ["EXP01-040", "STT01-017", "EXP01-043"]})
    do(g, "PLAY_SPELL_MAIN", "Flame Summons")
    pr = g.prompt()
    assert pr["kind"] == "SEARCH"
    ids = [o["card"] for o in pr["options"]]
    assert "EXP01-040" in ids and "EXP01-043" not in ids and "STT01-017" not in ids   # entity, fire, cost <= 3
    choose(g, card="EXP01-040")
    pr = g.prompt()
    assert pr["kind"] == "SLOT"
    # the card being placed was revealed by the search: both players' observations name it
    for seat in (0, 1):
        assert obs_ids(g.observe(seat), "PROMPT_PLACING_CARD") == [def_id(g, "EXP01-040")]
    g.step(pr["options"][0]["action"])
    # Ember Scout's own on-play search follows
    if g.prompt() is not None:
        decline(g)
    gardens = [e["card"] for e in g.state_dict()["players"][0]["garden"] if e] + \
              [e["card"] for e in g.state_dict()["players"][0]["alley"] if e]
    assert "EXP01-040" in gardens
    assert g.check_invariants() == 0


def test_search_then_shuffle_clears_known_positions():
    """docs/rules.md §17.3: a shuffle ends every known position in that deck."""
    g = game({"ikz_area": 4, "hand": ["EXP01-041", "EXP01-040"], "deck_top": ["EXP01-043", "STT01-003", "STT01-004"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Kiln Oracle", "garden[0]")
    while g.prompt() is not None:
        g.step(g.prompt()["options"][0]["action"])
    assert [i for i, _ in known_positions(g, 0, 0)] == [0, 1, 2]
    assert known_positions(g, 1, 0) == []
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ember Scout", "garden[1]")
    decline(g)
    assert known_positions(g, 0, 0) == []


# ---- §17.2 order_top --------------------------------------------------------------------------------

def test_order_top_puts_the_cards_back_in_the_chosen_order():
    """docs/rules.md §17.2: each card chosen goes on top of the previous one: the last chosen is the top."""
    g = game({"ikz_area": 1, "hand": ["EXP01-041"], "deck_top": ["STT01-003", "STT01-004", "STT01-005"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Kiln Oracle", "garden[0]")
    assert g.prompt()["kind"] == "TOP_ORDER"
    choose(g, card="STT01-004")
    choose(g, card="STT01-003")
    assert g.prompt() is None       # the last one goes without a question
    assert deck_ids(g, 0)[:3] == ["STT01-005", "STT01-003", "STT01-004"]
    assert known_positions(g, 0, 0) == [(0, "STT01-005"), (1, "STT01-003"), (2, "STT01-004")]
    assert known_positions(g, 1, 0) == []
    o0, o1 = g.observe(0), g.observe(1)
    assert obs_ids(o0, "DECK_TOP")[:4] == [def_id(g, c) for c in ("STT01-005", "STT01-003", "STT01-004")] + [-1]
    assert obs_slice(o0, "DECK_OPP_KNOWS").sum() == 0
    assert obs_slice(o1, "OPP_DECK_TOP").sum() == 0
    v0, v1 = seat_view(g, 0), seat_view(g, 1)
    assert v0["players"][0]["deck_known"] == [[0, "STT01-005"], [1, "STT01-003"], [2, "STT01-004"]]
    assert v1["players"][0]["deck_known"] == []


def test_order_top_with_fewer_cards_than_n():
    """docs/rules.md §17.2: a short deck gives what it has (RULES §9); one card asks nothing."""
    g = game({"ikz_area": 1, "hand": ["EXP01-041"], "deck": ["STT01-003", "STT01-004"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Kiln Oracle", "garden[0]")
    assert g.prompt()["kind"] == "TOP_ORDER" and len(options(g)) == 2
    choose(g, card="STT01-003")
    assert deck_ids(g, 0) == ["STT01-004", "STT01-003"]
    g = game({"ikz_area": 1, "hand": ["EXP01-041"], "deck": ["STT01-003"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Kiln Oracle", "garden[0]")
    assert g.prompt() is None and known_positions(g, 0, 0) == [(0, "STT01-003")]
    g = game({"ikz_area": 1, "hand": ["EXP01-041"], "deck": []})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Kiln Oracle", "garden[0]")
    assert g.prompt() is None and g.phase == "MAIN" and g.check_invariants() == 0


def test_look_take_one_rest_on_top_in_any_order():
    """docs/rules.md §17.2: top_looked after a look (Stone Diviner)."""
    g = game({"ikz_area": 2, "hand": ["EXP01-046"], "deck_top": ["STT02-004", "EXP01-049", "STT02-007"]},
             decks=("DEARTH", "DFIRE"))
    do(g, "PLAY_ENTITY_TO_GARDEN", "Stone Diviner", "garden[0]")
    choose(g, card="EXP01-049")
    assert "EXP01-049" in hand(g, 0)
    assert g.prompt()["kind"] == "TOP_ORDER"
    choose(g, card="STT02-004")
    assert deck_ids(g, 0)[:2] == ["STT02-007", "STT02-004"]


# ---- §17.4 put_on_deck ---------------------------------------------------------------------------------

def test_put_on_top_of_the_opponents_deck_both_know_it_and_the_draw_stays_known():
    """docs/rules.md §17.4-17.5: an entity put on top of its owner's deck from the field is known to both
    players there; when its owner draws it, the opponent still knows it (revealed in hand)."""
    g = game({"ikz_area": 4, "hand": ["EXP01-043"]}, {"garden": ["STT02-007"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ashfall Tactician", "garden[0]")
    choose(g, card="STT02-007")
    assert deck_ids(g, 1)[0] == "STT02-007"
    assert known_positions(g, 0, 1) == [(0, "STT02-007")] == known_positions(g, 1, 1)
    o0, o1 = g.observe(0), g.observe(1)
    assert obs_ids(o0, "OPP_DECK_TOP")[0] == def_id(g, "STT02-007")
    assert obs_ids(o1, "DECK_TOP")[0] == def_id(g, "STT02-007") and obs_slice(o1, "DECK_OPP_KNOWS").reshape(-1)[0] == 1
    assert seat_view(g, 0)["players"][1]["deck_known"] == [[0, "STT02-007"]]
    # serialize / clone keep the knowledge (the card record is hashed and serialized)
    h = azuki.Game.from_bytes(g.to_bytes(), cards=CARDS)
    assert h.state_hash() == g.state_hash() and known_positions(h, 0, 1) == [(0, "STT02-007")]
    assert known_positions(g.clone(), 0, 1) == [(0, "STT02-007")]
    g.step(END_TURN)                      # p1's turn: draws the known card
    while g.current_player == 1 and g.prompt() is not None:
        g.step(g.legal_actions()[0])
    frog = [i for i in range(NUM) if g.where(i).startswith("p1.hand") and g.card_info(i)["id"] == "STT02-007"]
    assert frog and any(g.card_known(0, c) for c in frog), "the drawn card stays known to the opponent"
    assert g.check_invariants() == 0


def test_put_on_deck_from_discard_and_hand():
    """docs/rules.md §17.4: from the discard pile (public: both know it), from a hidden hand card (its owner
    only)."""
    g = game({"ikz_area": 5, "hand": ["EXP01-044", "EXP01-049", "STT02-004"], "discard": ["STT02-007"]},
             decks=("DEARTH", "DFIRE"))
    do(g, "PLAY_SPELL_MAIN", "Cinder Recall")
    assert deck_ids(g, 0)[0] == "STT02-007"
    assert known_positions(g, 1, 0) == [(0, "STT02-007")]
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rootbound Keeper", "garden[0]")
    choose(g, card="STT02-004")
    n = len(deck_ids(g, 0))
    # the hand card went to the bottom (its owner knows it there, the opponent does not); then drew 1
    assert deck_ids(g, 0)[-1] == "STT02-004"
    assert (n - 1, "STT02-004") in known_positions(g, 0, 0)
    assert (n - 1, "STT02-004") not in known_positions(g, 1, 0)
    assert obs_ids(g.observe(0), "DECK_TOP")[n - 1] == def_id(g, "STT02-004")     # the bottom card, from the top
    assert "STT02-007" in hand(g, 0)      # the draw took the recalled card: still known to the opponent
    assert any(g.card_known(1, i) and g.card_info(i)["id"] == "STT02-007" and g.where(i).startswith("p0.hand")
               for i in range(NUM))


def test_put_on_deck_bottom_any_side_and_godmode_stops_it():
    """docs/rules.md §17.4: Landslide puts an entity on the bottom of its owner's deck; a godmode entity on the
    field does not move (RULES §7, as return_to_hand)."""
    g = game({"ikz_area": 5, "hand": ["EXP01-050"]},
             {"garden": [{"card": "STT02-007"}]}, decks=("DEARTH", "DFIRE"),
             effects=[{"where": "p1.garden[0]", "statuses": ["godmode"], "duration": "end_of_turn", "creator": 0}])
    do(g, "PLAY_SPELL_MAIN", "Landslide")
    assert g.state_dict()["players"][1]["garden"][0]["card"] == "STT02-007"     # godmode: nothing
    g = game({"ikz_area": 5, "hand": ["EXP01-050"], "garden": ["EXP01-046"]}, {"garden": ["STT02-007"]},
             decks=("DEARTH", "DFIRE"))
    do(g, "PLAY_SPELL_MAIN", "Landslide")
    choose(g, card="STT02-007")
    assert deck_ids(g, 1)[-1] == "STT02-007" and g.state_dict()["players"][1]["garden"][0] is None
    n = len(deck_ids(g, 1))
    assert (n - 1, "STT02-007") in known_positions(g, 0, 1) and (n - 1, "STT02-007") in known_positions(g, 1, 1)


def test_shuffle_the_opponents_deck_ends_its_known_positions():
    """docs/rules.md §17.3: Tremor shuffles the opponent's deck."""
    g = game({"ikz_area": 5, "hand": ["EXP01-043", "EXP01-048"]}, {"garden": ["STT02-007"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ashfall Tactician", "garden[0]")
    choose(g, card="STT02-007")
    assert known_positions(g, 0, 1) == [(0, "STT02-007")]
    # Tremor is an earth card in the fire player's hand: any main-deck card may be placed (state format)
    do(g, "PLAY_SPELL_MAIN", "Tremor")
    assert known_positions(g, 0, 1) == [] and known_positions(g, 1, 1) == []


# ---- resampling keeps every known fact -----------------------------------------------------------------

def known_deck_position():
    """A position where both players know deck positions (docs/rules.md §17.5): Kiln Oracle orders player 0's
    top, Ashfall Tactician puts an enemy entity on top of player 1's deck in public, Rootbound Keeper puts a
    hand card on the bottom."""
    g = game({"ikz_area": 9, "hand": ["EXP01-041", "EXP01-043", "EXP01-049", "STT01-003"],
              "deck_top": ["STT01-004", "STT01-005", "STT01-006"]}, {"garden": ["STT02-007"]})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Kiln Oracle", "garden[0]")
    while g.prompt() is not None:
        g.step(g.prompt()["options"][-1]["action"])
    do(g, "PLAY_ENTITY_TO_GARDEN", "Ashfall Tactician", "garden[1]")
    choose(g, card="STT02-007")
    do(g, "PLAY_ENTITY_TO_GARDEN", "Rootbound Keeper", "garden[2]")
    choose(g, card="STT01-003")
    return g


def test_resampler_never_moves_a_known_card():
    """docs/rules.md §17.5: resampling a seat's information set keeps every deck card that seat knows (top and
    bottom) where it is, and the seat's observation and view identical."""
    g = known_deck_position()
    facts = {s: {p: known_positions(g, s, p) for p in (0, 1)} for s in (0, 1)}
    assert len(facts[0][0]) >= 2 and facts[0][1] and facts[1][1]
    for seat in (0, 1):
        for seed in range(20):
            h = g.clone()
            h.resample(seat, seed)
            assert h.check_invariants() == 0
            for p in (0, 1):
                assert known_positions(h, seat, p) == facts[seat][p], (seat, p, seed)
            assert h.observe(seat).tobytes() == g.observe(seat).tobytes()
            assert seat_view(h, seat) == seat_view(g, seat)


# ---- random play over starter + fragment ------------------------------------------------------------------

def _play_random(games, check_every=1, seed=0):
    rng = random.Random(seed)
    stats = {"SEARCH": 0, "TOP_ORDER": 0, "known": 0, "opp_known": 0, "resampled": 0}
    for k in range(games):
        g = azuki.Game(seed=500 + k, decks=PAIRINGS[k % len(PAIRINGS)], cards=CARDS)
        step = 0
        while not g.is_terminal:
            pr = g.prompt()
            if pr is not None and pr["kind"] in stats:
                stats[pr["kind"]] += 1
            if step % check_every == 0:
                assert g.check_invariants() == 0, azuki.invariant_text(g.check_invariants())
                mask = np.flatnonzero(g.action_mask())
                assert mask.tolist() == sorted(int(a) for a in g.legal_actions())
                c = g.clone()
                assert c.state_hash() == g.state_hash()
                b = azuki.Game.from_bytes(g.to_bytes(), cards=CARDS)
                assert b.state_hash() == g.state_hash()
                for seat in (0, 1):
                    n_known = sum(len(known_positions(g, seat, p)) for p in (0, 1))
                    stats["known"] += n_known > 0
                    stats["opp_known"] += len(known_positions(g, seat, 1 - seat)) > 0
                    if n_known or rng.random() < 0.1:
                        o, v = g.observe(seat).tobytes(), seat_view(g, seat)
                        h = g.clone()
                        h.resample(seat, rng.randrange(1 << 64))
                        assert h.check_invariants() == 0
                        assert h.observe(seat).tobytes() == o, (k, step, seat)
                        assert seat_view(h, seat) == v, (k, step, seat)
                        stats["resampled"] += 1
            legal = g.legal_actions()
            g.step(int(legal[rng.randrange(len(legal))]))
            step += 1
    return stats


@pytest.mark.slow    # make quick-test skips it; make test runs it (pyproject.toml markers)
def test_random_play_starter_plus_deck_fragment():
    """Property: random games of the starter set plus the deck fragment keep the invariants after every step,
    mask == legal actions, clone and serialize round trips, and each seat's observation and view are
    invariant under resampling its information set — with known deck positions in play."""
    stats = _play_random(16)
    assert stats["SEARCH"] > 5 and stats["TOP_ORDER"] > 5, stats
    assert stats["known"] > 50 and stats["opp_known"] > 0 and stats["resampled"] > 100, stats


def test_deck_events_occur_in_random_play():
    """The deck group's events (SEARCHED, SHUFFLED, PUT_ON_DECK) are emitted with the fragment's cards (the
    starter set emits none of them: tests/test_api.py)."""
    seen = set()
    for k in range(12):
        g = azuki.Game(seed=900 + k, decks=PAIRINGS[k % 2], cards=CARDS)
        rng = random.Random(k)
        while not g.is_terminal:
            legal = g.legal_actions()
            g.step(int(legal[rng.randrange(len(legal))]))
            seen |= {e["type"] for e in g.events()}
    assert {"SEARCHED", "SHUFFLED", "PUT_ON_DECK"} <= seen


@pytest.mark.slow    # make quick-test skips it; make test runs it (pyproject.toml markers)
@pytest.mark.skipif(__import__("shutil").which("gcc") is None, reason="needs gcc")
def test_sanitizer_soak_of_the_deck_fragment(tmp_path):
    """tests/c/debug/deck_soak.c, built with -DAZK_DEBUG (the invariant checker after every azk_step) and
    ASan+UBSan when the compiler has them: random games of the starter set + the fragment with the mask, a
    serialize round trip, resample invariance of each seat's observation and known deck cards never moved by a
    resample checked at every step (docs/rules.md §17.5)."""
    import re
    import subprocess
    from azuki.convert import load_cardset
    from azuki.convert.pack import pack_cardset
    setfile = tmp_path / "set.bin"
    setfile.write_bytes(pack_cardset(load_cardset(CARDS)))
    sources = re.findall(r"\S+\.c", (ROOT / "csrc" / "sources.mk").read_text())
    exe = tmp_path / "deck_soak"
    base = ["gcc", "-std=c11", "-O1", "-g", "-DAZK_DEBUG", "-Wall", "-Werror", "-I", str(ROOT / "csrc"),
            "-I", str(ROOT / "generated"), "-o", str(exe), str(ROOT / "tests" / "c" / "debug" / "deck_soak.c")] + \
        [str(ROOT / s) for s in sources] + ["-lm"]          # libm: csrc/policy.c
    san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
    if subprocess.run(base[:1] + san + base[1:], capture_output=True).returncode != 0:
        subprocess.run(base, check=True, capture_output=True)          # no sanitizers here: debug build only
    names = json.loads(pathlib.Path(CARDS).read_text())["decks"]
    d = {x["name"]: i for i, x in enumerate(names)}
    for d0, d1, games in (("DFIRE", "DEARTH", 150), ("DEARTH", "STT01", 40), ("STT02", "DFIRE", 40)):
        r = subprocess.run([str(exe), str(setfile), str(d[d0]), str(d[d1]), str(games)], capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0, r.stderr[-3000:]
        ok, g, steps, searches, orders, known = r.stdout.split()
        assert ok == "ok" and int(searches) > 0 and int(orders) > 0 and int(known) > 0, r.stdout


def test_starter_games_unchanged_by_the_new_code():
    """The starter set's behaviour does not change (tools/regen_golden.py --check does it in full)."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "regen_golden.py"), "--check"], capture_output=True)
    assert r.returncode == 0, r.stdout + r.stderr

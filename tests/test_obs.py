"""The observation encoder (csrc/obs.c, csrc/azk_obs.def, docs/observation.md).

- range: every value finite and in [-1, 1], at every step of random games;
- mask: slice MASK is exactly Game.action_mask() for the decider, all 0
  for the other seat, at every step;
- no leak: changing only what a seat cannot know leaves its observation
  byte-identical — (1) through Game.from_setup (the opponent's hand cards
  exchanged with cards of its deck, either deck reordered), (2) through
  Game.resample at every kind of decision point (prompts, looks, combat) —
  while public changes alter it;
- layout: C, Python and the generated docs agree; bad `out` arguments.
"""
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import azuki
from azuki import Game, OBS_LEN
from azuki import spec_autogen as S
from azuki.obs import CARD_ID_SCALE, card_index, obs_layout, obs_slice

ROOT = Path(__file__).resolve().parent.parent
PAIRS = [("STT01", "STT01"), ("STT01", "STT02"), ("STT02", "STT01"), ("STT02", "STT02")]


def random_positions(games_per_pair=2, seed0=0):
    """(game, rng) at every decision of random games, all deck pairings."""
    for k, decks in enumerate(PAIRS):
        for i in range(games_per_pair):
            seed = seed0 + 100 * k + i
            g = Game(seed=seed, decks=decks)
            rng = random.Random(seed)
            while not g.is_terminal:
                yield g, rng
                legal = g.legal_actions()
                g.step(int(legal[rng.randrange(len(legal))]))
            yield g, rng


# ---- (b) range, (c) mask --------------------------------------------------------

def test_range_and_mask_every_step():
    buf = np.empty(OBS_LEN, dtype=np.float32)
    steps = 0
    for g, _ in random_positions(games_per_pair=2):
        cp = g.current_player
        for seat in (0, 1):
            o = g.observe(seat, out=buf)
            assert o is buf
            assert np.isfinite(o).all() and o.min() >= -1.0 and o.max() <= 1.0
            mask = obs_slice(o, "MASK")
            if seat == cp:
                assert np.array_equal(mask, g.action_mask().astype(np.float32))
            else:
                assert not mask.any()
            assert obs_slice(o, "DECIDER")[0 if seat == cp else (2 if cp < 0 else 1)] == 1
        steps += 1
    assert steps > 500


def test_observation_reads_the_position():
    g = Game(seed=5, decks=("STT01", "STT02"))
    d = g.state_dict()
    o = g.observe(0)
    hand = obs_slice(o, "HAND")
    assert abs(hand.sum() * 4 - len(d["players"][0]["hand"])) < 1e-6
    slots = card_index(obs_slice(o, "HAND_SLOTS"))
    assert (slots[:len(d["players"][0]["hand"])] >= 0).all() and (slots[len(d["players"][0]["hand"]):] == -1).all()
    assert obs_slice(o, "HAND_N")[0] == pytest.approx(len(d["players"][0]["hand"]) / 50)
    assert obs_slice(o, "HAND_N")[1] == pytest.approx(len(d["players"][1]["hand"]) / 50)
    # the leaders and gates are always there; my leader is row 0, the opponent's row 12
    occ = obs_slice(o, "PLACE_OCCUPIED")
    assert occ[0] == occ[11] == occ[12] == occ[23] == 1
    assert obs_slice(o, "PLACE_HEALTH")[0] == pytest.approx(1.0)
    # the opponent's hand: nothing known at the start
    assert not obs_slice(o, "OPP_HAND_KNOWN").any()


# ---- (a) no leak ------------------------------------------------------------------

def _variants(d, seat, rng):
    """Setups that differ from d only in what `seat` cannot know: cards
    nobody knows (hand cards not revealed, deck cards whose place nobody
    knows: state_dict's hand_revealed / deck_known) change places."""
    opp = 1 - seat
    out = []
    v = json.loads(json.dumps(d))
    pl = v["players"][opp]
    hand, deck = pl["hand"], pl["deck"]
    hidden_hand = [i for i, r in enumerate(pl["hand_revealed"]) if not r]
    hidden_deck = [j for j, k in enumerate(pl["deck_known"]) if not k]
    if hidden_hand and hidden_deck:   # exchange opponent hand cards with deck cards
        for _ in range(min(3, len(hidden_hand))):
            i, j = rng.choice(hidden_hand), rng.choice(hidden_deck)
            hand[i], deck[j] = deck[j], hand[i]
        out.append(v)
    for p in (seat, opp):             # reorder the unknown part of a deck
        v = json.loads(json.dumps(d))
        deck = v["players"][p]["deck"]
        hidden = [j for j, k in enumerate(v["players"][p]["deck_known"]) if not k]
        cards = [deck[j] for j in hidden]
        rng.shuffle(cards)
        for j, c in zip(hidden, cards):
            deck[j] = c
        out.append(v)
    return out


def _setup_dict(g):
    d = g.state_dict()
    for k in ("format", "cardset", "phase", "result", "current_player", "rng", "combat", "prompt",
              "pending_triggers", "hash"):
        d.pop(k, None)
    return d


def test_no_leak_through_setup():
    """Main-phase positions rebuilt by from_setup: hidden-only variants give
    byte-identical observations, public variants do not."""
    rng = random.Random(7)
    checked = public = 0
    for g, _ in random_positions(games_per_pair=3, seed0=11):
        if g.phase != "MAIN" or g.turn < 2 or rng.random() < 0.8:
            continue
        d = _setup_dict(g)
        base = Game.from_setup(d, seed=1)
        if base.turn != g.turn or base.phase != "MAIN":
            continue               # the one-answer rule moved it on: not comparable
        for seat in (0, 1):
            ref = base.observe(seat).tobytes()
            for v in _variants(d, seat, rng):
                h = Game.from_setup(v, seed=1)
                if h.turn != base.turn or h.phase != "MAIN":
                    continue
                assert h.observe(seat).tobytes() == ref, f"seat {seat} sees a hidden change"
                checked += 1
            # public: a card of the opponent's discard pile exchanged with a different deck card
            v = json.loads(json.dumps(d))
            pl = v["players"][1 - seat]
            diff = [j for j, c in enumerate(pl["deck"]) if pl["discard"] and c != pl["discard"][-1]]
            if diff:
                j = diff[0]
                pl["discard"][-1], pl["deck"][j] = pl["deck"][j], pl["discard"][-1]
                h = Game.from_setup(v, seed=1)
                if h.turn == base.turn and h.phase == "MAIN":
                    assert h.observe(seat).tobytes() != ref, "a public change left the observation alone"
                    public += 1
    assert checked >= 30 and public >= 3, (checked, public)


def test_resample_keeps_the_observation_and_plays_on():
    rng = random.Random(3)
    n = varied_opp = varied_deck = other_changed = 0
    for g, grng in random_positions(games_per_pair=4, seed0=23):
        if g.is_terminal or rng.random() < 0.3:
            continue
        for seat in (0, 1):
            h = g.clone()
            h.resample(seat, rng.randrange(1 << 64))
            assert h.check_invariants() == 0, azuki.invariant_text(h.check_invariants())
            assert h.observe(seat).tobytes() == g.observe(seat).tobytes(), f"seat {seat}: resampling changed what it sees"
            assert h.current_player == g.current_player and h.phase == g.phase
            a, b = g.state_dict(), h.state_dict()
            opp = 1 - seat
            # known and public cards never move
            for p in (0, 1):
                for k in ("garden", "alley", "discard", "leader", "gate", "ikz_area"):
                    assert a["players"][p][k] == b["players"][p][k]
            assert a["players"][seat]["hand"] == b["players"][seat]["hand"]
            assert len(a["players"][opp]["hand"]) == len(b["players"][opp]["hand"])
            # the opponent's unseen cards keep their multiset
            pool = lambda s: sorted(s["players"][opp]["hand"] + s["players"][opp]["deck"])   # noqa: E731
            assert pool(a) == pool(b)
            assert sorted(a["players"][seat]["deck"]) == sorted(b["players"][seat]["deck"])
            varied_opp += a["players"][opp]["hand"] != b["players"][opp]["hand"]
            varied_deck += a["players"][seat]["deck"] != b["players"][seat]["deck"]
            other_changed += h.observe(opp).tobytes() != g.observe(opp).tobytes()
            # it plays on
            for _ in range(20):
                if h.is_terminal:
                    break
                legal = h.legal_actions()
                h.step(int(legal[grng.randrange(len(legal))]))
            n += 1
    assert n > 200
    assert varied_opp > n // 4 and varied_deck > n // 2 and other_changed > n // 4, (n, varied_opp, varied_deck, other_changed)


def test_revealed_and_returned_cards_are_known():
    """A card returned to hand from the field stays known to the opponent
    until it leaves the hand (docs/observation.md); resampling keeps it."""
    found = 0
    for g, rng in random_positions(games_per_pair=3, seed0=41):
        for seat in (0, 1):
            opp = 1 - seat
            known = [c for c in range(azuki._core.NUM_CARDS) if g.card_known(seat, c)]
            o = g.observe(seat)
            n_known = int(round(obs_slice(o, "OPP_HAND_KNOWN").sum() * 4))
            in_opp_hand = [c for c in known if c // 63 == opp and _zone(g, c) == "HAND"]
            assert n_known == len(in_opp_hand)
            if in_opp_hand and not g.is_terminal:
                found += 1
                h = g.clone()
                h.resample(seat, 5)
                assert all(h.card_known(seat, c) and _zone(h, c) == "HAND" for c in in_opp_hand)
    assert found > 0, "no game returned or revealed a card into a hand"


def _zone(g, c):
    off, _ = azuki._core.EXPORT_LAYOUT.fields["CARD_ZONE"]
    return S.ZONE[int(g.export()[off + c])]


# ---- (d) layout, docs, C ---------------------------------------------------------------

def test_layout_is_contiguous_and_matches_the_def():
    lay = obs_layout()
    assert list(lay) == list(S.OBS)
    off = 0
    for name, f in lay.items():
        assert f["offset"] == off, name
        assert f["doc"] == S.OBS_DOC[S.OBS.index(name)] and f["norm"] == S.OBS_NORM[S.OBS.index(name)]
        off += int(np.prod(f["shape"]))
    assert off == OBS_LEN == azuki._core.OBS_LEN
    assert lay["MASK"]["shape"] == (azuki.NUM_ACTIONS,)
    assert lay["MASK"]["offset"] + azuki.NUM_ACTIONS == OBS_LEN
    assert lay["OPT_VALID"]["shape"] == (S.CAPS["AZK_MAX_OPTIONS"],)
    assert lay["PLACE_STATUS"]["shape"] == (24, len(S.STATUS))
    assert obs_layout(azuki.CardSet.default()) == lay


def test_docs_are_fresh():
    p = subprocess.run([sys.executable, "-m", "azuki.obs", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_obs_slice_batches_and_errors():
    g = Game(seed=1)
    batch = np.stack([g.observe(0), g.observe(1)])
    assert obs_slice(batch, "PLACE_CARD").shape == (2, 24)
    assert obs_slice(batch, "DISCARD").shape == (2, 2, S.CAPS["AZK_MAX_CARD_DEFS"])
    with pytest.raises(KeyError):
        obs_slice(batch, "NOPE")
    with pytest.raises(ValueError):
        obs_slice(np.zeros(3, np.float32), "MASK")
    with pytest.raises(TypeError):
        obs_slice([0.0] * OBS_LEN, "MASK")


# ---- (e) bad arguments --------------------------------------------------------------------

@pytest.mark.parametrize("out, exc", [
    (np.zeros(OBS_LEN, np.float64), ValueError),
    (np.zeros(OBS_LEN + 1, np.float32), ValueError),
    (np.zeros((1, OBS_LEN), np.float32), ValueError),
    (np.zeros(2 * OBS_LEN, np.float32)[::2], ValueError),
    ([0.0] * OBS_LEN, TypeError),
    ("x", TypeError),
])
def test_observe_rejects_bad_out(out, exc):
    g = Game(seed=2)
    before = out.copy() if isinstance(out, np.ndarray) else None
    with pytest.raises(exc):
        g.observe(0, out=out)
    if before is not None:
        assert np.array_equal(before, out)


def test_observe_rejects_read_only_out_and_bad_player():
    g = Game(seed=2)
    ro = np.zeros(OBS_LEN, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        g.observe(0, out=ro)
    assert not ro.any()
    for bad, exc in ((2, ValueError), (-1, ValueError), (True, TypeError), (0.0, TypeError), ("0", TypeError)):
        with pytest.raises(exc):
            g.observe(bad)
    with pytest.raises(ValueError):
        g.resample(2, 0)
    with pytest.raises(ValueError):
        g.resample(0, -1)


def test_deck_positions_the_player_chose_are_known():
    """docs/rules.md §8.9, docs/observation.md: after Hayabusa Itto the four
    cards its controller put on the bottom, in the order it chose, are known
    to that player where they lie (DECK_BOTTOM, card_known) and to nobody
    else; the resampler keeps them in place while the rest of the deck varies;
    the opponent's view does not show them."""
    from scenario import choose, do, make_game
    top = ["STT02-004", "STT02-007", "STT02-014", "STT02-016", "STT02-009", "STT02-005"]
    g = make_game(("STT02", "STT01"), {"deck_top": top, "ikz_area": 3, "hand": ["STT02-003", "STT02-004"]}, {})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Itto", "garden[0]")
    choose(g, card="STT02-014")
    for cid in ["STT02-007", "STT02-016", "STT02-004"]:
        choose(g, card=cid)
    assert g.phase == "MAIN"
    bottom = ["STT02-009", "STT02-004", "STT02-016", "STT02-007"]     # deck[0] is the bottom card
    deck_cards = [g.locate(f"p0.deck[{i}]") for i in range(len(g.state_dict()["players"][0]["deck"]))]
    known_mine = [c for c in deck_cards if g.card_known(0, c)]
    assert len(known_mine) == 4 and not any(g.card_known(1, c) for c in deck_cards)
    ids = {i: c for i, c in enumerate(g.cards.ids)}
    row = obs_slice(g.observe(0), "DECK_BOTTOM")
    assert [ids[int(round(v * CARD_ID_SCALE)) - 1] for v in row[:4]] == bottom and not row[4:].any()
    assert not obs_slice(g.observe(1), "DECK_BOTTOM").any()
    d0 = g.state_dict()["players"][0]["deck"]
    varied = 0
    for seed in range(20):
        h = g.clone()
        h.resample(0, seed)
        d = h.state_dict()["players"][0]["deck"]
        assert d[-4:] == d0[-4:]                      # state_dict lists the deck top first
        varied += d[:-4] != d0[:-4]
        assert np.array_equal(h.observe(0), g.observe(0)) and h.check_invariants() == 0
    assert varied > 15


# --- deck --- (docs/rules.md §17.5)
def test_resample_keeps_known_top_and_bottom_deck_positions():
    """Known top (ordered, put there in public) and bottom (put there from hand) deck cards survive resampling,
    for the seat that knows them: same cards at the same positions, same observation."""
    from test_ext_deck import known_deck_position, known_positions
    g = known_deck_position()
    n0 = len(g.state_dict()["players"][0]["deck"])
    assert (n0 - 1, "STT01-003") in known_positions(g, 0, 0)           # the bottom
    assert known_positions(g, 0, 1) == [(0, "STT02-007")] == known_positions(g, 1, 1)   # a top both know
    o = g.observe(0)
    assert obs_slice(o, "DECK_BOTTOM").reshape(-1)[0] > 0 and obs_slice(o, "OPP_DECK_TOP").reshape(-1)[0] > 0
    for seat in (0, 1):
        facts = [known_positions(g, seat, p) for p in (0, 1)]
        for s in range(10):
            h = g.clone()
            h.resample(seat, s)
            assert [known_positions(h, seat, p) for p in (0, 1)] == facts
            assert h.observe(seat).tobytes() == g.observe(seat).tobytes()

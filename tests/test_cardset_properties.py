"""The property suite over every deck pairing of a card set: the starter set
and the expansion (azuki/data/expansion.json, which includes the starter set,
so its 4 decks give 16 ordered pairings). Per pairing, random games with:

- the invariant checker after every step, mask == legal list == is_legal, and
  one-answer-is-no-question (docs/rules.md §12.2);
- an illegal action raises and changes nothing;
- clone / to_bytes / from_bytes round trips keep the hash and the future;
- determinism: the same seed and actions give the same hashes;
- hidden information: Game.resample of a seat's information set keeps that
  seat's observation and seat view, keeps the invariants, and plays on.
And the bots: greedy beats random on every expansion pairing (>= 80 %)."""
import json
import random
from pathlib import Path

import numpy as np
import pytest

import azuki
from azuki.bots import GreedyBot, RandomBot
from azuki.view import seat_view

DATA = Path(azuki.__file__).resolve().parent / "data"
SETS = {"starter": DATA / "cards.json", "expansion": DATA / "expansion.json"}
_CACHE = {}


def cardset(name):
    if name not in _CACHE:
        _CACHE[name] = azuki.CardSet.default() if name == "starter" else azuki.CardSet.from_json(str(SETS[name]))
    return _CACHE[name]


def _check(g, rng):
    legal = g.legal_actions()
    mask = g.action_mask()
    assert g.check_invariants() == 0, azuki.invariant_text(g.check_invariants())
    assert len(legal) >= 2, "one answer is no question (docs/rules.md §12.2)"
    assert mask.sum() == len(legal) and mask[legal].all()
    assert all(g.is_legal(int(a)) for a in legal[:8])
    bad = int(np.flatnonzero(mask == 0)[rng.randrange(int((mask == 0).sum()))])
    h = g.state_hash()
    with pytest.raises(azuki.IllegalActionError):
        g.step(bad)
    assert g.state_hash() == h
    return legal


def _play(cs, decks, seed, on_step=None, cap=3000):
    g = azuki.Game(seed=seed, decks=decks, cards=cs)
    rng, check_rng = random.Random(seed), random.Random(~seed)
    trace = []
    while not g.is_terminal and len(trace) < cap:
        legal = on_step(g, check_rng) if on_step else g.legal_actions()
        a = int(legal[rng.randrange(len(legal))])
        g.step(a)
        trace.append((a, g.state_hash()))
    return g, trace


@pytest.mark.parametrize("set_name", list(SETS))
def test_random_play_invariants_mask_and_determinism_every_pairing(set_name):
    cs = cardset(set_name)
    names = cs.decks
    truncated = 0
    for i, decks in enumerate((a, b) for a in names for b in names):
        for k in range(8):
            seed = 7000 + 10 * i + k
            g, trace = _play(cs, decks, seed, on_step=_check)
            assert g.is_terminal
            truncated += g.result == "TRUNCATED"
            _, again = _play(cs, decks, seed)
            assert again == trace, f"{decks} seed {seed}: not deterministic"
    assert truncated == 0


@pytest.mark.parametrize("set_name", list(SETS))
def test_round_trips_mid_game_every_pairing(set_name):
    cs = cardset(set_name)
    names = cs.decks
    for i, decks in enumerate((a, b) for a in names for b in names):
        rng = random.Random(i)
        g = azuki.Game(seed=500 + i, decks=decks, cards=cs)
        steps = 0
        while not g.is_terminal:
            if rng.random() < 0.05:
                r = azuki.Game.from_bytes(g.to_bytes(), cards=cs)
                c = g.clone()
                assert r.state_hash() == c.state_hash() == g.state_hash()
                for _ in range(12):
                    if g.is_terminal:
                        break
                    legal = g.legal_actions()
                    assert np.array_equal(legal, r.legal_actions()) and np.array_equal(legal, c.legal_actions())
                    a = int(legal[rng.randrange(len(legal))])
                    g.step(a), r.step(a), c.step(a)
                    assert g.state_hash() == r.state_hash() == c.state_hash()
                continue
            legal = g.legal_actions()
            g.step(int(legal[rng.randrange(len(legal))]))
            steps += 1


@pytest.mark.parametrize("set_name", list(SETS))
def test_resampling_keeps_each_seats_information_every_pairing(set_name):
    cs = cardset(set_name)
    names = cs.decks
    n = 0
    for i, decks in enumerate((a, b) for a in names for b in names):
        rng = random.Random(100 + i)
        for k in range(4):
            g = azuki.Game(seed=900 + 10 * i + k, decks=decks, cards=cs)
            while not g.is_terminal:
                if rng.random() < 0.06:
                    for seat in (0, 1):
                        obs, view = g.observe(seat).tobytes(), seat_view(g, seat)
                        h = g.clone()
                        h.resample(seat, rng.randrange(1 << 64))
                        assert h.check_invariants() == 0, azuki.invariant_text(h.check_invariants())
                        assert h.observe(seat).tobytes() == obs, (decks, seat, "observation changed")
                        assert seat_view(h, seat) == view, (decks, seat, "seat view changed")
                        for _ in range(10):
                            if h.is_terminal:
                                break
                            legal = h.legal_actions()
                            h.step(int(legal[rng.randrange(len(legal))]))
                        n += 1
                legal = g.legal_actions()
                g.step(int(legal[rng.randrange(len(legal))]))
    assert n > 20 * len(names) ** 2 // 4


def test_greedy_beats_random_on_expansion_decks():
    cs = cardset("expansion")
    new = [d for d in cs.decks if d not in ("STT01", "STT02")]
    assert len(new) == 2
    for decks in [(a, b) for a in new for b in new]:
        wins = games = 0
        for seed in range(30):
            for greedy_seat in (0, 1):
                g = azuki.Game(seed=seed, decks=decks, cards=cs)
                bots = [RandomBot(seed), RandomBot(seed)]
                bots[greedy_seat] = GreedyBot(seed)
                while not g.is_terminal:
                    g.step(bots[g.current_player].act(g))
                wins += g.winner == greedy_seat
                games += 1
        assert wins / games >= 0.8, (decks, wins, games)

"""pickle / copy / deepcopy of Game and CardSet (RL users ship games between
processes and snapshot them)."""
import copy
import json
import multiprocessing
import pathlib
import pickle

import pytest

import azuki
from azuki import CardSet, Game

ROOT = pathlib.Path(__file__).resolve().parent.parent
CARDS = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())


def advance(g, n, k=7):
    for i in range(n):
        if g.is_terminal:
            return g
        legal = g.legal_actions()
        g.step(int(legal[(i * k) % len(legal)]))
    return g


def same(a, b):
    assert a.state_hash() == b.state_hash() and a.to_bytes() == b.to_bytes()
    assert a.legal_actions().tolist() == b.legal_actions().tolist()
    assert a.decks == b.decks and a.turn_cap == b.turn_cap and a.cards.hash == b.cards.hash
    assert a.prompt() == b.prompt() and a.state_dict() == b.state_dict()


def play_on(a, b, n=200):
    """Both games play the same actions identically to the end (or n steps)."""
    for i in range(n):
        same(a, b)
        if a.is_terminal:
            break
        legal = a.legal_actions()
        x = int(legal[(i * 5 + 3) % len(legal)])
        a.step(x)
        b.step(x)
    same(a, b)


@pytest.mark.parametrize("decks", [("STT01", "STT02"), ("STT02", "STT01"), ("STT02", "STT02")])
@pytest.mark.parametrize("steps", [0, 1, 37, 120])
def test_pickle_round_trip(decks, steps):
    g = advance(Game(seed=11, decks=decks, turn_cap=40), steps)
    for proto in (2, pickle.HIGHEST_PROTOCOL):
        h = pickle.loads(pickle.dumps(g, protocol=proto))
        assert h is not g and h.cards is g.cards
        play_on(g.clone(), h)


def test_copy_and_deepcopy_are_independent():
    g = advance(Game(seed=4), 30)
    for h in (copy.copy(g), copy.deepcopy(g), copy.deepcopy([g])[0]):
        same(g, h)
        before = g.state_hash()
        h.step(int(h.legal_actions()[0]))
        assert g.state_hash() == before and h.state_hash() != before


def test_pickle_mid_prompt_from_setup():
    g = Game.from_setup({"decks": ["STT02", "STT01"],
                         "players": [{"hand": ["STT02-007", "STT02-004"], "ikz_area": 5}, {}]})
    play_on(g.clone(), pickle.loads(pickle.dumps(g)), n=60)


def test_runtime_cardset_pickles_with_its_json(tmp_path):
    doc = copy.deepcopy(CARDS)
    next(c for c in doc["cards"] if c["id"] == "STT02-004")["attack"] = 7
    p = tmp_path / "cards.json"
    p.write_text(json.dumps(doc))
    g = advance(Game(seed=2, decks=("STT02", "STT01"), cards=str(p)), 25)
    blob = pickle.dumps(g)
    p.unlink()                      # the pickle does not need the file
    azuki.clear_cardset_cache()
    h = pickle.loads(blob)
    assert h.cards.hash == g.cards.hash != CardSet.default().hash
    play_on(g.clone(), h)
    cs = pickle.loads(pickle.dumps(g.cards))
    assert cs.hash == g.cards.hash and cs.decks == g.cards.decks
    assert pickle.loads(pickle.dumps(CardSet.default())) is CardSet.default()


def test_pickle_rejects_a_different_card_set_hash():
    from azuki._core import _restore_cardset
    with pytest.raises(azuki.CardSetError):
        _restore_cardset(None, None, CardSet.default().hash ^ 1)


def _child(blob, q):
    import pickle as pk
    g = pk.loads(blob)
    out = [g.state_hash(), list(g.decks), g.turn_cap, g.legal_actions().tolist()]
    for i in range(40):
        if g.is_terminal:
            break
        legal = g.legal_actions()
        g.step(int(legal[(i * 5 + 3) % len(legal)]))
    out.append(g.state_hash())
    q.put(out)


def test_unpickles_in_a_spawned_process(tmp_path):
    doc = copy.deepcopy(CARDS)
    next(c for c in doc["cards"] if c["id"] == "STT01-003")["health"] = 5
    p = tmp_path / "cards.json"
    p.write_text(json.dumps(doc))
    for cards in (None, str(p)):
        g = advance(Game(seed=8, decks=("STT02", "STT01"), cards=cards, turn_cap=50), 33)
        want = [g.state_hash(), list(g.decks), g.turn_cap, g.legal_actions().tolist()]
        h = g.clone()
        for i in range(40):
            if h.is_terminal:
                break
            legal = h.legal_actions()
            h.step(int(legal[(i * 5 + 3) % len(legal)]))
        want.append(h.state_hash())
        ctx = multiprocessing.get_context("spawn")
        q = ctx.Queue()
        proc = ctx.Process(target=_child, args=(pickle.dumps(g), q))
        proc.start()
        got = q.get(timeout=60)
        proc.join(timeout=30)
        assert proc.exitcode == 0 and got == want

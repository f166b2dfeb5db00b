"""The search bot (csrc/bot.c "the search bot", docs/bots.md): information-set
Monte Carlo tree search that never sees hidden information.

* no peeking: with the same bot seed, positions that differ only in what the
  bot cannot know (built with Game.resample from the bot's own seat on a
  copy: the opponent's unknown hand cards, its deck and the bot's own deck
  redistributed, the game's RNG reseeded) get the same decision, over many
  positions of every deck pairing and every kind of decision; the test is
  shown to be able to fail (the greedy bot, which resolves its own draws
  with the true deck order, decides differently on some of those pairs);
* always legal, the game left unchanged (hash and bytes), deterministic;
* settings: sims validated; SearchBot, make_bot, simulate and the arena
  accept it; the bench hook answers.
Strength is a benchmark (`python -m azuki arena --players search greedy`),
not a test: only a small smoke arena runs here.
"""
from __future__ import annotations

import pytest

import azuki
from azuki import Game
from azuki.arena import run_arena
from azuki.bots import SEARCH_SIMS, SEARCH_VERSION, GreedyBot, RandomBot, SearchBot, make_bot
from scenario import greedy_positions

PAIRINGS = [("STT01", "STT01"), ("STT01", "STT02"), ("STT02", "STT01"), ("STT02", "STT02")]
SIMS = 6     # small budgets keep the tests quick; the rules do not depend on it


def test_kind_and_version():
    assert "search" in azuki.BOT_KINDS and SEARCH_VERSION >= 1 and SEARCH_SIMS >= 1
    b = make_bot("search", 3, sims=5)
    assert isinstance(b, SearchBot) and b.sims == 5 and b.version == SEARCH_VERSION
    assert SearchBot(1).sims == SEARCH_SIMS
    for bad in (0, -1, 10**7):
        with pytest.raises(ValueError, match="sims"):
            SearchBot(0, sims=bad)
    for bad in ("4", 2.0, True):
        with pytest.raises(TypeError, match="sims"):
            SearchBot(0, sims=bad)
    with pytest.raises(TypeError, match="azuki.Game"):
        SearchBot(0).act("x")


def test_no_peeking():
    """Same bot seed + same information set => same decision."""
    checked = changed = greedy_differs = 0
    phases = set()
    for i, decks in enumerate(PAIRINGS * 2):
        for g in greedy_positions(40 + i, decks, every=3):
            me = g.current_player
            for r in range(2):
                v = g.clone()
                v.resample(me, 1000 * i + r)          # only what `me` cannot know changes
                assert (v.observe(me) == g.observe(me)).all()
                changed += v.to_bytes() != g.to_bytes()
                seed = 7 * i + r
                assert SearchBot(seed, sims=SIMS).act(g) == SearchBot(seed, sims=SIMS).act(v), \
                    (decks, g.phase, g.turn)
                greedy_differs += GreedyBot(seed).act(g) != GreedyBot(seed).act(v)
                checked += 1
            phases.add(g.phase)
    assert checked >= 300 and changed >= checked * 0.9
    assert {"MAIN", "PROMPT"} <= phases
    # the comparison can fail: a bot that uses the true deck order is caught
    assert greedy_differs > 0


def test_no_peeking_opponent_hand_swapped():
    """The opponent's hidden hand exchanged wholesale with cards of its deck,
    through Game.from_setup, gives the same decision."""
    n = 0
    for i, decks in enumerate(PAIRINGS):
        for g in greedy_positions(90 + i, decks, every=6):
            if g.phase != "MAIN":
                continue
            me = g.current_player
            d = g.state_dict()
            g = Game.from_setup(g.state_dict())       # both built the same way (e.g. the decision counter)
            opp = d["players"][1 - me]
            hand, deck = list(opp["hand"]), list(opp["deck"])
            if not hand or len(deck) < len(hand) or any(c.get("revealed") for c in hand if isinstance(c, dict)):
                continue
            k = len(hand)
            opp["hand"], opp["deck"] = deck[:k], hand + deck[k:]
            try:
                v = Game.from_setup(d)
            except Exception:           # a plan the setup refuses: skip it
                continue
            if (v.observe(me) != g.observe(me)).any():
                continue
            assert SearchBot(i, sims=SIMS).act(g) == SearchBot(i, sims=SIMS).act(v)
            n += 1
    assert n >= 10


def test_legal_unchanged_deterministic():
    for i, decks in enumerate(PAIRINGS):
        traj = []
        for rep in range(2):
            g = Game(seed=60 + i, decks=decks)
            bots = (SearchBot(i, sims=SIMS), GreedyBot(i) if i % 2 else RandomBot(i))
            t = []
            while not g.is_terminal:
                legal = set(g.legal_actions().tolist())
                h, b = g.state_hash(), g.to_bytes()
                a = bots[g.current_player].act(g)
                assert a in legal
                assert g.state_hash() == h and g.to_bytes() == b
                g.step(a)
                t.append(a)
            traj.append(t)
        assert traj[0] == traj[1]


def test_budget_changes_nothing_but_the_search():
    g = next(greedy_positions(5, ("STT01", "STT02"), every=5))
    for sims in (1, 2, 17):
        assert SearchBot(3, sims=sims).act(g) in g.legal_actions().tolist()


def test_simulate_arena_and_bench_hooks():
    r = azuki.simulate(2, seed=3, players=("search", "random"))
    assert r["errors"] == 0 and r["players"] == ("search", "random")
    a = run_arena(("search", "random"), 4, seed=1, sims=SIMS, jobs=2)
    b = run_arena(("search", "random"), 4, seed=1, sims=SIMS, jobs=1)
    assert a["errors"] == 0 and a["search_sims"] == SIMS
    assert a["overall"] == b["overall"]                  # threads do not change the games
    assert a["overall"]["search"]["wins"] >= 3
    assert a["us_per_decision_by_bot"]["search"] > a["us_per_decision_by_bot"]["random"]
    s = azuki._core._bench_search(3, sims=4)
    assert s["decisions"] == 3 and s["sims_per_s"] > 0

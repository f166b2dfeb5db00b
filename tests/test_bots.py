"""The built-in bots (azuki.bots, csrc/bot.c, docs/bots.md), the arena and
its statistics (azuki.arena, azuki.stats).

* a bot only ever returns a legal action: both bots, every deck pairing,
  every kind of decision (mulligan, main, response, defender, prompts);
* a bot never changes the game it is asked about (hash and bytes);
* same seeds, same trajectory; bad inputs are clear errors;
* Wilson intervals against values computed independently;
* the arena command works, is reproducible, and greedy beats random (a
  smoke test: strength is measured by `python -m azuki arena`, docs/bots.md).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import azuki
from azuki import Game
from azuki.bots import BOT_KINDS, GREEDY_VERSION, GreedyBot, RandomBot, make_bot
from azuki.stats import fmt_rate, rate, wilson

REPO = Path(__file__).resolve().parent.parent
PAIRINGS = [("STT01", "STT01"), ("STT01", "STT02"), ("STT02", "STT01"), ("STT02", "STT02")]


def play(seed, decks, bots, check=True, phases=None):
    """Play one game; return (trajectory of state hashes, game)."""
    g = Game(seed=seed, decks=decks)
    traj = [g.state_hash()]
    while not g.is_terminal:
        p = g.current_player
        if check:
            legal = set(g.legal_actions().tolist())
            h, b = g.state_hash(), g.to_bytes()
        a = bots[p].act(g)
        assert isinstance(a, int)
        if check:
            assert a in legal, (seed, decks, g.phase, a)
            assert g.state_hash() == h and g.to_bytes() == b     # the bot does not touch the game
            if phases is not None:
                phases.setdefault(type(bots[p]).__name__, set()).add(g.phase)
        g.step(a)
        traj.append(g.state_hash())
    return traj, g


def test_kinds_and_versions():
    assert BOT_KINDS == ("random", "greedy", "search") == azuki.BOT_KINDS
    assert GreedyBot(0).version == GREEDY_VERSION >= 1
    assert isinstance(make_bot("greedy", 3), GreedyBot) and make_bot("random").seed == 0


@pytest.mark.parametrize("decks", PAIRINGS)
def test_bots_always_legal_and_read_only(decks):
    phases = {}
    for i in range(6):
        seed = 100 + i
        for bots in ((GreedyBot(seed), RandomBot(seed)), (RandomBot(seed), GreedyBot(seed)),
                     (GreedyBot(seed), GreedyBot(seed + 1))):
            _, g = play(seed, decks, bots, phases=phases)
            assert g.result != "ONGOING"
    # the greedy bot met every kind of decision
    assert {"MULLIGAN", "MAIN", "PROMPT"} <= phases["GreedyBot"]


def test_greedy_meets_responses_and_defenders():
    seen = set()
    for i in range(30):
        phases = {}
        play(200 + i, ("STT02", "STT02") if i % 2 else ("STT01", "STT02"),
             (GreedyBot(i), GreedyBot(i + 7)), phases=phases)
        seen |= phases["GreedyBot"]
        if {"RESPONSE", "DEFENDER"} <= seen:
            break
    assert {"RESPONSE", "DEFENDER", "PROMPT"} <= seen


def test_deterministic():
    for kind in ("random", "greedy"):
        t1, _ = play(7, ("STT01", "STT02"), (make_bot(kind, 1), make_bot("greedy", 2)), check=False)
        t2, _ = play(7, ("STT01", "STT02"), (make_bot(kind, 1), make_bot("greedy", 2)), check=False)
        assert t1 == t2
    # reset() restarts the stream; another seed gives another random game
    b = RandomBot(5)
    t1, _ = play(8, ("STT02", "STT01"), (b, b), check=False)
    b.reset()
    t2, _ = play(8, ("STT02", "STT01"), (b, b), check=False)
    t3, _ = play(8, ("STT02", "STT01"), (RandomBot(6), RandomBot(6)), check=False)
    assert t1 == t2 != t3


def test_bot_act_on_clone_and_positions():
    g = Game(seed=3)
    bot = GreedyBot(1)
    while g.phase != "MAIN" or g.turn < 3:
        g.step(bot.act(g))
    c = g.clone()
    a = GreedyBot(9).act(c)
    assert a == GreedyBot(9).act(g)               # a function of the position and the seed
    assert a in g.legal_actions().tolist()


def test_bad_inputs():
    bot = GreedyBot(0)
    with pytest.raises(TypeError, match="azuki.Game"):
        bot.act("not a game")
    with pytest.raises(TypeError, match="azuki.Game"):
        bot.act(None)
    _, g = play(1, ("STT01", "STT02"), (RandomBot(1), RandomBot(2)), check=False)
    for b in (GreedyBot(0), RandomBot(0)):
        with pytest.raises(ValueError, match="game is over"):
            b.act(g)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("alphazero")
    with pytest.raises(TypeError):
        GreedyBot(seed="x")
    with pytest.raises(ValueError, match="unknown bot"):
        azuki.simulate(2, players=("greedy", "nope"))
    with pytest.raises(ValueError, match="two bot names"):
        azuki.simulate(2, players="greedy")
    with pytest.raises(TypeError):
        azuki.bots.Bot(0)


def test_simulate_with_players():
    r = azuki.simulate(40, seed=11, players=("greedy", "random"))
    assert r["players"] == ("greedy", "random") and r["errors"] == 0
    assert sum(r["wins_by_side"]) + r["draws"] + r["truncated"] == 40
    assert r["wins_by_side"][0] > r["wins_by_side"][1]
    r2 = azuki.simulate(40, seed=11, players=("greedy", "random"))
    for k in ("wins_by_side", "wins_by_seat", "decisions", "turns", "end_reasons"):
        assert r2[k] == r[k]
    # players=None keeps the original random-player simulation
    assert "players" not in azuki.simulate(4, seed=1)


# ---- statistics ----------------------------------------------------------------

def test_wilson_known_values():
    # reference values: Wilson (1927) score interval, z = 1.959964 (e.g. R's prop.test(correct=FALSE))
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2365931, abs=1e-6) and hi == pytest.approx(0.7634069, abs=1e-6)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775328, abs=1e-6)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7224672, abs=1e-6)
    lo, hi = wilson(81, 100)
    assert lo == pytest.approx(0.72221, abs=1e-4) and hi == pytest.approx(0.87488, abs=1e-4)   # by hand
    lo, hi = wilson(1600, 2000)
    assert lo < 0.8 < hi and hi - lo == pytest.approx(2 * 1.959964 * (0.16 / 2000) ** 0.5, rel=1e-2)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(TypeError):
        wilson(0.5, 2)
    r = rate(3, 4)
    assert r["rate"] == 0.75 and r["games"] == 4 and r["ci95"][0] < 0.75 < r["ci95"][1]
    assert fmt_rate(rate(1, 2)) == " 50.0% [9.5, 90.5]"


def test_wilson_symmetry_and_coverage():
    for n in (1, 7, 50, 333):
        for k in range(0, n + 1, max(1, n // 10)):
            lo, hi = wilson(k, n)
            lo2, hi2 = wilson(n - k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
            assert lo == pytest.approx(1 - hi2, abs=1e-12) and hi == pytest.approx(1 - lo2, abs=1e-12)


# ---- arena ----------------------------------------------------------------------

def test_arena_schedule_balanced():
    from azuki.arena import schedule
    cols, pairings = schedule(16, 5, ("greedy", "random"), ["STT01", "STT02"])
    assert len(pairings) == 4
    assert cols["a_seat"] == [0, 1] * 8
    assert cols["seed"][0::2] == cols["seed"][1::2] == [5 + i for i in range(8)]
    for g in range(0, 16, 2):        # the same deal from both seats, decks follow the bots
        assert (cols["deck0"][g], cols["deck1"][g]) == (cols["deck1"][g + 1], cols["deck0"][g + 1])
        assert (cols["kind0"][g], cols["kind1"][g]) == (1, 0) and (cols["kind0"][g + 1], cols["kind1"][g + 1]) == (0, 1)
    assert [cols["pairing"][g] for g in range(0, 16, 2)] == [0, 1, 2, 3] * 2
    assert len(set(cols["bseed0"] + cols["bseed1"])) == 32
    with pytest.raises(ValueError, match="even"):
        schedule(3, 0, ("greedy", "random"), ["STT01"])


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "azuki", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=120)


def test_arena_cli_smoke():
    p = run_cli("arena", "--players", "greedy", "random", "--games", "50", "--seed", "4", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    o = r["overall"]
    assert r["games"] == 50 and o["games"] == 50 and r["errors"] == 0
    assert o["greedy"]["wins"] > o["random"]["wins"]
    assert o["greedy"]["wins"] + o["random"]["wins"] + r["draws"] + r["truncated"] == 50
    assert sum(b["games"] for b in r["by_decks"].values()) == 50
    assert sum(b["games"] for b in r["by_seat"].values()) == 50
    # exactly reproducible from the seed (timings aside)
    r2 = json.loads(run_cli("arena", "--players", "greedy", "random", "--games", "50", "--seed", "4",
                            "--json").stdout)
    for k in ("seconds", "wall_seconds", "games_per_second", "us_per_decision", "us_per_decision_by_bot"):
        r.pop(k), r2.pop(k)
    assert r == r2
    text = run_cli("arena", "--players", "random", "greedy", "--games", "8", "--decks", "STT02")
    assert text.returncode == 0 and "95% Wilson interval" in text.stdout and "games/s" in text.stdout
    bad = run_cli("arena", "--players", "greedy", "minimax", "--games", "8")
    assert bad.returncode == 2 and "unknown bot" in bad.stderr and "Traceback" not in bad.stderr
    bad = run_cli("arena", "--players", "greedy", "random", "--games", "9")
    assert bad.returncode == 2 and "even" in bad.stderr
    bad = run_cli("arena", "--players", "greedy", "random", "--decks", "STT09")
    assert bad.returncode == 2 and "unknown deck" in bad.stderr


def test_simulate_cli_players():
    p = run_cli("simulate", "--players", "greedy", "random", "--games", "20", "--seed", "2")
    assert p.returncode == 0, p.stderr
    assert "players greedy (STT01) vs random (STT02)" in p.stdout and "wins greedy" in p.stdout


def test_search_cli():
    p = run_cli("simulate", "--players", "search", "random", "--games", "2", "--seed", "2")
    assert p.returncode == 0, p.stderr and "wins search" in p.stdout
    p = run_cli("arena", "--players", "search", "random", "--games", "4", "--sims", "4", "--jobs", "2")
    assert p.returncode == 0, p.stderr
    assert "search 4 simulations/decision" in p.stdout and "time per decision: search" in p.stdout

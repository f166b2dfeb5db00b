"""Playing many games (azuki/games.py over csrc/play.c through azuki._core._Players) and the bench loops
(csrc/bench.c behind azuki._core._bench): the public names are where they were, a run split into
stretches plays what one call plays, the games are the ones stepping them one by one through the bot
calls gives, and bad arguments to the private entry points raise instead of crashing (issue 31 item 2).
The C loops' own test: tests/c/test_play.c."""
import ast
from pathlib import Path

import numpy as np
import pytest

import azuki
from azuki import Game, _core, bench, games as play


def _no_time(r):
    return {k: v for k, v in r.items() if k not in ("seconds", "games_per_second", "decisions_per_second")}


def test_names_stay_where_they_were():
    assert azuki.simulate is _core.simulate is play.simulate
    assert _core.play_games is play.play_games and _core.bot_kind is play.bot_kind
    assert _core._bench_search is bench.bench_search
    assert _core.SIM_SIGNAL_GAMES == play.SIM_SIGNAL_GAMES == 64


@pytest.mark.parametrize("rel", ["azuki/games.py", "azuki/bench.py"])
def test_the_python_halves_import_the_extension_only_inside_functions(rel):
    """azuki._core imports azuki.games and azuki.bench while it initialises: they may not import it back."""
    tree = ast.parse((Path(__file__).resolve().parents[1] / rel).read_text())
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            assert node.module not in ("_core", "azuki._core") and "_core" not in [a.name for a in node.names], rel
        if isinstance(node, ast.Import):
            assert "azuki._core" not in [a.name for a in node.names], rel


@pytest.mark.parametrize("players", [None, ("greedy", "random")])
def test_stretches_play_what_one_call_plays(players):
    """chunk=7: progress after every 7 games, so the C run is cut at 7, 14, ... as well as every 64."""
    calls = []
    a = azuki.simulate(75, seed=9, players=players, chunk=7, progress=lambda d, n: calls.append(d))
    b = azuki.simulate(75, seed=9, players=players, chunk=1000)
    assert _no_time(a) == _no_time(b) and calls == list(range(7, 75, 7)) + [75]
    assert a["errors"] == 0 and sum(a["wins_by_seat"]) + a["draws"] + a["truncated"] == 75


def test_simulate_with_bots_is_the_games_stepped_one_by_one():
    """Side k plays decks[k], seats alternate, side k's bot draws from bot_seed_for(seed, k) across games."""
    seed, n = 21, 6
    r = azuki.simulate(n, seed=seed, players=("greedy", "random"))
    rngs = [_core.bot_rng(_core.bot_seed_for(seed, k)) for k in range(2)]
    kinds = [_core.bot_kind("greedy"), _core.bot_kind("random")]
    by_side, decisions, turns = [0, 0], 0, 0
    for i in range(n):
        swap = i & 1
        g = Game(seed=seed + i, decks=("STT02", "STT01") if swap else ("STT01", "STT02"))
        while not g.is_terminal:
            side = g.current_player ^ swap
            g.step(_core.bot_act(g, kinds[side], rngs[side]))
            decisions += 1
        turns += g.turn
        if g.winner is not None:
            by_side[g.winner ^ swap] += 1
    assert r["wins_by_side"] == by_side and r["decisions"] == decisions and r["turns"] == turns


def test_play_games_is_the_games_stepped_one_by_one():
    r = _core.play_games([5, 6, 7], [0, 1, 1], [1, 0, 1], [1, 0, 2], [0, 1, 0], [3, 4, 5], [6, 7, 8], sims=3)
    assert list(r) == list(play.PLAY_COLUMNS) + ["seconds"]
    for i in range(3):
        g = Game(seed=[5, 6, 7][i], decks=tuple(("STT01", "STT02")[d] for d in ([0, 1, 1][i], [1, 0, 1][i])))
        kinds, rngs = ([1, 0, 2][i], [0, 1, 0][i]), [_core.bot_rng(s) for s in ([3, 4, 5][i], [6, 7, 8][i])]
        seat = [0, 0]
        while not g.is_terminal:
            q = g.current_player
            g.step(_core.bot_act(g, kinds[q], rngs[q], sims=3))
            seat[q] += 1
        assert [r["seat0_decisions"][i], r["seat1_decisions"][i]] == seat and r["decisions"][i] == sum(seat)
        assert r["winner"][i] == (-1 if g.winner is None else g.winner) and r["turns"][i] == g.turn
        assert r["error"][i] == 0 and r["seat0_seconds"][i] >= 0


def test_private_entry_points_refuse_bad_arguments():
    p = _core._Players(None, 200, 10000, None, (), "test")
    with pytest.raises(ValueError):
        p.sim_run(0, 1)                      # not started: nothing to play with
    p.sim_start(2, 0, ("STT01", "STT02"), None, 1)
    with pytest.raises(ValueError):
        p.sim_run(2, 1)
    with pytest.raises(ValueError):
        p.sim_start(2, 0, ("STT01", "STT02"), [0, -1], 1)   # a policy bot nobody gave
    cols, _ = play.play_columns(([1], [2], [3]), ([0], [1], [0], [0]), 2, 0, 3)
    with pytest.raises(ValueError):
        p.play_rows(cols[:-1], 0, 1)
    with pytest.raises(ValueError):
        p.play_rows(cols, 0, 2)              # past the columns' end
    cols[5][0] = 7                           # a kind without its player
    with pytest.raises(ValueError):
        p.play_rows(cols, 0, 1)
    with pytest.raises(ValueError):
        _core._bench("nope", 1)
    with pytest.raises(ValueError):
        _core._bench("vec", 1)               # no VecGame
    with pytest.raises(ValueError):
        _core._bench("micro", 0)
    with pytest.raises(ValueError):
        play.play_columns(([1], [2], [3]), ([0], [5], [0], [0]), 2, 0, 3)


def test_bench_loops_report():
    m = bench.bench_micro(200, seed=2)
    assert all(m[k] > 0 for k in ("calibration_ns", "reset_ns", "clone_ns", "observe_ns", "memcpy_bytes_per_s"))
    s = bench.bench_search(2, sims=2)
    assert s["decisions"] == 2 and s["sims"] == 2 and s["sims_per_s"] > 0
    for mode in ("self", "policy"):
        v = bench.bench_vec(4, 20, mode=mode)
        assert v["agent_steps"] > 0 and v["bytes_per_agent_step"] > 0
    games = [Game(seed=s) for s in range(3)]
    obs = np.stack([g.observe(g.current_player) for g in games])
    acts = np.zeros(3, np.int32)
    bench.pick_from_masks(obs, azuki.obs_layout()["MASK"]["offset"], acts, np.random.default_rng(0))
    assert all(a in g.legal_actions().tolist() for g, a in zip(games, acts))

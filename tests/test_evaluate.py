"""azuki.evaluate and `python -m azuki eval`: stub players (anything with
act(obs, masks)), the three paths (VecGame bot mode, VecGame policy mode,
the arena), the schedule's balance, reproducibility, replays and the CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from azuki import _core  # noqa: E402
from azuki.evaluate import check_player, evaluate, make_player, round_robin, vec_deal  # noqa: E402
from azuki.replay import load_replay, verify_replay  # noqa: E402
from azuki.stats import rate  # noqa: E402


class First:
    """The first legal action (deterministic, row by row)."""
    name = "first"

    def act(self, obs, masks):
        assert obs.dtype == np.uint8 and obs.shape == (masks.shape[0], _core.OBS_LEN)
        assert masks.dtype == np.uint8 and masks.shape[1] == _core.NUM_ACTIONS
        return masks.argmax(axis=1).astype(np.int32)


class Last:
    """The last legal action."""
    name = "last"

    def act(self, obs, masks):
        return (masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)).astype(np.int32)


class Rand:
    """Masked uniform random from one numpy stream (batched, like a sampling policy)."""
    name = "rand"

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def act(self, obs, masks):
        return (self.rng.random(masks.shape) * masks).argmax(axis=1).astype(np.int32)


INV = {"win": "loss", "loss": "win", "draw": "draw", "truncated": "truncated"}


def _check_balance(r, games):
    assert r["games"] == games == len(r["outcomes"])
    assert r["wins"] + r["losses"] + r["draws"] + r["truncated"] == games
    assert [b["games"] for b in r["by_seat"].values()] == [games // 2, games // 2]
    assert sorted(r["by_decks"]) == ["STT01 vs STT01", "STT01 vs STT02", "STT02 vs STT01", "STT02 vs STT02"]
    assert all(b["games"] == games // 4 for b in r["by_decks"].values())


def test_first_legal_vs_random_bot_counts_and_balance():
    r = evaluate(First(), "random", games=32, seed=5, n=8, outcomes=True)
    assert r["path"] == "vecgame-bot" and r["players"] == ["first", "random"]
    _check_balance(r, 32)
    assert r["win_rate"] == rate(r["wins"], 32)          # Wilson interval of wins / all games
    for b in list(r["by_seat"].values()) + list(r["by_decks"].values()):
        assert b["win_rate"] == rate(b["wins"], b["games"])
    assert r["score"] == pytest.approx((r["wins"] + 0.5 * (r["draws"] + r["truncated"])) / 32)
    lo, hi = r["elo_diff"]["ci95"]
    assert lo <= r["elo_diff"]["elo"] <= hi
    assert r["seeds"]["engine_seeds"] == [5, 5 + 15]


def test_schedule_each_deal_from_both_seats():
    pairings = [(a, b) for a in ("STT01", "STT02") for b in ("STT01", "STT02")]
    seen = {}
    for e in range(32):
        s, decks, seat = vec_deal(e, 7, pairings)
        seen.setdefault((s, decks), []).append(seat)
    assert len(seen) == 16 and all(sorted(v) == [0, 1] for v in seen.values())


def test_reproducible_and_seed_sensitive():
    a = evaluate(Rand(1), "random", games=24, seed=11, n=6, outcomes=True)
    b = evaluate(Rand(1), "random", games=24, seed=11, n=6, outcomes=True)
    c = evaluate(Rand(1), "random", games=24, seed=12, n=6, outcomes=True)
    assert a["outcomes"] == b["outcomes"]
    assert a["outcomes"] != c["outcomes"]
    assert a["seeds"]["engine_seeds"] == [11, 22] and c["seeds"]["engine_seeds"] == [12, 23]


def test_bot_as_player_a_is_the_mirror_of_the_policy_as_a():
    x = evaluate(First(), "random", games=16, seed=2, n=4, outcomes=True)
    y = evaluate("random", First(), games=16, seed=2, n=4, outcomes=True)
    assert y["players"] == ["random", "first"]
    assert y["outcomes"] == [INV[o] for o in x["outcomes"]]
    assert y["by_seat"]["seat 0"]["wins"] == x["by_seat"]["seat 1"]["losses"]


def test_policy_vs_policy_path_and_role_symmetry():
    x = evaluate(First(), Last(), games=16, seed=4, n=5, outcomes=True)
    y = evaluate(Last(), First(), games=16, seed=4, n=5, outcomes=True)
    assert x["path"] == "vecgame-policy"
    _check_balance(x, 16)
    # game e of one run is the deal of game e ^ 1 of the other, with the same seats
    assert y["outcomes"] == [INV[x["outcomes"][e ^ 1]] for e in range(16)]


def test_bot_vs_bot_uses_the_arena():
    from azuki.arena import run_arena
    r = evaluate("greedy", "random", games=16, seed=3, outcomes=True)
    assert r["path"] == "arena"
    _check_balance(r, 16)
    ar = run_arena(("greedy", "random"), 16, seed=3, decks=["STT01", "STT02"])
    assert r["wins"] == ar["overall"]["greedy"]["wins"]
    assert r["losses"] == ar["overall"]["random"]["wins"]


def test_replays_written_playable_and_identical_results(tmp_path):
    fast = evaluate(Rand(3), "random", games=8, seed=9, n=3, outcomes=True)
    slow = evaluate(Rand(3), "random", games=8, seed=9, n=3, replays=tmp_path / "r", outcomes=True)
    assert slow["outcomes"] == fast["outcomes"]
    files = sorted(os.listdir(tmp_path / "r"))
    assert files == [f"game{g:06d}.json" for g in range(8)]
    for g, f in enumerate(files):
        rep = load_replay(str(tmp_path / "r" / f))
        ok, msg = verify_replay(rep)            # every state hash, the last one included
        assert ok, msg
        g_ = _core.Game(seed=rep["seed"], decks=tuple(rep["decks"]))
        for s in rep["steps"]:
            g_.step(s["action"])
        assert f"{g_.state_hash():016x}" == rep["steps"][-1]["hash"]
        assert rep["eval"]["a_outcome"] == fast["outcomes"][g]
        a_seat = rep["eval"]["a_seat"]
        won = {"WIN_P0": 0, "WIN_P1": 1}.get(rep["result"])
        assert (won == a_seat) == (fast["outcomes"][g] == "win")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    p = subprocess.run([sys.executable, "-m", "azuki", "replay", str(tmp_path / "r" / files[0])], env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("ok:"), p.stdout + p.stderr


def test_replays_policy_vs_policy_and_bot_vs_bot(tmp_path):
    for k, (a, b) in enumerate(((First(), Rand(2)), ("greedy", "random"))):
        r = evaluate(a, b, games=4, seed=1, n=2, replays=tmp_path / str(k), outcomes=True)
        files = sorted(os.listdir(tmp_path / str(k)))
        assert len(files) == 4
        for f in files:
            ok, msg = verify_replay(str(tmp_path / str(k) / f))
            assert ok, msg
        assert r["replays"] == str(tmp_path / str(k))


def test_bad_input():
    with pytest.raises(ValueError, match="even"):
        evaluate(First(), "random", games=3)
    with pytest.raises(ValueError, match="even"):
        evaluate(First(), "random", games=-2)
    with pytest.raises(ValueError, match="unknown player"):
        evaluate("nobody", "random", games=2)
    with pytest.raises(ValueError, match="no such checkpoint"):
        make_player("missing/model.pt")
    with pytest.raises(ValueError, match="sims"):
        check_player("greedy:sims=3")
    with pytest.raises(ValueError):
        evaluate(First(), "random", games=2, decks=("STT01", "NOPE"))


def test_round_robin_matrix_and_elo():
    rr = round_robin([First(), "random", "greedy"], games_per_pair=8, seed=0, n=4)
    assert rr["players"] == ["first", "random", "greedy"]
    m = rr["matrix"]
    for i in range(3):
        assert m[i][i] is None
        for j in range(3):
            if i != j:
                assert m[i][j]["games"] == 8
                assert m[i][j]["wins"] + m[j][i]["wins"] <= 8
    assert rr["elo"]["anchor"] == "random" and rr["elo"]["elo"][1] == 0.0
    assert len(rr["matches"]) == 3


def test_checkpoint_player_loads_when_available(tmp_path):
    pytest.importorskip("torch")
    policy = pytest.importorskip("azuki.policy")
    path = os.environ.get("AZUKI_TEST_CHECKPOINT")
    if not path:
        if not (hasattr(policy, "make_policy") and hasattr(policy, "save_checkpoint")):
            pytest.skip("azuki.policy cannot make a checkpoint here; set AZUKI_TEST_CHECKPOINT")
        path = str(tmp_path / "tiny.pt")
        policy.save_checkpoint(path, policy.make_policy("structured", hidden=32))
    r = evaluate(path, "random", games=4, seed=0, n=2, replays=tmp_path / "rep", outcomes=True)
    assert r["games"] == 4 and r["path"] == "vecgame-bot"
    again = evaluate(path, "random", games=4, seed=0, n=2, outcomes=True)
    assert again["outcomes"] == r["outcomes"]   # the player is re-seeded
    for f in sorted(os.listdir(tmp_path / "rep")):
        ok, msg = verify_replay(str(tmp_path / "rep" / f))
        assert ok, msg


# ---- the command line ----------------------------------------------------------------

def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "azuki", "eval", *map(str, args)], env=env, cwd=str(REPO),
                          capture_output=True, text=True, timeout=120)


def test_cli_head_to_head_and_json():
    r = run_cli("greedy", "random", "--games", "8", "--seed", "2")
    assert r.returncode == 0, r.stderr
    assert "greedy vs random, 8 games" in r.stdout and "Wilson" in r.stdout and "Elo greedy - random" in r.stdout
    j = run_cli("greedy", "random", "--games", "8", "--seed", "2", "--json")
    assert j.returncode == 0, j.stderr
    d = json.loads(j.stdout)
    assert d["games"] == 8 and d["path"] == "arena" and set(d["by_seat"]) == {"seat 0", "seat 1"}


def test_cli_round_robin_prints_matrix():
    r = run_cli("random", "greedy", "search:sims=2", "--games", "4", "--decks", "STT01")
    assert r.returncode == 0, r.stderr
    assert "win rate of row against column" in r.stdout and "anchor: random = 0" in r.stdout
    assert "search:sims=2" in r.stdout


@pytest.mark.parametrize("args,fragment", [
    (("nobody", "random"), "unknown player"),
    (("missing.pt", "random"), "no such checkpoint"),
    (("greedy", "random", "--games", "5"), "even"),
    (("greedy", "random", "--games", "-4"), "--games"),
    (("greedy",), "at least two players"),
    (("greedy", "random", "--decks", "STT01,XX"), "unknown deck"),
])
def test_cli_bad_input_one_line_exit_2(args, fragment):
    r = run_cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and fragment in lines[0], r.stderr


def test_evaluate_over_another_card_set_with_replays(tmp_path):
    """evaluate(cards=...): the expansion's decks (docs/eval.md); replays name
    the card set by path and re-play to the counted results."""
    exp = Path(_core.__file__).resolve().parent / "data" / "expansion.json"
    r = evaluate("greedy", "random", games=8, seed=2, decks=["EXP01-FIRE", "EXP01-EARTH"], cards=str(exp),
                 replays=tmp_path / "reps", outcomes=True)
    assert r["wins"] + r["losses"] + r["draws"] + r["truncated"] == 8 and r["cards"]
    files = sorted((tmp_path / "reps").glob("*.json"))
    assert files
    rep = json.loads(files[0].read_text())
    assert "expansion.json" in str(rep.get("cards"))
    r2 = evaluate("search:sims=8", "random", games=4, seed=1, decks=["EXP01-EARTH"], cards=str(exp), outcomes=True)
    assert r2["games"] == 4
    with pytest.raises(ValueError):
        evaluate("greedy", "random", games=4, decks=["EXP01-FIRE"], outcomes=True)   # not a deck of the default set


# ---- results stream (issue 24 §1): memory independent of the number of games, progress --------------

def _peak(fn):
    import tracemalloc
    fn()                          # warm up: imports, card sets, caches
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow    # 20,000 games under tracemalloc: make quick-test skips it; make test runs it
def test_results_stream_memory_does_not_grow_with_games(monkeypatch):
    """`eval random random --games 200000000` held a record per game and died
    of MemoryError. Counted as games end, the peak is the same for 10x the
    games, on both paths (arena chunks made small so that both sizes span
    several; no timing involved)."""
    import azuki.arena as A
    monkeypatch.setattr(A, "CHUNK", 256, raising=False)
    small = _peak(lambda: evaluate("random", "random", games=2000, seed=1))
    large = _peak(lambda: evaluate("random", "random", games=20000, seed=1))
    assert large < small * 1.3 + 64 * 1024, (small, large)
    small = _peak(lambda: evaluate(First(), "random", games=200, seed=1, n=8))
    large = _peak(lambda: evaluate(First(), "random", games=2000, seed=1, n=8))
    assert large < small * 1.3 + 64 * 1024, (small, large)
    # and the result holds no per-game list unless asked
    r = evaluate("random", "random", games=2000, seed=1)
    assert "outcomes" not in r and len(json.dumps(r)) < 4096
    assert len(evaluate("random", "random", games=20, seed=1, outcomes=True)["outcomes"]) == 20


def test_streamed_counts_equal_the_per_game_outcomes(monkeypatch):
    """Chunked counting (arena) and per-episode counting (VecGame) give the
    same blocks as counting the per-game outcomes."""
    import azuki.arena as A
    monkeypatch.setattr(A, "CHUNK", 6, raising=False)
    for a in ("greedy", First()):
        r = evaluate(a, "random", games=40, seed=3, n=4, outcomes=True)
        c = {k: r["outcomes"].count(k) for k in ("win", "loss", "draw", "truncated")}
        assert (r["wins"], r["losses"], r["draws"], r["truncated"]) == (c["win"], c["loss"], c["draw"], c["truncated"])
        assert sum(b["games"] for b in r["by_decks"].values()) == 40
        seat0 = [o for e, o in enumerate(r["outcomes"]) if e % 2 == 0]      # A in seat 0 in game 2k
        assert r["by_seat"]["seat 0"]["wins"] == seat0.count("win")


def test_cli_progress_on_stderr():
    r = run_cli("random", "random", "--games", "2000", "--progress", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 2000
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("eval: 2,000/2,000 games (100.0%)"), r.stderr
    q = run_cli("random", "random", "--games", "20", "--quiet")
    assert q.returncode == 0 and q.stderr == "", q.stderr


# ---- one compatibility check for every checkpoint loader (issue 24 §1) ----------------------------

def _fake_checkpoint(tmp_path, **hashes):
    """A checkpoint's JSON made for the embedded starter set (its weights file
    is never read: the check comes first and needs no torch)."""
    from azuki.policy_np import compat_hashes
    meta = {"format": 1, "arch": "flat", "model": {"hidden": 8}, "hashes": dict(compat_hashes(), **hashes),
            "train": {}, "extra": {}}
    (tmp_path / "ck.json").write_text(json.dumps(meta))
    (tmp_path / "ck.pt").write_bytes(b"weights")
    return tmp_path / "ck.pt"


def test_cli_eval_refuses_a_checkpoint_of_another_card_set(tmp_path):
    """`eval CKPT --cards OTHER.json` played a checkpoint trained on the
    starter set (play --cards refused it): now one line naming the card set."""
    ck = _fake_checkpoint(tmp_path)
    exp = REPO / "azuki" / "data" / "expansion.json"
    r = run_cli(ck, "random", "--cards", exp, "--decks", "EXP01-FIRE,EXP01-EARTH", "--games", "2")
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "card set" in lines[0] and "Traceback" not in r.stderr, r.stderr
    with pytest.raises(ValueError, match="card set"):
        check_player(str(ck), cards=str(exp))
    from azuki.policy_np import CheckpointError, load_numpy_policy
    with pytest.raises(CheckpointError, match="card set"):          # the numpy player (play) the same way
        load_numpy_policy(ck, cards=_core.CardSet.from_json(str(exp)))
    ck2 = _fake_checkpoint(tmp_path, obs_layout="0" * 16)
    with pytest.raises(ValueError, match="observation layout"):
        check_player(str(ck2))


def test_cli_ctrl_c_stops_a_long_evaluation_with_one_line():
    """`eval random random --games 200000000`: progress lines while it runs;
    Ctrl-C ends it between chunks with one line and status 130. The child sets
    its own SIGINT disposition (tests/test_signals.py); SIGINT is sent after
    the first progress line, so nothing depends on timing."""
    import signal
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from azuki.__main__ import main\n"
            "sys.exit(main(['eval', 'random', 'random', '--games', '200000000', '--progress']))\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    p = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=str(REPO), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        first = p.stderr.readline()
        assert first.startswith("eval: ") and "/200,000,000 games" in first, first
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=600)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, (out, err)
    assert err.strip().splitlines()[-1] == "eval: interrupted" and "Traceback" not in err, err

"""The policy bots (csrc/bot.c azk_pbot_act, docs/bots.md): `policy` plays a
loaded C policy alone, `psearch` runs PUCT information-set search with its
priors and value.

* specs: ``policy:PATH[:temp=T]``, ``psearch:PATH[:sims=N,cpuct=C,threads=K,
  prior_temp=T,value=V]`` (PATH ``reference`` = the shipped weights), parsed
  in one place (azuki.bots.parse_pbot_spec) and accepted by azuki.evaluate
  (and so ``azuki eval``); bad specs, settings and weight files refused with
  a one-line error;
* always legal, the game left unchanged, deterministic for a seed; sampling
  (temp > 0) draws from the bot's stream;
* no peeking: psearch decides the same on a position and on its resample from
  the bot's seat (the search bot's test, tests/test_search.py);
* play_games (the arena's C loop) plays them with the same choices as
  PolicyBot step by step.
Strength is a measurement (docs/bots.md), not a test.
"""
from __future__ import annotations

import numpy as np
import pytest

from azuki import Game, _core
from azuki.bots import PBOT_KINDS, PolicyBot, make_pbot, parse_pbot_spec
from azuki.policy_np import REFERENCE, CheckpointError, cpolicy_for
from scenario import greedy_positions

REF = REFERENCE + ".azkw"
SIMS = 6


@pytest.fixture(scope="module")
def cpol():
    return cpolicy_for(REF)


def test_specs():
    assert PBOT_KINDS == ("policy", "psearch")
    assert parse_pbot_spec("greedy") is None and parse_pbot_spec("search:sims=4") is None
    assert parse_pbot_spec("policy:reference") == ("policy", REF, {})
    assert parse_pbot_spec("psearch:x/y.azkw:sims=16,cpuct=2,value=0.5") == \
        ("psearch", "x/y.azkw", {"sims": 16, "cpuct": 2.0, "value": 0.5})
    assert parse_pbot_spec("policy:reference:temp=0.5")[2] == {"temp": 0.5}
    for bad in ("policy", "policy:", "psearch:reference:sims=0", "psearch:reference:bogus=1",
                "policy:reference:sims=4", "psearch:reference:sims=x", "psearch:reference:value=2"):
        with pytest.raises(ValueError):
            parse_pbot_spec(bad)
    assert set(_core.pbot_defaults("psearch")) == {"sims", "cpuct", "prior_temp", "value", "threads", "halving"}
    # the defaults search with the network (its priors and value head) and choose at the root by
    # sequential halving over the 8 likeliest actions (docs/bots.md); the network-free settings are a spec
    assert _core.pbot_defaults("psearch") == {"sims": 64, "cpuct": 1.5, "prior_temp": 1.0, "value": 1.0,
                                              "threads": 1, "halving": 8}
    assert _core.PBOT_VERSIONS["psearch"] == 2
    assert parse_pbot_spec("psearch:reference:halving=0")[2] == {"halving": 0}
    assert _core.pbot_defaults("psearch", {"halving": 0, "sims": 16}) == {**_core.pbot_defaults("psearch"),
                                                                         "halving": 0, "sims": 16}
    for bad in ({"halving": -1}, {"halving": _core.PSEARCH_MAX_HALVING + 1}, {"bogus": 1}):
        with pytest.raises(ValueError):
            _core.pbot_defaults("psearch", bad)
    assert parse_pbot_spec("psearch:reference:sims=16,halving=4,threads=2")[2] == {"sims": 16, "halving": 4, "threads": 2}
    assert parse_pbot_spec("psearch:reference:cpuct=1,prior_temp=1000,value=0")[2] == \
        {"cpuct": 1.0, "prior_temp": 1000.0, "value": 0.0}
    assert parse_pbot_spec("psearch:reference:sims=8,threads=2")[2] == {"sims": 8, "threads": 2}
    for bad in ("psearch:reference:threads=0", "psearch:reference:threads=1.5", "psearch:reference:sims=3,threads=4",
                "psearch:reference:threads=65", f"psearch:reference:sims=100,threads={_core.PSEARCH_MAX_THREADS + 1}",
                "policy:reference:threads=2", "psearch:reference:halving=-1", "psearch:reference:halving=1.5",
                f"psearch:reference:halving={_core.PSEARCH_MAX_HALVING + 1}", "policy:reference:halving=2"):
        with pytest.raises(ValueError):
            parse_pbot_spec(bad)


def test_bad_weight_files(tmp_path):
    with pytest.raises(CheckpointError, match="no such file"):
        cpolicy_for(tmp_path / "missing.azkw")
    b = open(REF, "rb").read()
    (tmp_path / "cut.azkw").write_bytes(b[: len(b) // 2])
    with pytest.raises(CheckpointError):
        make_pbot(f"policy:{tmp_path / 'cut.azkw'}")
    flipped = bytearray(b)
    flipped[len(b) // 3] ^= 0x40
    (tmp_path / "flip.azkw").write_bytes(bytes(flipped))
    with pytest.raises(CheckpointError):
        PolicyBot("psearch", tmp_path / "flip.azkw")
    from azuki.evaluate import check_player
    with pytest.raises((ValueError, CheckpointError)):
        check_player(f"psearch:{tmp_path / 'cut.azkw'}")


def test_legal_unchanged_deterministic(cpol):
    for kind, settings in (("policy", {}), ("policy", {"temp": 1.0}), ("psearch", {"sims": SIMS})):
        n = 0
        for g in greedy_positions(3, every=7):
            before = g.to_bytes()
            a = PolicyBot(kind, cpol, seed=5, **settings).act(g)
            assert a in g.legal_actions() and g.to_bytes() == before
            assert a == PolicyBot(kind, cpol, seed=5, **settings).act(g)
            n += 1
        assert n > 5


def test_greedy_policy_is_cpolicy_argmax(cpol):
    for g in greedy_positions(11, every=5):
        assert PolicyBot("policy", cpol).act(g) == int(cpol.act(g.observe(g.current_player), greedy=True)[0])


@pytest.mark.parametrize("threads", [1, 2])
def test_psearch_no_peeking(cpol, threads):
    """Same bot seed + same information set => same decision (tests/test_search.py's test), with one tree
    and with two (root parallelism: every tree sees only resampled states)."""
    checked = changed = 0
    for i, decks in enumerate([("STT01", "STT02"), ("STT02", "STT01")]):
        for g in greedy_positions(40 + i, decks, every=5):
            me = g.current_player
            v = g.clone()
            v.resample(me, 1000 * i + checked)
            assert (v.observe(me) == g.observe(me)).all()
            changed += v.to_bytes() != g.to_bytes()
            b1, b2 = (PolicyBot("psearch", cpol, seed=i, sims=SIMS, threads=threads) for _ in range(2))
            assert b1.act(g) == b2.act(v)
            assert (b1._rng == b2._rng).all()
            checked += 1
    assert checked >= 20 and changed >= checked * 0.8


def test_psearch_threads_deterministic(cpol):
    """Root parallelism (threads=K trees, the sims split between them, csrc/bot.c ps_run_trees): the same
    decisions and labels twice for a fixed seed and K; threads=1 is the one-tree search (its defaults'
    labels, byte for byte); threads=2 another search (other determinizations: its labels differ)."""
    differ = 0
    for g in greedy_positions(5, ("STT01", "STT02"), every=7):
        labs = {}
        for k in (1, 2):
            out = []
            for _ in range(2):
                a, v, vis = PolicyBot("psearch", cpol, seed=3, sims=9, threads=k).label(g)
                out.append((a, float(v), vis.tobytes()))
            assert out[0] == out[1]
            labs[k] = out[0]
        a, v, vis = PolicyBot("psearch", cpol, seed=3, sims=9).label(g)
        assert (a, float(v), vis.tobytes()) == labs[1]
        differ += labs[1] != labs[2]
    assert differ > 0


def test_play_games_equals_step_by_step(cpol):
    """The arena's C loop (play_games with policy bots) makes PolicyBot's choices."""
    settings = {"sims": 4}
    r = _core.play_games([7], [0], [1], [-1], [-2], [11], [12], pbots=[(cpol, "psearch", settings),
                                                                         (cpol, "policy", {"temp": 1.0})])
    g = Game(seed=7, decks=("STT01", "STT02"))
    bots = [PolicyBot("psearch", cpol, seed=0, **settings), PolicyBot("policy", cpol, seed=0, temp=1.0)]
    bots[0]._rng, bots[1]._rng = _core.bot_rng(11), _core.bot_rng(12)
    n = 0
    while not g.is_terminal:
        g.step(bots[g.current_player].act(g))
        n += 1
    assert int(r["decisions"][0]) == n and int(r["error"][0]) == 0
    assert int(r["winner"][0]) == (g.winner if g.winner is not None else -1)
    with pytest.raises(ValueError):
        _core.play_games([7], [0], [1], [-2], [0], [1], [2], pbots=[(cpol, "policy", {})])


def test_evaluate_accepts_policy_bots():
    from azuki.evaluate import evaluate
    r = evaluate("psearch:reference:sims=4", "random", games=2, seed=0)
    assert r["games"] == 2 if "games" in r else True
    r = evaluate("policy:reference", "greedy", games=2, seed=1)
    assert r["win_rate"]["games"] == 2


def test_arena_accepts_policy_bots(tmp_path):
    from azuki.arena import run_arena
    r = run_arena(("psearch:reference:sims=4", "greedy"), 4, seed=0, decks=["STT01", "STT02"])
    assert r["players"] == ["psearch:reference:sims=4", "greedy"] and r["errors"] == 0
    assert r["overall"]["games"] == 4
    assert r["bot_versions"]["psearch:reference:sims=4"] == _core.PBOT_VERSIONS["psearch"] == 2
    r2 = run_arena(("psearch:reference:sims=4", "greedy"), 4, seed=0, decks=["STT01", "STT02"], jobs=2)
    assert r2["overall"] == r["overall"]           # the same games whatever the threads
    with pytest.raises(CheckpointError):
        run_arena(("policy:" + str(tmp_path / "none.azkw"), "greedy"), 2)


def test_cli_arena_policy_bot_errors_are_one_line():
    import subprocess
    import sys
    for player, msg in (("psearch:reference:sims=0", "sims must be in"), ("policy:/no/such.azkw", "no such file")):
        p = subprocess.run([sys.executable, "-m", "azuki", "arena", "--players", player, "greedy", "--games", "2"],
                           capture_output=True, text=True)
        assert p.returncode != 0 and msg in p.stderr and "Traceback" not in p.stderr


def test_simulate_accepts_policy_bots():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "azuki", "simulate", "--games", "4", "--players", "policy:reference",
                        "greedy", "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    import json
    r = json.loads(p.stdout)
    assert r["players"] == ["policy:reference", "greedy"] and r["errors"] == 0
    assert sum(r["wins_by_side"]) + r["draws"] + r["truncated"] == 4
    q = subprocess.run([sys.executable, "-m", "azuki", "simulate", "--games", "2", "--players", "psearch:/no.azkw",
                        "greedy"], capture_output=True, text=True)
    assert q.returncode != 0 and "no such file" in q.stderr and "Traceback" not in q.stderr


def test_vecgame_pbot_opponent_threads_and_streams(cpol):
    """VecGame.pbot_opponent_actions: legal answers for the pending games, the same for 1 and 3 threads,
    equal to PolicyBot on each game's bot stream (the stream bot_opponent_actions uses)."""
    from azuki.evaluate import vec_bot_seed
    runs = []
    for threads in (1, 3):
        v = _core.VecGame(6, seed=3, pairings=[("STT01", "STT02")], mode="policy", threads=threads)
        rngs = {}
        trace = []
        for _ in range(40):
            a = np.zeros(6, dtype=np.int32)
            for r in np.nonzero(v.acting)[0]:
                a[r] = int(np.nonzero(v.masks[r])[0][0])
            v.step(a)
            eps = v.episodes()
            pend = np.nonzero(v.opp_pending)[0]
            expect = {}
            for r in pend:
                e = int(eps[r])
                rng = rngs.setdefault(e, _core.bot_rng(vec_bot_seed(3, e)))
                expect[int(r)] = _core.pbot_act(v.game(int(r)), cpol, "psearch", rng, {"sims": 3})
            o = v.pbot_opponent_actions(cpol, "psearch", {"sims": 3})
            for r in pend:
                assert v.opp_masks[r, o[r]] and o[r] == expect[int(r)]
            trace.append(o.copy())
            v.step_opponent(o)
        runs.append(np.stack(trace))
    assert (runs[0] == runs[1]).all()
    with pytest.raises(RuntimeError):
        _core.VecGame(2, mode="bot").pbot_opponent_actions(cpol, "policy")
    with pytest.raises(ValueError):
        _core.VecGame(2, mode="policy").pbot_opponent_actions(cpol, "psearch", {"sims": 0})


def test_evaluate_checkpoint_against_psearch_replays(tmp_path):
    """A batched player against psearch (VecGame mode="policy", answered by pbot_opponent_actions):
    the replays re-play each game alone with PolicyBot's choices and must match (evaluate raises
    otherwise)."""
    from azuki.evaluate import evaluate
    from azuki.policy_np import CPolicyPlayer
    pl = CPolicyPlayer(cpolicy_for(REF), greedy=True)
    r = evaluate(pl, "psearch:reference:sims=3", games=4, seed=2, n=4, replays=str(tmp_path))
    assert r["win_rate"]["games"] == 4 and len(list(tmp_path.glob("*.json"))) == 4


def test_weights_for_another_card_set_are_refused():
    """The compatibility hashes the weight file carries are checked (policy_np.check_compat) wherever a
    policy bot is loaded: the shipped reference against the expansion set is a CheckpointError."""
    import os
    from azuki.arena import run_arena
    exp = os.path.join(os.path.dirname(REF), "..", "expansion.json")
    with pytest.raises(CheckpointError, match="card set"):
        cpolicy_for(REF, _core.CardSet.from_json(exp))
    with pytest.raises(CheckpointError, match="card set"):
        run_arena(("psearch:reference", "greedy"), 2, cards=exp)

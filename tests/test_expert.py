"""Training from search (azuki.expert, docs/training.md "Expert iteration"): the search labels.

* _core.search_label / pbot_label (azuki.h azk_bot_search_label / azk_pbot_label): the same action
  and rng words as bot_act / pbot_act, visit shares over the legal actions summing to 1, the root's
  value in [0, 1] (-1 when no simulation ran); bad arrays refused with a clear error, nothing written;
* no peeking: a position and its resample from the labelled player's seat (only what that player
  cannot know changes) get the same labels byte for byte, for the search bot and psearch;
* label_dataset: deterministic for a seed, 1 thread == 2 threads byte for byte; value targets are
  the discounted outcome from the labelled player's seat;
* fit_labels (torch; skipped without it): the cross-entropy to the visits falls.
"""
from __future__ import annotations

import numpy as np
import pytest

from azuki import Game, _core
from azuki.bots import PolicyBot, SearchBot
from azuki import expert
from azuki.policy_np import REFERENCE, cpolicy_for
from scenario import greedy_positions

NA = _core.NUM_ACTIONS
PAIRINGS = [("STT01", "STT02"), ("STT02", "STT01"), ("STT01", "STT01")]


@pytest.fixture(scope="module")
def ref():
    return cpolicy_for(REFERENCE + ".azkw")


def _label(kind, g, seed, ref):
    vis = np.zeros(NA, dtype=np.float32)
    rng = _core.bot_rng(seed)
    if kind == "search":
        a, v = _core.search_label(g, rng, vis, sims=6)
    else:
        a, v = _core.pbot_label(g, ref, rng, vis, {"sims": 6})
    return a, v, vis, rng


@pytest.mark.parametrize("kind", ["search", "psearch"])
def test_label_is_the_decision_with_its_visits(kind, ref):
    n = simulated = 0
    for i, decks in enumerate(PAIRINGS):
        for g in greedy_positions(10 + i, decks):
            a, v, vis, rng = _label(kind, g, 5 + n, ref)
            r2 = _core.bot_rng(5 + n)
            b = (_core.bot_act(g, _core.bot_kind("search"), r2, sims=6) if kind == "search"
                 else _core.pbot_act(g, ref, "psearch", r2, {"sims": 6}))
            assert a == b and (rng == r2).all()
            legal = set(g.legal_actions().tolist())
            assert set(np.flatnonzero(vis).tolist()) <= legal and vis[a] > 0
            assert abs(float(vis.sum()) - 1.0) < 1e-5
            if v != -1.0:
                assert 0.0 <= v <= 1.0
                simulated += 1
            n += 1
    assert n >= 30 and simulated >= n // 2


@pytest.mark.parametrize("kind", ["search", "psearch"])
def test_labels_no_peeking(kind, ref):
    """Same seed + same information set => the same labels, byte for byte."""
    checked = changed = 0
    for i, decks in enumerate(PAIRINGS):
        for g in greedy_positions(30 + i, decks, every=3):
            me = g.current_player
            v = g.clone()
            v.resample(me, 77 + checked)
            assert (v.observe(me) == g.observe(me)).all()
            changed += v.to_bytes() != g.to_bytes()
            a1, v1, vis1, r1 = _label(kind, g, checked, ref)
            a2, v2, vis2, r2 = _label(kind, v, checked, ref)
            assert a1 == a2 and np.float32(v1).tobytes() == np.float32(v2).tobytes()
            assert vis1.tobytes() == vis2.tobytes() and (r1 == r2).all(), (decks, g.phase, g.turn)
            checked += 1
    assert checked >= 40 and changed >= checked * 0.9


def test_label_arguments_refused_nothing_written(ref):
    g = Game(seed=1)
    rng = _core.bot_rng(1)
    r0 = rng.copy()
    for bad in (np.zeros(NA, dtype=np.float64), np.zeros(NA - 1, dtype=np.float32),
                np.zeros((1, NA), dtype=np.float32), np.zeros(2 * NA, dtype=np.float32)[::2]):
        with pytest.raises(ValueError, match="visits must"):
            _core.search_label(g, rng, bad)
        with pytest.raises(ValueError, match="visits must"):
            _core.pbot_label(g, ref, rng, bad)
    ro = np.zeros(NA, dtype=np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _core.search_label(g, rng, ro)
    with pytest.raises(TypeError, match="visits must be"):
        _core.search_label(g, rng, [0.0] * NA)
    with pytest.raises(TypeError, match="rng"):
        _core.search_label(g, np.zeros(2, dtype=np.int64), np.zeros(NA, dtype=np.float32))
    vis = np.full(NA, 7.0, dtype=np.float32)
    with pytest.raises(ValueError, match="sims"):
        _core.search_label(g, rng, vis, sims=0)
    with pytest.raises(ValueError, match="sims"):
        _core.pbot_label(g, ref, rng, vis, {"sims": 0})
    assert (vis == 7.0).all() and (rng == r0).all()
    # bots: label() on SearchBot and psearch; policy refuses
    a, v, out = SearchBot(3, sims=4).label(g)
    assert a == SearchBot(3, sims=4).act(g) and out.dtype == np.float32 and abs(out.sum() - 1) < 1e-5
    a, v, out = PolicyBot("psearch", ref, seed=3, sims=4).label(g)
    assert a == PolicyBot("psearch", ref, seed=3, sims=4).act(g)
    with pytest.raises(ValueError, match="psearch"):
        PolicyBot("policy", ref, seed=3).label(g)


def test_parse_teacher():
    assert expert.parse_teacher("search:16") == ("search", 16)
    assert expert.parse_teacher("psearch:8") == ("psearch", 8)
    assert expert.parse_teacher("search") == ("search", _core.SEARCH_SIMS)
    for bad in ("greedy", "search:x", "search:0", "", None, "psearch:-1"):
        with pytest.raises(ValueError):
            expert.parse_teacher(bad)


def _same(d1, d2):
    for k in ("obs", "label_actions", "label_probs", "actions", "values", "search_values"):
        assert d1[k].tobytes() == d2[k].tobytes(), k
    assert d1["games"] == d2["games"] and d1["simulations"] == d2["simulations"]


@pytest.mark.parametrize("teacher", ["search:4", "psearch:4"])
def test_label_dataset_threads_byte_for_byte(teacher, ref):
    kw = {"policy": ref} if teacher.startswith("psearch") else {}
    d1 = expert.label_dataset(500, teacher, pairings=[("STT01", "STT02")], seed=3, threads=1, **kw)
    d2 = expert.label_dataset(500, teacher, pairings=[("STT01", "STT02")], seed=3, threads=2, **kw)
    _same(d1, d2)
    assert d1["games"] >= 2 and d1["simulations"] > 0
    assert np.allclose(d1["label_probs"].sum(1), 1.0, atol=1e-5)
    rows = np.arange(500)
    assert (d1["label_probs"][rows, 0] > 0).all()
    # the action played is among the labelled ones
    assert ((d1["label_actions"] == d1["actions"][:, None]).any(1)).all()
    # outcome targets: finished games give +-gamma^k, the cut last game 0
    assert (np.abs(d1["values"]) <= 1.0).all() and (np.abs(d1["values"]) > 0).any()
    d3 = expert.label_dataset(500, teacher, pairings=[("STT01", "STT02")], seed=4, threads=1, **kw)
    assert d3["obs"].tobytes() != d1["obs"].tobytes()


def test_label_dataset_arguments(ref):
    with pytest.raises(TypeError, match="CPolicy"):
        expert.label_dataset(10, "psearch:4")
    with pytest.raises(ValueError, match="psearch"):
        expert.label_dataset(10, "search:4", policy=ref)
    for kw in ({"decisions": 0}, {"decisions": 10, "threads": 0}, {"decisions": 10, "topk": 0}):
        with pytest.raises(ValueError):
            expert.label_dataset(**kw)


def test_fit_labels_lowers_the_cross_entropy():
    torch = pytest.importorskip("torch")
    from azuki.policy import make_policy
    torch.manual_seed(0)
    d = expert.label_dataset(400, "search:4", pairings=[("STT01", "STT02")], seed=1)
    pol = make_policy("structured:factored", hidden=32)
    first = expert.fit_labels(pol, d, epochs=1, batch=128, seed=0)
    last = expert.fit_labels(pol, d, epochs=3, batch=128, seed=0)
    assert np.isfinite(first["policy_loss"]) and last["policy_loss"] < first["policy_loss"]
    assert 0.0 <= last["agreement"] <= 1.0
    with pytest.raises(ValueError, match="played_weight"):
        expert.fit_labels(pol, d, played_weight=2)
    # topk smaller than the visited arms: the played action is kept
    d2 = expert.label_dataset(300, "search:16", pairings=[("STT01", "STT02")], seed=1, topk=2)
    assert ((d2["label_actions"] == d2["actions"][:, None]).any(1)).all()


def _ex(**kw):
    ex = {"decisions": 100, "teacher": "search:4", "every_steps": 1000, "epochs": 1, "batch": 64,
          "learning_rate": 0.001, "vf_coef": 0.5, "threads": 1, "topk": 16, "played_weight": 0.5,
          "prefetch": True}
    ex.update(kw)
    return ex


def test_expert_config_and_cadence():
    assert expert.check_config(_ex())["decisions"] == 100
    for bad in ({"decisions": -1}, {"every_steps": 1.5}, {"epochs": 0}, {"teacher": "greedy"}, {"topk": 0},
                {"learning_rate": "x"}, {"threads": True}, {"played_weight": 1.5}):
        with pytest.raises(ValueError):
            expert.check_config(_ex(**bad))
    with pytest.raises(ValueError, match="lacks"):
        expert.check_config({"decisions": 1})
    # rounds at multiples of every_steps, from the step count alone (a resumed run keeps the cadence)
    ex = _ex(every_steps=1000)
    assert [expert.round_mark(ex, s) for s in (0, 999, 1000, 2500)] == [0, 0, 1, 2]
    assert expert.round_mark(_ex(every_steps=0), 10 ** 9) == 0


@pytest.mark.parametrize("teacher", ["search:4", "psearch:4"])
def test_run_round_distills_into_the_policy(teacher):
    """One [expert] round: labels (psearch guided by the learner itself, exported to C) fitted in place."""
    torch = pytest.importorskip("torch")
    from azuki.policy import make_policy
    torch.manual_seed(0)
    pol = make_policy("structured:factored", hidden=32)
    before = [p.detach().clone() for p in pol.parameters()]
    logs = []
    r = expert.run_round(_ex(decisions=200, teacher=teacher), pol, seed=5, mark=1,
                         pairings=[("STT01", "STT02")], gamma=0.99, log=logs.append)
    assert r["round"] == 1 and r["decisions"] == 200 and r["simulations"] > 0 and r["games"] >= 1
    assert any(not torch.equal(a, b) for a, b in zip(before, pol.parameters()))
    assert any("expert round 1" in m for m in logs)


def test_played_weight_one_is_the_full_cross_entropy_to_the_played_action():
    """played_weight 1 takes the cheap path (the played action's log-probability): the same loss as
    the full-distribution cross-entropy to a one-hot target."""
    torch = pytest.importorskip("torch")
    from azuki.policy import make_policy
    d = expert.label_dataset(200, "search:4", pairings=[("STT01", "STT02")], seed=2)
    torch.manual_seed(0)
    p1 = make_policy("structured:factored", hidden=32)
    p2 = make_policy("structured:factored", hidden=32)
    p2.load_state_dict(p1.state_dict())
    r1 = expert.fit_labels(p1, d, epochs=1, batch=64, lr=0.0, seed=0, played_weight=1.0)
    r2 = expert.fit_labels(p2, d, epochs=1, batch=64, lr=0.0, seed=0, played_weight=1.0 - 1e-12)
    assert abs(r1["policy_loss"] - r2["policy_loss"]) < 1e-4


def test_teacher_games_follow_the_c_deal_schedule():
    """distill.teacher_game (the games of teacher_dataset and label_dataset)
    deals game i from the C schedule: each pairing twice in a row, the second
    time with seats swapped, cycling (what the hand-written schedule list of
    earlier versions gave, so datasets are unchanged)."""
    from azuki.distill import teacher_game
    pairs = [("STT01", "STT02"), ("STT02", "STT02")]
    old = [p for a, b in pairs for p in ((a, b), (b, a))]
    for i in range(12):
        g, _ = teacher_game(5, i, pairs, None)
        assert tuple(g.decks) == old[i % len(old)]

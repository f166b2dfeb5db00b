"""Kickstarting (azuki.distill, train.py's [kickstart]; docs/training.md
"Kickstarting"): the teacher's dataset is exactly its games, the value
targets are the discounted results PPO's returns count, the fit learns the
teacher's actions under the mask, bad teachers are refused before any work,
and a training run records what the kickstart did and never repeats it on
resume. No test reads a clock. Runs in .venv-puffer (torch); the dataset
tests need numpy only."""
import json

import numpy as np
import pytest

from azuki import _core, distill


def test_parse_teacher():
    assert distill.parse_teacher("greedy") == ("greedy", None)
    assert distill.parse_teacher("search") == ("search", None)
    assert distill.parse_teacher("search:16") == ("search", 16)
    for bad in ("", "nobody", "greedy:3", "search:x", "search:0", None, 3):
        with pytest.raises(ValueError):
            distill.parse_teacher(bad)


def test_dataset_is_the_teachers_games_and_deterministic():
    d = distill.teacher_dataset(600, "greedy", seed=3)
    e = distill.teacher_dataset(600, "greedy", seed=3)
    assert all(np.array_equal(d[k], e[k]) for k in ("obs", "actions", "values")) and d["games"] == e["games"]
    f = distill.teacher_dataset(600, "greedy", seed=4)
    assert not np.array_equal(d["actions"], f["actions"])
    assert d["obs"].shape == (600, _core.OBS_LEN) and d["obs"].dtype == np.uint8
    # replay: every recorded action is the greedy bot's choice and legal in the recorded observation
    from azuki.envs import mask_from_obs
    masks = mask_from_obs(d["obs"])
    assert masks[np.arange(600), d["actions"]].all()
    # the first game again, decision by decision (the bot's rng from bot_seed_for(seed, game))
    g = _core.Game(seed=int(_core.splitmix64((3 * 1_000_003) & ((1 << 64) - 1))), decks=("STT01", "STT02"))
    rng = _core.bot_rng(_core.bot_seed_for(3, 0))
    i = 0
    while not g.is_terminal:
        assert np.array_equal(g.observe(g.current_player), d["obs"][i])
        a = _core.bot_act(g, _core.bot_kind("greedy"), rng)
        assert a == d["actions"][i]
        g.step(a)
        i += 1


@pytest.mark.parametrize("teacher,decisions", [("greedy", 1500), ("greedy", 77), ("search:2", 300)])
def test_threads_give_the_same_dataset(teacher, decisions):
    """The games are played on several threads and put together in game order: the dataset
    (observations, actions, value targets, the game cut at the budget) is threads=1's."""
    d = distill.teacher_dataset(decisions, teacher, seed=7)
    assert not d["values"][-1]                                   # the last game is cut: no result
    for threads in (2, 3):
        e = distill.teacher_dataset(decisions, teacher, seed=7, threads=threads)
        assert all(np.array_equal(d[k], e[k]) for k in ("obs", "actions", "values")), threads
        assert d["games"] == e["games"]


def test_value_targets_are_discounted_results_per_player():
    gamma = 0.9
    d = distill.teacher_dataset(400, "greedy", seed=1, gamma=gamma)
    g = _core.Game(seed=int(_core.splitmix64((1 * 1_000_003) & ((1 << 64) - 1))), decks=("STT01", "STT02"))
    rng = _core.bot_rng(_core.bot_seed_for(1, 0))
    who = []
    while not g.is_terminal:
        who.append(g.current_player)
        g.step(_core.bot_act(g, _core.bot_kind("greedy"), rng))
    w = g.winner
    n = len(who)
    assert n < 400
    for i, p in enumerate(who):
        left = sum(1 for q in who[i + 1:] if q == p)
        z = 0.0 if w is None else (1.0 if w == p else -1.0)
        assert d["values"][i] == pytest.approx(z * gamma ** left, rel=1e-6)
    # the game cut at the budget learns no result
    d2 = distill.teacher_dataset(n - 5, "greedy", seed=1, gamma=gamma)
    assert not d2["values"].any()


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        distill.teacher_dataset(0, "greedy")
    with pytest.raises(ValueError):
        distill.teacher_dataset(10, "nobody")
    with pytest.raises(ValueError):
        distill.teacher_dataset(10, "greedy", pairings=[])
    with pytest.raises(ValueError, match="threads"):
        distill.teacher_dataset(10, "greedy", threads=0)


torch = pytest.importorskip("torch")


@pytest.mark.parametrize("arch", ["structured:factored", "flat:dense"])
def test_fit_learns_the_teachers_actions(arch):
    from azuki.policy import make_policy
    torch.manual_seed(0)
    p = make_policy(arch, hidden=32)
    d = distill.teacher_dataset(1500, "greedy", seed=0)
    before = distill.fit(make_policy(arch, hidden=32), d, epochs=1, lr=0.0, seed=0)   # lr 0: an untrained policy
    r = distill.fit(p, d, epochs=6, batch=256, lr=3e-3, seed=0)
    assert r["policy_loss"] < before["policy_loss"]
    assert r["agreement"] > before["agreement"] + 0.1


def test_training_run_records_the_kickstart_and_resume_does_not_repeat_it(tmp_path):
    pytest.importorskip("pufferlib")
    from azuki import train as T
    from test_train import tiny_config
    cfg = tiny_config()
    cfg["kickstart"].update({"decisions": 300, "epochs": 1, "batch": 128})
    lines = []
    s = T.train(cfg, tmp_path / "run", log=lines.append)
    ks = s["kickstart"]
    assert ks["teacher"] == "greedy" and ks["decisions"] == 300 and ks["games"] >= 1
    assert any(line.startswith("kickstart: 300 greedy decisions") for line in lines)
    meta = json.loads((tmp_path / "run" / "checkpoint" / "latest.json").read_text())
    assert meta["train"]["kickstart"]["decisions"] == 300
    cfg2 = tiny_config(steps=4096)
    lines2 = []
    s2 = T.train(cfg2, tmp_path / "run", resume=tmp_path / "run", log=lines2.append)
    assert s2["steps"] >= 4096 and not any(line.startswith("kickstart") for line in lines2)


def test_a_bad_teacher_stops_the_run_before_any_work(tmp_path):
    pytest.importorskip("pufferlib")
    from azuki import train as T
    from test_train import tiny_config
    cfg = tiny_config()
    cfg["kickstart"].update({"decisions": 10, "teacher": "nobody"})
    with pytest.raises(Exception, match="nobody"):
        T.train(cfg, tmp_path / "run", log=lambda s: None)
    assert not (tmp_path / "run" / "checkpoint").exists()
    cfg = tiny_config()
    cfg["kickstart"].update({"decisions": 10, "threads": 0})
    with pytest.raises(ValueError, match="kickstart.threads"):
        T.train(cfg, tmp_path / "run2", log=lambda s: None)
    assert not (tmp_path / "run2" / "checkpoint").exists()


def test_ctrl_c_during_the_kickstart_says_so_and_exits_130(tmp_path):
    """Importing pufferl installs a SIGINT handler that exits silently with
    status 0; during the kickstart (before the loop's own handler) Ctrl-C
    must instead say what happened and exit 130. The child's SIGINT handler
    is installed explicitly, so this holds when the caller ignores SIGINT
    (nohup ... &)."""
    import os
    import signal
    import subprocess
    import sys
    pytest.importorskip("pufferlib")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "azuki", "train", "--minutes", "0", "--steps", "2048",
                          "--out", str(tmp_path / "r"), "--set", "policy.hidden=16",
                          "--set", "kickstart.decisions=2000", "--set", "kickstart.epochs=100000"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=str(tmp_path))
    seen = []
    for line in p.stdout:
        seen.append(line)
        if line.startswith("kickstart: 2,000 greedy decisions"):
            break
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=120)
    assert p.returncode == 130, "".join(seen) + out
    assert "interrupted during the kickstart" in out
    assert not (tmp_path / "r" / "checkpoint" / "latest.json").exists()

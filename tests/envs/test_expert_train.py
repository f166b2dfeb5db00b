"""[expert] in `azuki train` (azuki/expert.py, docs/training.md "Expert iteration"): label rounds
(search self-play labels distilled into the learner) before PPO and every `every_steps` agent-steps,
the search bot in the league, and a run SIGKILLed mid-way then resumed: the rounds already done stay
in the checkpoint, the round before PPO is not repeated, and the cadence continues from the step
count. Budgets are agent-steps; no clock. Runs in .venv-puffer (torch, pufferlib)."""
import json

import pytest

pytest.importorskip("pufferlib")
pytest.importorskip("torch")

from envs_helpers import TINY as _TINY, run_train  # noqa: E402

# envs_helpers.TINY (128 agent-steps per epoch, a checkpoint after every epoch) with a pool of 2,
# short label rounds and the search bot in the league
TINY = [s for s in _TINY if not s.startswith("league.pool_size")] + [
    "league.pool_size=2", "expert.decisions=120", "expert.teacher=\"search:2\"", "expert.every_steps=256",
    "expert.epochs=1", "expert.batch=64", "expert.threads=1", "league.opponents=[\"random\", \"greedy\", \"search\"]",
    "expert.quiet_end=0.0"]


def _train(cwd, *args, kill=None):
    return run_train(cwd, *args, sets=TINY, kill=kill)


def _rounds(run):
    meta = json.loads((run / "checkpoint" / "latest.json").read_text())
    return [r["round"] for r in meta["extra"]["expert"]], meta["extra"]["steps"]


def test_rounds_league_and_resume_after_a_kill(tmp_path):
    run = tmp_path / "run"
    # killed (SIGKILL) right after its 5th PPO epoch: the checkpoint of the 4th epoch is the last committed
    p = _train(tmp_path, "--steps", "2048", "--out", str(run), kill="train.epoch@5")
    assert p.returncode != 0
    assert "expert round 0:" in p.stdout, p.stdout + p.stderr
    done, steps = _rounds(run)
    assert done[0] == 0 and done == sorted(set(done)) and steps >= 256
    assert done[-1] == steps // 256          # a round each time the steps crossed a multiple of 256
    p = _train(tmp_path, "--steps", "1536", "--resume", str(run))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "expert round 0:" not in p.stdout           # the round before PPO is not repeated
    again, steps2 = _rounds(run)
    assert again[:len(done)] == done and steps2 >= 1536
    assert again == list(range(0, steps2 // 256 + 1))  # every due round once, in order, across the kill
    s = json.loads((run / "summary.json").read_text())
    assert s["expert"]["rounds"] == len(again) and s["expert"]["simulations"] > 0
    assert s["expert"]["teacher"] == "search:2"
    assert s["games"].get("search", 0) > 0              # the search bot played in the league


def test_no_round_starts_in_the_budgets_quiet_end(tmp_path):
    """expert.quiet_end: no label round starts in the last fraction of the budget (here a quarter
    of 1,536 agent-steps: the rounds due at 1,280 and 1,536 steps are not run), said once in the
    log; the rounds before it run on their cadence."""
    run = tmp_path / "run"
    p = run_train(tmp_path, "--steps", "1536", "--out", str(run), sets=TINY + ["expert.quiet_end=0.25"])
    assert p.returncode == 0, p.stdout + p.stderr
    done, steps = _rounds(run)
    assert done == [0, 1, 2, 3, 4] and steps >= 1536
    assert p.stdout.count("PPO only (expert.quiet_end)") == 1 and "expert round 5: not run" in p.stdout


def test_near_end_reads_either_budget():
    from azuki.expert import near_end
    inf = float("inf")
    ex = {"quiet_end": 0.1}
    assert not near_end(ex, 530.0, 600.0, 10**9, None)            # 70 s of 600 left
    assert near_end(ex, 545.0, 600.0, 0, None)                    # 55 s left: the last 10 %
    assert not near_end(ex, 0.0, inf, 890, 1000) and near_end(ex, 0.0, inf, 910, 1000)
    assert near_end(ex, 0.0, 600.0, 950, 1000)                    # either budget's end
    assert not near_end({"quiet_end": 0.0}, 599.0, 600.0, 999, 1000)
    assert not near_end({}, 599.0, 600.0, 999, 1000)               # a config saved before the key


@pytest.mark.parametrize("bad", [1.0, -0.1, True, "0.1"])
def test_a_bad_quiet_end_is_refused(bad):
    from azuki.expert import check_config
    from azuki import train as T
    ex = dict(T.load_config(overrides=["expert.decisions=10"])["expert"], quiet_end=bad)
    with pytest.raises(ValueError, match="expert.quiet_end"):
        check_config(ex)


def test_bad_expert_config_stops_before_any_work(tmp_path):
    from azuki import train as T
    cfg = T.load_config(overrides=["expert.decisions=10", "expert.teacher=\"greedy\"", "kickstart.decisions=0"])
    with pytest.raises(ValueError, match="expert teacher"):
        T.train(cfg, tmp_path / "run", log=lambda s: None)
    assert not (tmp_path / "run" / "checkpoint").exists()


def test_prefetched_rounds_train_the_same_run(tmp_path):
    """expert.prefetch (a "search" teacher's next round labelled on a background thread, during the
    kickstart and PPO) changes when the labels are made, not what they are: the same seed trains the
    same weights with it on and off, and the summary says how long the background took."""
    import torch

    from azuki import train as T
    from azuki.policy import load_checkpoint

    def cfg(prefetch):
        sets = [s for s in TINY if not s.startswith("league.opponents")] + [
            "run.steps=768", "kickstart.decisions=100", "kickstart.epochs=1", f"expert.prefetch={str(prefetch).lower()}"]
        return T.load_config(overrides=sets)
    logs = {True: [], False: []}
    a = T.train(cfg(True), tmp_path / "a", log=logs[True].append)
    b = T.train(cfg(False), tmp_path / "b", log=logs[False].append)
    assert a["steps"] == b["steps"] and a["expert"]["rounds"] == b["expert"]["rounds"] >= 3
    assert a["expert"]["background_seconds"] > 0 and b["expert"]["background_seconds"] == 0
    assert any(m.startswith("expert round 0:") and "in the background" in m for m in logs[True]), logs[True]
    assert not any("in the background" in m for m in logs[False])
    pa, _ = load_checkpoint(a["checkpoint"])
    pb, _ = load_checkpoint(b["checkpoint"])
    for (k, va), (_, vb) in zip(pa.state_dict().items(), pb.state_dict().items()):
        assert torch.equal(va, vb), k


def test_prefetch_is_for_search_teachers_and_cancels():
    """A psearch teacher (guided by the policy of the moment) is never labelled ahead; a round in flight
    is cancelled (cancel(), or start() of another round) and its thread ends; take() of a round never
    started is None (the caller labels in the foreground); a bad prefetch value is refused."""
    from azuki import expert
    from azuki import train as T
    ex = T.load_config(overrides=["expert.decisions=100000", "expert.teacher=\"search:64\""])["expert"]
    p = expert.Prefetch(expert.check_config(ex), 0, [("STT01", "STT02")], 0.99)
    assert p.on and p.take(3) is None
    p.start(1)
    t = p._job[1]
    p.start(2)                    # another round: the first is cancelled, its thread joined
    assert not t.is_alive() and p._job[0] == 2
    t2 = p._job[1]
    p.cancel()
    assert not t2.is_alive() and p.take(2) is None
    ps = expert.Prefetch(expert.check_config(dict(ex, teacher="psearch:8")), 0, [("STT01", "STT02")], 0.99)
    ps.start(1)
    assert not ps.on and ps.take(1) is None
    with pytest.raises(ValueError, match="prefetch"):
        expert.check_config(dict(ex, prefetch=1))

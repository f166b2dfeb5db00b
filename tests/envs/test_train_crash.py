"""Training runs lose nothing (docs/training.md, "Checkpoints" and "Resume"):
SIGKILLs at named moments inside checkpoint saves and at seeded-random
epochs, then resumes that must all succeed and continue the step count; a
save that fails (RLIMIT_FSIZE, a full disk) ends the process with one line
and a non-zero status instead of hanging; `--resume RUN` continues in RUN
with its config and league. No clock anywhere: kills come from the test hook
AZUKI_TEST_KILL=POINT@N (azuki.policy_np._test_kill), budgets are agent-steps,
and subprocess timeouts only detect hangs. Runs in .venv-puffer."""
import json
import random
import resource
import signal

import pytest

pytest.importorskip("pufferlib")
pytest.importorskip("torch")

from azuki.policy import load_checkpoint  # noqa: E402
from envs_helpers import TINY, run_train  # noqa: E402

EPOCH = 128            # agent-steps of one epoch of envs_helpers.TINY


def _train(cwd, *args, sets=TINY, kill=None, limit_fsize=None):
    pre = None
    if limit_fsize is not None:
        def pre():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a write past the limit raises EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
    return run_train(cwd, *args, sets=sets, kill=kill, preexec_fn=pre)


def _committed_steps(run):
    js = run / "checkpoint" / "latest.json"
    if not js.exists():
        return None
    return json.loads(js.read_text())["extra"]["steps"]


def _resumed_steps(stdout):
    for line in stdout.splitlines():
        if line.startswith("resumed from "):
            return int(line.split(": ", 1)[1].split(" steps")[0].replace(",", ""))
    return None


# the named moments inside a save (azuki.policy_np.commit_checkpoint and azuki.train's save) and one
# outside any save (after an epoch's PPO update)
POINTS = ["save.tmp_written", "save.data_file", "save.prev_written", "save.committed", "save.snapshot",
          "save.exported", "train.epoch"]


def test_sigkill_at_any_moment_loses_nothing(tmp_path):
    rng = random.Random(24)
    kills = [(p, rng.randint(1, 4)) for p in POINTS] + [(rng.choice(POINTS), rng.randint(1, 6)) for _ in range(5)]
    rng.shuffle(kills)
    assert len(kills) >= 10 and sum(p.startswith("save.") for p, _ in kills) >= 6
    run = tmp_path / "run"
    best = None                # the highest step count any committed latest.json has shown
    log = []
    for point, n in kills:
        before = _committed_steps(run)
        # a budget of 10 more epochs: every kill point comes before it (a save, and a snapshot, every epoch)
        budget = (before or 0) + 10 * EPOCH
        args = ["--steps", str(budget)] + (["--resume", str(run)] if before is not None else ["--out", str(run)])
        p = _train(tmp_path, *args, kill=f"{point}@{n}")
        log.append(f"{point}@{n}: rc {p.returncode}, committed before {before}")
        assert p.returncode == -signal.SIGKILL, "\n".join(log) + "\n" + p.stdout[-3000:] + p.stderr[-3000:]
        if before is not None:         # the resume read the committed checkpoint and went on from its steps
            assert _resumed_steps(p.stdout) == before, "\n".join(log) + "\n" + p.stdout[-3000:]
        after = _committed_steps(run)
        if after is not None:
            assert best is None or after >= best, "\n".join(log)     # a commit is never lost
            best = after
            load_checkpoint(run / "checkpoint" / "latest")     # and it is complete
    assert best is not None and best >= EPOCH, "\n".join(log)
    # a last resume without a kill runs to its budget and exits cleanly, with the league
    target = best + 2 * EPOCH
    p = _train(tmp_path, "--resume", str(run), "--steps", str(target))
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert _resumed_steps(p.stdout) == best
    meta = json.loads((run / "checkpoint" / "latest.json").read_text())
    assert meta["extra"]["steps"] >= target
    order = meta["extra"]["league"]["order"]
    assert order
    for name in order:           # every snapshot the league names is on disk, complete
        load_checkpoint(run / "checkpoint" / name)
    assert not (tmp_path / "runs").exists()


def test_a_failing_save_ends_the_run_with_one_line(tmp_path):
    """`ulimit -f`: the first checkpoint write fails (EFBIG). Before: a
    traceback, then a hang (PuffeRL's Utilization thread never stopped)."""
    p = _train(tmp_path, "--out", str(tmp_path / "r"), "--steps", str(10 * EPOCH),
               sets=[s for s in TINY if not s.startswith("policy.hidden")] + ["policy.hidden=64"],
               limit_fsize=64 * 1024)       # the weights (5,840 x 64 floats) cannot be written
    assert p.returncode not in (0, None) and p.returncode > 0, p.stdout[-2000:] + p.stderr[-3000:]
    err = p.stderr.strip().splitlines()
    assert err and err[-1].startswith("error: train: saving the checkpoint"), p.stderr[-3000:]
    assert "File too large" in err[-1], err[-1]          # the cause, named (EFBIG)
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    assert not (tmp_path / "r" / "checkpoint" / "latest.json").exists()


def test_resume_continues_in_its_run_with_its_league_and_config(tmp_path):
    """`train --resume RUN` (docs/training.md's form: no --out, no --set):
    continues in RUN, with RUN's config (here hidden=16, not the default 256)
    and its league's snapshots. Before: a new runs/azuki-DATE, the default
    config (a state-dict traceback), the snapshots dropped."""
    run = tmp_path / "run"
    p = _train(tmp_path, "--out", str(run), "--steps", str(2 * EPOCH))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    first = json.loads((run / "checkpoint" / "latest.json").read_text())["extra"]
    assert first["league"]["order"]
    p = _train(tmp_path, "--resume", str(run), "--steps", str(first["steps"] + EPOCH), sets=[])
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    assert _resumed_steps(p.stdout) == first["steps"]
    assert not (tmp_path / "runs").exists()
    meta = json.loads((run / "checkpoint" / "latest.json").read_text())
    assert meta["model"]["hidden"] == 16 and meta["extra"]["steps"] >= first["steps"] + EPOCH
    order = meta["extra"]["league"]["order"]
    kept = [n for n in first["league"]["order"] if n in order]
    assert kept and order[:len(kept)] == kept          # the old snapshots are still in the pool (oldest first)
    assert meta["extra"]["league"]["made"] > first["league"]["made"]
    assert "left out of the pool" not in p.stdout
    # told otherwise (--out NEW): the league's snapshots come along into NEW
    p = _train(tmp_path, "--resume", str(run), "--out", str(tmp_path / "new"), "--steps",
               str(meta["extra"]["steps"] + EPOCH), sets=[])
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    new = json.loads((tmp_path / "new" / "checkpoint" / "latest.json").read_text())["extra"]
    assert any(n in new["league"]["order"] for n in order)
    for name in new["league"]["order"]:
        load_checkpoint(tmp_path / "new" / "checkpoint" / name)


def test_resume_falls_back_to_the_previous_complete_checkpoint(tmp_path):
    """A latest.json whose data file is damaged (here: truncated, as a failing
    disk might leave it) is skipped, with the reason, and the resume goes on
    from latest.prev.json, the checkpoint before."""
    from azuki import train as T
    cfg = T.load_config(overrides=TINY + ["run.checkpoint_minutes=1000.0"])      # one save per call: at its end
    cfg["run"].update(minutes=0.0, steps=EPOCH)
    run = tmp_path / "run"
    T.train(cfg, run, log=lambda m: None)
    cfg["run"]["steps"] = 2 * EPOCH
    T.train(cfg, run, resume=run, log=lambda m: None)
    ck = run / "checkpoint"
    latest = json.loads((ck / "latest.json").read_text())
    prev = json.loads((ck / "latest.prev.json").read_text())
    assert prev["extra"]["steps"] < latest["extra"]["steps"]
    weights = ck / latest["files"]["weights"]["file"]
    weights.write_bytes(weights.read_bytes()[:100])
    lines = []
    cfg["run"]["steps"] = latest["extra"]["steps"] + EPOCH
    s = T.train(cfg, run, resume=run, log=lines.append)
    assert any(m.startswith("resume: skipped") and "incomplete" in m for m in lines), lines
    assert any(m.startswith("resumed from") and "latest.prev.json" in m
               and f"{prev['extra']['steps']:,} steps" in m for m in lines), lines
    assert s["steps"] >= cfg["run"]["steps"]

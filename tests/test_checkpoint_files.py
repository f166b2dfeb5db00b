"""The checkpoint commit protocol (azuki.policy_np.commit_checkpoint,
resolve_checkpoint; docs/training.md "Checkpoints: the commit protocol"),
numpy only: a process SIGKILLed at any named moment of a save leaves a
complete checkpoint (the old or the new one), the next save cleans up after
it, a failing write changes nothing, and a reader falls back to the previous
checkpoint when the newest names a damaged file. The training-level kill test
is tests/envs/test_train_crash.py."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from azuki.policy_np import CheckpointError, commit_checkpoint, resolve_checkpoint  # noqa: E402

# one save of generation `step` (weights and "optimizer" files of 64 KiB each); run as a child process
SAVE = """
import sys
from azuki.policy_np import commit_checkpoint
base, step = sys.argv[1], int(sys.argv[2])
def writer(tag):
    def w(tmp):
        with open(tmp, "wb") as f:
            f.write(bytes([step % 256, tag]) * 32768)
    return w
commit_checkpoint(base, {"weights": (".pt", writer(1)), "optimizer": (".opt.pt", writer(2))},
                  {"format": 1, "extra": {"steps": step}})
"""


def _save(base, step, kill=None):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("AZUKI_TEST_KILL", None)
    if kill:
        env["AZUKI_TEST_KILL"] = kill
    return subprocess.run([sys.executable, "-c", SAVE, str(base), str(step)], env=env, capture_output=True,
                          text=True, timeout=120)


def _steps(base):
    meta, files, js, _ = resolve_checkpoint(base)
    for role, tag in (("weights", 1), ("optimizer", 2)):
        data = Path(files[role]).read_bytes()
        assert data == bytes([meta["extra"]["steps"] % 256, tag]) * 32768, (role, js)   # the files of that save
    return meta["extra"]["steps"]


@pytest.mark.parametrize("point,n", [("save.tmp_written", 1), ("save.tmp_written", 2), ("save.tmp_written", 3),
                                     ("save.data_file", 1), ("save.data_file", 2), ("save.prev_written", 1),
                                     ("save.tmp_written", 4), ("save.committed", 1)])
def test_a_save_killed_at_any_moment_leaves_a_complete_checkpoint(tmp_path, point, n):
    base = tmp_path / "latest"
    for step in (1, 2):
        assert _save(base, step).returncode == 0
    p = _save(base, 3, kill=f"{point}@{n}")
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert _steps(base) == (3 if point == "save.committed" else 2)      # the old checkpoint, or the new one
    assert _save(base, 4).returncode == 0 and _steps(base) == 4          # the next save goes through ...
    names = sorted(os.listdir(tmp_path))
    assert not [f for f in names if f.endswith(".tmp")], names          # ... and removes what the kill left
    assert len([f for f in names if f.endswith(".opt.pt")]) == 2, names   # two generations: latest, prev


def test_a_failing_write_changes_nothing(tmp_path):
    base = tmp_path / "latest"
    assert _save(base, 1).returncode == 0
    before = {f: (tmp_path / f).read_bytes() for f in os.listdir(tmp_path)}

    def fail(tmp):
        with open(tmp, "wb") as f:
            f.write(b"partial")
        raise OSError(28, "No space left on device")
    with pytest.raises(OSError, match="No space"):
        commit_checkpoint(base, {"weights": (".pt", lambda tmp: open(tmp, "wb").close()),
                                 "optimizer": (".opt.pt", fail)}, {"format": 1, "extra": {"steps": 2}})
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
    assert {f: (tmp_path / f).read_bytes() for f in before} == before and _steps(base) == 1


def test_a_damaged_newest_falls_back_to_the_previous(tmp_path):
    base = tmp_path / "latest"
    for step in (1, 2):
        assert _save(base, step).returncode == 0
    meta = json.loads((tmp_path / "latest.json").read_text())
    opt = tmp_path / meta["files"]["optimizer"]["file"]
    opt.write_bytes(b"")                            # the 0-byte optimizer file of issue 24
    meta2, _, js, skipped = resolve_checkpoint(base)
    assert meta2["extra"]["steps"] == 1 and js.endswith("latest.prev.json")
    assert skipped and "incomplete" in skipped[0] and opt.name in skipped[0]
    with pytest.raises(CheckpointError, match="incomplete"):
        resolve_checkpoint(base, fallback=False)
    (tmp_path / "latest.prev.json").write_text("{")
    with pytest.raises(CheckpointError, match="incomplete.*not JSON"):
        resolve_checkpoint(base)

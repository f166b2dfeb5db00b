"""The learner-side measuring tools (docs/training.md, "Speed"): bench/profile_train.py's
per-part timers find every part of the learner they name (the rollout's forward and sampling,
the learn phase's forward, sampling, backward and optimizer step: a renamed PuffeRL or policy
method would leave a row silently empty), and bench/learner_micro.py's --breakdown and
--pufferl modes run. Each in a subprocess (the profiler patches classes process-wide); tiny
configs; nothing here reads a time. Runs in .venv-puffer; skipped elsewhere."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pufferlib")
pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
TINY = ["env.envs=2", "env.games_per_env=16", "ppo.bptt_horizon=8", "ppo.minibatch_size=128",
        "policy.hidden=32", "run.threads=1", "kickstart.decisions=0"]    # (the kickstart is timed by no row)


def _run(args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return r.stdout


def _rows(out):
    """{label: ms} of the profile's table."""
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^(\s*\S.*?)\s+(-?\d+\.\d)$", line)
        if m:
            rows[m.group(1).strip()] = float(m.group(2))
    return rows


def test_profile_train_times_every_learner_part():
    """With the update on one thread (ppo.learner_threads = 1, PuffeRL's own) and the rollout in torch
    (ppo.c_rollout = false) every part is timed; with 2 (the default, azuki.envs.ppo_update) the update's
    total is, under its own label, and the learner acting in C (the default) under the forward's."""
    args = ["bench/profile_train.py", "512"]
    for s in TINY:
        args += ["--set", s]
    two = _rows(_run(args + ["--set", "ppo.learner_threads=2"]))
    assert two.get("learn (azuki.envs.ppo_update, 2 threads)", 0.0) > 0.0, two
    assert two.get("learner forward (Policy.forward_eval; C: + sampling)", 0.0) > 0.0, two
    assert "forward (Policy.forward)" not in two        # its parts run on two threads at once: not listed
    rows = _rows(_run(args + ["--set", "ppo.learner_threads=1", "--set", "ppo.c_rollout=false"]))
    for label in ("learner forward (Policy.forward_eval; C: + sampling)", "sampling (azuki.sampler.sample_logits)",
                  "forward (Policy.forward)", "log-probabilities + entropy (sample_logits)", "backward",
                  "gradient clipping + optimizer step"):
        assert rows.get(label, 0.0) > 0.0, (label, rows)
    learn = rows["learn (PuffeRL.train)"]
    parts = [rows[k] for k in ("forward (Policy.forward)", "log-probabilities + entropy (sample_logits)",
                               "backward", "gradient clipping + optimizer step")]
    assert sum(parts) <= learn + 0.2       # the parts lie inside the phase (rounding: 0.1 ms each)


@pytest.mark.parametrize("mode", ["--breakdown", "--pufferl"])
def test_learner_micro_modes_run(mode):
    out = _run(["bench/learner_micro.py", mode, "--rows", "1024", "--minibatch", "512", "--reps", "1",
                "--threads", "1", "--hidden", "32", "--archs", "structured:factored"])
    if mode == "--breakdown":
        assert "train: backward" in out and "rollout: sampling" in out
    else:
        assert "CPU ratio PuffeRL / bare" in out


def test_learner_micro_splits_the_update_across_threads():
    out = _run(["bench/learner_micro.py", "--rows", "1024", "--minibatch", "512", "--reps", "1", "--threads", "1",
                "--learner-threads", "2", "--hidden", "32", "--archs", "structured:factored", "flat:dense"])
    assert "learner threads 2" in out
    assert out.count("agent-steps/s") == 2, out

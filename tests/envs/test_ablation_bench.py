"""bench/ablation.py (docs/training.md "Ablation"): its patches do what its rows say (PuffeRL's
own sampler behind the masked-sampling hook; snapshot opponents played by the torch forward),
a tiny run goes through its child mode with both, and its tables come out of a results file.
Each patch in a subprocess (they change azuki process-wide); nothing here reads a time. Runs
in .venv-puffer; skipped elsewhere."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pufferlib")
pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "ablation.py"


def _py(code):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return r.stdout


PRELUDE = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("ablation", {str(SCRIPT)!r})
ab = importlib.util.module_from_spec(spec); spec.loader.exec_module(ab)
"""


def test_puffer_sampler_patch_routes_dense_logits_to_pufferls_own_sampler():
    out = _py(PRELUDE + """
import torch, pufferlib.pytorch
from azuki.envs import pufferl_adapter
calls = []
orig = pufferlib.pytorch.sample_logits
def counting(logits, action=None):
    calls.append(1)
    return orig(logits, action)
pufferlib.pytorch.sample_logits = counting
ab.apply("puffer-sampler")
logits = torch.full((4, 8), -1e9); logits[:, :3] = 0.0
with pufferl_adapter.masked_sampling():
    a, logp, ent = pufferlib.pytorch.sample_logits(logits)
assert len(calls) == 1, calls
assert bool((a < 3).all()), a
print("ok")
""")
    assert out.strip().endswith("ok")


def test_torch_snapshots_patch_leaves_the_c_forward_out():
    out = _py(PRELUDE + """
import azuki.train
ab.apply("torch-snapshots")
cp, why = azuki.train.c_forward(object())
assert cp is None and "torch" in str(why)
try:
    ab.apply("no-such-patch")
except SystemExit as e:
    assert "unknown patch" in str(e)
else:
    raise AssertionError("an unknown patch was accepted")
print("ok")
""")
    assert out.strip().endswith("ok")


def test_child_mode_trains_with_both_patches(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    args = [sys.executable, str(SCRIPT), "--child", "puffer-sampler,torch-snapshots", "--", "train",
            "--minutes", "0", "--steps", "1024", "--seed", "0", "--quiet", "--out", str(tmp_path / "run"),
            "--arch", "structured"]
    for s in ["env.envs=2", "env.games_per_env=16", "ppo.bptt_horizon=8", "ppo.minibatch_size=128",
              "policy.hidden=32", "run.threads=1", "kickstart.decisions=0", "eval.final_games=0", "eval.games=2",
              "league.snapshot_steps=256"]:
        args += ["--set", s]
    r = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "plays in torch" in r.stdout            # the snapshots went to the torch forward
    s = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert s["steps"] >= 1024


def test_tables_from_a_results_file(tmp_path):
    rows = [{"row": "old-flat", "seed": 0, "steps_per_second": 4000,
             "random": {"rate": 0.99, "ci95": [0.98, 1.0], "games": 1000},
             "greedy": {"rate": 0.40, "ci95": [0.37, 0.43], "games": 1000},
             "search": {"rate": 0.05, "ci95": [0.03, 0.09], "games": 200}},
            {"row": "old-flat", "seed": 1, "steps_per_second": 5000,
             "random": {"rate": 0.97, "ci95": [0.96, 0.98], "games": 1000},
             "greedy": {"rate": 0.50, "ci95": [0.47, 0.53], "games": 1000}},
            {"row": "speed-default", "seed": 0, "steps_per_second": 3000},
            {"row": "speed-env-threads-2", "seed": 0, "steps_per_second": 3300}]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    r = subprocess.run([sys.executable, str(SCRIPT), "--out", str(tmp_path), "--seeds", "0,1", "--table"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "| old-flat | 0,1 | 4,500 | 98.0 % (99.0, 97.0) | 45.0 % (40.0, 50.0) | 5.0 % [3.0, 9.0] |" in r.stdout
    assert "| speed-env-threads-2 | 0 | 3,300 (3,300) | 1.10 |" in r.stdout

"""`python -m azuki bench` (azuki/bench.py): runs, and reports every row.
Timing is measured, never asserted (benchmarks live in bench/ and here)."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from azuki import bench


def test_run_bench_reports_every_row():
    exp = Path(bench.__file__).resolve().parent / "data" / "expansion.json"
    r = bench.run_bench(reps=2, games=20, py_games=2, micro_reps=500, vec_steps=2048, seed=3, cards=exp,
                        train_steps=512, train_overrides=bench.QUICK_TRAIN, policy_obs=10)
    med = r["median"]
    assert r["cards"]["decks"] == ["STT01", "STT02", "EXP01-FIRE", "EXP01-EARTH"]
    optional = set()
    try:
        import pufferlib  # noqa: F401
    except ImportError:     # the AzukiEnv rows need pufferlib (.venv-puffer)
        optional |= {"env_native_per_s", "env_serial_per_s", "env_serial_mask_per_s", "env_mp_per_s"}
    if importlib.util.find_spec("torch") is None:      # the torch policy rows beside the C ones
        optional |= {"torch_forward_ns", "torch_act_ns", "cpolicy_forward_speedup", "cpolicy_act_speedup"}
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("pufferlib") is None:
        optional |= {"train_per_s", "train_steps"}       # the training row: skipped with a note
        assert any("training row skipped" in n and "not installed" in n for n in r["notes"])
        assert "training row skipped" in bench.format_table(r)
    else:
        assert r["notes"] == [] and med["train_steps"] >= 512
    labels = {k: label for k, label, *_ in bench._ROWS}
    assert len(set(labels.values())) == len(bench._ROWS)         # every row can be told apart
    for key, *_ in bench._ROWS:
        if key in optional:
            assert key not in med and f"| {labels[key]:<60} |" not in bench.format_table(r)
            continue
        assert key in med and med[key] > 0, key
    # the observation's size and the bytes per agent-step come from the layout in use
    from azuki.envs import OBS_LEN
    assert med["obs_bytes"] == OBS_LEN and med["vec_bytes"] >= 2 * OBS_LEN
    assert len(r["runs"]) == 2
    assert med["state_bytes"] < 4096 and med["serialized_bytes"] < med["state_bytes"]
    table = bench.format_table(r)
    assert "engine-only random legal decisions" in table and "calibration loop" in table


def test_run_bench_rejects_bad_counts():
    with pytest.raises(ValueError):
        bench.run_bench(reps=0)
    with pytest.raises(ValueError):
        bench.run_bench(train_steps=-1)


def test_training_row_failure_is_a_note(monkeypatch):
    """A training run that fails (e.g. a policy mid-change) leaves the row
    out with the failure's last line, never a traceback or a wrong figure."""
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("pufferlib") is None:
        assert "not installed" in bench._train_rate(256, 1)["_note"]
        return
    note = bench._train_rate(256, 1, ["policy.arch=nosuch"])["_note"]
    assert note.startswith("training row skipped: azuki train failed") and "arch" in note


def test_cli_quick_json():
    out = subprocess.run([sys.executable, "-m", "azuki", "bench", "--quick", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["median"]["decisions_per_s"] > 0

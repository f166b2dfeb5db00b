"""`python -m azuki bench` (azuki/bench.py): runs, and reports every row.
Timing is measured, never asserted (benchmarks live in bench/ and here)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from azuki import bench


def test_run_bench_reports_every_row():
    exp = Path(bench.__file__).resolve().parent / "data" / "expansion.json"
    r = bench.run_bench(reps=2, games=20, py_games=2, micro_reps=500, vec_steps=2048, seed=3, cards=exp)
    med = r["median"]
    assert r["cards"]["decks"] == ["STT01", "STT02", "EXP01-FIRE", "EXP01-EARTH"]
    try:
        import pufferlib  # noqa: F401
        optional = set()
    except ImportError:     # the AzukiEnv rows need pufferlib (.venv-puffer)
        optional = {"env_native_per_s", "env_serial_per_s", "env_serial_mask_per_s", "env_mp_per_s"}
    for key, *_ in bench._ROWS:
        if key in optional:
            assert key not in med and key not in bench.format_table(r)
            continue
        assert key in med and med[key] > 0, key
    assert len(r["runs"]) == 2
    assert med["state_bytes"] < 4096 and med["serialized_bytes"] < med["state_bytes"]
    table = bench.format_table(r)
    assert "engine-only random legal decisions" in table and "calibration loop" in table


def test_run_bench_rejects_bad_counts():
    with pytest.raises(ValueError):
        bench.run_bench(reps=0)


def test_cli_quick_json():
    out = subprocess.run([sys.executable, "-m", "azuki", "bench", "--quick", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["median"]["decisions_per_s"] > 0

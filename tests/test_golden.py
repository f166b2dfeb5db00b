"""Golden playthroughs (tests/golden/playthroughs, regenerate with
`python tools/regen_golden.py`) and replay files (docs/replays.md)."""
import json
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import regen_golden  # noqa: E402

from azuki.replay import Recorder, record_random_game, verify_replay  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("seed, d0, d1", regen_golden.GAMES)
def test_playthrough_matches_golden(seed, d0, d1):
    path = regen_golden.OUT / f"seed{seed}_{d0}_{d1}.json"
    want = json.loads(path.read_text())
    got = regen_golden.playthrough(seed, d0, d1)
    for a, b in zip(got["steps"], want["steps"]):
        assert a == b, f"{path.name}: first divergence at step {a['step']}:\n got  {a}\n want {b}"
    assert len(got["steps"]) == len(want["steps"]) and got["result"] == want["result"]
    assert regen_golden.render(got) == path.read_text()


def test_replay_round_trip(tmp_path):
    rep = record_random_game(12)
    ok, msg = verify_replay(rep)
    assert ok, msg
    p = tmp_path / "r.json"
    p.write_text(json.dumps(rep))
    r = subprocess.run([sys.executable, "-m", "azuki", "replay", str(p)], capture_output=True, text=True)
    assert r.returncode == 0 and "verified" in r.stdout


def test_replay_reports_first_divergence(tmp_path):
    rep = record_random_game(13)
    rep["steps"][17]["hash"] = "0" * 16
    ok, msg = verify_replay(rep)
    assert not ok and "step 17" in msg
    rep = record_random_game(13)
    rep["steps"][5]["action"] = 1055 if rep["steps"][5]["action"] != 1055 else 0
    ok, msg = verify_replay(rep)
    assert not ok and "step 5" in msg
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(rep))
    r = subprocess.run([sys.executable, "-m", "azuki", "replay", str(p)], capture_output=True, text=True)
    assert r.returncode == 1 and "diverged at step 5" in r.stdout


def test_recorder_wraps_a_game():
    rec = Recorder(seed=3)
    for _ in range(10):
        rec.step(int(rec.game.legal_actions()[0]))
    d = rec.to_dict()
    assert len(d["steps"]) == 10 and d["format"] == "azuki-replay/1"
    assert verify_replay(d)[0]

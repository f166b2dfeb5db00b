"""PCG32 through azuki._core against the golden vectors of the independent
reference (tools/pcg32_reference.py; the C test checks the same file)."""
import json
import pathlib
import subprocess
import sys

import numpy as np

from azuki._core import rng_bounded, rng_outputs, rng_shuffle

ROOT = pathlib.Path(__file__).resolve().parent.parent
V = json.loads((ROOT / "tests" / "golden" / "rng_vectors.json").read_text())


def test_published_demo():
    assert [hex(x) for x in rng_outputs(42, 54, 6)] == [
        "0xa15c02b7", "0x7b47f409", "0xba1d3330", "0x83d2f293", "0xbfa4784b", "0xcbed606e"]


def test_streams_match_reference():
    for s in V["streams"]:
        out = rng_outputs(s["initstate"], s["initseq"], 1000)
        assert out.dtype == np.uint32
        assert out.tolist() == s["outputs"]


def test_bounded_draws_match_reference():
    b = V["bounded"]
    bounds = [d["bound"] for d in b["draws"] for _ in range(100)]
    got = rng_bounded(b["initstate"], b["initseq"], bounds).tolist()
    want = [x for d in b["draws"] for x in d["values"]]
    assert got == want
    assert all(x < bd for x, bd in zip(got, bounds))


def test_shuffle_matches_reference():
    sh = V["shuffle"]
    perm, nxt = rng_shuffle(sh["initstate"], sh["initseq"], 50)
    assert perm.tolist() == sh["output"]
    assert nxt == sh["next_output_after"]
    assert sorted(perm.tolist()) == list(range(50))


def test_vectors_are_fresh():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "pcg32_reference.py"), "--check"], capture_output=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_bad_arguments():
    import pytest
    with pytest.raises(ValueError):
        rng_shuffle(1, 2, 300)
    with pytest.raises(ValueError):
        rng_bounded(1, 2, [2**33])
    with pytest.raises(ValueError):     # negative seeds: ValueError, not OverflowError
        rng_outputs(-1, 0, 3)

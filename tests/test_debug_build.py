"""Debug builds check what game.h promises (issue: architecture §3): with
-DAZK_DEBUG every azk_step ends with the invariant checker (AZK_ASSERT), and a
violated invariant stops the program with file and line; release builds
(-DNDEBUG) compile the checks away and run on silently."""
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = re.findall(r"\S+\.c", (ROOT / "csrc" / "sources.mk").read_text())


def build(tmp_path, flag):
    exe = tmp_path / ("prog" + flag.replace("-", "_"))
    cmd = ["gcc", "-std=c11", "-O1", flag, "-I", str(ROOT / "csrc"), "-I", str(ROOT / "generated"), "-o", str(exe),
           str(ROOT / "tests" / "c" / "debug" / "corrupt_then_step.c")] + [str(ROOT / s) for s in SOURCES] + ["-lm"]   # libm: csrc/policy.c
    subprocess.run(cmd, check=True, capture_output=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)


pytestmark = pytest.mark.slow    # compile tests: make quick-test skips them, make test runs them


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_debug_build_asserts_invariants_after_every_step(tmp_path):
    r = build(tmp_path, "-DAZK_DEBUG")
    assert r.returncode != 0
    assert "azuki assertion failed: azk_check_invariants(g, cs) == 0" in r.stderr
    assert "stepped" not in r.stdout


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_release_build_has_no_asserts(tmp_path):
    r = build(tmp_path, "-DNDEBUG")
    assert r.returncode == 0 and r.stdout == "stepped\n" and r.stderr == ""

"""No test depends on the signal dispositions it inherits (issue 24 §4).

`nohup make test &` (any background job of a non-interactive shell) starts
pytest with SIGINT ignored, and every child inherits that: Python then never
installs its KeyboardInterrupt handler. A test that sends SIGINT to a child,
or relies on Ctrl-C, must set the disposition it needs itself (in the child,
or with signal.signal in-process and restored). This file finds every such
test by reading the test sources (a test function that mentions SIGINT,
KeyboardInterrupt or send_signal) and runs them in a pytest whose SIGINT is
ignored: they must pass there too. tools/test.sh runs this file in the RL
world as well, where the training CLI's Ctrl-C test is not skipped."""
import ast
import pathlib
import re
import signal
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORDS = ("SIGINT", "KeyboardInterrupt", "send_signal")


def signal_tests():
    """Node ids (relative to the repository) of every test function under
    tests/ whose source mentions one of WORDS; a file that mentions them
    outside any test function counts for every test of that file that it
    cannot rule out (so nothing is missed by calling a helper)."""
    ids = []
    for f in sorted((ROOT / "tests").rglob("test_*.py")):
        if f.resolve() == pathlib.Path(__file__).resolve():
            continue
        src = f.read_text()
        if not any(w in src for w in WORDS):
            continue
        tree = ast.parse(src)
        tests = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name.startswith("test_")]
        hits = [n for n in tests if any(w in ast.get_source_segment(src, n) for w in WORDS)]
        # a module-level mention (a child script, a helper): the tests that use that name are affected too
        helpers = {n.targets[0].id if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) else
                   getattr(n, "name", None) for n in tree.body
                   if not (isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test_"))
                   and any(w in (ast.get_source_segment(src, n) or "") for w in WORDS)} - {None}
        hits += [n for n in tests if n not in hits and any(re.search(rf"\b{re.escape(h)}\b",
                                                                     ast.get_source_segment(src, n))
                                                           for h in helpers)]
        assert hits, f"{f}: mentions {WORDS} but no test function does: list its tests here by hand"
        ids += [f"{f.relative_to(ROOT).as_posix()}::{n.name}" for n in hits]
    return ids


def test_the_signal_tests_are_found():
    ids = signal_tests()
    assert "tests/test_boundary.py::test_simulate_ctrl_c_without_progress_callback" in ids, ids
    assert "tests/envs/test_train.py::test_ctrl_c_saves_a_checkpoint_and_exits_cleanly" in ids, ids


@pytest.mark.slow    # reruns the signal tests (they run in make quick-test as usual): make test runs it
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_signal_tests_pass_with_sigint_ignored():
    """Every signal test passes in a pytest started with SIGINT ignored (as
    under `nohup ... &`). Those that cannot run here (the RL world's, without
    torch) are skipped by that pytest as usual; at least one must run."""
    ids = signal_tests()

    def ignore_sigint():
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    files = sorted({i.split("::")[0] for i in ids})      # files and -k: a node id in a skipped module is an error
    names = " or ".join(sorted({i.split("::")[1] for i in ids}))
    # -P: the checkout is not put on sys.path, so a world with an installed wheel (.venv-puffer) tests the wheel
    p = subprocess.run([sys.executable, "-P", "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *files, "-k", names],
                       cwd=ROOT,
                       preexec_fn=ignore_sigint, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0 and re.search(r"\b[1-9]\d* passed", p.stdout), p.stdout[-4000:] + p.stderr[-2000:]

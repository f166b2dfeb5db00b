"""The recipes of docs/extending.md, proven: a test-only keyword (TESTKW) and a
test-only opcode (TESTOP) are added to a copy of the tree exactly as the
recipes say (a line in a .def file; the opcode's VM case, which vm.c keeps
under AZK_TEST_EXTENSIONS), and nothing else is touched:

* the C core builds (-Wall -Werror) and tests/c/ext/test_extension.c passes:
  the keyword is a status bit of its own (no alias with FROZEN / SHOCKED),
  the opcode verifies (generated operand checks) and runs;
* without its VM case the opcode does not compile (the VM's switch is
  exhaustive): a forgotten case is a build failure, not a silent no-op;
* the Python side (azuki.convert) picks both up from the .def files: the
  status names, the opcode's operand kinds, the compiler's operand checks
  and the generated azuki/spec_autogen.py.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = re.findall(r"\S+\.c", (ROOT / "csrc" / "sources.mk").read_text())
KEYWORD = 'AZK_KEYWORD(TESTKW, "test only: no rules meaning")'
OPCODE = 'AZK_OP(TESTOP, (T, DUR), FIELD, "test only: T[a] gets the TESTKW status for duration b")'

pytestmark = [pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc"), pytest.mark.slow]  # compiles


def _append_after_last(text, prefix, line):
    lines = text.splitlines(keepends=True)
    last = max(i for i, s in enumerate(lines) if s.startswith(prefix))
    lines.insert(last + 1, line + "\n")
    return "".join(lines)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of csrc/, generated/, tests/c/ and azuki/ (Python sources only),
    with the keyword and the opcode appended to the .def files."""
    t = tmp_path_factory.mktemp("ext")
    for d in ("csrc", "generated", "tests/c"):
        shutil.copytree(ROOT / d, t / d)
    shutil.copytree(ROOT / "azuki", t / "azuki", ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    shutil.copy(ROOT / "azuki" / "_core.pyx", t / "azuki" / "_core.pyx")
    enums = t / "csrc" / "azk_enums.def"
    enums.write_text(_append_after_last(enums.read_text(), "AZK_KEYWORD(", KEYWORD))
    ops = t / "csrc" / "azk_opcodes.def"
    ops.write_text(_append_after_last(ops.read_text(), "AZK_OP(", OPCODE))
    return t


def _gcc(tree, *args):
    cmd = ["gcc", "-std=c11", "-O0", "-Wall", "-Wextra", "-Werror", "-I", str(tree / "csrc"),
           "-I", str(tree / "generated"), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_keyword_and_opcode_build_and_run(tree):
    exe = tree / "test_extension"
    r = _gcc(tree, "-DAZK_DEBUG", "-DAZK_TEST_EXTENSIONS", "-o", str(exe),
             str(tree / "tests" / "c" / "ext" / "test_extension.c"), *[str(tree / s) for s in SOURCES], "-lm")   # libm: policy.c
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == "ok\n", run.stdout + run.stderr


def test_opcode_without_its_vm_case_does_not_compile(tree):
    r = _gcc(tree, "-fsyntax-only", str(tree / "csrc" / "vm.c"))   # no -DAZK_TEST_EXTENSIONS: no case
    assert r.returncode != 0
    assert "AZK_OP_TESTOP" in r.stderr and "not handled in switch" in r.stderr


def test_opcode_without_operand_list_does_not_compile(tree, tmp_path):
    bad = tmp_path / "csrc"
    shutil.copytree(tree / "csrc", bad)
    ops = bad / "azk_opcodes.def"
    ops.write_text(ops.read_text().replace(OPCODE, 'AZK_OP(TESTOP, FIELD, "no operand list")'))
    r = subprocess.run(["gcc", "-std=c11", "-fsyntax-only", "-DAZK_TEST_EXTENSIONS", "-I", str(bad), "-I",
                        str(tree / "generated"), str(bad / "vm.c")], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "AZK_OP" in r.stderr


def test_python_side_reads_both(tree):
    code = r"""
import sys
from azuki.convert import defs
from azuki.convert.abilities import OPS, STATUSES, Compiler
assert defs.def_files()[0].parent.parent == __import__("pathlib").Path(sys.argv[1]), defs.def_files()
assert list(STATUSES)[-3:] == ["TESTKW", "FROZEN", "SHOCKED"], STATUSES
op = OPS["TESTOP"]
assert op.code == len(OPS) - 1 and op.kinds == ("T", "DUR") and op.props == "FIELD" and op.nbytes == 2
c = Compiler({}, {})
c._emit("x", "TESTOP", 3, 0)
assert bytes(c.out.bytecode) == bytes([op.code, 3, 0])
for bad in ((4, 0), (0, 99)):
    try:
        c._emit("x", "TESTOP", *bad)
    except AssertionError:
        pass
    else:
        raise SystemExit(f"operands {bad} accepted")
from azuki.convert import spec_source
src = spec_source()
n = list(STATUSES).index("TESTKW")   # after every real keyword (more keep being appended)
assert f"STATUS_TESTKW = {n}" in src and f"STATUS_FROZEN = {n + 1}" in src and f"KEYWORD_TESTKW = {n}" in src, src
assert "OP_TESTOP = " in src
print("ok")
"""
    env = dict(os.environ, PYTHONPATH=str(tree))
    r = subprocess.run([sys.executable, "-c", code, str(tree)], capture_output=True, text=True, env=env,
                       cwd=str(tree), timeout=60)
    assert r.returncode == 0 and r.stdout == "ok\n", r.stdout + r.stderr

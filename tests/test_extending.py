"""The recipes of docs/extending.md, proven. The keyword and opcode recipes: a
test-only keyword (TESTKW) and a
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

The observation-field, bot and action-parameter-kind recipes (a field
TESTOBS, a bot "first", a kind TESTKIND used by a never-legal TEST_PICK) are
applied to a second copy, built once; tests/c/ext/test_recipe_*.c check each
in C, and the Python side reads the field and the kind from the .def files
(the kind all the way to Game.action_str's text and the page's words).
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


# ---- the recipes for an observation field, a bot and an action parameter kind ----------------
# One copy of the tree gets all three (they touch different lines), built once
# into objects; each recipe's test links its own tests/c/ext/test_recipe_*.c.
# Every edit is made in the copy only; a line the recipe names that is gone
# from the real file fails here with the recipe's name (the doc is stale).

PARAM_KIND = 'AZK_ACTION_PARAM(TESTKIND, "test only: an index into the acting player\'s discard pile")'
PARAM_READ = 'AZK_ACTION_PARAM_READ(TESTKIND, INDEX, SELF, DISCARD, "p<me>.discard[v]")'
PARAM_ACTION = 'AZK_ACTION(TEST_PICK, AZK_DISCARD_CAP, 1, TESTKIND, NONE, "test only: never legal")'
OBS_FIELD = 'AZK_OBS(TESTOBS, 2, 1, NUM, AZK_HAND_CAP, "test only: the hand sizes again")'
OBS_WRITE = "        o[AZK_OO_TESTOBS + s] = num8(pl->hand_n);"


def _edit(path, recipe, old, new, count=1):
    """Replace `old` (a str, or a compiled regex) in `path` once."""
    text = path.read_text()
    if isinstance(old, str):
        assert text.count(old) == count, f"{recipe}: {path.name} no longer has {old!r}: update docs/extending.md"
        text = text.replace(old, new)
    else:
        text, n = old.subn(new, text)
        assert n == count, f"{recipe}: {path.name} no longer matches {old.pattern!r}: update docs/extending.md"
    path.write_text(text)


def _insert_after_line(path, recipe, startswith, line):
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    hits = [i for i, s in enumerate(lines) if s.startswith(startswith)]
    assert hits, f"{recipe}: {path.name} has no line starting {startswith!r}: update docs/extending.md"
    lines.insert(hits[-1] + 1, line + "\n")
    path.write_text("".join(lines))


def apply_param_kind_recipe(t):
    r = "adding an action parameter kind"
    d = t / "csrc" / "azk_actions.def"
    _insert_after_line(d, r, "AZK_ACTION_PARAM(", PARAM_KIND)
    _insert_after_line(d, r, "AZK_ACTION_PARAM_READ(", PARAM_READ)
    _insert_after_line(d, r, "AZK_ACTION(", PARAM_ACTION)      # an action that uses it
    # nothing else: azk_describe's param_card reads the kind's AZK_ACTION_PARAM_READ line (actions.c)


def apply_obs_field_recipe(t):
    r = "adding an observation field"
    d = t / "csrc" / "azk_obs.def"
    text = d.read_text()
    assert "\nAZK_OBS(MASK," in text, f"{r}: azk_obs.def has no MASK field: update docs/extending.md"
    d.write_text(text.replace("\nAZK_OBS(MASK,", "\n" + OBS_FIELD + "\nAZK_OBS(MASK,", 1))
    _insert_after_line(t / "csrc" / "obs.c", r, "        o[AZK_OO_HAND_N + s] =", OBS_WRITE)
    _edit(t / "csrc" / "azuki.h", r, re.compile(r"#define AZK_OBS_VERSION (\d+)"),
          lambda m: f"#define AZK_OBS_VERSION {int(m.group(1)) + 1}")


def apply_bot_recipe(t):
    r = "adding a bot"
    h = t / "csrc" / "azuki.h"
    _edit(h, r, re.compile(r"#define AZK_BOT_COUNT (\d+)"),
          lambda m: f"#define AZK_BOT_FIRST {m.group(1)}  /* test only: the first legal action */\n"
                    f"#define AZK_BOT_COUNT {int(m.group(1)) + 1}")
    b = t / "csrc" / "bot.c"
    _edit(b, r, re.compile(r'(names\[AZK_BOT_COUNT\] = \{[^}]*)\}'), r'\1, "first"}')
    _edit(b, r, re.compile(r"(int azk_bot_version\(int kind\) \{\n)"), r"\1    if (kind == AZK_BOT_FIRST) return 1;\n")
    _edit(b, r, re.compile(r"(    int a;\n    if \(kind == AZK_BOT_RANDOM\) \{)"),
          "    int a;\n"
          "    if (kind == AZK_BOT_FIRST) {\n"
          "        int32_t legal[AZK_NUM_ACTIONS_];\n"
          "        if (azk_legal_actions(g, cs, legal, AZK_NUM_ACTIONS_) <= 0) return -(int)AZK_ERR_ARG;\n"
          "        a = legal[0];\n"
          "    } else if (kind == AZK_BOT_RANDOM) {")


@pytest.fixture(scope="module")
def recipes(tmp_path_factory):
    """A copy of the tree with the three recipes applied, its C core compiled
    into objects (-Wall -Wextra -Werror)."""
    t = tmp_path_factory.mktemp("recipes")
    for d in ("csrc", "generated", "tests/c"):
        shutil.copytree(ROOT / d, t / d)
    shutil.copytree(ROOT / "azuki", t / "azuki", ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    apply_param_kind_recipe(t)
    apply_obs_field_recipe(t)
    apply_bot_recipe(t)
    objs = []
    for s in SOURCES:
        o = t / (pathlib.Path(s).stem + ".o")
        r = _gcc(t, "-DAZK_DEBUG", "-c", "-o", str(o), str(t / s))
        assert r.returncode == 0, f"{s}: {r.stderr}"
        objs.append(str(o))
    return t, objs


def _run_recipe_test(recipes, name):
    t, objs = recipes
    exe = t / name
    r = _gcc(t, "-DAZK_DEBUG", "-o", str(exe), str(t / "tests" / "c" / "ext" / f"{name}.c"), *objs, "-lm")
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout == "ok\n", run.stdout + run.stderr


def _run_python(t, code):
    env = dict(os.environ, PYTHONPATH=str(t))
    r = subprocess.run([sys.executable, "-c", code, str(t)], capture_output=True, text=True, env=env,
                       cwd=str(t), timeout=120)
    assert r.returncode == 0 and r.stdout.endswith("ok\n"), r.stdout + r.stderr


def test_param_kind_recipe_builds_and_describes(recipes):
    _run_recipe_test(recipes, "test_recipe_param")


def test_param_kind_recipe_reaches_python_text_and_words(recipes):
    """After `make regen`, Game.describe's location, Game.action_str's text
    and the page's words read the new kind from the declaration alone."""
    t, _ = recipes
    _run_python(t, r"""
import sys, pathlib
from azuki.convert import spec_source
(pathlib.Path(sys.argv[1]) / "azuki" / "spec_autogen.py").write_text(spec_source())   # make regen
import importlib
from azuki import spec_autogen as S
S = importlib.reload(S)              # azuki.convert had read the old one
from azuki import text as T
from azuki.web import words as W
assert S.ACTION_PARAM[-1] == "TESTKIND" and S.ACTION[-1] == "TEST_PICK", (S.ACTION_PARAM, S.ACTION)
assert T.param_location("TESTKIND", 2, 1) == "p1.discard[2]"
p = {"param": 0, "kind": "TESTKIND", "value": 2, "where": "p1.discard[2]", "name": "Crate Rat Kurobo"}
d = {"type": "TEST_PICK", "player": 1, "params": [p], "ability": None, "option": None}
assert T.describe_str(d) == "TEST_PICK p1.discard[2] Crate Rat Kurobo", T.describe_str(d)
label = W.Words({}).action(d, 1)
assert label == "Test pick Crate Rat Kurobo (your discard pile)", label
assert W.action_places(d) == ["p1.discard[2]"]
print("ok")
""")


def test_obs_field_recipe_builds_and_observes(recipes):
    _run_recipe_test(recipes, "test_recipe_obs")


def test_obs_field_recipe_reaches_python(recipes):
    t, _ = recipes
    _run_python(t, r"""
from azuki.convert import spec_source
src = spec_source()
assert "OBS_TESTOBS = " in src and src.index("OBS_TESTOBS = ") < src.index("OBS_MASK = "), src
print("ok")
""")


def test_bot_recipe_builds_and_plays(recipes):
    _run_recipe_test(recipes, "test_recipe_bot")


def test_bot_recipe_needs_nothing_in_python():
    """The binding lists the bots from the C library (azk_bot_num_kinds,
    azk_bot_name): a new bot is a name azuki knows after `make venv`."""
    src = "".join(p.read_text() for p in sorted((ROOT / "azuki").glob("_*.px[ix]")))
    assert re.search(r"BOT_KINDS = tuple\(azk_bot_name\(k\)\.decode\(\) for k in range\(azk_bot_num_kinds\(\)\)\)", src)

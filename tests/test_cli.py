"""The two command-line tools as a new user meets them: `python -m azuki` and
`python -m azuki.convert`, run as subprocesses (exit status, stdout, stderr
and the file system observed exactly as a shell sees them).

* --help shows the module docstring and, for every option, help text with
  its default;
* a bad value is one `error: ...` line on stderr, exit status 2, never a
  traceback;
* a closed stdout (`... | head -1`) ends the program quietly;
* `python -m azuki.convert my.json` validates and reports; it no longer
  rewrites the embedded default set's generated files.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "azuki" / "data" / "cards.json"
sys.path.insert(0, str(REPO))


def run(module, *args, cwd=REPO, pythonpath=REPO, stdout=subprocess.PIPE):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(pythonpath) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], cwd=str(cwd), env=env,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)


def assert_one_line_error(r, *fragments):
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    assert r.stdout == "", r.stdout


# ---- help ------------------------------------------------------------------------------

def _parsers():
    import azuki.__main__ as top
    import azuki.convert.__main__ as conv
    ap = top.build_parser()
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return [("python -m azuki", ap), *[(f"python -m azuki {n}", p) for n, p in sub.choices.items()],
            ("python -m azuki.convert", conv.build_parser())]


PARSER_NAMES = ["python -m azuki", "python -m azuki simulate", "python -m azuki record", "python -m azuki replay",
                "python -m azuki.convert"]


@pytest.mark.parametrize("name", PARSER_NAMES)
def test_every_option_has_help_and_shows_its_default(name):
    parser = dict(_parsers())[name]
    fmt = parser._get_formatter()
    for a in parser._actions:
        if not a.option_strings or isinstance(a, argparse._HelpAction):
            continue
        assert a.help, f"{name} {a.option_strings[0]} has no help text"
        assert "(default:" in fmt._get_help_string(a), f"{name} {a.option_strings[0]}: no default shown"


HELP = [
    (("azuki", "--help"), ["the Azuki TCG simulator's command line", "simulate", "record", "replay",
                           "Exit status"]),
    (("azuki", "simulate", "--help"), ["Play N games between two uniform-random legal players",
                                       "--games N", "(default: 1000)", "(default: STT01", "(default: 200)"]),
    (("azuki", "record", "--help"), ["write its replay file", "(default: print it)"]),
    (("azuki", "replay", "--help"), ["verify the state hash after every step", "FILE"]),
    (("azuki.convert", "--help"), ["check and compile an Azuki card set", "--write-default", "Writes\n      nothing",
                                   "(default: off)", "Exit status"]),
]


@pytest.fixture(scope="module")
def help_results():
    with ThreadPoolExecutor(max_workers=len(HELP)) as ex:
        return list(ex.map(lambda h: run(*h[0]), HELP))


@pytest.mark.parametrize("i", range(len(HELP)), ids=[" ".join(h[0]) for h in HELP])
def test_help_shows_the_docstring(help_results, i):
    r = help_results[i]
    assert r.returncode == 0 and r.stderr == "", r.stderr
    for frag in HELP[i][1]:
        assert frag in r.stdout, (frag, r.stdout)


# ---- bad values: one line, exit 2 --------------------------------------------------------

def _replay_files(tmp):
    good = {"format": "azuki-replay/1", "cardset": "0" * 16, "cards": None, "decks": ["STT01", "STT02"],
            "seed": 1, "turn_cap": 200, "initial_hash": "0" * 16, "steps": [], "result": "ONGOING"}
    files = {
        "malformed.json": '{"format": "azuki-replay/1", "steps": [',
        "not_utf8.json": b'{"format": "\xff"}',
        "list.json": "[1, 2]",
        "no_steps.json": {k: v for k, v in good.items() if k != "steps"},
        "no_seed.json": {k: v for k, v in good.items() if k != "seed"},
        "other_format.json": dict(good, format="something/2"),
        "bad_step.json": dict(good, steps=[{"player": 0, "action": "x", "hash": "0"}]),
        "bad_deck.json": dict(good, decks=["STT01", "NOPE"]),
        "negative_seed.json": dict(good, seed=-4),
    }
    for name, content in files.items():
        p = tmp / name
        if isinstance(content, dict):
            p.write_text(json.dumps(content))
        elif isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content)
    return tmp


BAD = [
    # (argv, fragments of the one error line)
    (["simulate", "--seed", "-1"], ["--seed", "got -1"]),
    (["simulate", "--seed", "18446744073709551616"], ["--seed", "18446744073709551615"]),
    (["simulate", "--games", "-5"], ["--games", ">= 1", "got -5"]),
    (["simulate", "--games", "0"], ["--games", ">= 1"]),
    (["simulate", "--games", "abc"], ["--games", "expected an integer, got 'abc'"]),
    (["simulate", "--decks", "NOPE"], ["--decks", "expected 2 arguments"]),
    (["simulate", "--decks", "NOPE", "STT02"], ["unknown deck 'NOPE'", "STT01, STT02"]),
    (["simulate", "--cards", "missing.json"], ["--cards", "missing.json", "cannot read"]),
    (["simulate", "--cards", "{tmp}/not_a_cardset.json"], ["--cards", "not_a_cardset.json"]),
    (["simulate", "--turn-cap", "0"], ["--turn-cap", "[1, 60000]", "got 0"]),
    (["simulate", "--turn-cap", "70000"], ["--turn-cap", "got 70000"]),
    (["simulate", "--frobnicate"], ["unrecognized arguments: --frobnicate"]),
    (["record", "--seed", "x"], ["--seed", "expected an integer"]),
    (["record", "--decks", "STT01", "NOPE"], ["unknown deck 'NOPE'"]),
    (["record", "--out", "{tmp}/no/such/dir/r.json"], ["--out", "cannot write"]),
    (["replay", "missing.json"], ["missing.json", "cannot read"]),
    (["replay", "{tmp}/malformed.json"], ["malformed.json", "malformed JSON"]),
    (["replay", "{tmp}/not_utf8.json"], ["not_utf8.json", "not a replay file"]),
    (["replay", "{tmp}/list.json"], ["list.json", "expected a JSON object"]),
    (["replay", "{tmp}/no_steps.json"], ["no_steps.json", "missing key 'steps'"]),
    (["replay", "{tmp}/no_seed.json"], ["no_seed.json", "missing key 'seed'"]),
    (["replay", "{tmp}/other_format.json"], ["other_format.json", "format 'something/2'"]),
    (["replay", "{tmp}/bad_step.json"], ["bad_step.json", "steps[0]"]),
    (["replay", "{tmp}/bad_deck.json"], ["bad_deck.json", "unknown deck 'NOPE'"]),
    (["replay", "{tmp}/negative_seed.json"], ["negative_seed.json", "seed"]),
    (["replay"], ["required", "FILE"]),
    ([], ["required", "COMMAND"]),
    (["frobnicate"], ["invalid choice: 'frobnicate'"]),
]


@pytest.fixture(scope="module")
def bad_results(tmp_path_factory):
    tmp = _replay_files(tmp_path_factory.mktemp("cli"))
    (tmp / "not_a_cardset.json").write_text('{"format": "azuki-cards/1"}')

    def go(argv):
        return run("azuki", *[a.replace("{tmp}", str(tmp)) for a in argv], cwd=tmp)

    with ThreadPoolExecutor(max_workers=max(4, os.cpu_count() or 1)) as ex:
        return list(ex.map(go, [b[0] for b in BAD]))


@pytest.mark.parametrize("i", range(len(BAD)), ids=[" ".join(b[0]) or "(none)" for b in BAD])
def test_bad_value_is_one_error_line(bad_results, i):
    assert_one_line_error(bad_results[i], *BAD[i][1])


@pytest.mark.parametrize("argv,fragments", [
    (["--write-default", "--out", "x"], ["--write-default writes into this source checkout"]),
    (["--check", "--validate"], ["not allowed with argument"]),
    (["--frobnicate"], ["unrecognized arguments"]),
])
def test_convert_usage_errors_are_one_line(argv, fragments):
    assert_one_line_error(run("azuki.convert", *argv), *fragments)


# ---- closed stdout ---------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [("azuki", "record", "--seed", "1"), ("azuki", "simulate", "--games", "3"),
                                  ("azuki.convert",)])
def test_closed_stdout_ends_quietly(argv):
    """`python -m azuki record --seed 1 | head -1`: the reader goes away; the
    writer ends without a traceback or an error line (status 141, as if killed
    by SIGPIPE). The read end is closed before the program starts, so its
    first write fails deterministically."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = run(argv[0], *argv[1:], stdout=w)
    finally:
        os.close(w)
    assert p.stderr == "", p.stderr
    assert p.returncode == 141


def test_stdout_is_line_buffered_into_a_pipe_or_file():
    """The CLIs' stdout is line buffered even when it is not a terminal, so a long command's progress
    reaches `nohup ... > log` as it is printed (block buffering held it back until the end)."""
    code = ("import sys; from azuki.convert.cli import run_main; "
            "run_main(lambda argv: print(sys.stdout.line_buffering) or 0)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "True", p.stdout + p.stderr


def test_a_handled_ctrl_c_exits_with_mains_status(tmp_path):
    """A KeyboardInterrupt that main catches and answers with a status (azuki
    train's Ctrl-C in the kickstart: 130) gives that exit status under
    `python -m`, even when it was raised inside code run by exec() of a
    string (a lazy import building a dataclass), which CPython marks as
    unhandled and then ends the process with SIGINT (-2). Deterministic: the
    interrupt is raised, no signal is sent."""
    pkg = tmp_path / "handled_ctrl_c"
    pkg.mkdir()
    (pkg / "__main__.py").write_text(
        "from azuki.convert.cli import run_main\n"
        "def main(argv):\n"
        "    try:\n"
        "        exec('raise KeyboardInterrupt')\n"
        "    except KeyboardInterrupt:\n"
        "        return 130\n"
        "run_main(main)\n")
    import azuki.convert.cli as cli      # the child imports the azuki this test runs (checkout or wheel)
    where = Path(cli.__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(where)]))
    p = subprocess.run([sys.executable, "-m", "handled_ctrl_c"], capture_output=True, text=True, timeout=60,
                       env=env, cwd=str(tmp_path))
    assert p.returncode == 130, (p.returncode, p.stderr)


# ---- the commands still work ----------------------------------------------------------------

def test_simulate_record_replay(tmp_path):
    r = run("azuki", "simulate", "--games", "4", "--seed", "3", "--quiet")
    assert r.returncode == 0 and "azuki simulate: 4 games" in r.stdout, r.stderr
    r = run("azuki", "simulate", "--games", "2", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["games"] == 2
    out = tmp_path / "g.json"
    r = run("azuki", "record", "--seed", "5", "--out", out)
    assert r.returncode == 0 and r.stdout.startswith(f"wrote {out}:"), r.stderr
    r = run("azuki", "replay", out)
    assert r.returncode == 0 and r.stdout.startswith("ok: "), (r.stdout, r.stderr)


def test_simulate_with_a_json_card_set():
    r = run("azuki", "simulate", "--games", "2", "--cards", CARDS, "--quiet")
    assert r.returncode == 0, r.stderr


# ---- azuki.convert: a plain run writes nothing ---------------------------------------------

def _checkout_copy(tmp: Path) -> Path:
    """A minimal source checkout (the package, csrc/ headers and .def files,
    generated/) where the converter's default output directory is tmp."""
    root = tmp / "checkout"
    shutil.copytree(REPO / "azuki", root / "azuki",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__", "_core.c"))
    shutil.copytree(REPO / "csrc", root / "csrc")
    shutil.copytree(REPO / "generated", root / "generated")
    return root


def _tree(root: Path):
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for d in ("generated", "azuki") for p in sorted((root / d).rglob("*")) if p.is_file()
            and "__pycache__" not in p.parts}


def test_convert_of_a_user_set_does_not_touch_the_embedded_default(tmp_path):
    """`python -m azuki.convert my.json` used to rewrite generated/ with the
    user's set (which `make run` then built in). Now it validates and reports."""
    root = _checkout_copy(tmp_path)
    doc = json.loads(CARDS.read_text())
    doc["cards"][10]["attack"] += 1
    mine = tmp_path / "my.json"
    mine.write_text(json.dumps(doc))
    before = _tree(root)
    r = run("azuki.convert", mine, cwd=tmp_path, pythonpath=root)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"{mine}: ok — ") and "decks (STT01, STT02)" in r.stdout
    assert _tree(root) == before
    # no argument: the same validate of the default set
    r = run("azuki.convert", cwd=tmp_path, pythonpath=root)
    assert r.returncode == 0 and r.stdout.startswith("cards.json: ok — "), r.stderr
    assert _tree(root) == before


def test_convert_write_default_regenerates_the_checkout(tmp_path):
    root = _checkout_copy(tmp_path)
    gen = root / "generated" / "cards_autogen.c"
    original = gen.read_bytes()
    gen.write_bytes(b"/* stale */\n")
    r = run("azuki.convert", "--check", cwd=tmp_path, pythonpath=root)
    assert r.returncode == 1
    assert "stale: generated/cards_autogen.c (run `python -m azuki.convert --write-default`)" in r.stderr
    r = run("azuki.convert", "--write-default", cwd=tmp_path, pythonpath=root)
    assert r.returncode == 0 and "wrote generated/cards_autogen.c" in r.stdout, r.stderr
    assert gen.read_bytes() == original
    assert run("azuki.convert", "--check", cwd=tmp_path, pythonpath=root).returncode == 0


def test_convert_out_writes_elsewhere(tmp_path):
    out = tmp_path / "out"
    r = run("azuki.convert", "--out", out)
    assert r.returncode == 0, r.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "azuki/spec_autogen.py", "generated/cards_autogen.c", "generated/cards_autogen.h"]


def test_makefile_and_scripts_use_the_new_flags():
    """Every caller of the old write-by-default behaviour names the flag."""
    mk = (REPO / "Makefile").read_text()
    assert "-m azuki.convert --write-default" in mk
    assert "-m azuki.convert --check" in (REPO / "tools" / "test.sh").read_text()


# ---- tools/test.sh: the full run says what it needs and fails fast without it ------------------

def _fake_bin(tmp: Path, **scripts) -> Path:
    """A PATH with only the basic tools test.sh's preflight uses (no clang),
    plus fake commands given as name=script body."""
    b = tmp / "bin"
    b.mkdir()
    for tool in ("dirname", "mktemp", "rm", "id", "cat"):
        os.symlink(shutil.which(tool), b / tool)
    for name, body in scripts.items():
        if (b / name).exists():
            (b / name).unlink()
        (b / name).write_text("#!/bin/sh\n" + body + "\n")
        (b / name).chmod(0o755)
    return b


@pytest.mark.parametrize("label,scripts,reason", [
    ("no_apt", {}, "no apt-get"),
    ("not_root_no_sudo", {"apt-get": "exit 0", "id": "echo 1000"}, "not root, no sudo"),
    ("sudo_needs_password", {"apt-get": "exit 0", "id": "echo 1000", "sudo": "exit 1"}, "asks for a password"),
])
def test_full_run_without_clang_fails_fast(tmp_path, label, scripts, reason):
    b = _fake_bin(tmp_path, **scripts)
    r = subprocess.run([shutil.which("bash"), "tools/test.sh"], cwd=REPO, stdin=subprocess.DEVNULL,
                       env={"PATH": str(b), "PY": "/nonexistent/python"}, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "needs Python 3.11, gcc, and clang with libFuzzer" in r.stdout
    assert "== pytest" not in r.stdout                     # failed before any long step
    (line,) = r.stderr.splitlines()
    assert line.startswith("error: make test: ") and reason in line and "make quick-test" in line


def test_test_sh_rejects_unknown_arguments():
    r = subprocess.run(["bash", "tools/test.sh", "--fast"], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip() == "usage: tools/test.sh [--quick]"

"""The C core's layers are what csrc/layers.def says (issue 31, item 3; the
binding's layers are tests/test_layers.py).

Every file of csrc/sources.mk is compiled on its own (`gcc -c`, release and
-DAZK_DEBUG, so the debug build's calls count too); `nm` tells which external
functions each object defines and which it uses. A use of a function defined
by a file listed later in layers.def (higher) is an upward call: it fails
unless an AZK_UPCALL line lists exactly that caller, callee and function with
its reason. The opening comments of the core files may not order two files
against the list either (`a.c < b.c`, `a.c <- b.c`: a below b).
"""
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = re.findall(r"\S+\.c", (ROOT / "csrc" / "sources.mk").read_text())

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("nm") is None,
                                reason="needs gcc and nm")


def read_layers(text=None):
    """(files bottom first, {(caller, callee, function): reason}) from layers.def."""
    if text is None:
        text = (ROOT / "csrc" / "layers.def").read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    files = re.findall(r"AZK_LAYER\(\s*([\w/.]+)\s*,", text)
    upcalls = {(a, b, f): why for a, b, f, why in
               re.findall(r'AZK_UPCALL\(\s*([\w/.]+)\s*,\s*([\w/.]+)\s*,\s*(\w+)\s*,\s*"([^"]*)"\s*\)', text)}
    return files, upcalls


def symbols(tmp_path, flags):
    """{file: (defined functions and data, used undefined symbols)} for every core source."""
    out = {}
    for src in SOURCES:
        obj = tmp_path / (pathlib.Path(src).stem + flags.replace("-", "_").replace(" ", "") + ".o")
        subprocess.run(["gcc", "-std=c11", "-O0", *flags.split(), "-I", str(ROOT / "csrc"), "-I", str(ROOT / "generated"),
                        "-c", str(ROOT / src), "-o", str(obj)], check=True, capture_output=True)
        defined, used = set(), set()
        for line in subprocess.run(["nm", str(obj)], check=True, capture_output=True, text=True).stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRCVW":
                defined.add(parts[2])
            elif len(parts) == 2 and parts[0] == "U":
                used.add(parts[1])
        out[src] = (defined, used)
    return out


def upward_calls(files, syms):
    """[(caller, callee, function)] for each use of a function defined higher up."""
    rank = {f: i for i, f in enumerate(files)}
    owner = {s: f for f, (defined, _) in syms.items() for s in defined}
    return sorted((f, owner[s], s) for f, (_, used) in syms.items() for s in used
                  if s in owner and owner[s] != f and rank[owner[s]] > rank[f])


def test_every_core_source_has_one_layer():
    files, upcalls = read_layers()
    assert len(files) == len(set(files)), "a file is listed twice in csrc/layers.def"
    assert sorted(files) == sorted(SOURCES), "csrc/layers.def and csrc/sources.mk list different files"
    for (a, b, f), why in upcalls.items():
        assert a in files and b in files and files.index(b) > files.index(a), (a, b, f)
        assert len(why) > 40, f"AZK_UPCALL {a} -> {b} {f}: give the reason"


@pytest.mark.slow    # compiles the core (a few seconds): make quick-test skips it, make test runs it
@pytest.mark.parametrize("flags", ["-DNDEBUG", "-DAZK_DEBUG"])
def test_no_unlisted_upward_call(tmp_path, flags):
    files, upcalls = read_layers()
    syms = symbols(tmp_path, flags)
    found = upward_calls(files, syms)
    unlisted = [c for c in found if c not in upcalls]
    assert not unlisted, ("upward calls not listed in csrc/layers.def (move the function to the right layer, "
                          f"or list an inherent one with its reason): {unlisted}")
    if flags == "-DAZK_DEBUG":   # the debug build uses every listed one: none is stale
        stale = [c for c in upcalls if c not in found]
        assert not stale, f"AZK_UPCALL lines for calls that no longer exist: {stale}"


def test_the_check_catches_an_upward_call():
    """The checker itself: a call from a lower file to a higher one is found,
    one downward is not, and the list of inherent ones is what lets it pass."""
    files, upcalls = read_layers('AZK_LAYER(a.c, "") AZK_LAYER(b.c, "") '
                                 'AZK_UPCALL(a.c, b.c, b_ok, "a reason long enough to be a real reason here")')
    syms = {"a.c": ({"a_f"}, {"b_g", "b_ok"}), "b.c": ({"b_g", "b_ok"}, {"a_f"})}
    found = upward_calls(files, syms)
    assert found == [("a.c", "b.c", "b_g"), ("a.c", "b.c", "b_ok")]
    assert [c for c in found if c not in upcalls] == [("a.c", "b.c", "b_g")]


def opening_comment(path):
    m = re.match(r"\s*/\*(.*?)\*/", (ROOT / path).read_text(), flags=re.S)
    return m.group(1) if m else ""


def test_opening_comments_agree_with_the_layers():
    files, _ = read_layers()
    rank = {pathlib.Path(f).name: i for i, f in enumerate(files)}
    wrong = []
    for src in SOURCES:
        text = re.sub(r"\s+", " ", opening_comment(src))
        assert text.strip(), f"{src} does not open with its purpose"
        for lo, hi in re.findall(r"(\w+\.c) <-? (\w+\.c)", text):
            if lo in rank and hi in rank and rank[lo] >= rank[hi]:
                wrong.append((src, f"{lo} < {hi}"))
    assert not wrong, f"opening comments that order files against csrc/layers.def: {wrong}"


def test_docs_quote_the_order():
    files, _ = read_layers()
    chain = " < ".join(pathlib.Path(f).name for f in files)
    assert chain in re.sub(r"\s+", " ", (ROOT / "docs" / "extending.md").read_text()), (
        f"docs/extending.md (Layers) should quote the order of csrc/layers.def: {chain}")

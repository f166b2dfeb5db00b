"""`make quick-test` stays quick (issue 24 §4): it runs pytest -m "not slow",
so a test that builds C code (gcc, a cffi module, sanitizer builds: tens of
seconds on a 2-core machine) must be marked slow (`@pytest.mark.slow`, or a
module-level `pytestmark` holding it); `make test` runs it. Checked on the
test sources: the test function itself or a fixture of its module that it
takes."""
import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILDS = re.compile(r'"gcc"|-fsanitize|ffi\.compile\(')


def unmarked_builders(root=ROOT):
    """(file::test, why) of every test that builds C code without the slow
    mark: its source matches BUILDS, or it uses (calls, or takes as a
    fixture) a function of its module that does, directly or through others."""
    out = []
    for f in sorted((root / "tests").rglob("test_*.py")):
        if f.resolve() == pathlib.Path(__file__).resolve():
            continue        # its own self-test writes a builder as text
        src = f.read_text()
        lines = src.splitlines()
        tree = ast.parse(src)

        def seg(n):
            return "\n".join(lines[n.lineno - 1:n.end_lineno])

        if any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in n.targets)
               and "slow" in seg(n) for n in tree.body):
            continue
        funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        text = {name: seg(n) for name, n in funcs.items()}
        builds = {name for name, t in text.items() if BUILDS.search(t)}
        grown = True
        while grown:        # a function that uses a building function builds too
            new = {name for name, t in text.items() if name not in builds
                   and any(re.search(rf"\b{b}\b", t) for b in builds)}
            builds |= new
            grown = bool(new)
        for name, n in funcs.items():
            if name.startswith("test_") and name in builds and not any("slow" in seg(d) for d in n.decorator_list):
                out.append(f"{f.relative_to(root).as_posix()}::{name}")
    return out


def test_tests_that_build_c_code_are_marked_slow():
    assert unmarked_builders() == [], "mark these @pytest.mark.slow (make quick-test skips them, make test runs them)"


def test_the_check_sees_builders_through_helpers_and_fixtures(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        'import pytest\n\n'
        'def build(d):\n    subprocess.run(["gcc", "-o", d])\n\n'
        '@pytest.fixture\ndef lib(tmp_path):\n    return build(tmp_path)\n\n'
        'def test_direct(tmp_path):\n    build(tmp_path)\n\n'
        'def test_by_fixture(lib):\n    pass\n\n'
        '@pytest.mark.slow\ndef test_marked(lib):\n    pass\n\n'
        'def test_pure():\n    assert 1\n')
    assert unmarked_builders(tmp_path) == ["tests/test_x.py::test_direct", "tests/test_x.py::test_by_fixture"]
    (tmp_path / "tests" / "test_x.py").write_text("import pytest\npytestmark = pytest.mark.slow\n"
                                                  "def test_direct():\n    run(['gcc'])\n")
    assert unmarked_builders(tmp_path) == []

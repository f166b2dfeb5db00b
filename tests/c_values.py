"""c_values: what C constants compile to, for the tests that hold a Python mirror against the C
headers (test_def_families, test_def_mirrors). Not a test file."""
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def c_values(names, workdir):
    """{name: value} of the C constants `names` as game.h (and what it includes) compiles them: a
    program built in `workdir` prints each as a long. Skips the test without gcc."""
    if shutil.which("gcc") is None:
        pytest.skip("needs gcc")
    src = '#include <stdio.h>\n#include "game.h"\nint main(void) {\n'
    src += "".join(f'    printf("{n} %ld\\n", (long){n});\n' for n in names) + "    return 0;\n}\n"
    d = pathlib.Path(workdir)
    (d / "values.c").write_text(src)
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror", "-I", str(ROOT / "csrc"), "-I", str(ROOT / "generated"),
                    "-o", str(d / "values"), str(d / "values.c")], check=True, capture_output=True, timeout=120)
    out = subprocess.run([str(d / "values")], check=True, capture_output=True, text=True, timeout=60).stdout
    return {k: int(v) for k, v in (line.split() for line in out.splitlines())}

#!/usr/bin/env bash
# The full test run (what `make test` and CI execute), in this order:
#   1. generated files are fresh (azuki.convert --check),
#   2. pytest (Python API, scenarios, property suites),
#   3. C test programs, normal build and ASan+UBSan build.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
echo "== azuki.convert --check"
"$PY" -m azuki.convert --check
echo "== pytest"
"$PY" -m pytest -q -x
echo "== C tests"
make --no-print-directory ctest
echo "== C tests under ASan + UBSan"
make --no-print-directory asan
echo "== all tests passed"

#!/usr/bin/env bash
# The full test run (what `make test` and CI execute), in this order:
#   1. generated files are fresh (azuki.convert --check),
#   2. pytest (Python API, scenarios, property suites),
#   3. C test programs, normal build and ASan+UBSan build (incl. the no-allocation test),
#   4. the sanitizer soak (1,000,000 decisions, invariants after every step),
#   5. the three libFuzzer harnesses, time-boxed (FUZZ_SECONDS each, default 60),
#      after replaying every saved regression input (installs clang if needed).
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
echo "== sanitizer soak"
make --no-print-directory soak SOAK_DECISIONS=${SOAK_DECISIONS:-1000000}
echo "== fuzzers (${FUZZ_SECONDS:-60}s each)"
make --no-print-directory fuzz-smoke FUZZ_SECONDS=${FUZZ_SECONDS:-60}
echo "== all tests passed"

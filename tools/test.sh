#!/usr/bin/env bash
# The test runs. `tools/test.sh` (what `make test` and CI execute) runs, in order:
#   1. generated files are fresh (azuki.convert --check, azuki.obs --check),
#   2. pytest (Python API, scenarios, property suites, the CLIs),
#   3. C test programs, normal build and ASan+UBSan build (incl. the no-allocation test),
#   4. the sanitizer soak (1,000,000 decisions, invariants after every step),
#   5. the three libFuzzer harnesses, time-boxed (FUZZ_SECONDS each, default 60),
#      after replaying every saved regression input; then the C random-play test,
#      the soak (500,000 decisions) and the fuzzers (30 s each) over the expansion
#      card set (azuki/data/expansion.json: starter + expansion, 16 deck pairings),
#   6. the RL environments (tests/envs) in their own virtual environments, one per
#      constraints file: .venv-puffer (pufferlib 3.0.0, built by tools/setup_envs.sh
#      with its work-arounds; Serial, Multiprocessing and a local Ray instance) and
#      .venv-latest (newest PettingZoo / Gymnasium, numpy 2, no pufferlib), plus the
#      benchmark's PufferLib rows, quick form. AZUKI_SKIP_ENVS=1 skips this step.
#   7. browser: the play page (python -m azuki play) in a real headless Chromium,
#      tests/web in .venv-web (tools/setup_envs.sh web: Playwright, pinned in
#      constraints/web.txt) driving Debian's `chromium` (installed with apt-get as
#      root or through sudo if missing, checked before anything long).
#      AZUKI_SKIP_BROWSER=1 skips this step.
# Step 5 needs clang with libFuzzer (-fsanitize=fuzzer). If it is missing it is
# installed with apt-get (Debian package `clang`) as root or through sudo; that
# is checked first, so a machine that cannot get it fails at once with one line.
#
# `tools/test.sh --quick` (`make quick-test`) runs steps 1, 2 and the normal C
# build of step 3 only: under a minute, needs just Python and gcc.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
QUICK=0
case "${1:-}" in
    --quick) QUICK=1 ;;
    "") ;;
    *) echo "usage: tools/test.sh [--quick]" >&2; exit 2 ;;
esac

# Does `clang -fsanitize=fuzzer,address,undefined` build and run a program?
fuzzer_works() {
    command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 || return 1
    local d ok
    d=$(mktemp -d)
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$d/p.c"
    ok=0
    "${FUZZ_CC:-clang}" -fsanitize=fuzzer,address,undefined "$d/p.c" -o "$d/p" >/dev/null 2>&1 \
        && "$d/p" -runs=1 >/dev/null 2>&1 || ok=1
    rm -rf "$d"
    return $ok
}

# Before anything long: make sure step 7 will have its browser (Debian's chromium).
browser_preflight() {
    if [ -n "${AZUKI_CHROMIUM:-}" ] && [ -x "$AZUKI_CHROMIUM" ]; then return 0; fi
    if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
        echo "   chromium (browser tests): found"
        return 0
    fi
    local SUDO=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
            echo "error: make test: the browser tests need Debian's chromium, and installing it needs root (apt-get install chromium); or set AZUKI_SKIP_BROWSER=1" >&2
            exit 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: make test: the browser tests need chromium and this system has no apt-get; install it or set AZUKI_SKIP_BROWSER=1" >&2
        exit 1
    fi
    echo "   chromium (browser tests): missing, installing it now (apt-get install chromium)"
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium; } >/dev/null 2>&1 || {
        echo "error: make test: installing chromium with apt-get failed; install it yourself or set AZUKI_SKIP_BROWSER=1" >&2
        exit 1
    }
}

# Before anything long: make sure step 5 will have its compiler.
fuzz_preflight() {
    if fuzzer_works; then
        echo "   clang with libFuzzer: found"
        return 0
    fi
    local why=""
    if ! command -v apt-get >/dev/null 2>&1; then
        why="clang with libFuzzer is not installed and this system has no apt-get to install it"
    elif [ "$(id -u)" != 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            why="clang with libFuzzer is not installed, and installing it needs root (not root, no sudo)"
        elif ! sudo -n true 2>/dev/null && ! [ -t 0 ]; then
            why="clang with libFuzzer is not installed, and installing it needs root (sudo asks for a password and there is no terminal)"
        fi
    fi
    if [ -n "$why" ]; then
        echo "error: make test: $why; install clang (Debian/Ubuntu: apt-get install clang) or run \`make quick-test\` (convert --check, pytest, C tests)" >&2
        exit 1
    fi
    echo "   clang with libFuzzer: missing, installing it now (apt-get install clang)"
    bash tools/install_fuzz_deps.sh || {
        echo "error: make test: installing clang with libFuzzer failed (see above); install it yourself or run \`make quick-test\`" >&2
        exit 1
    }
}

if [ "$QUICK" = 1 ]; then
    echo "== quick test run: convert --check, pytest, C tests (normal build); needs Python 3.11 and gcc"
else
    echo "== full test run (CI): convert --check, pytest, C tests (normal and ASan+UBSan), sanitizer soak,"
    echo "   fuzzers (${FUZZ_SECONDS:-60}s each); needs Python 3.11, gcc, and clang with libFuzzer"
    echo "   (installed with apt-get as root or through sudo if missing). Without them: make quick-test"
    fuzz_preflight
    if [ "${AZUKI_SKIP_BROWSER:-0}" != 1 ]; then browser_preflight; fi
fi
echo "== azuki.convert --check"
"$PY" -m azuki.convert --check
echo "== azuki.obs --check (docs/observation.md)"
"$PY" -m azuki.obs --check
echo "== pytest"
"$PY" -m pytest -q -x
echo "== C tests"
make --no-print-directory ctest
if [ "$QUICK" = 1 ]; then
    echo "== quick tests passed (the full run is make test)"
    exit 0
fi
echo "== benchmark, quick form (a smoke run: figures are not asserted; the real table is python -m azuki bench)"
"$PY" -m azuki bench --quick
echo "== C tests under ASan + UBSan"
make --no-print-directory asan
echo "== sanitizer soak"
make --no-print-directory soak SOAK_DECISIONS=${SOAK_DECISIONS:-1000000}
echo "== fuzzers (${FUZZ_SECONDS:-60}s each)"
make --no-print-directory fuzz-smoke FUZZ_SECONDS=${FUZZ_SECONDS:-60}
# The expansion (starter + expansion, 4 decks, 16 pairings): the C random-play
# property test (normal and ASan+UBSan), the soak and the fuzzers over it.
EXP=azuki/data/expansion.json
echo "== the expansion card set: C random play, soak, fuzzers (${FUZZ_EXP_SECONDS:-30}s each)"
make --no-print-directory cards-ctest CARDS=$EXP
make --no-print-directory soak CARDS=$EXP SOAK_DECISIONS=${SOAK_EXP_DECISIONS:-500000}
make --no-print-directory fuzz-smoke CARDS=$EXP FUZZ_SECONDS=${FUZZ_EXP_SECONDS:-30}
if [ "${AZUKI_SKIP_ENVS:-0}" != 1 ]; then
    for world in puffer latest; do
        echo "== RL environments: $world world (constraints/$world.txt)"
        bash tools/setup_envs.sh "$world"
        # the venv's pytest script, so the installed wheel is tested (not the checkout's azuki/)
        ".venv-$world/bin/pytest" -q -p no:cacheprovider tests/envs
    done
    echo "== benchmark with the PufferLib rows, quick form"
    (cd out && ../.venv-puffer/bin/azuki bench --quick)
fi
if [ "${AZUKI_SKIP_BROWSER:-0}" != 1 ]; then
    echo "== browser: the play page in headless Chromium (tests/web, .venv-web)"
    bash tools/setup_envs.sh web
    ".venv-web/bin/pytest" -q -p no:cacheprovider tests/web
fi
echo "== all tests passed"

#!/usr/bin/env bash
# The test runs. `tools/test.sh` (what `make test` and CI execute) runs these stages:
#   1. generated files are fresh (azuki.convert --check, azuki.obs --check),
#   2. pytest, every test (Python API, scenarios, property suites, the CLIs, and the
#      tests marked `slow`: sanitizer and debug builds, soaks, compile tests, large counts),
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
#      benchmark's PufferLib rows, quick form. AZUKI_SKIP_ENVS=1 skips this step;
#      AZUKI_SKIP_RAY=1 skips only its Ray tests (the pytest summary lists them as skipped).
#      In .venv-puffer it also runs tests/test_signals.py: every test that sends or
#      relies on SIGINT passes with SIGINT ignored (as under `nohup make test &`).
#   7. browser: the play page (python -m azuki play) in a real headless Chromium,
#      tests/web in .venv-web (tools/setup_envs.sh web: Playwright, pinned in
#      constraints/web.txt) driving Debian's `chromium` (installed with apt-get as
#      root or through sudo if missing, checked before anything long).
#      AZUKI_SKIP_BROWSER=1 skips this step. With it, Debian's emscripten (and node) is installed if
#      missing, best effort, so the WebAssembly tests of step 2 run in full (wasm_preflight).
# Step 5 needs clang with libFuzzer (-fsanitize=fuzzer). If it is missing it is
# installed with apt-get (Debian package `clang`) as root or through sudo; that
# is checked first, so a machine that cannot get it fails at once with one line
# (so is chromium for step 7).
#
# Every stage runs even when an earlier one failed (a flaky stage does not hide
# the others); the end prints a table of the stages (result, seconds) and the
# script exits non-zero if any failed. Ctrl-C (or SIGTERM) stops the whole run.
# In the full run the C stages of steps 3-5 and the browser (step 7) run in a
# second lane, beside steps 2 and 6 (lane 2, below; AZUKI_TEST_LANES=1: every
# stage in turn).
#
# `tools/test.sh --quick` (`make quick-test`) runs steps 1, 2 without the tests
# marked slow (pytest -m "not slow"), and the normal C build of step 3 with
# 2,000 random games instead of 10,000 (CTEST_GAMES): ~1.5 min once .venv and
# out/ are built (README, Tests), needs just Python and gcc.
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

# Best effort, with the browser: Debian's emscripten (it brings node), so the WebAssembly tests run in
# full: tests/test_wasm.py rebuilds azuki.wasm and compares it byte for byte with the checked-in one, and
# it and tests/test_wasm_words.py run the module under node. Without them those tests skip (the checked-in
# module and its stamp check need neither).
wasm_preflight() {
    if command -v emcc >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
        echo "   emscripten + node (WebAssembly tests): found"
        return 0
    fi
    local SUDO=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
            echo "   emscripten + node (WebAssembly tests): missing, and installing needs root; those tests will skip"
            return 0
        fi
    fi
    command -v apt-get >/dev/null 2>&1 || { echo "   emscripten + node: missing (no apt-get); those tests will skip"; return 0; }
    echo "   emscripten + node (WebAssembly tests): missing, installing them now (apt-get install emscripten)"
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq emscripten; } >/dev/null 2>&1 \
        || echo "   installing emscripten failed; the WebAssembly tests that need it will skip"
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

# ---- the stages ------------------------------------------------------------------------
NAMES=() RESULTS=() SECS=()
FAILED=0

# stage NAME COMMAND...: run one stage, record its result and time; never stops the run.
# (A stage that runs several commands is a function that returns at its first failure:
# set -e does not apply inside a command whose status is tested.)
stage() {
    local name=$1 t0=$SECONDS rc=0
    shift
    echo "== $name"
    "$@" || rc=$?
    NAMES+=("$name")
    SECS+=($((SECONDS - t0)))
    if [ $rc = 0 ]; then
        RESULTS+=("passed")
    else
        RESULTS+=("FAILED (exit $rc)")
        FAILED=$((FAILED + 1))
        echo "== $name: FAILED (exit $rc); going on with the other stages"
    fi
    if [ -n "${LANE_RESULTS:-}" ]; then   # a stage of lane 2: its row for the table, a line for the main log
        printf '%s\t%s\t%s\n' "$name" "${RESULTS[-1]}" "${SECS[-1]}" >> "$LANE_RESULTS"
        printf '\n== [lane 2] %s: %s (%s s)\n' "$name" "${RESULTS[-1]}" "${SECS[-1]}" >&3   # (pytest's dots may be mid-line)
    fi
}

# ---- lane 2 (full run) -------------------------------------------------------------------
# The C stages (normal and sanitizer builds, soaks, fuzzers: each one process on one core, no Python;
# they alone build into out/'s C directories) and then the browser stage run in a second lane beside
# pytest and the RL worlds, which leave a core idle much of the time: the run takes about as long as its
# longer lane instead of the sum (clean-clone CI on the shared 2-core machine, session 29: 1,530-1,649 s
# of stages, against 2,966 s for every stage in turn on a busier day). Nothing is shared but the checkout's sources and the azuki
# wheel that each world's set-up installs (tools/setup_envs.sh builds it under a lock). The lane is a
# background process in its own process group; its output goes to a log printed in one block when it
# is joined (a line per finished stage appears in the main log as it goes), its rows join the table.
# AZUKI_TEST_LANES=1: every stage in turn, in one lane.
LANE_PID="" LANE_DIR="" LANE_T0=0
lane_start() {   # lane_start FUNCTION: run FUNCTION's stages in lane 2
    LANE_DIR=$(mktemp -d) LANE_T0=$SECONDS
    : > "$LANE_DIR/results"
    echo "== the C stages and the browser run beside the others (lane 2); their output follows when they end"
    exec 3>&1
    set -m                                           # its own process group, so an interrupt can stop it all
    ( trap - INT TERM; group=$BASHPID; lane_watch "$$" "$group" 3>&- & watch=$!
      NAMES=() RESULTS=() SECS=() FAILED=0; LANE_RESULTS=$LANE_DIR/results "$1"; : > "$LANE_DIR/done"
      kill "$watch" 2>/dev/null || true ) > "$LANE_DIR/log" 2>&1 < /dev/null &
    LANE_PID=$!
    set +m
}
# In lane 2: a main run killed outright (SIGKILL: no trap runs, e.g. a CI time limit) takes the lane's
# process group with it, instead of leaving the lane running on its own.
lane_watch() {   # lane_watch MAIN_PID LANE_GROUP
    local st
    if [ ! -r /proc/self/stat ]; then            # no /proc: the pid alone
        while kill -0 "$1" 2>/dev/null; do sleep 1; done
    else while :; do # (a main run that ended is a zombie until its parent reaps it: dead too)
        st=$(cat "/proc/$1/stat" 2>/dev/null) || break
        st=${st##*) }
        [ "${st%% *}" != Z ] || break
        sleep 1
    done; fi
    kill -KILL -- "-$2" 2>/dev/null || true
}
lane_stop() {    # on an interrupt: end the lane's processes
    [ -n "$LANE_PID" ] || return 0
    kill -TERM -- "-$LANE_PID" 2>/dev/null || true
    wait "$LANE_PID" 2>/dev/null || true
    LANE_PID=""
}
lane_join() {    # wait for lane 2, print its output, add its rows to the table
    [ -n "$LANE_PID" ] || return 0
    local rc=0 n=0 name result secs
    wait "$LANE_PID" || rc=$?
    LANE_PID=""
    echo "== lane 2's output (it ran beside the stages above)"
    cat "$LANE_DIR/log"
    while IFS=$'\t' read -r name result secs; do
        NAMES+=("$name") RESULTS+=("$result") SECS+=("$secs")
        [ "$result" = passed ] || FAILED=$((FAILED + 1))
        n=$((n + 1))
    done < "$LANE_DIR/results"
    if [ ! -e "$LANE_DIR/done" ]; then               # the lane ended before its last stage
        NAMES+=("lane 2 (ended early, after $n of its stages)") RESULTS+=("FAILED (exit $rc)") SECS+=($((SECONDS - LANE_T0)))
        FAILED=$((FAILED + 1))
    fi
    rm -rf "$LANE_DIR"
}

summary() {
    local i w=5
    for i in "${!NAMES[@]}"; do [ ${#NAMES[$i]} -gt $w ] && w=${#NAMES[$i]}; done
    echo
    echo "== summary ($1)"
    printf "%-${w}s  %-16s %8s\n" stage result seconds
    for i in "${!NAMES[@]}"; do
        printf "%-${w}s  %-16s %8s\n" "${NAMES[$i]}" "${RESULTS[$i]}" "${SECS[$i]}"
    done
    printf "%-${w}s  %-16s %8s\n" total "" "$SECONDS"
}

trap 'echo; echo "== interrupted"; lane_stop; summary "interrupted"; exit 130' INT
trap 'echo; echo "== terminated"; lane_stop; summary "terminated"; exit 143' TERM

PYTEST_ARGS=(-q -rs)       # -rs: every skipped test and why (e.g. AZUKI_SKIP_RAY=1)
PYTEST_STAGE="pytest (all, slow included)"
if [ "$QUICK" = 1 ]; then
    echo "== quick test run: convert --check, pytest (not slow), C tests (normal build); needs Python 3.11 and gcc"
    PYTEST_ARGS+=(-m "not slow")
    PYTEST_STAGE="pytest (not slow)"
else
    echo "== full test run (CI): convert --check, pytest, C tests (normal and ASan+UBSan), sanitizer soak,"
    echo "   fuzzers (${FUZZ_SECONDS:-60}s each); needs Python 3.11, gcc, and clang with libFuzzer"
    echo "   (installed with apt-get as root or through sudo if missing). Without them: make quick-test"
    PYTEST_ARGS+=(--durations=15)    # the slowest tests of each pytest stage, for the run's time budget
    fuzz_preflight
    if [ "${AZUKI_SKIP_BROWSER:-0}" != 1 ]; then browser_preflight; wasm_preflight; fi
fi
SECONDS=0
stage "azuki.convert --check" "$PY" -m azuki.convert --check
stage "azuki.obs --check (docs/observation.md)" "$PY" -m azuki.obs --check
if [ "$QUICK" = 1 ]; then
    stage "$PYTEST_STAGE" "$PY" -m pytest "${PYTEST_ARGS[@]}"
    stage "C tests (random play: ${CTEST_GAMES:-2000} games)" make --no-print-directory ctest CTEST_GAMES=${CTEST_GAMES:-2000}
else
    lane2_stages() {
        stage "C tests (random play: ${CTEST_GAMES:-10000} games)" make --no-print-directory ctest \
            CTEST_GAMES=${CTEST_GAMES:-10000}
        stage "C tests under ASan + UBSan" make --no-print-directory asan
        stage "sanitizer soak" make --no-print-directory soak SOAK_DECISIONS=${SOAK_DECISIONS:-1000000}
        stage "fuzzers (${FUZZ_SECONDS:-60}s each)" make --no-print-directory fuzz-smoke FUZZ_SECONDS=${FUZZ_SECONDS:-60}
        # The expansion (starter + expansion, 4 decks, 16 pairings): the C random-play
        # property test (normal and ASan+UBSan), the soak and the fuzzers over it.
        local EXP=azuki/data/expansion.json
        stage "expansion: C random play (normal, ASan+UBSan)" make --no-print-directory cards-ctest CARDS=$EXP
        stage "expansion: sanitizer soak" make --no-print-directory soak CARDS=$EXP \
            SOAK_DECISIONS=${SOAK_EXP_DECISIONS:-500000}
        stage "expansion: fuzzers (${FUZZ_EXP_SECONDS:-30}s each)" make --no-print-directory fuzz-smoke CARDS=$EXP \
            FUZZ_SECONDS=${FUZZ_EXP_SECONDS:-30}
        if [ "${AZUKI_SKIP_BROWSER:-0}" != 1 ]; then
            browser() {
                bash tools/setup_envs.sh web || return
                ".venv-web/bin/pytest" "${PYTEST_ARGS[@]}" -p no:cacheprovider tests/web
            }
            stage "browser: the play page in headless Chromium (tests/web, .venv-web)" browser
        fi
    }
    if [ "${AZUKI_TEST_LANES:-2}" = 1 ]; then lane2_stages; else lane_start lane2_stages; fi
    stage "$PYTEST_STAGE" "$PY" -m pytest "${PYTEST_ARGS[@]}"
    stage "benchmark, quick form (smoke run, figures not asserted)" "$PY" -m azuki bench --quick
    if [ "${AZUKI_SKIP_ENVS:-0}" != 1 ]; then
        # the venv's pytest script, so the installed wheel is tested (not the checkout's azuki/)
        rl_world() {
            bash tools/setup_envs.sh "$1" || return
            local extra=()
            [ "$1" = puffer ] && extra=(tests/test_signals.py)
            ".venv-$1/bin/pytest" "${PYTEST_ARGS[@]}" -p no:cacheprovider tests/envs "${extra[@]}"
        }
        for world in puffer latest; do
            stage "RL environments: $world world (constraints/$world.txt)" rl_world "$world"
        done
        stage "benchmark with the PufferLib rows, quick form" bash -c 'mkdir -p out && cd out && ../.venv-puffer/bin/azuki bench --quick'
    fi
    lane_join
fi
trap - INT TERM
if [ "$QUICK" = 1 ]; then summary "quick: make test runs everything"; else summary "full run"; fi
if [ "$FAILED" != 0 ]; then
    echo "== $FAILED of ${#NAMES[@]} stages FAILED (the table above; each stage's output is above it)"
    exit 1
fi
echo "== all ${#NAMES[@]} stages passed"

"""tools/test.sh (make test / make quick-test) runs every stage, whatever
fails, and ends with a table of the stages; it exits non-zero if any stage
failed (issue 24 §4: a flaky stage must not hide the others or cost a rerun
of everything before it). The stages run against stand-ins here: $PY and a
`make` earlier on PATH that only echo their arguments (and fail on demand),
so this checks the runner, not the tests it runs."""
import os
import re
import signal
import stat
import subprocess
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _script(path, body):
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def run_quick(tmp_path, fail_python_on=None, fail_make=False, full=False, make_body=None, lanes=None, env_only=False):
    """tools/test.sh --quick (full: tools/test.sh, without the RL worlds and
    the browser) with stand-ins; fail_python_on: a word of the $PY command
    line that makes it exit 3; fail_make: make exits 4 (make_body: the
    stand-in make's own script); lanes: $AZUKI_TEST_LANES; env_only: return
    the environment with the stand-ins instead of running."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    _script(bindir / "make", make_body or 'echo "stand-in make $*"\n' + ("exit 4\n" if fail_make else ""))
    cond = f'case "$*" in *"{fail_python_on}"*) echo "stand-in python $* (failing)"; exit 3;; esac\n' \
        if fail_python_on else ""
    py = _script(tmp_path / "py", cond + 'echo "stand-in python $*"\n')
    # a clang that "builds" a program that runs (the libFuzzer preflight of the full run)
    _script(bindir / "clang", 'while [ $# -gt 0 ]; do [ "$1" = -o ] && o=$2; shift; done\n'
                              'printf "#!/bin/sh\\nexit 0\\n" > "$o"; chmod +x "$o"\n')
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}", PY=str(py), FUZZ_CC="clang",
               AZUKI_SKIP_ENVS="1", AZUKI_SKIP_BROWSER="1")
    for k in ("CTEST_GAMES", "FUZZ_SECONDS", "SOAK_DECISIONS", "FUZZ_EXP_SECONDS", "SOAK_EXP_DECISIONS",
              "AZUKI_TEST_LANES"):
        env.pop(k, None)
    if lanes is not None:
        env["AZUKI_TEST_LANES"] = str(lanes)
    if env_only:
        return env
    return subprocess.run(["bash", os.path.join(ROOT, "tools", "test.sh")] + ([] if full else ["--quick"]), env=env,
                          capture_output=True, text=True, timeout=600)


def table(out):
    """{stage: result} from the summary table at the end of the output."""
    assert "== summary" in out, out
    rows = out[out.index("== summary"):].splitlines()[2:]
    got = {}
    for line in rows:
        m = re.match(r"(.+?)\s{2,}(passed|FAILED \(exit \d+\))\s+(\d+)$", line)
        if m:
            got[m.group(1)] = m.group(2)
    return got


def test_all_stages_pass_exit_zero_with_the_table(tmp_path):
    r = run_quick(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    t = table(r.stdout)
    assert list(t.values()) == ["passed"] * 4 and len(t) == 4, t
    assert "stand-in python -m pytest -q -rs -m not slow" in r.stdout        # the quick set: not slow
    assert "stand-in make --no-print-directory ctest CTEST_GAMES=2000" in r.stdout
    assert "all 4 stages passed" in r.stdout


@pytest.mark.parametrize("fail_on, failed", [("azuki.convert", "azuki.convert --check"),
                                             ("pytest", "pytest (not slow)")])
def test_a_failing_stage_does_not_stop_the_others(tmp_path, fail_on, failed):
    r = run_quick(tmp_path, fail_python_on=fail_on)
    assert r.returncode != 0
    # every later stage still ran
    for later in ("-m azuki.obs --check", "-m pytest -q", "make --no-print-directory ctest"):
        assert "stand-in " + ("" if later.startswith("make") else "python ") + later in r.stdout, (later, r.stdout)
    t = table(r.stdout)
    assert t.pop(failed) == "FAILED (exit 3)", t
    assert set(t.values()) == {"passed"} and len(t) == 3, t
    assert "1 of 4 stages FAILED" in r.stdout


def test_the_last_stage_failing_fails_the_run(tmp_path):
    r = run_quick(tmp_path, fail_make=True)
    assert r.returncode != 0
    t = table(r.stdout)
    assert [v for k, v in t.items() if k.startswith("C tests")] == ["FAILED (exit 4)"], t


def test_the_full_run_runs_every_stage_and_all_of_pytest(tmp_path):
    r = run_quick(tmp_path, fail_python_on="azuki bench", full=True)
    assert r.returncode != 0
    t = table(r.stdout)
    assert len(t) == 11, t
    assert [k for k, v in t.items() if v != "passed"] == ["benchmark, quick form (smoke run, figures not asserted)"], t
    assert "stand-in python -m pytest -q -rs --durations=15\n" in r.stdout    # every test, slow ones included
    assert "stand-in make --no-print-directory ctest CTEST_GAMES=10000" in r.stdout
    assert "stand-in make --no-print-directory fuzz-smoke CARDS=azuki/data/expansion.json" in r.stdout


C_STAGES = ["C tests (random play: 10000 games)", "C tests under ASan + UBSan", "sanitizer soak", "fuzzers (60s each)",
            "expansion: C random play (normal, ASan+UBSan)", "expansion: sanitizer soak", "expansion: fuzzers (30s each)"]


@pytest.mark.parametrize("lanes", [None, 1])
def test_the_full_run_counts_every_failing_c_stage(tmp_path, lanes):
    """The C stages (and the browser, skipped here) run in a second lane
    beside pytest and the RL worlds by default (AZUKI_TEST_LANES=1: in turn);
    either way each failing one is a failed row of the table, its output is in
    the log, and the run fails."""
    r = run_quick(tmp_path, fail_make=True, full=True, lanes=lanes)
    assert r.returncode != 0
    t = table(r.stdout)
    assert [k for k, v in t.items() if v == "FAILED (exit 4)"] == C_STAGES, t
    assert t["pytest (all, slow included)"] == "passed", t
    assert "7 of 11 stages FAILED" in r.stdout
    assert "stand-in make --no-print-directory fuzz-smoke CARDS=azuki/data/expansion.json" in r.stdout
    assert ("(lane 2)" in r.stdout) == (lanes is None)


def test_lane_2_dying_early_fails_the_run(tmp_path):
    """Lane 2's process killed after its first stage: the stages it did not
    report are not counted as passed; a row says the lane ended early."""
    r = run_quick(tmp_path, full=True,
                  make_body='echo "stand-in make $*"\ncase "$*" in *asan*) kill -9 $PPID;; esac\n')
    assert r.returncode != 0
    t = table(r.stdout)
    assert t["C tests (random play: 10000 games)"] == "passed", t
    assert "C tests under ASan + UBSan" not in t, t
    assert [k for k, v in t.items() if v != "passed"] == ["lane 2 (ended early, after 1 of its stages)"], t


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_stops_lane_2_too(tmp_path, sig, code):
    """Ctrl-C (or SIGTERM) ends the run, lane 2's processes with it, and
    still prints the table. The dispositions are set in the child (a caller
    under `nohup ... &` ignores SIGINT, and bash cannot trap what it
    inherited as ignored)."""
    def defaults():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    p, make_pid = _start_with_a_waiting_c_stage(tmp_path, defaults)
    try:
        p.send_signal(sig)
        out, _ = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == code, out
    assert "== summary" in out, out
    _wait_gone(make_pid, "lane 2's process outlived the interrupt")     # the stand-in make (its sleep)


def _start_with_a_waiting_c_stage(tmp_path, preexec_fn=None):
    """The full run started with a stand-in make that sleeps: returns the run's
    Popen and the pid of lane 2's first stage once that runs."""
    pidfile = tmp_path / "make.pid"
    env = run_quick(tmp_path, full=True, make_body=f'echo $$ > {pidfile}\nexec sleep 600\n', env_only=True)
    p = subprocess.Popen(["bash", os.path.join(ROOT, "tools", "test.sh")], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, preexec_fn=preexec_fn)
    deadline = time.monotonic() + 120
    while not (pidfile.exists() and pidfile.read_text().strip()):
        if time.monotonic() > deadline or p.poll() is not None:
            p.kill()
            raise AssertionError(f"lane 2's first stage did not start: {p.communicate()[0][-2000:]}")
        time.sleep(0.05)
    return p, int(pidfile.read_text())


def _wait_gone(pid, why):
    """Until pid no longer runs (a zombie waiting for a reaper does not count:
    a container's first process may never reap it); 60 s at most."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except FileNotFoundError:
            return
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


def test_a_main_run_killed_outright_takes_lane_2_with_it(tmp_path):
    """SIGKILL to the main run (a CI time limit: no trap runs): lane 2's
    watcher ends the lane's process group, so nothing runs on by itself and
    the run's output pipe closes."""
    p, make_pid = _start_with_a_waiting_c_stage(tmp_path)
    try:
        p.kill()
        p.communicate(timeout=120)          # EOF: nothing of the lane holds the pipe any more
    finally:
        if p.poll() is None:
            p.kill()
    _wait_gone(make_pid, "lane 2 ran on after the main run was killed")

"""The Python API boundary: every bad argument is a Python exception, never a
crash, a hang or silently ignored (hardening issue). Calls that crashed the
interpreter before run in a subprocess, so a regression fails one test
instead of killing the run."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import azuki
from azuki import CardSet, Game, simulate
from azuki.replay import record_random_game, verify_replay

ROOT = pathlib.Path(__file__).resolve().parent.parent
CARDS = ROOT / "azuki" / "data" / "cards.json"


def run_py(code, timeout=60):
    """Run code in a fresh interpreter; (returncode, stdout, stderr)."""
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                       timeout=timeout, cwd=ROOT)
    return r.returncode, r.stdout, r.stderr


def expect_raises_in_child(cases):
    """Each (expr, exception name) raises that exception in one child
    interpreter - no segfault; a crash names the expression that caused it."""
    body = "\n".join(f"""
print("BEGIN", {expr!r}, flush=True)
try:
    {expr}
except {exc} as e:
    print("RAISED", type(e).__name__, repr(str(e)[:200]), flush=True)
else:
    print("NO EXCEPTION", flush=True)""" for expr, exc in cases)
    rc, out, err = run_py("import azuki\nfrom azuki import Game, CardSet, simulate\n" + body)
    lines = out.splitlines()
    began = [ln for ln in lines if ln.startswith("BEGIN")]
    assert rc == 0, f"child died with {rc} during {began[-1] if began else '?'}: {err[-2000:]}"
    results = [ln for ln in lines if not ln.startswith("BEGIN")]
    assert len(results) == len(cases)
    for (expr, exc), r in zip(cases, results):
        assert r.startswith("RAISED"), f"{expr}: {r}"
    return results


# ---- 1. simulate ---------------------------------------------------------------
def test_simulate_bad_decks_raise():
    expect_raises_in_child([(f"simulate(10, decks={d!r})", "(TypeError, ValueError)") for d in
                            [("STT01",), [], (), ("STT01", "STT02", "STT01"), "STT01", None, {"a": 1}]])


def test_simulate_bad_chunk_raises_quickly():
    expect_raises_in_child([(f"simulate(10, chunk={c!r})", "(TypeError, ValueError)")
                            for c in [0, -1, True, 1.5, "5", None]])


@pytest.mark.parametrize("kw", [dict(games=True), dict(games=False), dict(games=1.0), dict(games=-1),
                                dict(games=10, seed=True), dict(games=10, seed=-1), dict(games=10, seed=2**64),
                                dict(games=10, turn_cap=True), dict(games=10, turn_cap=0),
                                dict(games=10, progress=5), dict(games=10, cards=""), dict(games=10, cards=[])])
def test_simulate_strict_arguments(kw):
    with pytest.raises((TypeError, ValueError)):
        simulate(**kw)


def test_simulate_progress_and_chunks():
    calls = []
    r = simulate(7, chunk=3, progress=lambda d, n: calls.append((d, n)))
    assert calls == [(3, 7), (6, 7), (7, 7)] and r["games"] == 7 and r["errors"] == 0
    assert simulate(0)["games"] == 0
    assert simulate(np.int64(3))["games"] == 3


# The child runs this: it installs Python's SIGINT handler itself (a child inherits an ignored SIGINT, e.g. from
# `nohup make test &`, and Python then leaves it ignored), says "go" from a second thread (which gets the GIL when
# the main thread releases it: normally inside simulate()'s C loop), and reports where the KeyboardInterrupt landed.
_CTRL_C_CHILD = """
import signal, threading, traceback
signal.signal(signal.SIGINT, signal.default_int_handler)
from azuki import simulate            # imported before "go" (azuki loads its core lazily)
threading.Thread(target=lambda: print("go", flush=True), daemon=True).start()
try:
    simulate(10**9)
except KeyboardInterrupt as e:
    frames = [f.name for f in traceback.extract_tb(e.__traceback__)]
    print("inside" if any("simulate" in f for f in frames) else "before", frames, flush=True)
    raise
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_simulate_ctrl_c_without_progress_callback():
    """KeyboardInterrupt reaches a long simulate() (10**9 games: hours) with no
    progress callback: the C loop checks for signals. Independent of the
    caller's signal dispositions (the child sets its own) and of speed: no
    sleeps or time limits, only a hang guard; the signal is sent once the
    child says "go", and a run where it landed before simulate() started (the
    child says "before"; rare) is repeated, up to 20 runs."""
    out = ""
    for _ in range(20):
        p = subprocess.Popen([sys.executable, "-P", "-c", _CTRL_C_CHILD], stdout=subprocess.PIPE,   # -P: installed azuki
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            assert p.stdout.readline().strip() == "go"
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=600)       # a hang guard only: simulate(10**9) would run for hours
            assert "KeyboardInterrupt" in err and p.returncode != 0, (p.returncode, out, err[-2000:])
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        if out.startswith("inside"):
            return
    pytest.fail(f"SIGINT landed before simulate() started in 20 runs: {out!r}")


# ---- 2. uninitialised objects ---------------------------------------------------
GAME_CALLS = ["render()", "state_dict()", "to_bytes()", "check_invariants()", "card_info(0)", "legal_actions()",
              "action_mask()", "head_masks()", "step(0)", "is_legal(0)", "prompt()", "clone()", "state_hash()",
              "events()", "attack_of('p0.leader')", "locate('p0.leader')", "action_str(0)", "set_turn_cap(5)",
              "current_player", "phase", "turn", "is_terminal", "result", "winner", "active_player",
              "first_player", "turn_cap", "__reduce__()"]


def test_uninitialised_game_raises():
    for r in expect_raises_in_child([(f"Game.__new__(Game).{call}", "RuntimeError") for call in GAME_CALLS]):
        assert "not initialised" in r


def test_uninitialised_cardset_raises():
    expect_raises_in_child([(f"CardSet.__new__(CardSet).{call}", "RuntimeError") for call in
                            ["deck_list(0)", "deck_index('STT01')", "def_index('STT01-001')", "__reduce__()"]])


def test_uninitialised_reprs_and_cardset_constructor():
    assert "not initialised" in repr(Game.__new__(Game))
    assert "not initialised" in repr(CardSet.__new__(CardSet))
    with pytest.raises(TypeError):
        CardSet()
    with pytest.raises(RuntimeError):
        Game(cards=CardSet.__new__(CardSet))


def test_failed_reinit_leaves_the_game_unchanged():
    g = Game(seed=3)
    h, b = g.state_hash(), g.to_bytes()
    for kw in (dict(decks=("NOPE", "STT01")), dict(seed=-1), dict(cards=""), dict(turn_cap=0)):
        with pytest.raises((TypeError, ValueError)):
            g.__init__(**kw)
        assert g.state_hash() == h and g.to_bytes() == b and g.decks == ("STT01", "STT02")


# ---- 3. deck_list ------------------------------------------------------------------
def test_deck_list_validates():
    cases = [(2, IndexError), (99, IndexError), (2**31 - 1, IndexError), (-1, IndexError), (2**64, IndexError),
             (True, TypeError), (1.0, TypeError), (None, TypeError), ("NOPE", ValueError), ([0], TypeError)]
    expect_raises_in_child([(f"CardSet.default().deck_list({k!r})", e.__name__) for k, e in cases])


def test_deck_list_by_index_and_name():
    cs = CardSet.default()
    assert cs.deck_list(0) == cs.deck_list("STT01") and cs.deck_list(np.int8(1)) == cs.deck_list("STT02")
    assert cs.deck_list(0) != cs.deck_list(1)


# ---- 4. strict types ------------------------------------------------------------------
@pytest.mark.parametrize("cards, exc", [("", ValueError), ({}, TypeError), ([], TypeError), (0, TypeError),
                                        (b"cards.json", TypeError), ("/nonexistent/x.json", Exception)])
def test_cards_argument_is_strict(cards, exc):
    with pytest.raises(exc):
        Game(cards=cards)
    with pytest.raises(exc):
        Game.from_setup({}, cards=cards)


@pytest.mark.parametrize("seed, exc", [(-1, ValueError), (2**64, ValueError), (True, TypeError), (1.5, TypeError),
                                       ("1", TypeError), (None, TypeError)])
def test_seeds_are_strict(seed, exc):
    with pytest.raises(exc):
        Game(seed=seed)
    if seed is not None:            # from_setup(seed=None) means "the setup's seed"
        with pytest.raises(exc):
            Game.from_setup({}, seed=seed)
    with pytest.raises(exc):
        azuki.rng_outputs(seed, 0, 1)


def test_seed_edges_and_numpy_ints():
    assert Game(seed=2**64 - 1).state_hash() == Game(seed=np.uint64(2**64 - 1)).state_hash()
    with pytest.raises(TypeError):
        Game(seed=np.bool_(True))


@pytest.mark.parametrize("call", ["card_info(True)", "is_legal(True)", "step(True)", "set_turn_cap(True)",
                                  "head_masks('ATTACK', True)", "decode(True)", "encode(True)",
                                  "encode('ATTACK', True)"])
def test_bools_are_not_ints(call):
    g = Game(seed=1)
    with pytest.raises(TypeError):
        eval("g." + call)


@pytest.mark.parametrize("field", ["tapped", "cooldown", "shocked"])
@pytest.mark.parametrize("value", [0, 1, "", "yes", [], None])
def test_setup_bools_are_strict(field, value):
    with pytest.raises(ValueError, match=rf"players\[0\]\.garden\[0\]\.{field}"):
        Game.from_setup({"players": [{"garden": [{"card": "STT01-003", field: value}], "hand": ["STT01-003"]}, {}]})


@pytest.mark.parametrize("setup, path", [
    ({"players": [{"gate": {"card": "STT01-002", "tapped": 0}}, {}]}, r"players\[0\]\.gate\.tapped"),
    ({"players": [{"ikz_area": [{"tapped": 1}]}, {}]}, r"players\[0\]\.ikz_area\[0\]\.tapped"),
    ({"players": [{"ikz_area": [{"token": ""}]}, {}]}, r"players\[0\]\.ikz_area\[0\]\.token"),
    ({"players": [{"garden": [{"card": "STT01-003", "damage": True}]}, {}]}, r"players\[0\]\.garden\[0\]\.damage"),
    ({"turn": True}, "turn"), ({"active": 1.0}, "active"), ({"seed": True}, "seed"), ({"seed": -1}, "seed"),
    ({"players": [{"played_entities": False}, {}]}, r"players\[0\]\.played_entities"),
    ({"players": [{"look": 0}, {}]}, r"players\[0\]\.look"),
    ({"decks": ["STT01", 0]}, r"decks\[1\]"),
])
def test_setup_ints_and_bools_name_the_key(setup, path):
    with pytest.raises(ValueError, match=path):
        Game.from_setup(setup)


def test_from_bytes_keeps_deck_names():
    for decks in (("STT01", "STT02"), ("STT02", "STT01"), ("STT02", "STT02"), ("STT01", "STT01")):
        g = Game(seed=5, decks=decks)
        for a in range(20):
            if g.is_terminal:
                break
            g.step(int(g.legal_actions()[a % len(g.legal_actions())]))
        assert Game.from_bytes(g.to_bytes()).decks == decks
        assert Game.from_bytes(g.to_bytes(), decks=("STT02", "STT01")).decks == ("STT02", "STT01")
    g = Game.from_setup({"decks": ["STT02", "STT01"], "players": [{"hand": ["STT02-004", "STT01-003"]}, {}]})
    assert Game.from_bytes(g.to_bytes()).decks == ("STT02", "STT01")
    with pytest.raises(ValueError):
        Game.from_bytes(g.to_bytes(), decks=("NOPE", "STT01"))
    with pytest.raises(TypeError):
        Game.from_bytes(g.to_bytes(), decks="STT01")


@pytest.mark.parametrize("key", ["format", "cardset", "decks", "seed", "initial_hash", "steps"])
def test_replay_missing_key_is_a_clear_error(key):
    rep = record_random_game(3)
    del rep[key]
    if key == "format":
        ok, msg = verify_replay(rep)
        assert not ok and "not a replay" in msg
        return
    with pytest.raises(ValueError, match=key):
        verify_replay(rep)


def test_replay_malformed_steps():
    rep = record_random_game(3)
    del rep["steps"][4]["hash"]
    with pytest.raises(ValueError, match=r"steps\[4\].*hash"):
        verify_replay(rep)
    rep = record_random_game(3)
    rep["steps"][2] = 7
    with pytest.raises(ValueError, match=r"steps\[2\]"):
        verify_replay(rep)
    rep = record_random_game(3)
    rep["steps"][2]["action"] = True
    ok, msg = verify_replay(rep)
    assert not ok and "step 2" in msg
    for bad in (0, 1.5, None, b"x.json"):   # never opens a file descriptor or hangs on stdin
        with pytest.raises(TypeError):
            verify_replay(bad)


# ---- 5. error messages quote excerpts ------------------------------------------------
def test_error_messages_are_short():
    huge_list = list(range(100_000))
    huge_str = "x" * 1_000_000
    checks = [
        lambda: Game(decks=(huge_str, "STT01")),
        lambda: Game(decks=huge_list),
        lambda: Game(seed=10**100000 if sys.version_info < (3, 11) else 2**300000),
        lambda: Game().attack_of(huge_str),
        lambda: Game().card_info(huge_str),
        lambda: azuki.encode(huge_str),
        lambda: CardSet.default().def_index(huge_str),
        lambda: CardSet.default().deck_list(huge_str),
        lambda: Game.from_setup({"players": [{"hand": [huge_str]}, {}]}),
        lambda: Game.from_setup({"players": [{"garden": [{"card": "STT01-003", "tapped": huge_list}]}, {}]}),
        lambda: Game.from_setup({"effects": [{"where": huge_str, "attack": 1}]}),
        lambda: Game.from_setup({huge_str: 1}),
        lambda: Game.from_setup({"players": [{k: 1 for k in map(str, range(10_000))}, {}]}),
        lambda: Game.from_setup({"players": [{"token": huge_str}, {}]}),
        lambda: verify_replay(dict(record_random_game(3), decks=[huge_str, "STT01"])),
        lambda: verify_replay(dict(record_random_game(3), decks=huge_list)),
    ]
    for i, f in enumerate(checks):
        with pytest.raises(Exception) as ei:
            f()
        assert len(str(ei.value)) < 400, (i, str(ei.value)[:500])


def test_excerpt_helper():
    from azuki import excerpt
    assert excerpt("abc") == "'abc'"
    assert len(excerpt("x" * 10**6)) <= 80 and excerpt("x" * 10**6).endswith("…")
    assert len(excerpt(list(range(10**5)))) <= 80
    assert "bits" in excerpt(2**10**6)

    class Hostile:
        def __repr__(self):
            raise RuntimeError("no")
    assert excerpt(Hostile()).startswith("<Hostile")
    assert len(excerpt({"k" * 1000: ["v" * 1000] * 1000})) <= 80
    assert len(excerpt(np.zeros((1000, 1000)))) <= 80


# ---- 7. card-set cache ------------------------------------------------------------------
def test_cardset_cache_by_content(tmp_path):
    doc = json.loads(CARDS.read_text())
    p = tmp_path / "c.json"
    p.write_text(json.dumps(doc))
    azuki.clear_cardset_cache()
    g1 = Game(cards=str(p))
    misses = azuki.cardset_cache_info()["misses"]
    for _ in range(50):
        g = Game(cards=p)          # os.PathLike works too
    assert g.cards is g1.cards
    # counted, not timed (no test depends on the machine's speed): nothing was compiled again
    assert azuki.cardset_cache_info()["misses"] == misses, "Game(cards=path) compiled the set again: not cached"
    # a changed file (same size, same mtime) is recompiled
    st = os.stat(p)
    for c in doc["cards"]:
        if c["id"] == "STT01-003":
            c["attack"] = 9 if c["attack"] != 9 else 8
    text = json.dumps(doc)
    assert len(text) == st.st_size
    p.write_text(text)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    g2 = Game(cards=str(p))
    assert g2.cards is not g1.cards and g2.cards.hash != g1.cards.hash
    assert azuki.cardset_cache_info()["size"] >= 2


def test_cardset_copies_are_the_same_object():
    import copy
    cs = CardSet.from_json(str(CARDS))
    assert copy.copy(cs) is cs and copy.deepcopy(cs) is cs
    assert cs == CardSet.default() and hash(cs) == hash(CardSet.default())


# ---- numpy-taking methods -----------------------------------------------------------------
@pytest.mark.parametrize("out, exc", [
    (np.zeros(azuki.NUM_ACTIONS, dtype=np.int8), ValueError),
    (np.zeros(azuki.NUM_ACTIONS, dtype=np.bool_), ValueError),
    (np.zeros(azuki.NUM_ACTIONS + 1, dtype=np.uint8), ValueError),
    (np.zeros(azuki.NUM_ACTIONS - 1, dtype=np.uint8), ValueError),
    (np.zeros((2, azuki.NUM_ACTIONS), dtype=np.uint8), ValueError),
    (np.zeros(2 * azuki.NUM_ACTIONS, dtype=np.uint8)[::2], ValueError),
    (list(range(azuki.NUM_ACTIONS)), TypeError),
    (bytearray(azuki.NUM_ACTIONS), TypeError),
])
def test_action_mask_out_is_checked_and_untouched(out, exc):
    g = Game(seed=2)
    before = np.array(out, copy=True) if isinstance(out, np.ndarray) else None
    with pytest.raises(exc):
        g.action_mask(out=out)
    if before is not None:
        assert np.array_equal(before, out)
    ro = np.zeros(azuki.NUM_ACTIONS, dtype=np.uint8)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        g.action_mask(out=ro)
    assert not ro.any()


def test_head_masks_and_rng_arguments():
    g = Game(seed=2)
    for args, exc in [((np.zeros(3),), TypeError), (("ATTACK", np.zeros(2)), TypeError), ((99,), ValueError),
                      (("ATTACK", -1), ValueError), ((None, 0), ValueError), ((1.0,), TypeError)]:
        with pytest.raises(exc):
            g.head_masks(*args)
    for bounds, exc in [(np.zeros(3, dtype=np.float64), TypeError), (np.zeros((2, 2), dtype=np.uint32), ValueError),
                        ([-1], ValueError), ([2**32], ValueError), ([True], TypeError), ("abc", TypeError),
                        ([1.5], TypeError), (None, TypeError)]:
        with pytest.raises(exc):
            azuki.rng_bounded(1, 2, bounds)
    assert azuki.rng_bounded(1, 2, np.array([5, 6], dtype=np.uint8)).tolist() == azuki.rng_bounded(1, 2, [5, 6]).tolist()
    with pytest.raises(ValueError):
        azuki.rng_outputs(1, 2, 2**40)

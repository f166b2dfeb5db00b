"""Random Python values thrown at every public function and method of azuki.

The public API is enumerated by introspection (module `__all__`, `dir(Game)`,
`dir(CardSet)`, azuki.replay, azuki.locations), so a new method is fuzzed
automatically; SKIP lists the few that need bounded arguments. Each call must
return or raise one of ALLOWED - never crash, never hang - and a call that
raises must leave the game unchanged (state_hash() and to_bytes()).

The fuzz runs in a child interpreter that announces each call on stdout
before making it, so a crash names the call that caused it.
Run by hand: python tests/test_api_fuzz.py SEED CALLS
"""
import math
import os
import pathlib
import random
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Calls whose arguments must be bounded to keep the run short (handled below),
# or that are not part of the contract being fuzzed.
SKIP = {
    "simulate",            # fuzzed separately with at most a few games
    "record_random_game",  # plays a whole game per call: fuzzed with a few calls only
}


def values(rng, g, cs, tmpdir):
    """A list of hostile (and some valid) Python values."""
    import numpy as np
    import azuki
    n = azuki.NUM_ACTIONS

    class BadIndex:
        def __index__(self):
            raise RuntimeError("hostile __index__")

    class BadLen(list):
        def __len__(self):
            return 2**62

    class BadRepr:
        def __repr__(self):
            raise RuntimeError("hostile __repr__")

        def __str__(self):
            raise RuntimeError("hostile __str__")

    legal = g.legal_actions().tolist() or [0]
    vals = [
        None, True, False, 0, 1, 2, -1, 5, 63, 64, 125, 126, 255, 256, n - 1, n, 2**31 - 1, 2**31, -2**31,
        2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, 10**30, 2**4000, -2**4000,
        0.0, 1.5, -0.5, float("nan"), float("inf"), -float("inf"), 1e300, complex(1, 2),
        "", "STT01", "STT02", "STT01-003", "p0.leader", "p1.garden[0]", "p0.deck[0]", "p0.leader.weapons[0]",
        "ATTACK", "CHOOSE", "x" * 5000, "\0", "é✓", "p0.garden[9999999999999]", "../../etc/passwd",
        str(tmpdir), os.path.join(str(tmpdir), "missing.json"),
        b"", b"\0" * 16, bytes(rng.randrange(256) for _ in range(64)), bytearray(b"abc"), memoryview(b"xyz"),
        g.to_bytes(), g.to_bytes()[:-1], g.to_bytes() + b"\0",
        [], [0], [1, 2], ["STT01", "STT02"], ["STT01"], ["STT01", "STT02", "STT01"], list(range(1000)),
        [None] * 3, [[[]]], (), ("STT02", "STT01"), (0, 1), {}, {"players": [{}, {}]}, {"x": 1},
        {"players": [{"garden": [{"card": "STT01-003", "tapped": 1}]}, {}]}, {"decks": ["STT01", 5]},
        {"format": "azuki-replay/1"}, {"format": "azuki-replay/1", "seed": 1, "decks": ["STT01", "STT02"],
                                       "cardset": "0", "initial_hash": "0", "steps": [{"action": 1}]},
        set(), frozenset({1}), range(5), iter([1, 2]),
        np.zeros(n, dtype=np.uint8), np.zeros(n, dtype=np.int64), np.zeros(n + 1, dtype=np.uint8),
        np.zeros((2, n), dtype=np.uint8), np.zeros(0, dtype=np.uint8), np.zeros(n, dtype=np.float32),
        np.zeros(2 * n, dtype=np.uint8)[::2], np.array(["a", "b"]), np.array([1, 2, 3], dtype=np.uint32),
        np.int64(3), np.int8(-1), np.uint64(2**64 - 1), np.bool_(True), np.float64(2.0), np.array(5),
        object(), BadIndex(), BadLen(), BadRepr(), lambda *a: None, print, ValueError,
        cs, g, azuki.CardSet.__new__(azuki.CardSet), azuki.Game.__new__(azuki.Game),
        azuki.Location(0, "leader"), azuki.Location(5, "garden", 9),
    ]
    vals += [rng.choice(legal) for _ in range(6)] + [np.int32(rng.choice(legal))]
    vals += [g.card_info(rng.randrange(126))["where"] for _ in range(4)]
    return vals


def allowed():
    import azuki
    from azuki.convert import ConvertError
    # RuntimeError: only from uninitialised objects and hostile __index__ values above
    return (TypeError, ValueError, IndexError, KeyError, LookupError, azuki.AzukiError, ConvertError,
            OSError, RuntimeError)


def public(obj):
    return sorted(n for n in dir(obj) if not n.startswith("_"))


def targets(azuki_mod):
    import azuki.locations
    import azuki.replay
    from azuki import CardSet, Game
    out = []
    for name in azuki_mod.__all__:
        f = getattr(azuki_mod, name)
        if callable(f) and not isinstance(f, type) and name not in SKIP:
            out.append((f"azuki.{name}", None, f))
    for mod in (azuki.replay, azuki.locations):
        for name in public(mod):
            f = getattr(mod, name)
            if callable(f) and getattr(f, "__module__", None) == mod.__name__ and name not in SKIP:
                out.append((f"{mod.__name__}.{name}", None, f))
    for cls in (Game, CardSet, azuki.replay.Recorder):
        for name in public(cls) + ["__reduce__", "__copy__", "__deepcopy__", "__repr__"]:
            if name in SKIP or not hasattr(cls, name):
                continue
            out.append((f"{cls.__name__}.{name}", cls, name))
    return out


def arity(fn):
    """(min, max) positional arguments of fn, or None when unknown."""
    import inspect
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    ps = [p for p in sig.parameters.values() if p.name != "self"]
    if any(p.kind == p.VAR_POSITIONAL for p in ps):
        return None
    pos = [p for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return sum(p.default is p.empty for p in pos), len(pos)


def fuzz(seed, calls, log=None):
    import copy
    import tempfile

    import numpy as np

    import azuki
    from azuki import CardSet, Game
    from azuki.replay import Recorder

    from azuki.convert import ConvertError
    rng = random.Random(seed)
    ok_exc = allowed()
    tmpdir = tempfile.mkdtemp()
    cs = CardSet.default()
    g = Game(seed=seed)
    rec = Recorder(seed=seed)
    tlist = targets(azuki)
    stats = {"ok": 0, "raised": 0}
    for i in range(calls):
        if g.is_terminal or rng.random() < 0.01:
            g = Game(seed=rng.randrange(1000), decks=rng.choice([("STT01", "STT02"), ("STT02", "STT01")]))
        if rng.random() < 0.3:     # move the game on so prompts, combats and weapons show up
            legal = g.legal_actions()
            if len(legal):
                g.step(int(legal[rng.randrange(len(legal))]))
        vals = values(rng, g, cs, tmpdir)
        label, owner, f = tlist[rng.randrange(len(tlist))]
        fn0 = f if owner is None else getattr(owner, f)
        ar = None if isinstance(fn0, property) or not callable(fn0) else arity(fn0)
        if ar is not None and rng.random() < 0.9:   # mostly the right number of arguments
            nargs = rng.randint(ar[0], ar[1])
        else:
            nargs = rng.choice([0, 1, 1, 1, 2, 2, 3, 4])
        args = [rng.choice(vals) for _ in range(nargs)]
        kwargs = {}
        if rng.random() < 0.2:
            kwargs[rng.choice(["seed", "decks", "cards", "turn_cap", "out", "type", "p0", "text", "path"])] = \
                rng.choice(vals)
        if owner is None:
            fn = f
            subject = None
        else:
            subject = {Game: g, CardSet: cs, Recorder: rec}[owner]
            if owner is Game and rng.random() < 0.5:
                subject = g
            attr = getattr(owner, f)
            if isinstance(attr, property) or not callable(getattr(subject, f)):
                fn = lambda *a, **k: getattr(subject, f)    # noqa: E731 (properties: just read)
                args, kwargs = [], {}
            else:
                fn = getattr(subject, f)
        if log:
            log.write(f"{i} {label} {azuki.excerpt(args, 200)} {azuki.excerpt(kwargs, 120)}\n")
            log.flush()
        before = (g.state_hash(), g.to_bytes())
        rec_before = (rec.game.state_hash(), len(rec.steps))
        try:
            r = fn(*args, **kwargs)
        except ok_exc as e:
            stats["raised"] += 1
            by = stats.setdefault("by", {}).setdefault(label, {})
            by[type(e).__name__] = by.get(type(e).__name__, 0) + 1
            if isinstance(e, RuntimeError):
                assert ("not initialised" in str(e) or "hostile" in str(e)), f"{label}: unexpected {e!r}"
            assert (g.state_hash(), g.to_bytes()) == before, f"{label}{args}: failed call changed the game"
            assert (rec.game.state_hash(), len(rec.steps)) == rec_before, f"{label}: failed call changed the recorder"
            str(e)   # the message itself must be buildable
            # azuki.convert's messages (ConvertError) are another engineer's; they will use azuki.excerpt
            assert len(str(e)) < 2000 or isinstance(e, ConvertError), f"{label}: {len(str(e))}-char message"
        else:
            stats["ok"] += 1
            by = stats.setdefault("by", {}).setdefault(label, {})
            by["ok"] = by.get("ok", 0) + 1
            if isinstance(r, Game):
                assert r.check_invariants() == 0
            if isinstance(r, np.ndarray):
                assert r.size < 10**7
        assert g.check_invariants() == 0, f"{label}: invariants broken"
        if rec.game.is_terminal:
            rec = Recorder(seed=rng.randrange(100))
    # the two bounded ones
    for _ in range(max(1, calls // 100)):
        vals = values(rng, g, cs, tmpdir)
        small = [v for v in vals if not (isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                                         and v > 3)] + [0, 1, 2, 3]
        kw = {k: rng.choice(vals) for k in rng.sample(["seed", "decks", "cards", "turn_cap", "progress", "chunk"],
                                                       rng.randrange(3))}
        if log:
            log.write(f"simulate {azuki.excerpt(kw, 200)}\n")
            log.flush()
        try:
            azuki.simulate(rng.choice(small), **kw)
        except ok_exc:
            pass
        try:
            azuki.replay.record_random_game(rng.choice(vals), turn_cap=rng.choice([1, 5, 30, rng.choice(vals)]))
        except ok_exc:
            pass
    copy.deepcopy(g)
    return stats


@pytest.mark.slow    # make quick-test skips it; make test runs it (pyproject.toml markers)
def test_fuzz_public_api():
    """~10k random calls in a child interpreter; a crash names its call."""
    total = {"ok": 0, "raised": 0}
    for seed in (1, 2):
        p = subprocess.run([sys.executable, __file__, str(seed), "5000"], capture_output=True, text=True,
                           timeout=120, cwd=ROOT)
        last = p.stdout.strip().splitlines()[-3:]
        assert p.returncode == 0, f"seed {seed}: child exited {p.returncode}; last calls: {last}\n{p.stderr[-3000:]}"
        ok, raised = map(int, last[-1].split()[1:3])
        total["ok"] += ok
        total["raised"] += raised
    assert total["ok"] > 1000 and total["raised"] > 1000, total


def test_every_public_method_is_a_target():
    import azuki
    names = {t[0] for t in targets(azuki)}
    for n in ("Game.step", "Game.action_mask", "Game.head_masks", "Game.locate", "Game.card_info", "Game.from_bytes",
              "Game.from_setup", "CardSet.deck_list", "CardSet.from_json", "azuki.encode", "azuki.rng_bounded",
              "azuki.replay.verify_replay", "azuki.locations.parse_location", "Game.__reduce__"):
        assert n in names, n


if __name__ == "__main__":
    seed, calls = int(sys.argv[1]), int(sys.argv[2])
    st = fuzz(seed, calls, log=sys.stdout)
    if os.environ.get("AZUKI_FUZZ_SUMMARY"):
        for k, v in sorted(st.get("by", {}).items()):
            print("SUMMARY", k, v)
    print(f"DONE {st['ok']} {st['raised']}")

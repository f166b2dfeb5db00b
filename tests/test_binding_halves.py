"""The binding's classes are a C half (azuki/_core.pyx and its .pxi parts)
plus a plain-Python half beside it (azuki/_cardset_py.py, _game_py.py,
_vec_py.py, _cpolicy_py.py; card-set files and their cache in
azuki/convert/cache.py) - issue 31 item 2. These tests hold the seams: the
Python halves never import the extension at module level (it imports them
while it initialises), the cache runs without the extension, and each class
is still one class (isinstance, no instance __dict__, mixin methods found).
"""
import ast
import inspect
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import azuki
from azuki import _core

ROOT = Path(__file__).resolve().parents[1]
HALVES = ["azuki/_args.py", "azuki/_cardset_py.py", "azuki/_game_py.py", "azuki/_vec_py.py", "azuki/_cpolicy_py.py",
          "azuki/convert/cache.py"]


@pytest.mark.parametrize("rel", HALVES)
def test_python_halves_import_the_extension_only_inside_functions(rel):
    tree = ast.parse((ROOT / rel).read_text())
    for node in tree.body:      # module level only: function bodies run after _core has initialised
        if isinstance(node, ast.ImportFrom):
            assert node.module not in ("_core", "azuki._core") and not any(
                a.name == "_core" for a in node.names), f"{rel}: module-level import of azuki._core"
        if isinstance(node, ast.Import):
            assert all(a.name != "azuki._core" for a in node.names), f"{rel}: module-level import of azuki._core"


def test_cardset_cache_runs_without_the_extension(tmp_path):
    """azuki.convert.cache compiles, caches and notices an edited file with no azuki._core at all."""
    src = ROOT / "azuki" / "data" / "cards.json"
    p = tmp_path / "cards.json"
    p.write_bytes(src.read_bytes())
    code = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "azuki._core":
            raise ImportError("blocked")
sys.meta_path.insert(0, Block())
from azuki.convert import cache
built = []
def build(compiled, text):
    built.append(compiled.source)
    return object()
a = cache.cached({str(p)!r}, None, build)
assert cache.cached({str(p)!r}, None, build) is a and len(built) == 1
open({str(p)!r}, "ab").write(b"\\n")
assert cache.cached({str(p)!r}, None, build) is not a and len(built) == 2
assert cache.cardset_cache_info()["misses"] == 2 and "azuki._core" not in sys.modules
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


@pytest.mark.parametrize("make", [lambda: azuki.Game(seed=1), lambda: azuki.CardSet.default(),
                                  lambda: azuki.VecGame(1)])
def test_each_class_is_still_one_class(make):
    obj = make()
    cls = type(obj)
    assert cls is getattr(_core, cls.__name__) is getattr(azuki, cls.__name__)
    assert not hasattr(obj, "__dict__")
    with pytest.raises(AttributeError):
        obj.no_such_attribute = 1


def test_mixin_methods_are_the_classes_methods():
    g = azuki.Game(seed=1)
    assert isinstance(g, _core.Game) and type(g).__mro__[-2].__name__ == "GameMixin"
    assert azuki.Game.from_bytes(g.to_bytes()).state_hash() == g.state_hash()
    assert g.card_info("p0.leader")["where"] == "p0.leader" and "describe" in dir(azuki.Game)
    assert azuki.CardSet.default().deck_index("STT02") == 1


HOT = {"Game": ("step", "legal_actions", "observe", "clone", "current_player", "is_terminal"), "VecGame": ("step",)}


@pytest.mark.parametrize("cls, name", [(c, n) for c, names in HOT.items() for n in names])
def test_hot_calls_are_the_extensions_own(cls, name):
    """The calls a training or search loop makes per step stay in Cython: defined on the extension class
    itself (not a mixin's Python function or property), so no Python frame runs between caller and C."""
    d = getattr(_core, cls).__dict__.get(name)
    assert d is not None and not inspect.isfunction(d) and not isinstance(d, property), f"{cls}.{name}"


def test_moved_facts_read_the_engine():
    """Game's facts (GameMixin over one _facts() call) and the card queries (over _card_facts) agree with
    the engine's flat export at every position of a game."""
    g = azuki.Game(seed=5)
    rng = _core.bot_rng(5)
    while True:
        pos = g.state_dict()       # read through the flat export, not through _facts
        assert (g.turn, g.turn_cap, g.active_player, g.first_player, g.decisions, g.decision_cap, g.phase, g.result,
                g.end_reason) == tuple(pos[k] for k in ("turn", "turn_cap", "active", "first_player", "decisions",
                                                        "decision_cap", "phase", "result", "end_reason"))
        lead = pos["players"][0]["leader"]
        assert (g.attack_of("p0.leader"), g.health_of("p0.leader"), g.statuses_of("p0.leader")) == \
            (lead["attack"], lead["health"], sorted(lead["statuses"]))
        if g.is_terminal:
            break
        g.step(_core.bot_act(g, 1, rng))
    assert g.winner in (0, 1, None) and (g.end_reason is None) == (g.result == "ONGOING")
    v = azuki.VecGame(3, seed=2)
    assert v.episodes().tolist() == [v.episode(i) for i in range(3)]
    assert v.agent_seats().tolist() == [v.agent_seat(i) for i in range(3)]


BINDING_MAX_LINES = 1100


def test_the_binding_stays_thin():
    """azuki/_core.pyx and its .pxi parts are wrappers over csrc/azuki.h (issue 31 item 2): their lines together
    stay within BINDING_MAX_LINES, so new code that is not a C call lands in the plain-Python halves or in C."""
    parts = [ROOT / "azuki" / "_core.pyx"] + sorted((ROOT / "azuki").glob("_*.pxi"))
    sizes = {p.name: len(p.read_text().splitlines()) for p in parts}
    assert {"_core.pyx", "_game.pxi", "_vec.pxi"} <= set(sizes), sizes
    assert sum(sizes.values()) <= BINDING_MAX_LINES, (
        f"the Cython binding is {sum(sizes.values())} lines {sizes}, over {BINDING_MAX_LINES}: keep only C calls "
        f"there. Put a method that makes no C call of its own in the class's mixin (azuki/_cardset_py.py, "
        f"_game_py.py, _vec_py.py, _cpolicy_py.py), argument checks and messages in those files, azuki/_args.py or "
        f"azuki/games.py, and a loop or set-up every binding would repeat in C behind csrc/azuki.h "
        f"(docs/extending.md, 'The binding: where new Python-facing code goes').")
    for p in parts:     # and not by cramming: the project's line length
        assert max(len(line) for line in p.read_text().splitlines()) <= 120, f"{p.name}: a line over 120 characters"


@pytest.mark.parametrize("mode", ["self", "bot", "policy"])
def test_what_moved_to_c_agrees_with_the_schedule(mode):
    """The set-up the binding used to repeat now comes from C: VecGame.game(i)'s decks (azk_vec_deck, once
    re-derived from the deal schedule in Cython) are the schedule's, and the acting buffer (azk_vec_acting,
    once an int32 copy) marks exactly the rows whose mask is more than NO_OP."""
    pairings = [("STT01", "STT02"), ("STT02", "STT02"), ("STT02", "STT01")]
    v = azuki.VecGame(6, seed=11, mode=mode, pairings=pairings)
    rng = np.random.default_rng(0)
    for _ in range(400):
        for i in range(v.n):
            d = _core.deal_schedule(v.episode(i), 11, len(pairings))
            pair = pairings[d["pairing"]]
            assert v.game(i).decks == (pair[::-1] if d["swapped"] else pair)
        multi = v.masks.sum(axis=1) > 1
        assert not (multi & (v.acting == 0)).any()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in v.masks], dtype=np.int64)  # not int32: converted
        v.step(acts)
        if mode == "policy":
            v.step_opponent(v.bot_opponent_actions("random"))
    assert v.log()["episodes"] > 0

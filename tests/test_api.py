"""The Python API (DESIGN §5): names, types, errors at the boundary, and the
property suite over random legal play (mask vs apply, clone / bytes
round trips, determinism, invariants, every prompt kind reached)."""
import numpy as np
import pytest

import azuki
from azuki import _core
from azuki._core import decode, encode, rng_bounded

NA = azuki.NUM_ACTIONS


def random_game(seed, decks=("STT01", "STT02"), max_steps=100000, on_step=None):
    g = azuki.Game(seed=seed, decks=decks)
    i = 0
    while not g.is_terminal and i < max_steps:
        legal = g.legal_actions()
        a = int(legal[int(rng_bounded(seed, 1000 + i, [len(legal)])[0])])
        if on_step:
            on_step(g, a, legal)
        g.step(a)
        i += 1
    return g, i


def test_module_constants():
    assert NA == _core.NUM_ACTIONS == 1056
    assert _core.ACTION_TYPES[0] == "NO_OP" and len(_core.ACTION_TYPES) == 14
    assert "DRAWN" in _core.EVENT_TYPES


def test_design_contract_names_at_package_level():
    """DESIGN §5: azuki.NUM_ACTIONS, azuki.ACTION_TYPES, azuki.encode(type, p0,
    p1, p2) and the game/error classes are importable from the package."""
    assert azuki.ACTION_TYPES == _core.ACTION_TYPES and azuki.NUM_ACTIONS == 1056
    a = azuki.encode("ATTACK", 1, 0, 0)
    assert azuki.encode(6, 1, 0) == a and azuki.decode(a) == ("ATTACK", 1, 0, 0)
    assert azuki.Game(seed=0).decode(a) == ("ATTACK", 1, 0, 0)
    with pytest.raises(ValueError):
        azuki.encode("ATTACK", 1, 0, 1)              # p2 is reserved
    with pytest.raises(ValueError):
        azuki.encode("NOT_A_TYPE", 0, 0)
    assert issubclass(azuki.IllegalActionError, ValueError) and issubclass(azuki.StateError, ValueError)
    with pytest.raises(AttributeError):
        azuki.no_such_name


def test_new_game_facts():
    g = azuki.Game(seed=5)
    assert g.phase == "MULLIGAN"
    assert g.current_player == g.first_player in (0, 1)
    assert not g.is_terminal and g.winner is None and g.result == "ONGOING"
    d = g.state_dict()
    assert [len(p["hand"]) for p in d["players"]] == [7, 7]
    assert [len(p["deck"]) for p in d["players"]] == [43, 43]
    legal = g.legal_actions()
    assert legal.dtype == np.int32
    assert sorted(decode(a)[0] for a in legal) == ["MULLIGAN_KEEP", "MULLIGAN_SHUFFLE"]


def test_encode_decode_inverse():
    for a in range(NA):
        t, p0, p1, p2 = decode(a)
        assert encode(t, p0, p1, p2) == a
    assert encode("ATTACK", 1, 0) == encode(_core.ACTION_TYPES.index("ATTACK"), 1, 0)
    for bad in [("ATTACK", 6, 0), ("NOPE", 0, 0), ("END_TURN", 0, 0, 1), (99, 0, 0), ("CHOOSE", -1, 0)]:
        with pytest.raises(ValueError):
            encode(*bad)
    for bad in [-1, NA, 2**40]:
        with pytest.raises(ValueError):
            decode(bad)


@pytest.mark.parametrize("bad", [-1, NA, 10**12, -(10**12)])
def test_step_out_of_range_rejected(bad):
    g = azuki.Game(seed=1)
    h = g.state_hash()
    with pytest.raises(azuki.IllegalActionError):
        g.step(bad)
    assert g.state_hash() == h


@pytest.mark.parametrize("bad", [1.5, "3", None, True, np.float32(2.0), [1]])
def test_step_wrong_type_rejected(bad):
    g = azuki.Game(seed=1)
    h = g.state_hash()
    with pytest.raises(TypeError):
        g.step(bad)
    assert g.state_hash() == h


def test_step_accepts_numpy_ints():
    g = azuki.Game(seed=1)
    a = g.legal_actions()[0]
    g.step(np.int64(a))
    assert g.phase in ("MULLIGAN", "MAIN")


def test_illegal_in_range_action_unchanged_bytes():
    g = azuki.Game(seed=2)
    mask = g.action_mask()
    illegal = [a for a in range(NA) if not mask[a]]
    before = g.to_bytes()
    for a in illegal[::7]:
        with pytest.raises(azuki.IllegalActionError):
            g.step(a)
    assert g.to_bytes() == before


def test_action_mask_out_validation():
    g = azuki.Game(seed=3)
    out = np.zeros(NA, dtype=np.uint8)
    assert g.action_mask(out=out) is out
    assert out.sum() == len(g.legal_actions())
    for bad in [np.zeros(NA, dtype=np.int32), np.zeros(NA + 1, dtype=np.uint8), np.zeros((2, NA), dtype=np.uint8),
                np.zeros(2 * NA, dtype=np.uint8)[::2]]:
        with pytest.raises(ValueError):
            g.action_mask(out=bad)
    ro = np.zeros(NA, dtype=np.uint8)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        g.action_mask(out=ro)
    with pytest.raises(TypeError):
        g.action_mask(out=[0] * NA)


def test_terminal_game_rejects_steps():
    g, _ = random_game(11)
    assert g.is_terminal and g.phase == "GAME_OVER"
    assert len(g.legal_actions()) == 0 and g.action_mask().sum() == 0
    h = g.state_hash()
    with pytest.raises(azuki.IllegalActionError, match="over"):
        g.step(encode("END_TURN"))
    assert g.state_hash() == h
    assert g.result in ("WIN_P0", "WIN_P1", "DRAW", "TRUNCATED")
    if g.result.startswith("WIN"):
        assert g.winner == int(g.result[-1])


def test_bad_constructor_arguments():
    with pytest.raises(ValueError):
        azuki.Game(decks=("STT01",))
    with pytest.raises(ValueError):
        azuki.Game(decks=("STT01", "NOPE"))
    with pytest.raises(ValueError):
        azuki.Game(seed=-1)
    with pytest.raises(TypeError):
        azuki.Game(seed="x")
    with pytest.raises(ValueError):
        azuki.Game(turn_cap=0)


def test_bytes_round_trip_and_corruption():
    g, _ = random_game(4, max_steps=60)
    b = g.to_bytes()
    h = azuki.Game.from_bytes(b)
    assert h.state_hash() == g.state_hash() and h.to_bytes() == b
    for bad in [b"", b[:10], b[:-1], b + b"x", bytes(len(b))]:
        with pytest.raises(azuki.StateError):
            azuki.Game.from_bytes(bad)
    for i in (0, 5, 30, len(b) // 2, len(b) - 1):
        x = bytearray(b)
        x[i] ^= 0x41
        with pytest.raises(azuki.StateError):
            azuki.Game.from_bytes(bytes(x))
    with pytest.raises(TypeError):
        azuki.Game.from_bytes("text")


def test_clone_is_independent():
    g, _ = random_game(6, max_steps=40)
    c = g.clone()
    assert c.state_hash() == g.state_hash()
    a = int(c.legal_actions()[-1])
    c.step(a)
    assert c.state_hash() != g.state_hash() or len(g.legal_actions()) == 0


def test_events_render_prompt_types():
    g = azuki.Game(seed=8)
    g.events()
    g.step(int(g.legal_actions()[0]))
    ev = g.events()
    assert isinstance(ev, list) and all("type" in e for e in ev)
    assert g.events() == []  # drained
    assert "turn" in g.render()
    assert g.prompt() is None or isinstance(g.prompt(), dict)
    assert isinstance(g.action_str(int(g.legal_actions()[0])), str)


def test_events_report_draws_and_turns():
    g = azuki.Game(seed=9)
    seen = set()
    for _ in range(40):
        if g.is_terminal:
            break
        g.step(int(g.legal_actions()[0]))
        seen |= {e["type"] for e in g.events()}
    assert {"TURN_START", "DRAWN"} <= seen


def test_every_event_type_occurs_in_random_play():
    """Every event type the engine declares is emitted somewhere in random
    play with the starter decks, except the engine-bound ones (OPTIONS_TRUNCATED,
    TRUNCATED: impossible with the starter set and the default caps) and
    EVENTS_DROPPED (the log is drained every step here); those three are
    covered by tests/test_hardening.py."""
    import random
    seen = set()
    pairs = [("STT01", "STT02"), ("STT02", "STT01"), ("STT01", "STT01"), ("STT02", "STT02")]
    for s in range(120):
        g = azuki.Game(seed=s, decks=pairs[s % 4])
        r = random.Random(s)
        while not g.is_terminal:
            g.step(r.choice(list(g.legal_actions())))
            seen |= {e["type"] for e in g.events()}
    deck_events = {"SEARCHED", "SHUFFLED", "PUT_ON_DECK"}   # --- deck ---: expansion cards only (tests/test_ext_deck.py)
    assert set(_core.EVENT_TYPES) - seen == {"OPTIONS_TRUNCATED", "TRUNCATED", "EVENTS_DROPPED"} | deck_events


# ---- property suite -------------------------------------------------------------

def _check_step(g, a, legal):
    mask = g.action_mask()
    assert mask.sum() == len(legal) and all(mask[legal])
    assert g.check_invariants() == 0
    assert len(legal) >= 2  # RULES §12: one answer is no question


@pytest.mark.parametrize("decks", [("STT01", "STT02"), ("STT02", "STT01"), ("STT01", "STT01"), ("STT02", "STT02")])
def test_random_play_properties(decks):
    for seed in range(40):
        g, n = random_game(seed, decks, on_step=_check_step)
        assert g.is_terminal and n > 0


def test_determinism_and_replay_from_bytes():
    seed = 21
    hashes = []
    random_game(seed, on_step=lambda g, a, l: hashes.append(g.state_hash()))
    again = []
    random_game(seed, on_step=lambda g, a, l: again.append(g.state_hash()))
    assert hashes == again and len(set(hashes)) > 10
    # serialize mid-game: the restored game has the same future
    g = azuki.Game(seed=seed)
    i = 0
    while i < 50:
        legal = g.legal_actions()
        g.step(int(legal[int(rng_bounded(seed, 1000 + i, [len(legal)])[0])]))
        i += 1
    r = azuki.Game.from_bytes(g.to_bytes())
    c = g.clone()
    while not g.is_terminal:
        legal = g.legal_actions()
        assert np.array_equal(legal, r.legal_actions()) and np.array_equal(legal, c.legal_actions())
        a = int(legal[int(rng_bounded(seed, 1000 + i, [len(legal)])[0])])
        g.step(a), r.step(a), c.step(a)
        assert g.state_hash() == r.state_hash() == c.state_hash()
        i += 1


def test_every_prompt_kind_is_reached_and_answered():
    """All six prompt kinds arise in random play with the starter decks and
    every one is answered by a CHOOSE (or NO_OP when optional)."""
    kinds = {}
    for seed in range(300):
        g = azuki.Game(seed=seed, decks=(("STT01", "STT02"), ("STT02", "STT01"), ("STT01", "STT01"), ("STT02", "STT02"))[seed % 4])
        i = 0
        while not g.is_terminal:
            p = g.prompt()
            legal = g.legal_actions()
            if p is not None:
                assert g.phase == "PROMPT" and p["chooser"] == g.current_player
                acts = {o["action"] for o in p["options"]}
                if p["optional"]:
                    acts.add(p["decline_action"])
                assert set(legal.tolist()) <= acts
                kinds[p["kind"]] = kinds.get(p["kind"], 0) + 1
            g.step(int(legal[int(rng_bounded(seed, i, [len(legal)])[0])]))
            i += 1
        if len(kinds) == 6:
            break
    # MODE ("choose one", docs/rules.md §16.2), SEARCH and TOP_ORDER (§17) are on no starter card:
    # tests/test_ext_effects.py and tests/test_ext_deck.py reach them
    assert set(kinds) == set(_core.PROMPT_KINDS) - {"MODE", "SEARCH", "TOP_ORDER"}, kinds


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_head_masks_match_the_legal_set(seed):
    """DESIGN §3 per-head masks: the marginals, the masks conditioned on a type
    and on (type, p0) equal what the exact legal list implies, and sampling
    type -> p0 -> p1 from them always gives a legal action."""
    rng = np.random.default_rng(seed)
    g = azuki.Game(seed=seed, decks=("STT01", "STT02") if seed % 2 else ("STT02", "STT01"))
    steps = 0
    while not g.is_terminal and steps < 400:
        legal = [g.decode(a)[:3] for a in g.legal_actions()]
        tidx = {t: i for i, t in enumerate(azuki.ACTION_TYPES)}
        mt, m0, m1 = g.head_masks()
        assert set(np.flatnonzero(mt)) == {tidx[t] for t, _, _ in legal}
        assert set(np.flatnonzero(m0)) == {p for _, p, _ in legal}
        assert set(np.flatnonzero(m1)) == {q for _, _, q in legal}
        for t in {t for t, _, _ in legal}:
            _, c0, c1 = g.head_masks(t)
            assert set(np.flatnonzero(c0)) == {p for u, p, _ in legal if u == t}
            assert set(np.flatnonzero(c1)) == {q for u, _, q in legal if u == t}
            for p in np.flatnonzero(c0):
                _, _, d1 = g.head_masks(tidx[t], int(p))
                assert set(np.flatnonzero(d1)) == {q for u, pp, q in legal if u == t and pp == p}
        t = int(rng.choice(np.flatnonzero(mt)))
        p = int(rng.choice(np.flatnonzero(g.head_masks(t)[1])))
        q = int(rng.choice(np.flatnonzero(g.head_masks(t, p)[2])))
        a = azuki.encode(t, p, q)
        assert g.is_legal(a)
        g.step(a)
        steps += 1


def test_head_masks_bad_input():
    g = azuki.Game(seed=0)
    assert [m.shape for m in g.head_masks()] == [(n,) for n in azuki.HEAD_SIZES]
    h = g.state_hash()
    for kw, err in [({"type": "NOPE"}, ValueError), ({"type": 14}, ValueError), ({"type": -1}, ValueError),
                    ({"type": 2**70}, ValueError), ({"p0": 1}, ValueError),
                    ({"type": "ATTACK", "p0": 6}, ValueError), ({"type": "ATTACK", "p0": 2**40}, ValueError),
                    ({"type": "ATTACK", "p0": -1}, ValueError), ({"type": True}, TypeError),
                    ({"type": "ATTACK", "p0": 1.5}, TypeError)]:
        with pytest.raises(err):
            g.head_masks(**kw)
    assert g.state_hash() == h
    # a legal type with p0 inside the head but beyond that type's own range
    mt, m0, m1 = g.head_masks("ATTACK", 5)
    assert not m1.any()

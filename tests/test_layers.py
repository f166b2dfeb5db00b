"""The binding's layers (docs/python_api.md "Layers"): the Cython layer sees
only the public C API, positions are read through the flat export and built
through the setup plan, both declared once in csrc/azk_export.def."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import azuki
from azuki import _core, spec_autogen as S
from azuki.state import Position

REPO = Path(__file__).resolve().parent.parent


def test_pxd_declares_no_engine_internals():
    pxd = (REPO / "azuki" / "_core.pxd").read_text()
    assert 'cdef extern from "game.h"' not in pxd
    for name in ("azk_card:", "azk_player", "azk_prompt", "azk_vm_frame", "azk_attack_of", "azk_state_check",
                 "azk_advance", "azk_move", "azk_check_state", "cards[126]"):
        assert name not in pxd, name
    header = (REPO / "csrc" / "azuki.h").read_text()
    block = pxd.split('cdef extern from "azuki.h" nogil:', 1)[1].split("cdef extern", 1)[0]
    for fn in re.findall(r"\b(azk_\w+)\(", block):
        assert re.search(rf"\b{fn}\s*\(", header), f"{fn} is not public (csrc/azuki.h)"


def test_layouts_match_spec_and_docs():
    for lay, names in ((_core.EXPORT_LAYOUT, S.EXPORT), (_core.PLAN_LAYOUT, S.PLAN)):
        assert tuple(lay.fields) == names
        at = 0
        for off, cnt in lay.fields.values():
            assert off == at
            at += cnt
        assert at == lay.size
    doc = (REPO / "docs" / "state_format.md").read_text()
    for lay, title in ((_core.EXPORT_LAYOUT, "Flat export"), (_core.PLAN_LAYOUT, "Setup plan")):
        assert f"### {title}, version {lay.version} ({lay.size} words)" in doc
        part = doc.split(f"### {title}", 1)[1].split("###", 1)[0]
        rows = re.findall(r"^\| `(\w+)` \| (\d+) \|", part, re.M)
        assert [(n, lay.fields[n][0]) for n, _ in rows] == [(n, int(o)) for n, o in rows]
        assert [n for n, _ in rows] == list(lay.fields)


def test_export_reads_the_position():
    g = azuki.Game(seed=4)
    x = g.export()
    X = _core.EXPORT_LAYOUT
    assert x.dtype == np.int32 and x.shape == (X.size,)
    assert x[X.VERSION] == X.version and x[X.NUM_CARDS] == _core.NUM_CARDS
    assert x[X.TURN] == g.turn and S.PHASE[x[X.PHASE]] == g.phase
    hand = x[X.HAND:X.HAND + x[X.HAND_N]].tolist()
    assert [g.where(c) for c in hand] == [f"p0.hand[{i}]" for i in range(len(hand))]
    pos = Position(x, X, g.cards)
    assert pos.state_dict(g.decks, g.state_hash(), g.prompt()) == g.state_dict()


@pytest.mark.parametrize("seed", range(6))
def test_from_setup_round_trips_through_the_plan(seed):
    g = azuki.Game(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(30 + seed):
        la = g.legal_actions()
        if g.is_terminal:
            break
        g.step(int(la[rng.integers(len(la))]))
    while not g.is_terminal and g.phase != "MAIN":
        la = g.legal_actions()
        g.step(int(la[rng.integers(len(la))]))
    if g.is_terminal:
        return
    d = g.state_dict()
    h = azuki.Game.from_setup(d)
    assert h.check_invariants() == 0
    a, b = h.state_dict(), d
    for k in ("turn", "active", "first_player", "effects"):
        assert a[k] == b[k]
    strip = lambda pl: {k: v for k, v in pl.items() if k not in ("leader", "garden", "alley")}
    assert [strip(p) for p in a["players"]] == [strip(p) for p in b["players"]]


def test_setup_plan_rejections_name_the_problem(monkeypatch):
    """What the C side refuses comes back as a ValueError naming the word or
    the invariant (the dict checks of _setup.py normally catch it first)."""
    import azuki._setup as setup
    X = _core.PLAN_LAYOUT
    real = setup.pack_plan
    words = real(setup.build_setup({"players": [{"hand": ["STT01-005"]}, {}]}, azuki.CardSet.default()), X)
    assert len(words) == X.size

    def corrupt(k, v):
        def pack(plan, lay):
            w = real(plan, lay)
            w[k] = v
            return w
        monkeypatch.setattr(setup, "pack_plan", pack)

    corrupt(X.CARD_DEF + 3, 999)
    with pytest.raises(ValueError, match=r"setup plan rejected at word \d+ \(CARD_DEF\[3\]\)"):
        azuki.Game.from_setup({"players": [{"hand": ["STT01-005"]}, {}]})
    corrupt(X.DECK, words[X.HAND])          # the hand card listed in the deck too
    with pytest.raises(ValueError, match="does not describe a valid position"):
        azuki.Game.from_setup({"players": [{"hand": ["STT01-005"]}, {}]})

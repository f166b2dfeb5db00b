"""The card-set record is declared once (csrc/azk_cardset.def): the C structs,
azk_cardset_layout(), the Python packer (azuki/convert/pack.py) and the
generated default (azuki/convert/cstruct.py) all come from it. These tests
check that the packer's layout is the C compiler's, field by field, and that
the two ways a set reaches the engine (embedded C initializer, run-time bytes
through azk_cardset_load) give the same set."""
import copy
import re
import struct
from pathlib import Path

import pytest

import azuki
from azuki import spec_autogen
from azuki._core import cardset_layout
from azuki.convert import load_cardset
from azuki.convert import pack
from azuki.convert.defs import CAPS, DEF_FAMILIES, RECORD_FAMILIES, parse_def_text

ROOT = Path(__file__).resolve().parent.parent


def test_packer_layout_is_the_c_layout():
    c = cardset_layout()
    py = pack.layout_rows()
    assert [r[:2] for r in c] == [r[:2] for r in py]          # the same records and fields, in order
    for a, b in zip(c, py):
        assert a == b, f"{a[0]}.{a[1]}: C offset/size {a[2:]} != pack.py {b[2:]}"
    assert pack.DATA_BYTES == dict(((r, f), s) for r, f, _, s in c)[("azk_cardset", "")]


def test_every_declared_field_is_in_the_layout():
    declared = [(rec, e.name) for fam, rec in RECORD_FAMILIES.items() for e in DEF_FAMILIES[fam]]
    assert declared == [(r, f) for r, f, _, _ in cardset_layout() if f]
    # the declaration file is the one the C core includes
    text = (ROOT / "csrc" / "azk_cardset.def").read_text()
    fams = {}
    for e in parse_def_text(text, "azk_cardset.def"):
        fams.setdefault(e.family, []).append(e)
    assert set(fams) == set(RECORD_FAMILIES)


def test_no_hand_copy_of_the_record():
    """The binding (_core.pyx and its .pxi parts) packs nothing by hand and cstruct.py names no field."""
    pyx = "".join(p.read_text() for p in sorted((ROOT / "azuki").glob("_*.px[ix]")))
    assert "_fill_cardset" not in pyx and ".ability_first" not in pyx
    emitter = (ROOT / "azuki" / "convert" / "cstruct.py").read_text()
    for name in ("ability_first", "cost_max_reg", "set_bonus", "gate_points"):
        assert name not in emitter


def test_round_trip_hash_equals_embedded_default():
    data = pack.pack_cardset(load_cardset())
    assert len(data) == pack.SIZE
    assert struct.unpack_from("=II", data) == (CAPS["AZK_CARDSET_MAGIC"], CAPS["AZK_CARDSET_FORMAT_VERSION"])
    rt = azuki.CardSet.from_compiled(load_cardset())
    assert rt.hash == azuki.CardSet.default().hash
    assert rt.ids == azuki.CardSet.default().ids and rt.decks == azuki.CardSet.default().decks


def test_packed_fields_read_back():
    cs = load_cardset()
    data = pack.pack_cardset(cs)
    base = pack.HEADER.size
    defs = pack.CARDSET.field("defs")
    rec = defs.record
    d5 = base + defs.offset + 5 * defs.elem_size
    f = rec.field("ability_first")
    assert struct.unpack_from("=H", data, d5 + f.offset)[0] == cs.compiled.ranges[5][0]
    f = rec.field("id")
    assert data[d5 + f.offset:d5 + f.offset + f.size].rstrip(b"\0").decode() == cs.defs[5]["id"]
    sel = pack.CARDSET.field("selectors")
    f = sel.record.field("def")
    assert data[base + sel.offset + f.offset] == cs.compiled.selectors[0].def_index
    bc = pack.CARDSET.field("bytecode")
    n = len(cs.compiled.bytecode)
    assert data[base + bc.offset:base + bc.offset + n] == bytes(cs.compiled.bytecode)
    assert not any(data[base + bc.offset + n:])


def _compiled_copy():
    return copy.deepcopy(load_cardset())


def test_values_out_of_range_are_card_set_errors():
    cs = _compiled_copy()
    cs.defs[0]["cost"] = 300                 # int8_t
    with pytest.raises(azuki.CardSetError, match=r"azk_card_def\.cost"):
        azuki.CardSet.from_compiled(cs)
    cs = _compiled_copy()
    cs.defs.extend(copy.deepcopy(cs.defs[:1]) * (CAPS["AZK_MAX_CARD_DEFS"]))
    cs.compiled.ranges.extend([(0, 0)] * CAPS["AZK_MAX_CARD_DEFS"])
    with pytest.raises(azuki.CardSetError, match=rf"azk_cardset\.defs: \d+ entries, capacity {CAPS['AZK_MAX_CARD_DEFS']}"):
        azuki.CardSet.from_compiled(cs)


def test_verifier_still_runs_on_load():
    cs = _compiled_copy()
    cs.decks[0]["leader"] = cs.decks[0]["gate"]      # a gate as leader: fits, but does not verify
    with pytest.raises(azuki.CardSetError, match="ERR_CARDSET"):
        azuki.CardSet.from_compiled(cs)


def test_generated_default_is_written_from_the_declaration():
    text = (ROOT / "generated" / "cards_autogen.c").read_text()
    for fam, rec in RECORD_FAMILIES.items():
        if rec == "azk_cardset":
            continue
        names = [e.name for e in DEF_FAMILIES[fam] if not e.name.startswith("pad_")]
        line = next(ln for ln in text.splitlines() if ln.strip().startswith("{." + names[0] + " = "))
        assert re.findall(r"\.(\w+) = ", line) == names, rec


def test_named_constants_reach_python():
    assert spec_autogen.CAPS["AZK_MAX_CARD_ABILITIES"] == 8
    assert spec_autogen.CAPS["AZK_MAX_TURN_CAP"] == spec_autogen.CAPS["AZK_MAX_DECISION_CAP"] == 60000
    assert spec_autogen.CAPS["AZK_MAX_DAMAGE"] == 30000
    assert spec_autogen.CAPS["AZK_GAME_RNG_STREAM"] == 0xa2b1c0d5
    assert spec_autogen.CAPS["AZK_SIM_RNG_STREAM"] == 0x5eed5eed
    g = azuki.Game(seed=1)
    with pytest.raises(ValueError):
        g.set_turn_cap(CAPS["AZK_MAX_TURN_CAP"] + 1)
    g.set_turn_cap(CAPS["AZK_MAX_TURN_CAP"])
    with pytest.raises(ValueError):
        g.set_decision_cap(CAPS["AZK_MAX_DECISION_CAP"] + 1)

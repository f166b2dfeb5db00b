"""A compiled card set as the exact bytes of the C `azk_cardset`.

The records (azk_card_def, azk_decklist, azk_ability, azk_selector and the
data part of azk_cardset) are declared once, in csrc/azk_cardset.def; the C
headers build the structs from those lines and this module builds their
layout from the same lines (:data:`LAYOUT`), with the C compiler's rules:
each field at the next multiple of its alignment (a primitive's size, a
record's largest member alignment), a record's size rounded up to its
alignment. tests/test_cardset_layout.py compares :data:`LAYOUT` with
``azk_cardset_layout()``, the offsetof/sizeof table the C core reports.

One mapping from a compiled set to field values (:func:`cardset_values`)
feeds both consumers:

* :func:`pack_cardset` — the bytes that ``azk_cardset_load`` reads
  (run-time card sets, ``azuki.CardSet.from_compiled``): an 8-byte header
  (magic, format version) and the set's data, every integer in native byte
  order, unused entries and padding zero;
* :mod:`azuki.convert.cstruct` — the embedded default as a C initializer
  written field by field from the same layout and values, so the compiled
  struct holds the same bytes (the hashes of the two are equal; tested).
"""
from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from math import prod

from .defs import CAPS, DEF_FAMILIES, RECORD_FAMILIES

# C primitive types of azk_cardset.def: struct-module code, size (= alignment).
PRIMITIVES = {
    "char": ("s", 1), "uint8_t": ("B", 1), "int8_t": ("b", 1), "uint16_t": ("H", 2), "int16_t": ("h", 2),
    "uint32_t": ("I", 4), "int32_t": ("i", 4), "uint64_t": ("Q", 8), "int64_t": ("q", 8),
}

# Fields whose value comes from an attribute of another name (`def` is a
# Python keyword: the compiler's selectors call it def_index).
ALIASES = {("azk_selector", "def"): "def_index"}

MAGIC = CAPS["AZK_CARDSET_MAGIC"]
FORMAT_VERSION = CAPS["AZK_CARDSET_FORMAT_VERSION"]
HEADER = struct.Struct("=II")
assert HEADER.size == CAPS["AZK_CARDSET_HEADER_BYTES"]


class PackError(ValueError):
    """A value that does not fit its field (too many entries, out of range)."""


@dataclass(frozen=True)
class Field:
    name: str
    ctype: str           # C type as declared: a primitive or a record name
    dims: tuple          # array dimensions, () for a scalar
    offset: int          # within its record
    elem_size: int       # one element (a primitive or a record)
    record: object       # the nested Record, or None for a primitive
    doc: str

    @property
    def count(self):
        return prod(self.dims)

    @property
    def size(self):
        return self.elem_size * self.count

    @property
    def is_pad(self):
        return self.name.startswith("pad_")


@dataclass(frozen=True)
class Record:
    name: str            # C struct name
    fields: tuple
    align: int
    end: int             # end of the last field
    size: int            # sizeof: end rounded up to align

    def field(self, name):
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.name} has no field {name!r}")


def _dim(text, where):
    text = text.strip()
    if re.fullmatch(r"\d+", text):
        return int(text)
    if text in CAPS:
        return CAPS[text]
    raise ValueError(f"azk_cardset.def: {where}: dimension {text!r} is not a number or a capacity in "
                     "defs.CAPACITY_NAMES")


def _round(n, a):
    return (n + a - 1) // a * a


def build_layout(families=None):
    """{struct name: Record} from the AZK_<RECORD>_FIELD families."""
    families = DEF_FAMILIES if families is None else families
    out = {}
    for fam, rname in RECORD_FAMILIES.items():
        if fam not in families:
            raise ValueError(f"azk_cardset.def declares no {fam} lines")
        off, align, fields = 0, 1, []
        for e in families[fam]:
            if len(e.args) != 2:
                raise ValueError(f"azk_cardset.def: {fam}({e.name}): expected (name, type, dims, doc)")
            ctype, dims_text = e.args
            dims = tuple(_dim(d, f"{rname}.{e.name}") for d in re.findall(r"\[([^\]]*)\]", dims_text))
            if re.sub(r"\[[^\]]*\]", "", dims_text).strip():
                raise ValueError(f"azk_cardset.def: {rname}.{e.name}: cannot parse dims {dims_text!r}")
            if ctype in PRIMITIVES:
                sub, esize, ealign = None, PRIMITIVES[ctype][1], PRIMITIVES[ctype][1]
            elif ctype in out:
                sub = out[ctype]
                esize, ealign = sub.size, sub.align
            else:
                raise ValueError(f"azk_cardset.def: {rname}.{e.name}: unknown type {ctype!r}")
            off = _round(off, ealign)
            f = Field(e.name, ctype, dims, off, esize, sub, e.doc)
            fields.append(f)
            off += f.size
            align = max(align, ealign)
        out[rname] = Record(rname, tuple(fields), align, off, _round(off, align))
    return out


LAYOUT = build_layout()
CARDSET = LAYOUT["azk_cardset"]
# The set's data: AZK_CARDSET_HASHED_BYTES in C (the derived tables follow it).
DATA_BYTES = CARDSET.end
SIZE = HEADER.size + DATA_BYTES


def layout_rows():
    """(record, field, offset, size) rows in azk_cardset_layout()'s order: per
    record a row with field "" (its size; the data size for azk_cardset),
    then one row per field."""
    rows = []
    for rec in LAYOUT.values():
        rows.append((rec.name, "", 0, rec.end if rec is CARDSET else rec.size))
        rows.extend((rec.name, f.name, f.offset, f.size) for f in rec.fields)
    return rows


def encode_str(s, cap):
    """A string field's bytes: UTF-8, cut to cap - 1 bytes (room for the NUL)."""
    if not isinstance(s, str):
        raise PackError(f"expected a str, got {type(s).__name__}")
    return s.encode("utf-8")[:cap - 1]


def field_value(rec, obj, name):
    """The value of field `name` of record `rec` in obj (a dict or an object)."""
    key = ALIASES.get((rec.name, name), name)
    if isinstance(obj, Mapping):
        if name in obj:
            return obj[name]
        return obj[key]
    return getattr(obj, key)


def cardset_values(cs):
    """The field values of azk_cardset for a compiled card set
    (azuki.convert.CardSet): nested dicts/objects keyed by C field names."""
    comp = cs.compiled
    if len(comp.ranges) != len(cs.defs):
        raise PackError("the compiled abilities do not match the definitions")
    defs = [dict(d, ability_first=first, ability_count=count) for d, (first, count) in zip(cs.defs, comp.ranges)]
    return {
        "num_defs": len(cs.defs), "num_decks": len(cs.decks), "num_subtypes": len(cs.subtypes),
        "num_abilities": len(comp.abilities), "num_selectors": len(comp.selectors),
        "bytecode_len": len(comp.bytecode),
        "defs": defs, "decks": list(cs.decks), "subtype_names": list(cs.subtypes),
        "abilities": list(comp.abilities), "selectors": list(comp.selectors), "bytecode": bytes(comp.bytecode),
    }


def _check_len(rec, f, values, n):
    if len(values) > n:
        raise PackError(f"{rec.name}.{f.name}: {len(values)} entries, capacity {n}")


def _pack_field(rec, f, v, buf, at):
    where = f"{rec.name}.{f.name}"
    if f.record is not None:
        _check_len(rec, f, v, f.count)
        for i, x in enumerate(v):
            _pack_record(f.record, x, buf, at + i * f.elem_size)
        return
    if f.ctype == "char":
        cap = f.dims[-1]
        rows = [v] if len(f.dims) == 1 else list(v)
        _check_len(rec, f, rows, f.count // cap)
        try:
            for i, s in enumerate(rows):
                b = encode_str(s, cap)
                buf[at + i * cap:at + i * cap + len(b)] = b
        except PackError as e:
            raise PackError(f"{where}: {e}") from None
        return
    code = "=" + PRIMITIVES[f.ctype][0]
    try:
        if not f.dims:
            struct.pack_into(code, buf, at, v)
            return
        if isinstance(v, (bytes, bytearray, memoryview)) and f.ctype == "uint8_t":
            _check_len(rec, f, v, f.count)
            buf[at:at + len(v)] = bytes(v)
            return
        v = list(v)
        _check_len(rec, f, v, f.count)
        struct.pack_into(f"={len(v)}{code[1:]}", buf, at, *v)
    except struct.error as e:
        raise PackError(f"{where}: {e}") from None


def _pack_record(rec, obj, buf, base):
    for f in rec.fields:
        if not f.is_pad:
            _pack_field(rec, f, field_value(rec, obj, f.name), buf, base + f.offset)


def pack_values(values):
    """The card-set bytes (header + data) of azk_cardset field values."""
    buf = bytearray(SIZE)
    HEADER.pack_into(buf, 0, MAGIC, FORMAT_VERSION)
    _pack_record(CARDSET, values, buf, HEADER.size)
    return bytes(buf)


def pack_cardset(cs):
    """The bytes azk_cardset_load() reads for a compiled card set. Raises
    PackError when a value does not fit (the engine's capacities)."""
    return pack_values(cardset_values(cs))

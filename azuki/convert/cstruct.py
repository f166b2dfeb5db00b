"""Emit a complete `azk_cardset` as a C initializer.

Written field by field from the one declaration of the records
(csrc/azk_cardset.def, read by :mod:`azuki.convert.pack`) and from the same
values the run-time packer packs (:func:`pack.cardset_values`), so the
embedded default holds the bytes a run-time load of the same JSON holds.
Output is deterministic byte for byte: declaration order, no timestamps,
integers in decimal, long byte arrays in hex rows; padding fields are left to
C's zero initialisation.
"""
from __future__ import annotations

from .pack import CARDSET, cardset_values, encode_str, field_value

# Integer literal suffixes for 64-bit fields.
_SUFFIX = {"uint64_t": "ULL", "int64_t": "LL"}
_HEX_ROW = 16
_HEX_AFTER = 64      # primitive arrays longer than this are written as hex rows


def _c_bytes(b: bytes) -> str:
    out = []
    for x in b:
        ch = chr(x)
        if ch in '\\"?':                     # '?' too: no trigraphs
            out.append("\\" + ch)
        elif 32 <= x < 127:
            out.append(ch)
        else:
            out.append(f"\\{x:03o}")
    return '"' + "".join(out) + '"'


def _scalar(f, v):
    return f"{int(v)}{_SUFFIX.get(f.ctype, '')}"


def _value(f, v):
    """The initializer of one field (inline)."""
    if f.record is not None:
        return "{" + ", ".join(_record_inline(f.record, x) for x in v) + "}"
    if f.ctype == "char":
        cap = f.dims[-1]
        if len(f.dims) == 1:
            return _c_bytes(encode_str(v, cap))
        return "{" + ", ".join(_c_bytes(encode_str(s, cap)) for s in v) + "}"
    if not f.dims:
        return _scalar(f, v)
    return "{" + ", ".join(_scalar(f, x) for x in v) + "}"


def _record_inline(rec, obj):
    return "{" + ", ".join(f".{f.name} = {_value(f, field_value(rec, obj, f.name))}"
                           for f in rec.fields if not f.is_pad) + "}"


def _comment(i, obj, rec):
    """`/*  3 STT01-004 Name */` for records with an id/name, else the index."""
    names = {f.name for f in rec.fields}
    parts = [f"{i:3d}"]
    for k in ("id", "name"):
        if k in names:
            parts.append(str(field_value(rec, obj, k)).replace("*/", "* /"))
    return "/* " + " ".join(parts) + " */"


def emit_values_c(name, values, header_name, stamp):
    """The text of the .c file defining `const azk_cardset <name>` = values
    (azk_cardset field values, as pack.cardset_values returns them)."""
    L = [f"/* {stamp} */", f'#include "{header_name}"', "", f"const azk_cardset {name} = {{"]
    for f in CARDSET.fields:
        if f.is_pad:
            continue
        v = field_value(CARDSET, values, f.name)
        if f.record is not None:
            L.append(f"    .{f.name} = {{")
            for i, x in enumerate(v):
                L.append(f"        {_comment(i, x, f.record)}")
                L.append(f"        {_record_inline(f.record, x)},")
            L.append("    },")
        elif f.ctype != "char" and f.dims and f.count > _HEX_AFTER and f.ctype == "uint8_t":
            L.append(f"    .{f.name} = {{")
            b = bytes(v)
            for i in range(0, len(b), _HEX_ROW):
                L.append("        " + ", ".join(f"0x{x:02x}" for x in b[i:i + _HEX_ROW]) + ",")
            L.append("    },")
        else:
            L.append(f"    .{f.name} = {_value(f, v)},")
    L.append("};")
    return "\n".join(L) + "\n"


def emit_cardset_c(name, cs, header_name, stamp):
    """The .c text of a compiled card set (azuki.convert.CardSet)."""
    return emit_values_c(name, cardset_values(cs), header_name, stamp)

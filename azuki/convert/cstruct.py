"""Emit a complete `azk_cardset` (csrc/cardset.h) as a C initializer.

Input is plain numbers (already validated): definition records, decklists,
subtype names and the compiled abilities. Output is deterministic byte for
byte: fixed order, no timestamps, integers in decimal, bytecode in hex rows.
"""
from __future__ import annotations


def _c_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in '\\"':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.extend(f"\\{b:03o}" for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'


def emit_cardset_c(name, defs, decks, subtypes, compiled, header_name, stamp):
    """Return the text of the .c file defining `const azk_cardset <name>`.

    defs: list of dicts with keys id, name, card_type, element, rarity,
          keywords, cost, attack, health, gate_points, carapace, subtypes
          (bitmask) — enum values as ints;
    decks: list of dicts with name, leader, gate, token, ikz (10), main (50)
          as definition indices;
    subtypes: list of names (bit i = subtypes[i]);
    compiled: azuki.convert.abilities.CompiledAbilities.
    """
    L = [f"/* {stamp} */", f'#include "{header_name}"', "", f"const azk_cardset {name} = {{"]
    L.append(f"    .num_defs = {len(defs)},")
    L.append(f"    .num_decks = {len(decks)},")
    L.append(f"    .num_subtypes = {len(subtypes)},")
    L.append(f"    .num_abilities = {len(compiled.abilities)},")
    L.append(f"    .num_selectors = {len(compiled.selectors)},")
    L.append(f"    .bytecode_len = {len(compiled.bytecode)},")
    L.append("    .defs = {")
    for i, d in enumerate(defs):
        first, count = compiled.ranges[i]
        L.append(f"        /* {i:2d} {d['id']} {d['name']} */")
        L.append(
            f"        {{.id = {_c_string(d['id'])}, .name = {_c_string(d['name'])}, "
            f".card_type = {d['card_type']}, .element = {d['element']}, .rarity = {d['rarity']}, "
            f".keywords = {d['keywords']}, .cost = {d['cost']}, .attack = {d['attack']}, "
            f".health = {d['health']}, .gate_points = {d['gate_points']}, .carapace = {d['carapace']}, "
            f".ability_count = {count}, .ability_first = {first}, .subtypes = {d['subtypes']}ULL}},")
    L.append("    },")
    L.append("    .decks = {")
    for dk in decks:
        L.append(f"        {{.name = {_c_string(dk['name'])}, .leader = {dk['leader']}, .gate = {dk['gate']}, "
                 f".token = {dk['token']},")
        L.append("         .ikz = {" + ", ".join(map(str, dk["ikz"])) + "},")
        L.append("         .main = {" + ", ".join(map(str, dk["main"])) + "}},")
    L.append("    },")
    L.append("    .subtype_names = {" + ", ".join(_c_string(s) for s in subtypes) + "},")
    L.append("    .abilities = {")
    for i, a in enumerate(compiled.abilities):
        L.append(f"        /* {i:3d} */ {{.kind = {a.kind}, .trigger = {a.trigger}, .flags = {a.flags}, "
                 f".ikz_cost = {a.ikz_cost}, .program = {a.program}, .requirement = {a.requirement}, "
                 f".condition = {a.condition}, .static_target = {a.static_target}, .selector = {a.selector}, "
                 f".attack = {a.attack}, .health = {a.health}, .set_bonus = {a.set_bonus}}},")
    L.append("    },")
    L.append("    .selectors = {")
    for i, s in enumerate(compiled.selectors):
        L.append(f"        /* {i:3d} */ {{.zones = {s.zones}, .side = {s.side}, .types = {s.types}, "
                 f".flags = {s.flags}, .cost_min = {s.cost_min}, .cost_max = {s.cost_max}, "
                 f".cost_max_reg = {s.cost_max_reg}, .element = {s.element}, .def = {s.def_index}, "
                 f".exclude_t = {s.exclude_t}, .subtypes = {s.subtypes}ULL}},")
    L.append("    },")
    L.append("    .bytecode = {")
    bc = bytes(compiled.bytecode)
    for i in range(0, len(bc), 16):
        L.append("        " + ", ".join(f"0x{b:02x}" for b in bc[i:i + 16]) + ",")
    L.append("    },")
    L.append("};")
    return "\n".join(L) + "\n"

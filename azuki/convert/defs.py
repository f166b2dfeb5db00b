"""Reader for the engine's X-macro declaration files (csrc/*.def).

Each line `AZK_FAMILY(NAME, arg, ..., "doc")` declares one entry of a family;
an entry's number is its position in the family. The C core includes the same
files to build its enums and tables, so reading them here is how Python gets
the engine's vocabularies (opcodes, triggers, statuses, zones, actions, ...)
without a second hand-maintained list.

The files are found next to the sources (csrc/, in a checkout) or in the
package data (azuki/data/, copied there by setup.py for installed builds).

The engine's capacities (look cap, for_each snapshot, registers, step limit,
...) are `#define`s in csrc/card_def.h, game.h and cardset.h. :data:`CAPS`
reads the ones the compiler needs (:data:`CAPACITY_NAMES`) from those headers
in a checkout; an installed package has no headers and reads the copy that
azuki.convert writes into azuki/spec_autogen.py (``CAPS``), which
`python -m azuki.convert --check` keeps equal to the headers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# `AZK_X(NAME, args..., "doc")`, or with a second string after the doc
# (azk_obs.def: `AZK_OBS(NAME, rows, cols, "meaning", "normalization")`).
_ENTRY = re.compile(r'^(AZK_[A-Z_]+)\((\w+)((?:,[^"]*?)*),\s*"((?:[^"\\]|\\.)*)"(?:,\s*"((?:[^"\\]|\\.)*)")?\)\s*$')


@dataclass(frozen=True)
class DefEntry:
    family: str          # macro name, e.g. "AZK_OP"
    name: str            # e.g. "DAMAGE"
    args: tuple          # the middle arguments as source text, e.g. ("2", "0")
    doc: str
    norm: str = ""       # the optional second string (azk_obs.def: the normalization)


def def_dirs():
    here = Path(__file__).resolve().parent.parent
    return [here.parent / "csrc", here / "data"]


def def_files():
    """The .def files, from the first directory that has them."""
    for d in def_dirs():
        files = sorted(d.glob("azk_*.def"))
        if files:
            return files
    raise FileNotFoundError("cannot find the engine's azk_*.def files in " + ", ".join(map(str, def_dirs())))


def parse_def_text(text: str, source: str = "<def>"):
    entries = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line.startswith("AZK_") or line.startswith("AZK_EVENT"):
            continue
        m = _ENTRY.match(line)
        if not m:
            raise ValueError(f"{source}:{lineno}: cannot parse declaration {line!r}")
        family, name, middle, doc, norm = m.groups()
        args = tuple(_split_args(middle)[1:]) if middle else ()
        entries.append(DefEntry(family, name, args, doc, norm or ""))
    return entries


def _split_args(text):
    """Split at top-level commas: `, (T, R), FIELD` -> ['', '(T, R)', 'FIELD']."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        cur += ch
    out.append(cur.strip())
    return out


# Families that are not listed in a .def but expanded from others, exactly as
# the C side expands them (azk_enums.def: AZK_STATUS is every AZK_KEYWORD,
# then every AZK_CONDITION).
DERIVED_FAMILIES = {"AZK_STATUS": ("AZK_KEYWORD", "AZK_CONDITION")}


def load_families():
    """{family: [DefEntry]} of every azk_*.def, the card-set records included
    (AZK_<RECORD>_FIELD families of azk_cardset.def, see :data:`RECORD_FAMILIES`)."""
    fams = {}
    for f in def_files():
        for e in parse_def_text(f.read_text(), f.name):
            fams.setdefault(e.family, []).append(e)
    for fam, parts in DERIVED_FAMILIES.items():
        if fam in fams:
            raise ValueError(f"{fam} is derived from {' + '.join(parts)}; do not list its entries")
        fams[fam] = [DefEntry(fam, e.name, (), e.doc) for p in parts for e in fams.get(p, [])]
    return fams


DEF_FAMILIES = load_families()

# The card-set records of azk_cardset.def: X-macro family -> C struct name,
# in nesting order (a record only nests records declared before it). Each
# entry is AZK_<RECORD>_FIELD(name, C type, dims, doc); see azuki.convert.pack.
RECORD_FAMILIES = {
    "AZK_CARD_DEF_FIELD": "azk_card_def",
    "AZK_DECKLIST_FIELD": "azk_decklist",
    "AZK_ABILITY_FIELD": "azk_ability",
    "AZK_SELECTOR_FIELD": "azk_selector",
    "AZK_CARDSET_FIELD": "azk_cardset",
}


# ---- opcodes: operand kinds and properties (csrc/azk_opcodes.def) -------------

@dataclass(frozen=True)
class OperandKind:
    name: str            # e.g. "SEL"
    nbytes: int          # bytes it takes in the instruction
    doc: str


@dataclass(frozen=True)
class OpDecl:
    name: str            # e.g. "COUNT_GE"
    code: int            # opcode byte
    kinds: tuple         # operand kind names, e.g. ("R", "SEL", "I8")
    props: str           # PURE, ASK, FIELD, ASK_FIELD, EFFECT or LOOP
    nbytes: int          # operand bytes (sum of the kinds' widths)
    doc: str

    @property
    def pure(self):
        return self.props == "PURE"


OP_PROPS = ("PURE", "ASK", "FIELD", "ASK_FIELD", "EFFECT", "LOOP")
OP_MAX_OPERANDS = 3      # AZK_OP_MAX_OPERANDS (csrc/azk_ops.h)


def load_opcodes(fams):
    """{kind name: OperandKind}, [OpDecl] from the AZK_OPERAND / AZK_OP lines.
    Checks what the C preprocessor checks (vm.c, azk_ops.h): known kinds and
    properties, at most OP_MAX_OPERANDS operands."""
    kinds = {e.name: OperandKind(e.name, int(e.args[0], 0), e.doc) for e in fams.get("AZK_OPERAND", [])}
    ops = []
    for code, e in enumerate(fams.get("AZK_OP", [])):
        if len(e.args) != 2 or not (e.args[0].startswith("(") and e.args[0].endswith(")")):
            raise ValueError(f"AZK_OP({e.name}, ...): expected AZK_OP(NAME, (KIND, ...), PROPS, \"doc\")")
        ks = tuple(k.strip() for k in e.args[0][1:-1].split(",") if k.strip())
        bad = [k for k in ks if k not in kinds or k == "_"]
        if bad:
            raise ValueError(f"AZK_OP({e.name}, ...): unknown operand kind(s) {', '.join(bad)}")
        if len(ks) > OP_MAX_OPERANDS:
            raise ValueError(f"AZK_OP({e.name}, ...): more than {OP_MAX_OPERANDS} operands")
        if e.args[1] not in OP_PROPS:
            raise ValueError(f"AZK_OP({e.name}, ...): unknown property {e.args[1]} (known: {', '.join(OP_PROPS)})")
        ops.append(OpDecl(e.name, code, ks, e.args[1], sum(kinds[k].nbytes for k in ks), e.doc))
    return kinds, ops


OPERAND_KINDS, OPCODES = load_opcodes(DEF_FAMILIES)


# ---- how each action parameter kind reads (csrc/azk_actions.def) ---------------

def check_param_reads(fams):
    """Refuse an AZK_ACTION_PARAM_READ table that does not read every
    AZK_ACTION_PARAM kind, in its order, with a declared form and side and a
    zone of AZK_ZONE (INDEX form) or NONE (the others). azuki/text.py,
    azuki/web/words.py and words.js interpret this table only."""
    kinds = [e.name for e in fams.get("AZK_ACTION_PARAM", [])]
    reads = fams.get("AZK_ACTION_PARAM_READ", [])
    if [e.name for e in reads] != kinds:
        raise ValueError("AZK_ACTION_PARAM_READ must read every AZK_ACTION_PARAM kind, in its order: "
                         f"kinds {kinds}, reads {[e.name for e in reads]}")
    forms = {e.name for e in fams.get("AZK_ACTION_PARAM_FORM", [])}
    sides = {e.name for e in fams.get("AZK_ACTION_PARAM_SIDE", [])}
    zones = {e.name for e in fams.get("AZK_ZONE", [])}
    for e in reads:
        if len(e.args) != 3:
            raise ValueError(f"AZK_ACTION_PARAM_READ({e.name}, ...): expected (KIND, form, side, zone, \"doc\")")
        form, side, zone = e.args
        if form not in forms:
            raise ValueError(f"AZK_ACTION_PARAM_READ({e.name}, ...): unknown form {form} (known: {sorted(forms)})")
        if side not in sides:
            raise ValueError(f"AZK_ACTION_PARAM_READ({e.name}, ...): unknown side {side} (known: {sorted(sides)})")
        if (zone in zones) != (form == "INDEX") or (zone not in zones and zone != "NONE"):
            raise ValueError(f"AZK_ACTION_PARAM_READ({e.name}, ...): zone {zone}: an INDEX parameter names an "
                             "AZK_ZONE, every other form NONE")
        if (side == "NONE") != (form not in ("INDEX", "PLACE")):
            raise ValueError(f"AZK_ACTION_PARAM_READ({e.name}, ...): side {side}: a place (INDEX, PLACE) has a "
                             "side, every other form NONE")


check_param_reads(DEF_FAMILIES)


# ---- capacities (#defines of the C headers) ----------------------------------

CAPACITY_HEADERS = ("card_def.h", "game.h", "cardset.h")
# The capacities Python needs; a new #define elsewhere in the headers does not
# make azuki/spec_autogen.py stale.
CAPACITY_NAMES = (
    "AZK_DECK_MAIN", "AZK_DECK_IKZ", "AZK_ROW", "AZK_HAND_CAP", "AZK_DECK_CAP", "AZK_DISCARD_CAP",
    "AZK_WEAPON_CAP", "AZK_IKZ_AREA_CAP", "AZK_LOOK_CAP", "AZK_MAX_OPTIONS", "AZK_MAX_EACH", "AZK_REGS",
    "AZK_TREGS", "AZK_VM_STEP_LIMIT", "AZK_MAX_ABILITIES", "AZK_MAX_SELECTORS", "AZK_MAX_BYTECODE",
    "AZK_MAX_ACTIVATED", "AZK_DEFAULT_TURN_CAP", "AZK_NO_PC", "AZK_NONE",
    # bounds the binding and the CLI check (game.h)
    "AZK_MAX_TURN_CAP", "AZK_DEFAULT_DECISION_CAP", "AZK_MAX_DECISION_CAP", "AZK_MAX_DAMAGE",
    "AZK_GAME_RNG_STREAM", "AZK_SIM_RNG_STREAM",
    # choose_mode, trigger_ability (game.h)
    "AZK_MAX_MODES", "AZK_VM_DEPTH", "AZK_TRIG_NTH_SHIFT",
    # the card-set record's dimensions and byte format (azk_cardset.def, pack.py)
    "AZK_MAX_CARD_DEFS", "AZK_CARD_ID_SCALE", "AZK_MAX_SUBTYPES", "AZK_MAX_DECKS", "AZK_CARD_ID_LEN", "AZK_CARD_NAME_LEN",
    "AZK_SUBTYPE_NAME_LEN", "AZK_DECK_NAME_LEN", "AZK_MAX_CARD_ABILITIES", "AZK_CARDSET_MAGIC",
    "AZK_CARDSET_FORMAT_VERSION", "AZK_CARDSET_HEADER_BYTES",
)
_DEFINE = re.compile(r"^\s*#\s*define\s+(AZK_[A-Z0-9_]+)\s+(.+?)\s*$")


def _eval_define(expr: str, known: dict):
    """An integer #define body: literals, earlier AZK_ names, + - * / ( )."""
    expr = re.sub(r"/\*.*?\*/|//.*$", "", expr).strip()
    expr = re.sub(r"\b(0[xX][0-9A-Fa-f]+|\d+)[uUlL]*\b", r"\1", expr)
    tokens = re.findall(r"0[xX][0-9A-Fa-f]+|\d+|AZK_[A-Z0-9_]+|[-+*/()]|\S", expr)
    out = []
    for t in tokens:
        if t.startswith("AZK_"):
            if t not in known:
                return None
            out.append(str(known[t]))
        elif re.fullmatch(r"0[xX][0-9A-Fa-f]+|\d+|[-+*/()]", t):
            out.append("//" if t == "/" else t)
        else:
            return None                      # not a plain integer expression
    if not out:
        return None
    try:
        v = eval(" ".join(out), {"__builtins__": {}}, {})   # digits and operators only
    except (SyntaxError, ZeroDivisionError):
        return None
    return v if isinstance(v, int) else None


def parse_header_constants(texts):
    """{name: int} for every integer-valued `#define AZK_...` in the texts, in order."""
    known = {}
    for text in texts:
        for line in text.splitlines():
            m = _DEFINE.match(line)
            if m and "(" not in m.group(1):
                v = _eval_define(m.group(2), known)
                if v is not None:
                    known[m.group(1)] = v
    return known


def header_files():
    """The C headers that declare the capacities, or None outside a checkout."""
    d = Path(__file__).resolve().parent.parent.parent / "csrc"
    files = [d / h for h in CAPACITY_HEADERS]
    return files if all(f.is_file() for f in files) else None


def load_capacities():
    files = header_files()
    if files is not None:
        found = parse_header_constants(f.read_text() for f in files)
        missing = [n for n in CAPACITY_NAMES if n not in found]
        if missing:
            raise ValueError(f"cannot find {', '.join(missing)} in csrc/{{{','.join(CAPACITY_HEADERS)}}}")
        return {n: found[n] for n in CAPACITY_NAMES}
    from .. import spec_autogen           # installed package: the generated copy
    return dict(spec_autogen.CAPS)


CAPS = load_capacities()

"""azuki.convert — the card-set transpiler.

Loads a JSON card set (azuki/data/cards.json by default), validates it with
the JSON Schema shipped in the package (azuki/data/cardset.schema.json) plus
semantic checks, compiles every ability to effect-VM bytecode, and produces:

* ``generated/cards_autogen.c/.h`` — the embedded default card set as a
  ``const azk_cardset`` initializer (compiled into the core);
* ``azuki/spec_autogen.py`` — the engine's vocabularies (enums, action types,
  opcodes) as Python constants, read from the same csrc/*.def files the C
  core includes.

The same :func:`load_cardset` result feeds runtime card sets
(``azuki.Game(cards="file.json")``): :mod:`azuki.convert.pack` turns it into
the bytes of an ``azk_cardset`` (laid out from csrc/azk_cardset.def, the one
declaration of the records, as the generated C initializer is), and
``azk_cardset_load`` verifies them, bytecode included, before any game uses it.

Every problem is reported as ``file: json.path: message`` through
:class:`ConvertError`; nothing is written unless everything is valid.
"""
from __future__ import annotations

import copy
import errno
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .abilities import AbilityError, CompiledAbilities, compile_abilities
from .defs import CAPS, DEF_FAMILIES

PKG_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = PKG_DIR / "data"
DEFAULT_CARDS = DATA_DIR / "cards.json"
# How the checked-in generated files are rewritten (named in their stamps and
# in --check's "stale" message). `make regen` runs the same command.
REGEN_COMMAND = "python -m azuki.convert --write-default"
SCHEMA_FILE = DATA_DIR / "cardset.schema.json"
REPO_DIR = PKG_DIR.parent

DECK_MAIN = CAPS["AZK_DECK_MAIN"]
DECK_IKZ = CAPS["AZK_DECK_IKZ"]
MAX_COPIES = 4
MAX_JSON_BYTES = 4 << 20
MAX_JSON_DEPTH = 64

# Which printed numbers each card type carries (RULES §1). "required" must be
# present; anything not listed must be absent.
STATS = {
    "entity": {"required": ("cost", "attack", "health", "gate_points"), "allowed": ("carapace",)},
    "weapon": {"required": ("cost", "attack"), "allowed": ()},
    "spell": {"required": ("cost",), "allowed": ()},
    "leader": {"required": ("health",), "allowed": ("attack",)},
    "gate": {"required": (), "allowed": ()},
    "ikz": {"required": (), "allowed": ("token",)},
}
ALL_STATS = ("cost", "attack", "health", "gate_points", "carapace", "token")


@dataclass
class Problem:
    file: str
    path: str
    message: str

    def __str__(self):
        return f"{self.file}: {self.path}: {self.message}" if self.path else f"{self.file}: {self.message}"


class ConvertError(Exception):
    """One or more problems with a card set; str() lists them one per line."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class CardSet:
    """A validated, compiled card set: plain numbers ready for C."""
    source: str
    name: str
    doc: dict
    defs: list = field(default_factory=list)          # dicts keyed by azk_card_def fields (pack.py)
    decks: list = field(default_factory=list)
    subtypes: list = field(default_factory=list)
    compiled: CompiledAbilities = None
    digest: str = ""                                  # sha256 of the canonical JSON
    # every file read to build it, includes too: ((resolved path, sha256 of
    # its bytes), ...); a cache of compiled sets keys on all of them
    files: tuple = ()

    @property
    def card_ids(self):
        return [d["id"] for d in self.defs]


def family_index(name):
    return {e.name.lower(): i for i, e in enumerate(DEF_FAMILIES[name])}


def json_path(parts) -> str:
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + str(p)
    return out


def load_schema():
    """The shipped schema with x-enum-from placeholders filled from the .def files."""
    schema = json.loads(SCHEMA_FILE.read_text())
    for d in schema["$defs"].values():
        fam = d.pop("x-enum-from", None)
        if fam:
            names = [e.name for e in DEF_FAMILIES[fam]]
            d["enum"] = names if d.pop("x-case", "lower") == "upper" else [n.lower() for n in names]
    return schema


def _depth(x, limit):
    stack = [(x, 1)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return False
        if isinstance(v, dict):
            stack.extend((w, d + 1) for w in v.values())
        elif isinstance(v, list):
            stack.extend((w, d + 1) for w in v)
    return True


def _parse(text, fname):
    if len(text) > MAX_JSON_BYTES:
        raise ConvertError([Problem(fname, "", f"file larger than {MAX_JSON_BYTES} bytes")])
    try:
        doc = json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(f"{c} is not valid JSON")))
    except RecursionError:
        raise ConvertError([Problem(fname, "", "malformed JSON: nested too deeply")]) from None
    except json.JSONDecodeError as e:
        raise ConvertError([Problem(fname, "", f"malformed JSON: {e.msg} at line {e.lineno} column {e.colno}")]) from None
    except ValueError as e:
        raise ConvertError([Problem(fname, "", f"malformed JSON: {e}")]) from None
    if not _depth(doc, MAX_JSON_DEPTH):
        raise ConvertError([Problem(fname, "", f"JSON nested deeper than {MAX_JSON_DEPTH} levels")])
    return doc


def _schema_problems(doc, fname):
    import jsonschema

    validator = jsonschema.Draft202012Validator(load_schema())
    errs = sorted(validator.iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    return [Problem(fname, json_path(e.absolute_path) or "(root)", e.message) for e in errs]


def _semantic_problems(doc, fname):
    probs = []

    def bad(path, msg):
        probs.append(Problem(fname, path, msg))

    cards = doc["cards"]
    by_id = {}
    for i, c in enumerate(cards):
        if c["id"] in by_id:
            bad(f"cards[{i}].id", f"duplicate card id {c['id']!r} (first at cards[{by_id[c['id']]}])")
        else:
            by_id[c["id"]] = i
        rule = STATS[c["card_type"]]
        for s in rule["required"]:
            if s not in c:
                bad(f"cards[{i}]", f"a {c['card_type']} needs {s!r}")
        for s in ALL_STATS:
            if s in c and s not in rule["required"] and s not in rule["allowed"]:
                bad(f"cards[{i}].{s}", f"a {c['card_type']} card has no {s}")
        if c.get("keywords") and c["card_type"] not in ("entity", "leader"):
            bad(f"cards[{i}].keywords", f"a {c['card_type']} card cannot have keywords")
        kinds = [a.get("kind") for a in c.get("abilities", [])]
        if c["card_type"] == "spell" and kinds.count("spell") != 1:
            bad(f"cards[{i}].abilities", "a spell needs exactly one ability of kind \"spell\"")
        if c["card_type"] != "spell" and "spell" in kinds:
            bad(f"cards[{i}].abilities[{kinds.index('spell')}].kind", "only spell cards have a spell ability")
        if c["card_type"] in ("ikz",) and kinds:
            bad(f"cards[{i}].abilities", "IKZ cards have no abilities")
    subtypes = {s for c in cards for s in c.get("subtypes", [])}
    if len(subtypes) > 64:
        bad("cards", f"{len(subtypes)} distinct subtypes (at most 64)")

    def ref(path, cid, want):
        if cid not in by_id:
            bad(path, f"unknown card id {cid!r}")
            return False
        t = cards[by_id[cid]]["card_type"]
        if t not in want:
            bad(path, f"{cid} is a {t}, expected {' or '.join(want)}")
            return False
        return True

    names = set()
    for k, d in enumerate(doc["decks"]):
        p = f"decks[{k}]"
        if d["name"] in names:
            bad(f"{p}.name", f"duplicate deck name {d['name']!r}")
        names.add(d["name"])
        ref(f"{p}.leader", d["leader"], ("leader",))
        ref(f"{p}.gate", d["gate"], ("gate",))
        if ref(f"{p}.token", d["token"], ("ikz",)) and not cards[by_id[d["token"]]].get("token"):
            bad(f"{p}.token", f"{d['token']} is not marked \"token\": true")
        for cid, n in d["ikz"].items():
            if ref(f"{p}.ikz.{cid}", cid, ("ikz",)) and cards[by_id[cid]].get("token"):
                bad(f"{p}.ikz.{cid}", "the token cannot be an IKZ pile card")
        total = sum(d["ikz"].values())
        if total != DECK_IKZ:
            bad(f"{p}.ikz", f"an IKZ pile has exactly {DECK_IKZ} cards, this one has {total}")
        for cid, n in d["main"].items():
            ref(f"{p}.main.{cid}", cid, ("entity", "weapon", "spell"))
            if n > MAX_COPIES:
                bad(f"{p}.main.{cid}", f"{n} copies (at most {MAX_COPIES} of a card)")
        total = sum(d["main"].values())
        if total != DECK_MAIN:
            bad(f"{p}.main", f"a main deck has exactly {DECK_MAIN} cards, this one has {total}")
    return probs


def canonical_digest(doc) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def load_cardset(path=None, text=None) -> CardSet:
    """Validate and compile a card set from a file, or from its `text` (then
    `path`, if given, names the file the text is of). Relative includes
    resolve against the including file's directory (docs/cards.md), the
    current directory only for text with no path. Raises ConvertError, with
    every problem found (one line each)."""
    named = path is not None
    path = str(path or DEFAULT_CARDS)
    fname = os.path.basename(path) if text is None and Path(path).resolve() == DEFAULT_CARDS else path
    from_file = text is None
    files = []
    if from_file:
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_JSON_BYTES + 1)
            text = raw.decode("utf-8")
        except OSError as e:
            raise ConvertError([Problem(path, "", f"cannot read: {e.strerror or e}")]) from None
        except UnicodeDecodeError as e:
            raise ConvertError([Problem(path, "", f"not UTF-8 text: {e.reason} at byte {e.start}")]) from None
        files.append((str(Path(path).resolve()), hashlib.sha256(raw).hexdigest()))
    doc = _parse(text, fname)
    probs = _schema_problems(doc, fname)
    if probs:
        raise ConvertError(probs)
    top = Path(path).resolve() if from_file or named else None
    base = top.parent if top is not None else Path.cwd()
    doc, owner = _resolve_includes(doc, fname, base, (top,) if top is not None else (), files)
    try:
        probs = _semantic_problems(doc, fname)
        if probs:      # the abilities' problems too: one run reports every problem of the file
            raise ConvertError(probs + _ability_problems(doc, fname))
        cs = _build(doc, fname)
    except ConvertError as e:
        raise ConvertError([owner(p) for p in e.problems]) from None
    cs.files = tuple(files)
    return cs


INCLUDE_PACKAGE = "azuki:"
MAX_INCLUDE_DEPTH = 4


def _include_path(ref: str, base: Path) -> Path:
    if ref.startswith(INCLUDE_PACKAGE):
        p = (DATA_DIR / ref[len(INCLUDE_PACKAGE):]).resolve()
        if p.parent != DATA_DIR.resolve() or p.suffix != ".json":
            raise ValueError(f"{ref!r}: azuki:NAME names a .json file shipped in azuki/data")
        return p
    return (base / ref).resolve()


def _read_include(ref, p: Path, fname, where, files=None):
    try:
        with open(p, "rb") as f:
            raw = f.read(MAX_JSON_BYTES + 1)
        if files is not None:
            files.append((str(p), hashlib.sha256(raw).hexdigest()))
        return _parse(raw.decode("utf-8"), ref)
    except OSError as e:
        raise ConvertError([Problem(fname, where, f"cannot read {ref!r}: {e.strerror or e}")]) from None
    except UnicodeDecodeError as e:
        raise ConvertError([Problem(fname, where, f"{ref!r} is not UTF-8 text: {e.reason}")]) from None


def _resolve_includes(doc, fname, base: Path, chain: tuple, files=None):
    """Card-set combination (docs/cards.md, "Combining card sets"): the cards
    and decks of every `include`d set come first, in order, then this file's
    own. An included set is checked on its own first, so its problems name
    its file. Returns the merged document (no `include` key) and a function
    that maps a problem found in the merged document back to the file and
    JSON path it came from. `files` (a list) collects (path, sha256) of
    every file read."""
    incs = doc.get("include", [])
    merged = {k: v for k, v in doc.items() if k != "include"}
    merged["decks"] = list(doc.get("decks", []))
    if not incs:
        return merged, lambda prob: prob
    if len(chain) > MAX_INCLUDE_DEPTH:
        raise ConvertError([Problem(fname, "include", f"includes nested deeper than {MAX_INCLUDE_DEPTH} files")])
    cards, decks, spans = [], [], []
    problems = []           # every included file is checked: one run reports all their problems
    for i, ref in enumerate(incs):
        where = f"include[{i}]"
        try:
            try:
                p = _include_path(ref, base)
            except ValueError as e:
                raise ConvertError([Problem(fname, where, str(e))]) from None
            if p in chain:
                raise ConvertError([Problem(fname, where, f"{ref!r} includes itself (a cycle)")])
            sub = _read_include(ref, p, fname, where, files)
            probs = _schema_problems(sub, ref)
            if probs:
                raise ConvertError(probs)
            sub, sub_owner = _resolve_includes(sub, ref, p.parent, chain + (p,), files)
            probs = [sub_owner(q) for q in _semantic_problems(sub, ref)]
            if probs:
                raise ConvertError(probs)
        except ConvertError as e:
            problems += e.problems
            continue
        spans.append((ref, len(cards), len(decks), sub_owner))
        cards += sub["cards"]
        decks += sub["decks"]
    if problems:            # the combination is not checked without all of its parts
        raise ConvertError(problems)
    n = {"cards": len(cards), "decks": len(decks)}
    merged["cards"] = cards + doc["cards"]
    merged["decks"] = decks + merged["decks"]

    def owner(prob):
        m = re.match(r"(cards|decks)\[(\d+)\](.*)", prob.path)
        if not m or prob.file != fname:
            return prob
        key, k, rest = m.group(1), int(m.group(2)), m.group(3)
        if k >= n[key]:
            return Problem(fname, f"{key}[{k - n[key]}]{rest}", prob.message)
        col = 1 if key == "cards" else 2
        span = [s for s in spans if s[col] <= k][-1]
        return span[3](Problem(span[0], f"{key}[{k - span[col]}]{rest}", f"{prob.message} (included by {fname})"))
    return merged, owner


def flat_document(path) -> dict:
    """The card set in the file at `path` as one JSON document, its includes
    resolved (docs/cards.md, "Combining card sets"): the cards and decks of
    every `include`d set first, in order, then the file's own, and no
    `include` key — the document load_cardset compiles. The file and its
    includes are read and checked as load_cardset reads them (schema, then
    each included set on its own, then the combination), raising
    ConvertError with every problem found; the abilities are not compiled
    (load_cardset does that)."""
    p = Path(path).resolve()
    fname = str(path)
    doc = _read_include(fname, p, fname, "")
    probs = _schema_problems(doc, fname)
    if probs:
        raise ConvertError(probs)
    merged, owner = _resolve_includes(doc, fname, p.parent, (p,))
    probs = _semantic_problems(merged, fname)
    if probs:
        raise ConvertError([owner(q) for q in probs])
    return merged


def _subtype_bits(cards):
    subtypes = []
    for c in cards:
        for s in c.get("subtypes", []):
            if s not in subtypes:
                subtypes.append(s)
    return subtypes, {s: i for i, s in enumerate(subtypes)}


def _ability_problems(doc, fname):
    """The abilities' problems of a set that has other problems (so it is not
    built): reported together with those."""
    try:
        compile_abilities(doc["cards"], _subtype_bits(doc["cards"])[1])
    except AbilityError as e:
        return [Problem(fname, x.path, x.message) for x in getattr(e, "errors", [e])]
    return []


def _build(doc, fname) -> CardSet:
    CT, EL, KW = family_index("AZK_CARD_TYPE"), family_index("AZK_ELEMENT"), family_index("AZK_KEYWORD")
    RA = {e.name: i for i, e in enumerate(DEF_FAMILIES["AZK_RARITY"])}
    cards = doc["cards"]
    subtypes, bits = _subtype_bits(cards)
    try:
        compiled = compile_abilities(cards, bits)
    except AbilityError as e:
        raise ConvertError([Problem(fname, x.path, x.message) for x in getattr(e, "errors", [e])]) from None
    defs = []
    for c in cards:
        kw = 0
        for k in c.get("keywords", []):
            kw |= 1 << KW[k]
        sb = 0
        for s in c.get("subtypes", []):
            sb |= 1 << bits[s]
        defs.append(dict(id=c["id"], name=c["name"], card_type=CT[c["card_type"]], element=EL[c["element"]],
                         rarity=RA[c["rarity"]], keywords=kw, cost=c.get("cost", 0), attack=c.get("attack", 0),
                         health=c.get("health", 0), gate_points=c.get("gate_points", 0),
                         carapace=c.get("carapace", 0), subtypes=sb))
    index = {c["id"]: i for i, c in enumerate(cards)}
    decks = []
    for d in doc["decks"]:
        main = [index[cid] for cid, n in d["main"].items() for _ in range(n)]
        ikz = [index[cid] for cid, n in d["ikz"].items() for _ in range(n)]
        decks.append(dict(name=d["name"], leader=index[d["leader"]], gate=index[d["gate"]],
                          token=index[d["token"]], ikz=ikz, main=main))
    return CardSet(source=fname, name=doc["name"], doc=doc, defs=defs, decks=decks, subtypes=subtypes,
                   compiled=compiled, digest=canonical_digest(doc))


# ---- outputs ------------------------------------------------------------------

def _stamp(cs: CardSet):
    return (f"generated from {cs.source} (sha256 {cs.digest[:16]}) by azuki.convert — do not edit; "
            f"regenerate with `{REGEN_COMMAND}`")


def cardset_sources(cs: CardSet) -> dict:
    """{relative path: text} of generated/cards_autogen.c/.h."""
    from .cstruct import emit_cardset_c

    stamp = _stamp(cs)
    h = "\n".join([
        f"/* {stamp} */",
        "#ifndef AZK_CARDS_AUTOGEN_H",
        "#define AZK_CARDS_AUTOGEN_H",
        '#include "cardset.h"',
        "",
        f"/* The embedded default card set: {len(cs.defs)} definitions, {len(cs.decks)} decks, "
        f"{len(cs.compiled.abilities)} abilities, {len(cs.compiled.bytecode)} bytes of bytecode. */",
        "extern const azk_cardset azk_default_cardset_data;",
        f'#define AZK_DEFAULT_CARDSET_DIGEST "{cs.digest}"',
        "",
        "#endif",
        "",
    ])
    c = emit_cardset_c("azk_default_cardset_data", cs, "cards_autogen.h", stamp)
    return {"generated/cards_autogen.h": h, "generated/cards_autogen.c": c}


def spec_source() -> str:
    """azuki/spec_autogen.py: every .def family as Python constants, plus the
    engine capacities the compiler needs (CAPS, from the C headers)."""
    from .defs import CAPACITY_HEADERS, RECORD_FAMILIES, def_files

    L = [f'"""generated from csrc/*.def by azuki.convert — do not edit; regenerate with `{REGEN_COMMAND}`.',
         "",
         "The engine's vocabularies as Python constants. Each family is a tuple of",
         "names (index = the C enum value) plus NAME = value constants.",
         f"CAPS: the capacities azuki.convert needs, from csrc/{{{','.join(CAPACITY_HEADERS)}}}",
         "(read from here when the package is installed without its C sources).",
         '"""', ""]
    srcs = ", ".join(f.name for f in def_files())
    L.append(f"SOURCES = {srcs!r}")
    L.append("")
    L.append("CAPS = {")
    for name, v in CAPS.items():
        L.append(f"    {name!r}: {v},")
    L.append("}")
    L.append("")
    for fam, entries in sorted(DEF_FAMILIES.items()):
        if fam in RECORD_FAMILIES:      # the card-set records: azuki.convert.pack reads azk_cardset.def
            continue
        short = fam[len("AZK_"):]
        L.append(f"{short} = {tuple(e.name for e in entries)!r}")
        L.append(f"{short}_DOC = {tuple(e.doc for e in entries)!r}")
        if any(e.norm for e in entries):
            L.append(f"{short}_NORM = {tuple(e.norm for e in entries)!r}")
        if entries and entries[0].args:
            L.append(f"{short}_ARGS = {tuple(tuple(int(a, 0) if a.lstrip('-').isdigit() else a for a in e.args) for e in entries)!r}")
        # an entry's value is its position, except in families that declare
        # their own codes (azk_invariants.def: AZK_INV(NAME, code, doc))
        coded = fam == "AZK_INV"
        for i, e in enumerate(entries):
            L.append(f"{short}_{e.name} = {int(e.args[0]) if coded else i}")
        L.append("")
    return "\n".join(L)


def all_outputs(cs: CardSet) -> dict:
    out = cardset_sources(cs)
    out["azuki/spec_autogen.py"] = spec_source()
    return out


def write_atomic(files: dict, root: Path):
    """Write every file (str: text, bytes: binary) or none: stage all to
    temporaries first, then rename."""
    staged = []
    made = []          # directories this call created, removed again on failure

    def mkdirs(d: Path):
        missing = []
        while not d.exists():
            missing.append(d)
            d = d.parent
        if not d.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(d))
        for m in reversed(missing):
            m.mkdir()
            made.append(m)

    def undo():
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        for m in reversed(made):
            try:
                m.rmdir()
            except OSError:
                pass

    try:
        for rel, text in files.items():
            dst = root / rel
            if dst.is_dir():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(dst))
            mkdirs(dst.parent)
            tmp = dst.with_name(f".{dst.name}.tmp{os.getpid()}")
            with (open(tmp, "wb") if isinstance(text, bytes) else open(tmp, "w", newline="\n")) as f:
                f.write(text)
            staged.append((tmp, dst))
    except OSError as e:
        undo()
        raise ConvertError([Problem(str(getattr(e, "filename", None) or root), "", f"cannot write: {e.strerror or e}")]) from None
    try:
        for tmp, dst in staged:
            os.replace(tmp, dst)
    except OSError as e:
        undo()
        raise ConvertError([Problem(str(getattr(e, "filename", None) or root), "", f"cannot write: {e.strerror or e}")]) from None


def stale_outputs(files: dict, root: Path):
    def fresh(p: Path, text):
        try:
            return p.is_file() and p.read_text() == text
        except (OSError, UnicodeDecodeError):
            return False
    return [rel for rel, text in files.items() if not fresh(root / rel, text)]

"""Reader for the engine's X-macro declaration files (csrc/*.def).

Each line `AZK_FAMILY(NAME, arg, ..., "doc")` declares one entry of a family;
an entry's number is its position in the family. The C core includes the same
files to build its enums and tables, so reading them here is how Python gets
the engine's vocabularies (opcodes, triggers, statuses, zones, actions, ...)
without a second hand-maintained list.

The files are found next to the sources (csrc/, in a checkout) or in the
package data (azuki/data/, copied there by setup.py for installed builds).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_ENTRY = re.compile(r'^(AZK_[A-Z_]+)\((\w+)((?:,[^"]*?)*),\s*"((?:[^"\\]|\\.)*)"\)\s*$')


@dataclass(frozen=True)
class DefEntry:
    family: str          # macro name, e.g. "AZK_OP"
    name: str            # e.g. "DAMAGE"
    args: tuple          # the middle arguments as source text, e.g. ("2", "0")
    doc: str


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
        family, name, middle, doc = m.groups()
        args = tuple(a.strip() for a in middle.split(",")[1:]) if middle else ()
        entries.append(DefEntry(family, name, args, doc))
    return entries


def load_families():
    fams = {}
    for f in def_files():
        for e in parse_def_text(f.read_text(), f.name):
            fams.setdefault(e.family, []).append(e)
    return fams


DEF_FAMILIES = load_families()

"""python -m azuki.convert [CARDS.json] [--out DIR] [--check] [--coverage]

  (no flag)   validate + compile CARDS.json (default: the package's
              azuki/data/cards.json) and write generated/cards_autogen.c/.h and
              azuki/spec_autogen.py under DIR (default: the source checkout);
  --check     write nothing; exit 1 when the files under DIR differ from what
              the JSON produces (CI runs this);
  --validate  only validate and compile; print a summary;
  --coverage  write docs/coverage.md: each card, its abilities, the tests that
              cover them.

Exit status: 0 ok, 1 stale (--check), 2 bad input or unwritable output (every
problem printed as `file: json.path: message`, nothing written).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import REPO_DIR, ConvertError, all_outputs, load_cardset, stale_outputs, write_atomic


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m azuki.convert", description=__doc__.split("\n\n")[0])
    ap.add_argument("cards", nargs="?", help="card set JSON (default: azuki/data/cards.json)")
    ap.add_argument("--out", default=None,
                    help="root directory for the generated files (default: the source checkout)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail if generated files are stale")
    mode.add_argument("--validate", action="store_true", help="validate and compile only")
    mode.add_argument("--coverage", action="store_true", help="write docs/coverage.md")
    args = ap.parse_args(argv)
    if args.out is None:
        if not args.validate and not (REPO_DIR / "csrc").is_dir():
            # An installed (non-editable) package has no source tree: writing
            # or checking generated/ under site-packages would mean nothing.
            print(f"error: {REPO_DIR} is not an azuki source checkout (no csrc/); "
                  "pass --out DIR with the repository root", file=sys.stderr)
            return 2
        args.out = str(REPO_DIR)
    try:
        cs = load_cardset(args.cards)
        if args.coverage:
            from .coverage import write_coverage
            path = write_coverage(cs, Path(args.out))
            print(f"wrote {path}")
            return 0
        files = all_outputs(cs)
        root = Path(args.out)
        if args.validate:
            print(f"{cs.source}: ok — {len(cs.defs)} cards, {len(cs.decks)} decks, "
                  f"{len(cs.compiled.abilities)} abilities, {len(cs.compiled.bytecode)} bytes of bytecode")
            return 0
        if args.check:
            stale = stale_outputs(files, root)
            for rel in stale:
                print(f"stale: {rel} (run `python -m azuki.convert`)", file=sys.stderr)
            if not stale:
                print(f"generated files are up to date ({len(files)} files)")
            return 1 if stale else 0
        write_atomic(files, root)
        for rel in files:
            print(f"wrote {rel}")
        return 0
    except ConvertError as e:
        for p in e.problems:
            print(f"error: {p}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""python -m azuki.convert — check and compile an Azuki card set (JSON).

  python -m azuki.convert [CARDS.json]
      Validate CARDS.json (default: azuki/data/cards.json) against the schema
      and the semantic rules, compile every ability, print a summary. Writes
      nothing. Play a set of your own without rebuilding anything:
      `python -m azuki simulate --cards CARDS.json`, `azuki.Game(cards=...)`.
  python -m azuki.convert [CARDS.json] --out DIR
      ... and write the generated files (generated/cards_autogen.c/.h,
      azuki/spec_autogen.py) under DIR.
  python -m azuki.convert [CARDS.json] --bytes FILE
      ... and write the compiled set as the engine's card-set bytes
      (azk_cardset_load): what the C soak, fuzzers, random-play test and
      benchmark read from $AZK_CARDSET (make soak CARDS=CARDS.json).
  python -m azuki.convert --write-default          (also: make regen)
      Regenerate the checked-in generated files of this source checkout from
      azuki/data/cards.json: the card set embedded in the engine. Run it after
      editing cards.json or csrc/*.def, then rebuild (make venv).
  python -m azuki.convert --check
      Write nothing; exit 1 if the checked-in generated files differ from what
      the JSON produces (CI runs this).
  python -m azuki.convert --coverage
      Write docs/coverage.md: each card, its abilities, the tests that cover them.

Exit status: 0 ok, 1 stale (--check), 2 bad input or unwritable output (every
problem printed as `error: file: json.path: message`, nothing written).
"""
from __future__ import annotations

import sys
from pathlib import Path

from . import DEFAULT_CARDS, REGEN_COMMAND, REPO_DIR, ConvertError, all_outputs, load_cardset, stale_outputs, write_atomic
from .cli import Parser, fail, run_main


def build_parser() -> Parser:
    ap = Parser(prog="python -m azuki.convert", description=__doc__)
    ap.add_argument("cards", nargs="?", metavar="CARDS.json",
                    help="card set JSON (default: azuki/data/cards.json, the embedded default set)")
    ap.add_argument("--out", metavar="DIR", default=None,
                    help="write the generated files under DIR (with --check / --coverage: the tree to check "
                         "or write into) (default: write nothing; --check, --coverage and --write-default "
                         "use this source checkout)")
    ap.add_argument("--bytes", metavar="FILE", default=None,
                    help="also write the compiled set as card-set bytes (azk_cardset_load) to FILE (default: none)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write-default", action="store_true",
                      help="regenerate this checkout's generated/cards_autogen.c/.h and azuki/spec_autogen.py "
                           "(the embedded default set)")
    mode.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 if the generated files are stale")
    mode.add_argument("--validate", action="store_true",
                      help="validate and compile only, even with --out (what a plain run does)")
    mode.add_argument("--coverage", action="store_true", help="write docs/coverage.md")
    return ap


def main(argv=None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.write_default and args.out is not None:
        ap.error("--write-default writes into this source checkout; use --out DIR alone to write elsewhere")
    needs_tree = args.write_default or args.check or args.coverage
    if needs_tree and args.out is None:
        if not (REPO_DIR / "csrc").is_dir():
            # An installed (non-editable) package has no source tree: writing
            # or checking generated/ under site-packages would mean nothing.
            return fail(f"{REPO_DIR} is not an azuki source checkout (no csrc/); "
                        "pass --out DIR with the repository root")
        args.out = str(REPO_DIR)
    try:
        cs = load_cardset(args.cards)
        if args.coverage:
            from .coverage import write_coverage
            path = write_coverage(cs, Path(args.out))
            print(f"wrote {path}")
            return 0
        if args.check:
            stale = stale_outputs(all_outputs(cs), Path(args.out))
            for rel in stale:
                print(f"stale: {rel} (run `{REGEN_COMMAND}`)", file=sys.stderr)
            if not stale:
                print(f"generated files are up to date ({len(all_outputs(cs))} files)")
            return 1 if stale else 0
        if args.bytes:
            from .pack import pack_cardset
            data = pack_cardset(cs)
            write_atomic({Path(args.bytes).name: data}, Path(args.bytes).resolve().parent)
            print(f"wrote {args.bytes} ({len(data)} bytes)")
        if args.validate or args.out is None:
            print(f"{cs.source}: ok — {len(cs.defs)} cards, {len(cs.decks)} decks "
                  f"({', '.join(d['name'] for d in cs.decks)}), {len(cs.compiled.abilities)} abilities, "
                  f"{len(cs.compiled.bytecode)} bytes of bytecode")
            return 0
        files = all_outputs(cs)
        write_atomic(files, Path(args.out))
        for rel in files:
            print(f"wrote {rel}")
        if args.write_default and args.cards and Path(args.cards).resolve() != DEFAULT_CARDS:
            print(f"note: the embedded default set is now {args.cards}; rebuild with `make venv`, "
                  f"and `{REGEN_COMMAND}` restores azuki/data/cards.json", file=sys.stderr)
        return 0
    except ConvertError as e:
        for p in e.problems:
            print(f"error: {p}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    run_main(main)

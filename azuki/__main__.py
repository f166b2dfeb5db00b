"""python -m azuki <command>

  simulate --games N [--seed S] [--decks STT01 STT02] [--cards FILE] [--turn-cap T]
      The main job: N games between two uniform-random legal players (seats
      alternate between games), played at C speed. Prints wins per deck and
      seat, draws, mean decisions and turns per game, games/s and decisions/s.
  replay FILE
      Re-run a replay file and verify the state hash after every step
      (docs/replays.md); exit 1 at the first divergence.
  record --seed S [--decks A B] [--out FILE]
      Play one uniform-random game and write its replay file.
"""
from __future__ import annotations

import argparse
import json
import sys
import time


def _progress_bar(enabled):
    if not enabled:
        return None
    t0 = time.perf_counter()

    def show(done, total):
        frac = done / total if total else 1.0
        bar = "#" * int(30 * frac)
        dt = time.perf_counter() - t0
        eta = dt / frac - dt if frac > 0 else 0.0
        sys.stderr.write(f"\r[{bar:<30}] {done}/{total} games  {dt:5.1f}s  eta {eta:5.1f}s")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def cmd_simulate(args) -> int:
    from ._core import simulate

    chunk = max(100, min(5000, args.games // 50 or 100))
    show = _progress_bar(not args.quiet and args.games >= 2000 and sys.stderr.isatty() or args.progress)
    r = simulate(args.games, seed=args.seed, decks=tuple(args.decks), cards=args.cards,
                 turn_cap=args.turn_cap, progress=show, chunk=chunk)
    if args.json:
        print(json.dumps(r, indent=1))
        return 0 if r["errors"] == 0 else 1
    n = r["games"]
    pct = (lambda k: f"{100.0 * k / n:5.1f}%") if n else (lambda k: "  -  ")
    print(f"azuki simulate: {n} games, decks {r['decks'][0]} vs {r['decks'][1]}, seeds {args.seed}..{args.seed + n - 1}, "
          f"uniform-random legal players, seats alternate")
    if r["wins_by_deck"]:
        for d, w in r["wins_by_deck"].items():
            print(f"  wins {d:<8} {w:8d}  {pct(w)}")
    for s, w in enumerate(r["wins_by_seat"]):
        print(f"  wins seat {s}   {w:8d}  {pct(w)}")
    print(f"  wins first player {r['wins_first_player']:6d}  {pct(r['wins_first_player'])}")
    print(f"  draws          {r['draws']:8d}  {pct(r['draws'])}")
    print(f"  truncated      {r['truncated']:8d}  {pct(r['truncated'])}  (turn cap {args.turn_cap})")
    print(f"  mean decisions/game {r['decisions_per_game']:.1f}, turns/game {r['turns_per_game']:.1f}")
    print(f"  {r['games_per_second']:,.0f} games/s, {r['decisions_per_second']:,.0f} decisions/s "
          f"({r['decisions']:,} decisions in {r['seconds']:.2f} s, on one core)")
    if r["errors"]:
        print(f"  ENGINE ERRORS: {r['errors']}", file=sys.stderr)
        return 1
    return 0


def cmd_replay(args) -> int:
    from .replay import verify_replay

    ok, msg = verify_replay(args.file)
    print(msg)
    return 0 if ok else 1


def cmd_record(args) -> int:
    from .replay import record_random_game

    rep = record_random_game(args.seed, tuple(args.decks), cards=args.cards)
    text = json.dumps(rep, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
        print(f"wrote {args.out}: {len(rep['steps'])} steps, result {rep['result']}")
    else:
        print(text)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m azuki", description="Azuki TCG simulator")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("simulate", help="random self-play at C speed (the main job)")
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--decks", nargs=2, default=["STT01", "STT02"], metavar=("DECK0", "DECK1"))
    s.add_argument("--cards", default=None, help="JSON card set (default: the embedded starter set)")
    s.add_argument("--turn-cap", type=int, default=200)
    s.add_argument("--json", action="store_true", help="print the result dict as JSON")
    s.add_argument("--progress", action="store_true", help="always show the progress bar")
    s.add_argument("--quiet", action="store_true", help="never show the progress bar")
    s.set_defaults(fn=cmd_simulate)
    r = sub.add_parser("replay", help="verify a replay file")
    r.add_argument("file")
    r.set_defaults(fn=cmd_replay)
    c = sub.add_parser("record", help="record a random game as a replay file")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--decks", nargs=2, default=["STT01", "STT02"])
    c.add_argument("--cards", default=None)
    c.add_argument("--out", default=None)
    c.set_defaults(fn=cmd_record)
    args = ap.parse_args(argv)
    if getattr(args, "games", 0) < 0:
        ap.error("--games must be >= 0")
    try:
        return args.fn(args)
    except Exception as e:  # a clear message, not a traceback, for bad input
        from .convert import ConvertError
        if isinstance(e, (ValueError, OSError, ConvertError)):
            print(f"error: {e}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())

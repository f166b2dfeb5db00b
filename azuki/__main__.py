"""python -m azuki — the Azuki TCG simulator's command line.

  python -m azuki simulate [--games N] [--seed S] [--decks A B] [--cards FILE] [--turn-cap T]
      The main job: N games between two uniform-random legal players, played
      at C speed (`make run` is `simulate --games 2000`).
  python -m azuki simulate --players BOT0 BOT1 [...]
      The same with built-in bots (random, greedy; docs/bots.md) instead.
  python -m azuki arena --players BOT_A BOT_B [--games N] [--seed S] [--decks D ...] [--json] [--progress]
      Bot against bot, seats and decks balanced; win rates with 95% intervals.
  python -m azuki record [--seed S] [--decks A B] [--cards FILE] [--out FILE]
      Play one uniform-random game and write its replay file (docs/replays.md).
  python -m azuki replay FILE
      Re-run a replay file and verify the state hash after every step.
  python -m azuki train [--minutes M] [--steps N] [--seed S] [--out DIR] [--resume PATH] [--set K=V]
      PPO with a self-play league (needs pufferlib + torch: .venv-puffer); --resume RUN goes on in RUN;
      docs/training.md.
  python -m azuki exploit CHECKPOINT [--steps N] [--seed S] [--games G] [--out DIR] [--set K=V]
      Exploitability: a fresh best-response PPO run against the frozen CHECKPOINT ('reference': the
      shipped one), then its win rate against it with a 95% interval (docs/training.md).
  python -m azuki eval A B [C ...] [--games N] [--seed S] [--decks D1,D2] [--replays DIR] [--json] [--jsonl FILE] [--plot FILE] [--progress]
      Any players (bots, policy checkpoints): head to head, or a round robin
      with a payoff matrix and Elo ratings (docs/eval.md).
  python -m azuki balance CARDS.json [--decks ...] [--bots greedy,search] [--games N] [--jobs J] [--ray W] [--out DIR] [--suggest]
      Balance lab for card designers: matchup matrix, card statistics and importance, flags,
      suggested number changes; DIR/report.html and report.json (docs/balance.md).
  python -m azuki play [--port N] [--open] [--cards FILE] [--runs DIR] [--checkpoint PATH]
      Play and watch games in the browser: prints a local URL (docs/play.md).
  python -m azuki play --static DIR [--cards FILE]
      Write a static site that plays in any browser with no server (WebAssembly).
  python -m azuki bench [--reps R] [--games N] [--quick] [--json] [--train-steps N] [--cards FILE [--decks D ...]]
      One table of this machine's speed: engine, through Python, per-call
      costs, sizes, each also relative to a calibration loop.

`python -m azuki COMMAND --help` describes each command. Card sets: the
embedded starter set (decks STT01 and STT02) unless --cards names a JSON set
(check one with `python -m azuki.convert FILE`).

Exit status: 0 ok; 1 engine errors (simulate) or a replay that diverges;
2 bad arguments or input (one `error: ...` line on stderr).
"""
from __future__ import annotations

import json
import sys
import time

from . import spec_autogen as S
from .convert.cli import Parser, fail, run_main

SIMULATE_DOC = """Play N games between two uniform-random legal players at C speed.

Game i uses engine seed S+i; the players draw from a separate pcg32 stream,
and seats alternate between games so deck and seat effects separate. Prints
wins per deck and seat, draws, games cut off by the turn cap, mean decisions
and turns per game, games/s and decisions/s (one core).
"""
RECORD_DOC = """Play one uniform-random legal game and write its replay file.

The replay (JSON, docs/replays.md) holds the seed, decks, card set hash and
the state hash after every step; `python -m azuki replay FILE` verifies it.
Without --out the replay is printed on stdout.
"""
ARENA_DOC = """Play two built-in bots (docs/bots.md) against each other, balanced.

Games come in pairs sharing a deal (engine seed S+i): the first bot sits in
seat 0, then in seat 1, each keeping its deck; deal i uses the deck pairing
i mod P of all ordered pairs of --decks (default: every deck of the set).
Prints win rates with 95% Wilson score intervals, draws and truncated games
(not wins), breakdowns by seat, by who went first and by deck pairing, and
games/s. Exactly reproducible from --seed; --json prints the whole report.
"""
REPLAY_DOC = """Re-run a replay file and verify the state hash after every step.

Exit 0 with `ok: N steps verified`, or 1 with the first divergence (a
different hash, an illegal action, another player to act, another card set).
"""

SEED_MAX = (1 << 64) - 1     # engine seeds are uint64
TURN_CAP_MAX = S.CAPS["AZK_MAX_TURN_CAP"]           # the binding's bound (azuki.Game.set_turn_cap)
DECISION_CAP_MAX = S.CAPS["AZK_MAX_DECISION_CAP"]   # azuki.Game.set_decision_cap's bound
REPLAY_KEYS = {"format": str, "cardset": str, "decks": list, "seed": int, "initial_hash": str, "steps": list}


# ---- argument types: one-line errors from argparse --------------------------------

def _int_in(lo, hi, what):
    import argparse

    def conv(text):
        try:
            v = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if v < lo or hi is not None and v > hi:
            raise argparse.ArgumentTypeError(
                f"must be {'>= ' + str(lo) if hi is None else f'in [{lo}, {hi}]'}, got {v}")
        return v
    conv.__name__ = what        # argparse names the type in some messages
    return conv


def _default_turn_cap():
    from .convert.defs import CAPS
    return CAPS["AZK_DEFAULT_TURN_CAP"]


# ---- card set and deck checks (before the binding sees them) -------------------------

def _deck_names(cards):
    """The deck names of the embedded set or of a JSON set; a ValueError with
    one line when the JSON is not a valid card set."""
    if cards is None:
        from ._core import CardSet
        return list(CardSet.default().decks)
    from .convert import ConvertError, load_cardset
    try:
        cs = load_cardset(cards)
    except ConvertError as e:
        more = len(e.problems) - 1
        extra = f" (and {more} more problem{'s' * (more > 1)}: python -m azuki.convert {cards})" if more else ""
        raise ValueError(f"--cards: {e.problems[0]}{extra}") from None
    return [d["name"] for d in cs.decks]


def _check_decks(decks, cards):
    names = _deck_names(cards)
    for d in decks:
        if d not in names:
            raise ValueError(f"--decks: unknown deck {d!r} (this card set has: {', '.join(names)})")


# ---- commands ------------------------------------------------------------------------

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
    if args.seed + args.games - 1 > SEED_MAX:
        raise ValueError(f"--seed: games use seeds {args.seed}..{args.seed + args.games - 1}, "
                         f"past the largest seed {SEED_MAX}")
    _check_decks(args.decks, args.cards)
    from ._core import CardSet, simulate

    chunk = max(100, min(5000, args.games // 50 or 100))
    show = _progress_bar(not args.quiet and args.games >= 2000 and sys.stderr.isatty() or args.progress)
    pbots = None
    if args.players:                  # policy-bot specs: the weights loaded and checked once, played in C
        from .bots import parse_pbot_spec
        from .policy_np import cpolicy_for
        specs = [parse_pbot_spec(p) for p in args.players]
        if any(specs):
            cs = CardSet.default() if args.cards is None else CardSet.from_json(args.cards)
            pbots = [None if sp is None else (cpolicy_for(sp[1], cs), sp[0], sp[2]) for sp in specs]
    r = simulate(args.games, seed=args.seed, decks=tuple(args.decks), cards=args.cards,
                 turn_cap=args.turn_cap, decision_cap=args.decision_cap, progress=show, chunk=chunk,
                 players=tuple(args.players) if args.players else None, pbots=pbots)
    if args.json:
        print(json.dumps(r, indent=1))
        return 0 if r["errors"] == 0 else 1
    n = r["games"]
    pct = (lambda k: f"{100.0 * k / n:5.1f}%") if n else (lambda k: "  -  ")
    who = f"players {r['players'][0]} ({r['decks'][0]}) vs {r['players'][1]} ({r['decks'][1]})" if args.players \
        else "uniform-random legal players"
    print(f"azuki simulate: {n} games, decks {r['decks'][0]} vs {r['decks'][1]}, seeds {args.seed}..{args.seed + n - 1}, "
          f"{who}, seats alternate")
    if args.players:
        for k, w in enumerate(r["wins_by_side"]):
            print(f"  wins {r['players'][k]:<6} ({r['decks'][k]}) {w:8d}  {pct(w)}")
    if r["wins_by_deck"]:
        for d, w in r["wins_by_deck"].items():
            print(f"  wins {d:<8} {w:8d}  {pct(w)}")
    for s, w in enumerate(r["wins_by_seat"]):
        print(f"  wins seat {s}   {w:8d}  {pct(w)}")
    print(f"  wins first player {r['wins_first_player']:6d}  {pct(r['wins_first_player'])}")
    print(f"  draws          {r['draws']:8d}  {pct(r['draws'])}")
    print(f"  truncated      {r['truncated']:8d}  {pct(r['truncated'])}  "
          f"(turn cap {args.turn_cap}, decision cap {args.decision_cap})")
    print("  ended by       " + ", ".join(f"{k} {v}" for k, v in sorted(r["end_reasons"].items())))
    print(f"  mean decisions/game {r['decisions_per_game']:.1f}, turns/game {r['turns_per_game']:.1f}")
    print(f"  {r['games_per_second']:,.0f} games/s, {r['decisions_per_second']:,.0f} decisions/s "
          f"({r['decisions']:,} decisions in {r['seconds']:.2f} s, on one core)")
    if r["errors"]:
        print(f"  ENGINE ERRORS: {r['errors']}", file=sys.stderr)
        return 1
    return 0


def cmd_arena(args) -> int:
    if args.games % 2:
        raise ValueError(f"--games: must be even (each deal is played from both seats), got {args.games}")
    if args.seed + args.games // 2 - 1 > SEED_MAX:
        raise ValueError(f"--seed: deals use seeds {args.seed}..{args.seed + args.games // 2 - 1}, "
                         f"past the largest seed {SEED_MAX}")
    decks = args.decks
    if decks is not None:
        _check_decks(decks, args.cards)
    else:
        _deck_names(args.cards)      # validates --cards with one line
    from .arena import run_arena
    from .stats import fmt_rate

    from .evaluate import Progress
    show = args.progress or (not args.quiet and sys.stderr.isatty())
    try:
        r = run_arena(tuple(args.players), args.games, seed=args.seed, decks=decks, cards=args.cards,
                      turn_cap=args.turn_cap, decision_cap=args.decision_cap, sims=args.sims, jobs=args.jobs,
                      progress=Progress(command="arena") if show else None)
    except KeyboardInterrupt:         # Ctrl-C: stops between chunks of games; one line, no traceback
        print("arena: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(r, indent=1))
        return 0 if r["errors"] == 0 else 1
    a, b = r["players"]
    vers = ", ".join(f"{k} v{v}" for k, v in r["bot_versions"].items())
    sims = f", search {r['search_sims']} simulations/decision" if r["search_sims"] is not None else ""
    print(f"azuki arena: {a} vs {b} ({vers}{sims}), {r['games']} games ({r['games'] // 2} deals x both seats), "
          f"seed {r['seed']}, decks {' '.join(r['decks'])}")
    o = r["overall"]
    print(f"  {a:<12} wins {o[a]['wins']:6d}  {fmt_rate(o[a])}   (95% Wilson interval)")
    print(f"  {b:<12} wins {o[b]['wins']:6d}  {fmt_rate(o[b])}")
    print(f"  draws {r['draws']}, truncated {r['truncated']} (neither is a win); "
          f"score {a} {r['score'][a]:.3f} (draw = 1/2)")
    for title, key in (("by seat", "by_seat"), ("by first player", "by_first_player"), ("by decks", "by_decks")):
        print(f"  {title}:")
        for k, blk in r[key].items():
            extra = f", draws {blk['draws']}, truncated {blk['truncated']}" if blk["draws"] or blk["truncated"] else ""
            print(f"    {k:<34} {blk['games']:6d} games  {a} {fmt_rate(blk[a])}{extra}")
    print("  ended by       " + ", ".join(f"{k} {v}" for k, v in sorted(r["end_reasons"].items())))
    print(f"  {r['games_per_second']:,.0f} games/s, {r['us_per_decision']:.1f} us/decision "
          f"({r['decisions']:,} decisions in {r['seconds']:.2f} s, on one core)")
    print("  time per decision: " + ", ".join(f"{k} {v:,.1f} us" for k, v in r["us_per_decision_by_bot"].items())
          + (f" ({r['jobs']} threads, {r['wall_seconds']:.1f} s wall)" if r["jobs"] > 1 else ""))
    if r["errors"]:
        print(f"  ENGINE ERRORS: {r['errors']}", file=sys.stderr)
        return 1
    return 0


EVAL_DOC = """Evaluate players against each other: built-in bots or policy checkpoints.

Two players: a head-to-head report (A's win rate with its 95% Wilson
interval, draws and truncated games, by seat and by decks, Elo difference).
Three or more: every pair plays --games games; the payoff matrix and
maximum-likelihood Elo ratings (random = 0 when it plays, else mean 0).
Games come in pairs on one deal (engine seed S+k), A in seat 0 then seat 1;
deals rotate over every ordered pairing of --decks. docs/eval.md.
"""


def _cmd_eval(args) -> int:
    from .evaluate import main as eval_main
    try:
        return eval_main(args)
    except KeyboardInterrupt:         # Ctrl-C: stops between chunks of games; one line, no traceback
        print("eval: interrupted", file=sys.stderr)
        return 130


def _bot_name(text):
    import argparse
    from ._core import BOT_KINDS
    if text not in BOT_KINDS:
        raise argparse.ArgumentTypeError(f"unknown bot {text!r} (known: {', '.join(BOT_KINDS)})")
    return text


def _arena_player(text):
    """A built-in bot name or a policy-bot spec (policy:PATH, psearch:PATH[:k=v,...]); the weights
    are loaded (and checked) by the arena."""
    import argparse
    from .bots import parse_pbot_spec
    try:
        if parse_pbot_spec(text) is not None:
            return text
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return _bot_name(text)


def _load_replay(path):
    """The replay dict, or a ValueError naming the file and the problem."""
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError as e:
        raise ValueError(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        rep = json.loads(text)
    except (UnicodeDecodeError, RecursionError, ValueError) as e:
        where = f" at line {e.lineno} column {e.colno}" if isinstance(e, json.JSONDecodeError) else ""
        msg = e.msg if isinstance(e, json.JSONDecodeError) else type(e).__name__
        raise ValueError(f"{path}: not a replay file: malformed JSON: {msg}{where}") from None
    if not isinstance(rep, dict):
        raise ValueError(f"{path}: not a replay file: expected a JSON object, got {type(rep).__name__}")
    from .replay import FORMAT
    if rep.get("format") != FORMAT:
        raise ValueError(f"{path}: not a replay file: format {rep.get('format')!r}, expected {FORMAT!r}")
    for key, typ in REPLAY_KEYS.items():
        if key not in rep:
            raise ValueError(f"{path}: not a replay file: missing key {key!r}")
        if not isinstance(rep[key], typ) or isinstance(rep[key], bool):
            raise ValueError(f"{path}: {key}: expected a {typ.__name__}, got {rep[key]!r}"[:300])
    if not 0 <= rep["seed"] <= SEED_MAX:
        raise ValueError(f"{path}: seed: expected an integer in [0, {SEED_MAX}], got {rep['seed']}")
    if len(rep["decks"]) != 2 or not all(isinstance(d, str) for d in rep["decks"]):
        raise ValueError(f"{path}: decks: expected two deck names, got {rep['decks']!r}"[:300])
    cards = rep.get("cards")
    if cards is not None and not isinstance(cards, str):
        raise ValueError(f"{path}: cards: expected null or a path, got {cards!r}"[:300])
    tc = rep.get("turn_cap", _default_turn_cap())
    if isinstance(tc, bool) or not isinstance(tc, int) or not 1 <= tc <= TURN_CAP_MAX:
        raise ValueError(f"{path}: turn_cap: expected an integer in [1, {TURN_CAP_MAX}], got {tc!r}"[:300])
    for i, s in enumerate(rep["steps"]):
        ok = isinstance(s, dict) and isinstance(s.get("action"), int) and not isinstance(s.get("action"), bool) \
            and isinstance(s.get("hash"), str)
        if not ok:
            raise ValueError(f"{path}: steps[{i}]: expected {{\"player\": P, \"action\": A, \"hash\": H}}, "
                             f"got {s!r}"[:300])
    try:
        _check_decks(rep["decks"], cards)
    except ValueError as e:
        raise ValueError(f"{path}: {str(e).replace('--decks: ', 'decks: ').replace('--cards: ', 'cards: ')}") \
            from None
    return rep


def cmd_replay(args) -> int:
    rep = _load_replay(args.file)
    from .replay import verify_replay

    ok, msg = verify_replay(rep)
    print(msg)
    return 0 if ok else 1


def cmd_record(args) -> int:
    _check_decks(args.decks, args.cards)
    from .replay import record_random_game

    rep = record_random_game(args.seed, tuple(args.decks), cards=args.cards, turn_cap=args.turn_cap)
    text = json.dumps(rep, indent=1)
    if args.out:
        try:
            with open(args.out, "w") as f:
                f.write(text + "\n")
        except OSError as e:
            raise ValueError(f"--out: cannot write {args.out}: {e.strerror or e}") from None
        print(f"wrote {args.out}: {len(rep['steps'])} steps, result {rep['result']}")
    else:
        print(text)
    return 0


# ---- parser --------------------------------------------------------------------------

def _common(p, seed_help):
    p.add_argument("--seed", type=_int_in(0, SEED_MAX, "--seed"), default=0, metavar="S", help=seed_help)
    p.add_argument("--decks", nargs=2, default=["STT01", "STT02"], metavar=("DECK0", "DECK1"),
                   help="the two decks, by name (seat 0 first)")
    p.add_argument("--cards", default=None, metavar="FILE",
                   help="JSON card set to play with (default: the embedded starter set)")
    p.add_argument("--turn-cap", type=_int_in(1, TURN_CAP_MAX, "--turn-cap"), default=_default_turn_cap(),
                   metavar="T", help="a game still running after T turns ends as truncated (docs/rules.md §13.1)")


def build_parser() -> Parser:
    ap = Parser(prog="python -m azuki", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND", parser_class=Parser)
    s = sub.add_parser("simulate", help="random self-play at C speed (the main job)", description=SIMULATE_DOC)
    s.add_argument("--games", type=_int_in(1, None, "--games"), default=1000, metavar="N",
                   help="number of games")
    _common(s, "engine seed of the first game (game i uses S+i)")
    s.add_argument("--decision-cap", type=_int_in(1, DECISION_CAP_MAX, "--decision-cap"),
                   default=S.CAPS["AZK_DEFAULT_DECISION_CAP"],
                   metavar="D", help="a game still running after D decisions ends as truncated (docs/rules.md §13.2)")
    s.add_argument("--json", action="store_true", help="print the result dict as JSON")
    s.add_argument("--progress", action="store_true", help="always show the progress bar")
    s.add_argument("--quiet", action="store_true",
                   help="never show the progress bar (otherwise shown for 2,000+ games on a terminal)")
    s.add_argument("--players", nargs=2, type=_arena_player, default=None, metavar=("BOT0", "BOT1"),
                   help="bots playing DECK0 and DECK1: built-in (random, greedy, search) or policy bots "
                        "(policy:PATH, psearch:PATH[:k=v,...]; docs/bots.md) (default: uniform-random legal players)")
    s.set_defaults(fn=cmd_simulate)
    a = sub.add_parser("arena", help="bot against bot, balanced, with confidence intervals", description=ARENA_DOC)
    a.add_argument("--players", nargs=2, type=_arena_player, required=True, metavar=("BOT_A", "BOT_B"),
                   help="the two bots: built-in (random, greedy, search) or a policy bot "
                        "(policy:PATH[:temp=T], "
                        "psearch:PATH[:sims=N,cpuct=C,prior_temp=T,value=V,threads=K,halving=M]; "
                        "PATH an .azkw file, a checkpoint, or 'reference'; docs/bots.md)")
    a.add_argument("--sims", type=_int_in(1, 1000000, "--sims"), default=None, metavar="N",
                   help="the search bot's simulations per decision (default: azuki.bots.SEARCH_SIMS)")
    a.add_argument("--jobs", type=_int_in(1, 1024, "--jobs"), default=1, metavar="J",
                   help="threads playing games at once (the results do not depend on it; times stay per core)")
    a.add_argument("--games", type=_int_in(2, None, "--games"), default=2000, metavar="N",
                   help="number of games, even (N/2 deals, each from both seats)")
    a.add_argument("--seed", type=_int_in(0, SEED_MAX, "--seed"), default=0, metavar="S",
                   help="deal i uses engine seed S+i; the bots' seeds derive from S")
    a.add_argument("--decks", nargs="+", default=None, metavar="DECK",
                   help="decks to rotate through, all ordered pairings (default: every deck of the set)")
    a.add_argument("--cards", default=None, metavar="FILE",
                   help="JSON card set to play with (default: the embedded starter set)")
    a.add_argument("--turn-cap", type=_int_in(1, TURN_CAP_MAX, "--turn-cap"), default=_default_turn_cap(),
                   metavar="T", help="a game still running after T turns ends as truncated (docs/rules.md §13.1)")
    a.add_argument("--decision-cap", type=_int_in(1, DECISION_CAP_MAX, "--decision-cap"),
                   default=S.CAPS["AZK_DEFAULT_DECISION_CAP"],
                   metavar="D", help="a game still running after D decisions ends as truncated (docs/rules.md §13.2)")
    a.add_argument("--json", action="store_true", help="print the whole report as JSON")
    a.add_argument("--progress", action="store_true",
                   help="always print progress lines on stderr (default: on a terminal, every 2 s of a long run)")
    a.add_argument("--quiet", action="store_true", help="never print progress lines")
    a.set_defaults(fn=cmd_arena)
    c = sub.add_parser("record", help="record a random game as a replay file", description=RECORD_DOC)
    _common(c, "engine seed of the game (the players' choices derive from it too)")
    c.add_argument("--out", default=None, metavar="FILE", help="write the replay here (default: print it)")
    c.set_defaults(fn=cmd_record)
    r = sub.add_parser("replay", help="verify a replay file", description=REPLAY_DOC)
    r.add_argument("file", metavar="FILE", help="a replay file written by `record`")
    r.set_defaults(fn=cmd_replay)
    e = sub.add_parser("eval", help="any players (bots, checkpoints) head to head or round robin, with Elo",
                       description=EVAL_DOC)
    e.add_argument("players", nargs="+", metavar="PLAYER",
                   help="a bot (random, greedy, search, search:sims=N) or a checkpoint FILE.pt[:greedy]")
    e.add_argument("--games", type=_int_in(2, None, "--games"), default=1000, metavar="N",
                   help="games per pair of players, even (N/2 deals, each from both seats)")
    e.add_argument("--seed", type=_int_in(0, SEED_MAX, "--seed"), default=0, metavar="S",
                   help="deal k uses engine seed S+k; every other seed derives from S")
    e.add_argument("--decks", default="STT01,STT02", metavar="D1,D2",
                   help="decks to rotate through, all ordered pairings")
    e.add_argument("--n", type=_int_in(1, 1 << 20, "--n"), default=256, metavar="K",
                   help="games played at once (batched inference; results depend on it for sampling policies)")
    e.add_argument("--replays", default=None, metavar="DIR", help="write every game's replay file here")
    e.add_argument("--ray", type=_int_in(1, 4096, "--ray"), default=None, metavar="W",
                   help="spread the games over W Ray workers (a local instance, or $RAY_ADDRESS's cluster)")
    e.add_argument("--cards", metavar="FILE", default=None,
                   help="card set JSON (e.g. azuki/data/expansion.json; --decks names its decks) "
                        "(default: the embedded starter set)")
    e.add_argument("--json", action="store_true", help="print the result dict as JSON")
    e.add_argument("--jsonl", default=None, metavar="FILE",
                   help="stream the results: one JSON line per pairing as it finishes (then the table), "
                        "for tail -f")
    e.add_argument("--plot", default=None, metavar="FILE",
                   help="write the ratings with their 95%% intervals (and the win-rate matrix) as an SVG file")
    e.add_argument("--progress", action="store_true",
                   help="always print progress lines (and, for 3+ players, the running table as each pairing "
                        "finishes) on stderr (default: on a terminal, every 2 s of a long run)")
    e.add_argument("--quiet", action="store_true", help="never print progress lines")
    e.set_defaults(fn=_cmd_eval)
    from . import balance as _balance
    _balance.add_parser(sub, _int_in)
    from . import bench as _bench
    b = sub.add_parser("bench", help="speed table (medians, relative to a calibration loop)",
                       description=_bench.__doc__)
    b.add_argument("--reps", type=_int_in(1, 100, "--reps"), default=5, metavar="R",
                   help="repetitions of every row (medians are shown)")
    b.add_argument("--games", type=_int_in(1, None, "--games"), default=4000, metavar="N",
                   help="games per engine-only run")
    b.add_argument("--seed", type=_int_in(0, SEED_MAX, "--seed"), default=1, metavar="S", help="first seed")
    b.add_argument("--quick", action="store_true", help="one tiny repetition (CI smoke run; figures meaningless)")
    b.add_argument("--json", action="store_true", help="print the results as JSON")
    b.add_argument("--train-steps", type=_int_in(0, None, "--train-steps"), default=None, metavar="N",
                   help="agent-step budget of the training row (default 32,768, --quick 1,024 on a tiny config; "
                        "0: no training row; needs torch and pufferlib)")
    b.add_argument("--cards", metavar="FILE", default=None,
                   help="also time the engine-only rows over this card set (e.g. azuki/data/expansion.json), "
                        "every ordered pairing of its decks or of --decks (default: the embedded set only)")
    b.add_argument("--decks", nargs="+", metavar="DECK", default=None,
                   help="with --cards: the decks whose pairings are timed (default: all of the set's decks)")
    b.set_defaults(fn=_bench.main)
    t = sub.add_parser("train", help="PPO (PuffeRL) with a self-play league: the main job (docs/training.md)",
                       description=TRAIN_DOC)
    t.add_argument("--minutes", type=_float_in(0.0, "--minutes"), default=None, metavar="M",
                   help="wall-clock budget of the training loop (default 10; 0: none)")
    t.add_argument("--steps", type=_int_in(0, None, "--steps"), default=None, metavar="N",
                   help="agent-step budget (default: none)")
    t.add_argument("--seed", type=_int_in(0, (1 << 62), "--seed"), default=None, metavar="S", help="seed")
    t.add_argument("--out", default=None, metavar="DIR", help="run directory (default runs/azuki-DATE-TIME)")
    t.add_argument("--resume", default=None, metavar="PATH", help="continue a run directory or checkpoint")
    t.add_argument("--arch", choices=tuple(f"{a}{h}" for a in ("structured", "flat") for h in (":factored", ":dense", "")),
                   default=None, help="policy architecture ARCH[:HEAD] (default: the config's policy.arch, "
                                      "structured:factored; ARCH alone means the dense head; docs/training.md)")
    t.add_argument("--config", default=None, metavar="FILE", help="a TOML config (shape of azuki/data/train.toml)")
    t.add_argument("--set", action="append", metavar="SECTION.KEY=VALUE", help="override one config key")
    t.add_argument("--quiet", action="store_true", help="no progress lines")
    t.set_defaults(fn=_train_main)
    from . import exploit as _exploit
    _exploit.add_parser(sub, _int_in)
    _add_play(sub)
    return ap


# ---- play: the browser front end (azuki/web; docs/play.md) ---------------------------
PLAY_DOC = """Play in the browser: a local web server (127.0.0.1, a free port) serving
one page where you play either deck against a bot (random, greedy, search with
a strength setting) or a checkpoint (the reference that ships with azuki, the
newest `train` run under --runs, or --checkpoint PATH), or two humans play
hot-seat; and a replay viewer (files of `record`, `eval --replays`, or saved
from the page). Prints the URL; --open launches the browser. Standard library
only; idle games are freed after --idle-minutes. Another --host than a
loopback address needs --expose (docs/play.md: limits, threads, timeouts)."""


def _add_play(sub):
    p = sub.add_parser("play", help="play and watch games in the browser (a local web server)",
                       description=PLAY_DOC)
    p.add_argument("--port", type=_int_in(0, 65535, "--port"), default=0, metavar="N",
                   help="port (default 0: a free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; another address needs --expose)")
    p.add_argument("--expose", action="store_true",
                   help="allow a --host that other machines can reach (prints what that exposes)")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="a host name clients use to reach the server (its Host / Origin checks allow it; "
                        "loopback names and --host always are)")
    p.add_argument("--think-seconds", type=_float_in(0.0, "--think-seconds"), default=10.0, metavar="S",
                   help="time budget of one search-bot decision (default 10): it plays its best move so far")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--cards", default=None, metavar="FILE", help="a card set JSON (default: the starter set)")
    p.add_argument("--runs", default="runs", metavar="DIR", help="where `train` writes runs (the newest is offered)")
    p.add_argument("--checkpoint", action="append", metavar="PATH",
                   help="also offer this checkpoint (NAME.npz or NAME.pt with NAME.json)")
    p.add_argument("--max-games", type=_int_in(1, 10000, "--max-games"), default=64, metavar="N",
                   help="games open at once (default 64)")
    p.add_argument("--idle-minutes", type=_float_in(0.01, "--idle-minutes"), default=30.0, metavar="M",
                   help="free a game or replay idle this long (default 30)")
    p.add_argument("--verbose", action="store_true", help="log every request (method, path, status: no queries)")
    p.add_argument("--static", default=None, metavar="DIR",
                   help="write a self-contained static site (the page, the engine as WebAssembly, the card set) "
                        "into DIR instead of serving: it plays against the built-in bots with no server "
                        "(docs/play.md, Static site)")
    p.set_defaults(fn=_play_main)


def _play_main(args):
    if args.static is not None:
        from .web import static_site
        return static_site.main(args)
    from .web import server
    return server.main(args)


TRAIN_DOC = """Train a policy with PPO (PufferLib's PuffeRL) on AzukiEnv against a league
(built-in bots + snapshots of the learner, opponents drawn by prioritized
fictitious self-play), printing progress, writing checkpoints, a learning
curve (PNG + JSON) and a final evaluation. Needs pufferlib and torch
(`bash tools/setup_envs.sh puffer`, then .venv-puffer/bin/azuki train).
Defaults: azuki/data/train.toml (10 minutes on CPU)."""


def _float_in(lo, what):
    import argparse

    def conv(text):
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not v >= lo or v != v or v == float("inf"):
            raise argparse.ArgumentTypeError(f"must be a finite number >= {lo}, got {text}")
        return v
    return conv


def _train_main(args):
    from . import train
    return train.main(args)


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.fn(args)
    except BrokenPipeError:
        raise                     # run_main ends quietly
    except Exception as e:  # a clear message, not a traceback, for bad input
        from .convert import ConvertError
        if isinstance(e, (ValueError, OSError, ConvertError)):
            return fail(str(e).splitlines()[0] if str(e) else type(e).__name__)
        raise


if __name__ == "__main__":
    run_main(main)

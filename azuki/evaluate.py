"""azuki.evaluate — any player against any player: paired deals, Wilson
intervals, Elo (docs/eval.md). The entry points (evaluate, round_robin,
evaluate_ray, main) and, re-exported, the public names of the modules it
is built from:

* azuki.eval_players  — what a player is (specs, bots, checkpoints, objects);
* azuki.eval_schedule — which games are played (paired deals, pair seeds);
* azuki.eval_play     — playing one match here (VecGame or the arena) and
  counting it; azuki.eval_ray — the same over Ray workers;
* azuki.eval_report   — the table (Elo, matrix), reports, progress, the
  --jsonl stream; azuki.eval_plot — the --plot SVG.

    from azuki.evaluate import evaluate, round_robin
    r = evaluate("runs/a.pt", "greedy", games=1000, seed=0)
    print(r["win_rate"])          # A's wins / games with its 95 % Wilson interval
    rr = round_robin(["random", "greedy", "runs/a.pt"], games_per_pair=200)

A player is a built-in bot name (``random``, ``greedy``, ``search``,
``search:sims=N``), a policy bot (``policy:PATH[:temp=T]``,
``psearch:PATH[:sims=N,cpuct=C,prior_temp=T,value=V,threads=K,halving=M]``: azuki.bots, played
in C), a policy checkpoint path (``*.pt``, loaded with
``azuki.policy.load_checkpoint``; ``PATH:greedy`` takes the argmax action
instead of sampling), or any object with ``act(obs, masks) -> int32[k]``
(uint8 observations ``[k, OBS_LEN]`` and masks ``[k, NUM_ACTIONS]``, as
VecGame writes them).

Schedule: games come in seat-swapped pairs on one deal (game 2k and 2k+1:
engine seed ``seed + k``, the same decks in the same seats, A in seat 0
then seat 1) and deals rotate over every ordered pairing of ``decks``.
Paths (the results depend only on the players, ``seed``, ``decks``,
``games`` and ``n``):

* a policy against a bot: ``VecGame(min(n, games), mode="bot", paired=True)``
  with the policy as the agent (batched inference);
* policy against policy, or against ``search:sims=N`` with a non-default N:
  ``VecGame(mode="policy", paired=True)``, A is the agent and B answers
  ``step_opponent`` (a Python-side bot answers on copies of the games,
  seeded exactly as VecGame's built-in bot);
* bot against bot: the arena (``azuki.arena``: A keeps its deck in both
  games of a deal, the seats swap).

``replays=DIR`` does not change the path: the actions each player applied
are recorded per episode, and every game is then re-played alone with
``azuki.replay.Recorder``, the C bots re-run from Python with their exact
per-game streams; the re-played result must equal the counted one
(RuntimeError otherwise), and each replay file verifies with
``python -m azuki replay``.
"""
from __future__ import annotations

import json
import os
import sys
import time

import numpy as np

from . import _core
from .eval_play import ReplayWriter, Tally, play_arena_match, play_vec_match, replay_vec
from .eval_players import (BatchedPlayer, BotPlayer, PBotPlayer, check_player, load_cardset,  # noqa: F401
                           make_player, parse_bot, split_checkpoint)
from .eval_ray import evaluate_ray  # noqa: F401
from .eval_report import (MatchStream, Progress, elo_diff, format_head_to_head,  # noqa: F401
                          format_round_robin, table_from_matches)
from .eval_schedule import (DEFAULT_DECKS, MASK64, check_games, outcome, pair_seed,  # noqa: F401
                            pairings, result_names, round_robin_pairs, vec_bot_seed, vec_deal)

__all__ = ["evaluate", "round_robin", "evaluate_ray", "main", "check_player", "make_player", "parse_bot",
           "BotPlayer", "PBotPlayer", "BatchedPlayer", "vec_deal", "vec_bot_seed", "format_head_to_head",
           "format_round_robin", "Progress", "DEFAULT_DECKS", "MASK64"]


def evaluate(a, b, games=1000, seed=0, decks=DEFAULT_DECKS, n=256, replays=None, cards=None, outcomes=False,
             progress=None):
    """Player `a` against player `b` (specs or objects; module docstring).
    Returns a JSON-able dict, everything from A's point of view:
    wins / losses / draws / truncated, ``win_rate`` = wins / games with its
    95 % Wilson interval (draws and truncated games count in the
    denominator, as non-wins), ``score`` = (wins + (draws + truncated) / 2) /
    games, ``elo_diff`` (A minus B, maximum likelihood with a 95 % interval,
    draws and truncations as half a win), breakdowns ``by_seat`` and
    ``by_decks`` (A's deck first), ``games_per_second`` and ``seeds``.
    ``cards``: the card set (None = the embedded starter set, a CardSet, or
    a JSON path such as azuki/data/expansion.json); ``decks`` name its decks.
    Results stream: outcomes are counted as games end and replay files are
    written as they end, so memory does not grow with ``games``; with
    ``outcomes=True`` the result also holds ``outcomes`` (A's outcome per
    game, in game order: a list as long as ``games``). ``progress(done,
    total)`` is called as games end."""
    check_games(games)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    decks = list(dict.fromkeys(decks))
    cs = load_cardset(cards)
    for d in decks:
        cs.deck_index(d)
    if len(decks) ** 2 > 16:
        raise ValueError(f"at most 4 decks (16 ordered pairings), got {len(decks)}")
    result_names()
    pseeds = [_core.bot_seed_for(seed, 1000 + k) for k in (0, 1)]
    pa, pb = make_player(a, pseeds[0], cs), make_player(b, pseeds[1], cs)
    names = [pa.name, pb.name]
    record = replays is not None
    tally = Tally(games, decks, keep_outcomes=outcomes, progress=progress)
    writer = ReplayWriter(replays, names, (a, b), cs) if record else None
    t0 = time.perf_counter()
    a_bot, b_bot = isinstance(pa, BotPlayer), isinstance(pb, BotPlayer)
    sims = None
    inv = {"win": "loss", "loss": "win", "draw": "draw", "truncated": "truncated"}

    def count(info, flip):
        info["a_seat"] = 1 - info["agent_seat"] if flip else info["agent_seat"]
        info["a_outcome"] = inv[info["outcome"]] if flip else info["outcome"]
        sd = info["seat_decks"]
        tally.add(info["game"], info["a_seat"], sd[info["a_seat"]], sd[1 - info["a_seat"]], info["a_outcome"])

    if a_bot and b_bot:
        path = "arena"

        def on_arena(info, rep):
            count(info, False)
            if record:
                writer.write(info, rep)

        def on_chunk(lo, cols, r):          # no replays: the chunk counted at once
            a_seat = np.asarray(cols["a_seat"], dtype=np.int64)
            winner = r["winner"].astype(np.int64)
            res = r["result"].astype(np.int64)
            o = np.where(winner == a_seat, 0, 1)
            o = np.where(res == result_names().index("DRAW"), 2, o)
            o = np.where(res == result_names().index("TRUNCATED"), 3, o)
            tally.add_many(lo, a_seat, np.asarray(cols["pairing"], dtype=np.int64), o)
        sims = play_arena_match(pa, pb, games, seed, decks, cards, on_arena, record, None if record else on_chunk)
    else:
        flip = a_bot                      # the agent of the VecGame must be a batched player
        agent, opp = (pb, pa) if flip else (pa, pb)

        def on_vec(info, acts):
            count(info, flip)
            if record:
                rep = replay_vec(info, acts, opp, seed, decks, cards)
                if outcome(rep["result"], info["agent_seat"]) != info["outcome"]:
                    raise RuntimeError(f"game {info['game']}: the replay ends {rep['result']}, the batched run "
                                       f"counted {info['outcome']} for the agent")
                writer.write(info, rep)
        mode = play_vec_match(agent, opp, games, seed, decks, n, cs, on_vec, record)
        path = f"vecgame-{mode}"
    seconds = time.perf_counter() - t0
    tot = tally.block()
    res = {
        "players": names, "path": path, "cards": None if cards is None else str(getattr(cs, "source", cards)),
        "games": games, "seed": seed, "decks": decks, "n": min(n, games),
        "wins": tot["wins"], "losses": tot["losses"], "draws": tot["draws"], "truncated": tot["truncated"],
        "win_rate": tot["win_rate"], "score": tot["score"],
        "elo_diff": elo_diff(tot["wins"], tot["losses"], tot["draws"] + tot["truncated"]),
        "by_seat": {f"seat {s}": tally.block(seat=s) for s in (0, 1)},
        "by_decks": {f"{x} vs {y}": tally.block(pairing=k) for k, (x, y) in enumerate(pairings(decks))},
        "seconds": seconds, "games_per_second": games / seconds if seconds > 0 else 0.0,
        "seeds": {"seed": seed, "engine_seeds": [seed, (seed + games // 2 - 1) & MASK64],
                  "player_seeds": {names[0]: pseeds[0], names[1]: pseeds[1]},
                  "bots": "arena: splitmix64(seed, game, seat)" if path == "arena"
                  else "VecGame: seed ^ (0x9E3779B97F4A7C15 * (episode + 1))"},
        "search_sims": sims if path == "arena" else None,
        "replays": os.fspath(replays) if record else None,
    }
    if outcomes:
        res["outcomes"] = tally.outcome_list()
    return res




# ---- round robin -------------------------------------------------------------------------

def round_robin(players, games_per_pair=200, seed=0, decks=DEFAULT_DECKS, n=256, replays=None, cards=None,
                progress=None, on_match=None):
    """Every pair (i < j) plays evaluate(i, j) with seed `seed + pair index *
    games_per_pair / 2` (distinct deals per pair; eval_schedule.pair_seed).
    Returns ``players``, ``matrix`` (matrix[i][j]: i's win-rate dict against
    j, None on the diagonal), ``score`` (same, scores), ``elo`` (fit_elo:
    anchored so that the ``random`` bot is 0 if it plays, else mean 0) and
    ``matches``. ``on_match(match, table)`` is called as each pairing
    finishes, with the running table (eval_report.table_from_matches of the
    pairings so far); it only watches: the result is the same without it."""
    players = list(players)
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    check_games(games_per_pair)
    names = [check_player(p, cards) for p in players]
    if len(set(names)) != len(names):
        raise ValueError(f"players must be distinct, got {names}")
    matches = []
    t0 = time.perf_counter()
    for k, (i, j) in enumerate(round_robin_pairs(len(players))):
        rdir = None if replays is None else os.path.join(os.fspath(replays), f"{i}-{j}")
        r = evaluate(players[i], players[j], games=games_per_pair, seed=pair_seed(seed, k, games_per_pair),
                     decks=decks, n=n, replays=rdir, cards=cards, progress=None if progress is None else getattr(
                         progress, "pair", lambda _label: progress)(f"{names[i]} vs {names[j]}"))
        matches.append({"i": i, "j": j, "result": r})
        if on_match is not None:
            on_match(dict(matches[-1], pair=k), table_from_matches(names, matches, games_per_pair, seed, decks,
                                                                   time.perf_counter() - t0))
    return table_from_matches(names, matches, games_per_pair, seed, decks, time.perf_counter() - t0)


# ---- the command line --------------------------------------------------------------------------

def main(args) -> int:
    """`python -m azuki eval` (argparse namespace from azuki.__main__)."""
    from .eval_plot import check_plot_path, write_plot
    players = list(args.players)
    if len(players) < 2:
        raise ValueError(f"eval: need at least two players, got {len(players)}")
    if args.games % 2:
        raise ValueError(f"--games: must be even (each deal is played from both seats), got {args.games}")
    decks = [d for d in args.decks.split(",") if d]
    cards = getattr(args, "cards", None)
    names = load_cardset(cards).decks
    for d in decks:
        if d not in names:
            raise ValueError(f"--decks: unknown deck {d!r} (this card set has: {', '.join(names)})")
    if not decks:
        raise ValueError("--decks: expected deck names separated by commas")
    for p in players:
        check_player(p, cards)
    show = getattr(args, "progress", False) or (not getattr(args, "quiet", False) and sys.stderr.isatty())
    progress = Progress() if show else None
    ray_workers = getattr(args, "ray", None)
    if ray_workers and (len(players) != 2 or args.replays or cards):
        raise ValueError("--ray: for two players, without --replays or --cards")
    plot = getattr(args, "plot", None)
    if plot is not None:
        check_plot_path(plot)                # before any game
    jsonl = getattr(args, "jsonl", None)
    stream = MatchStream(jsonl) if jsonl is not None else None
    try:
        if len(players) == 2:
            if ray_workers:
                r = evaluate_ray(players[0], players[1], games=args.games, seed=args.seed, decks=decks, n=args.n,
                                 workers=ray_workers, outcomes=False)
            else:
                r = evaluate(players[0], players[1], games=args.games, seed=args.seed, decks=decks, n=args.n,
                             replays=args.replays, cards=cards, progress=progress)
            if stream is not None:
                stream.match({"i": 0, "j": 1, "pair": 0, "result": r}, 1)
        else:
            pairs = len(players) * (len(players) - 1) // 2

            def on_match(match, table):
                if stream is not None:
                    stream.match(match, pairs, table)
                if show and match["pair"] + 1 < pairs:      # the running table; the last one is the result
                    sys.stderr.write(format_round_robin(table, done=(match["pair"] + 1, pairs)) + "\n")
                    sys.stderr.flush()
            r = round_robin(players, games_per_pair=args.games, seed=args.seed, decks=decks, n=args.n,
                            replays=args.replays, cards=cards, progress=progress, on_match=on_match)
            if stream is not None:
                stream.table(r)
    finally:
        if stream is not None:
            stream.close()
    if plot is not None:
        write_plot(r, plot)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print(format_head_to_head(r) if len(players) == 2 else format_round_robin(r))
    return 0

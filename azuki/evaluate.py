"""azuki.evaluate — any player against any player: paired deals, Wilson
intervals, Elo (docs/eval.md).

    from azuki.evaluate import evaluate, round_robin
    r = evaluate("runs/a.pt", "greedy", games=1000, seed=0)
    print(r["win_rate"])          # A's wins / games with its 95 % Wilson interval
    rr = round_robin(["random", "greedy", "runs/a.pt"], games_per_pair=200)

A player is a built-in bot name (``random``, ``greedy``, ``search``,
``search:sims=N``), a policy bot (``policy:PATH[:temp=T]``,
``psearch:PATH[:sims=N,cpuct=C,prior_temp=T,value=V]``: azuki.bots, played
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
from .ratings import diff_ci, fit_elo
from .stats import rate

MASK64 = (1 << 64) - 1
DEFAULT_DECKS = ("STT01", "STT02")


# ---- players -----------------------------------------------------------------------

class BotPlayer:
    """A built-in C bot (kind name, optional search budget)."""

    def __init__(self, kind, sims=None):
        _core.bot_kind(kind)
        self.kind = kind
        self.sims = sims
        self.name = kind if sims is None else f"{kind}:sims={sims}"

    @property
    def default_settings(self):
        return self.sims is None or self.sims == _core.SEARCH_SIMS

    def act_game(self, game, rng):
        return _core.bot_act(game, _core.bot_kind(self.kind), rng, sims=self.sims)

    def __repr__(self):
        return f"BotPlayer({self.name!r})"


class PBotPlayer(BotPlayer):
    """A policy bot (azuki.bots.PolicyBot's C player: ``policy:PATH`` or
    ``psearch:PATH[:k=v,...]``): plays in C like the built-in bots (the
    arena's play_games, or on game copies opposite a batched player)."""

    def __init__(self, spec, cards=None):
        from .bots import parse_pbot_spec
        from .policy_np import cpolicy_for
        kind, path, settings = parse_pbot_spec(spec)
        self.kind, self.path, self.settings = kind, path, settings
        self.sims = settings.get("sims")
        self.name = spec
        self.policy = cpolicy_for(path, _cardset(cards))

    @property
    def default_settings(self):
        return False          # never VecGame's built-in bot: answered from Python on the game copies

    def act_game(self, game, rng):
        return _core.pbot_act(game, self.policy, self.kind, rng, self.settings)

    def __repr__(self):
        return f"PBotPlayer({self.name!r})"


class _Wrapped:
    """A batched player (anything with act(obs, masks)) with a display name."""

    def __init__(self, obj, name):
        self.obj = obj
        self.name = name

    def act(self, obs, masks):
        return self.obj.act(obs, masks)


def parse_bot(spec, cards=None):
    """BotPlayer for 'random', 'greedy', 'search', 'search:sims=N', and the
    policy bots 'policy:PATH[:temp=T]', 'psearch:PATH[:sims=N,cpuct=C,
    prior_temp=T,value=V]' (azuki.bots.parse_pbot_spec; PATH 'reference' is
    the shipped policy; the weights loaded and checked against `cards`); None
    if `spec` names no bot; ValueError for a bot name with bad settings."""
    base, _, opts = spec.partition(":")
    if base in _core.PBOT_KINDS:
        return PBotPlayer(spec, cards)
    if base not in _core.BOT_KINDS:
        return None
    sims = None
    if opts:
        for kv in opts.split(","):
            k, eq, v = kv.partition("=")
            if k != "sims" or not eq or base != "search":
                raise ValueError(f"player {spec!r}: unknown setting {kv!r} (only search:sims=N)")
            try:
                sims = int(v, 10)
            except ValueError:
                raise ValueError(f"player {spec!r}: sims must be an integer, got {v!r}") from None
            if not 1 <= sims <= _core.SEARCH_MAX_SIMS:
                raise ValueError(f"player {spec!r}: sims must be in [1, {_core.SEARCH_MAX_SIMS}], got {sims}")
    return BotPlayer(base, sims)


def check_player(spec, cards=None):
    """Raise ValueError (one line) for a spec that cannot be a player, without
    loading anything heavy; returns the display name. A checkpoint must be
    complete and fit this build and the card set in use (`cards`;
    azuki.policy_np.check_compat, the one compatibility check: a
    CheckpointError naming what differs)."""
    if not isinstance(spec, str):
        if isinstance(spec, BotPlayer) or hasattr(spec, "act"):
            return getattr(spec, "name", type(spec).__name__)
        raise TypeError(f"a player is a bot name, a checkpoint path or an object with act(obs, masks), "
                        f"got {type(spec).__name__}")
    bot = parse_bot(spec, cards)
    if bot is not None:
        return bot.name
    path, greedy = _split_ckpt(spec)
    from .policy_np import check_compat, checkpoint_exists, resolve_checkpoint
    if path.endswith((".pt", ".json")) or os.path.exists(path) or checkpoint_exists(path):
        if not checkpoint_exists(path) and not os.path.isfile(path):
            raise ValueError(f"player {spec!r}: no such checkpoint file")
        check_compat(resolve_checkpoint(path)[0], path, _cardset(cards))
        return spec
    raise ValueError(f"unknown player {spec!r} (a bot: {', '.join(_core.BOT_KINDS)}, search:sims=N; "
                     f"or a checkpoint file *.pt)")


def _split_ckpt(spec):
    for suffix, greedy in ((":greedy", True), (":sample", False)):
        if spec.endswith(suffix):
            return spec[: -len(suffix)], greedy
    return spec, False


def make_player(spec, seed=0, cards=None):
    """A BotPlayer or a batched player (with .act and .name) for a spec;
    checkpoints are loaded here (azuki.policy, which needs torch), their
    sampling seeded with `seed`, checked against the card set `cards`."""
    name = check_player(spec, cards)
    if not isinstance(spec, str):
        return spec if isinstance(spec, BotPlayer) else _Wrapped(spec, name)
    bot = parse_bot(spec, cards)
    if bot is not None:
        return bot
    path, greedy = _split_ckpt(spec)
    try:
        from . import policy as _policy
    except ImportError as e:
        raise ValueError(f"player {spec!r}: loading a checkpoint needs torch and azuki.policy ({e})") from None
    pol, _meta = _policy.load_checkpoint(path, cards=_cardset(cards))
    return _Wrapped(_policy.PolicyPlayer(pol, greedy=greedy, seed=seed & ((1 << 63) - 1)), name)


# ---- schedule helpers ---------------------------------------------------------------

def _pairings(decks):
    return [(a, b) for a in decks for b in decks]


def vec_deal(e, seed, pairings):
    """Episode e of a paired VecGame: (engine seed, (deck of seat 0, deck of seat 1), agent seat), as the
    C schedule defines it (azuki.h azk_deal_schedule; _core.deal_schedule)."""
    d = _core.deal_schedule(e, seed=seed, npairs=len(pairings), paired=True)
    p = pairings[d["pairing"]]
    return d["engine_seed"], (p[1], p[0]) if d["swapped"] else tuple(p), d["agent_seat"]


def vec_bot_seed(seed, e):
    """The seed of VecGame's built-in bot in episode e (azuki.h azk_vec_bot_seed, through the schedule)."""
    return _core.deal_schedule(e, seed=seed)["bot_seed"]


def _outcome(result, a_seat):
    """'win' / 'loss' / 'draw' / 'truncated' for A from a Game.result string."""
    if result == "DRAW":
        return "draw"
    if result == "TRUNCATED":
        return "truncated"
    w = 0 if result == "WIN_P0" else 1
    return "win" if w == a_seat else "loss"


# ---- the fast paths -------------------------------------------------------------------

def _first_legal(masks):
    return masks.argmax(axis=1).astype(np.int32)


def _run_vec(agent, opp, games, seed, decks, n, cs, on_end, record):
    """Play `games` episodes of a paired VecGame with `agent` (batched) as the
    agent and `opp` (BotPlayer or batched) as the other seat. Each episode,
    when it ends, goes to on_end(info, actions) (info: game, engine seed, seat
    decks, agent seat, agent's outcome; actions: with `record`, the actions
    each side applied, else None): nothing per game is kept here. Returns the
    VecGame mode."""
    pairings = _pairings(decks)
    nn = min(n, games)
    c_bot = isinstance(opp, BotPlayer) and opp.default_settings
    mode = "bot" if c_bot else "policy"
    v = _core.VecGame(nn, seed=seed, pairings=pairings, mode=mode, bot=opp.kind if c_bot else "random",
                      paired=True, cards=cs)
    left = games
    acts = {} if record else None          # the running episodes' actions only
    py_rngs = {}

    def note_ends(eps):
        nonlocal left
        ended = np.nonzero(v.terminals | v.truncations)[0]
        for r in ended:
            e = int(eps[r])
            py_rngs.pop(e, None)
            if e >= games:
                continue
            if v.truncations[r]:
                o = "truncated"
            else:
                rw = float(v.rewards[r])
                o = "win" if rw > 0 else "loss" if rw < 0 else "draw"
            eng_seed, seat_decks, a_seat = vec_deal(e, seed, pairings)
            on_end({"game": e, "seed": eng_seed, "seat_decks": seat_decks, "agent_seat": a_seat, "outcome": o},
                   acts.pop(e, ([], [])) if record else None)
            left -= 1

    def rec(eps, rows, actions, side):
        for r in rows:
            e = int(eps[r])
            if e < games:
                acts.setdefault(e, ([], []))[side].append(int(actions[r]))

    def bot_answers(eps, counted, out_actions):
        """A non-default search bot as the opponent, from Python, each episode on its own stream."""
        for r in counted:
            e = int(eps[r])
            rng = py_rngs.get(e)
            if rng is None:
                rng = py_rngs[e] = _core.bot_rng(vec_bot_seed(seed, e))
            out_actions[r] = opp.act_game(v.game(int(r)), rng)

    def half_step(side):
        """One call for the agent rows (side 0) or the pending opponent games
        (side 1): the counted episodes answered by their player, episodes past
        `games` (still running in the vector) by their first legal action."""
        waiting, obs, masks = (v.acting, v.obs, v.masks) if side == 0 else (v.opp_pending, v.opp_obs, v.opp_masks)
        eps = v.episodes()
        rows = np.nonzero(waiting)[0]
        if not rows.size:
            return
        a = np.zeros(nn, dtype=np.int32)
        counted = rows[eps[rows] < games]
        extra = rows[eps[rows] >= games]
        if counted.size:
            if side == 1 and isinstance(opp, PBotPlayer):     # in C, each game on its own bot stream
                a[counted] = v.pbot_opponent_actions(opp.policy, opp.kind, opp.settings)[counted]
            elif side == 1 and isinstance(opp, BotPlayer):
                bot_answers(eps, counted, a)
            else:
                a[counted] = np.asarray((agent, opp)[side].act(obs[counted], masks[counted]), dtype=np.int32)
        if extra.size:
            a[extra] = _first_legal(masks[extra])
        if record:
            rec(eps, counted, a, side)
        (v.step, v.step_opponent)[side](a)
        note_ends(eps)

    while left > 0:
        half_step(0)
        if mode == "policy" and left > 0:
            half_step(1)
    return mode


def _replay_vec(info, acts, opp, seed, d, cards=None):
    """Re-play one VecGame episode alone from its recorded actions; returns the replay dict."""
    from .replay import Recorder
    rec = Recorder(seed=info["seed"], decks=info["seat_decks"], cards=cards)
    g = rec.game
    qa, qb = (list(reversed(x)) for x in (acts or ([], [])))
    rng = _core.bot_rng(vec_bot_seed(seed, info["game"])) if isinstance(opp, BotPlayer) else None
    while not g.is_terminal:
        if g.current_player == info["agent_seat"]:
            a = qa.pop()
        elif rng is not None:
            a = opp.act_game(g, rng)
            if qb and qb.pop() != a:     # a Python-side bot (mode "policy"): its choices were recorded too
                raise RuntimeError(f"replay of game {info['game']}: the bot chose differently on re-play")
        else:
            a = qb.pop()
        rec.step(a)
    if qa or qb:
        raise RuntimeError(f"replay of game {info['game']}: {len(qa) + len(qb)} recorded actions left over")
    return rec.to_dict()


def _run_arena(pa, pb, games, seed, decks, cards, on_end, record, on_chunk=None):
    """The arena's schedule played chunk by chunk; each game goes to
    on_end(info, replay dict or None), or each chunk to on_chunk(first game,
    schedule columns, play_games results). Returns the search budget."""
    from .arena import _play, chunk_for, schedule
    sims = {p.sims for p in (pa, pb) if p.kind == "search" and p.sims is not None}
    if len(sims) > 1:
        raise ValueError("two search bots with different sims: the arena runs one search budget")
    sims = sims.pop() if sims else None
    cs = _cardset(cards)
    res_names = dict(enumerate(_result_names()))
    # policy bots play in C too: kind -1 - j is pbots[j] (_core.play_games)
    pbots, codes = [], []
    for p in (pa, pb):
        if isinstance(p, PBotPlayer):
            pbots.append((p.policy, p.kind, p.settings))
            codes.append(-len(pbots))
        else:
            codes.append(p.kind)
    chunk = chunk_for((pa.kind, pb.kind))        # one chunk's schedule and results are all that is held
    for lo in range(0, games, chunk):
        hi = min(games, lo + chunk)
        cols, _ = schedule(games, seed, tuple(codes), list(decks), lo=lo, hi=hi)
        d0 = [cs.deck_index(x) for x in cols["deck0"]]
        d1 = [cs.deck_index(x) for x in cols["deck1"]]
        r = _play(cols, d0, d1, cs, 200, 10000, sims, 1, pbots)
        if int(r["error"].sum()):
            raise RuntimeError(f"the arena reported {int(r['error'].sum())} engine errors")
        if on_chunk is not None:
            on_chunk(lo, cols, r)
            continue
        for k in range(hi - lo):
            a_seat = cols["a_seat"][k]
            result = res_names.get(int(r["result"][k]))
            info = {"game": lo + k, "seed": cols["seed"][k], "seat_decks": (cols["deck0"][k], cols["deck1"][k]),
                    "agent_seat": a_seat, "outcome": _outcome(result, a_seat)}
            rep = None
            if record:
                from .replay import Recorder
                rec = Recorder(seed=info["seed"], decks=info["seat_decks"], cards=cards)
                rngs = [_core.bot_rng(cols["bseed0"][k]), _core.bot_rng(cols["bseed1"][k])]
                bots = [pa, pb] if a_seat == 0 else [pb, pa]
                while not rec.game.is_terminal:
                    q = rec.game.current_player
                    rec.step(bots[q].act_game(rec.game, rngs[q]))
                rep = rec.to_dict()
            on_end(info, rep)
    return sims


_RESULTS = None


def _result_names():
    global _RESULTS
    if _RESULTS is None:
        from . import spec_autogen as S
        _RESULTS = tuple(S.RESULT)
    return _RESULTS


# ---- evaluate ---------------------------------------------------------------------------

_OUTCOMES = ("win", "loss", "draw", "truncated")


def _block_of(c):
    """The report block of outcome counts {"win": w, "loss": l, "draw": d, "truncated": t}."""
    n = sum(c.values())
    return {"games": n, "wins": c["win"], "losses": c["loss"], "draws": c["draw"], "truncated": c["truncated"],
            "win_rate": rate(c["win"], n), "score": (c["win"] + 0.5 * (c["draw"] + c["truncated"])) / n if n else 0.0}


def _block(infos):
    c = dict.fromkeys(_OUTCOMES, 0)
    for i in infos:
        c[i["a_outcome"]] += 1
    return _block_of(c)


class _Tally:
    """A's outcomes counted as games end, by seat and by deck pairing (A's deck
    first): a fixed array, memory independent of the number of games (the
    per-game list only when asked)."""

    def __init__(self, games, decks, keep_outcomes=False, progress=None):
        self.pairings = _pairings(decks)
        self.index = {p: k for k, p in enumerate(self.pairings)}
        self.counts = np.zeros((2, len(self.pairings), len(_OUTCOMES)), dtype=np.int64)
        self.outcomes = np.full(games, -1, dtype=np.int8) if keep_outcomes else None
        self.done, self.games, self.progress = 0, games, progress
        self._next = 0

    def add(self, game, a_seat, a_deck, b_deck, outcome):
        o = _OUTCOMES.index(outcome)
        self.counts[a_seat, self.index[(a_deck, b_deck)], o] += 1
        if self.outcomes is not None:
            self.outcomes[game] = o
        self._advance(1)

    def add_many(self, lo, a_seats, pairing, outcome):
        """Games lo, lo + 1, ...: A's seats, pairing indices, outcome indices (arrays)."""
        np.add.at(self.counts, (a_seats, pairing, outcome), 1)
        if self.outcomes is not None:
            self.outcomes[lo:lo + len(outcome)] = outcome
        self._advance(len(outcome))

    def _advance(self, k):
        self.done += k
        if self.progress is not None and (self.done >= self._next or self.done == self.games):
            self._next = self.done + 256
            self.progress(self.done, self.games)

    def block(self, seat=None, pairing=None):
        c = self.counts
        c = c[seat] if seat is not None else c.sum(axis=0)
        c = c[pairing] if pairing is not None else c.sum(axis=0)
        return _block_of({k: int(c[i]) for i, k in enumerate(_OUTCOMES)})

    def outcome_list(self):
        return [_OUTCOMES[o] for o in self.outcomes.tolist()]


class _ReplayWriter:
    """Each game's replay file, written when the game ends (with the
    checkpoint players' inspection, docs/play.md)."""

    def __init__(self, dirname, names, specs, cards):
        self.dirname, self.names = dirname, names
        os.makedirs(dirname, exist_ok=True)
        self.annot = _annotators(specs, cards)

    def write(self, info, rep):
        for k, pol in self.annot:
            annotate_seat = info["a_seat"] if k == 0 else 1 - info["a_seat"]
            from .policy_np import annotate_replay
            annotate_replay(rep, annotate_seat, pol)
        seat_names = [self.names[0], self.names[1]] if info["a_seat"] == 0 else [self.names[1], self.names[0]]
        rep = dict(rep)
        rep["eval"] = {"game": info["game"], "players": seat_names, "a_seat": info["a_seat"],
                       "a_outcome": info["a_outcome"]}
        with open(os.path.join(self.dirname, f"game{info['game']:06d}.json"), "w") as f:
            json.dump(rep, f)
            f.write("\n")


def _check_games(games):
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even integer >= 2 (each deal is played from both seats), got {games!r}")


def _cardset(cards):
    """The card set to play: None = the embedded default; a CardSet; or a JSON path."""
    if cards is None:
        return _core.CardSet.default()
    return cards if isinstance(cards, _core.CardSet) else _core.CardSet.from_json(os.fspath(cards))


def evaluate(a, b, games=1000, seed=0, decks=DEFAULT_DECKS, n=256, replays=None, _players=None, cards=None,
             outcomes=False, progress=None):
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
    _check_games(games)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    decks = list(dict.fromkeys(decks))
    cs = _cardset(cards)
    for d in decks:
        cs.deck_index(d)
    if len(decks) ** 2 > 16:
        raise ValueError(f"at most 4 decks (16 ordered pairings), got {len(decks)}")
    _result_names()
    pseeds = [_core.bot_seed_for(seed, 1000 + k) for k in (0, 1)]
    pa, pb = _players if _players is not None else (make_player(a, pseeds[0], cs), make_player(b, pseeds[1], cs))
    names = [pa.name, pb.name]
    record = replays is not None
    tally = _Tally(games, decks, keep_outcomes=outcomes, progress=progress)
    writer = _ReplayWriter(replays, names, (a, b), cs) if record else None
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
            o = np.where(res == _result_names().index("DRAW"), 2, o)
            o = np.where(res == _result_names().index("TRUNCATED"), 3, o)
            tally.add_many(lo, a_seat, np.asarray(cols["pairing"], dtype=np.int64), o)
        sims = _run_arena(pa, pb, games, seed, decks, cards, on_arena, record, None if record else on_chunk)
    else:
        flip = a_bot                      # the agent of the VecGame must be a batched player
        agent, opp = (pb, pa) if flip else (pa, pb)

        def on_vec(info, acts):
            count(info, flip)
            if record:
                rep = _replay_vec(info, acts, opp, seed, decks, cards)
                if _outcome(rep["result"], info["agent_seat"]) != info["outcome"]:
                    raise RuntimeError(f"game {info['game']}: the replay ends {rep['result']}, the batched run "
                                       f"counted {info['outcome']} for the agent")
                writer.write(info, rep)
        mode = _run_vec(agent, opp, games, seed, decks, n, cs, on_vec, record)
        path = f"vecgame-{mode}"
    seconds = time.perf_counter() - t0
    tot = tally.block()
    half = tot["draws"] + tot["truncated"]
    fit = fit_elo([(0, 1, tot["wins"], tot["losses"], half)], anchor=1)
    d, ci = diff_ci(fit, 0, 1)
    res = {
        "players": names, "path": path, "cards": None if cards is None else str(getattr(cs, "source", cards)),
        "games": games, "seed": seed, "decks": decks, "n": min(n, games),
        "wins": tot["wins"], "losses": tot["losses"], "draws": tot["draws"], "truncated": tot["truncated"],
        "win_rate": tot["win_rate"], "score": tot["score"],
        "elo_diff": {"elo": d, "ci95": ci, "regularized": fit["regularized"]},
        "by_seat": {f"seat {s}": tally.block(seat=s) for s in (0, 1)},
        "by_decks": {f"{x} vs {y}": tally.block(pairing=k) for k, (x, y) in enumerate(_pairings(decks))},
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


def _merge_blocks(blocks):
    c = {k: sum(b[k] for b in blocks) for k in ("games", "wins", "losses", "draws", "truncated")}
    n = c["games"]
    return dict(c, win_rate=rate(c["wins"], n),
                score=(c["wins"] + 0.5 * (c["draws"] + c["truncated"])) / n if n else 0.0)


def _ray_chunk(a, b, games, seed, decks, n, outcomes):
    return evaluate(a, b, games=games, seed=seed, decks=decks, n=n, outcomes=outcomes)


def evaluate_ray(a, b, games=1000, seed=0, decks=DEFAULT_DECKS, n=256, workers=2, address=None, outcomes=True):
    """evaluate() spread over Ray workers, for very large evaluations (a local
    Ray instance, or the cluster at `address` / $RAY_ADDRESS). The deals are
    the same as one process plays (chunk j starts at deal j * chunk, engine
    seed seed + deal; chunks are whole rounds of the deck pairings, so every
    chunk is balanced); the players' and bots' random streams are per chunk,
    so results are reproducible for the same `workers` but not identical to
    evaluate()'s. Players must be specs (strings) or picklable objects.
    ``outcomes``: include the per-game list (as evaluate(outcomes=True));
    the command line leaves it out."""
    import ray
    _check_games(games)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    decks = list(dict.fromkeys(decks))
    quantum = 2 * 2 * len(_pairings(decks))          # games: both seats x each ordered pairing x deck swap
    deals = games // 2
    per = max(quantum // 2, -(-deals // workers))
    per += (-per) % (quantum // 2)
    chunks = [(k, min(per, deals - k)) for k in range(0, deals, per)]
    if not ray.is_initialized():
        ray.init(address=address or os.environ.get("RAY_ADDRESS"), include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    remote = ray.remote(_ray_chunk)
    t0 = time.perf_counter()
    parts = ray.get([remote.remote(a, b, 2 * m, (seed + k) & MASK64, decks, n, outcomes) for k, m in chunks])
    seconds = time.perf_counter() - t0
    tot = _merge_blocks(parts)
    half = tot["draws"] + tot["truncated"]
    fit = fit_elo([(0, 1, tot["wins"], tot["losses"], half)], anchor=1)
    d, ci = diff_ci(fit, 0, 1)
    first = parts[0]
    return {
        "players": first["players"], "path": f"ray[{len(chunks)} chunks]/" + first["path"], "games": games,
        "seed": seed, "decks": decks, "n": n, **{k: tot[k] for k in ("wins", "losses", "draws", "truncated")},
        "win_rate": tot["win_rate"], "score": tot["score"],
        "elo_diff": {"elo": d, "ci95": ci, "regularized": fit["regularized"]},
        "by_seat": {k: _merge_blocks([p["by_seat"][k] for p in parts]) for k in first["by_seat"]},
        "by_decks": {k: _merge_blocks([p["by_decks"][k] for p in parts]) for k in first["by_decks"]},
        "seconds": seconds, "games_per_second": games / seconds if seconds > 0 else 0.0,
        "seeds": {"seed": seed, "chunks": [[(seed + k) & MASK64, 2 * m] for k, m in chunks]},
        "search_sims": first.get("search_sims"), "replays": None,
        **({"outcomes": [o for p in parts for o in p["outcomes"]]} if outcomes else {}),
    }


def _annotators(specs, cards=None):
    """[(player index, numpy policy)] for the checkpoint players among `specs`:
    agent inspection in the replays (docs/play.md), each checkpoint player's
    probabilities and value at each of its decisions, computed again by the
    numpy player (azuki.policy_np) on the replayed position."""
    from .policy_np import CheckpointError, load_numpy_policy
    out = []
    for k, spec in enumerate(specs):
        if not isinstance(spec, str) or parse_bot(spec) is not None:
            continue
        try:
            out.append((k, load_numpy_policy(_split_ckpt(spec)[0], cards=cards)))
        except CheckpointError:
            continue               # (the torch player loaded it; no inspection then)
    return out


# ---- round robin -------------------------------------------------------------------------

def round_robin(players, games_per_pair=200, seed=0, decks=DEFAULT_DECKS, n=256, replays=None, cards=None,
                progress=None):
    """Every pair (i < j) plays evaluate(i, j) with seed `seed + pair index *
    games_per_pair` (distinct deals per pair). Returns ``players``,
    ``matrix`` (matrix[i][j]: i's win-rate dict against j, None on the
    diagonal), ``score`` (same, scores), ``elo`` (fit_elo: anchored so that
    the ``random`` bot is 0 if it plays, else mean 0) and ``matches``."""
    players = list(players)
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    _check_games(games_per_pair)
    names = [check_player(p, cards) for p in players]
    if len(set(names)) != len(names):
        raise ValueError(f"players must be distinct, got {names}")
    m = len(players)
    mat = [[None] * m for _ in range(m)]
    score = [[None] * m for _ in range(m)]
    results = []
    matches = []
    k = 0
    t0 = time.perf_counter()
    for i in range(m):
        for j in range(i + 1, m):
            s = (seed + k * (games_per_pair // 2)) & MASK64
            k += 1
            rdir = None if replays is None else os.path.join(os.fspath(replays), f"{i}-{j}")
            r = evaluate(players[i], players[j], games=games_per_pair, seed=s, decks=decks, n=n, replays=rdir,
                         cards=cards, progress=None if progress is None else getattr(
                             progress, "pair", lambda _label: progress)(f"{names[i]} vs {names[j]}"))
            matches.append({"i": i, "j": j, "result": r})
            mat[i][j] = r["win_rate"]
            mat[j][i] = rate(r["losses"], r["games"])
            score[i][j] = r["score"]
            score[j][i] = 1.0 - r["score"]
            results.append((i, j, r["wins"], r["losses"], r["draws"] + r["truncated"]))
    anchor = names.index("random") if "random" in names else None
    fit = fit_elo(results, n=m, anchor=anchor)
    return {"players": names, "games_per_pair": games_per_pair, "seed": seed, "decks": list(decks),
            "matrix": mat, "score": score,
            "elo": {"elo": fit["elo"], "ci95": fit["ci95"], "anchor": names[anchor] if anchor is not None else None,
                    "anchor_rule": "random = 0" if anchor is not None else "mean 0",
                    "regularized": fit["regularized"]},
            "seconds": time.perf_counter() - t0, "matches": matches}


# ---- printing and the command line --------------------------------------------------------

def _pct(r):
    return f"{100 * r['rate']:5.1f}% [{100 * r['ci95'][0]:5.1f}, {100 * r['ci95'][1]:5.1f}]"


def format_head_to_head(r):
    a, b = r["players"]
    lines = [f"azuki eval: {a} vs {b}, {r['games']} games ({r['games'] // 2} deals x both seats), seed {r['seed']}, "
             f"decks {' '.join(r['decks'])}, path {r['path']}"]
    lines.append(f"  {a} wins {r['wins']}, losses {r['losses']}, draws {r['draws']}, truncated {r['truncated']}")
    lines.append(f"  win rate {_pct(r['win_rate'])}  (wins / all games, 95% Wilson interval)")
    e = r["elo_diff"]
    lines.append(f"  score {r['score']:.3f} (draw, truncated = 1/2)  Elo {a} - {b}: {e['elo']:+.0f} "
                 f"[{e['ci95'][0]:+.0f}, {e['ci95'][1]:+.0f}]" + (" (regularized)" if e["regularized"] else ""))
    for title, key in (("by seat of " + a, "by_seat"), ("by decks (" + a + " first)", "by_decks")):
        lines.append(f"  {title}:")
        for k, blk in r[key].items():
            extra = f", draws {blk['draws']}, truncated {blk['truncated']}" if blk["draws"] or blk["truncated"] else ""
            lines.append(f"    {k:<16} {blk['games']:6d} games  {_pct(blk['win_rate'])}{extra}")
    lines.append(f"  {r['games_per_second']:,.1f} games/s ({r['seconds']:.2f} s)"
                 + (f"; replays in {r['replays']}" if r["replays"] else ""))
    return "\n".join(lines)


def format_round_robin(rr):
    names = rr["players"]
    w = max(8, max(len(x) for x in names))
    lines = [f"azuki eval: round robin of {len(names)} players, {rr['games_per_pair']} games per pair, "
             f"seed {rr['seed']}, decks {' '.join(rr['decks'])}",
             "  win rate of row against column (95% Wilson interval):"]
    cw = 22
    lines.append("  " + " " * w + "".join(f"{x[:cw - 1]:>{cw}}" for x in names))
    for i, x in enumerate(names):
        cells = "".join(f"{'-':>{cw}}" if c is None else f"{_pct(c):>{cw}}" for c in rr["matrix"][i])
        lines.append(f"  {x:<{w}}" + cells)
    el = rr["elo"]
    lines.append(f"  Elo (maximum likelihood, draws and truncations = 1/2, anchor: {el['anchor_rule']}"
                 + (", regularized" if el["regularized"] else "") + "):")
    order = sorted(range(len(names)), key=lambda k: -el["elo"][k])
    for k in order:
        lo, hi = el["ci95"][k]
        lines.append(f"    {names[k]:<{w}} {el['elo'][k]:+7.0f}  [{lo:+.0f}, {hi:+.0f}]")
    lines.append(f"  {rr['seconds']:.1f} s")
    return "\n".join(lines)


class Progress:
    """Progress lines on stderr for `python -m azuki eval`: at most one every
    `interval` seconds of wall time (none for a short run), always the last
    one (done == total). On a terminal the line is rewritten in place."""

    def __init__(self, stream=None, interval=2.0, label="", command="eval"):
        self.stream = stream if stream is not None else sys.stderr
        self.interval, self.label, self.command = interval, label, command
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = self.last = time.monotonic()

    def pair(self, label):
        return Progress(self.stream, self.interval, label, self.command)

    def __call__(self, done, total):
        now = time.monotonic()
        if done < total and now - self.last < self.interval:
            return
        self.last = now
        dt = now - self.t0
        speed = done / dt if dt > 0 else 0.0
        eta = (total - done) / speed if speed > 0 else 0.0
        what = f"{self.command}: {self.label}: " if self.label else f"{self.command}: "
        line = (f"{what}{done:,}/{total:,} games ({100.0 * done / total:.1f}%), {speed:,.0f} games/s, "
                f"{dt:,.0f} s, eta {eta:,.0f} s")
        end = "\n" if done >= total or not self.tty else ""
        self.stream.write(("\r" if self.tty else "") + line + end)
        self.stream.flush()


def main(args) -> int:
    """`python -m azuki eval` (argparse namespace from azuki.__main__)."""
    players = list(args.players)
    if len(players) < 2:
        raise ValueError(f"eval: need at least two players, got {len(players)}")
    if args.games % 2:
        raise ValueError(f"--games: must be even (each deal is played from both seats), got {args.games}")
    decks = [d for d in args.decks.split(",") if d]
    cards = getattr(args, "cards", None)
    names = _cardset(cards).decks
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
    if ray_workers:
        r = evaluate_ray(players[0], players[1], games=args.games, seed=args.seed, decks=decks, n=args.n,
                         workers=ray_workers, outcomes=False)
        print(json.dumps(r, indent=1) if args.json else format_head_to_head(r))
        return 0
    if len(players) == 2:
        r = evaluate(players[0], players[1], games=args.games, seed=args.seed, decks=decks, n=args.n,
                     replays=args.replays, cards=cards, progress=progress)
        print(json.dumps(r, indent=1) if args.json else format_head_to_head(r))
        return 0
    rr = round_robin(players, games_per_pair=args.games, seed=args.seed, decks=decks, n=args.n,
                     replays=args.replays, cards=cards, progress=progress)
    print(json.dumps(rr, indent=1) if args.json else format_round_robin(rr))
    return 0

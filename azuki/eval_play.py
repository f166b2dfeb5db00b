"""azuki.eval_play — playing one match of `azuki eval` on this machine, and counting it.

Two runners, chosen by azuki.evaluate.evaluate from the players:
* play_vec_match: a paired VecGame with a batched player as the agent (the
  opponent a C bot inside step(), or answering step_opponent);
* play_arena_match: bot against bot, the arena's schedule (azuki.arena.schedule,
  played by azuki.arena.play_schedule), chunk by chunk.
Each game goes to a callback as it ends; Tally counts A's outcomes in a fixed
array (memory does not grow with the games) and ReplayWriter writes each
game's replay file (replay_vec re-plays a VecGame episode alone).
"""
from __future__ import annotations

import json
import os

import numpy as np

from . import _core
from .eval_players import BotPlayer, PBotPlayer, annotators, load_cardset
from .eval_schedule import OUTCOMES, outcome, pairings, result_names, vec_bot_seed, vec_deal
from .stats import rate


def first_legal(masks):
    return masks.argmax(axis=1).astype(np.int32)


def play_vec_match(agent, opp, games, seed, decks, n, cs, on_end, record):
    """Play `games` episodes of a paired VecGame with `agent` (batched) as the
    agent and `opp` (BotPlayer or batched) as the other seat. Each episode,
    when it ends, goes to on_end(info, actions) (info: game, engine seed, seat
    decks, agent seat, agent's outcome; actions: with `record`, the actions
    each side applied, else None): nothing per game is kept here. Returns the
    VecGame mode."""
    pairs = pairings(decks)
    nn = min(n, games)
    c_bot = isinstance(opp, BotPlayer) and opp.default_settings
    mode = "bot" if c_bot else "policy"
    v = _core.VecGame(nn, seed=seed, pairings=pairs, mode=mode, bot=opp.kind if c_bot else "random",
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
            eng_seed, seat_decks, a_seat = vec_deal(e, seed, pairs)
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
            a[extra] = first_legal(masks[extra])
        if record:
            rec(eps, counted, a, side)
        (v.step, v.step_opponent)[side](a)
        note_ends(eps)

    while left > 0:
        half_step(0)
        if mode == "policy" and left > 0:
            half_step(1)
    return mode


def replay_vec(info, acts, opp, seed, d, cards=None):
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


def play_arena_match(pa, pb, games, seed, decks, cards, on_end, record, on_chunk=None):
    """The arena's schedule played chunk by chunk; each game goes to
    on_end(info, replay dict or None), or each chunk to on_chunk(first game,
    schedule columns, play_games results). Returns the search budget."""
    from .arena import chunk_for, kind_codes, play_schedule, schedule
    sims = {p.sims for p in (pa, pb) if p.kind == "search" and p.sims is not None}
    if len(sims) > 1:
        raise ValueError("two search bots with different sims: the arena runs one search budget")
    sims = sims.pop() if sims else None
    cs = load_cardset(cards)
    res_names = dict(enumerate(result_names()))
    # policy bots play in C too (arena.kind_codes: kind -1 - j is pbots[j])
    codes, pbots = kind_codes([(p.policy, p.kind, p.settings) if isinstance(p, PBotPlayer) else p.kind
                               for p in (pa, pb)])
    chunk = chunk_for((pa.kind, pb.kind))        # one chunk's schedule and results are all that is held
    for lo in range(0, games, chunk):
        hi = min(games, lo + chunk)
        cols, _ = schedule(games, seed, codes, list(decks), lo=lo, hi=hi)
        d0 = [cs.deck_index(x) for x in cols["deck0"]]
        d1 = [cs.deck_index(x) for x in cols["deck1"]]
        r = play_schedule(cols, d0, d1, cs, 200, 10000, sims, 1, pbots)
        if int(r["error"].sum()):
            raise RuntimeError(f"the arena reported {int(r['error'].sum())} engine errors")
        if on_chunk is not None:
            on_chunk(lo, cols, r)
            continue
        for k in range(hi - lo):
            a_seat = cols["a_seat"][k]
            result = res_names.get(int(r["result"][k]))
            info = {"game": lo + k, "seed": cols["seed"][k], "seat_decks": (cols["deck0"][k], cols["deck1"][k]),
                    "agent_seat": a_seat, "outcome": outcome(result, a_seat)}
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



def block_of(c):
    """The report block of outcome counts {"win": w, "loss": l, "draw": d, "truncated": t}."""
    n = sum(c.values())
    return {"games": n, "wins": c["win"], "losses": c["loss"], "draws": c["draw"], "truncated": c["truncated"],
            "win_rate": rate(c["win"], n), "score": (c["win"] + 0.5 * (c["draw"] + c["truncated"])) / n if n else 0.0}


class Tally:
    """A's outcomes counted as games end, by seat and by deck pairing (A's deck
    first): a fixed array, memory independent of the number of games (the
    per-game list only when asked)."""

    def __init__(self, games, decks, keep_outcomes=False, progress=None):
        self.pairings = pairings(decks)
        self.index = {p: k for k, p in enumerate(self.pairings)}
        self.counts = np.zeros((2, len(self.pairings), len(OUTCOMES)), dtype=np.int64)
        self.outcomes = np.full(games, -1, dtype=np.int8) if keep_outcomes else None
        self.done, self.games, self.progress = 0, games, progress
        self._next = 0

    def add(self, game, a_seat, a_deck, b_deck, outcome):
        o = OUTCOMES.index(outcome)
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
        return block_of({k: int(c[i]) for i, k in enumerate(OUTCOMES)})

    def outcome_list(self):
        return [OUTCOMES[o] for o in self.outcomes.tolist()]


class ReplayWriter:
    """Each game's replay file, written when the game ends (with the
    checkpoint players' inspection, docs/play.md)."""

    def __init__(self, dirname, names, specs, cards):
        self.dirname, self.names = dirname, names
        os.makedirs(dirname, exist_ok=True)
        self.annot = annotators(specs, cards)

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


def merge_blocks(blocks):
    c = {k: sum(b[k] for b in blocks) for k in ("games", "wins", "losses", "draws", "truncated")}
    n = c["games"]
    return dict(c, win_rate=rate(c["wins"], n),
                score=(c["wins"] + 0.5 * (c["draws"] + c["truncated"])) / n if n else 0.0)


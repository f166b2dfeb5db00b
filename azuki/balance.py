"""azuki.balance — the balance lab for card designers (`python -m azuki balance`; docs/balance.md).

    python -m azuki balance CARDS.json [--decks D1,D2,...] [--bots greedy,search] [--games N]
                            [--jobs J] [--ray W] [--out DIR] [--suggest]

writes DIR/report.json and DIR/report.html (one self-contained file, plots as inline SVG, no
scripts, opens offline):

  * matchups: the deck x deck win-rate matrix per bot level with 95 % Wilson intervals, the
    first player's advantage, game lengths and end reasons;
  * cards: per (deck, card) how often drawn and played, win rate when played / not played,
    average turn first played, play opportunities; and card importance: the change in the
    deck's score when the card is replaced by a neutral filler (FILLER below), measured on
    paired deals with paired-difference intervals and Holm's multiple-comparison control;
  * flags: dead cards (never legal / legal but never chosen, with the opportunities),
    importance and played-win-rate outliers, matchups outside 40-60 %, skill-sensitive decks;
  * --suggest: a greedy search over +-1 cost / attack / health of flagged cards.

Reuse, not a third runner: the matchup games ARE the arena's schedule (azuki.arena.schedule:
the deals, seats and bot seeds come from C, azk_arena_deal) played by azuki.arena.play_schedule
(play_games in C, no GIL); importance games use the same C deal function with the opponent
decks as the pairings. Per-card statistics come from the engine's event log (Game.events:
DRAWN / TO_HAND / PLAYED, the exact source) on Python replays of the very same games (same
engine seed, same bot seeds: the same game move for move, tested against play_games), so no
C counter is needed in the hot paths.

Work is cut into units (a few hundred games each) that are pure functions of their key;
each finished unit is written to DIR/state/ and an interrupted run, started again with the
same arguments, skips them: the report is the same as an uninterrupted run's (every count
is an integer sum; the order of units never matters). --ray W runs the same units on Ray
workers, so the report is identical to a local run's. Timings live only in
report.json's "timing" block (and on stderr), never in the HTML.
"""
from __future__ import annotations

import hashlib
import html
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

from . import _core
from .stats import Z95, rate

MASK64 = (1 << 64) - 1
FORMAT = "azuki-balance/1"
PLAY_TYPES = ("PLAY_ENTITY_TO_GARDEN", "PLAY_ENTITY_TO_ALLEY", "PLAY_WEAPON", "PLAY_SPELL_MAIN",
              "PLAY_SPELL_RESPONSE")
# Thresholds (docs/balance.md)
MATCHUP_BAND = (0.40, 0.60)       # flag a matchup outside this band
TARGET_BAND = (0.45, 0.55)        # --suggest stops when every matchup is inside this one
PLAYED_GAP = 0.15                 # flag win-rate-when-played this far from the deck's own win rate
SKILL_GAP = 0.10                  # flag a deck whose overall win rate moves more between bot levels
ALPHA = 0.05                      # family-wise error rate for importance (Holm)
UNIT_GAMES = {"random": 2048, "greedy": 1024, "search": 16}
FILLER = """The neutral filler for a card of cost c: an entity with no keywords, no abilities and
no subtypes (same id, name, element and rarity, so deck lists and deals are unchanged), cost c,
and the median attack, health and gate points of the set's entities of cost c (the nearest cost
with entities when none has cost c; ties in distance: the lower cost; medians rounded down)."""


# ---- card sets -----------------------------------------------------------------------------

def load_doc(path):
    """The card set at `path` as one document with its includes resolved (cards and decks of
    included sets first: azuki.convert.flat_document), checked by compiling it."""
    from .convert import flat_document
    p = Path(path).resolve()
    _core.CardSet.from_json(str(p))        # the converter's own errors for a bad file
    return flat_document(p)


def doc_text(doc):
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


_CS = {}


def cardset(text):
    """A compiled CardSet for a flattened document's text (cached per process)."""
    k = hashlib.sha256(text.encode()).hexdigest()
    cs = _CS.get(k)
    if cs is None:
        if len(_CS) > 64:
            _CS.clear()
        cs = _CS[k] = _core.CardSet.from_json(text=text)
    return cs


def main_cards(doc, deck):
    """{card id: copies} of a deck's main deck."""
    for d in doc["decks"]:
        if d["name"] == deck:
            return dict(d.get("main", {}))
    raise ValueError(f"unknown deck {deck!r}")


def filler_stats(doc, cost):
    """(attack, health, gate_points) of the FILLER for `cost`."""
    ents = [c for c in doc["cards"] if c.get("card_type") == "entity"]
    if not ents:
        raise ValueError("the set has no entities: no neutral filler can be made")
    costs = sorted({c["cost"] for c in ents})
    near = min(costs, key=lambda k: (abs(k - cost), k))
    grp = [c for c in ents if c["cost"] == near]
    med = [int(statistics.median_low([c.get(k, 0) for c in grp])) for k in ("attack", "health", "gate_points")]
    return med[0], max(1, med[1]), med[2]


def with_filler(doc, card_id):
    """A copy of `doc` in which card `card_id` is the neutral FILLER."""
    out = json.loads(json.dumps(doc))
    for c in out["cards"]:
        if c["id"] == card_id:
            a, h, gp = filler_stats(doc, c["cost"])
            keep = {k: c[k] for k in ("id", "name", "element", "rarity", "cost") if k in c}
            c.clear()
            c.update(keep, card_type="entity", subtypes=[], attack=a, health=h, gate_points=gp, keywords=[],
                     text=f"(balance filler: vanilla {a}/{h})", abilities=[])
            return out
    raise ValueError(f"unknown card {card_id!r}")


def with_changes(doc, changes):
    """A copy of `doc` with number changes [(card id, field, delta)] applied."""
    out = json.loads(json.dumps(doc))
    by = {c["id"]: c for c in out["cards"]}
    for cid, field, delta in changes:
        by[cid][field] = by[cid][field] + delta
    return out


# ---- statistics ----------------------------------------------------------------------------

def normal_sf(x):
    """P(Z > x) for a standard normal Z."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def paired_diff(n, s, ss):
    """Mean paired difference from n pairs with sum s and sum of squares ss: mean, 95 % interval
    (normal approximation on the differences' standard error), two-sided p-value of mean 0."""
    if n < 2:
        return {"n": n, "mean": s / n if n else 0.0, "ci95": [-1.0, 1.0], "p": 1.0}
    mean = s / n
    var = max(0.0, (ss - n * mean * mean) / (n - 1))
    se = math.sqrt(var / n)
    if se == 0.0:
        p = 1.0 if mean == 0 else 0.0
    else:
        p = min(1.0, 2.0 * normal_sf(abs(mean) / se))
    return {"n": n, "mean": mean, "ci95": [mean - Z95 * se, mean + Z95 * se], "p": p}


def holm(pvals, alpha=ALPHA):
    """Holm's step-down procedure: which hypotheses are rejected at family-wise error `alpha`."""
    order = sorted(range(len(pvals)), key=lambda i: (pvals[i], i))
    rej = [False] * len(pvals)
    m = len(pvals)
    for r, i in enumerate(order):
        if pvals[i] <= alpha / (m - r):
            rej[i] = True
        else:
            break
    return rej


def outside(r, band):
    """A rate dict whose whole 95 % interval lies outside `band` on one side."""
    return r["games"] > 0 and (r["ci95"][1] < band[0] or r["ci95"][0] > band[1])


# ---- units of work ---------------------------------------------------------------------------

def _kinds_sims(bot):
    """'search:64' -> ('search', 64); 'greedy' -> ('greedy', None)."""
    name, colon, sims = bot.partition(":")
    if not colon:
        return name, None
    if name != "search" or not sims.isdigit() or not 1 <= int(sims) <= _core.SEARCH_MAX_SIMS:
        raise ValueError(f"bad bot level {bot!r}: use random, greedy, search or search:SIMS "
                         f"(1 <= SIMS <= {_core.SEARCH_MAX_SIMS})")
    return name, int(sims)


def match_unit(text, bot, decks, total, seed, lo, hi, turn_cap):
    """Games lo..hi-1 of the arena schedule (players bot, bot; `total` games over all ordered
    pairings of `decks`): integer counts."""
    from . import arena
    import numpy as np
    cs = cardset(text)
    name, sims = _kinds_sims(bot)
    cols, pairings = arena.schedule(total, seed, (name, name), decks, lo=lo, hi=hi)
    d0 = [cs.deck_index(d) for d in cols["deck0"]]
    d1 = [cs.deck_index(d) for d in cols["deck1"]]
    r = arena.play_schedule(cols, d0, d1, cs, turn_cap, 10000, sims, 1)
    P = len(pairings)
    cnt = np.zeros((P, 7), dtype=np.int64)   # games, A wins, B wins, draws, truncated, first-player games/wins
    a_seat = np.asarray(cols["a_seat"])
    win = r["winner"].astype(np.int64)
    first = r["first_player"].astype(np.int64)
    res = r["result"].astype(np.int64)
    pi = np.asarray(cols["pairing"])
    for k in range(len(pi)):
        c = cnt[pi[k]]
        c[0] += 1
        c[1] += win[k] == a_seat[k]
        c[2] += (win[k] >= 0) & (win[k] != a_seat[k])
        c[3] += res[k] == 3
        c[4] += res[k] == 4
        c[5] += win[k] >= 0
        c[6] += win[k] == first[k]
    turns = np.bincount(r["turns"].astype(np.int64), minlength=turn_cap + 2)[:turn_cap + 2]
    ends = np.bincount(r["end_reason"].astype(np.int64), minlength=len(_core.END_REASONS))
    return {"counts": cnt.tolist(), "turns": turns.tolist(), "ends": ends.tolist(),
            "errors": int(r["error"].sum()), "games": int(len(pi))}


CARD_FIELDS = ("games", "drawn", "played", "played_wins", "unplayed_wins", "turn_sum", "copies_played",
               "opportunities", "legal_games", "chosen")


def card_unit(text, bot, decks, total, seed, lo, hi, turn_cap):
    """Games lo..hi-1 of the same schedule replayed in Python with the engine's event log:
    {deck: {card id: CARD_FIELDS counts}} and the winners (to check against play_games)."""
    from . import arena
    cs = cardset(text)
    name, sims = _kinds_sims(bot)
    kind = _core.bot_kind(name)
    cols, _ = arena.schedule(total, seed, (name, name), decks, lo=lo, hi=hi)
    out = {}
    winners = []
    for k in range(len(cols["seed"])):
        g = _core.Game(seed=cols["seed"][k], decks=(cols["deck0"][k], cols["deck1"][k]), cards=cs,
                       turn_cap=turn_cap, decision_cap=10000)
        rngs = [_core.bot_rng(cols["bseed0"][k]), _core.bot_rng(cols["bseed1"][k])]
        per = [dict(), dict()]          # seat -> card id -> [drawn, first turn played, copies, opp, chosen]

        def rec(seat, cid):
            v = per[seat].get(cid)
            if v is None:
                v = per[seat][cid] = [0, -1, 0, 0, 0]
            return v

        def opening():
            for s in (0, 1):
                for i in range(16):
                    try:
                        info = g.card_info(f"p{s}.hand[{i}]")
                    except ValueError:
                        break
                    rec(s, info["id"])[0] = 1
        g.events()
        opened = False
        while not g.is_terminal:
            q = g.current_player
            slots = {}
            for a in g.legal_actions():
                t, p0, _, _ = _core.decode(int(a))
                if t in PLAY_TYPES and p0 not in slots:
                    slots[p0] = g.card_info(f"p{q}.hand[{p0}]")["id"]
            for cid in set(slots.values()):
                rec(q, cid)[3] += 1
            a = _core.bot_act(g, kind, rngs[q], sims=sims)
            t, p0, _, _ = _core.decode(int(a))
            if t in PLAY_TYPES:
                rec(q, slots[p0])[4] += 1
            g.step(a)
            turn = g.turn
            for ev in g.events():
                et, pl, cid = ev["type"], ev["player"], ev.get("card")
                if et == "TURN_START" and not opened:
                    opened = True
                    opening()
                if cid is None or pl is None:
                    continue
                if et in ("DRAWN", "TO_HAND"):
                    rec(pl, cid)[0] = 1
                elif et == "PLAYED":         # from hand, or put into play by an effect
                    v = rec(pl, cid)
                    v[2] += 1
                    if v[1] < 0:
                        v[1] = turn
        w = g.winner
        winners.append(-1 if w is None else int(w))
        for s in (0, 1):
            deck = cols[f"deck{s}"][k]
            main = out.setdefault(deck, {})
            for cid in main_ids(cs, deck):
                c = main.setdefault(cid, [0] * len(CARD_FIELDS))
                v = per[s].get(cid, [0, -1, 0, 0, 0])
                won = 1 if w == s else 0
                c[0] += 1
                c[1] += v[0]
                c[2] += v[1] >= 0
                c[3] += won if v[1] >= 0 else 0
                c[4] += won if v[1] < 0 else 0
                c[5] += max(v[1], 0)
                c[6] += v[2]
                c[7] += v[3]
                c[8] += v[3] > 0
                c[9] += v[4]
    return {"cards": out, "winners": winners}


_MAIN = {}


def main_ids(cs, deck):
    """The distinct main-deck card ids of `deck` in a compiled set (from its deck list)."""
    key = (id(cs), deck)
    v = _MAIN.get(key)
    if v is None:
        v = _MAIN[key] = sorted(set(_deck_main(cs, deck)))
    return v


def _deck_main(cs, deck):
    ids = cs.ids
    return [ids[i] for i in cs.deck_list(deck)["main"]]


def imp_schedule(g, seed, opps):
    """Importance game g of a deck against `opps` (the C deal function, pairings = opponents):
    (engine seed, the deck's seat, opponent, bot seeds per seat)."""
    d = _core.arena_deal(g, seed=seed, npairs=len(opps))
    base = d["bot_seed"]
    return d["engine_seed"], d["agent_seat"], opps[d["pairing"]], [_core.bot_seed_for(base, s) for s in (0, 1)]


def imp_unit(text, bot, deck, opps, seed, lo, hi, turn_cap):
    """Importance games lo..hi-1 of `deck` against `opps` under the set `text`: the deck's
    score per game (0 loss, 1 draw or truncated, 2 win) as a string of digits."""
    from . import arena
    cs = cardset(text)
    name, sims = _kinds_sims(bot)
    kind = _core.bot_kind(name)
    cols = {k: [] for k in ("seed", "kind0", "kind1", "bseed0", "bseed1")}
    d0, d1, seats = [], [], []
    for g in range(lo, hi):
        es, seat, opp, bs = imp_schedule(g, seed, opps)
        cols["seed"].append(es)
        cols["kind0"].append(kind)
        cols["kind1"].append(kind)
        cols["bseed0"].append(bs[0])
        cols["bseed1"].append(bs[1])
        pair = (deck, opp) if seat == 0 else (opp, deck)
        d0.append(cs.deck_index(pair[0]))
        d1.append(cs.deck_index(pair[1]))
        seats.append(seat)
    r = arena.play_schedule(cols, d0, d1, cs, turn_cap, 10000, sims, 1)
    out = []
    for k, seat in enumerate(seats):
        w = int(r["winner"][k])
        out.append("2" if w == seat else ("0" if w >= 0 else "1"))
    return {"scores": "".join(out)}


UNIT_FNS = {"match": match_unit, "cards": card_unit, "imp": imp_unit}


def run_unit(spec):
    """Run one unit (a JSON-able spec: kind, set text key, args)."""
    kind, text, args = spec["fn"], spec["text"], spec["args"]
    return UNIT_FNS[kind](text, *args)


_CODE_ID = []


def _code_id():
    """The engine build and this module's code: a unit played by another build (a rules fix, a
    new bot version) is never read back as finished work."""
    if not _CODE_ID:
        h = hashlib.sha256()
        for f in (_core.__file__, __file__):
            with open(f, "rb") as fh:
                h.update(fh.read())
        h.update(json.dumps([FORMAT, _core.BOT_VERSIONS], sort_keys=True).encode())
        _CODE_ID.append(h.hexdigest())
    return _CODE_ID[0]


def _unit_key(spec):
    return hashlib.sha256(json.dumps([_code_id(), spec["fn"], hashlib.sha256(spec["text"].encode()).hexdigest(),
                                      spec["args"]], sort_keys=True).encode()).hexdigest()[:32]


class Runner:
    """Runs units locally (threads) or on Ray, caching each result in `state` (a directory, or
    None): a unit already there is not run again."""

    def __init__(self, state=None, jobs=1, ray_workers=None, progress=None, stop_after=None):
        self.state = Path(state) if state else None
        if self.state:
            self.state.mkdir(parents=True, exist_ok=True)
        self.jobs, self.ray_workers, self.progress = jobs, ray_workers, progress
        self.stop_after = stop_after     # tests: raise KeyboardInterrupt after this many new units
        self.ran = 0
        self.seconds = 0.0

    def _path(self, spec):
        return self.state / f"{_unit_key(spec)}.json" if self.state else None

    def _save(self, spec, res):
        p = self._path(spec)
        if p is None:
            return
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(res), encoding="utf-8")
        os.replace(tmp, p)          # atomic: a killed run never leaves half a unit

    def run(self, specs, label="", weights=None):
        t0 = time.perf_counter()
        results = [None] * len(specs)
        todo = []
        for i, s in enumerate(specs):
            p = self._path(s)
            if p is not None and p.exists():
                results[i] = json.loads(p.read_text(encoding="utf-8"))
            else:
                todo.append(i)
        weights = weights or [1] * len(specs)
        cached = sum(weights[i] for i in range(len(specs)) if results[i] is not None)
        total = sum(weights) - cached          # the bar counts the work left (its speed and eta stay true)
        done = [0]
        if cached and todo:
            label += f" ({cached:,} games read back from state/)"
        bar = self.progress.pair(label) if self.progress is not None and todo else None   # none: all cached

        def finish(i, res):
            self._save(specs[i], res)
            results[i] = res
            done[0] += weights[i]
            self.ran += 1
            if bar:
                bar(done[0], total)
            if self.stop_after is not None and self.ran >= self.stop_after:
                raise KeyboardInterrupt("stopped (stop_after)")
        if todo and self.ray_workers:
            import ray
            if not ray.is_initialized():
                addr = os.environ.get("RAY_ADDRESS") or None
                kw = {} if addr else {"num_cpus": self.ray_workers}
                ray.init(address=addr, include_dashboard=False, log_to_driver=False, configure_logging=False, **kw)
            remote = ray.remote(run_unit)
            refs = {remote.remote(specs[i]): i for i in todo}
            pending = list(refs)
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for r in ready:
                    finish(refs[r], ray.get(r))
        elif todo and self.jobs > 1:
            from concurrent.futures import ThreadPoolExecutor, as_completed
            with ThreadPoolExecutor(max_workers=self.jobs) as ex:
                futs = {ex.submit(run_unit, specs[i]): i for i in todo}
                try:
                    for f in as_completed(futs):
                        finish(futs[f], f.result())
                except BaseException:
                    for f in futs:
                        f.cancel()
                    raise
        else:
            for i in todo:
                finish(i, run_unit(specs[i]))
        self.seconds += time.perf_counter() - t0
        return results


def _spans(total, step):
    return [(lo, min(total, lo + step)) for lo in range(0, total, step)]


def _unit_games(bot):
    return UNIT_GAMES.get(_kinds_sims(bot)[0], 256)


# ---- the report's parts ----------------------------------------------------------------------

def matchups(runner, text, bot, decks, games, seed, turn_cap):
    """The matrix for one bot level: `games` per ordered pairing."""
    P = len(decks) ** 2
    total = games * P
    step = max(2 * P, _unit_games(bot) // (2 * P) * 2 * P)
    spans = _spans(total, step)
    specs = [{"fn": "match", "text": text, "args": [bot, decks, total, seed, lo, hi, turn_cap]} for lo, hi in spans]
    parts = runner.run(specs, f"matchups {bot}", [hi - lo for lo, hi in spans])
    cnt = [[0] * 7 for _ in range(P)]
    turns = [0] * (turn_cap + 2)
    ends = [0] * len(_core.END_REASONS)
    errors = 0
    for p in parts:
        for i in range(P):
            for j in range(7):
                cnt[i][j] += p["counts"][i][j]
        turns = [a + b for a, b in zip(turns, p["turns"])]
        ends = [a + b for a, b in zip(ends, p["ends"])]
        errors += p["errors"]
    pairings = [(a, b) for a in decks for b in decks]
    matrix = {a: {} for a in decks}
    for i, (a, b) in enumerate(pairings):
        c = cnt[i]
        matrix[a][b] = dict(rate(c[1], c[0]), losses=c[2], draws=c[3], truncated=c[4])
    decided = sum(c[5] for c in cnt)
    first_wins = sum(c[6] for c in cnt)
    n = sum(c[0] for c in cnt)
    deck_overall = {}
    for a in decks:
        w = sum(cnt[i][1] for i, (x, y) in enumerate(pairings) if x == a and y != a)
        g = sum(cnt[i][0] for i, (x, y) in enumerate(pairings) if x == a and y != a)
        deck_overall[a] = rate(w, g)
    mean_turns = sum(k * v for k, v in enumerate(turns)) / n if n else 0.0
    while len(turns) > 1 and turns[-1] == 0:
        turns.pop()
    return {"bot": bot, "games_per_pairing": games, "games": n, "matrix": matrix,
            "deck_overall": deck_overall,
            "first_player": dict(rate(first_wins, decided), note="win rate of the player who went first, "
                                 "over decided games"),
            "game_length": {"mean_turns": mean_turns, "histogram": turns},
            "end_reasons": {_core.END_REASONS[k]: v for k, v in enumerate(ends) if v},
            "draws": sum(c[3] for c in cnt), "truncated": sum(c[4] for c in cnt), "errors": errors}


def card_stats(runner, text, bot, decks, games, card_games, seed, turn_cap):
    """Per (deck, card) statistics from the first `card_games` games per pairing of the
    matchup schedule, replayed with events."""
    P = len(decks) ** 2
    total_sched = games * P
    n = min(card_games, games) * P
    spans = _spans(n, max(2 * P, 128 // (2 * P) * 2 * P))
    specs = [{"fn": "cards", "text": text, "args": [bot, decks, total_sched, seed, lo, hi, turn_cap]}
             for lo, hi in spans]
    parts = runner.run(specs, f"card statistics {bot}", [hi - lo for lo, hi in spans])
    agg = {}
    for p in parts:
        for deck, cards in p["cards"].items():
            d = agg.setdefault(deck, {})
            for cid, v in cards.items():
                c = d.setdefault(cid, [0] * len(CARD_FIELDS))
                for j in range(len(CARD_FIELDS)):
                    c[j] += v[j]
    out = {}
    for deck in decks:
        for cid, c in sorted(agg.get(deck, {}).items()):
            f = dict(zip(CARD_FIELDS, c))
            g = f["games"]
            out.setdefault(deck, {})[cid] = {
                "games": g, "drawn": rate(f["drawn"], g), "played": rate(f["played"], g),
                "win_rate_played": rate(f["played_wins"], f["played"]),
                "win_rate_not_played": rate(f["unplayed_wins"], g - f["played"]),
                "avg_turn_played": f["turn_sum"] / f["played"] if f["played"] else None,
                "copies_played": f["copies_played"], "opportunities": f["opportunities"],
                "legal_games": f["legal_games"], "chosen": f["chosen"]}
    return {"bot": bot, "games_per_pairing": min(card_games, games), "games": n, "cards": out}


def importance(runner, doc, text, bot, decks, imp_games, seed, turn_cap, alpha=ALPHA):
    """Card importance for every (deck, main-deck card): `imp_games` paired games per card."""
    t0 = time.perf_counter()
    jobs = []           # (deck, card or None, text)
    tests = []
    for di, deck in enumerate(decks):
        opps = [d for d in decks if d != deck] or [deck]
        dseed = (seed + 0x5851F42D4C957F2D * (di + 1)) & MASK64
        jobs.append((deck, None, text, opps, dseed))
        for cid in sorted(main_cards(doc, deck)):
            jobs.append((deck, cid, doc_text(with_filler(doc, cid)), opps, dseed))
    step = max(2, _unit_games(bot) // 4 // 2 * 2)
    specs, owner = [], []
    for j, (deck, cid, t, opps, dseed) in enumerate(jobs):
        for lo, hi in _spans(imp_games, step):
            specs.append({"fn": "imp", "text": t, "args": [bot, deck, opps, dseed, lo, hi, turn_cap]})
            owner.append(j)
    parts = runner.run(specs, f"card importance {bot}", [int(s["args"][5]) - int(s["args"][4]) for s in specs])
    scores = ["" for _ in jobs]
    for j, p in zip(owner, parts):
        scores[j] += p["scores"]
    base = {}
    for j, (deck, cid, *_r) in enumerate(jobs):
        if cid is None:
            base[deck] = scores[j]
    rows = []
    for j, (deck, cid, *_r) in enumerate(jobs):
        if cid is None:
            continue
        b, m = base[deck], scores[j]
        diffs = [(int(x) - int(y)) / 2 for x, y in zip(b, m)]      # score with the card - with the filler
        s, ss = sum(diffs), sum(d * d for d in diffs)
        st = paired_diff(len(diffs), s, ss)
        a, h, _gp = filler_stats(doc, next(c["cost"] for c in doc["cards"] if c["id"] == cid))
        rows.append({"deck": deck, "card": cid, "importance": st["mean"], "ci95": st["ci95"], "p": st["p"],
                     "games": st["n"], "score_with": sum(int(x) for x in b) / (2 * len(b)),
                     "score_filler": sum(int(x) for x in m) / (2 * len(m)), "filler": f"{a}/{h}"})
    rej = holm([r["p"] for r in rows], alpha)
    for r, z in zip(rows, rej):
        r["significant"] = z
    return {"bot": bot, "games_per_card": imp_games, "alpha": alpha, "correction": "Holm",
            "filler": FILLER, "rows": rows, "seconds": time.perf_counter() - t0}


def flags(doc, mats, cstats, imp):
    out = []
    for cid_deck in ((d, cid) for d, cs in cstats["cards"].items() for cid in cs):
        d, cid = cid_deck
        c = cstats["cards"][d][cid]
        if c["copies_played"] == 0:
            if c["legal_games"] == 0:
                out.append({"kind": "dead: never legal", "deck": d, "card": cid,
                            "detail": f"never playable in {c['games']} games (drawn in {c['drawn']['wins']})"})
            else:
                out.append({"kind": "dead: legal but never chosen", "deck": d, "card": cid,
                            "detail": f"{c['opportunities']} opportunities in {c['legal_games']} games, never played"})
        wp, wn = c["win_rate_played"], c["win_rate_not_played"]
        base = (wp["wins"] + wn["wins"]) / c["games"] if c["games"] else 0.5     # the deck's rate in these games
        if outside(wp, (base - PLAYED_GAP, base + PLAYED_GAP)):
            out.append({"kind": "played win rate outlier", "deck": d, "card": cid,
                        "detail": f"{pct(wp)} when played, {pct(wn)} when not; the deck wins {100 * base:.1f}% "
                                  f"of these games"})
    if imp:
        for r in imp["rows"]:
            if r["significant"]:
                out.append({"kind": "importance outlier", "deck": r["deck"], "card": r["card"],
                            "detail": f"{100 * r['importance']:+.1f} points vs filler {r['filler']} "
                                      f"[{100 * r['ci95'][0]:+.1f}, {100 * r['ci95'][1]:+.1f}], Holm-significant"})
    for m in mats:
        ds = list(m["matrix"])
        for i, a in enumerate(ds):
            for b in ds[i + 1:]:
                r = pooled(m, a, b)
                if not MATCHUP_BAND[0] <= r["rate"] <= MATCHUP_BAND[1]:
                    out.append({"kind": "lopsided matchup", "deck": a, "card": None, "against": b,
                                "detail": f"{m['bot']}: {a} vs {b} {pct(r)} (both orders pooled)"})
    if len(mats) > 1:
        for d in mats[0]["deck_overall"]:
            rs = [m["deck_overall"][d] for m in mats]
            gap = max(r["rate"] for r in rs) - min(r["rate"] for r in rs)
            if gap > SKILL_GAP:
                out.append({"kind": "skill-sensitive deck", "deck": d, "card": None,
                            "detail": ", ".join(f"{m['bot']} {pct(r)}" for m, r in zip(mats, rs))})
    return out


def pooled(m, a, b):
    """a's win rate against b over both ordered pairings (a, b) and (b, a)."""
    x, y = m["matrix"][a][b], m["matrix"][b][a]
    return rate(x["wins"] + y["losses"], x["games"] + y["games"])


def objective(m, skip=()):
    """The largest |win rate - 50 %| over the non-mirror matchups of a matrix (ordered pairings),
    leaving out the deck pairs in `skip` (frozensets {a, b}: matchups no allowed change can move)."""
    return max((abs(r["rate"] - 0.5) for a, row in m["matrix"].items() for b, r in row.items()
                if a != b and frozenset((a, b)) not in skip), default=0.0)


def spread(m, skip=()):
    """The mean squared (win rate - 50 %) over the same matchups as objective(): the search's
    tie-breaker, so a change that helps every matchup but the worst still counts."""
    v = [(r["rate"] - 0.5) ** 2 for a, row in m["matrix"].items() for b, r in row.items()
         if a != b and frozenset((a, b)) not in skip]
    return sum(v) / len(v) if v else 0.0


def _worst(m, skip=()):
    """(strong deck, weak deck) of the non-mirror matchup furthest from 50 % (both orders pooled),
    pairs in `skip` left out."""
    ds = list(m["matrix"])
    best = None
    for i, a in enumerate(ds):
        for b in ds[i + 1:]:
            if frozenset((a, b)) in skip:
                continue
            r = pooled(m, a, b)["rate"]
            if best is None or abs(r - 0.5) > best[0]:
                best = (abs(r - 0.5), (a, b) if r >= 0.5 else (b, a))
    return best[1] if best else (None, None)


FIELDS = (("cost", 0, -1), ("attack", 0, 1), ("health", 1, 1))   # (field, lowest value, sign of a buff)


def frozen_card(cid, frozen):
    return any(cid.startswith(p) for p in frozen)


def fixed_pairs(doc, decks, frozen):
    """Deck pairs whose matchup no allowed change can move: both decks' main cards all frozen."""
    free = {d: any(not frozen_card(c, frozen) for c in main_cards(doc, d)) for d in decks}
    return frozenset(frozenset((a, b)) for i, a in enumerate(decks) for b in decks[i + 1:]
                     if not free[a] and not free[b])


def merge_changes(changes):
    """[(card, field, delta)] with one entry per (card, field), deltas summed, zeros dropped,
    in first-change order."""
    tot = {}
    for cid, f, d in changes:
        tot[(cid, f)] = tot.get((cid, f), 0) + d
    return [(c, f, d) for (c, f), d in tot.items() if d]


def _move_ok(by, cur, cid, field, low, dlt, max_step):
    c = by[cid]
    if not isinstance(c.get(field), int) or isinstance(c.get(field), bool):
        return False
    done = sum(d for cc, ff, d in cur if cc == cid and ff == field)
    return c[field] + done + dlt >= low and abs(done + dlt) <= max_step


def _candidates(doc, fl, m, imp, cur, frozen=(), max_step=1, deck_moves=False, skip=()):
    """Moves to try next, most promising first, for the worst matchup outside `skip`: nerfs
    (cost +1, attack -1, health -1) of the strong deck's cards and buffs of the weak deck's,
    never of a frozen card, never past `max_step` in total on one (card, field). A move is a
    list of (card, field, delta). With `deck_moves`, the first moves are deck-wide: the same
    +-1 on one field of every unfrozen main card of the deck that has the field and stays
    legal (the strong deck's first); then single cards, flagged cards first, then by |importance|
    (largest first) when importance was measured."""
    strong, weak = _worst(m, skip)
    if strong is None:
        return []
    flagged = {(f["deck"], f["card"]) for f in fl if f["card"]}
    impv = {(r["deck"], r["card"]): abs(r["importance"]) for r in (imp or {}).get("rows", [])}
    by = {c["id"]: c for c in doc["cards"]}
    wide, out = [], []
    for deck, sign in ((strong, -1), (weak, 1)):
        mains = [cid for cid in main_cards(doc, deck) if not frozen_card(cid, frozen)]
        for field, low, buff in FIELDS:
            dlt = -buff if sign < 0 else buff
            mv = [(cid, field, dlt) for cid in mains if _move_ok(by, cur, cid, field, low, dlt, max_step)]
            # deck-wide: leaves 0-cost, 1-attack and 1-health cards alone (no zero-stat bodies)
            dw = [ch for ch in mv if _move_ok(by, cur, ch[0], field, max(low, 1), dlt, max_step)]
            if deck_moves and len(dw) > 1:
                wide.append(dw)
            for ch in mv:
                cid = ch[0]
                key = (0 if (deck, cid) in flagged else 1, -impv.get((deck, cid), 0.0), deck != strong, cid, field)
                out.append((key, [ch]))
    return wide + [mv for _, mv in sorted(out)]


def describe_move(mv, doc):
    """A move as one line: 'card field +d' or, deck-wide, 'N cards field +d'."""
    names = {c["id"]: c.get("name", c["id"]) for c in doc["cards"]}
    if len(mv) == 1:
        cid, f, d = mv[0]
        return f"{cid} {names.get(cid, '')} {f} {d:+d}"
    ids = {c for c, _, _ in mv}
    deck = next((d["name"] for d in doc["decks"] if ids <= set(d.get("main", {}))), None)
    return f"{deck + ': ' if deck else ''}{len(mv)} cards ({mv[0][0]} ... {mv[-1][0]}) {mv[0][1]} {mv[0][2]:+d}"


def suggest(runner, doc, bot, decks, games, seed, turn_cap, fl, imp=None, k=2, budget=24, search_games=None,
            frozen=(), max_step=1, deck_moves=False):
    """Greedy search over number moves (_candidates): each step tries candidate moves on a fixed
    search seed (common random numbers) and keeps the one that most lowers the largest
    |win rate - 50 %| over the non-mirror matchups that can move (ties: the lower mean squared
    distance from 50 %); it stops inside TARGET_BAND, at k moves, without an improvement, or
    when `budget` evaluations are spent (split evenly over the k steps). Cards whose id starts
    with a `frozen` prefix never change; a pair of decks made only of frozen cards is reported
    but left out of the objective. Every step's proposal is then re-verified on a fresh seed
    with `games` per pairing, next to the unchanged set on that seed."""
    by = {c["id"]: c for c in doc["cards"]}
    sgames = search_games or max(2, games // 4 // 2 * 2)
    sseed = (seed ^ 0xA5A5A5A5A5A5A5A5) & MASK64
    frozen = tuple(frozen)
    skip = fixed_pairs(doc, decks, frozen)

    def evaluate(changes):
        try:
            t = doc_text(with_changes(doc, merge_changes(changes)))
            cardset(t)
        except Exception:        # a change the converter refuses (e.g. a cost rule): not a candidate
            return None
        return matchups(runner, t, bot, decks, sgames, sseed, turn_cap)

    def score(mm):
        return (objective(mm, skip), spread(mm, skip))
    cur = []
    m = evaluate(cur)
    best = score(m)
    steps, moves, evals, tried = [], [], 0, 0
    per_step = max(1, budget // k)
    while len(moves) < k and evals < budget and best[0] > TARGET_BAND[1] - 0.5:
        top = None
        cands = _candidates(doc, fl, m, imp, cur, frozen, max_step, deck_moves, skip)
        tried += len(cands)
        for mv in cands[:min(per_step, budget - evals)]:
            mm = evaluate(cur + mv)
            evals += 1
            if mm is None:
                continue
            o = score(mm)
            if top is None or o < top[0]:
                top = (o, mv, mm)
        if top is None or top[0] >= best:
            break
        best, m = top[0], top[2]
        cur = cur + top[1]
        moves.append({"move": describe_move(top[1], doc), "cards": len(top[1]),
                      "search_objective": top[0][0]})
        steps.append(merge_changes(cur))
    vseed = (seed ^ 0x5EED5EED5EED5EED) & MASK64
    proposals = []
    for i, ch in enumerate(steps):
        mv = matchups(runner, doc_text(with_changes(doc, ch)), bot, decks, games, vseed, turn_cap)
        proposals.append({"changes": [{"card": c, "field": f, "delta": d,
                                       "from": by[c][f], "to": by[c][f] + d} for c, f, d in ch],
                          "moves": moves[:i + 1],
                          "objective": objective(mv, skip), "search_objective": moves[i]["search_objective"],
                          "matrix": mv["matrix"], "within_target": objective(mv, skip) <= TARGET_BAND[1] - 0.5})
    before = matchups(runner, doc_text(doc), bot, decks, games, vseed, turn_cap)
    return {"bot": bot, "candidates_seen": tried, "evaluations": evals, "budget": budget, "max_changes": k,
            "max_step": max_step, "deck_moves": deck_moves, "frozen": list(frozen),
            "fixed_pairs": sorted(sorted(p) for p in skip),
            "search_games_per_pairing": sgames, "verify_games_per_pairing": games,
            "objective_before": objective(before, skip), "matrix_before": before["matrix"], "proposals": proposals}


# ---- the whole run ---------------------------------------------------------------------------

def run_balance(cards, decks=None, bots=("greedy",), games=2000, seed=0, jobs=1, ray_workers=None, out=None,
                card_games=None, imp_games=None, do_suggest=False, suggest_k=2, suggest_budget=24, suggest_games=None,
                suggest_frozen=(), suggest_max_step=1, suggest_deck_moves=False,
                turn_cap=200, progress=None, stop_after=None):
    """Run the lab; returns the report (a dict). With `out`, units are cached in out/state and
    report.json / report.html written there."""
    doc = load_doc(cards)
    text = doc_text(doc)
    cs = cardset(text)
    decks = list(dict.fromkeys(cs.decks if not decks else decks))
    for d in decks:
        cs.deck_index(d)
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even integer >= 2, got {games!r}")
    bots = list(bots)
    if not bots:
        raise ValueError("need at least one bot level")
    for b in bots:
        name, sims = _kinds_sims(b)
        _core.bot_kind(name)
    card_games = min(games, 250) if card_games is None else card_games
    imp_games = min(games, 1000) if imp_games is None else imp_games
    if imp_games % 2 or card_games % 2:
        raise ValueError("card and importance games must be even")
    suggest_frozen = tuple(suggest_frozen)
    for p in suggest_frozen:
        if not any(c["id"].startswith(p) for c in doc["cards"]):
            raise ValueError(f"--frozen {p!r}: no card id starts with it")
    if do_suggest and (suggest_k < 1 or suggest_max_step < 1 or suggest_budget < 1):
        raise ValueError("--max-changes, --max-step and --suggest-budget must be at least 1")
    state = Path(out) / "state" if out else None
    runner = Runner(state, jobs=jobs, ray_workers=ray_workers, progress=progress, stop_after=stop_after)
    timing = {}
    mats = []
    for b in bots:
        t0 = time.perf_counter()
        mats.append(matchups(runner, text, b, decks, games, seed, turn_cap))
        timing[f"matchups {b}"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    cst = card_stats(runner, text, bots[0], decks, games, card_games, seed, turn_cap) if card_games else None
    timing["card statistics"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    imp = importance(runner, doc, text, bots[0], decks, imp_games, seed, turn_cap) if imp_games else None
    if imp:
        imp.pop("seconds")
    timing["card importance"] = time.perf_counter() - t0
    fl = flags(doc, mats, cst or {"cards": {}}, imp)
    sug = None
    if do_suggest:
        t0 = time.perf_counter()
        sug = suggest(runner, doc, bots[0], decks, games, seed, turn_cap, fl, imp=imp, k=suggest_k,
                      budget=suggest_budget, search_games=suggest_games, frozen=suggest_frozen,
                      max_step=suggest_max_step, deck_moves=suggest_deck_moves)
        timing["suggest"] = time.perf_counter() - t0
    names = {c["id"]: c.get("name", c["id"]) for c in doc["cards"]}
    rep = {"format": FORMAT, "set": doc.get("name"), "set_sha256": hashlib.sha256(text.encode()).hexdigest(),
           "decks": decks, "bots": bots, "seed": seed, "games_per_pairing": games, "turn_cap": turn_cap,
           "thresholds": {"matchup_band": MATCHUP_BAND, "target_band": TARGET_BAND, "played_gap": PLAYED_GAP,
                          "skill_gap": SKILL_GAP, "alpha": ALPHA},
           "card_names": {c: names[c] for d in decks for c in main_cards(doc, d)},
           "matchups": mats, "card_stats": cst, "importance": imp, "flags": fl, "suggest": sug,
           "timing": dict(timing, units_run=runner.ran)}
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / "report.json").write_text(json.dumps(rep, indent=1, sort_keys=True), encoding="utf-8")
        (Path(out) / "report.html").write_text(render_html(rep), encoding="utf-8")
    return rep


# ---- HTML ------------------------------------------------------------------------------------

def pct(r):
    if not r["games"]:
        return "-"
    return f"{100 * r['rate']:.1f}% [{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}]"


def _e(x):
    return html.escape(str(x), quote=True)


def _heat(v):
    """Blue (low) - white (50 %) - red (high)."""
    t = max(-1.0, min(1.0, (v - 0.5) / 0.25))
    if t >= 0:
        return f"rgb(255,{int(255 - 150 * t)},{int(255 - 150 * t)})"
    return f"rgb({int(255 + 150 * t)},{int(255 + 150 * t)},255)"


def svg_matrix(m):
    decks = list(m["matrix"])
    cell, left, top = 96, 130, 40
    w, h = left + cell * len(decks) + 10, top + cell * len(decks) + 10
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img" '
         f'aria-label="win-rate matrix {_e(m["bot"])}">']
    for j, b in enumerate(decks):
        s.append(f'<text x="{left + cell * j + cell / 2}" y="{top - 8}" text-anchor="middle" '
                 f'font-size="11">{_e(b)}</text>')
    for i, a in enumerate(decks):
        s.append(f'<text x="{left - 6}" y="{top + cell * i + cell / 2}" text-anchor="end" font-size="11">'
                 f'{_e(a)}</text>')
        for j, b in enumerate(decks):
            r = m["matrix"][a][b]
            x, y = left + cell * j, top + cell * i
            s.append(f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="{_heat(r["rate"])}">'
                     f'<title>{_e(a)} vs {_e(b)}: {_e(pct(r))}</title></rect>')
            s.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 - 4}" text-anchor="middle" font-size="14">'
                     f'{100 * r["rate"]:.1f}%</text>')
            s.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 14}" text-anchor="middle" font-size="10">'
                     f'[{100 * r["ci95"][0]:.1f}, {100 * r["ci95"][1]:.1f}]</text>')
    s.append("</svg>")
    return "".join(s)


def svg_hist(hist, label):
    n = max(1, len(hist))
    top = max(hist) or 1
    w, h = 520, 160
    bw = (w - 40) / n
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 30}" role="img" aria-label="{_e(label)}">']
    for k, v in enumerate(hist):
        bh = (h - 10) * v / top
        s.append(f'<rect x="{30 + k * bw:.1f}" y="{h - bh:.1f}" width="{max(bw - 1, 0.5):.1f}" height="{bh:.1f}" '
                 f'fill="#4a7bb7"><title>turn {k}: {v} games</title></rect>')
    for k in range(0, n, max(1, n // 10)):
        s.append(f'<text x="{30 + k * bw + bw / 2:.1f}" y="{h + 16}" text-anchor="middle" font-size="10">{k}</text>')
    s.append(f'<text x="{w / 2}" y="{h + 29}" text-anchor="middle" font-size="10">turns</text></svg>')
    return "".join(s)


def svg_importance(rows, names):
    if not rows:
        return ""
    rows = sorted(rows, key=lambda r: -r["importance"])
    lo = min(min(r["ci95"][0] for r in rows), -0.05)
    hi = max(max(r["ci95"][1] for r in rows), 0.05)
    rh, left, w = 14, 300, 760
    h = rh * len(rows) + 30
    sc = (w - left - 20) / (hi - lo)

    def X(v):
        return left + (v - lo) * sc
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img" aria-label="card importance">',
         f'<line x1="{X(0):.1f}" y1="0" x2="{X(0):.1f}" y2="{h - 20}" stroke="#888"/>']
    for i, r in enumerate(rows):
        y = 6 + i * rh
        col = "#c0392b" if r["significant"] else "#7f8c8d"
        x0, x1 = sorted((X(0), X(r["importance"])))
        s.append(f'<text x="{left - 6}" y="{y + 10}" text-anchor="end" font-size="10">'
                 f'{_e(r["deck"])} {_e(r["card"])} {_e(names.get(r["card"], ""))}</text>')
        s.append(f'<rect x="{x0:.1f}" y="{y + 2}" width="{max(x1 - x0, 0.5):.1f}" height="{rh - 4}" fill="{col}">'
                 f'<title>{_e(r["card"])}: {100 * r["importance"]:+.1f} points</title></rect>')
        s.append(f'<line x1="{X(r["ci95"][0]):.1f}" y1="{y + rh / 2}" x2="{X(r["ci95"][1]):.1f}" y2="{y + rh / 2}" '
                 f'stroke="#222"/>')
    for v in (lo, 0.0, hi):
        s.append(f'<text x="{X(v):.1f}" y="{h - 6}" text-anchor="middle" font-size="10">{100 * v:+.0f}</text>')
    s.append("</svg>")
    return "".join(s)


def render_html(rep):
    names = rep["card_names"]
    p = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
         f'<title>Balance report: {_e(rep["set"])}</title>',
         '<style>body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;'
         'font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}'
         'td.l{text-align:left}.flag{color:#a00}</style></head><body>',
         f'<h1>Balance report: {_e(rep["set"])}</h1>',
         f'<p>Decks: {_e(", ".join(rep["decks"]))}. Bots: {_e(", ".join(rep["bots"]))}. Seed {rep["seed"]}, '
         f'{rep["games_per_pairing"]} games per ordered pairing, turn cap {rep["turn_cap"]}. '
         f'Set sha256 {_e(rep["set_sha256"][:16])}.</p>', '<h2>Flags</h2>']
    if rep["flags"]:
        p.append('<table><tr><th>kind</th><th>deck</th><th>card</th><th>detail</th></tr>')
        for f in rep["flags"]:
            card = f"{f['card']} {names.get(f['card'], '')}" if f["card"] else ""
            p.append(f'<tr><td class="l flag">{_e(f["kind"])}</td><td class="l">{_e(f["deck"])}</td>'
                     f'<td class="l">{_e(card)}</td><td class="l">{_e(f["detail"])}</td></tr>')
        p.append("</table>")
    else:
        p.append("<p>None.</p>")
    p.append("<h2>Matchups</h2><p>Row deck's win rate against the column deck (95 % Wilson intervals; draws "
             "and truncated games are not wins).</p>")
    for m in rep["matchups"]:
        p.append(f'<h3>{_e(m["bot"])} ({m["games_per_pairing"]} games per pairing)</h3>')
        p.append(svg_matrix(m))
        fp = m["first_player"]
        p.append(f'<p>First player wins {_e(pct(fp))} of decided games. '
                 f'Mean length {m["game_length"]["mean_turns"]:.1f}'
                 f' turns. Draws {m["draws"]}, truncated {m["truncated"]}, engine errors {m["errors"]}. '
                 f'End reasons: {_e(", ".join(f"{k} {v}" for k, v in m["end_reasons"].items()))}.</p>')
        p.append('<table><tr><th>deck</th><th>win rate vs the other decks</th></tr>')
        for d, r in m["deck_overall"].items():
            p.append(f'<tr><td class="l">{_e(d)}</td><td>{_e(pct(r))}</td></tr>')
        p.append("</table>")
        p.append(svg_hist(m["game_length"]["histogram"], f"game length {m['bot']}"))
    cst = rep["card_stats"]
    if cst:
        p.append(f'<h2>Cards</h2><p>{_e(cst["bot"])} bots, the first {cst["games_per_pairing"]} games of every '
                 'pairing replayed with the engine event log. "played": the share of the deck\'s games in which at '
                 'least one copy was played; win rates with 95 % Wilson intervals; opportunities: decisions at '
                 'which a copy was legal to play.</p>')
        p.append('<table><tr><th>deck</th><th>card</th><th>games</th><th>drawn</th><th>played</th>'
                 '<th>win when played</th><th>win when not</th><th>avg turn</th><th>opportunities</th></tr>')
        for d, cards in cst["cards"].items():
            for cid, c in cards.items():
                at = "-" if c["avg_turn_played"] is None else f'{c["avg_turn_played"]:.1f}'
                p.append(f'<tr><td class="l">{_e(d)}</td><td class="l">{_e(cid)} {_e(names.get(cid, ""))}</td>'
                         f'<td>{c["games"]}</td><td>{100 * c["drawn"]["rate"]:.0f}%</td>'
                         f'<td>{100 * c["played"]["rate"]:.0f}%</td><td>{_e(pct(c["win_rate_played"]))}</td>'
                         f'<td>{_e(pct(c["win_rate_not_played"]))}</td><td>{at}</td><td>{c["opportunities"]}</td></tr>')
        p.append("</table>")
    imp = rep["importance"]
    if imp:
        p.append(f'<h2>Card importance</h2><p>The deck\'s score (win 1, draw or truncated &#189;) with the card minus '
                 f'with the neutral filler, on {imp["games_per_card"]} paired deals per card against the other decks '
                 f'({_e(imp["bot"])} bots); 95 % intervals of the paired differences; red: significant after Holm\'s '
                 f'correction over all {len(imp["rows"])} cards at {imp["alpha"]}. Filler: {_e(imp["filler"])}</p>')
        p.append(svg_importance(imp["rows"], names))
    sug = rep["suggest"]
    if sug:
        p.append(f'<h2>Suggestions</h2><p>{sug["evaluations"]} evaluations of candidate changes '
                 f'(budget {sug["budget"]}, {sug["search_games_per_pairing"]} games per pairing on a search seed), '
                 f'at most {sug["max_changes"]} changes; each proposal re-verified on a '
                 f'fresh seed with {sug["verify_games_per_pairing"]} games per pairing. Largest |win rate - 50 %| '
                 f'before: {100 * sug["objective_before"]:.1f} points.</p>')
        p.append('<h3>Unchanged set, on the verification seed</h3>')
        p.append(svg_matrix({"bot": sug["bot"], "matrix": sug["matrix_before"]}))
        if not sug["proposals"]:
            p.append("<p>No change improved the matchups.</p>")
        if sug.get("fixed_pairs"):
            p.append("<p>Left out of the objective (every card of both decks frozen: "
                     f'{_e(", ".join(sug["frozen"]))}): '
                     f'{_e("; ".join(" vs ".join(fp) for fp in sug["fixed_pairs"]))}.</p>')
        for pr in sug["proposals"]:
            chs = "; ".join(f'{c["card"]} {names.get(c["card"], "")} {c["field"]} {c["from"]} \u2192 {c["to"]}'
                            for c in pr["changes"])
            head = chs if len(pr["changes"]) <= 3 else " + ".join(mv["move"] for mv in pr.get("moves", []))
            p.append(f'<h3>{_e(head)}</h3><p>largest |win rate - 50 %| '
                     f'{100 * pr["objective"]:.1f} points{" (within the target band)" if pr["within_target"] else ""}'
                     f'. Changes: {_e(chs)}.</p>')
            p.append(svg_matrix({"bot": sug["bot"], "matrix": pr["matrix"]}))
    p.append("</body></html>\n")
    return "\n".join(p)


# ---- command line ----------------------------------------------------------------------------

DOC = """Balance lab: matchup matrix per bot level, per-card statistics,
card importance against a neutral filler, flags, and (--suggest) number changes that even the
matchups. Writes DIR/report.json and DIR/report.html; DIR/state keeps finished work, so the same
command started again after an interruption goes on where it stopped. docs/balance.md."""


def add_parser(sub, int_in):
    b = sub.add_parser("balance", help="balance lab for card designers: matchups, card stats, importance",
                       description=DOC)
    b.add_argument("cards", metavar="CARDS.json", help="the card set (its includes are read too)")
    b.add_argument("--decks", default=None, metavar="D1,D2,...", help="decks (default: every deck of the set)")
    b.add_argument("--bots", default="greedy", metavar="B1,B2",
                   help="bot levels, weakest first: random, greedy, search or search:SIMS (default: greedy)")
    b.add_argument("--games", type=int_in(2, None, "--games"), default=2000, metavar="N",
                   help="games per ordered deck pairing, even")
    b.add_argument("--card-games", type=int_in(0, None, "--card-games"), default=None, metavar="N",
                   help="games per pairing replayed for per-card statistics (default: min(N, 250); 0: none)")
    b.add_argument("--importance-games", type=int_in(0, None, "--importance-games"), default=None, metavar="N",
                   help="paired games per card for card importance (default: min(N, 1000); 0: none)")
    b.add_argument("--seed", type=int_in(0, MASK64, "--seed"), default=0, metavar="S",
                   help="every game's seeds derive from S (default: 0)")
    b.add_argument("--turn-cap", type=int_in(1, None, "--turn-cap"), default=200, metavar="T",
                   help="games longer than T turns end truncated (default: 200)")
    b.add_argument("--jobs", type=int_in(1, 256, "--jobs"), default=1, metavar="J", help="threads")
    b.add_argument("--ray", type=int_in(1, 4096, "--ray"), default=None, metavar="W",
                   help="run the work on W local Ray workers (or $RAY_ADDRESS's cluster)")
    b.add_argument("--out", default="balance-report", metavar="DIR",
                   help="report.html, report.json and state/ (finished work) go here (default: balance-report)")
    b.add_argument("--suggest", action="store_true", help="search for number changes (cost, attack, health) that even the matchups")
    b.add_argument("--max-changes", type=int_in(1, 64, "--max-changes"), default=2, metavar="K",
                   help="--suggest: at most K moves (default: 2)")
    b.add_argument("--suggest-games", type=int_in(2, None, "--suggest-games"), default=None, metavar="N",
                   help="--suggest: games per pairing of each search evaluation (default: --games / 4)")
    b.add_argument("--suggest-budget", type=int_in(1, None, "--suggest-budget"), default=24, metavar="E",
                   help="matchup evaluations the search may spend")
    b.add_argument("--frozen", default="", metavar="P1,P2",
                   help="--suggest: never change cards whose id starts with one of these prefixes (e.g. a "
                        "binding set: STT01-,STT02-)")
    b.add_argument("--max-step", type=int_in(1, 8, "--max-step"), default=1, metavar="S",
                   help="--suggest: one (card, field) may move by at most S in total over the steps (default: 1)")
    b.add_argument("--deck-moves", action="store_true",
                   help="--suggest: also try deck-wide moves (the same +-1 on one field of every unfrozen card "
                        "of a deck; one move counts as one change in K)")
    b.add_argument("--quiet", action="store_true", help="no progress lines")
    b.set_defaults(fn=cmd_balance)
    return b


def cmd_balance(args):
    from .evaluate import Progress
    bots = [b for b in args.bots.split(",") if b]
    decks = [d for d in args.decks.split(",") if d] if args.decks else None
    prog = None if args.quiet else Progress(interval=2.0, command="balance")
    try:
        rep = run_balance(args.cards, decks=decks, bots=bots, games=args.games, seed=args.seed, jobs=args.jobs,
                          ray_workers=args.ray, out=args.out, card_games=args.card_games,
                          imp_games=args.importance_games, do_suggest=args.suggest, suggest_k=args.max_changes,
                          suggest_budget=args.suggest_budget, suggest_games=args.suggest_games,
                          suggest_frozen=tuple(p for p in args.frozen.split(",") if p),
                          suggest_max_step=args.max_step, suggest_deck_moves=args.deck_moves,
                          turn_cap=args.turn_cap, progress=prog)
    except KeyboardInterrupt:
        print("balance: interrupted (run the same command again to resume)", file=sys.stderr)
        return 130
    print(f"balance: wrote {os.path.join(args.out, 'report.html')} and report.json; "
          f"{len(rep['flags'])} flags", file=sys.stderr)
    for k, v in rep["timing"].items():
        if k != "units_run":
            print(f"  {k}: {v:.1f} s", file=sys.stderr)
    return 0

"""azuki.eval_report — the ratings and reports of `azuki eval` (docs/eval.md).

* table_from_matches: the round robin's table (payoff matrix, scores,
  maximum-likelihood Elo with 95 % intervals) from the matches played so
  far; the final table of azuki.evaluate.round_robin is this function of
  all its matches, the running table printed as pairings finish is the same
  function of the first ones (so streaming cannot change the result);
* format_head_to_head / format_round_robin / format_markdown: the reports;
* Progress: progress lines on stderr;
* MatchStream: the JSON-lines stream of `eval --jsonl FILE` (one line per
  pairing as it finishes, then the table), flushed per line for `tail -f`.
"""
from __future__ import annotations

import json
import os
import sys
import time

from .ratings import diff_ci, fit_elo
from .stats import rate


def table_from_matches(names, matches, games_per_pair, seed, decks, seconds=0.0):
    """The round robin's table from `matches` ([{"i", "j", "result"}], each
    result evaluate()'s dict of i against j). Players that have not played
    yet get None in the matrix and a rating of None; the others are fitted
    together (anchor: ``random`` = 0 when it has played, else mean 0)."""
    m = len(names)
    mat = [[None] * m for _ in range(m)]
    score = [[None] * m for _ in range(m)]
    played = sorted({k for x in matches for k in (x["i"], x["j"])})
    pos = {k: p for p, k in enumerate(played)}
    results = []
    for x in matches:
        i, j, r = x["i"], x["j"], x["result"]
        mat[i][j] = r["win_rate"]
        mat[j][i] = rate(r["losses"], r["games"])
        score[i][j] = r["score"]
        score[j][i] = 1.0 - r["score"]
        results.append((pos[i], pos[j], r["wins"], r["losses"], r["draws"] + r["truncated"]))
    anchor = names.index("random") if "random" in names and names.index("random") in pos else None
    elo, ci, nxt, regularized = [None] * m, [None] * m, [None] * m, False
    if results:
        fit = fit_elo(results, n=len(played), anchor=None if anchor is None else pos[anchor])
        for k, p in pos.items():
            elo[k], ci[k] = fit["elo"][p], fit["ci95"][p]
        regularized = fit["regularized"]
        # each rated player's lead over the next one down the ranking, with the interval of that
        # difference (from the fit's covariance): an anchor-relative interval also carries the
        # anchor's own uncertainty (random vs greedy, nearly all one-sided games), so neighbours
        # whose intervals overlap widely may still be told apart here
        order = sorted(pos, key=lambda k: -elo[k])
        for a, b in zip(order, order[1:]):
            d, dci = diff_ci(fit, pos[a], pos[b])
            nxt[a] = {"player": names[b], "elo": d, "ci95": dci}
    return {"players": list(names), "games_per_pair": games_per_pair, "seed": seed, "decks": list(decks),
            "matrix": mat, "score": score,
            "elo": {"elo": elo, "ci95": ci, "next": nxt, "anchor": names[anchor] if anchor is not None else None,
                    "anchor_rule": "random = 0" if anchor is not None else "mean 0",
                    "regularized": regularized},
            "seconds": seconds, "matches": list(matches)}


def elo_diff(wins, losses, half):
    """A's Elo minus B's with its 95 % interval from A's wins, losses and
    half points (draws + truncated): the head-to-head ``elo_diff`` block."""
    fit = fit_elo([(0, 1, wins, losses, half)], anchor=1)
    d, ci = diff_ci(fit, 0, 1)
    return {"elo": d, "ci95": ci, "regularized": fit["regularized"]}


def head_to_head_ratings(r):
    """(names, elo, ci95) of a head-to-head result, B anchored at 0."""
    e = r["elo_diff"]
    return list(r["players"]), [e["elo"], 0.0], [list(e["ci95"]), [0.0, 0.0]]


# ---- printing ----------------------------------------------------------------------------------

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


def _next(el, k, sep):
    """'+12 [-20, +44] over NAME': player k's lead over the next one down (table_from_matches), '' for
    the last (and for a table made before the lead was recorded)."""
    n = (el.get("next") or [None] * (k + 1))[k]
    if n is None:
        return ""
    lo, hi = n["ci95"]
    return f"{sep}{n['elo']:+.0f} [{lo:+.0f}, {hi:+.0f}] over {n['player']}"


def format_round_robin(rr, done=None):
    """The round robin report; `done` = (pairings played, pairings in all)
    for a running table (unplayed cells show '.', unrated players are
    listed as not yet rated)."""
    names = rr["players"]
    w = max(8, max(len(x) for x in names))
    head = (f"azuki eval: round robin of {len(names)} players, {rr['games_per_pair']} games per pair, "
            f"seed {rr['seed']}, decks {' '.join(rr['decks'])}")
    if done is not None:
        head += f" -- after {done[0]} of {done[1]} pairings"
    lines = [head, "  win rate of row against column (95% Wilson interval):"]
    cw = 22
    lines.append("  " + " " * w + "".join(f"{x[:cw - 1]:>{cw}}" for x in names))
    for i, x in enumerate(names):
        cells = "".join(f"{'-' if i == j else '.':>{cw}}" if c is None else f"{_pct(c):>{cw}}"
                        for j, c in enumerate(rr["matrix"][i]))
        lines.append(f"  {x:<{w}}" + cells)
    el = rr["elo"]
    lines.append(f"  Elo (maximum likelihood, draws and truncations = 1/2, anchor: {el['anchor_rule']}"
                 + (", regularized" if el["regularized"] else "") + "):")
    rated = [k for k in range(len(names)) if el["elo"][k] is not None]
    for k in sorted(rated, key=lambda k: -el["elo"][k]):
        lo, hi = el["ci95"][k]
        lines.append(f"    {names[k]:<{w}} {el['elo'][k]:+7.0f}  [{lo:+.0f}, {hi:+.0f}]" + _next(el, k, "  "))
    for k in range(len(names)):
        if el["elo"][k] is None:
            lines.append(f"    {names[k]:<{w}}  (not yet rated)")
    lines.append(f"  {rr['seconds']:.1f} s")
    return "\n".join(lines)


def format_markdown(rr):
    """The round robin's table as Markdown (docs and the README): the
    ratings with their 95 % intervals, best first, then the win-rate matrix."""
    names, el = rr["players"], rr["elo"]
    order = sorted((k for k in range(len(names)) if el["elo"][k] is not None), key=lambda k: -el["elo"][k])
    lines = [f"| player | Elo ({el['anchor_rule']}) | 95% interval | lead over the next (95% interval) |",
             "|---|---:|---|---|"]
    for k in order:
        lo, hi = el["ci95"][k]
        lines.append(f"| `{names[k]}` | {el['elo'][k]:+.0f} | [{lo:+.0f}, {hi:+.0f}] | {_next(el, k, '') or '-'} |")
    lines += ["", "| win rate of row vs column | " + " | ".join(f"`{names[k]}`" for k in order) + " |",
              "|---|" + "---:|" * len(order)]
    for i in order:
        cells = ["-" if i == j else "." if rr["matrix"][i][j] is None else
                 f"{100 * rr['matrix'][i][j]['rate']:.1f}% [{100 * rr['matrix'][i][j]['ci95'][0]:.1f}, "
                 f"{100 * rr['matrix'][i][j]['ci95'][1]:.1f}]" for j in order]
        lines.append(f"| `{names[i]}` | " + " | ".join(cells) + " |")
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


# ---- the stream of results ------------------------------------------------------------------------

def _without_outcomes(r):
    return {k: v for k, v in r.items() if k != "outcomes"}


class MatchStream:
    """`eval --jsonl FILE`: one JSON object per line, written and flushed as
    each pairing finishes, so `tail -f FILE` follows a long round robin.

    ``{"event": "match", "pair": p, "pairs": P, "i": i, "j": j, "players":
    [A, B], "seed": s, "result": evaluate()'s dict, "elo": {name: [elo,
    lo, hi]} of the running table}`` per pairing, then for three or more
    players ``{"event": "table", ...}``: the final table (round_robin's
    dict without ``matches``, which are the lines above). The file is
    opened (truncated) before any game, so a bad path fails at once."""

    def __init__(self, path):
        self.path = os.fspath(path)
        try:
            self.f = open(self.path, "w")
        except OSError as e:
            raise ValueError(f"--jsonl: cannot write {self.path}: {e.strerror or e}") from None

    def _write(self, obj):
        self.f.write(json.dumps(obj) + "\n")
        self.f.flush()

    def match(self, match, pairs, table=None):
        names = table["players"] if table is not None else match["result"]["players"]
        if table is not None:
            el = table["elo"]
            elo = {names[k]: [el["elo"][k], *el["ci95"][k]] for k in range(len(names)) if el["elo"][k] is not None}
        else:
            hn, he, hc = head_to_head_ratings(match["result"])
            elo = {hn[k]: [he[k], *hc[k]] for k in range(2)}
        r = match["result"]
        self._write({"event": "match", "pair": match.get("pair", 0), "pairs": pairs, "i": match["i"],
                     "j": match["j"], "players": list(r["players"]), "seed": r["seed"],
                     "result": _without_outcomes(r), "elo": elo})

    def table(self, rr):
        self._write(dict({"event": "table"}, **{k: v for k, v in rr.items() if k != "matches"}))

    def close(self):
        self.f.close()

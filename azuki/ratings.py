"""azuki.ratings — Elo ratings for match results (plain Python + numpy, no torch).

Two tools (docs/eval.md):

* ``fit_elo(results, n=None, anchor=None)``: the maximum-likelihood ratings of
  a set of match results under the Bradley–Terry model on the logistic Elo
  scale: player i scores against player j with probability

      E_ij = 1 / (1 + 10 ** ((r_j - r_i) / 400))

  (a 76 % score is about +200 Elo). A draw counts as half a win for each
  side. `results` is an iterable of ``(i, j, wins_i, wins_j, draws)`` tuples
  with player indices i != j (several tuples for one pair add up). Ratings
  are defined up to a constant: ``anchor=k`` fixes player k at 0 (the
  evaluation anchors the ``random`` bot there), ``anchor=None`` makes the
  mean 0. The 95 % intervals are ``r ± 1.96 se`` with ``se`` from the
  observed Fisher information (the inverse of the log-likelihood's Hessian at
  the optimum, under the same anchoring: the anchor's interval is [0, 0]).

  When a player won (or lost) every game it played, the maximum-likelihood
  rating is infinite. Then, and only then, the fit adds ``prior`` virtual
  draws (default 1) to every pair that played and reports
  ``"regularized": True``. Players not connected by games to each other
  cannot be rated on one scale: ValueError.

* ``EloTable``: the classic online update for live displays (the training
  league): ``t = EloTable(k=16)``, ``t.update("a", "b", 1.0)`` (score of a:
  1 win, 0.5 draw, 0 loss) moves a by ``k (score - E_ab)`` and b by the
  opposite; unknown names start at ``initial`` (0).
"""
from __future__ import annotations

import math

import numpy as np

from .stats import Z95

ELO_SCALE = 400.0 / math.log(10.0)     # Elo points per natural-log unit of odds (173.7...)


def expected(ra, rb):
    """The expected score of a player rated ra against one rated rb."""
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


def elo_diff(score):
    """The Elo difference implied by an expected score in (0, 1): 400 log10(s / (1 - s))."""
    if not 0.0 < score < 1.0:
        return math.copysign(math.inf, score - 0.5) if score != 0.5 else 0.0
    return 400.0 * math.log10(score / (1.0 - score))


def _tables(results, n):
    rows = []
    for t in results:
        if len(t) != 5:
            raise ValueError(f"a result is (i, j, wins_i, wins_j, draws), got {t!r}")
        i, j, wi, wj, d = t
        for v in t:
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"results hold integers, got {t!r}")
        if i == j or min(i, j) < 0:
            raise ValueError(f"a result needs two different players i != j >= 0, got {t!r}")
        if min(wi, wj, d) < 0:
            raise ValueError(f"wins and draws must be >= 0, got {t!r}")
        rows.append((int(i), int(j), int(wi), int(wj), int(d)))
    m = max([n or 0] + [max(r[0], r[1]) + 1 for r in rows])
    if n is not None and m > n:
        raise ValueError(f"player index out of range for n={n}")
    S = np.zeros((m, m))      # S[i, j]: i's score against j (wins + draws / 2)
    N = np.zeros((m, m))      # games between i and j
    for i, j, wi, wj, d in rows:
        S[i, j] += wi + 0.5 * d
        S[j, i] += wj + 0.5 * d
        N[i, j] += wi + wj + d
        N[j, i] += wi + wj + d
    return S, N


def _reach(adj, start):
    seen = {start}
    todo = [start]
    while todo:
        u = todo.pop()
        for v in np.nonzero(adj[u])[0]:
            if int(v) not in seen:
                seen.add(int(v))
                todo.append(int(v))
    return seen


def fit_elo(results, n=None, anchor=None, prior=1.0, tol=1e-10, max_iter=200):
    """Maximum-likelihood Elo ratings (module docstring). Returns a dict:
    ``elo`` (list, one per player), ``se`` and ``ci95`` ([lo, hi]) per
    player, ``anchor`` (the index fixed at 0, or None: mean 0), ``games``
    (per player), ``regularized`` (True when `prior` virtual draws per pair
    were needed for a finite answer), ``iterations``."""
    S, N = _tables(results, n)
    m = S.shape[0]
    if anchor is not None and not 0 <= anchor < max(m, 1):
        raise ValueError(f"anchor {anchor} is not a player index (0..{m - 1})")
    games = N.sum(axis=1)
    if m == 0:
        return {"elo": [], "se": [], "ci95": [], "anchor": anchor, "games": [], "regularized": False, "iterations": 0}
    if m > 1:
        if (games == 0).any():
            raise ValueError(f"player {int(np.argmin(games))} has no games: it cannot be rated")
        if len(_reach(N > 0, 0)) < m:
            raise ValueError("the players are not all connected by games: no common rating scale")
    # a finite maximum exists iff the graph "i scored against j" is strongly connected
    regularized = m > 1 and not (len(_reach(S > 0, 0)) == m and len(_reach(S.T > 0, 0)) == m)
    if regularized:
        played = N > 0
        S = S + 0.5 * prior * played
        N = N + prior * played
    theta = np.zeros(m)                       # natural-log-odds units
    free = [k for k in range(m) if k != anchor] if anchor is not None else list(range(m))
    it = 0
    for it in range(1, max_iter + 1):
        D = theta[:, None] - theta[None, :]
        P = 1.0 / (1.0 + np.exp(-D))
        g = (S - N * P).sum(axis=1)
        W = N * P * (1.0 - P)
        H = np.diag(W.sum(axis=1)) - W        # minus the Hessian (positive semi-definite)
        if anchor is not None:
            Hf = H[np.ix_(free, free)]
            step = np.clip(np.linalg.solve(Hf, g[free]), -2.0, 2.0) if free else np.zeros(0)
            theta[free] += step
        else:
            step = np.clip(np.linalg.lstsq(H, g, rcond=None)[0], -2.0, 2.0)
            theta += step
            theta -= theta.mean()
        if np.max(np.abs(step), initial=0.0) < tol:
            break
    D = theta[:, None] - theta[None, :]
    P = 1.0 / (1.0 + np.exp(-D))
    W = N * P * (1.0 - P)
    H = np.diag(W.sum(axis=1)) - W
    cov = np.zeros((m, m))
    if anchor is not None:
        if free:
            cov[np.ix_(free, free)] = np.linalg.inv(H[np.ix_(free, free)])
    else:
        C = np.eye(m) - 1.0 / m                # centring: covariance of the mean-0 parametrization
        cov = C @ np.linalg.pinv(H) @ C
    se = np.sqrt(np.maximum(np.diag(cov), 0.0)) * ELO_SCALE
    elo = theta * ELO_SCALE
    return {"elo": elo.tolist(), "se": se.tolist(),
            "ci95": [[float(e - Z95 * s), float(e + Z95 * s)] for e, s in zip(elo, se)],
            "cov": (cov * ELO_SCALE ** 2).tolist(),
            "anchor": anchor, "games": games.tolist(), "regularized": bool(regularized), "iterations": it}


def diff_ci(fit, i, j):
    """(difference r_i - r_j, its 95 % interval) from a fit_elo result (uses its covariance)."""
    cov = fit["cov"]
    d = fit["elo"][i] - fit["elo"][j]
    var = cov[i][i] + cov[j][j] - 2 * cov[i][j]
    se = math.sqrt(max(var, 0.0))
    return d, [d - Z95 * se, d + Z95 * se]


def elo_update(ratings, a, b, score, k, initial=0.0):
    """THE online Elo update (EloTable and the training league's table use
    this one): a's result `score` against b (1 win, 0.5 draw, 0 loss) moves
    a by k (score - expected) and b by the opposite, in the dict `ratings`
    (name -> rating; a name not in it starts at `initial`). Returns the new
    (rating of a, rating of b)."""
    if a == b:
        raise ValueError("a player does not play itself")
    score = float(score)
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be in [0, 1], got {score}")
    ra, rb = ratings.get(a, initial), ratings.get(b, initial)
    delta = float(k) * (score - expected(ra, rb))
    ratings[a] = ra + delta
    ratings[b] = rb - delta
    return ratings[a], ratings[b]


class EloTable:
    """Online Elo ratings by name: ``update(a, b, score)`` after each game
    (score of a: 1 win, 0.5 draw, 0 loss). Unknown names start at `initial`.
    ``ratings`` is the dict of current ratings, ``games`` the games counted."""

    def __init__(self, k=16.0, initial=0.0):
        self.k = float(k)
        self.initial = float(initial)
        self.ratings = {}
        self.games = {}

    def rating(self, name):
        return self.ratings.get(name, self.initial)

    def expected(self, a, b):
        """a's expected score against b."""
        return expected(self.rating(a), self.rating(b))

    def update(self, a, b, score, k=None):
        """Record one result of a against b (score in [0, 1]; several games
        at once: pass the mean score and k times the number of games).
        Returns the new (rating of a, rating of b)."""
        out = elo_update(self.ratings, a, b, score, self.k if k is None else k, self.initial)
        for x in (a, b):
            self.games[x] = self.games.get(x, 0) + 1
        return out

    def table(self):
        """[(name, rating, games)] best first."""
        return sorted(((x, r, self.games.get(x, 0)) for x, r in self.ratings.items()), key=lambda t: -t[1])

    def __repr__(self):
        return f"EloTable(k={self.k}, {len(self.ratings)} players)"

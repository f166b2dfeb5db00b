"""azuki.ratings: the maximum-likelihood Elo fit and the online EloTable on
cases with known answers."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from azuki.ratings import EloTable, diff_ci, elo_diff, expected, fit_elo  # noqa: E402


def test_expected_and_diff_are_inverse():
    assert expected(0, 0) == 0.5
    assert expected(200, 0) == pytest.approx(0.7597469, abs=1e-6)
    assert elo_diff(expected(123.0, -45.0)) == pytest.approx(168.0)
    assert elo_diff(0.5) == 0.0


def test_two_players_76_percent_is_about_200():
    f = fit_elo([(0, 1, 760, 240, 0)], anchor=1)
    assert f["elo"][1] == 0.0
    assert f["elo"][0] == pytest.approx(elo_diff(0.76), abs=1e-6)
    assert f["elo"][0] == pytest.approx(200.0, abs=1.5)
    assert f["ci95"][1] == [0.0, 0.0]
    lo, hi = f["ci95"][0]
    assert lo < f["elo"][0] < hi
    assert not f["regularized"]


def test_mean_anchor_and_order_of_tuples():
    f = fit_elo([(1, 0, 240, 760, 0)])          # the same data written the other way round
    assert f["anchor"] is None
    assert sum(f["elo"]) == pytest.approx(0.0, abs=1e-9)
    assert f["elo"][0] - f["elo"][1] == pytest.approx(elo_diff(0.76), abs=1e-6)
    d, (lo, hi) = diff_ci(f, 0, 1)
    assert d == pytest.approx(elo_diff(0.76), abs=1e-6)
    f1 = fit_elo([(0, 1, 760, 240, 0)], anchor=1)
    assert hi - lo == pytest.approx(f1["ci95"][0][1] - f1["ci95"][0][0], rel=1e-6)


def test_draws_count_half():
    a = fit_elo([(0, 1, 600, 200, 200)], anchor=1)   # score 0.7
    b = fit_elo([(0, 1, 700, 300, 0)], anchor=1)
    assert a["elo"][0] == pytest.approx(b["elo"][0], abs=1e-6)
    assert a["elo"][0] == pytest.approx(elo_diff(0.7), abs=1e-6)
    c = fit_elo([(0, 1, 0, 0, 50)])
    assert c["elo"] == pytest.approx([0.0, 0.0], abs=1e-9)


def test_three_transitive_players_recover_true_ratings():
    true = [0.0, 150.0, 400.0]
    res = []
    n = 100000
    for i in range(3):
        for j in range(i + 1, 3):
            w = round(n * expected(true[i], true[j]))
            res.append((i, j, w, n - w, 0))
    f = fit_elo(res, anchor=0)
    assert f["elo"] == pytest.approx(true, abs=1.0)
    g = fit_elo(res)                                  # mean 0: same differences
    assert [x - g["elo"][0] for x in g["elo"]] == pytest.approx(true, abs=1.0)
    assert sum(g["elo"]) == pytest.approx(0.0, abs=1e-6)


def test_anchor_is_zero_and_others_shift():
    res = [(0, 1, 30, 70, 0), (1, 2, 55, 45, 0), (0, 2, 40, 60, 0)]
    a = fit_elo(res, anchor=2)
    b = fit_elo(res, anchor=0)
    assert a["elo"][2] == 0.0 and b["elo"][0] == 0.0
    assert a["elo"][1] - a["elo"][0] == pytest.approx(b["elo"][1] - b["elo"][0], abs=1e-6)


def test_interval_shrinks_with_more_games():
    widths = []
    for n in (100, 1000, 10000):
        f = fit_elo([(0, 1, int(0.6 * n), n - int(0.6 * n), 0)], anchor=1)
        widths.append(f["ci95"][0][1] - f["ci95"][0][0])
    assert widths[0] > widths[1] > widths[2]
    assert widths[0] / widths[1] == pytest.approx(math.sqrt(10), rel=0.01)


def test_perfect_separation_is_regularized_and_finite():
    f = fit_elo([(0, 1, 20, 0, 0)], anchor=1)
    assert f["regularized"]
    assert math.isfinite(f["elo"][0]) and f["elo"][0] > 300
    # with one virtual draw: score 20.5 / 21
    assert f["elo"][0] == pytest.approx(elo_diff(20.5 / 21), abs=1e-6)


def test_bad_input():
    with pytest.raises(ValueError):
        fit_elo([(0, 0, 1, 1, 0)])
    with pytest.raises(ValueError):
        fit_elo([(0, 1, -1, 1, 0)])
    with pytest.raises(ValueError, match="not all connected"):
        fit_elo([(0, 1, 5, 5, 0), (2, 3, 5, 5, 0)])
    with pytest.raises(ValueError):
        fit_elo([(0, 1, 5, 5, 0)], anchor=3)


def test_elo_table_hand_computed():
    t = EloTable(k=32)
    assert t.update("a", "b", 1.0) == (16.0, -16.0)          # expected 0.5 each
    ea = 1 / (1 + 10 ** (-32 / 400))                          # a (16) against b (-16)
    ra, rb = t.update("a", "b", 0.0)
    assert ra == pytest.approx(16 - 32 * ea)
    assert rb == pytest.approx(-16 + 32 * ea)
    assert ra + rb == pytest.approx(0.0)
    t.update("a", "c", 0.5, k=10)                             # c new at 0
    assert t.rating("c") == pytest.approx(-10 * (0.5 - expected(ra, 0.0)))
    rs = [x[1] for x in t.table()]
    assert rs == sorted(rs, reverse=True)
    assert t.games == {"a": 3, "b": 2, "c": 1}
    with pytest.raises(ValueError):
        t.update("a", "a", 1.0)
    with pytest.raises(ValueError):
        t.update("a", "b", 2.0)


def test_elo_update_is_the_one_online_update():
    """elo_update is the online Elo step EloTable uses, bit for bit the
    classic formula (the training league's table was written as it)."""
    from azuki.ratings import elo_update
    r = {"learner": 12.5}
    for score in (1.0, 0.0, 0.5, 1.0):
        ra, rb = r["learner"], r.get("random", 0.0)
        exp = 1.0 / (1.0 + 10 ** ((rb - ra) / 400.0))
        want = (ra + 16.0 * (score - exp), rb - 16.0 * (score - exp))
        assert elo_update(r, "learner", "random", score, 16.0) == want
        assert (r["learner"], r["random"]) == want
    t = EloTable(k=16.0)
    t.ratings = {"learner": 12.5}
    assert t.update("learner", "random", 1.0) == elo_update({"learner": 12.5}, "learner", "random", 1.0, 16.0)
    for bad in ((r, "a", "a", 1.0, 16.0), (r, "a", "b", 1.5, 16.0)):
        before = dict(r)
        with pytest.raises(ValueError):
            elo_update(*bad)
        assert r == before


def test_no_other_online_elo_formula():
    """issue 31 item 1: online Elo lives in azuki.ratings only. A copy of the
    expected-score formula elsewhere in azuki/ fails; train.py's league still
    has one until it calls ratings.elo_update (reported to the lead)."""
    root = Path(__file__).resolve().parent.parent / "azuki"
    formula = __import__("re").compile(r"10(?:\.0)?\s*\*\*\s*\(\s*\(?[^)\n]*\)?\s*/\s*400")
    copies = sorted(str(f.relative_to(root)) for f in root.rglob("*.py")
                    if f.name != "ratings.py" and formula.search(f.read_text(encoding="utf-8")))
    pending = {"train.py"}       # its one-line change belongs to the helper that owns train.py
    assert not set(copies) - pending, f"online Elo copied outside azuki.ratings: {copies}"
    if copies:
        pytest.xfail(f"{copies}: still to call azuki.ratings.elo_update")

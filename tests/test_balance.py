"""azuki.balance (`python -m azuki balance`, docs/balance.md): the statistics on synthetic
results with known answers, the per-card statistics' exact source (replays equal play_games),
the neutral filler, a small end-to-end run, determinism, resumability, Ray equivalence (in
.venv-puffer, which has Ray) and the HTML report in headless Chromium (in .venv-web)."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from azuki import _core, arena
from azuki import balance as B
from azuki.stats import Z95

ROOT = Path(__file__).resolve().parent.parent
STARTER = str(ROOT / "azuki" / "data" / "cards.json")
EXPANSION = str(ROOT / "azuki" / "data" / "expansion.json")
SMALL = dict(decks=["STT01", "STT02"], bots=["greedy"], games=8, card_games=4, imp_games=8, seed=5)


def strip(rep):
    return {k: v for k, v in rep.items() if k != "timing"}


# ---- statistics with known answers -------------------------------------------------------

def test_paired_diff_known_answer():
    diffs = [1, 0, -1, 1]
    r = B.paired_diff(len(diffs), sum(diffs), sum(d * d for d in diffs))
    se = math.sqrt((3 - 4 * 0.25 ** 2) / 3 / 4)
    assert r["mean"] == pytest.approx(0.25)
    assert r["ci95"] == pytest.approx([0.25 - Z95 * se, 0.25 + Z95 * se])
    assert r["p"] == pytest.approx(2 * B.normal_sf(0.25 / se))
    z = B.paired_diff(10, 0, 0)              # no difference at all: p = 1
    assert z["mean"] == 0 and z["p"] == 1.0
    assert B.paired_diff(10, 10, 10)["p"] == 0.0     # always +1: certain


def test_normal_sf():
    assert B.normal_sf(0) == pytest.approx(0.5)
    assert 2 * B.normal_sf(Z95) == pytest.approx(0.05)


def test_holm_known_answer():
    # sorted: .005 <= .05/4, .01 <= .05/3, .03 > .05/2 -> stop
    assert B.holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert B.holm([0.2, 0.3]) == [False, False]
    assert B.holm([0.001] * 3) == [True] * 3
    assert B.holm([]) == []


def test_pooled_and_objective():
    m = {"matrix": {"a": {"a": _core_rate(5, 10), "b": dict(_core_rate(7, 10), losses=3)},
                    "b": {"a": dict(_core_rate(2, 10), losses=8), "b": _core_rate(5, 10)}}}
    for row in m["matrix"].values():
        for r in row.values():
            r.setdefault("losses", r["games"] - r["wins"])
    assert B.pooled(m, "a", "b")["rate"] == pytest.approx(15 / 20)
    assert B.objective(m) == pytest.approx(0.3)        # mirrors do not count


def _core_rate(k, n):
    from azuki.stats import rate
    return rate(k, n)


def test_flags_on_synthetic_card_stats():
    from azuki.stats import rate
    card = {"games": 10, "drawn": rate(5, 10), "played": rate(0, 10), "win_rate_played": rate(0, 0),
            "win_rate_not_played": rate(5, 10), "avg_turn_played": None, "copies_played": 0,
            "opportunities": 0, "legal_games": 0, "chosen": 0}
    chosen = dict(card, opportunities=7, legal_games=3)
    # the deck wins (58 + 5) / 100 of these games; 58/60 when the card is played: [88.7, 99.1] > 63 + 15
    hot = dict(card, games=100, played=rate(60, 100), win_rate_played=rate(58, 60),
               win_rate_not_played=rate(5, 40), copies_played=70, opportunities=90, legal_games=60, chosen=70)
    mild = dict(hot, win_rate_played=rate(45, 60), win_rate_not_played=rate(18, 40))   # 75 % vs deck 63 %
    cst = {"cards": {"D": {"X": card, "Y": chosen, "Z": hot, "W": mild}}}
    fl = B.flags({}, [], cst, None)
    kinds = {(f["card"], f["kind"]) for f in fl}
    assert kinds == {("X", "dead: never legal"), ("Y", "dead: legal but never chosen"),
                     ("Z", "played win rate outlier")}
    assert "7 opportunities in 3 games" in next(f["detail"] for f in fl if f["card"] == "Y")


def test_skill_sensitive_and_lopsided_flags_on_synthetic_matrices():
    from azuki.stats import rate

    def mat(bot, p):          # deck a beats b with probability p, 100 games each order
        a_b = dict(rate(int(100 * p), 100), losses=100 - int(100 * p))
        b_a = dict(rate(100 - int(100 * p), 100), losses=int(100 * p))
        mirror = dict(rate(50, 100), losses=50)
        return {"bot": bot, "matrix": {"a": {"a": mirror, "b": a_b}, "b": {"a": b_a, "b": mirror}},
                "deck_overall": {"a": rate(int(100 * p), 100), "b": rate(100 - int(100 * p), 100)}}
    fl = B.flags({}, [mat("random", 0.5), mat("greedy", 0.7)], {"cards": {}}, None)
    kinds = sorted((f["kind"], f["deck"]) for f in fl)
    assert kinds == [("lopsided matchup", "a"), ("skill-sensitive deck", "a"), ("skill-sensitive deck", "b")]
    assert B.flags({}, [mat("random", 0.55), mat("greedy", 0.6)], {"cards": {}}, None) == []


def test_filler_is_the_median_vanilla_entity_of_its_cost():
    doc = {"cards": [
        {"id": "a", "card_type": "entity", "cost": 2, "attack": 1, "health": 5, "gate_points": 1},
        {"id": "b", "card_type": "entity", "cost": 2, "attack": 3, "health": 1, "gate_points": 1},
        {"id": "c", "card_type": "entity", "cost": 2, "attack": 2, "health": 3, "gate_points": 2},
        {"id": "d", "card_type": "entity", "cost": 5, "attack": 6, "health": 6, "gate_points": 2},
        {"id": "s", "card_type": "spell", "cost": 3, "name": "S", "keywords": [], "abilities": [{"x": 1}]}]}
    assert B.filler_stats(doc, 2) == (2, 3, 1)
    assert B.filler_stats(doc, 3) == (2, 3, 1)        # nearest cost with entities; ties: the lower
    assert B.filler_stats(doc, 9) == (6, 6, 2)
    f = next(c for c in B.with_filler(doc, "s")["cards"] if c["id"] == "s")
    assert f["card_type"] == "entity" and f["abilities"] == [] and f["keywords"] == [] and f["subtypes"] == []
    assert (f["cost"], f["attack"], f["health"]) == (3, 2, 3)
    with pytest.raises(ValueError):
        B.with_filler(doc, "nope")


def test_importance_of_a_card_that_is_already_the_filler_is_exactly_zero(tmp_path):
    """Known answer: replacing the filler by itself changes no game, so every paired
    difference is 0, the interval is [0, 0] and nothing is flagged."""
    doc = B.load_doc(STARTER)
    cid = sorted(B.main_cards(doc, "STT01"))[0]
    doc2 = B.with_filler(doc, cid)
    text = B.doc_text(doc2)
    runner = B.Runner()
    imp = B.importance(runner, doc2, text, "greedy", ["STT01", "STT02"], 12, 3, 200)
    row = next(r for r in imp["rows"] if r["card"] == cid and r["deck"] == "STT01")
    assert row["importance"] == 0 and row["ci95"] == [0, 0] and row["p"] == 1.0 and not row["significant"]
    assert row["games"] == 12


# ---- the exact per-card source ------------------------------------------------------------

def test_card_replays_are_the_play_games_games():
    """The per-card statistics replay the matchup schedule's games in Python with the event
    log: the same engine and bot seeds give the same games as play_games (same winners)."""
    doc = B.load_doc(STARTER)
    text = B.doc_text(doc)
    cs = B.cardset(text)
    decks = ["STT01", "STT02"]
    total = 4 * 16
    r = B.card_unit(text, "greedy", decks, total, 7, 0, 24, 200)
    cols, _ = arena.schedule(total, 7, ("greedy", "greedy"), decks, lo=0, hi=24)
    pg = arena.play_schedule(cols, [cs.deck_index(d) for d in cols["deck0"]],
                              [cs.deck_index(d) for d in cols["deck1"]], cs, 200, 10000, None, 1)
    assert r["winners"] == [int(w) for w in pg["winner"]]
    for deck, cards in r["cards"].items():
        assert set(cards) == set(B.main_cards(doc, deck))
        for cid, v in cards.items():
            f = dict(zip(B.CARD_FIELDS, v))
            assert f["drawn"] <= f["games"] and f["played"] <= f["games"] and f["legal_games"] <= f["games"]
            # chosen: played from hand by the bot; effects may put a card into play too (PLAYED events)
            assert f["chosen"] <= f["opportunities"] and f["chosen"] <= f["copies_played"]
            assert f["played_wins"] + f["unplayed_wins"] <= f["games"]


# ---- end to end -------------------------------------------------------------------------------

def test_small_end_to_end_run(tmp_path):
    rep = B.run_balance(STARTER, out=tmp_path, **SMALL)
    assert (tmp_path / "report.html").exists()
    on_disk = json.loads((tmp_path / "report.json").read_text())
    assert on_disk["format"] == B.FORMAT and on_disk["decks"] == ["STT01", "STT02"]
    m = rep["matchups"][0]
    assert m["games"] == 8 * 4 and all(r["games"] == 8 for row in m["matrix"].values() for r in row.values())
    for a in m["matrix"]:          # the same bots: a's rate against b and b's against a add up (no draws here)
        for b in m["matrix"]:
            x, y = m["matrix"][a][b], m["matrix"][b][a]
            assert x["wins"] + x["losses"] + x["draws"] + x["truncated"] == x["games"]
            assert x["ci95"][0] <= x["rate"] <= x["ci95"][1]
    assert sum(m["game_length"]["histogram"]) == 32 and sum(m["end_reasons"].values()) == 32
    assert set(rep["card_stats"]["cards"]) == {"STT01", "STT02"}
    # deck appearances: 4 games per pairing; STT01 plays in 01-02, 02-01 and twice in the mirror
    assert rep["card_stats"]["cards"]["STT01"][sorted(B.main_cards(B.load_doc(STARTER), "STT01"))[0]]["games"] == 16
    rows = rep["importance"]["rows"]
    assert len(rows) == sum(len(B.main_cards(B.load_doc(STARTER), d)) for d in ("STT01", "STT02"))
    assert all(r["games"] == 8 and r["ci95"][0] <= r["importance"] <= r["ci95"][1] for r in rows)
    html = (tmp_path / "report.html").read_text()
    assert "<svg" in html and "<script" not in html and "http://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")


def test_two_bot_levels(tmp_path):
    rep = B.run_balance(STARTER, **dict(SMALL, bots=["random", "greedy"], imp_games=0, card_games=0))
    assert [m["bot"] for m in rep["matchups"]] == ["random", "greedy"]
    assert rep["matchups"][0]["matrix"] != rep["matchups"][1]["matrix"]
    assert rep["card_stats"] is None and rep["importance"] is None
    assert "random" in B.render_html(rep) and "greedy" in B.render_html(rep)


def test_suggest_end_to_end(tmp_path):
    rep = B.run_balance(STARTER, do_suggest=True, suggest_k=1, suggest_budget=3, **dict(SMALL, imp_games=0))
    s = rep["suggest"]
    assert s["evaluations"] <= 3 and s["verify_games_per_pairing"] == 8
    for p in s["proposals"]:
        assert 1 <= len(p["changes"]) <= 1
        assert all(abs(c["to"] - c["from"]) == 1 for c in p["changes"])
        assert all(r["games"] == 8 for row in p["matrix"].values() for r in row.values())


def _matrix(rates):
    """A synthetic matrix from {(a, b): a's wins out of 100 against b}, both orders filled."""
    from azuki.stats import rate
    ds = sorted({d for ab in rates for d in ab})
    m = {a: {} for a in ds}
    for a in ds:
        for b in ds:
            w = 50 if a == b else rates.get((a, b), 100 - rates.get((b, a), 50))
            m[a][b] = dict(rate(w, 100), losses=100 - w)
    return {"matrix": m}


def test_objective_leaves_out_fixed_pairs():
    m = _matrix({("A", "B"): 80, ("A", "C"): 60, ("B", "C"): 45})
    assert B.objective(m) == pytest.approx(0.3)
    assert B.objective(m, skip={frozenset("AB")}) == pytest.approx(0.1)
    assert B._worst(m) == ("A", "B") and B._worst(m, skip={frozenset("AB")}) == ("A", "C")
    assert B.spread(m, skip={frozenset("AB"), frozenset("AC")}) == pytest.approx(0.05 ** 2)


def test_fixed_pairs_and_merge_changes():
    doc = B.load_doc(EXPANSION)
    decks = ["STT01", "STT02", "EXP01-FIRE"]
    assert B.fixed_pairs(doc, decks, ("STT01-", "STT02-")) == {frozenset(("STT01", "STT02"))}
    assert B.fixed_pairs(doc, decks, ()) == frozenset()
    assert B.merge_changes([("x", "cost", 1), ("y", "health", -1), ("x", "cost", 1), ("y", "health", 1)]) == \
        [("x", "cost", 2)]


def test_candidates_respect_frozen_cards_steps_and_deck_moves():
    doc = B.load_doc(EXPANSION)
    by = {c["id"]: c for c in doc["cards"]}
    m = _matrix({("EXP01-FIRE", "STT01"): 90})
    frozen = ("STT01-", "STT02-")
    cands = B._candidates(doc, [], m, None, [], frozen=frozen)
    assert cands and all(len(mv) == 1 for mv in cands)                      # single-card moves only
    flat = [ch for mv in cands for ch in mv]
    assert all(c.startswith("EXP01-") for c, _, _ in flat)                  # the frozen weak deck is not buffed
    assert all(d == {"cost": 1, "attack": -1, "health": -1}[f] for _, f, d in flat)   # nerfs of the strong deck
    cid = next(c for c, f, _ in flat if f == "health" and by[c]["health"] >= 3)
    one = B._candidates(doc, [], m, None, [(cid, "health", -1)], frozen=frozen, max_step=1)
    assert (cid, "health", -1) not in [ch for mv in one for ch in mv]       # at most 1 in total per (card, field)
    two = B._candidates(doc, [], m, None, [(cid, "health", -1)], frozen=frozen, max_step=2)
    assert [(cid, "health", -1)] in two
    wide = B._candidates(doc, [], m, None, [], frozen=frozen, deck_moves=True)
    assert len(wide[0]) > 1 and {f for _, f, _ in wide[0]} == {"cost"}     # deck-wide moves come first
    assert B.describe_move(wide[0], doc).startswith(f"EXP01-FIRE: {len(wide[0])} cards (")
    assert B.describe_move(cands[0], doc).startswith(cands[0][0][0] + " ")
    fire = set(B.main_cards(doc, "EXP01-FIRE"))
    for mv in wide[:3]:
        assert {c for c, _, _ in mv} <= fire
        assert all(by[c][f] + d >= 1 for c, f, d in mv if f != "cost")       # no zero-stat bodies


def test_suggest_with_frozen_cards_changes_only_the_others():
    rep = B.run_balance(EXPANSION, do_suggest=True, suggest_k=2, suggest_budget=4, suggest_frozen=("STT01-",),
                        suggest_max_step=2, suggest_deck_moves=True,
                        **dict(SMALL, decks=["STT01", "EXP01-FIRE"], imp_games=0, card_games=0))
    s = rep["suggest"]
    assert s["frozen"] == ["STT01-"] and s["fixed_pairs"] == [] and s["evaluations"] <= 4
    for p in s["proposals"]:
        assert p["changes"] and all(not c["card"].startswith("STT01-") for c in p["changes"])
        assert all(1 <= abs(c["to"] - c["from"]) <= 2 for c in p["changes"])
        assert 1 <= len(p["moves"]) <= 2
    only = B.run_balance(EXPANSION, do_suggest=True, suggest_k=2, suggest_budget=4, suggest_frozen=("STT",),
                         **dict(SMALL, imp_games=0, card_games=0))["suggest"]
    assert only["fixed_pairs"] == [["STT01", "STT02"]] and only["proposals"] == [] and only["evaluations"] == 0
    with pytest.raises(ValueError, match="NOPE"):
        B.run_balance(EXPANSION, do_suggest=True, suggest_frozen=("NOPE",), **dict(SMALL, imp_games=0))


def test_deterministic_and_independent_of_jobs(tmp_path):
    a = B.run_balance(STARTER, **dict(SMALL, imp_games=4))
    b = B.run_balance(STARTER, jobs=2, **dict(SMALL, imp_games=4))
    assert strip(a) == strip(b)
    c = B.run_balance(STARTER, **dict(SMALL, imp_games=4, seed=6))
    assert strip(c)["matchups"] != strip(a)["matchups"]


def test_interrupted_then_resumed_equals_uninterrupted(tmp_path):
    full = B.run_balance(STARTER, out=tmp_path / "full", **SMALL)
    with pytest.raises(KeyboardInterrupt):
        B.run_balance(STARTER, out=tmp_path / "cut", stop_after=3, **SMALL)
    assert not (tmp_path / "cut" / "report.json").exists()
    done = len(list((tmp_path / "cut" / "state").glob("*.json")))
    assert done == 3
    resumed = B.run_balance(STARTER, out=tmp_path / "cut", **SMALL)
    assert resumed["timing"]["units_run"] == full["timing"]["units_run"] - 3
    assert strip(resumed) == strip(full)
    assert (tmp_path / "cut" / "report.html").read_text() == (tmp_path / "full" / "report.html").read_text()


def test_command_line(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "azuki", "balance", STARTER, "--decks", "STT01,STT02", "--games", "4",
                        "--card-games", "2", "--importance-games", "2", "--out", str(tmp_path), "--quiet"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "report.html").exists() and "wrote" in r.stderr
    bad = subprocess.run([sys.executable, "-m", "azuki", "balance", STARTER, "--decks", "NOPE", "--games", "4",
                          "--out", str(tmp_path / "x"), "--quiet"], capture_output=True, text=True, env=env,
                         timeout=600)
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and "NOPE" in bad.stderr
    odd = subprocess.run([sys.executable, "-m", "azuki", "balance", STARTER, "--games", "3", "--quiet"],
                         capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert odd.returncode == 2 and not (tmp_path / "balance-report").exists()


# ---- in the other worlds: Ray (.venv-puffer) and Chromium (.venv-web) --------------------

def _other_venv(name, module):
    py = ROOT / name / "bin" / "python"
    if not py.exists():
        pytest.skip(f"needs {name} (tools/setup_envs.sh)")
    r = subprocess.run([str(py), "-c", f"import {module}"], capture_output=True)
    if r.returncode:
        pytest.skip(f"{name} has no {module}")
    return str(py)


RAY_SCRIPT = """
import json, sys
from azuki import balance as B
kw = dict(decks=["STT01", "STT02"], bots=["greedy"], games=8, card_games=4, imp_games=4, seed=9)
local = B.run_balance(sys.argv[1], **kw)
ray = B.run_balance(sys.argv[1], ray_workers=2, **kw)
strip = lambda r: {k: v for k, v in r.items() if k != "timing"}
print(json.dumps(strip(local) == strip(ray)))
"""


@pytest.mark.slow
def test_ray_two_workers_give_the_identical_report():
    py = _other_venv(".venv-puffer", "ray")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("RAY_ADDRESS", None)          # a local 2-worker instance
    r = subprocess.run([py, "-c", RAY_SCRIPT, STARTER], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip().splitlines()[-1] == "true"


BROWSER_SCRIPT = """
import json, sys
from playwright.sync_api import sync_playwright
from azuki.web.browser import chromium_path, launch
if chromium_path() is None:
    print(json.dumps("skip")); sys.exit(0)
errors = []
with sync_playwright() as pw:
    b = launch(pw)
    pg = b.new_page()
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("request", lambda r: errors.append("request " + r.url) if not r.url.startswith("file:") else None)
    pg.goto("file://" + sys.argv[1])
    svgs = pg.locator("svg").count()
    title = pg.title()
    b.close()
print(json.dumps({"errors": errors, "svgs": svgs, "title": title}))
"""


def test_html_report_opens_in_headless_chromium_without_errors(tmp_path):
    py = _other_venv(".venv-web", "playwright.sync_api")
    B.run_balance(STARTER, out=tmp_path, do_suggest=True, suggest_k=1, suggest_budget=2, **SMALL)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([py, "-c", BROWSER_SCRIPT, str(tmp_path / "report.html")], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    if out == "skip":
        pytest.skip("needs Debian's chromium")
    assert out["errors"] == [] and out["svgs"] >= 3 and "Balance report" in out["title"]


@pytest.mark.parametrize("kw", [dict(bots=["search:abc"]), dict(bots=["greedy:3"]), dict(bots=[]), dict(games=3),
                                dict(decks=["NOPE"]), dict(bots=["nope"])])
def test_bad_arguments_are_refused_before_any_work(tmp_path, kw):
    with pytest.raises(ValueError):
        B.run_balance(STARTER, out=tmp_path / "o", **dict(SMALL, **kw))
    assert not (tmp_path / "o").exists()


def test_finished_work_of_another_build_is_not_reused(tmp_path, monkeypatch):
    kw = dict(SMALL, imp_games=0, card_games=0)
    first = B.run_balance(STARTER, out=tmp_path, **kw)
    assert B.run_balance(STARTER, out=tmp_path, **kw)["timing"]["units_run"] == 0      # all read back
    monkeypatch.setattr(B, "_CODE_ID", ["another engine build"])
    assert B.run_balance(STARTER, out=tmp_path, **kw)["timing"]["units_run"] == first["timing"]["units_run"] > 0


def test_progress_lines_count_the_work_left(tmp_path):
    import io
    from azuki.evaluate import Progress
    text = B.doc_text(B.load_doc(STARTER))
    specs = [{"fn": "match", "text": text, "args": ["greedy", ["STT01", "STT02"], 24, 5, lo, lo + 8, 200]}
             for lo in (0, 8, 16)]
    with pytest.raises(KeyboardInterrupt):
        B.Runner(tmp_path, stop_after=1).run(specs, "m", [8, 8, 8])
    buf = io.StringIO()
    res = B.Runner(tmp_path, progress=Progress(buf, interval=0, command="balance")).run(specs, "m", [8, 8, 8])
    assert res == B.Runner().run(specs)
    lines = buf.getvalue().splitlines()
    assert lines == [f"balance: m (8 games read back from state/): {k}/16 games ({100 * k / 16:.1f}%)"
                     + x.split("%)", 1)[1] for k, x in zip((8, 16), lines)]

"""`azuki eval` as a package of small modules with public seams (issue 31 §5) and the
rating table's streaming and plot (issue 27 §4): the running table and the --jsonl
stream only watch (the final table is the same as without them), the --plot SVG parses
and holds every player, and no module reaches into another's private names."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from azuki import evaluate as E  # noqa: E402
from azuki.eval_plot import plot_result, ratings_svg  # noqa: E402
from azuki.eval_report import format_round_robin, table_from_matches  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = ["random", "greedy", "search:sims=2"]
TIMING = ("seconds", "games_per_second")


def _untimed(x):
    """A result without its wall-time figures (everything else is determined by the seed)."""
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    return x


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "azuki", "eval", *map(str, args)], env=env, cwd=str(REPO),
                          capture_output=True, text=True, timeout=300)


# ---- one seam: public names only --------------------------------------------------------------

EVAL_MODULES = ("evaluate", "eval_players", "eval_schedule", "eval_play", "eval_ray", "eval_report", "eval_plot",
                "arena", "balance", "__main__")      # the last two: callers of the arena


def _private_uses(path):
    """(line, module, text) of every private name taken from another azuki module in
    `path`: `from .m import _x`, or `m._x` where m is an imported azuki module."""
    tree = ast.parse(Path(path).read_text())
    modules, out = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("azuki")):
            src = (node.module or "").removeprefix("azuki.").removeprefix("azuki")
            for a in node.names:
                if not src:                                      # from . import arena
                    modules.add(a.asname or a.name)
                elif a.name.startswith("_") and not a.name.startswith("__"):
                    out.append((node.lineno, src, f"from {src} import {a.name}"))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and node.value.id != "_core" and node.attr.startswith("_") and not node.attr.startswith("__")):
            out.append((node.lineno, node.value.id, f"{node.value.id}.{node.attr}"))
    return out


def test_eval_modules_use_only_public_names_of_each_other():
    """evaluate.py imported arena._play (and balance.py called it): a private seam any
    rename in the arena broke silently. Now play_schedule is public and documented: the
    eval modules take no private name from any module, and no module of azuki takes a
    private name from them."""
    bad = []
    for f in sorted((REPO / "azuki").glob("*.py")):
        for line, src, text in _private_uses(f):
            if f.stem in EVAL_MODULES[:-2] or src in EVAL_MODULES[:-2]:
                bad.append(f"{f.name}:{line}: {text}")
    assert not bad, bad
    import azuki.arena as A
    assert callable(A.play_schedule) and not hasattr(A, "_play")


def test_the_checker_sees_a_private_import(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("from .arena import _play\nfrom . import arena\narena._x(1)\nfrom . import _core\n_core.y\n")
    assert [t for _, _, t in _private_uses(f)] == ["from arena import _play", "arena._x"]


def test_evaluate_keeps_its_public_names():
    for name in ("evaluate", "round_robin", "evaluate_ray", "main", "check_player", "make_player", "parse_bot",
                 "BotPlayer", "PBotPlayer", "vec_deal", "vec_bot_seed", "format_head_to_head",
                 "format_round_robin", "Progress", "DEFAULT_DECKS", "MASK64"):
        assert hasattr(E, name), name


# ---- streaming only watches ---------------------------------------------------------------------

def test_running_tables_and_final_table_are_one_function_of_the_matches():
    seen = []
    rr = E.round_robin(PLAYERS, games_per_pair=8, seed=3, decks=["STT01"],
                       on_match=lambda m, t: seen.append((m, t)))
    plain = E.round_robin(PLAYERS, games_per_pair=8, seed=3, decks=["STT01"])
    assert _untimed(rr) == _untimed(plain)                     # watching changes nothing
    assert [(m["i"], m["j"], m["pair"]) for m, _ in seen] == [(0, 1, 0), (0, 2, 1), (1, 2, 2)]
    # the last running table is the result; the first holds only pair (0, 1)
    assert _untimed(seen[-1][1]) == _untimed(rr)
    first = seen[0][1]
    assert first["matrix"][0][1] is not None and first["matrix"][0][2] is None and first["matrix"][1][2] is None
    assert first["elo"]["elo"][2] is None and first["elo"]["elo"][0] == 0.0      # random anchored once it played
    text = format_round_robin(first, done=(1, 3))
    assert "after 1 of 3 pairings" in text and "search:sims=2  (not yet rated)" in text
    # each pairing's deals: pair p plays seed S + p * games / 2
    for p, (m, _) in enumerate(seen):
        assert m["result"]["seed"] == 3 + p * 4


def test_table_from_matches_without_random_is_mean_zero():
    rr = E.round_robin(["greedy", "search:sims=2", "search:sims=3"][:2] + ["random"], games_per_pair=4,
                       seed=1, decks=["STT01"])
    t = table_from_matches(["greedy", "search:sims=2"], [m for m in rr["matches"] if m["j"] == 1], 4, 1, ["STT01"])
    assert t["elo"]["anchor"] is None and abs(sum(t["elo"]["elo"])) < 1e-6


def test_cli_jsonl_stream_running_table_and_plot(tmp_path):
    jl, svg = tmp_path / "rr.jsonl", tmp_path / "rr.svg"
    r = run_cli(*PLAYERS, "--games", "8", "--seed", "3", "--decks", "STT01", "--json", "--progress",
                "--jsonl", jl, "--plot", svg)
    assert r.returncode == 0, r.stderr
    rr = json.loads(r.stdout)
    lines = [json.loads(x) for x in jl.read_text().splitlines()]
    assert [x["event"] for x in lines] == ["match", "match", "match", "table"]
    for k, x in enumerate(lines[:3]):
        assert (x["pair"], x["pairs"], x["i"], x["j"]) == (k, 3, rr["matches"][k]["i"], rr["matches"][k]["j"])
        assert _untimed(x["result"]) == _untimed(rr["matches"][k]["result"])
    table = lines[3]
    assert _untimed({k: v for k, v in table.items() if k != "event"}) == _untimed(
        {k: v for k, v in rr.items() if k != "matches"})
    assert set(lines[2]["elo"]) == set(PLAYERS) and lines[2]["elo"]["random"] == [0.0, 0.0, 0.0]
    # the same run without streaming gives the same table
    q = run_cli(*PLAYERS, "--games", "8", "--seed", "3", "--decks", "STT01", "--json", "--quiet")
    assert _untimed(json.loads(q.stdout)) == _untimed(rr) and q.stderr == ""
    # running tables on stderr, after each pairing but the last
    assert "after 1 of 3 pairings" in r.stderr and "after 2 of 3 pairings" in r.stderr
    assert "after 3 of 3" not in r.stderr
    _check_svg(svg.read_text(), PLAYERS)


def test_cli_head_to_head_jsonl_and_plot(tmp_path):
    jl, svg = tmp_path / "h.jsonl", tmp_path / "h.svg"
    r = run_cli("greedy", "random", "--games", "8", "--json", "--jsonl", jl, "--plot", svg)
    assert r.returncode == 0, r.stderr
    (line,) = [json.loads(x) for x in jl.read_text().splitlines()]
    assert line["event"] == "match" and _untimed(line["result"]) == _untimed(json.loads(r.stdout))
    assert line["elo"]["random"] == [0.0, 0.0, 0.0]
    _check_svg(svg.read_text(), ["greedy", "random"])


@pytest.mark.parametrize("flag", ["--jsonl", "--plot"])
def test_cli_unwritable_stream_or_plot_fails_before_any_game(tmp_path, flag):
    r = run_cli("greedy", "random", "--games", "200000000", flag, tmp_path / "no" / "such" / "dir" / "f")
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and "Traceback" not in r.stderr, r.stderr


# ---- the plot ---------------------------------------------------------------------------------------

def _check_svg(text, names):
    root = ET.fromstring(text)                                    # well-formed XML
    assert root.tag == SVG + "svg" and float(root.get("width")) > 0 and float(root.get("height")) > 0
    groups = root.findall(f"{SVG}g")
    titles = [g.find(f"{SVG}title").text for g in groups if g.get("class") == "player"]
    assert sorted(titles) == sorted(names)                      # every player, once
    for g in groups:
        if g.find(f"{SVG}circle") is not None:
            c = g.find(f"{SVG}circle")
            assert 0 <= float(c.get("cx")) <= float(root.get("width"))
    return root


def test_plot_escapes_names_and_lists_unrated_players():
    names = ["a<b>&c", "plain", "late"]
    root = _check_svg(ratings_svg(names, [120.0, 0.0, None], [[40.0, 200.0], [0.0, 0.0], None], "t <&>"), names)
    assert len(root.findall(f".//{SVG}circle")) == 2
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "late (not rated)" in texts and "+120 [+40, +200]" in texts


def test_plot_of_a_round_robin_holds_the_matrix():
    rr = E.round_robin(PLAYERS, games_per_pair=4, seed=0, decks=["STT01"])
    root = _check_svg(plot_result(rr), PLAYERS)
    cells = [t.text for t in root.iter(f"{SVG}text") if (t.text or "").endswith("%")]
    assert len(cells) == len(PLAYERS) * (len(PLAYERS) - 1)       # every off-diagonal cell


def test_markdown_table_holds_every_rating_and_cell():
    from azuki.eval_report import format_markdown
    rr = E.round_robin(PLAYERS, games_per_pair=4, seed=0, decks=["STT01"])
    md = format_markdown(rr).splitlines()
    ratings, matrix = md[2:2 + len(PLAYERS)], md[-len(PLAYERS):]
    assert sorted(x.split("`")[1] for x in ratings) == sorted(PLAYERS)
    assert [x.split("`")[1] for x in ratings] == [x.split("`")[1] for x in matrix]        # one order, best first
    assert sum(x.count("%") for x in matrix) == len(PLAYERS) * (len(PLAYERS) - 1)       # every off-diagonal cell


def test_each_rating_carries_its_lead_over_the_next_with_its_own_interval():
    """The table gives each player's lead over the next one down the ranking with the interval of
    that difference (the fit's covariance): anchored at a random bot that loses every game, the
    anchor-relative intervals are wide (they carry random vs the rest), the leads' are not."""
    names = ["a", "b", "random"]
    res = lambda w, l: {"wins": w, "losses": l, "draws": 0, "truncated": 0, "games": w + l,
                        "win_rate": {"rate": w / (w + l), "ci95": [0.0, 1.0]}, "score": w / (w + l)}
    matches = [{"i": 0, "j": 1, "result": res(220, 180)}, {"i": 0, "j": 2, "result": res(40, 0)},
               {"i": 1, "j": 2, "result": res(40, 0)}]
    t = table_from_matches(names, matches, 400, 0, ["STT01"])
    el = t["elo"]
    assert el["next"][2] is None and el["next"][0]["player"] == "b" and el["next"][1]["player"] == "random"
    lead = el["next"][0]
    assert lead["elo"] == pytest.approx(el["elo"][0] - el["elo"][1])
    lo, hi = lead["ci95"]
    assert lo < lead["elo"] < hi and hi - lo < 0.5 * (el["ci95"][0][1] - el["ci95"][0][0])
    text = format_round_robin(t)
    assert f"{lead['elo']:+.0f} [{lo:+.0f}, {hi:+.0f}] over b" in text
    from azuki.eval_report import format_markdown
    assert "lead over the next" in format_markdown(t).splitlines()[0]

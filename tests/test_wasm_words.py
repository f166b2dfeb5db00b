"""The static site's words (azuki/web/static/words.js, a port of
azuki/state.py, view.py, text.py and web/words.py over the WebAssembly
engine) against the Python side's, exactly: seeded games of every bot
pairing over the starter and expansion sets are played in the WASM engine
under node; at every position the play server's payload for seat 0, seat 1
and the full view (azuki.web.sessions.state_payload: the view, the legal
list with labels and places, the banner and prompt words), the events of
every step in words (event_entries, mark_auto_end) and each step's text as
every seat reads it (the replay viewer's `last`) must equal what the Python
side computes for the same position. This test is what keeps the two from
drifting: a wording change in words.py fails it until words.js says the same."""
import json
import os
import shutil
import subprocess

import pytest

import azuki
from azuki.web.server import _card_table
from azuki.web.sessions import _action_text, state_payload
from azuki.web.static_site import site_tables
from azuki.web.words import Words, event_entries, mark_auto_end

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIC = os.path.join(ROOT, "azuki", "web", "static")
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node (Debian: apt-get install nodejs)")
KINDS = {"random": 0, "greedy": 1, "search": 2}
PAIRINGS = [("random", "random"), ("greedy", "random"), ("search", "greedy"), ("greedy", "greedy")]

SCRIPT = r"""
import fs from "fs";
import { loadEngine } from "ENGINE";
import { setTables, WGame, statePayload, eventDicts, eventEntries, markAutoEnd, actionText, Words } from "WORDS";
const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const E = await loadEngine(fs.readFileSync("WASM"));
const cs = job.cardset ? E.loadCardset(fs.readFileSync(job.cardset)) : E.defaultCardset;
setTables(job.tables);
const words = new Words(job.cards);
const out = [];
for (const gm of job.games) {
  const decks = gm.decks, d = decks.map((x) => job.tables_decks.indexOf(x));
  const g = new WGame(E.newGame(cs, gm.seed, d[0], d[1], 0), decks);
  const rng = [E.botRng(gm.seed * 2 + 1), E.botRng(gm.seed * 2 + 2)];
  const frames = [], actions = [];
  let evs = markAutoEnd(eventEntries(g, eventDicts(g, g.g.events()), words, g.turn), null);
  while (true) {
    const f = { payloads: [0, 1, null].map((s) => statePayload(g, s, words)), events: evs };
    frames.push(f);
    if (g.isTerminal || actions.length >= job.max_steps) break;
    const p = g.currentPlayer, a = g.g.botAct(gm.kinds[p], rng[p], job.sims);
    f.action_texts = [0, 1, null].map((s) => actionText(g, a, s, words));
    const t = g.actionType(a);
    if (g.g.step(a) !== 0) throw new Error("refused");
    actions.push(a);
    evs = markAutoEnd(eventEntries(g, eventDicts(g, g.g.events()), words, g.turn), t);
  }
  out.push({ actions, frames });
  g.g.free();
}
fs.writeFileSync(process.argv[3], JSON.stringify(out));
"""


def _norm(x):
    return json.loads(json.dumps(x))


def run_js(tmp_path, cs, cardset_path, games, sims=4, max_steps=400):
    script = (SCRIPT.replace("ENGINE", os.path.join(STATIC, "engine.js")).replace("WORDS", os.path.join(STATIC, "words.js"))
              .replace("WASM", os.path.join(STATIC, "azuki.wasm")))
    (tmp_path / "t.mjs").write_text(script)
    job = {"tables": site_tables(cs), "cards": _card_table(cs), "tables_decks": list(cs.decks), "games": games,
           "cardset": cardset_path, "sims": sims, "max_steps": max_steps}
    (tmp_path / "job.json").write_text(json.dumps(job))
    r = subprocess.run([NODE, str(tmp_path / "t.mjs"), str(tmp_path / "job.json"), str(tmp_path / "out.json")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads((tmp_path / "out.json").read_text())


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _first_diff(a, b, path="$"):
    # JSON has one number type: JS writes the float 1.0 as 1, which Python reads back as an int (a policy
    # probability of exactly 1.0 does that), so numbers are compared by value, everything else by type too
    if _is_number(a) and _is_number(b):
        return None if a == b else f"{path}: {a!r:.300} != {b!r:.300}"
    if type(a) is not type(b):
        return f"{path}: {a!r:.200} != {b!r:.200}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'JS' if k in a else 'Python'}"
            d = _first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}: {a!r:.300} != {b!r:.300}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r:.300} != {b!r:.300}"


def check_games(tmp_path, cards_path, games, **kw):
    cs = azuki.CardSet.from_json(cards_path) if cards_path else azuki.CardSet.default()
    img = None
    if cards_path:
        from azuki.convert import load_cardset
        from azuki.convert.pack import pack_cardset
        img = str(tmp_path / "cardset.bin")
        with open(img, "wb") as f:
            f.write(pack_cardset(load_cardset(cards_path)))
    js = run_js(tmp_path, cs, img, games, **kw)
    words = Words(_card_table(cs))
    kinds_seen = set()
    for gm, res in zip(games, js):
        g = azuki.Game(seed=gm["seed"], decks=tuple(gm["decks"]), cards=cs)
        evs = mark_auto_end(event_entries(g, g.events(), words, g.turn), None)
        for i, f in enumerate(res["frames"]):
            for s, p in zip((0, 1, None), f["payloads"]):
                want = _norm(state_payload(g, s, words))
                if want["view"].get("prompt"):
                    kinds_seen.add(want["view"]["prompt"].get("kind"))
                d = _first_diff(p, want)
                assert d is None, f"game {gm}, step {i}, seat {s}: {d}"
            d = _first_diff(f["events"], _norm(evs))
            assert d is None, f"game {gm}, step {i}, events: {d}"
            if i < len(res["actions"]):
                a = res["actions"][i]
                want = [_action_text(g, a, s, words) for s in (0, 1, None)]
                assert f["action_texts"] == want, f"game {gm}, step {i}"
                t = g.decode(a)[0]
                g.step(a)
                evs = mark_auto_end(event_entries(g, g.events(), words, g.turn), t)
    return kinds_seen


def _games(decks, n, seed0):
    return [{"seed": seed0 + i, "decks": list(decks[i % len(decks)]), "kinds": [KINDS[k] for k in PAIRINGS[i % len(PAIRINGS)]]}
            for i in range(n)]


def test_words_js_equals_python_on_the_starter_set(tmp_path):
    kinds = check_games(tmp_path, None, _games([("STT01", "STT02"), ("STT02", "STT01")], 8, 100))
    assert kinds, "no prompt reached"


def test_words_js_equals_python_on_the_expansion_set(tmp_path):
    exp = os.path.join(ROOT, "azuki", "data", "expansion.json")
    cs = azuki.CardSet.from_json(exp)
    decks = [(cs.decks[i], cs.decks[-1 - i]) for i in range(len(cs.decks))]
    kinds = check_games(tmp_path, exp, _games(decks, 8, 300))
    assert len(kinds) >= 3, kinds


REPLAY_SCRIPT = r"""
import fs from "fs";
import { loadEngine } from "ENGINE";
import { setTables } from "WORDS";
import { Site } from "SESSION";
const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const E = await loadEngine(fs.readFileSync("WASM"));
setTables(job.site.tables);
const site = new Site(E, E.defaultCardset, job.site);
const r = site.openReplay(job.text);
const out = { open: r, payloads: [] };
for (const [step, view] of job.asks) {
  const p = site.replayState({ replay: r.replay, step, view });
  delete p.replay;
  out.payloads.push(p);
}
out.refused = job.bad.map((text) => {
  try { site.openReplay(text); return null; } catch (e) { return [e.status, e.message]; }
});
fs.writeFileSync(process.argv[3], JSON.stringify(out));
"""


def test_replay_viewer_payloads_equal_the_servers(tmp_path):
    """The static site's replay sessions (session.js) give the play server's
    replay payloads (azuki.web.sessions.ReplaySession): the position in every
    view, the log with its step marks, the step that led here as each seat
    reads it, the checkpoint's inspection record in the full view; and a
    replay that diverges is refused with the server's message."""
    from azuki.policy_np import REFERENCE, annotate_replay, load_numpy_policy
    from azuki.replay import record_random_game
    from azuki.web.sessions import ReplaySession
    from azuki.web.static_site import site_meta, site_tables
    cs = azuki.CardSet.default()
    rep = annotate_replay(record_random_game(2 ** 60 + 7), 1, load_numpy_policy(REFERENCE))
    n = len(rep["steps"])
    asks = [[k, v] for k in (0, 1, 2, 5, n // 2, n - 1, n) for v in ("full", "0", "1")]
    bad = json.loads(json.dumps(rep))
    bad["steps"][3]["hash"] = "0" * 16
    illegal = json.loads(json.dumps(rep))        # an action not legal at step 4
    g = azuki.Game(seed=rep["seed"])
    for st in rep["steps"][:4]:
        g.step(st["action"])
    illegal["steps"][4]["action"] = next(a for a in range(azuki.NUM_ACTIONS) if not g.is_legal(a))
    over = json.loads(json.dumps(rep))           # a step after the end
    over["steps"].append(dict(over["steps"][-1]))
    site = {"meta": site_meta(cs), "tables": site_tables(cs), "cards_source": None, "weights": {}}
    script = (REPLAY_SCRIPT.replace("ENGINE", os.path.join(STATIC, "engine.js"))
              .replace("WORDS", os.path.join(STATIC, "words.js")).replace("SESSION", os.path.join(STATIC, "session.js"))
              .replace("WASM", os.path.join(STATIC, "azuki.wasm")))
    (tmp_path / "t.mjs").write_text(script)
    (tmp_path / "job.json").write_text(json.dumps({"site": site, "text": json.dumps(rep), "bad": [json.dumps(x) for x in (bad, illegal, over)],
                                                   "asks": asks}))
    r = subprocess.run([NODE, str(tmp_path / "t.mjs"), str(tmp_path / "job.json"), str(tmp_path / "out.json")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    js = json.loads((tmp_path / "out.json").read_text())
    sess = ReplaySession(json.loads(json.dumps(rep)), names=Words(_card_table(cs)))
    assert js["open"]["steps"] == n and js["open"]["message"] == sess.message and js["open"]["inspection"]
    assert sum(1 for p in js["payloads"] if "policy" in p) >= 2
    for (k, v), p in zip(asks, js["payloads"]):
        want = _norm(sess.payload(k, "full" if v == "full" else int(v)))
        want.pop("replay")
        d = _first_diff(p, want)
        assert d is None, f"step {k}, view {v}: {d}"
    from azuki.web.sessions import RequestError
    for x, got in zip((bad, illegal, over), js["refused"]):
        with pytest.raises(RequestError) as e:
            ReplaySession(x, names=Words(_card_table(cs)))
        assert got == [e.value.status, e.value.message]

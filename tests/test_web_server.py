"""The play server (azuki/web, `python -m azuki play`; docs/play.md): it never
sends hidden information, and bad or stale requests get a clear error and
change nothing. No browser needed (tests/web has the browser tests)."""
import json
import os
import random
import shutil
import threading
import urllib.error
import urllib.request

import pytest

import azuki
from azuki.policy_np import REFERENCE, CheckpointError, NumpyPolicyPlayer, load_numpy_policy
from azuki.view import seat_view
from azuki.web.server import App, serving
from azuki.web.sessions import state_payload

HAVE_REF = os.path.exists(REFERENCE + ".npz")
try:
    load_numpy_policy(REFERENCE)
    REF_FITS = None
except CheckpointError as e:
    REF_FITS = str(e)


def test_shipped_reference_fits_this_build():
    """The reference checkpoint in the package must match this build's
    observation layout, action space and card set; after a change to any of
    them, run `bash tools/make_reference.sh` and commit azuki/data/reference/."""
    assert HAVE_REF, "azuki/data/reference/reference.npz is missing: run bash tools/make_reference.sh"
    assert REF_FITS is None, f"{REF_FITS}\n-> run bash tools/make_reference.sh and commit azuki/data/reference/"


@pytest.fixture(scope="module")
def server():
    app = App(runs="/nonexistent")
    with serving(app) as url:
        yield app, url


def call(url, method, path, body=None, raw=None, headers=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    r = urllib.request.Request(url + path.lstrip("/"), method=method, data=data,
                               headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(r, timeout=60) as f:
            return f.status, json.loads(f.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def new_game(url, **kw):
    body = {"mode": "bot", "opponent": "random", "human_seat": 0, **kw}
    st, r = call(url, "POST", "/api/new", body)
    assert st == 200, r
    return r["game"], r["keys"]


def state(url, gid, seat, key, since=0):
    st, p = call(url, "GET", f"/api/game/{gid}?seat={seat}&key={key}&since={since}")
    assert st == 200, p
    return p


# ---- hidden information ---------------------------------------------------------------

def test_state_payload_is_invariant_under_resampling():
    """What the server sends for a seat is a function of that seat's
    information set: redrawing the hidden cards (Game.resample) changes
    nothing in it, at every kind of decision point of random games."""
    rng = random.Random(5)
    n = 0
    for k in range(16):
        g = azuki.Game(seed=500 + k, decks=[("STT01", "STT02"), ("STT02", "STT01"), ("STT01", "STT01")][k % 3])
        while not g.is_terminal:
            if rng.random() < 0.1:
                for seat in (0, 1):
                    ref = json.dumps(state_payload(g, seat), sort_keys=True)
                    for _ in range(2):
                        h = g.clone()
                        h.resample(seat, rng.randrange(1 << 64))
                        assert json.dumps(state_payload(h, seat), sort_keys=True) == ref
                    n += 1
            g.step(rng.choice(list(g.legal_actions())))
    assert n > 100


def test_server_sends_only_the_seat_view_and_hides_drawn_cards(server):
    """Hot-seat game played through HTTP to the end: every response's state
    part is exactly state_payload(seat) (so the resampling test covers it),
    and the opponent's draws are never named in a seat's log."""
    app, url = server
    st, r = call(url, "POST", "/api/new", {"mode": "hotseat", "seed": 11})
    assert st == 200 and set(r["keys"]) == {"0", "1"}
    gid, keys = r["game"], r["keys"]
    sess = app.store.get("game", gid)
    rng = random.Random(2)
    since = {0: 0, 1: 0}
    names = {c: v["name"] for c, v in app.cards.items()}
    for _ in range(400):
        for seat in (0, 1):
            p = state(url, gid, seat, keys[str(seat)], since[seat])
            since[seat] = p["next_event"]
            want = state_payload(sess.game, seat)
            assert {k: p[k] for k in want} == json.loads(json.dumps(want))
            assert "policy" not in json.dumps(p)
            for e in p["events"]:
                if e["type"] == "DRAWN" and e["player"] == 1 - seat:
                    assert e["text"].endswith("draws a card"), e
            opp_hand = sess.game.state_dict()["players"][1 - seat]["hand"]
            vis = p["view"]["players"][1 - seat]["hand"]
            assert len(vis) == len(opp_hand)
            assert all(c is None or c in opp_hand for c in vis)
        if p["over"]:
            break
        d = p["decider"]
        p = state(url, gid, d, keys[str(d)], since[d])
        a = rng.choice(p["legal"])["id"]
        st, q = call(url, "POST", f"/api/game/{gid}/act",
                     {"seat": d, "key": keys[str(d)], "token": p["token"], "action": a, "since": since[d]})
        assert st == 200, q
        since[d] = q["next_event"]
    assert sess.game.is_terminal
    assert set(names)  # card table served


def test_meta_has_the_engine_tables(server):
    _, url = server
    st, m = call(url, "GET", "/api/meta")
    assert st == 200
    assert [r["name"] for r in m["prompt_kinds"]] == list(azuki.spec_autogen.PROMPT)
    assert [r["name"] for r in m["statuses"]] == list(azuki.spec_autogen.STATUS)
    assert {o["id"] for o in m["opponents"]} >= {"random", "greedy", "search"}
    assert m["cards"]["STT01-001"]["name"]


# ---- bad and stale requests -----------------------------------------------------------

def test_bad_requests_change_nothing(server):
    app, url = server
    gid, keys = new_game(url, seed=3)
    key = keys["0"]
    sess = app.store.get("game", gid)
    p = state(url, gid, 0, key)
    h0, tok = sess.game.state_hash(), p["token"]
    legal = [a["id"] for a in p["legal"]]
    illegal = next(a for a in range(azuki.NUM_ACTIONS) if a not in legal)
    cases = [
        ({"seat": 0, "key": key, "token": "999", "action": legal[0]}, 409, "stale"),
        ({"seat": 0, "key": key, "token": tok, "action": illegal}, 400, "not legal"),
        ({"seat": 0, "key": key, "token": tok, "action": -5}, 400, "not legal"),
        ({"seat": 0, "key": key, "token": tok, "action": 10 ** 30}, 400, "not legal"),
        ({"seat": 0, "key": key, "token": tok, "action": True}, 400, "integer"),
        ({"seat": 0, "key": key, "token": tok, "action": "1"}, 400, "integer"),
        ({"seat": 0, "key": "nope", "token": tok, "action": legal[0]}, 403, "key"),
        ({"seat": 1, "key": key, "token": tok, "action": legal[0]}, 403, "not a human"),
        ({"seat": 2, "key": key, "token": tok, "action": legal[0]}, 400, "seat"),
        ([1, 2], 400, "object"),
    ]
    for body, status, words in cases:
        st, r = call(url, "POST", f"/api/game/{gid}/act", body)
        assert st == status and words in r["error"], (body, st, r)
        assert sess.game.state_hash() == h0 and p["token"] == tok
    for raw, status in ((b"{not json", 400), (b"\xff\xfe", 400)):
        st, r = call(url, "POST", f"/api/game/{gid}/act", raw=raw)
        assert st == status and "error" in r
    st, r = call(url, "POST", f"/api/game/{gid}/act", raw=b"x" * (1 << 17))
    assert st == 413
    assert call(url, "GET", f"/api/game/{gid}?seat=1&key={key}")[0] == 403     # the bot's seat: never served
    assert call(url, "GET", f"/api/game/{gid}?seat=0&key=wrong")[0] == 403
    assert call(url, "GET", f"/api/game/{gid}?seat=x&key={key}")[0] == 400
    assert call(url, "GET", f"/api/game/nope?seat=0&key={key}")[0] == 404
    assert call(url, "GET", f"/api/game/{gid}/replay?seat=0&key={key}")[0] == 409   # not over: hands hidden
    assert call(url, "GET", "/api/nothing")[0] == 404
    assert call(url, "GET", "/../../etc/passwd")[0] == 404
    assert call(url, "DELETE", "/api/meta")[0] == 405
    assert call(url, "GET", "/api/meta", headers={"Host": "evil.example"})[0] == 403
    assert call(url, "POST", "/api/new", {"mode": "bot"}, headers={"Origin": "http://evil.example"})[0] == 403
    for body in ({"mode": "x"}, {"decks": ["NOPE", "STT01"]}, {"opponent": "alphazero"}, {"human_seat": 3},
                 {"opponent": "search", "sims": 0}, {"extra": 1}, {"seed": -1}):
        st, r = call(url, "POST", "/api/new", body)
        assert st == 400 and r["error"], body
    assert sess.game.state_hash() == h0
    # the legal action still works afterwards
    st, r = call(url, "POST", f"/api/game/{gid}/act", {"seat": 0, "key": key, "token": tok, "action": legal[0]})
    assert st == 200 and r["token"] != tok


def test_two_tabs_second_gets_stale_error(server):
    app, url = server
    gid, keys = new_game(url, seed=4)
    a = state(url, gid, 0, keys["0"])
    b = state(url, gid, 0, keys["0"])          # a second tab, same state
    st, r = call(url, "POST", f"/api/game/{gid}/act",
                 {"seat": 0, "key": keys["0"], "token": a["token"], "action": a["legal"][0]["id"]})
    assert st == 200
    h = app.store.get("game", gid).game.state_hash()
    st, r = call(url, "POST", f"/api/game/{gid}/act",
                 {"seat": 0, "key": keys["0"], "token": b["token"], "action": b["legal"][-1]["id"]})
    assert st == 409 and "stale" in r["error"] and r["token"] != b["token"]
    assert app.store.get("game", gid).game.state_hash() == h


def test_many_games_at_once(server):
    """Eight games played to the end concurrently (one thread each)."""
    _, url = server
    errors, results = [], []

    def play(seed):
        try:
            gid, keys = new_game(url, seed=seed, opponent="greedy", human_seat=seed % 2)
            seat = seed % 2
            rng = random.Random(seed)
            p = state(url, gid, seat, keys[str(seat)])
            while not p["over"]:
                st, p = call(url, "POST", f"/api/game/{gid}/act",
                             {"seat": seat, "key": keys[str(seat)], "token": p["token"],
                              "action": rng.choice(p["legal"])["id"]})
                assert st == 200, p
            results.append(p["result"])
        except Exception as e:   # reported below
            errors.append(repr(e))

    ts = [threading.Thread(target=play, args=(100 + i,)) for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(300)
    assert not errors and len(results) == 8


@pytest.mark.parametrize("opponent,sims", [("search", 8), ("greedy", None)])
def test_full_game_against_each_bot(server, opponent, sims):
    _, url = server
    kw = {"sims": sims} if sims else {}
    gid, keys = new_game(url, seed=31, opponent=opponent, **kw)
    rng = random.Random(31)
    p = state(url, gid, 0, keys["0"])
    assert p["players"] == ["human", f"search ({sims} sims)" if sims else opponent]
    while not p["over"]:
        st, p = call(url, "POST", f"/api/game/{gid}/act",
                     {"seat": 0, "key": keys["0"], "token": p["token"], "action": rng.choice(p["legal"])["id"]})
        assert st == 200, p
    assert p["result"] in ("WIN_P0", "WIN_P1", "DRAW", "TRUNCATED")


def test_cap_and_idle_timeout():
    app = App(runs="/nonexistent", max_games=2, idle_s=3600)
    with serving(app) as url:
        g1, k1 = new_game(url)
        new_game(url)
        st, r = call(url, "POST", "/api/new", {"mode": "bot"})
        assert st == 503 and "too many" in r["error"]
        app.store.idle_s = 0.0          # everything is idle now: the reaper frees it
        app.store.reap()
        st, r = call(url, "GET", f"/api/game/{g1}?seat=0&key={k1['0']}")
        assert st == 404 and "freed" in r["error"]
        app.store.idle_s = 3600
        new_game(url)


# ---- replays ------------------------------------------------------------------------------

def test_replay_saved_and_viewed_with_hash_check(server):
    app, url = server
    gid, keys = new_game(url, seed=9)
    rng = random.Random(9)
    p = state(url, gid, 0, keys["0"])
    while not p["over"]:
        st, p = call(url, "POST", f"/api/game/{gid}/act",
                     {"seat": 0, "key": keys["0"], "token": p["token"], "action": rng.choice(p["legal"])["id"]})
    st, rep = call(url, "GET", f"/api/game/{gid}/replay?seat=0&key={keys['0']}")
    assert st == 200 and azuki.replay.verify_replay(rep)[0]
    st, r = call(url, "POST", "/api/replay", rep)
    assert st == 200 and r["steps"] == len(rep["steps"])
    rid = r["replay"]
    n = r["steps"]
    for k in (0, 1, n // 2, n):
        for view in ("0", "1", "full"):
            st, v = call(url, "GET", f"/api/replay/{rid}?step={k}&view={view}")
            assert st == 200 and v["step"] == k
            if view != "full":
                g = app.store.get("replay", rid).games[k]
                assert v["view"] == json.loads(json.dumps(seat_view(g, int(view))))
    assert call(url, "GET", f"/api/replay/{rid}?step={n + 1}&view=full")[0] == 400
    assert call(url, "GET", f"/api/replay/{rid}?step=0&view=2")[0] == 400
    bad = json.loads(json.dumps(rep))
    bad["steps"][3]["hash"] = "0" * 16
    st, r = call(url, "POST", "/api/replay", bad)
    assert st == 400 and "diverged at step 3" in r["error"]
    st, r = call(url, "POST", "/api/replay", {"format": "azuki-replay/1"})
    assert st == 400 and "missing key" in r["error"]
    st, r = call(url, "POST", "/api/replay", dict(rep, cards="/etc/passwd"))
    assert st == 400 and "card set" in r["error"]


def test_record_file_opens_in_viewer(server, tmp_path):
    _, url = server
    from azuki.replay import record_random_game
    rep = record_random_game(4)
    st, r = call(url, "POST", "/api/replay", rep)
    assert st == 200 and r["steps"] == len(rep["steps"]) and not r["inspection"]


# ---- the checkpoint player ----------------------------------------------------------------

@pytest.mark.skipif(REF_FITS is not None, reason="the reference does not fit this build (see the test above)")
def test_reference_opponent_inspection_only_in_replay(server):
    """A checkpoint opponent's probabilities and value are recorded in the
    replay (the viewer's full view shows them) and never in a live payload."""
    app, url = server
    gid, keys = new_game(url, seed=21, opponent="ckpt:reference", human_seat=1)
    rng = random.Random(3)
    p = state(url, gid, 1, keys["1"])
    while not p["over"]:
        assert "policy" not in json.dumps(p) and "value" not in p
        st, p = call(url, "POST", f"/api/game/{gid}/act",
                     {"seat": 1, "key": keys["1"], "token": p["token"], "action": rng.choice(p["legal"])["id"]})
        assert st == 200, p
    st, rep = call(url, "GET", f"/api/game/{gid}/replay?seat=1&key={keys['1']}")
    agent_steps = [i for i, s in enumerate(rep["steps"]) if s["player"] == 0]
    assert agent_steps and all("policy" in rep["steps"][i] for i in agent_steps)
    assert azuki.replay.verify_replay(rep)[0]       # the extra field leaves the hash check intact
    st, r = call(url, "POST", "/api/replay", rep)
    assert r["inspection"]
    k = agent_steps[len(agent_steps) // 2]
    st, full = call(url, "GET", f"/api/replay/{r['replay']}?step={k}&view=full")
    assert full["policy"]["player"] == 0 and abs(sum(p for _, p, _ in full["policy"]["probs"]) - 1) < 0.2
    st, seat = call(url, "GET", f"/api/replay/{r['replay']}?step={k}&view=1")
    assert "policy" not in seat


@pytest.mark.skipif(REF_FITS is not None, reason="the reference does not fit this build (see the test above)")
def test_numpy_player_plays_and_refuses_other_layouts(tmp_path):
    p = NumpyPolicyPlayer.load(REFERENCE, seed=1)
    g = azuki.Game(seed=2)
    while not g.is_terminal:
        a = p.act(g)
        assert g.is_legal(a)
        g.step(a)
        assert p.last["probs"][0][1] >= p.last["probs"][-1][1]
    for f in (".npz", ".json"):
        shutil.copy(REFERENCE + f, tmp_path / ("ref" + f))
    meta = json.loads((tmp_path / "ref.json").read_text())
    meta["hashes"]["obs_layout"] = "0" * 16
    (tmp_path / "ref.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="observation layout"):
        load_numpy_policy(tmp_path / "ref")
    with pytest.raises(CheckpointError, match="cannot read"):
        load_numpy_policy(tmp_path / "missing")
    # the server offers it as unavailable, with the reason, and refuses a game against it
    app = App(runs="/nonexistent", checkpoints=[str(tmp_path / "ref")])
    opp = {o["id"]: o for o in app.meta["opponents"]}["ckpt:ckpt0"]
    assert "observation layout" in opp["error"]
    with pytest.raises(Exception, match="unavailable"):
        app.new_game({"mode": "bot", "opponent": "ckpt:ckpt0"})


def test_play_command_serves_the_page():
    """`python -m azuki play` prints its URL; the page and the API answer there."""
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "azuki", "play", "--runs", "/nonexistent"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("azuki play: open http://127.0.0.1:"), line
        url = line.split("open ", 1)[1].split()[0]
        for path, ctype in (("", "text/html"), ("app.js", "text/javascript"), ("style.css", "text/css")):
            with urllib.request.urlopen(url + path, timeout=30) as f:
                assert f.status == 200 and f.headers["Content-Type"].startswith(ctype)
                assert f.headers["Cache-Control"] == "no-store"
        st, meta = call(url, "GET", "/api/meta")
        assert st == 200 and meta["decks"]
    finally:
        proc.terminate()
        proc.wait(30)


def test_play_cli_help():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "azuki", "play", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "--open" in r.stdout and "browser" in r.stdout

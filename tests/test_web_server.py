"""The play server (azuki/web, `python -m azuki play`; docs/play.md): it never
sends hidden information, and bad or stale requests get a clear error and
change nothing. No browser needed (tests/web has the browser tests)."""
import json
import os
import random
import shutil
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

import azuki
from azuki.policy_np import REFERENCE, CheckpointError, NumpyPolicyPlayer, load_numpy_policy
from azuki.view import seat_view
from azuki.web.server import KEY_HEADER, App, serving
from azuki.web.sessions import RequestError, state_payload

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


def call(url, method, path, body=None, raw=None, headers=None, as_page=True):
    """One request. as_page: a seat key written in the path's query
    (`key=K`) or in an act body goes, as the page sends it, in the
    X-Azuki-Key header (as_page=False sends the request as written)."""
    headers = dict(headers or {})
    if as_page:
        u = urllib.parse.urlsplit(path)
        q = urllib.parse.parse_qsl(u.query, keep_blank_values=True)
        if any(k == "key" for k, _ in q):
            headers[KEY_HEADER] = [v for k, v in q if k == "key"][-1]
            path = urllib.parse.urlunsplit(u._replace(query=urllib.parse.urlencode([(k, v) for k, v in q
                                                                                    if k != "key"])))
        if isinstance(body, dict) and "key" in body:
            body = dict(body)
            if isinstance(body["key"], str):
                headers[KEY_HEADER] = body["key"]
            del body["key"]
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    r = urllib.request.Request(url + path.lstrip("/"), method=method, data=data,
                               headers={"Content-Type": "application/json", **headers})
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
            want = state_payload(sess.game, seat, app.names)
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
                g = app.store.get("replay", rid).game_at(k)
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


# ---- the server under abuse (issue 24 §2): bounded uploads, bounded thinking, keys, hosts, sockets ----

def _raw_request(url, head, body=b"", close_after_send=False, timeout=60):
    """Send `head` (request line + headers, no final blank line) and `body` on
    a raw loopback socket; the (status, JSON) answer, or None when
    close_after_send (the client leaves without reading)."""
    import socket
    port = urllib.parse.urlsplit(url).port
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(head.encode() + b"\r\n\r\n" + body)
        if close_after_send:
            return None
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        hdr, _, payload = data.partition(b"\r\n\r\n")
        return int(hdr.split()[1]), json.loads(payload)
    finally:
        s.close()


def _post_head(url, path, n, extra=""):
    port = urllib.parse.urlsplit(url).port
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {n}{extra}")


def _finished_replay(url, seed=9):
    gid, keys = new_game(url, seed=seed)
    rng = random.Random(seed)
    p = state(url, gid, 0, keys["0"])
    while not p["over"]:
        st, p = call(url, "POST", f"/api/game/{gid}/act",
                     {"seat": 0, "key": keys["0"], "token": p["token"], "action": rng.choice(p["legal"])["id"]})
    st, rep = call(url, "GET", f"/api/game/{gid}/replay?seat=0&key={keys['0']}")
    assert st == 200
    return rep


def test_replay_uploads_are_bounded_and_checked_field_by_field(server):
    """What an upload may cost is bounded before it is parsed (size, number of
    JSON objects/arrays, nesting) and every field is checked before anything
    is built: each bad upload gets a 4xx with a clear message and nothing is
    stored. (Before: 16 MB of `{}` was parsed into 5.6 M dicts, and a replay
    with a malformed `policy` was stored, then every full-view request of
    that step was a 500.)"""
    from azuki.web import server as W
    from azuki.web.sessions import MAX_REPLAY_STEPS
    app, url = server
    rep = _finished_replay(url)
    before = len(app.store.replays)

    def upload(raw):
        return _raw_request(url, _post_head(url, "/api/replay", len(raw)), raw)

    # size: refused from the Content-Length alone (the body is never read)
    st, r = _raw_request(url, _post_head(url, "/api/replay", W.MAX_REPLAY_BODY + 1))
    assert st == 413 and "too large" in r["error"]
    # count: many empty objects, well under the size limit
    many = json.dumps(dict(rep, steps=[{}] * (W.MAX_REPLAY_CONTAINERS + 1))).encode()
    assert len(many) <= W.MAX_REPLAY_BODY
    st, r = upload(many)
    assert st == 413 and "too many objects and arrays" in r["error"], r
    # nesting
    deep = json.dumps(dict(rep, players=[[[[[["x"]]]]], "y"])).encode()
    st, r = upload(deep)
    assert st == 413 and "nests too deep" in r["error"], r
    deep = b'{"steps": ' + b"[" * 100000 + b"]" * 100000 + b"}"
    st, r = upload(deep)
    assert st == 413 and "nests too deep" in r["error"], r
    # brackets inside strings are text, not structure
    ok = dict(rep, players=["human", "[[[[[[[[[[{{{{{{{{"])
    st, r = call(url, "POST", "/api/replay", ok)
    assert st == 200, r
    app.store.replays.pop(r["replay"])
    # steps
    long = dict(rep, steps=[{"action": 0, "hash": "0" * 16}] * (MAX_REPLAY_STEPS + 1))
    st, r = call(url, "POST", "/api/replay", long)
    assert st == 413 and "too long" in r["error"], r
    # every field
    k = next(i for i, s in enumerate(rep["steps"]) if i > 0)

    def with_step(**kw):
        bad = json.loads(json.dumps(rep))
        bad["steps"][k].update(kw)
        return bad

    cases = [
        (with_step(policy={"probs": [[1]]}), f"steps[{k}].policy.probs[0]"),
        (with_step(policy={"probs": [[1, 2.0]]}), "probability"),
        (with_step(policy={"probs": [["a", 0.5]]}), "probs[0]"),
        (with_step(policy={"probs": [[azuki.NUM_ACTIONS, 0.5]]}), "probs[0]"),
        (with_step(policy={"probs": "x"}), "policy.probs"),
        (with_step(policy={"value": "high"}), "policy.value"),
        (with_step(policy={"value": float("nan")}), "policy.value"),
        (with_step(policy={"probs": [], "extra": 1}), "policy.extra"),
        (with_step(policy=[1, 2]), "policy"),
        (with_step(player=2), "player"),
        (with_step(player=True), "player"),
        (with_step(action=-1), "action"),
        (with_step(action=1.5), "action"),
        (with_step(hash="zz"), "hash"),
        (with_step(note="hi"), "note"),
        (dict(rep, players="both"), "players"),
        (dict(rep, result="WIN_P7"), "result"),
        (dict(rep, seed=True), "seed"),
        (dict(rep, seed=-1), "seed"),
        (dict(rep, turn_cap="200"), "turn_cap"),
        (dict(rep, decks=["STT01"]), "decks"),
        (dict(rep, initial_hash=123), "initial_hash"),
        (dict(rep, extra={}), "extra"),
        (dict(rep, steps={}), "steps"),
    ]
    for bad, where in cases:
        st, r = call(url, "POST", "/api/replay", bad)
        assert st == 400 and where in r["error"] and "not a valid replay" in r["error"], (where, st, r)
    assert len(app.store.replays) == before
    # a valid policy entry still works, and its full view answers
    good = with_step(policy={"value": 0.25, "probs": [[rep["steps"][k]["action"], 1.0]]})
    st, r = call(url, "POST", "/api/replay", good)
    assert st == 200 and r["inspection"], r
    st, v = call(url, "GET", f"/api/replay/{r['replay']}?step={k}&view=full")
    assert st == 200 and v["policy"]["value"] == 0.25
    # all replays together hold a bounded number of steps
    held = sum(x.n for x in app.store.replays.values())
    budget = app.store.max_stored_steps
    try:
        app.store.max_stored_steps = held + len(rep["steps"]) + 1
        st, r = call(url, "POST", "/api/replay", rep)
        assert st == 200
        n = len(app.store.replays)
        st, r = call(url, "POST", "/api/replay", rep)
        assert st == 503 and "too many steps" in r["error"] and len(app.store.replays) == n
    finally:
        app.store.max_stored_steps = budget


def test_replay_positions_replayed_from_snapshots(server):
    """The viewer keeps a position every SNAP_EVERY steps, not one per step:
    every position it serves equals the replayed game."""
    from azuki.web.sessions import SNAP_EVERY
    app, url = server
    rep = azuki.replay.record_random_game(12)
    st, r = call(url, "POST", "/api/replay", rep)
    assert st == 200
    sess = app.store.get("replay", r["replay"])
    assert len(sess.snaps) == len(rep["steps"]) // SNAP_EVERY + 1
    g = azuki.Game(seed=rep["seed"], decks=tuple(rep["decks"]))
    for i in range(len(rep["steps"]) + 1):
        assert sess.game_at(i).state_hash() == g.state_hash()
        if i < len(rep["steps"]):
            g.step(rep["steps"][i]["action"])


def test_search_opponent_capped_and_time_budget_stops_it():
    """The server enforces the page's cap on search simulations, and a search
    decision stops at the per-decision time budget: with a budget already
    spent (0 s) every decision of a 5,000-simulation bot runs no simulation
    (the C search reads the flag before each one) and the game still plays
    to its end."""
    from azuki.web.server import PLAY_MAX_SIMS
    assert PLAY_MAX_SIMS == 5000
    app = App(runs="/nonexistent", think_s=0.0)
    with serving(app) as url:
        st, m = call(url, "GET", "/api/meta")
        assert {o["id"]: o for o in m["opponents"]}["search"]["sims"]["max"] == PLAY_MAX_SIMS
        for sims in (PLAY_MAX_SIMS + 1, 1_000_000):
            st, r = call(url, "POST", "/api/new", {"mode": "bot", "opponent": "search", "sims": sims})
            assert st == 400 and f"[1, {PLAY_MAX_SIMS}]" in r["error"]
        gid, keys = new_game(url, seed=8, opponent="search", sims=PLAY_MAX_SIMS, human_seat=1)
        sess = app.store.get("game", gid)
        rng = random.Random(8)
        p = state(url, gid, 1, keys["1"])
        while not p["over"]:
            st, p = call(url, "POST", f"/api/game/{gid}/act",
                         {"seat": 1, "key": keys["1"], "token": p["token"], "action": rng.choice(p["legal"])["id"]})
            assert st == 200, p
        assert len(sess.thinking) > 10
        assert all(t == {"sims_run": 0, "stopped": "budget"} for t in sess.thinking), sess.thinking[:5]


def test_a_client_that_leaves_stops_the_bots_thinking():
    """A 1,000,000-simulation search (minutes of CPU) for a request whose
    client closes its connection: the watcher sees the closed socket and the
    search stops between simulations. A new game is dropped; in a game the
    bot's decision is left open and the next request takes it again.

    A new game's first bot decision is its mulligan, which the search bot
    takes without simulating: whether a closed socket is seen there depends
    on whether the client's FIN beats the server to its first check (a race
    CI lost once). So the new-game drop is driven through App.new_game with
    a client that has already left; the socket path is the in-game part,
    where a real search runs and the watcher must see the close."""
    import time
    big = 1_000_000
    app = App(runs="/nonexistent", think_s=3600.0, max_sims=big)
    body = {"mode": "bot", "opponent": "search", "sims": big, "human_seat": 1, "seed": 3}
    with pytest.raises(RequestError) as e:
        app.new_game(body, gone=lambda: True)
    assert e.value.status == 400 and "client left" in str(e.value)
    assert app.dropped == [{"sims_run": 0, "stopped": "left"}]
    assert not app.store.games
    with serving(app) as url:
        # in a game: the human moves, leaves while the bot thinks; the decision waits for the next request
        gid, keys = new_game(url, seed=4, opponent="search", sims=big, human_seat=0)
        sess = app.store.get("game", gid)
        p = state(url, gid, 0, keys["0"])
        while p["decider"] == 0 and not p["over"]:
            a = p["legal"][0]["id"]
            n0 = len(sess.thinking)
            body = json.dumps({"seat": 0, "token": p["token"], "action": a}).encode()
            _raw_request(url, _post_head(url, f"/api/game/{gid}/act", len(body), f"\r\n{KEY_HEADER}: {keys['0']}"),
                         body, close_after_send=True)
            for _ in range(2400):                 # until that request is done
                if sess.token != p["token"] and not sess.lock.locked():
                    break
                time.sleep(0.05)
            if any(t["stopped"] == "left" for t in sess.thinking[n0:]):
                break
            p = state(url, gid, 0, keys["0"])       # no search ran (the mulligan): go on
        with sess.lock:
            assert sess.thinking[-1]["stopped"] == "left" and sess.thinking[-1]["sims_run"] < big
            assert sess.abandoned and sess.game.current_player == 1
        sess.think_s = 0.0                        # the reload's decision: budget spent at once
        p = state(url, gid, 0, keys["0"])
        assert p["decider"] == 0 or p["over"]
        assert sess.thinking[-1] == {"sims_run": 0, "stopped": "budget"}


def test_seat_keys_only_in_a_header_and_never_logged(capsys):
    """A seat key travels in the X-Azuki-Key header: one in a URL or an act
    body is refused (400), and the --verbose log shows no query string (it
    printed the keys before)."""
    app = App(runs="/nonexistent")
    with serving(app, quiet=False) as url:
        gid, keys = new_game(url, seed=2)
        key = keys["0"]
        st, r = call(url, "GET", f"/api/game/{gid}?seat=0&key={key}", as_page=False)
        assert st == 400 and KEY_HEADER in r["error"]
        st, r = call(url, "GET", f"/api/game/{gid}/replay?seat=0&key={key}", as_page=False)
        assert st == 400 and KEY_HEADER in r["error"]
        st, r = call(url, "GET", f"/api/meta?key={key}", as_page=False)
        assert st == 400
        p = state(url, gid, 0, key)
        st, r = call(url, "POST", f"/api/game/{gid}/act",
                     {"seat": 0, "key": key, "token": p["token"], "action": p["legal"][0]["id"]}, as_page=False)
        assert st == 400 and KEY_HEADER in r["error"]
        st, r = call(url, "GET", f"/api/game/{gid}?seat=0", headers={KEY_HEADER: key}, as_page=False)
        assert st == 200 and r["seat"] == 0
        st, r = call(url, "GET", f"/api/game/{gid}?seat=0", as_page=False)
        assert st == 403
    err = capsys.readouterr().err
    assert f"/api/game/{gid}" in err          # the log is on
    assert key not in err and "key=" not in err


def test_host_checks_stay_on_and_allow_the_named_hosts():
    """Host / Origin checks hold for every listening address: the named host
    (--host, --allow-host) is allowed, any other refused (before: a
    non-loopback --host turned the checks off)."""
    import socket as so
    from azuki.web.server import allowed_hosts, exposure_lines, is_loopback
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.org")
    wild = allowed_hosts("0.0.0.0", ["play.example"])
    assert {"127.0.0.1", "localhost", "::1", "play.example", so.gethostname().lower()} <= wild
    assert "evil.example" not in wild and "0.0.0.0" not in wild
    assert "192.168.1.5" in allowed_hosts("192.168.1.5")
    app = App(runs="/nonexistent")
    text = "\n".join(exposure_lines("0.0.0.0", 8000, wild, app))
    assert "NOT only this machine" in text and "play.example" in text and "unencrypted" in text
    with serving(app, allow_hosts=("play.example",)) as url:
        assert call(url, "GET", "/api/meta", headers={"Host": "play.example:8000"})[0] == 200
        assert call(url, "GET", "/api/meta", headers={"Host": "evil.example"})[0] == 403
        assert call(url, "POST", "/api/new", {"mode": "bot"}, headers={"Origin": "http://evil.example"})[0] == 403
        assert call(url, "POST", "/api/new", {"mode": "bot"}, headers={"Origin": "http://play.example:8000"})[0] == 200


def test_play_refuses_a_non_loopback_host_without_expose():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "azuki", "play", "--host", "0.0.0.0", "--runs", "/nonexistent"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--expose" in r.stderr and "open http" not in r.stdout


def test_backlog_takes_a_burst_and_idle_connections_time_out():
    """100 clients connecting at once all get answers (the listen backlog was
    5), and a connection that sends nothing is closed by the server (idle
    sockets held a thread forever)."""
    import socket
    import threading as th
    from azuki.web.server import make_server
    app = App(runs="/nonexistent")
    srv = make_server(app)
    assert srv.RequestHandlerClass.timeout is not None       # idle connections do not live forever
    srv.RequestHandlerClass.timeout = 0.5                    # (30 s by default: not waited for here)
    port = srv.server_address[1]
    socks = []
    t = None
    try:
        for _ in range(100):     # nobody accepts yet: every connection waits in the backlog
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        t = th.Thread(target=srv.serve_forever, daemon=True)
        t.start()
        for s in socks:
            s.settimeout(60)
            s.sendall(f"GET /api/meta HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        for s in socks:
            data = b""
            while chunk := s.recv(65536):
                data += chunk
            assert data.startswith(b"HTTP/1.0 200"), data[:80]
        idle = socket.create_connection(("127.0.0.1", port), timeout=60)
        assert idle.recv(1) == b""          # the server closed it (a recv timeout here would fail the test)
        idle.close()
    finally:
        for s in socks:
            s.close()
        if t:
            srv.shutdown()
        srv.server_close()
        app.store.stop()


def test_card_table_comes_from_the_loaded_card_set():
    """`play --cards` on a set that includes another (the shipped expansion
    includes the starter set): every card of the loaded CardSet has its
    printed facts in the page's table (the included cards had only names)."""
    from azuki.convert import load_cardset
    path = os.path.join(os.path.dirname(azuki.__file__), "data", "expansion.json")
    app = App(cards=path, runs="/nonexistent")
    compiled = load_cardset(path)
    defs = {d["id"]: d for d in compiled.defs}
    included = [c for c in app.cs.ids if c.startswith("STT")]
    assert len(included) >= 30
    for cid in included + list(app.cs.ids):
        row = app.cards[cid]
        assert row["text"] is not None and row["element"] and row["rarity"], row
        for k in ("attack", "health"):
            assert row[k] == defs[cid][k] or (row[k] is None and defs[cid][k] == 0), (cid, k)
        if row["card_type"] in ("entity", "weapon", "spell"):
            assert row["cost"] == defs[cid]["cost"], cid
    assert list(app.cards) == list(app.cs.ids)       # in the set's order


def test_newest_run_finds_a_torch_checkpoint_by_its_json(tmp_path):
    """A torch checkpoint is latest.json plus generation files (docs/training.md):
    `play` finds it by the JSON alone; a play.json without its npz is skipped."""
    from azuki.web.sessions import newest_run
    ck = tmp_path / "a" / "checkpoint"
    ck.mkdir(parents=True)
    (ck / "latest.json").write_text("{}")
    (ck / "latest.g000001.pt").write_bytes(b"")
    assert newest_run(str(tmp_path)) == str(ck / "latest")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "play.json").write_text("{}")
    assert newest_run(str(tmp_path)) == str(ck / "latest")


def test_remote_mode_serves_each_seat_to_its_own_key(server):
    """Two machines (issue 28): a remote game has a key per seat; each key
    opens its seat only (403 otherwise, nothing changed); the server stays
    authoritative (an action for the other seat is refused); a seat learns
    whether the other seat's page has come ("absent" until it asks)."""
    app, url = server
    st, r = call(url, "POST", "/api/new", {"mode": "remote", "seed": 5})
    assert st == 200 and r["mode"] == "remote" and set(r["keys"]) == {"0", "1"}
    gid, keys = r["game"], r["keys"]
    p0 = state(url, gid, 0, keys["0"])
    assert p0["mode"] == "remote" and p0["peer"] == "absent"
    for seat, key in ((1, keys["0"]), (0, keys["1"]), (1, keys["1"] + "x")):
        st, e = call(url, "GET", f"/api/game/{gid}?seat={seat}&key={key}")
        assert st == 403 and "key" in e["error"]
    assert state(url, gid, 0, keys["0"])["peer"] == "absent"     # a wrong key is nobody's presence
    p1 = state(url, gid, 1, keys["1"])
    # seen (connected, or away on a machine slow enough: presence is a time window)
    assert p1["peer"] != "absent" and state(url, gid, 0, keys["0"])["peer"] != "absent"
    assert p1["view"]["players"][0]["hand"] != p0["view"]["players"][0]["hand"] or all(
        c is None for c in p1["view"]["players"][0]["hand"])
    d = p0["decider"]
    pd = state(url, gid, d, keys[str(d)])
    st, e = call(url, "POST", f"/api/game/{gid}/act", {"seat": 1 - d, "key": keys[str(1 - d)],
                                                       "token": pd["token"], "action": pd["legal"][0]["id"]})
    assert st == 409 and "not seat" in e["error"]
    st, q = call(url, "POST", f"/api/game/{gid}/act", {"seat": d, "key": keys[str(d)], "token": pd["token"],
                                                       "action": pd["legal"][0]["id"]})
    assert st == 200 and q["token"] != pd["token"]


def test_routes_are_declared_once_and_documented():
    """The endpoints are one table (azuki.web.server.ROUTES): every route names
    a handler that exists, no two routes serve the same request, and
    docs/play.md's endpoint table lists exactly these method + path pairs."""
    import pathlib
    import re
    from azuki.web import server as srv
    seen = set()
    for r in srv.ROUTES:
        assert callable(getattr(srv.Handler, r.handler, None)), r
        assert r.body is None or len(r.body) == 3
        shape = (r.method, re.sub(r"\{id\}", "*", r.path))
        assert shape not in seen, r
        seen.add(shape)
        assert r.match(r.method, r.path.replace("{id}", "X").split("/")) == ["X"] * r.path.count("{id}")
        assert r.match("PUT", r.path.replace("{id}", "X").split("/")) is None
    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "play.md").read_text()
    documented = {(m, re.sub(r"\bID\b", "{id}", p)) for m, p in re.findall(r"^\| `(GET|POST) /api/([\w/]+)", doc, re.M)}
    assert documented == {(r.method, r.path) for r in srv.ROUTES}
    assert "/api/meta" not in (srv.__doc__ or ""), "the module docstring repeats the route table"

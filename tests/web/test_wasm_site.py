"""The static site (`python -m azuki play --static DIR`, docs/play.md
"Static site") in a real headless Chromium, served by a plain static file
server (http.server: no azuki code answers a request):

* `selftest.html?selftest=N` plays N seeded games in the WebAssembly engine
  inside a Web Worker; their final state hashes and step-hash digests equal
  the native engine's (tests/test_wasm.py native_game), and it reports
  decisions/s, printed beside the native figure measured in the same run;
* the sizes and the first decision after load are reported (figures, not
  asserted: no test depends on speed).

Run by tools/test.sh step "browser" in .venv-web."""
import functools
import gzip
import http.server
import os
import sys
import threading
import time

import pytest

playwright_sync = pytest.importorskip("playwright.sync_api", reason="needs playwright (tools/setup_envs.sh web)")

from azuki import _core  # noqa: E402
from azuki.web.browser import chromium_path  # noqa: E402
from azuki.web.static_site import write_site  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from test_wasm import KINDS, native_game  # noqa: E402
sys.path.pop(0)
from test_browser import browser  # noqa: E402,F401 (the shared fixture)

if chromium_path() is None:
    pytest.skip("needs Debian's chromium (apt-get install chromium)", allow_module_level=True)

TIMEOUT = 60000


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A static site in a temporary directory, served by http.server on loopback."""
    out = tmp_path_factory.mktemp("site")
    write_site(str(out))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield out, f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


def _selftest(browser, url, query):
    ctx = browser.new_context()
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(url + "selftest.html?" + query)
    pg.wait_for_function("() => window.selftestResult !== undefined", timeout=TIMEOUT)
    r = pg.evaluate("() => window.selftestResult")
    ctx.close()
    assert not errors, errors
    assert "error" not in r, r
    return r


@pytest.mark.parametrize("kinds,n,sims", [(("random", "random"), 40, 0), (("greedy", "search"), 1, 4)])
def test_selftest_hashes_match_native(browser, site, kinds, n, sims):  # noqa: F811
    r = _selftest(browser, site[1], f"selftest={n}&seed=900&kinds={','.join(kinds)}&sims={sims}")
    native = [native_game(i, 900, ("STT01", "STT02"), [KINDS[k] for k in kinds], sims) for i in range(n)]
    assert r["hashes"] == native
    assert r["cardset_hash"] == f"{_core.CardSet.default().hash:016x}"


def test_selftest_speed_and_size(browser, site):  # noqa: F811
    """The figures docs/play.md reports: WASM decisions/s in Chromium beside
    the native engine's (the same random games, azk_bot_play_game-style
    loops, measured in the same run), the first decision after load, and the
    module's size gzipped. Printed, not asserted."""
    out, url = site
    n = 2000
    r = _selftest(browser, url, f"selftest={n}&seed=1&warmup=300&repeat=3")
    native_rate = 0.0
    for _ in range(3):     # the best of 3, as the page's figure (a shared machine's noise hits both)
        t = time.perf_counter()
        native = _core.simulate(n, seed=1, players=("random", "random"))
        native_rate = max(native_rate, native["decisions"] / (time.perf_counter() - t))
    size = {f: len(gzip.compress((out / f).read_bytes(), 9)) for f in sorted(os.listdir(out))
            if f.endswith((".wasm", ".js"))}
    # the page itself: navigation -> a game against the greedy bot ready for the human's first decision
    def first_decision(opponent):
        ctx = browser.new_context()
        pg = ctx.new_page()
        pg.goto(url)
        ms = pg.evaluate("""async (opp) => {
          while (!window.AZUKI) await new Promise((r) => setTimeout(r, 5));
          const api = window.AZUKI.api;
          const g = await api.newGame({mode: "bot", opponent: opp, human_seat: 1});
          const p = await api.state(g.game, 1, g.keys[1], 0);
          if (!p.legal.length && !p.over) throw new Error("no decision offered");
          return performance.now();
        }""", opponent)
        ctx.close()
        return ms
    print(f"\npage: first decision offered {first_decision('greedy'):.0f} ms after navigation (site.json, module, "
          f"a new game against greedy)")
    if _module_has_policy():
        print(f"page: against the reference checkpoint (its weights fetched and loaded too): "
              f"{first_decision('ckpt:reference'):.0f} ms")
    print(f"WASM (Chromium, worker): {r['decisions_per_s']:,.0f} decisions/s; native: {native_rate:,.0f} "
          f"decisions/s ({r['decisions_per_s'] / native_rate:.0%}); first decision {r['first_decision_ms']:.0f} ms "
          f"after navigation (module load {r['load_ms']:.0f} ms); gzipped: {size} = {sum(size.values()):,} bytes")
    assert r["decisions"] > 0 and sum(size.values()) < 1 << 20


# ---- the page with no server: full games against every bot, the replay viewer -------------------

from test_browser import check_board, page, start, wait_idle, wait_replay_open  # noqa: E402,F401 (page: the shared fixture)


def _play(page, rng, max_steps=3000):
    from azuki.web.browser import click_action, pick_action
    wait_idle(page)
    stats = {"steps": 0, "prompts": 0}
    for _ in range(max_steps):
        pay = page.evaluate("() => window.AZUKI.S.payload")
        check_board(page, pay["view"])
        if pay["over"]:
            return pay, stats
        legal = pay["legal"]
        kinds = {x["type"] for x in legal}
        if "MULLIGAN_SHUFFLE" in kinds:
            a = next(x for x in legal if x["type"] == "MULLIGAN_KEEP")
        else:
            a = pick_action(legal, rng, 0.85)
        stats["prompts"] += a["type"] == "CHOOSE"
        stats["steps"] += 1
        click_action(page, a)
        wait_idle(page, pay["token"])
    raise AssertionError("game did not end")


def _module_has_policy():
    from azuki.web.static_site import module_has_policy
    return module_has_policy()


@pytest.mark.parametrize("opponent,seat", [("random", 0), ("greedy", 1), ("search", 0),
                                           pytest.param("ckpt:reference", 1, marks=pytest.mark.skipif(
                                               not _module_has_policy(),
                                               reason="the checked-in module has no policy forward pass"))])
def test_static_site_plays_a_full_game_against_each_bot(page, site, opponent, seat):
    """A whole game by clicking against each built-in bot with no server:
    every request is a static file; the saved replay verifies on the native
    engine (the same hash after every step), and the replay viewer steps it
    with the native engine's views."""
    import json
    import random

    from azuki.replay import verify_replay
    from azuki.view import full_view
    out, url = site
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("() => window.AZUKI.transport") == "wasm"
    assert page.locator('input[name="mode"][value="remote"]').is_hidden()
    if opponent == "search":      # a few simulations per decision keep the test short
        page.select_option("#opponent", "search")
        page.evaluate("() => { const r = document.querySelector('#sims'); r.value = 8; r.dispatchEvent(new Event('input')); }")
    if opponent == "search":
        _start_keep(page, seat)
    else:
        start(page, url, seat=seat, opponent=opponent)
    pay, stats = _play(page, random.Random(seat * 7 + len(opponent)))
    assert pay["result"] != "ONGOING" and stats["steps"] > 5
    page.wait_for_selector("#gameover:not(.hidden)")
    assert page.locator("#log li").count() > 10
    with page.expect_download() as dl:
        page.click("#go-save")
    rep = json.loads(open(dl.value.path()).read())
    ok, msg = verify_replay(rep)
    assert ok, msg
    assert rep["players"][seat] == "human"
    want = {"search": "search:sims=8", "ckpt:reference": "checkpoint:reference"}.get(opponent, opponent)
    assert rep["players"][1 - seat] == want
    if opponent.startswith("ckpt:"):    # its inspection record, as the server writes it
        pol = [s["policy"] for s in rep["steps"] if s["player"] == 1 - seat]
        assert pol and all(0 < len(p["probs"]) <= 16 for p in pol)
    page.click("#go-watch")
    page.wait_for_selector("#replay-bar:not(.hidden)")
    wait_replay_open(page, len(rep["steps"]))
    assert "verified" in page.text_content("#replay-info")
    g = _core.Game(seed=rep["seed"], decks=tuple(rep["decks"]))
    for k in (1, 2, 3):
        g.step(rep["steps"][k - 1]["action"])
        page.click("#rp-fwd")
        page.wait_for_function(f"() => document.querySelector('#game').dataset.replayStep === '{k}'")
        check_board(page, json.loads(json.dumps(full_view(g))))
    assert requests and not [u for u in requests if "/api/" in u], "the static site asked a server"
    assert all(u.startswith(url) or u.startswith(("blob:", "data:")) for u in requests), \
        [u for u in requests if not u.startswith(url)]     # offline: nothing from another origin


def _start_keep(page, seat):
    """start() for the search bot, keeping the simulation count set above."""
    page.check('input[name="mode"][value="bot"]')
    page.select_option("#human-seat", str(seat))
    page.click("#start")


def test_replay_file_opens_in_the_static_viewer(page, site, tmp_path):
    """A record file made by the native engine (python -m azuki record's
    format, a seed above 2**53 that a JS number could not hold) opens in the
    static site's replay viewer, verified step by step in WASM, and shows the
    native engine's views; a replay with a wrong hash is refused with the
    step it diverges at."""
    import json

    from azuki.replay import record_random_game
    from azuki.view import full_view, seat_view
    out, url = site
    rep = record_random_game(2 ** 63 + 12345)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rep))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.click("#nav-replay")
    page.set_input_files("#replay-file", str(path))
    wait_replay_open(page, len(rep["steps"]))
    assert "verified" in page.text_content("#replay-info")
    g = _core.Game(seed=rep["seed"], decks=tuple(rep["decks"]))
    for k in (1, 2, 3, 4):
        g.step(rep["steps"][k - 1]["action"])
        page.click("#rp-fwd")
        page.wait_for_function(f"() => document.querySelector('#game').dataset.replayStep === '{k}'")
        check_board(page, json.loads(json.dumps(full_view(g))))
    page.check('input[name="rp-view"][value="1"]')
    page.wait_for_function("() => document.querySelector('#board').dataset.seat === '1'")
    check_board(page, json.loads(json.dumps(seat_view(g, 1))))
    bad = dict(rep, steps=[dict(s) for s in rep["steps"]])
    bad["steps"][5]["hash"] = "0" * 16
    path.write_text(json.dumps(bad))
    page.set_input_files("#replay-file", str(path))
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('diverged at step 5')")


def test_static_site_with_a_card_set_of_your_own(browser, tmp_path):  # noqa: F811
    """--cards: the set's image (pack.py) goes into the site; the page offers
    its decks and the self-test plays them with the native hashes."""
    import json
    exp = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "azuki", "data", "expansion.json")
    out = tmp_path / "site"
    write_site(str(out), cards=exp)
    cs = _core.CardSet.from_json(exp)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{srv.server_address[1]}/"
    try:
        decks = (cs.decks[-1], cs.decks[0])
        r = _selftest(browser, url, f"selftest=3&seed=5&kinds=greedy,random&cardset=cardset.bin&decks={','.join(decks)}")
        assert r["cardset_hash"] == f"{cs.hash:016x}"
        assert r["hashes"] == [native_game(i, 5, decks, [1, 0], 0, cards=cs) for i in range(3)]
        ctx = browser.new_context()
        pg = ctx.new_page()
        pg.goto(url)
        pg.wait_for_selector("body[data-ready='1']")
        opts = pg.eval_on_selector_all("#deck0 option", "els => els.map(e => e.value)")
        assert opts == list(cs.decks)
        assert json.loads((out / "site.json").read_text())["cardset"] == "cardset.bin"
        ctx.close()
    finally:
        srv.shutdown()
        srv.server_close()


def test_static_site_hot_seat_hands_over(page, site):
    """Hot-seat on the static site: the cover hides both hands at each hand-over."""
    # alike: test_browser.py::test_hot_seat_hands_over_and_hides_the_other_hand, the same walk on the
    # server's page, which also checks each view against the server's session (no session here)
    import random

    from azuki.web.browser import click_action, pick_action
    out, url = site
    start(page, url, mode="hotseat")
    page.wait_for_selector("#handover:not(.hidden)")
    rng = random.Random(3)
    handovers = 0
    for _ in range(200):
        if page.locator("#handover:not(.hidden)").count():
            assert page.locator("#hand .card").count() == 0 and page.locator("#board .card").count() == 0
            nxt = int(page.evaluate("() => document.querySelector('#handover').dataset.next"))
            page.click("#handover-go")
            page.wait_for_function(f"() => window.AZUKI.S.payload && window.AZUKI.S.payload.view.seat === {nxt}")
            handovers += 1
            if handovers >= 6:
                break
        pay = page.evaluate("() => window.AZUKI.S.payload")
        assert pay["decider"] == pay["view"]["seat"]
        check_board(page, pay["view"])
        if pay["over"]:
            break
        legal = pay["legal"]
        a = pick_action(legal, rng, 0.6)
        click_action(page, a)
        page.wait_for_function("(t) => !window.AZUKI.S.busy && (!document.querySelector('#handover').classList"
                               ".contains('hidden') || document.querySelector('#board').dataset.token !== t)",
                               arg=pay["token"])
    assert handovers >= 4

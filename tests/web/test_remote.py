"""Browser tests of issue 28 (docs/play.md): two players on two machines
(two browser contexts: invite links with the key in the URL fragment, each
page showing only its own seat, "waiting for the other player", a dropped
connection that reconnects, a reload that rejoins, a wrong key refused), and
the page bugs: the replay viewer keeps its own state apart from the live
game, a game can be left, the hand stays in sight while a prompt is open,
hand names fit their tiles in the replay viewer, the arrow keys step right
after a file is opened, and a turn the engine ends by itself is said.

Real headless Chromium (Debian's `chromium`, Playwright), as tests/web/test_browser.py."""
import json
import random
import re

import pytest

playwright_sync = pytest.importorskip("playwright.sync_api", reason="needs playwright (tools/setup_envs.sh web)")

from azuki.view import seat_view  # noqa: E402
from azuki.web.browser import chromium_path, click_action, pick_action  # noqa: E402

if chromium_path() is None:
    pytest.skip("needs Debian's chromium (apt-get install chromium)", allow_module_level=True)

from test_browser import browser, check_board, server, session_of, start, wait_idle, wait_replay_open  # noqa: E402,F401 (browser, server: the shared fixtures)

TIMEOUT = 30000
# what the page must never show (tests/test_web_words.py checks the server's words the same way)
FORBIDDEN = [re.compile(p) for p in (r"(?i)\boption \d", r"(?i)\bmode \d", r"(?i)a player chooses",
                                     r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", r"\b[a-z]+_[a-z_]+\b", r"\bp[01]\.[a-z_]+",
                                     r"(?i)an effect applies", r"\bP[01]\b")]
SHOWN_JS = """() => ['#midbar', '#prompt', '#log', '#rp-last-action', '#board .badges']
    .flatMap(s => [...document.querySelectorAll(s)]).map(e => e.innerText).join('\\n')"""


# card names whose text runs under the cost badge or out of the tile: each line box of the name's text
NAMES_OVERFLOW_JS = """() => {
  const bad = [];
  for (const card of document.querySelectorAll('#board .card, #hand .card')) {
    const name = card.querySelector('.name'), cost = card.querySelector('.cost');
    if (!name) continue;
    const range = document.createRange();
    range.selectNodeContents(name);
    const c = card.getBoundingClientRect(), k = cost ? cost.getBoundingClientRect() : null;
    for (const r of range.getClientRects()) {
      const underBadge = k && r.top < k.bottom && r.bottom > k.top && r.right > k.left + 0.5;
      if (underBadge || r.right > c.right + 0.5) { bad.push(name.textContent); break; }
    }
  }
  return bad;
}"""


def check_words(pg):
    text = pg.evaluate(SHOWN_JS)
    bad = [(p.pattern, p.search(text).group()) for p in FORBIDDEN if p.search(text)]
    assert not bad, (bad, text[:3000])




class Pages:
    """New browser contexts (each one a separate machine: its own storage)
    whose pages must log no unexpected error."""

    def __init__(self, browser):
        self.browser, self.made = browser, []

    def new(self, height=1000):
        ctx = self.browser.new_context(viewport={"width": 1500, "height": height}, accept_downloads=True)
        pg = ctx.new_page()
        pg.set_default_timeout(TIMEOUT)
        pg.errors, pg.expected_errors = [], []
        pg.on("console", lambda m: pg.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        pg.on("pageerror", lambda e: pg.errors.append(f"page error: {e}"))
        self.made.append((ctx, pg))
        return pg


@pytest.fixture
def pages(browser):
    p = Pages(browser)
    yield p
    bad = []
    for ctx, pg in p.made:
        bad += [e for e in pg.errors if not any(x in e for x in pg.expected_errors)]
        ctx.close()
    assert not bad, bad


def payload(pg):
    return pg.evaluate("() => window.AZUKI.S.payload")


def wait_token(pg, token):
    pg.wait_for_function("(t) => window.AZUKI.S.payload && !window.AZUKI.S.busy"
                         " && window.AZUKI.S.payload.token === t", arg=token)


def test_two_machines_invite_reconnect_and_wrong_key(pages, server):
    app, url = server
    a = pages.new()
    start(a, url, mode="remote")
    a.wait_for_selector("#invite-1")
    link = a.input_value("#invite-1")
    assert link.startswith(url) and "#game=" in link and "&key=" in link
    sess = session_of(app, a)
    assert sess.mode == "remote" and a.evaluate("() => window.AZUKI.S.seat") == 0
    assert not any(k in a.url for k in sess.keys.values())
    # the other player has not opened the link yet
    a.wait_for_function("() => document.querySelector('#waiting').textContent.includes('to join')")

    # a wrong key: refused, nothing of the game shown
    w = pages.new()
    w.expected_errors.append("status of 403")
    w.goto(link.replace("&key=", "&key=x"))
    w.wait_for_selector("body[data-ready='1']")
    assert "does not open that seat" in w.text_content("#status")
    assert w.locator("#game").is_hidden() and w.locator("#setup").is_visible()

    b = pages.new()
    seen = []
    b.on("request", lambda r: seen.append((r.url, r.headers.get("x-azuki-key"))))
    b.goto(link)
    b.wait_for_selector("body[data-ready='1']")
    b.wait_for_function("() => window.AZUKI.S.payload && window.AZUKI.S.payload.view.seat === 1")
    assert sess.keys[1] not in b.url and "key=" not in b.url           # the key left the address bar
    assert all(sess.keys[1] not in u for u, _ in seen)
    assert all(k == sess.keys[1] for u, k in seen if "/api/game/" in u)
    # each page shows its own seat only; the one not deciding waits for the other
    rng = random.Random(3)
    pgs = {0: a, 1: b}
    reconnected = reloaded = False
    notices = []
    for i in range(60):
        d = sess.game.current_player
        if sess.game.is_terminal:
            break
        tok = sess.token
        for s, pg in pgs.items():
            wait_token(pg, tok)
            check_board(pg, json.loads(json.dumps(seat_view(sess.game, s))))
            check_words(pg)
        for pg in pgs.values():
            # rules §12.2: a turn the engine ended by itself shows a notice with the log's line
            auto = pg.evaluate("() => window.AZUKI.S.logs[window.AZUKI.S.seat]"
                               ".filter(e => e.type === 'AUTO_END_TURN' && e.new).map(e => e.text)")
            if auto:
                assert pg.locator("#notice").is_visible() and pg.text_content("#notice") == auto[-1]
                notices.append(auto[-1])
        other = pgs[1 - d]
        other.wait_for_function("() => document.querySelector('#waiting').textContent.includes('Waiting for the other player')")
        assert other.locator("#prompt button.opt:not([disabled])").count() == 0
        if i == 10 and not reconnected:
            # the non-deciding machine drops off; the other moves meanwhile; it reconnects by itself
            ctx = other.context
            ctx.set_offline(True)
            other.expected_errors.append("ERR_INTERNET_DISCONNECTED")
            other.wait_for_function("() => document.querySelector('#status').textContent.includes('reconnecting')")
            pay = payload(pgs[d])
            x = rng.choice(pay["legal"])
            click_action(pgs[d], x)
            wait_idle(pgs[d], pay["token"])
            ctx.set_offline(False)
            other.wait_for_function("(t) => window.AZUKI.S.payload.token === t", arg=sess.token)
            other.wait_for_function("() => !document.querySelector('#status').classList.contains('error')")
            reconnected = True
            continue
        if i == 20 and not reloaded:
            other.reload()                                   # a reload rejoins its seat (sessionStorage)
            other.wait_for_selector("body[data-ready='1']")
            other.wait_for_function(f"() => window.AZUKI.S.payload && window.AZUKI.S.payload.view.seat === {1 - d}")
            reloaded = True
        pay = payload(pgs[d])
        x = pick_action(pay["legal"], rng, 0.8)
        click_action(pgs[d], x)
        wait_idle(pgs[d], pay["token"])
    assert reconnected and reloaded
    # leaving: back to the set-up, the game forgotten by this page
    b.click("#nav-leave")
    b.wait_for_selector("#setup:not(.hidden)")
    assert b.locator("#game").is_hidden() and b.evaluate("() => window.AZUKI.S.game") is None
    b.reload()
    b.wait_for_selector("body[data-ready='1']")
    assert b.evaluate("() => window.AZUKI.S.game") is None


def test_replay_viewer_keeps_the_live_game(pages, server, tmp_path):
    """Opening a replay in the viewer does not replace the live game: back on
    the Play tab the live position shows and its actions work (they got 409
    with the replay's token before)."""
    app, url = server
    from azuki.replay import record_random_game
    rep = record_random_game(99)
    f = tmp_path / "g.json"
    f.write_text(json.dumps(rep))
    pg = pages.new()
    start(pg, url)
    wait_idle(pg)
    sess = session_of(app, pg)
    live = payload(pg)["token"]
    pg.click("#nav-replay")
    pg.focus("#replay-file")
    pg.set_input_files("#replay-file", str(f))
    wait_replay_open(pg, len(rep["steps"]))
    # the arrow keys step at once, the file input still focused
    pg.keyboard.press("ArrowRight")
    pg.wait_for_function("() => document.querySelector('#game').dataset.replayStep === '1'")
    pg.keyboard.press("End")
    pg.wait_for_function(f"() => document.querySelector('#game').dataset.replayStep === '{len(rep['steps'])}'")
    check_words(pg)
    # every hand card's name fits its tile (full view: both hands)
    assert not pg.evaluate(NAMES_OVERFLOW_JS), pg.evaluate(NAMES_OVERFLOW_JS)
    pg.click("#nav-play")
    assert payload(pg)["token"] == live
    check_board(pg, json.loads(json.dumps(seat_view(sess.game, 0))))
    pay = payload(pg)
    click_action(pg, pay["legal"][0])
    wait_idle(pg, pay["token"])
    assert not pg.evaluate("() => document.querySelector('#status').classList.contains('error')")


def test_hand_stays_in_sight_while_a_prompt_is_open(pages, server):
    """Play seeded games by clicking until a prompt is open for the player:
    the hand is then on screen, beside the prompt."""
    app, url = server
    pg = pages.new(height=700)     # a laptop's window: the whole board does not fit
    rng = random.Random(5)
    for attempt in range(6):
        start(pg, url, decks=("STT01", "STT02") if attempt % 2 else ("STT02", "STT01"))
        wait_idle(pg)
        for _ in range(400):
            pay = payload(pg)
            if pay["over"]:
                break
            if pay["view"]["prompt"] and pay["view"]["prompt"].get("options"):
                # the player looks at the prompt: its hand must be in sight too
                vis = pg.evaluate("""() => { document.querySelector('#prompt').scrollIntoView({block: 'start'});
                    const r = document.querySelector('#hand-wrap').getBoundingClientRect();
                    const p = document.querySelector('#prompt').getBoundingClientRect();
                    return {hand: r.top >= 0 && r.bottom <= innerHeight + 0.5 && r.height > 0,
                            prompt: p.top < innerHeight && p.bottom > 0}; }""")
                assert vis == {"hand": True, "prompt": True}, vis
                assert pg.locator("#hand .card").count() == len(pay["view"]["players"][pay["view"]["seat"]]["hand"])
                check_words(pg)
                title = pg.text_content("#prompt-title")
                assert title and "option" not in title.lower() and "mode " not in title.lower()
                return
            x = pick_action(pay["legal"], rng, 0.9)
            click_action(pg, x)
            wait_idle(pg, pay["token"])
        pg.click("#nav-leave")
    pytest.fail("no prompt reached in the seeded games")

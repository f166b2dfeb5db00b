"""Browser tests of `python -m azuki play` (docs/play.md): a real headless
Chromium (Debian's `chromium`, driven by Playwright; tools/setup_envs.sh web)
plays complete games through the page by clicking, and after every action
the board's DOM must match the seat's view from the engine
(azuki.view.seat_view); no console errors; hot-seat hand-over hides the
other hand; the replay viewer steps both ways.

Run by tools/test.sh step "browser" in .venv-web; skipped (with the reason)
where Playwright or Chromium is missing."""
import json
import random

import pytest

playwright_sync = pytest.importorskip("playwright.sync_api", reason="needs playwright (tools/setup_envs.sh web)")

from azuki.view import full_view, seat_view  # noqa: E402
from azuki.web.browser import chromium_path, click_action, launch, pick_action  # noqa: E402
from azuki.web.server import App, serving  # noqa: E402

if chromium_path() is None:
    pytest.skip("needs Debian's chromium (apt-get install chromium)", allow_module_level=True)

TIMEOUT = 30000
PROMPTS = []     # prompts answered per game (the two games together must have some)


@pytest.fixture(scope="module")
def server():
    app = App(runs="/nonexistent")
    with serving(app) as url:
        yield app, url


@pytest.fixture(scope="module")
def browser():
    with playwright_sync.sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1500, "height": 1000}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT)
    errors = []
    pg.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    pg.errors = errors
    pg.expected_errors = []     # substrings of errors a test provokes on purpose
    yield pg
    ctx.close()
    unexpected = [e for e in errors if not any(x in e for x in pg.expected_errors)]
    assert not unexpected, unexpected


# ---- reading the board back from the DOM ------------------------------------------------

DOM_JS = """() => {
  const out = {seat: document.querySelector('#board').dataset.seat, phase: document.querySelector('#board').dataset.phase,
               decider: Number(document.querySelector('#board').dataset.decider), players: {}};
  for (const side of document.querySelectorAll('#board .side')) {
    const p = Number(side.dataset.player);
    const d = side.dataset;
    const cards = {};
    side.querySelectorAll('[data-where]').forEach(e => {
      if (e.classList.contains('chip')) return;
      cards[e.dataset.where] = {card: e.dataset.card || null, attack: e.dataset.attack ?? null,
                                health: e.dataset.health ?? null, damage: e.dataset.damage ?? null};
    });
    const opp = side.querySelector('.opp-hand');
    out.players[p] = {hand_count: Number(d.handCount), deck_count: Number(d.deckCount),
                      discard_count: Number(d.discardCount), ikz_untapped: Number(d.ikzUntapped),
                      ikz_tapped: Number(d.ikzTapped), ikz_pile: Number(d.ikzPile), cards,
                      opp_hand: opp ? [...opp.children].map(c => c.dataset.card || null) : null};
  }
  const hand = document.querySelector('#hand');
  out.hand_player = Number(hand.dataset.player);
  out.hand = [...hand.children].map(c => c.dataset.card || null);
  return out;
}"""


def check_board(page, view):
    """The DOM shows exactly `view` (a seat_view or full_view dict)."""
    dom = page.evaluate(DOM_JS)
    seat = view["seat"]
    assert dom["seat"] == ("full" if seat is None else str(seat))
    assert dom["phase"] == view["phase"] and dom["decider"] == view["current_player"]
    me = 0 if seat is None else seat
    assert dom["hand_player"] == me
    assert dom["hand"] == view["players"][me]["hand"]
    for p in (0, 1):
        pv, pd = view["players"][p], dom["players"][str(p)]
        assert pd["hand_count"] == pv["hand_count"] and pd["deck_count"] == pv["deck_count"]
        assert pd["discard_count"] == len(pv["discard"]) and pd["ikz_pile"] == pv["ikz_pile_count"]
        untapped = sum(1 for x in pv["ikz_area"] if not x["tapped"])
        assert (pd["ikz_untapped"], pd["ikz_tapped"]) == (untapped, len(pv["ikz_area"]) - untapped)
        for zone in ("garden", "alley"):
            for i, f in enumerate(pv[zone]):
                c = pd["cards"][f"p{p}.{zone}[{i}]"]
                if f is None:
                    assert c["card"] is None
                else:
                    assert c["card"] == f["card"]
                    assert (c["attack"], c["health"], c["damage"]) == (str(f["attack"]), str(f["health"]),
                                                                      str(f["damage"])), (p, zone, i)
        lead = pd["cards"][f"p{p}.leader"]
        assert lead["card"] == pv["leader"]["card"]
        assert (lead["health"], lead["damage"]) == (str(pv["leader"]["health"]), str(pv["leader"]["damage"]))
        if p != me:
            assert pd["opp_hand"] == pv["hand"]   # known cards by id, the rest as backs (None)
    return dom


def wait_idle(page, token=None):
    """Until the page shows a state (other than `token`'s) and waits for no answer."""
    js = ("(t) => window.AZUKI && !window.AZUKI.S.busy && window.AZUKI.S.payload"
          " && document.querySelector('#board').dataset.token !== t")
    page.wait_for_function(js, arg=token if token is not None else "__none__")


def start(page, url, mode="bot", opponent="random", seat=0, decks=("STT01", "STT02")):
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.check(f'input[name="mode"][value="{mode}"]')
    page.select_option("#deck0", decks[0])
    page.select_option("#deck1", decks[1])
    if mode == "bot":
        page.select_option("#human-seat", str(seat))
        page.select_option("#opponent", opponent)
    page.click("#start")


def session_of(app, page):
    page.wait_for_function("() => window.AZUKI && window.AZUKI.S.game && window.AZUKI.S.game.id")
    gid = page.evaluate("() => window.AZUKI.S.game.id")
    return app.store.get("game", gid)


def play_to_the_end(page, app, rng, mulligan, stats):
    sess = session_of(app, page)
    seat = page.evaluate("() => window.AZUKI.S.seat")
    wait_idle(page)
    for _ in range(2000):
        check_board(page, json.loads(json.dumps(seat_view(sess.game, seat))))
        pay = page.evaluate("() => window.AZUKI.S.payload")
        if pay["over"]:
            return pay
        legal = pay["legal"]
        assert [x["id"] for x in legal] == [int(a) for a in sess.game.legal_actions()]
        # the page offers every legal action: each has its clickable start
        for x in legal:
            if x["type"] == "CHOOSE":
                assert page.locator(f'#prompt button[data-action="{x["id"]}"]').count() == 1
            elif not x["places"]:
                assert page.locator(f'[data-action="{x["id"]}"]').count() >= 1
            else:
                assert page.locator(f'#board [data-where="{x["places"][0]}"].can-act').count() == 1
        kinds = {x["type"] for x in legal}
        if "MULLIGAN_SHUFFLE" in kinds:
            a = next(x for x in legal if x["type"] == ("MULLIGAN_SHUFFLE" if mulligan else "MULLIGAN_KEEP"))
            stats["mulligan"] += mulligan
        else:   # prefer playing cards and attacking over ending the turn, so games are short and varied
            a = pick_action(legal, rng, 0.85)
        if a["type"] == "CHOOSE":
            stats["prompts"] += 1
        stats[len(a["places"])] = stats.get(len(a["places"]), 0) + 1
        click_action(page, a)
        wait_idle(page, pay["token"])
    raise AssertionError("game did not end")


@pytest.mark.parametrize("seed,seat,mulligan,decks,opponent", [(1, 0, True, ("STT01", "STT02"), "random"),
                                                                (2, 1, False, ("STT02", "STT01"), "random"),
                                                                (3, 0, False, ("STT01", "STT02"), "ckpt:reference")])
def test_play_full_game_by_clicking(page, server, seed, seat, mulligan, decks, opponent):
    app, url = server
    if opponent.startswith("ckpt:") and app.ckpts.get(opponent[5:], (0, 0, "missing"))[2]:
        pytest.skip(f"{opponent} unavailable: {app.ckpts.get(opponent[5:])}")
    stats = {"mulligan": 0, "prompts": 0}
    start(page, url, seat=seat, decks=decks, opponent=opponent)
    pay = play_to_the_end(page, app, random.Random(seed), mulligan, stats)
    assert pay["over"] and pay["result"] != "ONGOING"
    page.wait_for_selector("#gameover:not(.hidden)")
    assert stats.get(2, 0) > 0 and stats.get(0, 0) > 0
    assert stats["mulligan"] == (1 if mulligan else 0)
    assert page.locator("#log li").count() > 10
    # the discard piles are browsable
    page.click("#gameover #go-board")
    for p in (0, 1):
        page.click(f'#board .side[data-player="{p}"] button.discard')
        dlg = page.locator("#pile-dlg")
        assert dlg.is_visible()
        ids = [x for x in page.eval_on_selector_all("#pile-cards .card", "els => els.map(e => e.dataset.card)")]
        assert ids == pay["view"]["players"][p]["discard"]
        page.click("#pile-dlg button")
    page.evaluate("() => document.querySelector('#gameover').classList.remove('hidden')")
    PROMPTS.append(stats["prompts"])
    # "save replay" downloads a file that the replay viewer opens (hash check on load) and steps both ways
    with page.expect_download() as dl:
        page.click("#go-save")
    rep = json.loads(open(dl.value.path()).read())
    assert rep["steps"] and rep["players"][seat] == "human"
    page.click("#go-watch")
    page.wait_for_selector("#replay-bar:not(.hidden)")
    wait_replay_open(page, len(rep["steps"]))
    check_replay(page, app, len(rep["steps"]))


# true once the viewer shows step 0 of a replay of n steps; only what opening a replay sets counts:
# the page starts with "step 0 / 0" in its step label and no replay, so a wait on the label alone
# passed before the replay was open (a failed CI run)
REPLAY_OPEN = ("(n) => !!(window.AZUKI.S.replay && window.AZUKI.S.replay.steps === n"
               " && document.querySelector('#game').dataset.replayStep === '0'"
               " && document.querySelector('#rp-step').textContent === `step 0 / ${n}`)")


def wait_replay_open(page, n):
    page.wait_for_function(REPLAY_OPEN, arg=n)


def check_replay(page, app, n):
    rid = page.evaluate("() => window.AZUKI.S.replay.id")
    sess = app.store.get("replay", rid)
    assert sess.n == n
    # full view: forward a few steps, then back
    for k in (1, 2, 3):
        page.click("#rp-fwd")
        page.wait_for_function(f"() => document.querySelector('#game').dataset.replayStep === '{k}'")
        check_board(page, json.loads(json.dumps(full_view(sess.game_at(k)))))
    for k in (2, 1):
        page.click("#rp-back")
        page.wait_for_function(f"() => document.querySelector('#game').dataset.replayStep === '{k}'")
        check_board(page, json.loads(json.dumps(full_view(sess.game_at(k)))))
    # each seat's view hides the other hand
    for view in ("0", "1"):
        page.check(f'input[name="rp-view"][value="{view}"]')
        page.wait_for_function(f"() => document.querySelector('#board').dataset.seat === '{view}'")
        check_board(page, json.loads(json.dumps(seat_view(sess.game_at(1), int(view)))))
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('#game').dataset.replayStep === '{n}'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.querySelector('#game').dataset.replayStep === '{n - 1}'")
    check_board(page, json.loads(json.dumps(seat_view(sess.game_at(n - 1), 1))))


def test_prompts_were_answered():
    """The two games above answered ability prompts through the prompt panel."""
    if len(PROMPTS) < 2:
        pytest.skip("needs both games above")
    assert sum(PROMPTS) > 0, PROMPTS


def test_hot_seat_hands_over_and_hides_the_other_hand(page, server):
    # alike: test_wasm_site.py::test_static_site_hot_seat_hands_over, the same walk on the static site;
    # this one also checks each view against the server's session, which the static site has not
    app, url = server
    start(page, url, mode="hotseat")
    page.wait_for_selector("#handover:not(.hidden)")
    sess = session_of(app, page)
    rng = random.Random(7)
    handovers = 0
    for _ in range(300):
        if page.locator("#handover:not(.hidden)").count():
            # covered: nothing of either hand is in the page
            assert page.locator("#hand .card").count() == 0 and page.locator("#board .card").count() == 0
            nxt = int(page.evaluate("() => document.querySelector('#handover').dataset.next"))
            assert nxt == sess.game.current_player
            page.click("#handover-go")
            page.wait_for_function(f"() => window.AZUKI.S.payload && window.AZUKI.S.payload.view.seat === {nxt}")
            handovers += 1
        seat = page.evaluate("() => window.AZUKI.S.seat")
        assert seat == sess.game.current_player or sess.game.is_terminal
        check_board(page, json.loads(json.dumps(seat_view(sess.game, seat))))
        pay = page.evaluate("() => window.AZUKI.S.payload")
        if pay["over"]:
            break
        legal = pay["legal"]
        a = pick_action(legal, rng, 0.8)
        tok = pay["token"]
        click_action(page, a)
        page.wait_for_function("(t) => !window.AZUKI.S.busy && (!document.querySelector('#handover').classList"
                               ".contains('hidden') || document.querySelector('#board').dataset.token !== t)", arg=tok)
        if handovers >= 8 and rng.random() < 0.02:
            break
    assert handovers >= 4


def test_stale_page_gets_an_error_and_recovers(page, server, browser):
    """Two tabs on one game: the older one's action is refused (409) with a
    message, changes nothing, and the tab reloads the current state."""
    app, url = server
    start(page, url)
    wait_idle(page)
    sess = session_of(app, page)
    game = page.evaluate("() => window.AZUKI.S.game")
    h = sess.game.state_hash()
    # the same game acted on behind the page's back (as from a second tab)
    pay = page.evaluate("() => window.AZUKI.S.payload")
    with sess.lock:
        sess.act(0, pay["token"], pay["legal"][0]["id"])
    assert sess.game.state_hash() != h
    h2 = sess.game.state_hash()
    page.expected_errors.append("status of 409")   # the browser logs the refused request itself
    click_action(page, pay["legal"][-1])
    page.wait_for_function("() => document.querySelector('#status').classList.contains('error')")
    assert "stale" in page.text_content("#status")
    page.wait_for_function("(t) => document.querySelector('#board').dataset.token !== t", arg=pay["token"])
    assert sess.game.state_hash() == h2
    check_board(page, json.loads(json.dumps(seat_view(sess.game, 0))))
    assert game["keys"]["0"]


def test_help_and_card_text(page, server):
    app, url = server
    start(page, url)
    wait_idle(page)
    page.click("#nav-help")
    assert page.locator("#help-dlg").is_visible()
    assert "Attack" in page.text_content("#help-dlg")
    page.click("#help-dlg button")
    t = page.get_attribute("#hand .card >> nth=0", "title")
    cid = page.get_attribute("#hand .card >> nth=0", "data-card")
    assert app.cards[cid]["name"] in t and (app.cards[cid].get("text") or "") in t


def test_replay_viewer_opens_a_record_file(page, server, tmp_path):
    """A file of `python -m azuki record` (64-bit seed: sent to the server as
    text, never through JSON.parse) opens in the viewer, hash-checked, and steps."""
    app, url = server
    from azuki.replay import record_random_game
    rep = record_random_game((1 << 63) + 12345)
    f = tmp_path / "game.json"
    f.write_text(json.dumps(rep))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.click("#nav-replay")
    assert page.evaluate(REPLAY_OPEN, len(rep["steps"])) is False      # the wait below waits on something
    page.set_input_files("#replay-file", str(f))
    wait_replay_open(page, len(rep["steps"]))
    assert "verified" in page.text_content("#replay-info")
    check_replay(page, app, len(rep["steps"]))
    # a tampered file is refused with the step named
    rep["steps"][5]["hash"] = "0" * 16
    f.write_text(json.dumps(rep))
    page.expected_errors.append("status of 400")
    page.set_input_files("#replay-file", str(f))
    page.wait_for_function("() => document.querySelector('#status').classList.contains('error')")
    assert "diverged at step 5" in page.text_content("#status")


def test_keyboard_picks_a_card(page, server):
    """Tab reaches the cards that start an action; Enter picks one, Esc lets go."""
    app, url = server
    for seed in range(30, 40):
        start(page, url)
        wait_idle(page)
        pay = page.evaluate("() => window.AZUKI.S.payload")
        keep = next((x for x in pay["legal"] if x["type"] == "MULLIGAN_KEEP"), None)
        if keep:
            click_action(page, keep)
            wait_idle(page, pay["token"])
        if page.locator("#board .can-act").count():
            break
    else:
        pytest.skip("no card to pick in these deals")
    first = page.locator("#board .can-act").first
    where = first.get_attribute("data-where")
    first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.AZUKI.S.selected") == where
    page.keyboard.press("Escape")
    assert page.evaluate("() => window.AZUKI.S.selected") is None


def test_seat_keys_travel_in_a_header_never_in_a_url(page, server):
    """Every request the page makes for a game carries its seat's key in the
    X-Azuki-Key header and nowhere in the URL (the page put it in the query
    string before), and the page's own address never holds a key."""
    app, url = server
    seen = []
    page.on("request", lambda r: seen.append((r.url, r.headers.get("x-azuki-key"))))
    start(page, url, mode="hotseat")
    sess = session_of(app, page)
    keys = set(sess.keys.values())
    rng = random.Random(4)
    page.wait_for_selector("#handover:not(.hidden)")
    for _ in range(12):
        if page.locator("#handover:not(.hidden)").count():
            nxt = int(page.evaluate("() => document.querySelector('#handover').dataset.next"))
            page.click("#handover-go")
            page.wait_for_function(f"() => window.AZUKI.S.payload && window.AZUKI.S.payload.view.seat === {nxt}")
        pay = page.evaluate("() => window.AZUKI.S.payload")
        if pay["over"]:
            break
        click_action(page, rng.choice(pay["legal"]))
        page.wait_for_function("(t) => !window.AZUKI.S.busy && (!document.querySelector('#handover').classList"
                               ".contains('hidden') || document.querySelector('#board').dataset.token !== t)",
                               arg=pay["token"])
    game_requests = [(u, k) for u, k in seen if "/api/game/" in u]
    assert len(game_requests) >= 4
    for u, k in seen:
        assert not any(key in u for key in keys), u
        assert "key=" not in u, u
    assert all(k in keys for _, k in game_requests), game_requests
    assert not any(key in page.url for key in keys)

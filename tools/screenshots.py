"""Regenerate the screenshots of the play page (docs/img/play_*.png, shown in
README.md and docs/play.md): a real headless Chromium (Debian's `chromium`)
driven by Playwright plays through the page by clicking.

    .venv-web/bin/python tools/screenshots.py [--out docs/img]

(.venv-web: `bash tools/setup_envs.sh web`.) The games are seeded, so the
pictures change only when the page or the engine does. CI does not compare
images."""
from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from playwright.sync_api import sync_playwright  # noqa: E402

from azuki.web.browser import click_action, launch, pick_action  # noqa: E402
from azuki.web.server import App, serving  # noqa: E402

IDLE = ("(t) => window.AZUKI && !window.AZUKI.S.busy && (window.AZUKI.S.payload || !document.querySelector"
        "('#handover').classList.contains('hidden')) && document.querySelector('#board').dataset.token !== t")


def start(page, url, mode="bot", opponent="random", seat=0, seed=None):
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.check(f'input[name="mode"][value="{mode}"]')
    if mode == "bot":
        page.select_option("#human-seat", str(seat))
        page.select_option("#opponent", opponent)
    if seed is not None:   # a seeded deal (the page itself never sends one)
        page.evaluate("(s) => { const f = window.fetch; window.fetch = (u, o) => { if (u === '/api/new') {"
                      " const b = JSON.parse(o.body); b.seed = s; o = {...o, body: JSON.stringify(b)}; }"
                      " return f(u, o); }; }", seed)
    page.click("#start")
    page.wait_for_function(IDLE, arg="__none__")


def payload(page):
    return page.evaluate("() => window.AZUKI.S.payload")


def step(page, rng, prefer_play=0.85):
    p = payload(page)
    legal = p["legal"]
    kinds = {x["type"] for x in legal}
    if "MULLIGAN_KEEP" in kinds:
        a = next(x for x in legal if x["type"] == "MULLIGAN_KEEP")
    else:
        a = pick_action(legal, rng, prefer_play)
    click_action(page, a)
    page.wait_for_function(IDLE, arg=p["token"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/img")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    app = App(runs="/nonexistent")
    shots = []

    def shot(page, name):
        path = os.path.join(args.out, f"play_{name}.png")
        page.screenshot(path=path)
        shots.append(path)

    with serving(app) as url, sync_playwright() as pw:
        browser = launch(pw)
        ctx = browser.new_context(viewport={"width": 1440, "height": 1000}, device_scale_factor=1)
        page = ctx.new_page()
        page.set_default_timeout(30000)
        # 1. the set-up form
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        # the reference checkpoint when this build can load it, else greedy (the reference is retrained
        # after an observation-layout change: tools/make_reference.sh)
        opp = "ckpt:reference" if app.ckpts.get("reference", (0, 0, "missing"))[2] is None else "greedy"
        if opp != "ckpt:reference":
            print(f"reference checkpoint unavailable ({app.ckpts.get('reference')}): playing greedy", file=sys.stderr)
        page.select_option("#opponent", opp)
        shot(page, "setup")
        # 2. a game against the reference checkpoint: the board mid-game, a card selected, a prompt
        rng = random.Random(4)
        start(page, url, opponent=opp, seed=12)
        got_select = got_prompt = False
        for _ in range(400):
            p = payload(page)
            if p["over"]:
                break
            if p["view"]["turn"] >= 7 and not got_select:
                srcs = [x for x in p["legal"] if x["type"] == "ATTACK"]
                if srcs:
                    page.click(f'#board [data-where="{srcs[0]["places"][0]}"]')
                    shot(page, "board")
                    got_select = True
                    page.keyboard.press("Escape")
            if p["view"].get("prompt") and p["view"]["prompt"].get("options") and not got_prompt:
                shot(page, "prompt")
                got_prompt = True
            if got_select and got_prompt and p["view"]["turn"] >= 9:
                break
            step(page, rng)
        # play on to the end, then the game-over box and the replay viewer with inspection
        while not payload(page)["over"]:
            step(page, rng, prefer_play=0.95)
        page.wait_for_selector("#gameover:not(.hidden)")
        shot(page, "gameover")
        page.click("#go-watch")
        page.wait_for_function("() => window.AZUKI.S.replay && document.querySelector('#game').dataset.replayStep")
        n = page.evaluate("() => window.AZUKI.S.replay.steps")
        rid = page.evaluate("() => window.AZUKI.S.replay.id")
        pol = app.store.get("replay", rid).policies     # step -> (value, [(action, p), ...])
        k = next((i for i in range(n // 3, n) if i in pol and len(pol[i][1]) > 2), n // 2)
        page.evaluate("(k) => { const r = document.querySelector('#rp-slider'); r.value = k;"
                      " r.dispatchEvent(new Event('input')); }", k)
        page.wait_for_function(f"() => document.querySelector('#game').dataset.replayStep === '{k}'")
        shot(page, "replay")
        # 3. hot-seat: the hand-over screen
        start(page, url, mode="hotseat", seed=5)
        page.wait_for_selector("#handover:not(.hidden)")
        shot(page, "handover")
        # 4. two machines: the host's page with the invite links, waiting for the other player
        page.evaluate("() => sessionStorage.clear()")
        start(page, url, mode="remote", seed=5)
        page.wait_for_selector("#invite-1")
        other = browser.new_context(viewport={"width": 1440, "height": 1000}).new_page()
        other.goto(page.input_value("#invite-1"))
        other.wait_for_function("() => window.AZUKI && window.AZUKI.S.payload")
        page.wait_for_function("() => !document.querySelector('#waiting').textContent.includes('to join')")
        shot(page, "remote")
        browser.close()
    for s in shots:
        print("wrote", s)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Headless Chromium for the browser tests (tests/web) and the screenshots
(tools/screenshots.py): Playwright for Python driving the system's Chromium
(Debian package `chromium`; Playwright's own browser download is never used).
Needs `playwright` (tools/setup_envs.sh web); azuki itself does not."""
from __future__ import annotations

import os
import shutil

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium",
              "/usr/bin/google-chrome")


def chromium_path():
    """The system Chromium binary ($AZUKI_CHROMIUM first), or None."""
    env = os.environ.get("AZUKI_CHROMIUM")
    if env:
        return env if os.path.exists(env) else None
    for p in CANDIDATES:
        if os.path.exists(p):
            return p
    for name in ("chromium", "chromium-browser"):
        p = shutil.which(name)
        if p:
            return p
    return None


def launch(playwright, headless=True):
    """A Chromium browser from a started `sync_playwright()`."""
    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no Chromium found: install Debian's `chromium` (apt-get install chromium) "
                           "or set AZUKI_CHROMIUM to its path")
    return playwright.chromium.launch(executable_path=exe, headless=headless,
                                      args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])


def pick_action(legal, rng, prefer_play=0.85):
    """A random entry of a page's legal list (for the tests and tools that play through the page):
    with probability `prefer_play` one that is not END_TURN or NO_OP, when there is one, so games
    are short and varied. rng.random() is drawn only when there is such an entry."""
    non_end = [x for x in legal if x["type"] not in ("END_TURN", "NO_OP")]
    return rng.choice(non_end if non_end and rng.random() < prefer_play else legal)


def click_action(page, a):
    """Perform legal action `a` (an entry of the page's legal list: id, type,
    places) in a Playwright page by clicking, as a person would: a prompt
    option or a button, or the card then its target (or its choice in the
    middle bar)."""
    if a["type"] == "CHOOSE" or page.locator(f'#prompt button[data-action="{a["id"]}"]').count():
        page.click(f'#prompt button[data-action="{a["id"]}"]')
    elif not a["places"]:
        page.click(f'#buttons button[data-action="{a["id"]}"]')
    else:
        page.click(f'#board [data-where="{a["places"][0]}"]')
        if len(a["places"]) == 1:
            page.click(f'#menu button[data-action="{a["id"]}"]')
        else:
            page.click(f'#board [data-where="{a["places"][1]}"].can-target')
            menu = page.locator(f'#menu button[data-action="{a["id"]}"]')
            if page.evaluate("() => window.AZUKI.S.selected !== null") and menu.count():
                menu.click()

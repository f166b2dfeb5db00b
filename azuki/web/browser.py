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

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
    r = _selftest(browser, url, f"selftest={n}&seed=1")
    t = time.perf_counter()
    native = _core.simulate(n, seed=1, players=("random", "random"))
    native_rate = native["decisions"] / (time.perf_counter() - t)
    size = {f: len(gzip.compress((out / f).read_bytes(), 9)) for f in ("azuki.wasm", "engine.js", "worker.js",
                                                                         "worker_client.js")}
    print(f"\nWASM (Chromium, worker): {r['decisions_per_s']:,.0f} decisions/s; native: {native_rate:,.0f} "
          f"decisions/s ({r['decisions_per_s'] / native_rate:.0%}); first decision {r['first_decision_ms']:.0f} ms "
          f"after navigation (module load {r['load_ms']:.0f} ms); gzipped: {size} = {sum(size.values()):,} bytes")
    assert r["decisions"] > 0 and sum(size.values()) < 1 << 20

"""The engine as WebAssembly (wasm/build.py, azuki/web/static/azuki.wasm,
docs/play.md "Static site"), run under node (no browser): for the same
seeds and bots the module reaches the same state after every step as the
native engine (the state hashes of every step, folded into one digest per
game, and the final hash), a card-set image from pack.py loads into it with
the native hash (the wasm32 layout is the native one), the checked-in build
is fresh against its sources (`python wasm/build.py --check`, no emcc
needed), and `python -m azuki play --static` writes a site with every file
the page loads. The same comparison in a real browser: tests/web/test_wasm.py."""
import json
import os
import shutil
import subprocess
import sys

import pytest

import azuki
from azuki import _core

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIC = os.path.join(ROOT, "azuki", "web", "static")
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="needs node (Debian: apt-get install nodejs)")
M64 = (1 << 64) - 1
SEQ_BASIS, SEQ_PRIME = 0xcbf29ce484222325, 0x100000001b3    # wasm/azuki_wasm.c AZW_SEQ_*
KINDS = {"random": 0, "greedy": 1, "search": 2}


def native_game(i, seed, decks, kinds, sims, cards=None):
    """Game i of azw_selftest, natively: [final hash, step-hash digest] in hex."""
    g = _core.Game(seed=seed + i, decks=decks, cards=cards)
    rng = [_core.bot_rng(seed + i + (s << 32)) for s in (0, 1)]
    seq = SEQ_BASIS
    while not g.is_terminal:
        p = g.current_player
        g.step(_core.bot_act(g, kinds[p], rng[p], sims=sims or None))
        seq = ((seq ^ g.state_hash()) * SEQ_PRIME) & M64
    return [f"{g.state_hash():016x}", f"{seq:016x}"]


def run_node(script, tmp_path):
    p = tmp_path / "t.mjs"
    p.write_text(script)
    r = subprocess.run([NODE, str(p)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def node_selftest(tmp_path, n, seed, decks, kinds, sims=0, cardset=None):
    eng = json.dumps(os.path.join(STATIC, "engine.js"))
    wasm = json.dumps(os.path.join(STATIC, "azuki.wasm"))
    load_cs = f"e.loadCardset(fs.readFileSync({json.dumps(str(cardset))}))" if cardset else "e.defaultCardset"
    script = f"""
import fs from "fs";
import {{ loadEngine }} from {eng};
const e = await loadEngine(fs.readFileSync({wasm}));
const cs = {load_cs};
const deck = (name) => {{
  const b = new TextEncoder().encode(name + "\\0"), p = e.x.malloc(b.length);
  new Uint8Array(e.mem, p, b.length).set(b);
  const d = e.x.azk_cardset_find_deck(cs, p); e.x.free(p); return d;
}};
const r = e.selftest(cs, {n}, {seed}, deck({json.dumps(decks[0])}), deck({json.dumps(decks[1])}),
                     {KINDS[kinds[0]]}, {KINDS[kinds[1]]}, {sims});
console.log(JSON.stringify({{...r, cardset_hash: e.cardsetHash(cs)}}));
"""
    return run_node(script, tmp_path)


@needs_node
@pytest.mark.parametrize("kinds,n,sims", [(("random", "random"), 12, 0), (("greedy", "random"), 4, 0),
                                          (("search", "greedy"), 1, 8)])
def test_wasm_plays_the_native_games(tmp_path, kinds, n, sims):
    """Every step's state hash equals the native engine's (the digest folds
    them all), for every built-in bot: the same engine, bots and RNG."""
    decks = ("STT01", "STT02")
    r = node_selftest(tmp_path, n, 4242, decks, kinds, sims)
    native = [native_game(i, 4242, decks, [KINDS[k] for k in kinds], sims) for i in range(n)]
    assert r["hashes"] == native
    assert r["cardset_hash"] == f"{azuki.CardSet.default().hash:016x}"
    assert r["decisions"] > 0


@needs_node
def test_cardset_image_loads_with_the_native_layout(tmp_path):
    """pack.py's bytes (what --static writes as cardset.bin) load into the
    wasm32 engine with the native card-set hash and play the native games:
    the layout pack.py computes is wasm32's too."""
    from azuki.convert import load_cardset
    from azuki.convert.pack import pack_cardset
    exp = os.path.join(ROOT, "azuki", "data", "expansion.json")
    img = tmp_path / "cardset.bin"
    img.write_bytes(pack_cardset(load_cardset(exp)))
    cs = azuki.CardSet.from_json(exp)
    decks = (cs.decks[-1], cs.decks[0])
    r = node_selftest(tmp_path, 3, 77, decks, ("greedy", "random"), cardset=img)
    assert r["cardset_hash"] == f"{cs.hash:016x}"
    assert r["hashes"] == [native_game(i, 77, decks, [1, 0], 0, cards=cs) for i in range(3)]


@needs_node
def test_a_damaged_cardset_image_is_refused(tmp_path):
    img = tmp_path / "bad.bin"
    from azuki.convert import load_cardset
    from azuki.convert.pack import pack_cardset
    img.write_bytes(pack_cardset(load_cardset(None))[:-8])
    eng = json.dumps(os.path.join(STATIC, "engine.js"))
    wasm = json.dumps(os.path.join(STATIC, "azuki.wasm"))
    r = run_node(f"""import fs from "fs"; import {{ loadEngine }} from {eng};
const e = await loadEngine(fs.readFileSync({wasm}));
let msg = null; try {{ e.loadCardset(fs.readFileSync({json.dumps(str(img))})); }} catch (x) {{ msg = x.message; }}
console.log(JSON.stringify(msg));""", tmp_path)
    assert r and "rejected the card set" in r


def test_checked_in_wasm_is_fresh():
    """The checked-in module matches its sources (csrc and the glue, every
    header they include), its flags and its stamp: `python wasm/build.py
    --check`, which needs no emcc."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "wasm", "build.py"), "--check"], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr


def test_check_notices_a_changed_source(tmp_path, monkeypatch):
    """A change to any compiled file or header it includes makes --check fail."""
    sys.path.insert(0, os.path.join(ROOT, "wasm"))
    try:
        import build
    finally:
        sys.path.pop(0)
    assert build.check() == []
    assert "csrc/azuki.h" in build.inputs() and "csrc/rng.h" in build.inputs() and "csrc/vec.c" not in build.inputs()
    real = build._sha
    monkeypatch.setattr(build, "_sha", lambda p: "0" * 64 if p.endswith("rng.h") else real(p))
    probs = build.check()
    assert probs and "stale" in probs[0] and "(csrc/rng.h)" in probs[0]


def test_static_site_has_every_file_the_page_loads(tmp_path):
    """--static writes the page, the module, site.json; every script and
    module the page's HTML and JS name is in the site."""
    import re
    out = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "azuki", "play", "--static", str(out)], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    names = set(os.listdir(out))
    assert {"index.html", "azuki.wasm", "site.json", "worker.js", "engine.js"} <= names
    for f in names:
        if f.endswith((".html", ".js")):
            text = (out / f).read_text()
            for ref in re.findall(r'(?:src=|from |import\(|new URL\()\s*"(\./)?([\w.-]+\.(?:js|wasm|css))"', text):
                assert ref[1] in names, f"{f} loads {ref[1]}, which the static site lacks"
    site = json.loads((out / "site.json").read_text())
    assert site["meta"]["decks"] == list(azuki.CardSet.default().decks) and site["cardset"] is None
    assert 'data-transport="wasm"' in (out / "index.html").read_text()


def test_static_refuses_what_it_cannot_ship(tmp_path):
    """A bad --cards or a --checkpoint (not in the module yet) is one line
    and exit 2, with nothing written."""
    for extra in (["--cards", str(tmp_path / "missing.json")], ["--checkpoint", "x.npz"]):
        out = tmp_path / "site"
        r = subprocess.run([sys.executable, "-m", "azuki", "play", "--static", str(out), *extra],
                           capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 2 and r.stderr.startswith("azuki play --static: ") and not out.exists(), r


@pytest.mark.skipif(shutil.which("emcc") is None, reason="needs emcc (Debian: apt-get install emscripten)")
def test_rebuild_gives_the_checked_in_bytes(tmp_path):
    """With emcc at hand: building again gives byte for byte the checked-in
    module (the build is reproducible, and what is checked in is what the
    sources make, not only what its stamp says)."""
    sys.path.insert(0, os.path.join(ROOT, "wasm"))
    try:
        import build
    finally:
        sys.path.pop(0)
    if build.check():
        pytest.skip("the checked-in module is stale against the working tree (test_checked_in_wasm_is_fresh fails)")
    info = build.build(out=str(tmp_path / "a.wasm"), stamp=str(tmp_path / "a.json"))
    assert (tmp_path / "a.wasm").read_bytes() == open(build.OUT, "rb").read()
    assert info["sources"] == json.load(open(build.STAMP))["sources"]


def _module_has_policy():
    from azuki.web.static_site import module_has_policy
    return module_has_policy()


@needs_node
@pytest.mark.skipif(not _module_has_policy(), reason="the checked-in module has no policy forward pass "
                                                     "(csrc/policy.c not in the core when it was built)")
def test_reference_policy_in_wasm_matches_numpy(tmp_path):
    """The reference checkpoint's AZKW weights run in the module give the
    numpy policy's probabilities and value (float rounding) along a game."""
    import numpy as np

    from azuki.policy_np import REFERENCE, load_numpy_policy
    eng = json.dumps(os.path.join(STATIC, "engine.js"))
    wasm = json.dumps(os.path.join(STATIC, "azuki.wasm"))
    r = run_node(f"""import fs from "fs"; import {{ loadEngine }} from {eng};
const e = await loadEngine(fs.readFileSync({wasm}));
const pol = e.loadPolicy(fs.readFileSync({json.dumps(REFERENCE + ".azkw")}));
const g = e.newGame(e.defaultCardset, 11, 0, 1), rng = e.botRng(3), out = [];
for (let i = 0; i < 40 && !g.isTerminal; i++) {{
  const legal = g.legal(), f = g.policyForward(pol);
  out.push({{ legal, p: legal.map((a) => Math.exp(f.logp[a])), value: f.value }});
  g.step(g.botAct(0, rng));
}}
console.log(JSON.stringify(out));""", tmp_path)
    pol = load_numpy_policy(REFERENCE)
    g = _core.Game(seed=11, decks=("STT01", "STT02"))
    rng = _core.bot_rng(3)
    for f in r:
        probs, value = pol.probabilities(g.observe(g.current_player)[None, :])
        assert [int(a) for a in g.legal_actions()] == f["legal"]
        assert np.allclose(probs[0][f["legal"]], f["p"], atol=1e-5) and abs(float(value[0]) - f["value"]) < 1e-5
        g.step(_core.bot_act(g, 0, rng))

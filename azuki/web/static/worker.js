// The page's engine thread (a module Web Worker): it owns the WebAssembly
// engine (engine.js) and every game of the static site, so the page never
// blocks while a bot (the search bot above all) thinks. Messages are
// {id, op, args} -> {id, result} or {id, error}; ops are listed in OPS.
// play.js (the page's `api` in WASM mode) and selftest.js talk to it.
import { loadEngine } from "./engine.js";

let E = null, CS = 0;

const OPS = {
  // load the module (and a card-set image from pack.py, or the embedded default set)
  async init({ wasm = "azuki.wasm", cardset = null } = {}) {
    const t0 = performance.now();
    E = await loadEngine(new URL(wasm, self.location.href));
    CS = E.defaultCardset;
    if (cardset) {
      const r = await fetch(new URL(cardset, self.location.href));
      if (!r.ok) throw new Error(`could not load the card set ${cardset}: HTTP ${r.status}`);
      CS = E.loadCardset(await r.arrayBuffer());
    }
    return { cardset_hash: E.cardsetHash(CS), num_actions: E.numActions, load_ms: performance.now() - t0 };
  },
  deck(name) { return deckIndex(name); },
  // N seeded games played in C inside the module: decisions, decisions/s and each game's hashes
  selftest({ n = 10, seed = 0, decks = ["STT01", "STT02"], kinds = [0, 0], sims = 0 }) {
    const t0 = performance.now();
    const r = E.selftest(CS, n, seed, deckIndex(decks[0]), deckIndex(decks[1]), kinds[0], kinds[1], sims);
    const s = (performance.now() - t0) / 1000;
    return { ...r, seconds: s, decisions_per_s: r.decisions / s };
  },
  // one game's first bot decision: what "first decision after load" measures
  firstDecision({ seed = 0, kind = 0 } = {}) {
    const g = E.newGame(CS, seed, 0, 0);
    try { return g.botAct(kind, E.botRng(seed)); } finally { g.free(); }
  },
};

function deckIndex(name) {
  if (typeof name === "number") return name;
  const bytes = new TextEncoder().encode(name + "\0");
  const p = E.x.malloc(bytes.length);
  new Uint8Array(E.mem, p, bytes.length).set(bytes);
  const d = E.x.azk_cardset_find_deck(CS, p);
  E.x.free(p);
  if (d < 0) throw new Error(`unknown deck ${JSON.stringify(name)}`);
  return d;
}

self.onmessage = async (ev) => {
  const { id, op, args } = ev.data;
  try {
    if (!(op in OPS)) throw new Error(`unknown op ${op}`);
    if (op !== "init" && !E) throw new Error("the engine is not loaded (init first)");
    self.postMessage({ id, result: await OPS[op](args) });
  } catch (e) {
    self.postMessage({ id, error: String(e && e.message || e), status: e && e.status });
  }
};

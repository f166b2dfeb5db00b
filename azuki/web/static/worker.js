// The page's engine thread (a module Web Worker): it owns the WebAssembly
// engine (engine.js) and every game and replay of the static site
// (session.js), so the page never blocks while a bot (the search bot above
// all) thinks. Messages are {id, op, args} -> {id, result} or
// {id, error, status}; ops are listed in OPS. app.js (its `api` in WASM mode)
// and selftest.js talk to it through worker_client.js.
import { loadEngine } from "./engine.js";
import { setTables } from "./words.js";
import { Site } from "./session.js";

let E = null, CS = 0, SITE = null;

async function fetchBytes(path) {
  const r = await fetch(new URL(path, self.location.href));
  if (!r.ok) throw new Error(`could not load ${path}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

const OPS = {
  // load the module; with `site` (site.json of python -m azuki play --static) its card set and tables
  async init({ wasm = "azuki.wasm", site = null, cardset = null } = {}) {
    const t0 = performance.now();
    const siteBytes = site ? fetchBytes(site) : null;      // both downloads at once
    E = await loadEngine(await fetchBytes(wasm));
    CS = E.defaultCardset;
    let info = null;
    if (site) {
      info = JSON.parse(new TextDecoder().decode(await siteBytes));
      cardset = info.cardset;
    }
    if (cardset) CS = E.loadCardset(await fetchBytes(cardset));
    if (info) {
      if (E.cardsetHash(CS) !== info.cardset_hash) {
        throw new Error(`site.json describes card set ${info.cardset_hash}, the engine loaded ${E.cardsetHash(CS)}`);
      }
      if (info.tables.export.size !== E.exportSize || info.tables.num_actions !== E.numActions) {
        throw new Error("site.json was written for another engine build (export layout or action count differs)");
      }
      setTables(info.tables);
      SITE = new Site(E, CS, info);
    }
    return { cardset_hash: E.cardsetHash(CS), num_actions: E.numActions, load_ms: performance.now() - t0,
             meta: info ? info.meta : null };
  },
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
  // the play server's endpoints (azuki/web/server.py), answered here
  newGame: async (body) => { await site().prepare(body); return site().newGame(body); },
  state: (args) => site().gameState(args),
  act: (args) => site().gameAct(args),
  replayText: (args) => site().gameReplay(args),
  openReplay: (text) => site().openReplay(text),
  replayState: (args) => site().replayState(args),
};

function site() {
  if (!SITE) throw new Error("no site loaded (init with site.json)");
  return SITE;
}

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
    self.postMessage({ id, error: String((e && e.message) || e), status: e && e.status });
  }
};

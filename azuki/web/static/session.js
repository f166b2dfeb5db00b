// The play server's games and replays (azuki/web/sessions.py, azuki/web/server.py
// new_game / game_state / game_act / replays) for the static site, run in the
// page's worker over the WebAssembly engine: the same requests, checks and
// payloads, with the words of words.js. A request that the server would refuse
// throws an error with the server's status (400, 403, 404, 409) and message.
// Checkpoint opponents (the reference checkpoint, when the module has the C
// policy forward pass) sample from the policy as azuki.policy_np's
// NumpyPolicyPlayer does and record the same inspection data in the replay.
// Not here: remote play (it needs a server), the search bot's time budget (a
// worker cannot be interrupted mid-call: the page caps its simulations instead).
import {
  Words, WGame, eventDicts, eventEntries, markAutoEnd, statePayload, actionText, tables,
} from "./words.js";

export class RequestError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

const BOTS = { random: 0, greedy: 1, search: 2 };
const MAX_GAMES = 16, MAX_REPLAYS = 8, MAX_REPLAY_STEPS = 5000, SNAP_EVERY = 16;
const HEX16 = /^[0-9a-f]{16}$/;

function token(n = 18) {
  const b = new Uint8Array(n);
  crypto.getRandomValues(b);
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function randBits(bits) {          // a random non-negative integer below 2**bits (bits <= 62), as a BigInt
  const w = new Uint32Array(2);
  crypto.getRandomValues(w);
  return ((BigInt(w[0]) << 32n) | BigInt(w[1])) & ((1n << BigInt(bits)) - 1n);
}
const isInt = (v) => Number.isInteger(v);

export class Site {
  // engine: engine.js Engine; cs: its card set; site: site.json (meta, tables, cardset)
  constructor(engine, cs, site) {
    this.E = engine; this.cs = cs; this.site = site; this.meta = site.meta;
    this.words = new Words(site.meta.cards);
    this.games = new Map(); this.replays = new Map();
  }
  deckIndex(name) {
    const i = this.meta.decks.indexOf(name);
    if (i < 0) throw new RequestError(400, `decks must be two of ${JSON.stringify(this.meta.decks)}`);
    return i;
  }
  newGameOf(seed, decks, turnCap = 200) {
    const g = this.E.newGame(this.cs, seed, this.deckIndex(decks[0]), this.deckIndex(decks[1]), turnCap);
    return new WGame(g, decks);
  }
  // the weights of checkpoint `name` (site.json "weights"), fetched and loaded once, on first use
  async policy(name) {
    this.policies = this.policies || {};
    if (!this.policies[name]) {
      const file = (this.site.weights || {})[name];
      if (!file) throw new RequestError(400, `checkpoint opponent unavailable: no weights for ${name} in this site`);
      const r = await fetch(new URL(file, self.location.href));
      if (!r.ok) throw new RequestError(400, `checkpoint opponent unavailable: ${file}: HTTP ${r.status}`);
      this.policies[name] = this.E.loadPolicy(await r.arrayBuffer());
    }
    return this.policies[name];
  }
  async prepare(body) {     // before newGame: load a checkpoint opponent's weights
    const opp = body && body.opponent;
    if (typeof opp === "string" && opp.startsWith("ckpt:")) {
      const o = this.meta.opponents.find((x) => x.id === opp);
      if (o && o.error) throw new RequestError(400, `checkpoint opponent unavailable: ${o.error}`);
      if (o) await this.policy(opp.slice(5));
    }
  }
  opponent(spec, sims) {
    const seed = randBits(62);
    if (typeof spec === "string" && spec.startsWith("ckpt:") && this.policies && this.policies[spec.slice(5)]) {
      const o = this.meta.opponents.find((x) => x.id === spec);
      return { spec: `checkpoint:${spec.slice(5)}`, label: o.label.split(" (")[0], kind: "policy",
               pol: this.policies[spec.slice(5)] };
    }
    if (spec === "random" || spec === "greedy") return { spec, label: spec, kind: BOTS[spec], sims: 0, rng: this.E.botRng(seed) };
    if (spec === "search") {
      const o = this.meta.opponents.find((x) => x.id === "search").sims;
      if (sims === undefined || sims === null) sims = o.default;
      if (!isInt(sims) || sims < 1 || sims > o.max) throw new RequestError(400, `sims must be an integer in [1, ${o.max}]`);
      return { spec: `search:sims=${sims}`, label: `search (${sims} sims)`, kind: 2, sims, rng: this.E.botRng(seed) };
    }
    const names = this.meta.opponents.map((o) => o.id).join(", ");
    throw new RequestError(400, `unknown opponent ${JSON.stringify(String(spec).slice(0, 40))} (one of: ${names})`);
  }

  // ---- the server's endpoints -------------------------------------------------------------
  newGame(body) {
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new RequestError(400, "expected a JSON object");
    const unknown = Object.keys(body).filter((k) => !["mode", "decks", "human_seat", "opponent", "sims", "seed"].includes(k));
    if (unknown.length) throw new RequestError(400, `unknown keys: ${unknown.sort().join(", ").slice(0, 100)}`);
    const mode = body.mode === undefined ? "bot" : body.mode;
    if (mode === "remote") throw new RequestError(400, "two machines need the play server (python -m azuki play); the static site plays on one screen");
    if (mode !== "bot" && mode !== "hotseat") throw new RequestError(400, "mode must be 'bot' or 'hotseat'");
    const D = this.meta.decks;
    const decks = body.decks === undefined ? (D.length > 1 ? D.slice(0, 2) : [D[0], D[0]]) : body.decks;
    if (!Array.isArray(decks) || decks.length !== 2 || decks.some((d) => !D.includes(d))) {
      throw new RequestError(400, `decks must be two of ${JSON.stringify(D)}`);
    }
    let seed = body.seed;
    if (seed !== undefined && seed !== null && (!isInt(seed) || seed < 0 || seed > Number.MAX_SAFE_INTEGER)) {
      throw new RequestError(400, "seed must be an integer in [0, 2**53)");
    }
    let players;
    if (mode === "hotseat") players = [null, null];
    else {
      const hs = body.human_seat === undefined ? 0 : body.human_seat;
      if (hs !== 0 && hs !== 1) throw new RequestError(400, "human_seat must be 0 or 1");
      const opp = this.opponent(body.opponent === undefined ? "random" : body.opponent, body.sims);
      players = hs === 0 ? [null, opp] : [opp, null];
    }
    if (this.games.size >= MAX_GAMES) {        // the oldest game goes (a page holds one or two)
      const [id, old] = this.games.entries().next().value;
      old.free(); this.games.delete(id);
    }
    // 52 bits: a seed a JavaScript number holds exactly (as the server's)
    const s = new GameSession(this, decks, players, seed === undefined || seed === null ? Number(randBits(52)) : seed, mode);
    this.games.set(s.id, s);
    return { game: s.id, keys: Object.fromEntries(Object.entries(s.keys)), mode };
  }
  session(gid) {
    const s = this.games.get(gid);
    if (!s) throw new RequestError(404, "no such game (unknown id, or freed)");
    return s;
  }
  gameState({ game, seat, key, since = 0 }) {
    const s = this.session(game);
    s.checkKey(seat, key);
    s.advance();
    return s.payload(seat, Math.min(since, s.events.length));
  }
  gameAct({ game, key, body }) {
    if (typeof body !== "object" || body === null) throw new RequestError(400, "expected a JSON object {seat, token, action}");
    const s = this.session(game);
    const seat = body.seat;
    if (seat !== 0 && seat !== 1) throw new RequestError(400, "seat must be 0 or 1");
    const since = isInt(body.since) && body.since >= 0 ? body.since : 0;
    s.checkKey(seat, key);
    s.act(seat, body.token, body.action);
    return s.payload(seat, Math.min(since, s.events.length));
  }
  gameReplay({ game, seat, key }) {
    const s = this.session(game);
    s.checkKey(seat, key);
    if (!s.game.isTerminal) throw new RequestError(409, "the replay is available once the game is over (it reveals both hands)");
    return s.replayText();
  }
  openReplay(text) {
    if (this.replays.size >= MAX_REPLAYS) {
      const [id] = this.replays.keys();
      this.replays.get(id).free(); this.replays.delete(id);
    }
    const r = new ReplaySession(this, text);
    this.replays.set(r.id, r);
    return { replay: r.id, steps: r.n, message: r.message, players: r.players, decks: r.decks, inspection: r.policies.size > 0 };
  }
  replayState({ replay, step, view }) {
    const r = this.replays.get(replay);
    if (!r) throw new RequestError(404, "no such replay (unknown id, or freed)");
    view = String(view);
    if (!["0", "1", "full"].includes(view)) throw new RequestError(400, "view must be 0, 1 or full");
    return r.payload(Number(step), view === "full" ? "full" : Number(view));
  }
}

class GameSession {
  constructor(site, decks, players, seed, mode) {
    this.site = site; this.id = token(); this.seed = seed; this.decks = decks; this.players = players; this.mode = mode;
    this.game = site.newGameOf(seed, decks);
    this.initialHash = this.game.g.hash();
    this.steps = [];
    this.keys = {};
    players.forEach((p, s) => { if (p === null) this.keys[s] = token(); });
    this.events = [];
    this.drain(null);
    this.advance();
  }
  free() { this.game.g.free(); }
  drain(actionType) {
    const evs = eventDicts(this.game, this.game.g.events());
    if (evs.length) {
      for (const e of markAutoEnd(eventEntries(this.game, evs, this.site.words, this.game.turn), actionType)) {
        e.n = this.events.length;
        this.events.push(e);
      }
    }
  }
  step(a, info) {
    const t = this.game.actionType(a), p = this.game.currentPlayer;
    const st = this.game.g.step(a);
    if (st !== 0) throw new RequestError(400, `action ${a} is not legal here (use an id from the legal list)`);
    this.steps.push({ player: p, action: a, hash: this.game.g.hash() });
    if (info) this.steps[this.steps.length - 1].policy = info;
    this.drain(t);
  }
  advance() {
    let n = 0;
    while (!this.game.isTerminal && this.players[this.game.currentPlayer] !== null && n < 100000) {
      const p = this.players[this.game.currentPlayer];
      if (p.kind === "policy") {
        const [a, info] = policyDecision(this.game.g, p.pol);
        this.step(a, info);
      } else this.step(this.game.g.botAct(p.kind, p.rng, p.sims));
      n++;
    }
  }
  get token() { return String(this.steps.length); }
  checkKey(seat, key) {
    if (!(seat in this.keys)) throw new RequestError(403, `seat ${seat} of this game is not a human's: its view is not served`);
    if (typeof key !== "string" || key !== this.keys[seat]) throw new RequestError(403, "wrong or missing seat key for this game");
  }
  payload(seat, since = 0) {
    const out = statePayload(this.game, seat, this.site.words);
    Object.assign(out, {
      game: this.id, seat, token: this.token, humans: Object.keys(this.keys).map(Number).sort(),
      players: this.players.map((p) => (p === null ? "human" : p.label)),
      events: this.events.slice(since).map((e) => ({ n: e.n, type: e.type, player: e.player, turn: e.turn, text: e.texts[seat] })),
      next_event: this.events.length, mode: this.mode,
    });
    return out;
  }
  act(seat, tok, action) {
    const g = this.game;
    if (g.isTerminal) throw new RequestError(409, "the game is over: no more actions");
    if (tok !== this.token) {
      throw new RequestError(409, `stale state: this action was chosen at state ${JSON.stringify(tok)}, the game is now at `
        + `"${this.token}" (another tab or an old page?); reload the state`);
    }
    if (g.currentPlayer !== seat) throw new RequestError(409, `not seat ${seat}'s decision (P${g.currentPlayer} decides)`);
    if (!isInt(action)) throw new RequestError(400, "action must be an integer action id from the legal list");
    if (action < 0 || action >= this.site.E.numActions || !g.g.isLegal(action)) {
      throw new RequestError(400, `action ${action} is not legal here (use an id from the legal list)`);
    }
    this.step(action);
    this.advance();
  }
  // the replay file (docs/replays.md) as text: the seed written as the exact integer it is
  replayText() {
    const T = tables();
    const d = { format: "azuki-replay/1", cardset: T.cardset_hash, cards: this.site.site.cards_source || null,
                decks: this.decks, seed: "@SEED@", turn_cap: this.game.g.e.x.azk_turn_cap(this.game.g.g),
                initial_hash: this.initialHash, steps: this.steps, result: this.game.result,
                players: this.players.map((p) => (p === null ? "human" : p.spec)) };
    return JSON.stringify(d).replace('"@SEED@"', String(this.seed));
  }
}

const round4 = (x) => Math.round(x * 1e4) / 1e4;

// azuki.policy_np decision_info + NumpyPolicyPlayer.act: the legal actions' probabilities under the
// policy (renormalised; uniform if they sum to 0), a sampled action, and the inspection record
// {value, probs: [[action, p], ...] most likely first, p >= 0.001, at most 16}
function policyDecision(game, pol) {
  const legal = game.legal(), { logp, value } = game.policyForward(pol);
  let pl = legal.map((a) => Math.exp(logp[a]));
  const s = pl.reduce((x, y) => x + y, 0);
  pl = s > 0 ? pl.map((x) => x / s) : legal.map(() => 1 / legal.length);
  const order = legal.map((_, i) => i).sort((i, j) => pl[j] - pl[i] || i - j);
  const info = { value: round4(value), probs: order.slice(0, 16).filter((i) => pl[i] >= 0.001).map((i) => [legal[i], round4(pl[i])]) };
  const u = new Uint32Array(2);
  crypto.getRandomValues(u);
  let r = (u[0] * 2 ** 21 + (u[1] >>> 11)) / 2 ** 53, k = 0;
  while (k < legal.length - 1 && r >= pl[k]) { r -= pl[k]; k++; }
  const a = legal[k];
  return [a, info.probs.length ? info : { ...info, probs: [[a, 1.0]] }];
}

const REPLAY_KEYS = ["format", "cardset", "cards", "decks", "seed", "turn_cap", "initial_hash", "steps", "result", "players"];
const STEP_KEYS = ["player", "action", "hash", "policy"];
const bad = (where, what) => new RequestError(400, `not a valid replay: ${where}: ${what}`);
const short = (v) => { const t = JSON.stringify(v) ?? String(v); return t.length <= 40 ? t : t.slice(0, 37) + "..."; };

// sessions.py check_replay, for a replay's text (its seed read as the exact integer the text holds)
function parseReplay(text, numActions, T) {
  let rep;
  try { rep = JSON.parse(text); } catch (e) { throw new RequestError(400, `the body is not JSON (${String(e.message).slice(0, 80)})`); }
  if (typeof rep !== "object" || rep === null || Array.isArray(rep)) throw bad("replay", "expected a JSON object");
  for (const k of Object.keys(rep)) if (!REPLAY_KEYS.includes(k)) throw bad(`replay.${k.slice(0, 40)}`, `unknown key (expected some of ${REPLAY_KEYS.join(", ")})`);
  for (const k of ["format", "cardset", "decks", "seed", "initial_hash", "steps"]) if (!(k in rep)) throw bad("replay", `missing key '${k}'`);
  if (rep.format !== "azuki-replay/1") throw bad("replay.format", `expected 'azuki-replay/1', got ${short(rep.format)}`);
  for (const k of ["cardset", "initial_hash"]) {
    if (typeof rep[k] !== "string" || !HEX16.test(rep[k])) throw bad(`replay.${k}`, `expected 16 lowercase hex digits, got ${short(rep[k])}`);
  }
  const d = rep.decks;
  if (!Array.isArray(d) || d.length !== 2 || !d.every((x) => typeof x === "string" && x.length > 0 && x.length <= 200)) {
    throw bad("replay.decks", `expected two deck names, got ${short(d)}`);
  }
  const m = /"seed"\s*:\s*(-?\d+)\s*[,}]/.exec(text);
  if (!isInt(rep.seed) || !m || BigInt(m[1]) < 0n || BigInt(m[1]) >= (1n << 64n)) {
    throw bad("replay.seed", `expected an integer in [0, 2**64), got ${short(rep.seed)}`);
  }
  rep.seed = BigInt(m[1]);
  if ("turn_cap" in rep && (!isInt(rep.turn_cap) || rep.turn_cap < 1 || rep.turn_cap > 60000)) {
    throw bad("replay.turn_cap", `expected an integer in [1, 60000], got ${short(rep.turn_cap)}`);
  }
  if ("result" in rep && !T.RESULT.includes(rep.result)) throw bad("replay.result", `expected one of ${T.RESULT.join(", ")}, got ${short(rep.result)}`);
  const pl = rep.players;
  if (pl !== undefined && pl !== null && (!Array.isArray(pl) || pl.length !== 2 || !pl.every((x) => typeof x === "string" && x.length <= 200))) {
    throw bad("replay.players", `expected two player labels, got ${short(pl)}`);
  }
  if (!Array.isArray(rep.steps)) throw bad("replay.steps", `expected a list, got ${typeof rep.steps}`);
  if (rep.steps.length > MAX_REPLAY_STEPS) throw new RequestError(413, `replay too long: ${rep.steps.length} steps (at most ${MAX_REPLAY_STEPS})`);
  rep.steps.forEach((st, i) => {
    const w = `replay.steps[${i}]`;
    if (typeof st !== "object" || st === null || Array.isArray(st)) throw bad(w, `expected an object, got ${short(st)}`);
    for (const k of Object.keys(st)) if (!STEP_KEYS.includes(k)) throw bad(`${w}.${k.slice(0, 40)}`, `unknown key (expected some of ${STEP_KEYS.join(", ")})`);
    for (const k of ["action", "hash"]) if (!(k in st)) throw bad(w, `missing key '${k}'`);
    if (!isInt(st.action) || st.action < 0 || st.action >= numActions) throw bad(`${w}.action`, `expected an action id in [0, ${numActions}), got ${short(st.action)}`);
    if (typeof st.hash !== "string" || !HEX16.test(st.hash)) throw bad(`${w}.hash`, `expected 16 lowercase hex digits, got ${short(st.hash)}`);
    if ("player" in st && st.player !== 0 && st.player !== 1) throw bad(`${w}.player`, `expected 0 or 1, got ${short(st.player)}`);
    if ("policy" in st) {
      const p = st.policy;
      if (typeof p !== "object" || p === null || !Array.isArray(p.probs || [])) throw bad(`${w}.policy`, "expected an object {value, probs}");
    }
  });
  return rep;
}

class ReplaySession {
  constructor(site, text) {
    const T = tables();
    const rep = parseReplay(text, site.E.numActions, T);
    if (rep.cards !== undefined && rep.cards !== null && rep.cards !== (site.site.cards_source || null)) {
      throw new RequestError(400, `this replay uses the card set ${JSON.stringify(String(rep.cards).slice(0, 80))}: `
        + "write a static site with it (python -m azuki play --static DIR --cards FILE) to view it");
    }
    this.site = site; this.id = token();
    this.decks = [...rep.decks];
    for (const dname of this.decks) {
      if (!site.meta.decks.includes(dname)) throw new RequestError(400, `replay check failed: unknown deck ${JSON.stringify(dname)}`);
    }
    const g = site.newGameOf(rep.seed, this.decks, rep.turn_cap === undefined ? 200 : rep.turn_cap);
    const fail = (msg) => { g.g.free(); this.freeSnaps(); throw new RequestError(400, `replay check failed: ${msg}`); };
    this.snaps = [];
    if (T.cardset_hash !== rep.cardset) fail(`card set differs: replay '${rep.cardset}', this engine ${T.cardset_hash}`);
    if (g.g.hash() !== rep.initial_hash) fail(`diverged at setup: hash ${g.g.hash()}, replay '${rep.initial_hash}'`);
    this.actions = rep.steps.map((s) => s.action);
    this.movers = rep.steps.map((s) => ("player" in s ? s.player : null));
    this.policies = new Map();
    rep.steps.forEach((s, i) => { if ("policy" in s) this.policies.set(i, [s.policy.value ?? null, (s.policy.probs || []).map((e) => [...e])]); });
    this.players = rep.players === undefined ? null : rep.players;
    this.result = rep.result === undefined ? null : rep.result;
    this.n = rep.steps.length;
    const words = site.words;
    this.stepEvents = [eventEntries(g, eventDicts(g, g.g.events()), words, g.turn)];
    this.snaps.push(g.g.clone());
    rep.steps.forEach((s, i) => {
      if ("player" in s && g.currentPlayer !== s.player) fail(`diverged at step ${i}: player ${g.currentPlayer} to act, replay says ${s.player}`);
      const t = g.actionType(s.action), text = g.actionStr(s.action), phase = T.PHASE[g.g.e.x.azk_phase(g.g.g)];
      const st = g.g.step(s.action);
      if (st === 2) fail(`diverged at step ${i}: the game is over (${g.result}); action ${s.action} not applied`);
      if (st !== 0) fail(`diverged at step ${i}: illegal action ${s.action} (${text}) in phase ${phase}`);
      if (g.g.hash() !== s.hash) fail(`diverged at step ${i}: hash ${g.g.hash()}, replay '${s.hash}'`);
      this.stepEvents.push(markAutoEnd(eventEntries(g, eventDicts(g, g.g.events()), words, g.turn), t));
      if ((i + 1) % SNAP_EVERY === 0) this.snaps.push(g.g.clone());
    });
    if (this.result !== null && g.result !== this.result) fail(`result ${g.result}, replay says '${this.result}'`);
    this.message = `ok: ${this.n} steps verified, result ${g.result}`;
    g.g.free();
  }
  freeSnaps() { for (const s of this.snaps || []) s.free(); this.snaps = []; }
  free() { this.freeSnaps(); }
  gameAt(step) {
    const k = Math.floor(step / SNAP_EVERY);
    const g = new WGame(this.snaps[k].clone(), this.decks);
    for (const a of this.actions.slice(k * SNAP_EVERY, step)) g.g.step(a);
    return g;
  }
  payload(step, view) {
    const n = this.n, words = this.site.words;
    if (!isInt(step) || step < 0 || step > n) throw new RequestError(400, `step must be an integer in [0, ${n}]`);
    const prev = step > 0 ? this.gameAt(step - 1) : null;
    let g;
    if (prev !== null) { g = new WGame(prev.g.clone(), this.decks); g.g.step(this.actions[step - 1]); } else g = this.gameAt(0);
    try {
      const seat = view === "full" ? null : view;
      const out = statePayload(g, seat, words);
      const k = seat === null ? 2 : seat;
      const events = [];
      for (let i = 0; i <= step; i++) {
        for (const e of this.stepEvents[i]) events.push({ type: e.type, player: e.player, turn: e.turn, text: e.texts[k], step: i, new: i === step });
      }
      Object.assign(out, { replay: this.id, step, steps: n, view_mode: view, message: this.message, players: this.players,
                           result: this.result, events });
      if (step > 0) {
        const a = this.actions[step - 1];
        let who = this.movers[step - 1];
        who = who === null ? prev.currentPlayer : who;
        const seen = seat === null || seat === who;
        out.last = { player: who, action: seen ? a : null, text: actionText(prev, a, seat, words) };
      }
      if (step < n && seat === null && this.policies.has(step)) {
        const [value, probs] = this.policies.get(step);
        out.policy = { value, player: this.movers[step], chosen: this.actions[step],
                       probs: probs.map(([a, p]) => [a, p, actionText(g, a, null, words)]) };
      }
      return out;
    } finally {
      g.g.free();
      if (prev !== null) prev.g.free();
    }
  }
}

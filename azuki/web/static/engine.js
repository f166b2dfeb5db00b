// The engine in WebAssembly (azuki.wasm, built by wasm/build.py from csrc/ and
// wasm/azuki_wasm.c): a thin JS face over csrc/azuki.h's public API. Loaded by
// the page's worker (worker.js), by the self-test and by tests under node; it
// touches no DOM. The module has no imports: memory is fixed (16 MiB), nothing
// prints, 64-bit values (seeds, hashes) cross as BigInt.
//
// A Game owns a block of the module's heap; free() it when done (the page
// keeps at most a few). Hashes are 16 lowercase hex digits, as in replays.

export async function loadEngine(source) {
  let bytes = source;
  if (typeof source === "string" || source instanceof URL) {
    const r = await fetch(source);
    if (!r.ok) throw new Error(`could not load ${source}: HTTP ${r.status}`);
    bytes = await r.arrayBuffer();
  }
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const x = instance.exports;
  if (x._initialize) x._initialize();
  return new Engine(x);
}

const hex = (v) => BigInt.asUintN(64, v).toString(16).padStart(16, "0");

export class Engine {
  constructor(x) {
    this.x = x;
    this.numActions = x.azk_num_actions();
    this.exportSize = x.azk_export_size();
    this.scratch = x.malloc(4 * Math.max(this.numActions, this.exportSize, 64) + 64);
    this.defaultCardset = x.azk_default_cardset();
  }
  get mem() { return this.x.memory.buffer; }
  i32(ptr, n) { return new Int32Array(this.mem, ptr, n); }

  // A card set from pack.py's bytes (python -m azuki play --static writes them); throws on a bad image.
  loadCardset(bytes) {
    const x = this.x, u8 = new Uint8Array(bytes);
    const p = x.malloc(u8.length), st = this.scratch;
    new Uint8Array(this.mem, p, u8.length).set(u8);
    const cs = x.azw_cardset_load(p, u8.length, st);
    const status = this.i32(st, 1)[0];
    x.free(p);
    if (!cs) throw new Error(`the engine rejected the card set image (status ${status})`);
    return cs;
  }
  cardsetHash(cs) { return hex(this.x.azk_cardset_hash(cs)); }

  newGame(cs, seed, deck0, deck1, turnCap = 0) {
    const g = this.x.azw_game_new(cs, BigInt.asUintN(64, BigInt(seed)), deck0, deck1, turnCap);
    if (!g) throw new Error(`bad game setup (decks ${deck0}, ${deck1})`);
    return new Game(this, cs, g);
  }

  botRng(seed) { return this.x.azw_bot_rng(BigInt.asUintN(64, BigInt(seed))); }

  // A checkpoint from its AZKW weight file (csrc/policy.c), when the module has the policy forward pass.
  get hasPolicy() { return typeof this.x.azw_policy_load === "function"; }
  loadPolicy(bytes) {
    if (!this.hasPolicy) throw new Error("this engine build has no policy forward pass");
    const x = this.x, u8 = new Uint8Array(bytes), p = x.malloc(u8.length), msg = x.malloc(256);
    new Uint8Array(this.mem, p, u8.length).set(u8);
    const pol = x.azw_policy_load(p, u8.length, this.scratch, msg, 256);
    const status = this.i32(this.scratch, 1)[0];
    const text = new TextDecoder().decode(new Uint8Array(this.mem, msg, 256)).split("\0")[0];
    x.free(p); x.free(msg);
    if (!pol) throw new Error(`the engine rejected the weights (status ${status}: ${text})`);
    return pol;
  }

  // N seeded games in C (wasm/azuki_wasm.c azw_selftest): their decisions and, per game,
  // [final state hash, digest of every step's hash] in hex.
  selftest(cs, n, seed, deck0, deck1, kind0 = 0, kind1 = 0, sims = 0) {
    const x = this.x, out = x.malloc(16 * Math.max(1, n));
    try {
      const d = x.azw_selftest(cs, n, BigInt.asUintN(64, BigInt(seed)), deck0, deck1, kind0, kind1, sims, out);
      if (d < 0n) throw new Error(`self-test failed: status ${-d}`);
      const h = new BigUint64Array(this.mem, out, 2 * n);
      const hashes = [];
      for (let i = 0; i < n; i++) hashes.push([hex(h[2 * i]), hex(h[2 * i + 1])]);
      return { decisions: Number(d), hashes };
    } finally { x.free(out); }
  }
}

export class Game {
  constructor(engine, cs, ptr) { this.e = engine; this.cs = cs; this.g = ptr; }
  free() { if (this.g) { this.e.x.azw_free(this.g); this.g = 0; } }
  clone() { return new Game(this.e, this.cs, this.e.x.azw_game_clone(this.g)); }
  get currentPlayer() { return this.e.x.azk_current_player(this.g); }
  get isTerminal() { return !!this.e.x.azk_is_terminal(this.g); }
  get result() { return this.e.x.azk_result(this.g); }
  get winner() { return this.e.x.azk_winner(this.g); }
  get turn() { return this.e.x.azk_turn(this.g); }
  get decisions() { return this.e.x.azk_decisions(this.g); }
  get endReason() { return this.e.x.azk_end_reason(this.g); }
  hash() { return hex(this.e.x.azk_hash(this.g)); }
  legal() {
    const n = this.e.x.azk_legal_actions(this.g, this.cs, this.e.scratch, this.e.numActions);
    return Array.from(this.e.i32(this.e.scratch, Math.max(n, 0)));
  }
  isLegal(a) { return !!this.e.x.azk_is_legal(this.g, this.cs, a); }
  // 0 ok; else an azk_status (1 illegal, 2 terminal, ...), nothing changed
  step(a) { return this.e.x.azk_step(this.g, this.cs, a); }
  decode(a) {
    const s = this.e.scratch;
    if (this.e.x.azk_decode(a, s, s + 4, s + 8) !== 0) return null;
    return Array.from(this.e.i32(s, 3));
  }
  describe(a) {
    if (this.e.x.azk_describe(this.g, this.cs, a, this.e.scratch) !== 0) return null;
    return Array.from(this.e.i32(this.e.scratch, 11));
  }
  export() {
    const n = this.e.x.azk_export(this.g, this.cs, this.e.scratch, this.e.exportSize);
    if (n !== this.e.exportSize) throw new Error("azk_export failed");
    return Int32Array.from(this.e.i32(this.e.scratch, n));
  }
  // drained packed events, oldest first, as [type, player, card, value]
  events() {
    const x = this.e.x, s = this.e.scratch, out = [];
    for (;;) {
      const n = x.azk_events(this.g, s, 128);
      const raw = Uint32Array.from(new Uint32Array(this.e.mem, s, n));
      for (const ev of raw) {
        x.azk_event_unpack(ev, s + 1024, s + 1028, s + 1032, s + 1036);
        out.push(Array.from(this.e.i32(s + 1024, 4)));
      }
      if (n < 128) return out;
    }
  }
  cardKnown(player, card) { return this.e.x.azk_card_known(this.g, player, card); }
  // a checkpoint's (engine.loadPolicy) log-probabilities of every flat action and its value for
  // the player to act, from that player's observation
  policyForward(pol) {
    const x = this.e.x, n = this.e.numActions, lp = x.malloc(4 * n + 8);
    try {
      const st = x.azw_policy_forward(pol, this.g, this.cs, lp, lp + 4 * n);
      if (st < 0) throw new Error(`the policy failed: status ${-st}`);
      return { logp: Float32Array.from(new Float32Array(this.e.mem, lp, n)),
               value: new Float32Array(this.e.mem, lp + 4 * n, 1)[0] };
    } finally { x.free(lp); }
  }
  // a built-in bot's action (0 random, 1 greedy, 2 search with `sims`), drawing from rng (engine.botRng)
  botAct(kind, rng, sims = 0) {
    const a = this.e.x.azw_bot_act(this.g, this.cs, kind, rng, sims);
    if (a < 0) throw new Error(`bot failed: status ${-a}`);
    return a;
  }
}

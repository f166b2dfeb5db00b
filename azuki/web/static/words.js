// The play server's per-position payload, computed in the browser for the
// static site (docs/play.md "Static site"): a line-by-line port of
// azuki/state.py (reading azk_export), azuki/view.py (seat_view, full_view),
// azuki/text.py (Game.describe, action_str) and azuki/web/words.py (the
// page's words) over the WebAssembly engine (engine.js). Every vocabulary and
// layout comes from `T`, the tables python -m azuki play --static writes into
// site.json from the same generated sources the Python side reads
// (spec_autogen, the export layout, the card set): nothing is retyped here.
// tests/test_wasm_words.py plays seeded games of every bot pairing and
// requires these functions to give the Python side's payloads exactly, field
// for field: the test is what keeps the two from drifting.

let T = null;            // site.json "tables"
let ZONES, DURATIONS, STATUSES, X, CAP, CF, READ, UNNAMED;

export function setTables(tables) {
  T = tables;
  ZONES = T.ZONE.map((z) => z.toLowerCase());
  DURATIONS = T.DURATION.map((d) => d.toLowerCase());
  STATUSES = T.STATUS.map((s) => s.toLowerCase());
  X = {};
  CAP = {};
  for (const [name, [off, cnt]] of Object.entries(T.export.fields)) { X[name] = off; CAP[name] = Math.floor(cnt / 2); }
  // card flags: bit i = CARD_FLAG[i] (csrc/azk_enums.def), as azuki/state.py's CF_*
  CF = Object.fromEntries(T.CARD_FLAG.map((n, i) => [n, 1 << i]));
  // how each action parameter kind reads (csrc/azk_actions.def AZK_ACTION_PARAM_READ, as azuki/text.py's READ)
  READ = Object.fromEntries(T.ACTION_PARAM_READ.map((k, i) => [k, T.ACTION_PARAM_READ_ARGS[i]]));
  UNNAMED = new Set(T.UNNAMED.map(([t, i]) => `${t}/${i}`));
}
export const tables = () => T;

const ROW = () => T.CAPS.AZK_ROW;

function statusNames(mask) {
  if (!mask) return [];
  return STATUSES.filter((_, i) => mask & (1 << i));
}

// ---- locations (azuki/locations.py) -----------------------------------------------------
const BARE = ["leader", "gate", "aside", "resolving"];
const INDEXED = ["garden", "alley", "hand", "deck", "discard", "ikz_area", "ikz_pile", "look", "out"];
const LOC_RE = /^p([01])\.([a-z_]+)(?:\[(0|[1-9][0-9]{0,3})\])?(?:\.weapons\[(0|[1-9][0-9]{0,3})\])?$/;

function capacity(place) {
  const C = T.CAPS;
  return { garden: C.AZK_ROW, alley: C.AZK_ROW, hand: C.AZK_HAND_CAP, deck: C.AZK_DECK_CAP,
           discard: C.AZK_DISCARD_CAP, ikz_area: C.AZK_IKZ_AREA_CAP, ikz_pile: C.AZK_DECK_IKZ,
           look: C.AZK_LOOK_CAP, out: 1 + 1 + C.AZK_DECK_MAIN + C.AZK_DECK_IKZ + 1, weapons: C.AZK_WEAPON_CAP }[place];
}

export const loc = (player, place, index = null, holder = null) => ({ player, place, index, holder });

export function formatLocation(l) {
  if (l.place === "weapons") return `${formatLocation(l.holder)}.weapons[${l.index}]`;
  if (l.index === null) return `p${l.player}.${l.place}`;
  return `p${l.player}.${l.place}[${l.index}]`;
}

// a Location, or null for a string that is not one (the Python side raises; every caller catches)
export function parseLocation(s) {
  if (typeof s !== "string" || s.length > 64) return null;
  const m = LOC_RE.exec(s);
  if (!m) return null;
  const p = Number(m[1]), place = m[2];
  if (!BARE.includes(place) && !INDEXED.includes(place)) return null;
  if ((m[3] === undefined) !== BARE.includes(place)) return null;
  const i = m[3] === undefined ? null : Number(m[3]);
  if (i !== null && i >= capacity(place)) return null;
  let l = loc(p, place, i);
  if (m[4] !== undefined) {
    if (place !== "leader" && place !== "garden") return null;
    const k = Number(m[4]);
    if (k >= capacity("weapons")) return null;
    l = loc(p, "weapons", k, l);
  }
  return l;
}

const slotLocation = (player, code) => loc(player, code >= 8 ? "alley" : "garden", code & 7);
const holderLocation = (player, code) => (code === 0 ? loc(player, "leader") : loc(player, "garden", code - 1));

// ---- a position: one azk_export (azuki/state.py Position) --------------------------------
export class Position {
  constructor(a) { this.a = a; }
  defOf(c) { return this.a[X.CARD_DEF + c]; }
  idOf(c) { return T.ids[this.a[X.CARD_DEF + c]]; }
  nameOf(c) { return T.names[this.a[X.CARD_DEF + c]]; }
  zoneOf(c) { return ZONES[this.a[X.CARD_ZONE + c]]; }
  plist(field, p) {
    const off = X[field] + p * CAP[field];
    return Array.from(this.a.subarray(off, off + this.a[X[field + "_N"] + p]));
  }
  row(zone, p) {
    const f = zone.toUpperCase(), off = X[f] + p * CAP[f];
    return Array.from(this.a.subarray(off, off + CAP[f]));
  }
  get numCards() { return this.a[X.NUM_CARDS]; }
  get cardsPerPlayer() { return this.a[X.CARDS_PER_PLAYER]; }
  slotCard(p, zone, s) {
    if (!(s >= 0 && s < CAP.GARDEN)) return -1;
    return this.a[X[zone.toUpperCase()] + p * CAP.GARDEN + s];
  }
  outCards(p) {
    const a = this.a, n = this.cardsPerPlayer, tok = a[X.TOKEN + p], out = [];
    for (let c = p * n; c < (p + 1) * n; c++) if (a[X.CARD_ZONE + c] === T.ZONE_OUT && c !== tok) out.push(c);
    if (a[X.CARD_ZONE + tok] === T.ZONE_OUT) out.push(tok);
    return out;
  }
  locOf(c) {
    const a = this.a, p = a[X.CARD_OWNER + c], z = ZONES[a[X.CARD_ZONE + c]], pos = a[X.CARD_POS + c];
    if (BARE.includes(z)) return loc(p, z);
    if (z === "weapon") {
      const h = a[X.CARD_HOLDER + c];
      let n = 0;
      for (const w of this.plist("WEAPONS", p)) {
        if (w === c) break;
        if (a[X.CARD_HOLDER + w] === h) n++;
      }
      return loc(p, "weapons", n, this.locOf(h));
    }
    if (z === "deck") return loc(p, z, a[X.DECK_N + p] - 1 - pos);
    if (z === "ikz_pile") return loc(p, z, a[X.IKZ_PILE_N + p] - 1 - pos);
    if (z === "out") return loc(p, z, this.outCards(p).indexOf(c));
    return loc(p, z, pos);
  }
  where(c) { return formatLocation(this.locOf(c)); }
  cardAt(l) {
    const a = this.a, p = l.player, place = l.place, i = l.index;
    if (place === "leader") return a[X.LEADER + p];
    if (place === "gate") return a[X.GATE + p];
    if (place === "garden" || place === "alley") return this.slotCard(p, place, i);
    if (["hand", "discard", "ikz_area", "look"].includes(place)) {
      const lst = this.plist(place.toUpperCase(), p);
      return i < lst.length ? lst[i] : -1;
    }
    if (place === "deck" || place === "ikz_pile") {
      const lst = this.plist(place.toUpperCase(), p);
      return i < lst.length ? lst[lst.length - 1 - i] : -1;
    }
    if (place === "out") { const o = this.outCards(p); return i < o.length ? o[i] : -1; }
    if (place === "aside") { const tok = a[X.TOKEN + p]; return a[X.CARD_ZONE + tok] === T.ZONE_ASIDE ? tok : -1; }
    if (place === "resolving") {
      const n = this.cardsPerPlayer;
      for (let c = p * n; c < (p + 1) * n; c++) if (a[X.CARD_ZONE + c] === T.ZONE_RESOLVING) return c;
      return -1;
    }
    if (place === "weapons") {
      const h = this.cardAt(l.holder);
      if (h < 0) return -1;
      let n = 0;
      for (const w of this.plist("WEAPONS", p)) {
        if (a[X.CARD_HOLDER + w] === h) { if (n === i) return w; n++; }
      }
      return -1;
    }
    return -1;
  }
  cardInfo(c) {
    return { index: c, id: this.idOf(c), name: this.nameOf(c), owner: this.a[X.CARD_OWNER + c],
             zone: this.zoneOf(c), where: this.where(c) };
  }
  cardDict(c, field) {
    const a = this.a, d = { card: this.idOf(c), index: c };
    if (field) {
      const flags = a[X.CARD_FLAGS + c], used = a[X.CARD_ONCE_USED + c];
      d.tapped = !!(flags & CF.TAPPED);
      d.damage = a[X.CARD_DAMAGE + c];
      d.cooldown = !!(flags & CF.COOLDOWN);
      d.shocked = !!(flags & CF.SHOCKED);
      if (flags & CF.EXPOSED) d.exposed = true;
      d.once_used = [];
      for (let i = 0; i < T.CAPS.AZK_MAX_CARD_ABILITIES; i++) if (used & (1 << i)) d.once_used.push(i);
      d.attack = a[X.CARD_ATTACK + c];
      d.health = a[X.CARD_HEALTH + c];
      d.statuses = statusNames(a[X.CARD_STATUSES + c]);
    }
    return d;
  }
  weaponsOf(p, h, weapons) {
    return weapons.filter((w) => this.a[X.CARD_HOLDER + w] === h).map((w) => ({ card: this.idOf(w), index: w }));
  }
  prompt() {
    const a = this.a;
    if (!a[X.PROMPT_PENDING]) return null;
    const kind = T.PROMPT[a[X.PROMPT_KIND]], owner = a[X.PROMPT_PLACING_OWNER], opts = [];
    for (let i = 0; i < a[X.PROMPT_N]; i++) {
      const v = a[X.PROMPT_OPT + i], o = { index: i, action: T.choose[i] };
      if (["CARD", "BOTTOM_ORDER", "SEARCH", "TOP_ORDER"].includes(kind)) {
        const w = this.where(v);
        Object.assign(o, { card: this.idOf(v), card_index: v, where: w, label: `${this.nameOf(v)} @ ${w}` });
      } else if (kind === "YES_NO") {
        Object.assign(o, { value: v, label: v ? "yes" : "no" });
      } else if (kind === "NUMBER") {
        Object.assign(o, { value: v, label: String(v) });
      } else if (kind === "MODE") {
        const labels = T.mode_labels[a[X.PROMPT_PC]];
        Object.assign(o, { mode: v, label: labels && v < labels.length ? labels[v] : `mode ${v}` });
      } else {
        const l = kind === "SLOT" ? slotLocation(owner, v) : holderLocation(owner, v);
        const w = formatLocation(l), c = this.cardAt(l);
        const label = w + (c >= 0 ? ` ${this.nameOf(c)}` : "");
        if (kind === "SLOT") Object.assign(o, { slot: v, where: w, label });
        else Object.assign(o, { holder: v, where: w, label });
      }
      opts.push(o);
    }
    const optional = !!a[X.PROMPT_OPTIONAL];
    const d = { kind, chooser: a[X.PROMPT_CHOOSER], optional, options: opts,
                decline_action: optional ? T.no_op : null };
    const src = a[X.PROMPT_SOURCE];
    if (src >= 0) { d.source = this.idOf(src); d.source_where = this.where(src); }
    return d;
  }
  playerDict(p) {
    const a = this.a, lead = a[X.LEADER + p], gate = a[X.GATE + p], tok = a[X.TOKEN + p];
    const weapons = this.plist("WEAPONS", p), ids = T.ids;
    const leader = this.cardDict(lead, true);
    leader.weapons = this.weaponsOf(p, lead, weapons);
    const garden = this.row("garden", p).map((c) => {
      if (c < 0) return null;
      const e = this.cardDict(c, true);
      e.weapons = this.weaponsOf(p, c, weapons);
      return e;
    });
    const alley = this.row("alley", p).map((c) => (c < 0 ? null : this.cardDict(c, true)));
    const n = this.cardsPerPlayer, idOf = (c) => ids[a[X.CARD_DEF + c]];
    const deck = this.plist("DECK", p).reverse();
    const out = [];
    for (let c = p * n; c < (p + 1) * n; c++) if (a[X.CARD_ZONE + c] === T.ZONE_OUT && c !== tok) out.push(idOf(c));
    return {
      leader,
      gate: { card: this.idOf(gate), tapped: !!(a[X.CARD_FLAGS + gate] & CF.TAPPED) },
      hand: this.plist("HAND", p).map(idOf),
      hand_revealed: this.plist("HAND", p).map((c) => !!(a[X.CARD_FLAGS + c] & CF.REVEALED)),
      deck: deck.map(idOf),
      deck_known: deck.map((c) => [0, 1].filter((q) => (a[X.CARD_SEEN + c] >> q) & 1)),
      discard: this.plist("DISCARD", p).map(idOf),
      garden, alley,
      ikz_area: this.plist("IKZ_AREA", p).map((c) => ({ card: idOf(c), tapped: !!(a[X.CARD_FLAGS + c] & CF.TAPPED),
                                                        token: c === tok })),
      ikz_pile: a[X.IKZ_PILE_N + p],
      token: this.zoneOf(tok),
      look: this.plist("LOOK", p).map(idOf),
      out,
      played_entities: a[X.PLAYED_ENTITIES + p],
      mulligan_done: !!a[X.MULLIGAN_DONE + p],
    };
  }
  effects() {
    const a = this.a, out = [];
    for (let i = 0; i < a[X.EFFECTS_N]; i++) {
      if (!a[X.FX_LIVE + i]) continue;
      const c = a[X.FX_CARD + i];
      const fx = { where: this.where(c), card: this.idOf(c), duration: DURATIONS[a[X.FX_DURATION + i]],
                   creator: a[X.FX_CREATOR + i] };
      const kind = T.EFFECT_KIND[a[X.FX_KIND + i]];      // csrc/azk_enums.def AZK_EFFECT_KIND
      if (kind === "ATTACK") fx.attack = a[X.FX_AMOUNT + i];
      else if (kind === "REMOVE") fx.removes = statusNames(a[X.FX_STATUS + i]);
      else fx.statuses = statusNames(a[X.FX_STATUS + i]);
      out.push(fx);
    }
    return out;
  }
  // state_dict without the RNG words and the hash (no view shows them)
  stateDict(decks) {
    const a = this.a;
    const combat = a[X.IN_ATTACK] ? { attacker: this.where(a[X.ATTACKER]), target: this.where(a[X.TARGET]),
                                      defender_used: !!a[X.DEFENDER_USED] } : null;
    const er = a[X.END_REASON];
    return {
      cardset: T.cardset_hash, decks: [...decks],
      turn: a[X.TURN], turn_cap: a[X.TURN_CAP], active: a[X.ACTIVE], first_player: a[X.FIRST_PLAYER],
      decisions: a[X.DECISIONS], decision_cap: a[X.DECISION_CAP],
      phase: T.PHASE[a[X.PHASE]], result: T.RESULT[a[X.RESULT]], end_reason: er === 0 ? null : T.END[er],
      current_player: a[X.CURRENT_PLAYER],
      players: [0, 1].slice(0, a[X.PLAYERS]).map((p) => this.playerDict(p)),
      effects: this.effects(), combat, prompt: this.prompt(), pending_triggers: a[X.TRIGGERS_N],
    };
  }
}

// ---- a game with its card data: what the Python side's Game offers the words ---------------
export class WGame {
  constructor(game, decks) { this.g = game; this.decks = decks; this._pos = null; this._stamp = null; }
  pos() {        // one export per position: read again whenever the state hash changed
    const h = this.g.hash();
    if (!this._pos || this._stamp !== h) { this._pos = new Position(this.g.export()); this._stamp = h; }
    return this._pos;
  }
  get currentPlayer() { return this.g.currentPlayer; }
  get isTerminal() { return this.g.isTerminal; }
  get result() { return T.RESULT[this.g.result]; }
  get turn() { return this.g.turn; }
  legalActions() { return this.g.legal(); }
  cardKnown(seat, c) { return this.g.cardKnown(seat, c) === 1; }
  known(seat, where) {      // view.py _known: false for a bad or empty place
    const l = parseLocation(where);
    if (!l) return false;
    const c = this.pos().cardAt(l);
    return c >= 0 && this.cardKnown(seat, c);
  }
  actionType(a) { return T.ACTION[this.g.decode(a)[0]]; }
  // azuki/text.py describe
  describe(a) {
    const raw = this.g.describe(a);
    if (!raw) throw new Error(`action ${a} out of range`);
    const pos = this.pos();
    const [ti, p0, p1, k0, k1, me, c0, c1, ab] = raw;
    const t = T.ACTION[ti], params = [], places = [], cards = [];
    let option = null, pr;
    [[p0, k0, c0], [p1, k1, c1]].forEach(([v, k, c], i) => {
      const kind = T.ACTION_PARAM[k];
      if (paramForm(kind) === "NONE") return;
      const d = { param: i, kind, value: v };
      let where = paramLocation(kind, v, me);
      if (paramForm(kind) === "OPTION") {
        if (pr === undefined) pr = pos.prompt();
        if (pr !== null && v < pr.options.length) {
          option = { ...pr.options[v] };
          where = option.where === undefined ? null : option.where;
          d.label = option.label;
        }
      }
      if (where !== null && where !== undefined) { d.where = where; places.push(where); }
      if (c >= 0) { Object.assign(d, { card: pos.idOf(c), card_index: c, name: pos.nameOf(c) }); cards.push(pos.idOf(c)); }
      params.push(d);
    });
    const hp = params.find((d) => paramZone(d.kind) === "HAND");
    const out = { type: t, p0, p1, player: me, params, places, cards, hand_index: hp ? hp.value : null, option,
                  ability: null };
    if (ab >= 0) {
      out.ability = { index: ab };
      if (raw[9] >= 0) Object.assign(out.ability, { card: T.ids[raw[9]], number: raw[10] });
    }
    return out;
  }
  actionStr(a) { return describeStr(this.describe(a)); }
  cardInfo(c) { return this.pos().cardInfo(c); }
}

// ---- action parameters, as their kind reads (azuki/text.py) ---------------------------------
const PLACE_FORMS = ["INDEX", "PLACE"];
const paramForm = (kind) => READ[kind][0];
const isPlace = (kind) => PLACE_FORMS.includes(READ[kind][0]);
const paramZone = (kind) => (READ[kind][0] === "INDEX" ? READ[kind][2] : null);

export function paramLocation(kind, v, me) {
  const [form, side, zone] = READ[kind];
  if (!PLACE_FORMS.includes(form)) return null;
  const who = side === "ENEMY" ? 1 - me : me;
  if (form === "INDEX") return `p${who}.${zone.toLowerCase()}[${v}]`;
  if (v === 0) return `p${who}.leader`;
  return v <= ROW() ? `p${who}.garden[${v - 1}]` : `p${who}.alley[${v - ROW() - 1}]`;
}

export function describeStr(desc) {
  const t = desc.type, parts = [t];
  let sep = "";
  for (const d of desc.params) {
    const form = paramForm(d.kind);
    if (form === "ABILITY") { parts.push(` ability ${d.value}`); continue; }
    if (form === "OPTION") {
      parts.push(` ${d.value}` + (d.label !== undefined && d.label !== null ? `: ${d.label}` : ""));
      continue;
    }
    if (!PLACE_FORMS.includes(form)) throw new Error(`parameter kind ${d.kind}: no text for form ${form} (words.js)`);
    let txt = d.where;
    if ("name" in d && !UNNAMED.has(`${t}/${d.param}`) && !txt.endsWith(".leader")) txt += ` ${d.name}`;
    parts.push(sep + " " + txt);
    sep = " ->";
  }
  return parts.join("");
}

// ---- views (azuki/view.py) ------------------------------------------------------------------
const PUBLIC = ["cardset", "decks", "turn", "turn_cap", "active", "first_player", "decisions", "decision_cap", "phase",
                "result", "end_reason", "current_player", "effects", "combat", "pending_triggers"];
const PUBLIC_PLAYER = ["leader", "gate", "discard", "garden", "alley", "ikz_area", "token", "played_entities",
                       "mulligan_done"];
const pick = (d, keys) => Object.fromEntries(keys.filter((k) => k in d).map((k) => [k, d[k]]));
const zoneView = (game, seat, p, name, cards) =>
  cards.map((c, i) => (game.known(seat, `p${p}.${name}[${i}]`) ? c : null));
const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);

export function seatView(game, seat) {
  const d = game.pos().stateDict(game.decks);
  const out = { format: T.VIEW_FORMAT, seat, ...pick(d, PUBLIC) };
  out.players = d.players.map((pd, p) => {
    const v = pick(pd, PUBLIC_PLAYER);
    if (p === seat) v.hand = [...pd.hand];
    else {
      const seen = zoneView(game, seat, p, "hand", pd.hand);
      v.hand = seen.filter((c) => c !== null).sort(cmp).concat(seen.filter((c) => c === null));
    }
    v.hand_count = pd.hand.length;
    v.deck_count = pd.deck.length;
    v.deck_known = [];
    pd.deck.forEach((c, i) => { if (game.known(seat, `p${p}.deck[${i}]`)) v.deck_known.push([i, c]); });
    v.ikz_pile_count = pd.ikz_pile;
    v.look = zoneView(game, seat, p, "look", pd.look || []);
    v.out = zoneView(game, seat, p, "out", pd.out || []);
    return v;
  });
  const prompt = d.prompt;
  if (prompt !== null) {
    let pr;
    if (prompt.chooser === seat) {
      pr = { ...prompt };
      pr.options = prompt.options.map((o0) => {
        const o = { ...o0 };
        if ("card" in o && "where" in o && prompt.kind !== "SEARCH" && !game.known(seat, o.where)) {
          o.card = null; o.label = o.where;
          delete o.card_index;
        }
        return o;
      });
    } else {
      pr = pick(prompt, ["kind", "chooser"]);
      const src = prompt.source_where;
      if (src && game.known(seat, src)) { pr.source = prompt.source; pr.source_where = src; }
    }
    out.prompt = pr;
  } else out.prompt = null;
  if (d.current_player === seat && !game.isTerminal) {
    const labels = {};
    if (out.prompt !== null && "options" in out.prompt) {
      for (const o of out.prompt.options) labels[o.action] = `CHOOSE ${o.index}: ${o.label}`;
    }
    out.legal = game.legalActions().map((a) => [a, labels[a] || game.actionStr(a)]);
  } else out.legal = [];
  return out;
}

export function fullView(game) {
  const d = game.pos().stateDict(game.decks);
  const out = { format: T.VIEW_FORMAT, seat: null, ...pick(d, PUBLIC) };
  out.players = d.players.map((pd) => {
    const v = pick(pd, PUBLIC_PLAYER);
    v.hand = [...pd.hand];
    v.hand_count = pd.hand.length;
    v.deck_count = pd.deck.length;
    v.deck_known = pd.deck.map((c, i) => [i, c]);
    v.ikz_pile_count = pd.ikz_pile;
    v.look = [...(pd.look || [])];
    v.out = [...(pd.out || [])];
    return v;
  });
  out.prompt = d.prompt;
  out.legal = game.isTerminal ? [] : game.legalActions().map((a) => [a, game.actionStr(a)]);
  return out;
}

// ---- words (azuki/web/words.py) --------------------------------------------------------------
const humanize = (name) => String(name).replace(/_/g, " ").toLowerCase();
const cap1 = (s) => s.slice(0, 1).toUpperCase() + s.slice(1);
const clean = (text) => String(text).replace(/\*/g, "").trim();
const an = (noun) => { noun = noun.trim(); return ("aeiou".includes(noun.slice(0, 1).toLowerCase()) ? "an " : "a ") + noun; };

const ACTION_WORDS = { END_TURN: "End turn", MULLIGAN_KEEP: "Keep this hand",
                       MULLIGAN_SHUFFLE: "Mulligan (shuffle this hand away, draw a new one)" };
const WHAT_WORDS = { YES_NO: null, NUMBER: "a number", MODE: "one", SLOT: "a slot",
                     HOLDER: "who holds the weapon", SEARCH: "a card from your deck" };

export class Words {
  constructor(cards) { this.cards = cards || {}; }
  name(cid) {
    if (cid === null || cid === undefined) return "a card";
    const rec = this.cards[cid];
    return (rec && rec.name) || String(cid);
  }
  abilityText(ab) {
    if (!ab || !("card" in ab)) return "";
    const rec = this.cards[ab.card] || {};
    const texts = rec.abilities || [];
    const n = "number" in ab ? ab.number : -1;
    const t = n >= 0 && n < texts.length && texts[n] ? texts[n] : rec.text || "";
    return clean(t);
  }
  static whose(p, seat) {
    if (seat === null) return `Player ${p}'s`;
    return p === seat ? "your" : "the opponent's";
  }
  place(where, seat) {
    const l = parseLocation(where);
    if (!l) return "a place";
    if (l.place === "weapons") return `a weapon of ${this.place(formatLocation(l.holder), seat)}`;
    const z = this.zone(l.player, l.place, seat);
    return l.place === "garden" || l.place === "alley" ? `${z}, slot ${l.index + 1}` : z;
  }
  zone(p, place, seat) {
    const zone = { ikz_area: "IKZ area", ikz_pile: "IKZ pile", discard: "discard pile",
                   look: "looked-at cards" }[place] || place.replace(/_/g, " ");
    return `${Words.whose(p, seat)} ${zone}`;
  }
  cardAt(name, where, seat) { return where ? `${name} (${this.place(where, seat)})` : name; }
  action(d, seat, promptLabels) {
    const t = d.type;
    const named = d.params.filter((p) => isPlace(p.kind));
    const nm = (p) => p.name || "a card";
    const at = (p) => this.place(p.where, seat);
    const ab = this.abilityText(d.ability);
    if (t === "NO_OP") return promptLabels ? "Decline" : "Pass (do nothing)";
    if (t in ACTION_WORDS) return ACTION_WORDS[t];
    if (t === "CHOOSE") {
      const v = d.params.find((p) => paramForm(p.kind) === "OPTION").value;
      if (promptLabels && v in promptLabels) return promptLabels[v];
      const o = d.option || {};
      return o.label && !("card" in o) ? o.label : `Choice ${v + 1}`;
    }
    if (t === "PLAY_ENTITY_TO_GARDEN" || t === "PLAY_ENTITY_TO_ALLEY") {
      const card = named[0], slot = named[1];
      return `Play ${nm(card)} to ${at(slot)}` + (slot.name ? `, replacing ${slot.name}` : "");
    }
    if (t === "PLAY_WEAPON") return `Equip ${nm(named[0])} to ${named[1].name || at(named[1])}`;
    if (t === "PLAY_SPELL_MAIN" || t === "PLAY_SPELL_RESPONSE") return `Cast ${nm(named[0])}` + (ab ? `: ${ab}` : "");
    if (t === "ATTACK") return `Attack ${named[1].name || at(named[1])} with ${nm(named[0])}`;
    if (t === "DECLARE_DEFENDER") return `Defend with ${nm(named[0])}`;
    if (t === "PORTAL_GATE") {
      return `Portal ${nm(named[0])} from the alley to ${at(named[1])}` + (named[1].name ? `, replacing ${named[1].name}` : "");
    }
    if (t === "ACTIVATE_ABILITY") return `Use ${nm(named[0])}'s ability` + (ab ? `: ${ab}` : "");
    return (cap1(humanize(t)) + " " + named.map((p) => `${nm(p)} (${at(p)})`).join(", ")).trim();
  }
  optionLabel(pr, o, seat) {
    const kind = pr.kind;
    if (kind === "YES_NO") return o.value ? "Yes" : "No";
    if (kind === "NUMBER") return String(o.value);
    if (kind === "MODE") {
      const lab = o.label || "";
      return lab && !lab.startsWith("mode ") ? clean(lab) : `Choice ${(o.index || 0) + 1}`;
    }
    if ("card" in o) {
      if (o.card === null) return `a card you cannot see (${this.place(o.where, seat)})`;
      return this.cardAt(this.name(o.card), o.where, seat);
    }
    if ("where" in o) {
      const w = this.place(o.where, seat), lab = o.label || "";
      const who = lab.startsWith(o.where) ? lab.slice(o.where.length).trim() : "";
      if (kind === "SLOT") return who ? `Replace ${who} (${w})` : cap1(w) + " (empty)";
      return who ? `${who} (${w})` : cap1(w);
    }
    return "this";
  }
  what(pr, seat) {
    const kind = pr.kind;
    if (kind in WHAT_WORDS) return WHAT_WORDS[kind];
    if (kind === "TOP_ORDER" || kind === "BOTTOM_ORDER") {
      return `the next card to put on the ${kind === "TOP_ORDER" ? "top" : "bottom"} of the deck`;
    }
    const zones = new Map(), types = new Set();
    let badZone = false;
    for (const o of pr.options || []) {
      let l = parseLocation(o.where);
      if (l) {
        if (l.place === "weapons") l = l.holder;
        zones.set(`${l.player}/${l.place}`, [l.player, l.place]);
      } else badZone = true;
      const rec = o.card ? this.cards[o.card] : null;
      types.add((rec || {}).card_type === undefined ? null : (rec || {}).card_type);
    }
    let noun = types.size === 1 && !types.has(null) ? [...types][0] : "card";
    const players = new Set([...zones.values()].map((z) => z[0]));
    const places = new Set([...zones.values()].map((z) => z[1]));
    if ((zones.size || badZone) && !badZone && players.size === 1) {
      const p = [...players][0];
      if ([...places].every((x) => x === "leader" || x === "garden")) {
        if (places.size === 1 && places.has("leader")) noun = "leader";
        else if (places.has("leader")) noun = "entity or leader";
        if (seat === null) return `${an(noun)} of Player ${p}`;
        return p !== seat ? an("enemy " + noun) : an(noun) + " of yours";
      }
      if (places.size === 1) return `${an(noun)} in ${this.zone(p, [...places][0], seat)}`;
    }
    return an(noun);
  }
  prompt(pr, seat, sourceAbility) {
    if (pr === null) return null;
    const src = pr.source;
    const source = src ? this.name(src) : "an effect";
    const mine = seat === null || pr.chooser === seat;
    let does = "";
    if (sourceAbility && src && (mine || sourceAbility.card === src)) does = this.abilityText(sourceAbility);
    if (!does && src) does = clean((this.cards[src] || {}).text || "");
    const what = this.what(pr, seat !== null ? seat : pr.chooser);
    const who = mine ? "" : seat !== null ? "The opponent is choosing" : `Player ${pr.chooser} is choosing`;
    const kind = pr.kind;
    let core;
    if (kind === "YES_NO") core = `${source}: do it?`;
    else if (kind === "MODE") core = `${source}: choose one`;
    else core = `Choose ${what} for ${source}`;
    if (!mine) core = `${who} for ${source}`;
    else if (seat === null) core = `Player ${pr.chooser}: ` + (core.startsWith("Choose") ? "c" + core.slice(1) : core);
    const title = core + (does ? ` — ${does}` : "");
    const labels = {};
    for (const o of pr.options || []) labels[o.index] = this.optionLabel(pr, o, seat);
    return { title, source, does, options: labels, decline: pr.optional ? "Decline (choose nothing)" : null };
  }
  banner(view, seat, over) {
    if (over) return "Game over";
    const cp = view.current_player, phase = view.phase;
    const mine = seat !== null && cp === seat;
    const who = mine ? "You" : seat !== null ? "The opponent" : `Player ${cp}`;
    const combat = view.combat || {};
    if (phase === "MULLIGAN") return mine ? "Keep this hand or mulligan?" : `${who} decides whether to keep their hand`;
    if (phase === "MAIN") {
      return mine ? "Your turn: play cards, attack, use abilities, or end the turn"
        : seat === null ? `${who}'s turn` : "The opponent's turn";
    }
    if (phase === "RESPONSE") {
      const tgt = combat.target;
      return mine ? "Respond to the attack? Cast a response spell, use a response ability, or pass"
        : `${who} may respond to the attack` + (tgt ? ` on ${this.place(tgt, seat)}` : "");
    }
    if (phase === "DEFENDER") return mine ? "Declare a defender, or pass" : `${who} may declare a defender`;
    if (phase === "PROMPT") return mine ? "Your choice (see the panel on the right)" : `${who} is making a choice`;
    return `${who} decide${mine ? "" : "s"}`;
  }
}

export function actionPlaces(d) {
  if (d.type === "CHOOSE") return [];
  return d.params.filter((p) => isPlace(p.kind) && "where" in p).map((p) => p.where);
}

export function legalEntries(game, view, words) {
  const seat = view.seat, pr = view.prompt;
  let labels = null;
  if (pr !== null && "options" in pr) {
    labels = {};
    for (const o of pr.options) labels[o.index] = words.optionLabel(pr, o, seat);
  }
  return view.legal.map(([a, text]) => {
    const d = game.describe(a);
    const label = words.action(d, seat, (d.type === "CHOOSE" || d.type === "NO_OP") && pr !== null ? labels : null);
    return { id: a, type: d.type, text, label, places: actionPlaces(d) };
  });
}

function runningAbility(game) {
  const acts = game.legalActions();
  return acts.length ? game.describe(acts[0]).ability : null;
}

export function pageWords(game, view, seat, over, words) {
  const pr = view.prompt;
  const ab = pr !== null ? runningAbility(game) : null;
  return { banner: words.banner(view, seat, over), prompt: pr !== null ? words.prompt(pr, seat, ab) : null };
}

export function statePayload(game, seat, words) {
  const view = seat === null ? fullView(game) : seatView(game, seat);
  const over = game.isTerminal;
  return { view, legal: legalEntries(game, view, words), decider: game.currentPlayer, over, result: game.result,
           words: pageWords(game, view, seat, over, words) };
}

export function publicAction(game, a, words) {
  const d = game.describe(a), t = d.type;
  if (["ATTACK", "DECLARE_DEFENDER", "PORTAL_GATE", "ACTIVATE_ABILITY", "END_TURN", "NO_OP", "MULLIGAN_KEEP",
       "MULLIGAN_SHUFFLE"].includes(t)) return words.action(d, null);
  if (t === "CHOOSE") return "makes a choice";
  if (d.params.length && paramZone(d.params[0].kind) === "HAND") return "plays a card from the hand";
  return humanize(t);
}

// sessions.py _action_text
export function actionText(game, a, seat, words) {
  let d;
  try { d = game.describe(a); } catch (e) { return "an unknown action"; }
  const actor = game.currentPlayer;
  if (seat === null || seat === actor) {
    const view = seat === null ? fullView(game) : seatView(game, seat);
    for (const e of legalEntries(game, view, words)) if (e.id === a) return e.label;
    return words.action(d, seat);
  }
  return publicAction(game, a, words);
}

// ---- events in words ------------------------------------------------------------------------
const TEMPLATES = {
  TURN_START: "{P} starts turn {turn}", TURN_END: "{P} ends the turn", DRAWN: "{P} draws {card}",
  MULLIGAN: "{P} {mulligan}", PLAYED: "{P} plays {card}", PAID: "{P} pays {value} IKZ",
  DAMAGE: "{card} takes {value} damage", DESTROYED: "{card} is destroyed", RETURNED: "{card} returns to {P}'s hand",
  DISCARDED: "{P} discards {card}", MILLED: "{P} mills {card}", ATTACK_DECLARED: "{card} attacks {target}",
  RESPONSE_REQUESTED: "{P} may respond", DEFENDER_DECLARED: "{card} steps in as defender",
  ATTACK_ENDED: "the attack ends", PORTALED: "{P} portals {card} into the garden", ABILITY: "{card}'s ability is used",
  PROMPT: "{P} must choose: {prompt}", IKZ_GAINED: "{P} gains an IKZ", REPLACED: "{card} is replaced",
  GAME_OVER: "game over", LOOKED: "{P} looks at {card}", TO_HAND: "{card} goes to {P}'s hand",
  UNTAPPED_IKZ: "{P} untaps IKZ", EFFECT: "{card} is changed by a card's effect",
};
const PROMPT_WORDS = {
  CARD: "pick a card", YES_NO: "yes or no", NUMBER: "pick a number",
  BOTTOM_ORDER: "order cards for the bottom of the deck", SLOT: "pick a slot",
  HOLDER: "pick who holds a weapon", MODE: "pick one of a card's choices", SEARCH: "search the deck",
  TOP_ORDER: "order cards for the top of the deck",
};

// engine.js Game.events() rows [type, player, card, value] as Game.events() dicts (azuki/events.py)
export function eventDicts(game, rows) {
  return rows.map(([t, pl, c, val]) => {
    const ev = { type: t < T.EVENT_TYPES.length ? T.EVENT_TYPES[t] : String(t), player: pl < 0 ? null : pl, value: val };
    if (c >= 0) {
      const d = game.g.e.x.azk_card_definition(game.g.g, c);
      if (d >= 0) { ev.card = T.ids[d]; ev.card_index = c; }
    }
    return ev;
  });
}

function cardName(game, c, seat, names) {
  if (typeof c !== "number" || c < 0) return "a target";
  if (seat !== null && !(c < T.num_cards && game.cardKnown(seat, c))) return "a card";
  if (c >= T.num_cards) return "a target";
  const info = game.cardInfo(c);
  return info.name || names[info.id] || "a target";
}

export function eventEntries(game, events, words, turn) {
  const names = Object.fromEntries(Object.entries(words.cards).map(([k, v]) => [k, v.name]));
  return events.map((ev) => {
    const t = ev.type, p = ev.player, c = ev.card_index === undefined ? null : ev.card_index;
    const texts = [0, 1, null].map((seat) => {
      let card;
      if (c === null) card = null;
      else if (seat === null || game.cardKnown(seat, c)) card = ev.card in names ? names[ev.card] : ev.card;
      else card = "a card";
      let target = "a target";
      if (t === "ATTACK_DECLARED") target = cardName(game, ev.value, seat, names);
      const v = ev.value;
      const kind = t === "PROMPT" && v >= 0 && v < T.PROMPT.length ? T.PROMPT[v] : null;
      const fields = { P: p !== null ? `Player ${p}` : "", card: card || "", value: v, target, turn: game.turn,
                       mulligan: v ? "mulligans (shuffles the hand back, draws again)" : "keeps the hand",
                       prompt: PROMPT_WORDS[kind] || "make a choice" };
      const tpl = TEMPLATES[t];
      let txt;
      if (tpl === undefined || (card === null && tpl.includes("{card}"))) {
        txt = cap1(humanize(t)) + (p !== null ? ` (${fields.P})` : "") + (card ? `: ${card}` : "");
      } else txt = tpl.replace(/\{(\w+)\}/g, (_, k) => String(fields[k]));
      return cap1(txt);
    });
    return { type: t, player: p, texts, turn };
  });
}

export function markAutoEnd(entries, actionType) {
  const out = [];
  let explicit = actionType === "END_TURN";
  for (const e of entries) {
    if (e.type === "TURN_END") {
      if (explicit) explicit = false;
      else {
        const p = e.player;
        const texts = [0, 1].map((seat) => (seat === p ? "You" : `Player ${p}`) + " had nothing else to do: "
          + (seat === p ? "your" : "the") + " turn ended by itself");
        texts.push(`Player ${p} had nothing else to do: the turn ended by itself`);
        out.push({ type: "AUTO_END_TURN", player: p, texts, turn: e.turn });
      }
    }
    out.push(e);
  }
  return out;
}

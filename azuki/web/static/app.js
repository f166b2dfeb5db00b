// azuki play: the page. Plain ES module, no build step.
//
// It is driven only by three things the engine produces (docs/play.md):
//   * the per-seat view (azuki.view.seat_view): what this seat may see;
//   * the exact legal list, each action with the places it involves;
//   * the events, in words.
// plus the engine's tables from /api/meta (cards, prompt kinds, statuses,
// phases, action types). Nothing here lists prompt kinds, statuses or
// action types by hand, so new ones appear without changes to this file.
// The transport is the small `api` object below: the play server's HTTP API,
// or, on the static site, the engine compiled to WebAssembly in a Web Worker.

const $ = (sel) => document.querySelector(sel);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
};

// ---- transport ------------------------------------------------------------------------
const api = {
  // a seat's key travels in the X-Azuki-Key header, never in a URL (URLs end up in logs and histories)
  async call(method, path, body, rawText, key) {
    const opts = { method, headers: {} };
    if (key !== undefined) opts.headers["X-Azuki-Key"] = key;
    if (body !== undefined || rawText !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = rawText !== undefined ? rawText : JSON.stringify(body);
    }
    const r = await fetch(path, opts);
    let data;
    try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
    if (!r.ok) {
      const err = new Error(data.error || `HTTP ${r.status}`);
      err.status = r.status; err.data = data;
      throw err;
    }
    return data;
  },
  meta: () => api.call("GET", "/api/meta"),
  newGame: (body) => api.call("POST", "/api/new", body),
  state: (g, seat, key, since) =>
    api.call("GET", `/api/game/${encodeURIComponent(g)}?seat=${seat}&since=${since}`, undefined, undefined, key),
  act: (g, key, body) => api.call("POST", `/api/game/${encodeURIComponent(g)}/act`, body, undefined, key),
  replayOf: (g, seat, key) =>
    api.call("GET", `/api/game/${encodeURIComponent(g)}/replay?seat=${seat}`, undefined, undefined, key),
  // the replay's text goes to the server as it is: JSON.parse would round 64-bit seeds
  replayText: async (g, seat, key) => {
    const r = await fetch(`/api/game/${encodeURIComponent(g)}/replay?seat=${seat}`, { headers: { "X-Azuki-Key": key } });
    if (!r.ok) { let m = `HTTP ${r.status}`; try { m = (await r.json()).error; } catch (e) { /* keep */ } throw new Error(m); }
    return r.text();
  },
  openReplay: (text) => api.call("POST", "/api/replay", undefined, text),
  replayState: (r, step, view) => api.call("GET", `/api/replay/${encodeURIComponent(r)}?step=${step}&view=${view}`),
};

// The static site (python -m azuki play --static; <html data-transport="wasm">): the same calls
// answered by the engine compiled to WebAssembly in a Web Worker (worker.js, session.js), no server.
// Errors carry the server's status codes, so the rest of the page cannot tell the two apart.
const WASM = document.documentElement.dataset.transport === "wasm";
if (WASM) {
  const { Engine } = await import("./worker_client.js");
  const eng = new Engine();
  const ready = eng.call("init", { site: "site.json" });
  const call = async (op, args) => { await ready; return eng.call(op, args); };
  Object.assign(api, {
    meta: async () => (await ready).meta,
    newGame: (body) => call("newGame", body),
    state: (game, seat, key, since) => call("state", { game, seat, key, since }),
    act: (game, key, body) => call("act", { game, key, body }),
    replayText: (game, seat, key) => call("replayText", { game, seat, key }),
    replayOf: async (game, seat, key) => JSON.parse(await call("replayText", { game, seat, key })),
    openReplay: (text) => call("openReplay", text),
    replayState: (replay, step, view) => call("replayState", { replay, step, view }),
  });
}

// ---- state ------------------------------------------------------------------------------
let META = null;
const S = {
  mode: "play",          // "play" | "replay"
  game: null,            // {id, keys: {seat: key}, mode, humans}
  seat: 0,               // the seat whose view is shown (play)
  since: { 0: 0, 1: 0 }, // events received per seat
  logs: { 0: [], 1: [] },
  payload: null,         // the live game's last payload (never a replay's: the viewer keeps its own)
  shown: null,           // the payload on screen (the live game's or the replay viewer's)
  poll: null,            // remote play: the timer that asks for the other player's moves
  offline: false,        // remote play: the last request failed (reconnecting)
  selected: null,        // a place (location string) picked as the first click
  busy: false,
  replay: null,          // {id, steps, step, view}
};

function setStatus(text, isError) {
  const s = $("#status");
  s.textContent = text || "";
  s.classList.toggle("error", !!isError);
}

// ---- cards and text ---------------------------------------------------------------------
// a status or keyword as a word ("EFFECT_IMMUNE" -> "effect immune"): no engine identifier on screen
const word = (name) => String(name).toLowerCase().replace(/_/g, " ");
const card = (id) => (META && META.cards[id]) || { id, name: id };
const docOf = (table, name) => {
  const row = (META[table] || []).find((r) => r.name === String(name).toUpperCase());
  return row ? row.doc : "";
};

function hoverText(id, field) {
  if (!id) return "an unknown card";
  const c = card(id);
  const lines = [`${c.name}  (${c.id})`];
  const kind = [c.card_type, c.element].filter(Boolean).join(", ");
  if (kind) lines.push(kind + (c.subtypes && c.subtypes.length ? ` — ${c.subtypes.join(", ")}` : ""));
  const st = [];
  if (c.cost !== undefined && c.cost !== null) st.push(`cost ${c.cost}`);
  if (c.attack !== undefined && c.attack !== null) st.push(`attack ${c.attack}`);
  if (c.health !== undefined && c.health !== null) st.push(`health ${c.health}`);
  if (c.gate_points) st.push(`gate points ${c.gate_points}`);
  if (st.length) lines.push(st.join(" · "));
  if (c.keywords && c.keywords.length) lines.push("Keywords: " + c.keywords.map(word).join(", "));
  if (c.text) lines.push("", c.text);
  if (field) {
    const now = [];
    if (field.attack !== undefined) now.push(`attack ${field.attack}`);
    if (field.health !== undefined) now.push(`health ${field.health - (field.damage || 0)}/${field.health}`);
    if (field.statuses && field.statuses.length) now.push(field.statuses.map(word).join(", "));
    if (now.length) lines.push("", "Now: " + now.join(" · "));
  }
  return lines.join("\n");
}

// ---- board rendering --------------------------------------------------------------------
function tile(id, field, where, extraCls) {
  const c = card(id);
  const t = el("div", "card" + (extraCls ? " " + extraCls : ""));
  if (where) t.dataset.where = where;
  t.dataset.card = id || "";
  t.title = hoverText(id, field);
  t.append(el("div", "name", c.name || id));
  if (c.cost !== undefined && c.cost !== null) t.append(el("div", "cost", c.cost));
  t.append(el("div", "type", c.card_type || ""));
  if (field && typeof field === "object") {
    t.dataset.attack = field.attack ?? "";
    t.dataset.health = field.health ?? "";
    t.dataset.damage = field.damage ?? 0;
    t.dataset.tapped = field.tapped ? "1" : "0";
    if (field.tapped) t.classList.add("tapped");
    const badges = el("div", "badges");
    for (const s of field.statuses || []) {
      const b = el("span", "badge status-" + String(s).toLowerCase(), word(s));
      b.title = docOf("statuses", s);
      badges.append(b);
    }
    if (field.cooldown) { const b = el("span", "badge cooldown", "new"); b.title = "entered the garden this turn"; badges.append(b); }
    if (field.shocked && !(field.statuses || []).map((x) => String(x).toLowerCase()).includes("shocked")) {
      const b = el("span", "badge status-shocked", "shocked"); b.title = docOf("statuses", "SHOCKED"); badges.append(b);
    }
    if (badges.childNodes.length) t.append(badges);
    if (field.weapons && field.weapons.length) {
      const names = field.weapons.map((w) => card(typeof w === "string" ? w : w.card).name);
      const w = el("div", "weapons", "⚔ " + names.join(", "));
      w.title = field.weapons.map((x) => hoverText(typeof x === "string" ? x : x.card)).join("\n\n");
      t.append(w);
    }
    if (field.attack !== undefined || field.health !== undefined) {
      const stats = el("div", "stats");
      stats.append(el("span", "atk", `⚔ ${field.attack ?? "-"}`));
      const left = (field.health ?? 0) - (field.damage || 0);
      const hp = el("span", "hp" + (field.damage ? " hurt" : ""), `♥ ${left}/${field.health ?? "-"}`);
      stats.append(hp);
      t.append(stats);
    }
  }
  return t;
}

function emptySlot(where) {
  const s = el("div", "slot empty", "empty");
  s.dataset.where = where;
  s.dataset.card = "";
  return s;
}

function showPile(title, cards) {
  $("#pile-title").textContent = title;
  const box = $("#pile-cards");
  box.innerHTML = "";
  cards.forEach((c) => box.append(tile(c, null, null)));
  if (!cards.length) box.append(el("p", "note", "empty"));
  $("#pile-dlg").showModal();
}

function renderSide(container, view, p, bottom) {
  const pl = view.players[p];
  container.innerHTML = "";
  container.dataset.player = p;
  container.dataset.handCount = pl.hand_count;
  container.dataset.deckCount = pl.deck_count;
  container.dataset.discardCount = pl.discard.length;
  const untapped = pl.ikz_area.filter((x) => !x.tapped).length;
  container.dataset.ikzUntapped = untapped;
  container.dataset.ikzTapped = pl.ikz_area.length - untapped;
  container.dataset.ikzPile = pl.ikz_pile_count;
  container.classList.toggle("deciding", view.current_player === p);

  const head = el("div", "head");
  const players = (S.shown && S.shown.players) || null;
  const kind = players && players[p] && players[p] !== "human" ? players[p] : "";
  const who = el("div", "who", `Player ${p}` + (S.mode === "play" && p === S.seat && view.seat !== null ? " (you)" : ""));
  if (kind) who.append(el("div", "kind", kind));
  const deck = view.decks ? view.decks[p] : "";
  who.title = `deck ${deck}`;
  head.append(who);
  const leader = tile(pl.leader.card, pl.leader, `p${p}.leader`, "leader");
  head.append(leader);
  head.append(tile(pl.gate.card, pl.gate, `p${p}.gate`, "gate" + (pl.gate.tapped ? " tapped" : "")));
  const ikz = el("div", "ikz");
  ikz.title = `IKZ: ${untapped} untapped, ${pl.ikz_area.length - untapped} tapped; ${pl.ikz_pile_count} in the IKZ pile`;
  pl.ikz_area.forEach((x, i) => {
    const chip = el("span", "chip" + (x.tapped ? " tapped" : "") + (x.token ? " token" : ""));
    chip.dataset.where = `p${p}.ikz_area[${i}]`;
    chip.title = (x.token ? "IKZ token" : "IKZ") + (x.tapped ? " (tapped)" : " (untapped)");
    ikz.append(chip);
  });
  ikz.append(el("span", "pile", `pile ${pl.ikz_pile_count}`));
  head.append(ikz);
  const counts = el("div", "counts");
  counts.append(el("span", "count deck", `deck ${pl.deck_count}`));
  counts.append(el("span", "count hand", `hand ${pl.hand_count}`));
  const disc = el("button", "discard", `discard ${pl.discard.length}`);
  disc.type = "button";
  disc.title = "browse the discard pile";
  disc.addEventListener("click", () => showPile(`Player ${p}: discard pile (top last)`, pl.discard));
  counts.append(disc);
  if (pl.look && pl.look.length) counts.append(el("span", "count", `looking at ${pl.look.length}`));
  head.append(counts);
  let handRow = null;
  if (!bottom) {
    // the other hand: known cards by name, unknown ones as card backs (the full view: every card, in order)
    const oh = el("div", "opp-hand");
    oh.dataset.hand = p;
    pl.hand.forEach((c, i) => {
      if (c) {
        oh.append(tile(c, null, view.seat === null ? `p${p}.hand[${i}]` : null, "known"));
      } else { const b = el("div", "card back"); b.title = "a card you cannot see"; b.dataset.card = ""; oh.append(b); }
    });
    handRow = el("div", "hand-row");
    handRow.append(el("div", "row-label", "hand"), oh);
  }

  const rows = [];
  for (const zone of ["garden", "alley"]) {
    const row = el("div", "row " + zone);
    row.dataset.zone = zone;
    row.append(el("div", "row-label", zone));
    pl[zone].forEach((f, i) => {
      const where = `p${p}.${zone}[${i}]`;
      row.append(f ? tile(f.card, f, where) : emptySlot(where));
    });
    rows.push(row);
  }
  // the garden faces the middle of the board
  if (bottom) container.append(rows[0], rows[1], head);
  else container.append(head, handRow, rows[1], rows[0]);
}

function renderHand(view, p) {
  const h = $("#hand");
  h.innerHTML = "";
  h.dataset.player = p;
  const pl = view.players[p];
  pl.hand.forEach((c, i) => {
    if (c) h.append(tile(c, null, `p${p}.hand[${i}]`));
    else { const b = el("div", "card back"); b.dataset.where = `p${p}.hand[${i}]`; b.dataset.card = ""; h.append(b); }
  });
  $("#hand-wrap .zone-title").textContent =
    view.seat === null ? `Player ${p}'s hand` : (S.mode === "replay" ? `Player ${p}'s hand` : "Your hand");
}

function markCombat(view) {
  const c = view.combat;
  if (!c) return;
  const a = document.querySelector(`#board [data-where="${c.attacker}"]`);
  const t = document.querySelector(`#board [data-where="${c.target}"]`);
  if (a) a.classList.add("attacker");
  if (t) t.classList.add("attack-target");
}

function render(payload, live = true) {
  // the replay viewer renders with live = false: the live game's payload (its token) stays as it was
  if (live) S.payload = payload;
  else for (const id of ["#notice", "#waiting"]) $(id).classList.add("hidden");   // the live game's news
  S.shown = payload;
  const view = payload.view;
  const me = view.seat === null ? 0 : view.seat;
  const board = $("#board");
  board.dataset.seat = view.seat === null ? "full" : view.seat;
  board.dataset.phase = view.phase;
  board.dataset.decider = view.current_player;
  board.dataset.turn = view.turn;
  board.dataset.token = payload.token ?? "";
  board.dataset.over = payload.over ? "1" : "0";
  renderSide($("#side-top"), view, 1 - me, false);
  renderSide($("#side-bottom"), view, me, true);
  renderHand(view, me);
  markCombat(view);
  const ti = $("#turn-info");
  ti.textContent = `Turn ${view.turn}`;
  const dec = $("#decision");
  const mine = S.mode === "play" && !payload.over && view.current_player === view.seat;
  dec.classList.toggle("mine", mine);
  dec.dataset.mine = mine ? "1" : "0";
  // the banner's words come from the server (azuki/web/words.py: generated from the card data)
  const words = payload.words || {};
  if (payload.over) dec.textContent = `Game over: ${resultText(view.result, view.end_reason)}`;
  else dec.textContent = words.banner || "";
  renderActions(payload);
  renderPrompt(payload);
}

function resultText(result, reason) {
  const r = String(result);
  let t = r.startsWith("WIN_P") ? `Player ${r.slice(5)} wins` : r.toLowerCase();
  if (reason && reason !== "NONE") t += ` (${String(reason).toLowerCase().replace(/_/g, " ")})`;
  return t;
}

// ---- acting -------------------------------------------------------------------------------
function legal() {
  if (S.mode !== "play" || !S.payload || S.payload.over) return [];
  return S.payload.legal || [];
}

function renderActions(payload) {
  const bar = $("#buttons");
  bar.innerHTML = "";
  const acts = legal();
  const promptOpen = payload.view.prompt && payload.view.prompt.options && acts.some((a) => a.type === "CHOOSE");
  for (const a of acts) {
    if (a.places.length || a.type === "CHOOSE" || promptOpen) continue;
    const b = el("button", "act", a.label);
    b.type = "button";
    b.dataset.action = a.id;
    b.dataset.type = a.type;
    b.title = a.label;
    b.addEventListener("click", () => act(a.id));
    bar.append(b);
  }
  // the cards and places that start an action
  for (const a of acts) {
    if (!a.places.length) continue;
    const e = document.querySelector(`#board [data-where="${a.places[0]}"]`);
    if (e) { e.classList.add("can-act"); e.tabIndex = 0; }   // keyboard: Tab to it, Enter to pick it
  }
  if (S.selected) select(S.selected, true);
}

function clearSelection() {
  S.selected = null;
  document.querySelectorAll(".selected, .can-target").forEach((e) => e.classList.remove("selected", "can-target"));
  hideMenu();
}

function onBoardKey(ev) {
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest("#board [data-where]")) {
    ev.preventDefault();
    onBoardClick(ev);
  }
}

function select(where, quiet) {
  const acts = legal().filter((a) => a.places[0] === where);
  if (!acts.length) { clearSelection(); return; }
  clearSelection();
  S.selected = where;
  const src = document.querySelector(`#board [data-where="${where}"]`);
  if (src) src.classList.add("selected");
  const two = acts.filter((a) => a.places.length > 1);
  for (const a of two) {
    const t = document.querySelector(`#board [data-where="${a.places[1]}"]`);
    if (t) { t.classList.add("can-target"); t.tabIndex = 0; }
  }
  const one = acts.filter((a) => a.places.length === 1);
  if (one.length && !quiet && src) {
    showMenu(src, one, two.length ? "or click a highlighted target" : "");
  }
}

function showMenu(anchor, acts, hint) {
  // the choices for the selected card, in the middle bar (never over the board: targets stay clickable)
  const m = $("#menu");
  m.innerHTML = "";
  const id = anchor.dataset.card;
  m.append(el("span", "what", (id ? card(id).name : anchor.dataset.where) + ":"));
  for (const a of acts) {
    const b = el("button", "", a.label);
    b.type = "button";
    b.dataset.action = a.id;
    b.title = a.label;
    b.addEventListener("click", () => { hideMenu(); act(a.id); });
    m.append(b);
  }
  if (hint) m.append(el("span", "hint", hint));
  const cancel = el("button", "", "Cancel");
  cancel.type = "button";
  cancel.addEventListener("click", clearSelection);
  m.append(cancel);
  m.classList.remove("hidden");
}

function hideMenu() { $("#menu").classList.add("hidden"); }

function onBoardClick(ev) {
  if (S.mode !== "play" || S.busy) return;
  const t = ev.target.closest("[data-where]");
  if (ev.target.closest("#menu, #buttons")) return;
  if (!t || !t.closest("#board")) { clearSelection(); return; }
  const where = t.dataset.where;
  if (S.selected && t.classList.contains("can-target")) {
    const acts = legal().filter((a) => a.places[0] === S.selected && a.places[1] === where);
    if (acts.length === 1) { const id = acts[0].id; clearSelection(); act(id); }
    else if (acts.length > 1) showMenu(t, acts, "");
    return;
  }
  if (S.selected === where) { clearSelection(); return; }
  if (legal().some((a) => a.places[0] === where)) select(where, false);
  else clearSelection();
}

function renderPrompt(payload) {
  const box = $("#prompt");
  box.innerHTML = "";
  const pr = payload.view.prompt;
  if (!pr) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  box.dataset.kind = pr.kind;
  const mine = S.mode === "play" && pr.chooser === payload.view.seat && !payload.over;
  const pw = (payload.words && payload.words.prompt) || { title: "", options: {} };
  const title = el("h2", "", pw.title);
  title.id = "prompt-title";
  box.append(title);
  if (pr.source) {
    const s = el("div", "source", `asked by ${card(pr.source).name}`);
    s.title = hoverText(pr.source);
    box.append(s);
  }
  if (!pr.options) return;
  const opts = el("div", "options");
  const acts = mine ? legal() : [];
  const byId = new Map(acts.map((a) => [a.id, a]));
  for (const o of pr.options) {
    const a = byId.get(o.action);
    const label = pw.options[o.index] ?? pw.options[String(o.index)] ?? (a ? a.label : "");
    const b = el("button", "opt", label);
    b.type = "button";
    b.dataset.action = o.action;
    b.dataset.option = o.index;
    if (o.card) b.title = hoverText(o.card);
    b.disabled = !a;
    if (a) b.addEventListener("click", () => act(a.id));
    if (o.where) {
      b.addEventListener("mouseenter", () => hint(o.where, true));
      b.addEventListener("mouseleave", () => hint(o.where, false));
    }
    opts.append(b);
  }
  // every other legal action while the prompt is open (decline / pass): buttons here
  for (const a of acts) {
    if (a.type === "CHOOSE") continue;
    const b = el("button", "opt decline", a.type === "NO_OP" ? (pw.decline || a.label) : a.label);
    b.type = "button";
    b.dataset.action = a.id;
    b.title = a.label;
    b.addEventListener("click", () => act(a.id));
    opts.append(b);
  }
  box.append(opts);
}

function hint(where, on) {
  const e = document.querySelector(`#board [data-where="${where}"]`);
  if (e) e.classList.toggle("hint-place", on);
}

function addLog(seat, events) {
  // the events of the latest answer are marked new (what the opponent just did)
  const log = S.logs[seat];
  if (!events.length) return;            // an empty poll keeps the last news marked
  for (const e of log) e.new = false;
  for (const e of events) log.push({ ...e, new: true });
}

function renderLog(entries) {
  const ol = $("#log");
  ol.innerHTML = "";
  let last = null, lastLi = null, times = 1;
  for (const e of entries) {
    if (last && e.text === last.text && e.new === last.new && e.type !== "TURN_START") {
      times += 1;                       // "P0 pays 1 IKZ ×3": repeats folded into one line
      lastLi.textContent = `${e.text} ×${times}`;
      continue;
    }
    const li = el("li", (e.type === "TURN_START" ? "turn " : "") + (e.player === 0 || e.player === 1 ? `p${e.player}` : "")
      + (e.new ? " new" : ""), e.text);
    li.dataset.type = e.type;
    ol.append(li);
    last = e; lastLi = li; times = 1;
  }
  const wrap = $("#log-wrap");
  wrap.scrollTop = wrap.scrollHeight;
}

async function act(id) {
  if (S.busy || !S.payload) return;
  S.busy = true;
  clearSelection();
  setStatus(S.game.humans.length === 1 ? "the opponent is thinking…" : "…");
  const seat = S.seat;
  try {
    const p = await api.act(S.game.id, S.game.keys[seat], { seat, token: S.payload.token, action: id,
      since: S.since[seat] });
    S.since[seat] = p.next_event;
    $("#notice").classList.add("hidden");
    addLog(seat, p.events);
    showNotices(p.events);
    setStatus("");
    afterPayload(p);
  } catch (e) {
    setStatus(e.message, true);
    if (e.status === undefined) {                // the network: remote play reconnects by polling
      setStatus("Connection lost — reconnecting…", true);
      S.offline = true;
    } else if (e.status === 409) {               // stale: show the game as it is now
      try { await refresh(seat); } catch (e2) { setStatus(e2.message, true); }
    } else if (e.status === 404) {               // the game is gone (freed when idle): back to the set-up
      leaveGame("the game is gone (freed after a long idle time, or the server restarted)");
    }
  } finally {
    S.busy = false;
  }
}

async function refresh(seat) {
  const p = await api.state(S.game.id, seat, S.game.keys[seat], S.since[seat]);
  S.since[seat] = p.next_event;
  addLog(seat, p.events);
  showNotices(p.events);
  afterPayload(p);
  return p;
}

// ---- remote play: invite links, joining, polling, reconnecting --------------------------
// A seat's key travels in the invite link's fragment (after #: browsers never send it to a
// server, so it stays out of logs); the page moves it to sessionStorage at once and clears the
// address bar. A reload or a dropped connection rejoins from there.
const REMOTE_KEY = "azuki-remote";
const inviteLink = (gid, seat, key) =>
  `${location.origin}${location.pathname}#game=${encodeURIComponent(gid)}&seat=${seat}&key=${encodeURIComponent(key)}`;

function remoteFromHash() {
  if (!location.hash || location.hash.length < 2) return null;
  const q = new URLSearchParams(location.hash.slice(1));
  if (!q.get("game") || !q.get("key") || !["0", "1"].includes(q.get("seat"))) return null;
  history.replaceState(null, "", location.pathname + location.search);     // the key leaves the address bar
  return { game: q.get("game"), seat: Number(q.get("seat")), key: q.get("key") };
}

async function joinRemote(j) {
  const invites = j.invites || null;
  sessionStorage.setItem(REMOTE_KEY, JSON.stringify(j));
  S.game = { id: j.game, keys: { [j.seat]: j.key }, mode: "remote", humans: [0, 1], invites: invites || null };
  S.seat = j.seat;
  S.since = { 0: 0, 1: 0 };
  S.logs = { 0: [], 1: [] };
  S.payload = null;
  $("#setup").classList.add("hidden");
  $("#gameover").classList.add("hidden");
  showInvites();
  setStatus("joining…");
  try {
    await refresh(j.seat);
    setStatus("");
    $("#game").classList.remove("hidden");
    $("#nav-leave").classList.remove("hidden");
  } catch (e) {
    if (e.status === 403 || e.status === 404 || e.status === 400) {
      leaveGame(e.status === 403 ? `this invite link does not open that seat: ${e.message}`
        : `cannot join: ${e.message}`, true);
      return;
    }
    S.offline = true;
    setStatus("Connection lost — reconnecting…", true);
  }
  startPolling();
}

function showInvites() {
  const box = $("#invite");
  box.innerHTML = "";
  const inv = S.game && S.game.invites;
  if (!inv) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  box.append(el("b", "", "Invite: "));
  for (const seat of [1 - S.seat, S.seat]) {
    const row = el("label", "invite-row");
    row.append(el("span", "", seat === S.seat ? "your link (to come back from another tab or machine)"
      : `Player ${seat}'s link — send it to the other player`));
    const i = el("input");
    i.readOnly = true; i.id = `invite-${seat}`; i.value = inv[seat];
    i.addEventListener("focus", () => i.select());
    row.append(i);
    box.append(row);
  }
  if (["localhost", "127.0.0.1", "[::1]", "::1"].includes(location.hostname)) {
    box.append(el("div", "note", "These links name this machine's loopback address: another machine cannot use " +
      "them. Open this page by the address the other player reaches (a server started with --host and --expose: " +
      "docs/play.md) and start the game there."));
  }
}

function startPolling() {
  stopPolling();
  S.poll = setInterval(pollOnce, 1000);
}

function stopPolling() {
  if (S.poll) clearInterval(S.poll);
  S.poll = null;
}

async function pollOnce() {
  const g = S.game;
  if (!g || g.mode !== "remote" || S.busy) return;
  const seat = S.seat;
  let p;
  try {
    p = await api.state(g.id, seat, g.keys[seat], S.since[seat]);
  } catch (e) {
    if (S.game !== g) return;
    if (e.status === 403 || e.status === 404) { leaveGame(`the game ended for this page: ${e.message}`, true); return; }
    S.offline = true;
    setStatus("Connection lost — reconnecting…", true);
    return;
  }
  if (S.game !== g || S.busy || seat !== S.seat) return;
  if (S.offline) { S.offline = false; setStatus("reconnected"); }
  const old = S.payload;
  S.since[seat] = p.next_event;
  addLog(seat, p.events);
  showNotices(p.events);
  if (S.mode !== "play") { S.payload = p; return; }
  if (!old || old.token !== p.token || p.events.length || old.peer !== p.peer || old.over !== p.over) afterPayload(p);
  else S.payload = p;
}

function leaveGame(message, isError) {
  stopPolling();
  sessionStorage.removeItem(REMOTE_KEY);
  S.game = null; S.payload = null; S.selected = null;
  $("#game").classList.add("hidden");
  $("#gameover").classList.add("hidden");
  $("#handover").classList.add("hidden");
  $("#invite").classList.add("hidden");
  $("#notice").classList.add("hidden");
  $("#nav-leave").classList.add("hidden");
  if (S.mode === "play") $("#setup").classList.remove("hidden");
  setStatus(message || "", !!isError);
}

function afterPayload(p) {
  const g = S.game;
  // hot-seat: hand the screen over whenever the other human must decide (remote: each has their own screen)
  if (!p.over && g.mode !== "remote" && g.humans.length === 2 && p.decider !== S.seat && g.humans.includes(p.decider)) {
    handOver(p.decider);
    return;
  }
  $("#handover").classList.add("hidden");
  render(p);
  renderLog(S.logs[S.seat]);
  renderWaiting(p);
  if (p.over) {
    if (g.mode === "remote") stopPolling();     // nothing more will happen in this game
    showGameOver(p);
  }
}

// remote play: what the other player is doing, and whether their page is there
function renderWaiting(p) {
  const w = $("#waiting");
  let t = "";
  if (S.game && S.game.mode === "remote" && !p.over) {
    if (p.peer === "absent") t = "Waiting for the other player to join: send them their invite link";
    else if (p.peer === "away") t = "The other player's connection dropped: waiting for them to come back";
    else if (p.decider !== S.seat) t = "Waiting for the other player…";
  }
  w.textContent = t;
  w.classList.toggle("hidden", !t);
}

// rules §12.2: a turn the engine ended by itself (END_TURN was the only move) is said, never silent
function showNotices(events) {
  const auto = events.filter((e) => e.type === "AUTO_END_TURN");
  const n = $("#notice");
  if (!auto.length) return;
  n.textContent = auto[auto.length - 1].text;
  n.classList.remove("hidden");
}

function handOver(next) {
  // hide everything of the current seat before the next player looks
  S.payload = null;
  for (const id of ["#side-top", "#side-bottom", "#hand", "#buttons", "#log", "#prompt"]) $(id).innerHTML = "";
  $("#prompt").classList.add("hidden");
  $("#handover-title").textContent = `Pass the screen to Player ${next}`;
  $("#handover-text").textContent = `Player ${next} decides now. Player ${1 - next}: look away. ` +
    `Player ${next}: click when you are ready (only your own hand will be shown).`;
  const cover = $("#handover");
  cover.dataset.next = next;
  cover.classList.remove("hidden");
}

async function takeOver() {
  const next = Number($("#handover").dataset.next);
  S.seat = next;
  $("#handover").classList.add("hidden");
  try { await refresh(next); } catch (e) { setStatus(e.message, true); }
}

function showGameOver(p) {
  const v = p.view;
  $("#gameover-title").textContent = "Game over";
  let t = resultText(v.result, v.end_reason);
  if (S.game && S.game.mode !== "hotseat" && String(v.result).startsWith("WIN_P")) {
    t += Number(String(v.result).slice(5)) === S.seat ? " — you win!" : " — you lose.";
  }
  $("#gameover-text").textContent = t;
  $("#gameover").classList.remove("hidden");
}

async function saveReplay() {
  const text = await api.replayText(S.game.id, S.seat, S.game.keys[S.seat]);
  const blob = new Blob([text], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `azuki-replay-${S.game.id.slice(0, 8)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  return text;
}

// ---- replay viewer -------------------------------------------------------------------------
async function openReplay(rep) {
  try {
    const r = await api.openReplay(rep);
    S.replay = { id: r.id ?? r.replay, steps: r.steps, step: 0, view: currentView() };
    $("#replay-info").textContent = `${r.decks.join(" vs ")} · ${r.players ? r.players.join(" vs ") + " · " : ""}` +
      `${r.message}` + (r.inspection ? " · has agent inspection (full view)" : "");
    $("#rp-slider").max = r.steps;
    setStatus("replay verified");
    await showStep(0);
  } catch (e) {
    setStatus(e.message, true);
  }
}

const currentView = () => document.querySelector('input[name="rp-view"]:checked').value;

async function showStep(k) {
  if (!S.replay) return;
  k = Math.max(0, Math.min(S.replay.steps, k));
  const ticket = (S.replay.ticket = (S.replay.ticket || 0) + 1);
  const p = await api.replayState(S.replay.id, k, S.replay.view);
  if (ticket !== S.replay.ticket) return;     // a newer step was asked for meanwhile
  S.replay.step = k;
  $("#rp-slider").value = k;
  $("#rp-step").textContent = `step ${k} / ${S.replay.steps}`;
  $("#game").classList.remove("hidden");
  $("#game").dataset.replayStep = k;
  render(p, false);
  const la = $("#rp-last-action");
  la.textContent = p.last ? `Step ${k}: Player ${p.last.player} — ${p.last.text}` : "Start of the game";
  renderLog(p.events.map((e) => e));
  renderInspect(p);
}

function renderInspect(p) {
  const box = $("#inspect");
  box.innerHTML = "";
  if (!p.policy) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  box.append(el("h2", "", `Agent (Player ${p.policy.player}): value ${Number(p.policy.value).toFixed(3)}`));
  box.append(el("div", "note", "its probabilities for the next decision (full view only)"));
  for (const [a, prob, text] of p.policy.probs) {
    const row = el("div", "prob" + (a === p.policy.chosen ? " chosen" : ""));
    row.dataset.action = a;
    const bar = el("div", "bar");
    const fill = el("span", "fill");
    fill.style.width = `${Math.round(prob * 100)}%`;
    bar.append(fill, el("span", "txt", text));
    bar.title = text;
    row.append(bar, el("span", "p", `${(prob * 100).toFixed(1)}%`));
    box.append(row);
  }
}

// ---- setup ----------------------------------------------------------------------------------
function fillSetup() {
  for (const id of ["#deck0", "#deck1"]) {
    const s = $(id);
    s.innerHTML = "";
    for (const d of META.decks) s.append(new Option(d, d));
  }
  $("#deck1").value = META.decks[1] || META.decks[0];
  const opp = $("#opponent");
  opp.innerHTML = "";
  for (const o of META.opponents) {
    const op = new Option(o.label + (o.error ? " — unavailable" : ""), o.id);
    op.disabled = !!o.error;
    op.title = o.error || o.label;
    opp.append(op);
  }
  const search = META.opponents.find((o) => o.id === "search");
  if (search && search.sims) {
    const r = $("#sims");
    r.min = search.sims.min; r.max = search.sims.max; r.value = search.sims.default;   // the server's cap
    $("#sims-out").textContent = r.value;
  }
  syncSetup();
}

function syncSetup() {
  const hot = document.querySelector('input[name="mode"]:checked').value !== "bot";
  document.querySelectorAll(".bot-only").forEach((e) => e.classList.toggle("hidden", hot));
  $("#sims-label").classList.toggle("hidden", $("#opponent").value !== "search");
  const o = META.opponents.find((x) => x.id === $("#opponent").value);
  $("#opponent-note").textContent = o && o.error ? o.error : "";
}

async function startGame(ev) {
  ev.preventDefault();
  const mode = document.querySelector('input[name="mode"]:checked').value;
  const body = { mode, decks: [$("#deck0").value, $("#deck1").value] };
  if (mode === "remote") {
    setStatus("starting…");
    try {
      const r = await api.newGame(body);
      const invites = { 0: inviteLink(r.game, 0, r.keys[0]), 1: inviteLink(r.game, 1, r.keys[1]) };
      await joinRemote({ game: r.game, seat: 0, key: r.keys[0], invites });
    } catch (e) { setStatus(e.message, true); }
    return;
  }
  if (mode === "bot") {
    body.human_seat = Number($("#human-seat").value);
    body.opponent = $("#opponent").value;
    if (body.opponent === "search") body.sims = Number($("#sims").value);
  }
  setStatus("starting…");
  try {
    const r = await api.newGame(body);
    const humans = Object.keys(r.keys).map(Number).sort();
    S.game = { id: r.game, keys: r.keys, mode, humans };
    S.since = { 0: 0, 1: 0 };
    S.logs = { 0: [], 1: [] };
    S.seat = humans[0];
    $("#setup").classList.add("hidden");
    $("#game").classList.remove("hidden");
    $("#nav-leave").classList.remove("hidden");
    $("#gameover").classList.add("hidden");
    setStatus("");
    if (humans.length === 2) {
      const p = await api.state(r.game, 0, r.keys[0], 0);
      S.since[0] = p.next_event; addLog(0, p.events);
      handOver(p.decider);
    } else {
      await refresh(S.seat);
    }
  } catch (e) {
    setStatus(e.message, true);
  }
}

function showTab(name) {
  S.mode = name === "replay" ? "replay" : "play";
  $("#nav-play").classList.toggle("active", name === "play");
  $("#nav-replay").classList.toggle("active", name === "replay");
  $("#replay-bar").classList.toggle("hidden", name !== "replay");
  $("#gameover").classList.add("hidden");
  $("#handover").classList.add("hidden");
  clearSelection();
  if (name === "replay") {
    $("#setup").classList.add("hidden");
    $("#game").classList.toggle("hidden", !S.replay);
    $("#inspect").classList.add("hidden");
    if (S.replay) showStep(S.replay.step);
  } else {
    $("#inspect").classList.add("hidden");
    $("#setup").classList.toggle("hidden", !!(S.game && S.payload));
    $("#game").classList.toggle("hidden", !(S.game && S.payload));
    if (S.game && S.payload) afterPayload(S.payload);
  }
}

async function main() {
  try {
    META = await api.meta();
  } catch (e) {
    setStatus(`cannot reach the server: ${e.message}`, true);
    return;
  }
  window.AZUKI = { S, META, api, transport: WASM ? "wasm" : "server" };   // for the browser tests and the curious
  if (WASM) {          // two machines need the play server
    const r = document.querySelector('input[name="mode"][value="remote"]');
    if (r) r.closest("label").classList.add("hidden");
  }
  fillSetup();
  document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", syncSetup));
  $("#opponent").addEventListener("change", syncSetup);
  $("#sims").addEventListener("input", () => { $("#sims-out").textContent = $("#sims").value; });
  $("#setup-form").addEventListener("submit", startGame);
  $("#board").addEventListener("click", onBoardClick);
  $("#board").addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") clearSelection();
    // a file input or a radio button keeps the focus after a click: the arrows still step (a range
    // input steps by itself, a text field or a select keeps its own keys)
    if (S.mode === "replay" && S.replay &&
        !e.target.closest('textarea, select, input:not([type="file"]):not([type="radio"]):not([type="button"])')) {
      if (e.key === "ArrowRight") showStep(S.replay.step + 1);
      else if (e.key === "ArrowLeft") showStep(S.replay.step - 1);
      else if (e.key === "Home") showStep(0);
      else if (e.key === "End") showStep(S.replay.steps);
    }
  });
  $("#handover-go").addEventListener("click", takeOver);
  $("#nav-play").addEventListener("click", () => showTab("play"));
  $("#nav-replay").addEventListener("click", () => showTab("replay"));
  $("#nav-help").addEventListener("click", () => $("#help-dlg").showModal());
  $("#go-save").addEventListener("click", () => saveReplay().catch((e) => setStatus(e.message, true)));
  $("#go-watch").addEventListener("click", async () => {
    try {
      const text = await api.replayText(S.game.id, S.seat, S.game.keys[S.seat]);
      showTab("replay");
      await openReplay(text);
    } catch (e) { setStatus(e.message, true); }
  });
  $("#go-board").addEventListener("click", () => $("#gameover").classList.add("hidden"));
  $("#go-new").addEventListener("click", () => leaveGame(""));
  $("#nav-leave").addEventListener("click", () => {
    const remote = S.game && S.game.mode === "remote";
    leaveGame(remote ? "you left the game (your invite link still brings you back while the server keeps it)"
      : "you left the game");
  });
  $("#replay-file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    const text = await f.text();
    e.target.value = "";            // choosing the same file again opens it again
    e.target.blur();                // the arrow keys step the replay at once
    await openReplay(text);
  });
  $("#rp-first").addEventListener("click", () => showStep(0));
  $("#rp-back").addEventListener("click", () => showStep(S.replay.step - 1));
  $("#rp-fwd").addEventListener("click", () => showStep(S.replay.step + 1));
  $("#rp-last").addEventListener("click", () => showStep(S.replay.steps));
  $("#rp-slider").addEventListener("input", (e) => showStep(Number(e.target.value)));
  document.querySelectorAll('input[name="rp-view"]').forEach((r) => r.addEventListener("change", () => {
    if (!S.replay) return;
    S.replay.view = currentView();
    showStep(S.replay.step);
  }));
  const j = remoteFromHash() || JSON.parse(sessionStorage.getItem(REMOTE_KEY) || "null");
  if (j) await joinRemote(j);
  document.body.dataset.ready = "1";
}

main();

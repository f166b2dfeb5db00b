// ?selftest=N: N seeded games in the WebAssembly engine, in the worker (docs/play.md "Static site").
// The result is shown as JSON in #result and kept in window.selftestResult for tests.
import { Engine } from "./worker_client.js";

const KINDS = { random: 0, greedy: 1, search: 2 };
const q = new URLSearchParams(location.search);
const out = document.querySelector("#result");

async function run() {
  const n = parseInt(q.get("selftest") || "10", 10);
  const seed = q.get("seed") || "0";
  const decks = (q.get("decks") || "STT01,STT02").split(",");
  const kinds = (q.get("kinds") || "random,random").split(",").map((k) => {
    if (!(k in KINDS)) throw new Error(`unknown bot kind ${k}`);
    return KINDS[k];
  });
  const sims = parseInt(q.get("sims") || "0", 10);
  const warmup = parseInt(q.get("warmup") || "0", 10);   // games played first, untimed (the JIT's tiers)
  const eng = new Engine();
  const info = await eng.call("init", { cardset: q.get("cardset") });
  await eng.call("firstDecision", { seed: 0, kind: 0 });
  const first_decision_ms = performance.now();    // since navigation start
  if (warmup > 0) await eng.call("selftest", { n: warmup, seed: 1000000, decks, kinds, sims });
  const repeat = Math.max(1, parseInt(q.get("repeat") || "1", 10));   // the same games R times: the best rate
  let r = null;
  for (let i = 0; i < repeat; i++) {
    const x = await eng.call("selftest", { n, seed, decks, kinds, sims });
    if (r === null || x.decisions_per_s > r.decisions_per_s) r = x;
  }
  const res = { n, warmup, repeat, seed, decks, kinds: q.get("kinds") || "random,random", sims, ...info, first_decision_ms,
                decisions: r.decisions, seconds: r.seconds, decisions_per_s: r.decisions_per_s, hashes: r.hashes };
  window.selftestResult = res;
  out.textContent = JSON.stringify(res, null, 1);
}

run().catch((e) => {
  window.selftestResult = { error: String(e && e.message || e) };
  out.textContent = `error: ${e && e.message || e}`;
});

"""Build the engine as WebAssembly for the static site (docs/play.md "Static
site"): csrc's engine, bots and observation code plus wasm/azuki_wasm.c,
compiled by emscripten (Debian package `emscripten`) into
azuki/web/static/azuki.wasm, a module with no imports that the page's worker
(azuki/web/static/engine.js) instantiates itself.

The .wasm is checked in, like generated/, so the Python package and the
static site need no emscripten. Its stamp (azuki/web/static/azuki.wasm.json)
records the SHA-256 of every source that went in (the C files and, found by
following their #include "..." lines, every header and .def they read), the
compiler flags, the emcc version and the SHA-256 of the .wasm itself.

    python wasm/build.py            rebuild (needs emcc) and rewrite the stamp
    python wasm/build.py --check    exit 1 when the .wasm is stale against its
                                    sources or does not match its stamp (no emcc needed)
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "azuki", "web", "static", "azuki.wasm")
STAMP = OUT + ".json"
GLUE = "wasm/azuki_wasm.c"
INCLUDE = ("csrc", "generated")
# csrc/sources.mk's list without the vector of games (threads; the page plays one game at a time) and the
# benchmarks of `python -m azuki bench` (csrc/bench.c: they time the vector of games)
LEAVE_OUT = ("csrc/vec.c", "csrc/bench.c")
FLAGS = ["-std=c11", "-O3", "-DNDEBUG", "-Wall", "-Wextra", "-Werror", "--no-entry", "-sWASM_BIGINT",
         "-sINITIAL_MEMORY=16777216", "-sALLOW_MEMORY_GROWTH=0"]
# What the worker calls: the public API (csrc/azuki.h) and the glue.
EXPORTS = """
malloc free azk_default_cardset azk_cardset_hash azk_cardset_find_deck azk_num_actions azk_game_size
azk_step azk_legal_actions azk_is_legal azk_decode azk_encode azk_current_player azk_phase azk_is_terminal
azk_result azk_winner azk_turn azk_decisions azk_end_reason azk_hash azk_events azk_event_unpack
azk_export azk_export_size azk_export_version azk_describe azk_card_known azk_card_definition
azk_card_attack azk_card_health azk_card_statuses azk_card_cost azk_num_cards azk_active_player
azk_first_player azk_turn_cap azk_decision_cap azk_bot_act azk_bot_seed azk_check_invariants
azk_cardset_layout azk_observe azk_obs_len
azw_game_new azw_game_clone azw_free azw_alloc azw_cardset_load azw_bot_rng azw_bot_act azw_hash azw_selftest
""".split()


POLICY_SOURCE = "csrc/policy.c"
# with the policy forward pass in the core (csrc/policy.c): the checkpoint opponent's calls
POLICY_EXPORTS = "azk_policy_free azk_policy_status_name azk_policy_hash azw_policy_load azw_policy_forward".split()


def has_policy():
    return POLICY_SOURCE in sources()


def flags():
    return FLAGS + (["-DAZW_POLICY=1"] if has_policy() else [])


def exports():
    return EXPORTS + (POLICY_EXPORTS if has_policy() else [])


def sources():
    """The C files compiled: csrc/sources.mk's list (minus LEAVE_OUT) and the glue."""
    with open(os.path.join(ROOT, "csrc", "sources.mk")) as f:
        mk = f.read()
    files = re.findall(r"^\s*((?:csrc|generated)/\S+\.c)", mk, re.M)
    if not files:
        raise SystemExit("wasm/build.py: no sources found in csrc/sources.mk")
    return [s for s in files if s not in LEAVE_OUT] + [GLUE]


def inputs():
    """Every file the build reads: the sources and, transitively, what they
    #include "..." from the include directories (sorted repo paths)."""
    seen, todo = set(), list(sources())
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        with open(os.path.join(ROOT, p), encoding="utf-8") as f:
            text = f.read()
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            for d in [os.path.dirname(p)] + list(INCLUDE):
                cand = os.path.normpath(os.path.join(d, inc))
                if os.path.exists(os.path.join(ROOT, cand)):
                    todo.append(cand)
                    break
    return sorted(seen)


def _sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def input_shas():
    return {p: _sha(os.path.join(ROOT, p)) for p in inputs()}


def source_digest(shas=None):
    h = hashlib.sha256()
    for p, sha in sorted((shas or input_shas()).items()):
        h.update(p.encode() + b"\0" + sha.encode() + b"\n")
    h.update(json.dumps([flags(), exports()]).encode())
    return h.hexdigest()


def emcc_version(emcc):
    out = subprocess.run([emcc, "--version"], capture_output=True, text=True, check=True).stdout
    return out.splitlines()[0].strip()


def _env():
    env = dict(os.environ)
    # Debian's emcc runs its JS optimizer with node; Debian keeps acorn in /usr/share/nodejs
    if os.path.isdir("/usr/share/nodejs"):
        env["NODE_PATH"] = os.pathsep.join(x for x in (env.get("NODE_PATH"), "/usr/share/nodejs") if x)
    return env


def build(emcc=None, out=OUT, stamp=STAMP):
    emcc = emcc or shutil.which("emcc")
    if not emcc:
        raise SystemExit("wasm/build.py: emcc not found (Debian: apt-get install emscripten)")
    with tempfile.TemporaryDirectory() as d:
        tmp = os.path.join(d, "azuki.wasm")
        cmd = [emcc, *flags(), *(f"-I{i}" for i in INCLUDE), *sources(),
               "-sEXPORTED_FUNCTIONS=" + ",".join("_" + e for e in exports()), "-o", tmp]
        subprocess.run(cmd, cwd=ROOT, check=True, env=_env())
        shutil.copyfile(tmp, out)
    info = {"what": "azuki engine as WebAssembly (wasm/build.py; docs/play.md)", "sources": source_digest(),
            "emcc": emcc_version(emcc), "flags": flags(), "policy": has_policy(), "wasm_sha256": _sha(out), "wasm_bytes": os.path.getsize(out),
            "inputs": input_shas()}
    with open(stamp, "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    return info


def check(out=OUT, stamp=STAMP):
    """Problems with the checked-in build ([] when fresh)."""
    rel = os.path.relpath(out, ROOT)
    if not os.path.exists(out) or not os.path.exists(stamp):
        return [f"{rel} or its stamp is missing: run `make wasm` (python wasm/build.py)"]
    with open(stamp) as f:
        info = json.load(f)
    probs = []
    now = input_shas()
    if info.get("sources") != source_digest(now):
        was = info.get("inputs") or {}
        was = was if isinstance(was, dict) else {p: None for p in was}
        changed = sorted(p for p in set(now) | set(was) if now.get(p) != was.get(p)) or ["the flags or exports"]
        probs.append(f"{rel} is stale: its sources changed since it was built ({', '.join(changed)[:200]}); "
                     f"run `make wasm` (needs emcc: apt-get install emscripten) and commit it")
    if info.get("wasm_sha256") != _sha(out):
        probs.append(f"{rel} does not match its stamp (edited or replaced by hand?); run `make wasm`")
    return probs


def main(argv):
    if argv == ["--check"]:
        probs = check()
        for p in probs:
            print(f"wasm/build.py --check: {p}", file=sys.stderr)
        if not probs:
            print("wasm/build.py --check: azuki/web/static/azuki.wasm is fresh")
        return 1 if probs else 0
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    info = build()
    print(f"wrote {os.path.relpath(OUT, ROOT)} ({info['wasm_bytes']:,} bytes, {info['emcc']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""`python -m azuki play --static DIR`: write the play page as a static site
that needs no server (docs/play.md "Static site"): the page, the engine
compiled to WebAssembly (azuki/web/static/azuki.wasm, built by wasm/build.py
and checked in), and `site.json` with the card table and the engine's tables
(the same `meta` the play server sends, azuki/web/server.py), and, when the
module has the C policy forward pass, the reference checkpoint's weights
(`reference.azkw`) as an opponent. With --cards
the set's image (azuki.convert.pack, the bytes the native engine loads)
goes in as `cardset.bin`; the worker loads it with azk_cardset_load, which
checks its length and layout, so a set whose layout differed on wasm32 would
be refused, never misread. Any static file server works
(`python -m http.server -d DIR`), offline.
"""
from __future__ import annotations

import json
import os
import shutil
import sys

from .. import spec_autogen as S
from .server import STATIC, _card_table, _table

# the static site's files from azuki/web/static (tests/test_wasm.py checks the page needs no others)
FILES = ("index.html", "app.js", "style.css", "engine.js", "worker.js", "worker_client.js", "words.js", "session.js",
         "selftest.html", "selftest.js", "azuki.wasm", "azuki.wasm.json")
SEARCH_SIMS_MAX = 2000     # the page's slider in WASM mode (the search runs in the visitor's browser)


def module_has_policy():
    """Does the checked-in module carry the C policy forward pass (its stamp
    says so: wasm/build.py compiles csrc/policy.c in when the core has it)?"""
    with open(os.path.join(STATIC, "azuki.wasm.json"), encoding="utf-8") as f:
        return bool(json.load(f).get("policy"))


def reference_weights(cs):
    """(path of the reference checkpoint's AZKW weights, None) when the static
    site can offer it as an opponent for card set `cs`; (None, why not)
    otherwise (the module lacks the policy, the file is missing, or the
    checkpoint was made for another card set: azuki.policy_np's check)."""
    from ..policy_np import REFERENCE, load_numpy_policy
    path = REFERENCE + ".azkw"
    if not module_has_policy():
        return None, "this build of the WebAssembly module has no policy forward pass"
    if not os.path.exists(path):
        return None, f"{path} is missing"
    try:
        load_numpy_policy(REFERENCE, cards=cs)     # the compatibility checks (layout, actions, card set)
    except Exception as e:   # CheckpointError, OSError: offered as unavailable, with the reason (as the server)
        return None, str(e)
    return path, None


def site_meta(cs, weights_error=None):
    """The page's /api/meta for card set `cs` (an azuki.CardSet) in WASM mode:
    the server's tables, the built-in bots (and the reference checkpoint when
    the module can run it) as opponents."""
    from .. import _core
    ref = [{"id": "ckpt:reference", "label": "reference checkpoint (ships with azuki)", "error": weights_error}] \
        if module_has_policy() else []
    return {"cards": _card_table(cs), "decks": list(cs.decks),
            "prompt_kinds": _table(S.PROMPT, S.PROMPT_DOC), "statuses": _table(S.STATUS, S.STATUS_DOC),
            "keywords": _table(S.KEYWORD, S.KEYWORD_DOC), "phases": _table(S.PHASE, S.PHASE_DOC),
            "actions": _table(S.ACTION, S.ACTION_DOC), "results": list(S.RESULT),
            "zones": list(getattr(S, "ZONE", ())),
            "opponents": [{"id": "random", "label": "random (uniform over legal actions)"},
                          {"id": "greedy", "label": "greedy (one-ply lookahead)"},
                          {"id": "search", "label": "search (Monte Carlo tree search)",
                           "sims": {"min": 1, "max": SEARCH_SIMS_MAX,
                                    "default": min(int(_core.SEARCH_SIMS), SEARCH_SIMS_MAX)}}] + ref,
            "idle_s": None, "transport": "wasm"}


def site_tables(cs):
    """What words.js reads positions and writes words with, from the sources
    the Python side reads (spec_autogen, the engine's export layout, the card
    set): one source of truth, nothing retyped in JS."""
    from .. import _core
    from ..text import UNNAMED
    from ..view import VIEW_FORMAT
    names = ("ACTION", "ACTION_PARAM", "ACTION_PARAM_READ", "ACTION_PARAM_READ_ARGS", "PROMPT", "PHASE", "RESULT",
             "END", "ZONE", "DURATION", "STATUS", "CARD_FLAG", "EFFECT_KIND")
    t = {n: list(getattr(S, n)) for n in names}
    t["UNNAMED"] = sorted(UNNAMED)
    t.update(CAPS=dict(S.CAPS), ZONE_OUT=S.ZONE_OUT, ZONE_ASIDE=S.ZONE_ASIDE, ZONE_RESOLVING=S.ZONE_RESOLVING,
             EVENT_TYPES=list(_core.EVENT_TYPES), VIEW_FORMAT=VIEW_FORMAT, num_cards=_core.NUM_CARDS,
             num_actions=_core.NUM_ACTIONS,
             export={"version": _core.EXPORT_LAYOUT.version, "size": _core.EXPORT_LAYOUT.size,
                     "fields": {k: list(v) for k, v in _core.EXPORT_LAYOUT.fields.items()}},
             choose=[_core.encode("CHOOSE", i) for i in range(S.CAPS["AZK_MAX_OPTIONS"])],
             no_op=_core.encode("NO_OP"), ids=list(cs.ids), names=list(cs.names),
             cardset_hash=f"{cs.hash:016x}",
             mode_labels={str(pc): list(lab) for pc in range(S.CAPS["AZK_MAX_BYTECODE"])
                          for lab in [cs.mode_labels(pc)] if lab})
    return t


def write_site(out, cards=None):
    """Write the static site into directory `out` (created; existing files of
    the same names are replaced). Returns the site.json dict."""
    from .._core import CardSet
    cs = CardSet.from_json(cards) if cards else CardSet.default()
    os.makedirs(out, exist_ok=True)
    for f in FILES:
        src = os.path.join(STATIC, f)
        if not os.path.exists(src):
            raise FileNotFoundError(f"{src}: missing from the package (the WebAssembly build: make wasm)")
        shutil.copyfile(src, os.path.join(out, f))
    with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
        page = f.read()
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write(page.replace('<html lang="en">', '<html lang="en" data-transport="wasm">', 1))
    weights, why = reference_weights(cs)
    site = {"format": "azuki-site/1", "meta": site_meta(cs, why), "tables": site_tables(cs),
            "cardset_hash": f"{cs.hash:016x}", "cardset": None, "cards_source": os.fspath(cards) if cards else None,
            "weights": {}}
    if weights:
        shutil.copyfile(weights, os.path.join(out, "reference.azkw"))
        site["weights"]["reference"] = "reference.azkw"
    if cards:
        from ..convert import load_cardset
        from ..convert.pack import pack_cardset
        with open(os.path.join(out, "cardset.bin"), "wb") as f:
            f.write(pack_cardset(load_cardset(cards)))
        site["cardset"] = "cardset.bin"
    with open(os.path.join(out, "site.json"), "w", encoding="utf-8") as f:
        json.dump(site, f, separators=(",", ":"))
    return site


def main(args):
    from ..convert import ConvertError
    if getattr(args, "checkpoint", None):
        print("azuki play --static: the static site plays the built-in bots only (a checkpoint opponent needs "
              "the policy in the WebAssembly module: not yet); leave --checkpoint out", file=sys.stderr)
        return 2
    try:
        write_site(args.static, args.cards)
    except (OSError, ValueError, ConvertError) as e:   # CardSetError is a ValueError
        print(f"azuki play --static: {e}", file=sys.stderr)
        return 2
    print(f"azuki play --static: wrote {args.static}; serve it with any static file server, e.g. "
          f"`python -m http.server -d {args.static}`, and open it in a browser (works offline)")
    return 0

"""`python -m azuki play`: a local web server to play and watch games in the
browser (docs/play.md). Standard library only (http.server + json).

The page (azuki/web/static/: plain HTML, CSS and ES modules, no build step)
talks JSON to these endpoints:

    GET  /api/meta                      card set (names, stats, text), decks, the engine's tables
                                        (prompt kinds, statuses, keywords, phases, action types), opponents
    POST /api/new                       {"mode": "bot"|"hotseat", "decks": [d0, d1], "human_seat": 0|1,
                                         "opponent": "random"|"greedy"|"search"|"ckpt:NAME", "sims": N}
                                        -> {"game", "keys": {seat: key}}
    GET  /api/game/ID?seat=S&key=K&since=N
                                        the seat's view (azuki.view.seat_view), its legal actions with the
                                        places each involves, events since N in words, a state token
    POST /api/game/ID/act               {"seat", "key", "token", "action"}: 409 for a stale token or not
                                        your decision, 400 for an illegal action; nothing changes then
    GET  /api/game/ID/replay?seat=S&key=K   the replay file, once the game is over
    POST /api/replay                    a replay file (JSON): verified (every state hash) -> {"replay", "steps"}
    GET  /api/replay/ID?step=K&view=0|1|full    the position after K steps as that seat / everyone sees it

Only what a seat may see is ever sent for it (azuki/web/sessions.py
state_payload); a checkpoint's probabilities are in the replay only (shown in
the viewer's full view), never in a live game's payload.
"""
from __future__ import annotations

import contextlib
import json
import mimetypes
import os
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .. import spec_autogen as S
from .sessions import GameSession, Player, ReplaySession, RequestError, Store, newest_run

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 16 << 20          # a replay of a long game is well under 1 MB
MAX_ACT_BODY = 64 << 10


def _card_table(cards):
    """id -> printed data of every card in the set (public: the card list)."""
    from .._core import CardSet
    if cards is None or cards is CardSet.default():
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "cards.json")
    else:
        path = cards.source
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for c in data.get("cards", []):
            out[c["id"]] = {k: c.get(k) for k in ("id", "name", "card_type", "element", "rarity", "subtypes", "cost",
                                                  "attack", "health", "gate_points", "keywords", "text")}
    except (OSError, ValueError, TypeError, KeyError):
        pass
    cs = cards or CardSet.default()
    for i, (cid, name, ct) in enumerate(zip(cs.ids, cs.names, cs.card_types)):
        out.setdefault(cid, {"id": cid, "name": name, "card_type": ct})
    return out


def _table(names, docs):
    return [{"name": n, "doc": d} for n, d in zip(names, docs)]


class App:
    """The server's state: the card set, the opponents on offer, the sessions."""

    def __init__(self, cards=None, runs="runs", max_games=64, idle_s=1800.0, checkpoints=()):
        from .. import bots
        from .._core import CardSet
        from ..policy_np import REFERENCE
        self.cards_arg = cards
        self.cs = CardSet.from_json(cards) if cards else CardSet.default()
        self.cards = _card_table(self.cs if cards else None)
        self.names = {k: v["name"] for k, v in self.cards.items()}
        self.store = Store(max_games=max_games, idle_s=idle_s)
        self.bots = bots
        self.ckpts = {}      # name -> (path, label, error or None)
        cands = [("reference", REFERENCE, "reference checkpoint (ships with azuki)")]
        run = newest_run(runs)
        if run:
            cands.append(("newest-run", run, f"newest training run ({os.path.relpath(run)})"))
        for i, p in enumerate(checkpoints):
            cands.append((f"ckpt{i}", p, f"checkpoint {p}"))
        self._policies = {}
        for name, path, label in cands:
            try:
                self._policies[name] = self._load(path)
                self.ckpts[name] = (path, label, None)
            except Exception as e:   # CheckpointError, OSError: offered as unavailable, with the reason
                self.ckpts[name] = (path, label, str(e))
        self.meta = self._meta()

    def _load(self, path):
        from ..policy_np import load_numpy_policy
        return load_numpy_policy(path, cards=self.cs)

    def _meta(self):
        from .. import _core
        opp = [{"id": "random", "label": "random (uniform over legal actions)"},
               {"id": "greedy", "label": "greedy (one-ply lookahead)"},
               {"id": "search", "label": "search (Monte Carlo tree search)",
                "sims": {"min": 1, "max": int(_core.SEARCH_MAX_SIMS), "default": int(_core.SEARCH_SIMS)}}]
        for name, (path, label, err) in self.ckpts.items():
            opp.append({"id": f"ckpt:{name}", "label": label, "error": err})
        return {"cards": self.cards, "decks": list(self.cs.decks),
                "prompt_kinds": _table(S.PROMPT, S.PROMPT_DOC), "statuses": _table(S.STATUS, S.STATUS_DOC),
                "keywords": _table(S.KEYWORD, S.KEYWORD_DOC), "phases": _table(S.PHASE, S.PHASE_DOC),
                "actions": _table(S.ACTION, S.ACTION_DOC), "results": list(S.RESULT),
                "zones": list(getattr(S, "ZONE", ())), "opponents": opp, "idle_s": self.store.idle_s}

    # ---- API ------------------------------------------------------------------------------
    def opponent(self, spec, sims, seed):
        from .._core import SEARCH_MAX_SIMS
        if spec in ("random", "greedy"):
            bot = self.bots.make_bot(spec, seed)
            return Player(spec, spec, bot.act)
        if spec == "search":
            if sims is None:
                sims = self.bots.SEARCH_SIMS
            if isinstance(sims, bool) or not isinstance(sims, int) or not 1 <= sims <= SEARCH_MAX_SIMS:
                raise RequestError(400, f"sims must be an integer in [1, {SEARCH_MAX_SIMS}]")
            bot = self.bots.make_bot("search", seed, sims=sims)
            return Player(f"search:sims={sims}", f"search ({sims} sims)", bot.act)
        if isinstance(spec, str) and spec.startswith("ckpt:") and spec[5:] in self.ckpts:
            path, label, err = self.ckpts[spec[5:]]
            if err:
                raise RequestError(400, f"checkpoint opponent unavailable: {err}")
            from ..policy_np import NumpyPolicyPlayer
            p = NumpyPolicyPlayer(self._policies[spec[5:]], seed=seed)
            return Player(f"checkpoint:{os.path.basename(path)}", label.split(" (")[0], p.act, lambda: p.last)
        names = ", ".join(o["id"] for o in self.meta["opponents"])
        raise RequestError(400, f"unknown opponent {str(spec)[:40]!r} (one of: {names})")

    def new_game(self, body):
        import secrets
        if not isinstance(body, dict):
            raise RequestError(400, "expected a JSON object")
        unknown = set(body) - {"mode", "decks", "human_seat", "opponent", "sims", "seed"}
        if unknown:
            raise RequestError(400, f"unknown keys: {', '.join(sorted(map(str, unknown)))[:100]}")
        mode = body.get("mode", "bot")
        if mode not in ("bot", "hotseat"):
            raise RequestError(400, "mode must be 'bot' or 'hotseat'")
        decks = body.get("decks", list(self.cs.decks[:2]) if len(self.cs.decks) > 1 else [self.cs.decks[0]] * 2)
        if not isinstance(decks, list) or len(decks) != 2 or any(d not in self.cs.decks for d in decks):
            raise RequestError(400, f"decks must be two of {list(self.cs.decks)}")
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 63):
            raise RequestError(400, "seed must be an integer in [0, 2**63)")
        if mode == "hotseat":
            players = [None, None]
        else:
            hs = body.get("human_seat", 0)
            if hs not in (0, 1) or isinstance(hs, bool):
                raise RequestError(400, "human_seat must be 0 or 1")
            opp = self.opponent(body.get("opponent", "random"), body.get("sims"), secrets.randbits(62))
            players = [None, opp] if hs == 0 else [opp, None]
        sess = GameSession(decks, players, cards=self.cards_arg, seed=seed, names=self.names)
        self.store.add("game", sess)
        return {"game": sess.id, "keys": {str(s): k for s, k in sess.keys.items()}, "mode": mode}

    def game_state(self, gid, q):
        sess = self.store.get("game", gid)
        seat, key = _seat(q), q.get("key")
        since = _int_q(q, "since", 0)
        with sess.lock:
            sess.check_key(seat, key)
            return sess.payload(seat, min(since, len(sess.events)))

    def game_act(self, gid, body):
        if not isinstance(body, dict):
            raise RequestError(400, "expected a JSON object {seat, key, token, action}")
        sess = self.store.get("game", gid)
        seat = body.get("seat")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise RequestError(400, "seat must be 0 or 1")
        since = body.get("since", 0)
        since = since if isinstance(since, int) and not isinstance(since, bool) and since >= 0 else 0
        with sess.lock:
            sess.check_key(seat, body.get("key"))
            sess.act(seat, body.get("token"), body.get("action"))
            return sess.payload(seat, min(since, len(sess.events)))

    def game_replay(self, gid, q):
        sess = self.store.get("game", gid)
        with sess.lock:
            sess.check_key(_seat(q), q.get("key"))
            if not sess.game.is_terminal:
                raise RequestError(409, "the replay is available once the game is over (it reveals both hands)")
            return sess.replay()

    def new_replay(self, body):
        if not isinstance(body, dict):
            raise RequestError(400, "a replay file is a JSON object")
        cards = body.get("cards")
        if cards is not None and cards != self.cards_arg:
            raise RequestError(400, f"this replay uses the card set {str(cards)[:80]!r}: start `python -m azuki play "
                                    "--cards` with it to view it")
        try:
            sess = ReplaySession(body, names=self.names)
        except RequestError:
            raise
        except (ValueError, TypeError, KeyError) as e:
            raise RequestError(400, f"not a valid replay: {str(e)[:200]}") from None
        self.store.add("replay", sess)
        return {"replay": sess.id, "steps": len(sess.rep["steps"]), "message": sess.message,
                "players": sess.rep.get("players"), "decks": sess.rep["decks"],
                "inspection": any(isinstance(s, dict) and "policy" in s for s in sess.rep["steps"])}

    def replay_state(self, rid, q):
        sess = self.store.get("replay", rid)
        view = q.get("view", "full")
        if view not in ("0", "1", "full"):
            raise RequestError(400, "view must be 0, 1 or full")
        with sess.lock:
            return sess.payload(_int_q(q, "step", 0), view if view == "full" else int(view))


def _int_q(q, name, default):
    v = q.get(name)
    if v is None:
        return default
    try:
        n = int(v, 10)
    except ValueError:
        raise RequestError(400, f"{name} must be an integer") from None
    if n < 0:
        raise RequestError(400, f"{name} must be >= 0")
    return n


def _seat(q):
    s = q.get("seat")
    if s not in ("0", "1"):
        raise RequestError(400, "seat must be 0 or 1")
    return int(s)


class Handler(BaseHTTPRequestHandler):
    server_version = "azuki-play"
    app: App = None
    quiet = True

    def log_message(self, fmt, *args):
        if not self.quiet:
            super().log_message(fmt, *args)

    def _send(self, status, body, ctype="application/json; charset=utf-8", extra=()):
        data = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'")
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _error(self, status, message, **extra):
        self._send(status, {"error": message, "status": status, **extra})

    def _host_ok(self):
        """Refuse requests for another host name (DNS rebinding) and cross-site posts."""
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]").lower()
        allowed = {"127.0.0.1", "localhost", "::1", self.server.server_address[0]}
        if host not in allowed and not getattr(self.server, "any_host", False):
            return False
        origin = self.headers.get("Origin")
        if origin and self.command == "POST":
            o = urllib.parse.urlsplit(origin).hostname or ""
            if o not in allowed and not getattr(self.server, "any_host", False):
                return False
        return True

    def _body(self, limit):
        try:
            n = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise RequestError(411, "a JSON body with a Content-Length is required") from None
        if n < 0 or n > limit:
            raise RequestError(413, f"request body too large ({n} bytes; at most {limit})")
        raw = self.rfile.read(n)
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise RequestError(400, f"the body is not JSON ({str(e)[:80]})") from None

    def _dispatch(self):
        if not self._host_ok():
            return self._error(403, "forbidden host or origin (the play server answers 127.0.0.1 / localhost only)")
        url = urllib.parse.urlsplit(self.path)
        parts = [p for p in url.path.split("/") if p]
        q = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query, keep_blank_values=True).items()}
        app = self.app
        m = self.command
        try:
            if parts[:1] != ["api"]:
                if m not in ("GET", "HEAD"):
                    raise RequestError(405, "method not allowed")
                return self._static(parts)
            route = parts[1:]
            if m == "GET" and route == ["meta"]:
                return self._send(200, app.meta)
            if m == "POST" and route == ["new"]:
                return self._send(200, app.new_game(self._body(MAX_ACT_BODY)))
            if m == "GET" and len(route) == 2 and route[0] == "game":
                return self._send(200, app.game_state(route[1], q))
            if m == "POST" and len(route) == 3 and route[0] == "game" and route[2] == "act":
                return self._send(200, app.game_act(route[1], self._body(MAX_ACT_BODY)))
            if m == "GET" and len(route) == 3 and route[0] == "game" and route[2] == "replay":
                return self._send(200, app.game_replay(route[1], q))
            if m == "POST" and route == ["replay"]:
                return self._send(200, app.new_replay(self._body(MAX_BODY)))
            if m == "GET" and len(route) == 2 and route[0] == "replay":
                return self._send(200, app.replay_state(route[1], q))
            raise RequestError(404, f"no such endpoint: {m} {url.path[:80]}")
        except RequestError as e:
            return self._error(e.status, e.message, **e.extra)
        except Exception as e:   # a bug: say so, keep serving
            return self._error(500, f"internal error: {type(e).__name__}: {str(e)[:200]}")

    def _static(self, parts):
        name = "index.html" if not parts else "/".join(parts)
        files = set(os.listdir(STATIC))
        if name not in files:          # only the shipped files, by exact name: no paths outside static/
            raise RequestError(404, f"no such file: {name[:80]}")
        with open(os.path.join(STATIC, name), "rb") as f:
            data = f.read()
        ctype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if name.endswith(".js"):
            ctype = "text/javascript"
        if ctype.startswith("text/"):
            ctype += "; charset=utf-8"
        return self._send(200, data, ctype)

    def do_GET(self):
        self._dispatch()

    do_HEAD = do_GET

    def do_POST(self):
        self._dispatch()

    def do_PUT(self):
        self._error(405, "method not allowed")

    do_DELETE = do_PATCH = do_PUT


def make_server(app, host="127.0.0.1", port=0, quiet=True):
    """A ThreadingHTTPServer for `app` (port 0: a free port)."""
    handler = type("AzukiHandler", (Handler,), {"app": app, "quiet": quiet})
    srv = ThreadingHTTPServer((host, port), handler)
    srv.daemon_threads = True
    srv.any_host = host not in ("127.0.0.1", "localhost", "::1")
    app.store.start_reaper()
    return srv


@contextlib.contextmanager
def serving(app, host="127.0.0.1", port=0):
    """Serve `app` from a daemon thread for the `with` block (tests,
    screenshots); yields its URL. Afterwards the server is shut down and
    the game store's reaper stopped."""
    srv = make_server(app, host, port)
    threading.Thread(target=srv.serve_forever, name="azuki-play", daemon=True).start()
    try:
        yield f"http://{host}:{srv.server_address[1]}/"
    finally:
        srv.shutdown()
        srv.server_close()
        app.store.stop()


def main(args):
    """`python -m azuki play` (azuki/__main__.py parses the arguments)."""
    app = App(cards=args.cards, runs=args.runs, max_games=args.max_games, idle_s=args.idle_minutes * 60.0,
              checkpoints=args.checkpoint or ())
    srv = make_server(app, args.host, args.port, quiet=not args.verbose)
    url = f"http://{args.host}:{srv.server_address[1]}/"
    print(f"azuki play: open {url}  (Ctrl-C stops the server)", flush=True)
    for name, (path, label, err) in app.ckpts.items():
        if err:
            print(f"   note: {label} unavailable: {err}", file=sys.stderr)
    if args.open:
        import webbrowser
        webbrowser.open(url)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
        app.store.stop()
    return 0

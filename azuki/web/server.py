"""`python -m azuki play`: a local web server to play and watch games in the
browser (docs/play.md). Standard library only (http.server + json).

The page (azuki/web/static/: plain HTML, CSS and ES modules, no build step)
talks JSON to the endpoints declared once in ROUTES below (method, path,
handler, body limits, what it does; docs/play.md's table lists the same,
tests/test_web_server.py checks it). Every other path under /api/ is a 404;
paths outside /api/ are the static files (GET and HEAD only).

A seat's key travels in the X-Azuki-Key request header only: a key in a
query string is refused (URLs end up in logs and histories), and the log
(--verbose) never shows a query. Only what a seat may see is ever sent for
it (azuki/web/sessions.py state_payload); a checkpoint's probabilities are
in the replay only (shown in the viewer's full view), never in a live
game's payload.

Limits (docs/play.md): request bodies, JSON nesting and the number of JSON
objects and arrays are checked before a body is parsed; search bots take at
most PLAY_MAX_SIMS simulations and think_s seconds per decision; idle
connections are closed after IDLE_TIMEOUT_S; the listen backlog is BACKLOG.
"""
from __future__ import annotations

import contextlib
import ipaddress
import json
import mimetypes
import os
import re
import select
import socket
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import NamedTuple

from .. import spec_autogen as S
from .words import Words
from .sessions import (MAX_REPLAY_STEPS, THINK_S, GameSession, Player, ReplaySession, RequestError, Store,
                       newest_run)

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_REPLAY_BODY = 4 << 20    # a replay of a long game with inspection data is well under 1 MB
MAX_ACT_BODY = 64 << 10
# what parsing a body may build: nesting depth and JSON objects + arrays (a replay step is at most
# 3 containers plus one per [action, p] pair of its policy)
MAX_REPLAY_DEPTH, MAX_REPLAY_CONTAINERS = 6, 20 * MAX_REPLAY_STEPS + 16
UPLOAD_SLOTS = 2             # replay uploads parsed at once (each may build ~30 MB while parsed); others wait
UPLOAD_WAIT_S = 10.0
MAX_ACT_DEPTH, MAX_ACT_CONTAINERS = 3, 16

# Body limits of a route: (bytes, JSON nesting depth, JSON objects + arrays), checked before parsing.
ACT_BODY = (MAX_ACT_BODY, MAX_ACT_DEPTH, MAX_ACT_CONTAINERS)
REPLAY_BODY = (MAX_REPLAY_BODY, MAX_REPLAY_DEPTH, MAX_REPLAY_CONTAINERS)


class Route(NamedTuple):
    """One endpoint. `path` is below /api/, "{id}" matching one path segment;
    `handler` names a Handler method called as handler(ids, q, key, gone,
    read_body), read_body() parsing the body within `body`'s limits (None: the
    route takes no body); `doc` is what it answers (the only place it is said
    in the code)."""
    method: str
    path: str
    handler: str
    body: tuple | None
    doc: str

    def match(self, method, segments):
        """The {id} segments when this route serves (method, segments), else None."""
        pattern = self.path.split("/")
        if method != self.method or len(segments) != len(pattern):
            return None
        ids = []
        for want, got in zip(pattern, segments):
            if want == "{id}":
                ids.append(got)
            elif want != got:
                return None
        return ids


ROUTES = (
    Route("GET", "meta", "_api_meta", None,
          "card set (names, stats, text), decks, the engine's tables (prompt kinds, statuses, keywords, phases, "
          "action types), opponents"),
    Route("POST", "new", "_api_new", ACT_BODY,
          '{"mode": "bot"|"hotseat"|"remote", "decks": [d0, d1], "human_seat": 0|1, '
          '"opponent": "random"|"greedy"|"search"|"ckpt:NAME", "sims": N} -> {"game", "keys": {seat: key}}'),
    Route("GET", "game/{id}", "_api_game", None,
          "?seat=S&since=N: the seat's view (azuki.view.seat_view), its legal actions with the places each "
          "involves, events since N in words, a state token"),
    Route("POST", "game/{id}/act", "_api_act", ACT_BODY,
          '{"seat", "token", "action"}: 409 for a stale token or not your decision, 400 for an illegal action; '
          "nothing changes then"),
    Route("GET", "game/{id}/replay", "_api_game_replay", None, "?seat=S: the replay file, once the game is over"),
    Route("POST", "replay", "_api_upload", REPLAY_BODY,
          'a replay file (JSON): checked and verified -> {"replay", "steps"}; UPLOAD_SLOTS parsed at once'),
    Route("GET", "replay/{id}", "_api_replay", None,
          "?step=K&view=0|1|full: the position after K steps as that seat / everyone sees it"),
)
PLAY_MAX_SIMS = 5000         # the search opponent's simulations per decision, at most (the page's slider)
IDLE_TIMEOUT_S = 30.0        # a connection silent this long (no request, a stalled body) is closed
BACKLOG = 128                # connections waiting to be accepted
KEY_HEADER = "X-Azuki-Key"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def _card_table(cs):
    """id -> printed data of every card of the loaded CardSet `cs` (public:
    the card list), includes and all: the records of the compiled set it was
    built from (azuki.convert: the resolved document), in the set's order."""
    from .._core import CardSet
    from ..convert import load_cardset
    compiled = load_cardset(None if cs is CardSet.default() else cs.source)
    recs = {c["id"]: c for c in compiled.doc["cards"]}
    if [d["id"] for d in compiled.defs] != list(cs.ids):
        raise ValueError(f"{cs.source}: the card file changed while the server loaded it; start it again")
    out = {}
    for cid, name, ct in zip(cs.ids, cs.names, cs.card_types):
        c = recs[cid]
        out[cid] = {k: c.get(k) for k in ("id", "name", "card_type", "element", "rarity", "subtypes", "cost",
                                          "attack", "health", "gate_points", "keywords", "text")}
        out[cid].update(id=cid, name=name, card_type=ct,
                        # each ability's printed text, in the card's order (the page's prompt titles)
                        abilities=[a.get("text") or "" for a in c.get("abilities") or [] if isinstance(a, dict)])
    return out


def json_shape(raw, max_depth, max_containers):
    """Refuse (413) a JSON text whose parse would build more than
    `max_containers` objects and arrays or nest deeper than `max_depth`,
    before it is parsed: what an upload may cost is bounded by its shape,
    not only by its size (16 MB of `{}` is 5.6 M dicts)."""
    s = _JSON_STRING.sub(b'""', raw)     # brackets inside strings do not count
    n = s.count(b"{") + s.count(b"[")
    if n > max_containers:
        raise RequestError(413, f"the JSON has too many objects and arrays ({n}; at most {max_containers})")
    depth = 0
    for m in _JSON_BRACKET.finditer(s):
        if m.group() in (b"{", b"["):
            depth += 1
            if depth > max_depth:
                raise RequestError(413, f"the JSON nests too deep (more than {max_depth} levels)")
        else:
            depth -= 1


_JSON_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.S)
_JSON_BRACKET = re.compile(rb"[\[\]{}]")


def _table(names, docs):
    return [{"name": n, "doc": d} for n, d in zip(names, docs)]


class App:
    """The server's state: the card set, the opponents on offer, the sessions."""

    def __init__(self, cards=None, runs="runs", max_games=64, idle_s=1800.0, checkpoints=(), think_s=THINK_S,
                 max_sims=PLAY_MAX_SIMS):
        from .. import bots
        from .._core import SEARCH_MAX_SIMS, CardSet
        from ..policy_np import REFERENCE
        if not 1 <= max_sims <= SEARCH_MAX_SIMS:
            raise ValueError(f"max_sims must be in [1, {SEARCH_MAX_SIMS}]")
        self.cards_arg = cards
        self.think_s, self.max_sims = think_s, max_sims
        self.dropped = []    # the last thinking record of each game dropped because its client left (last 16)
        self.upload_slots = threading.BoundedSemaphore(UPLOAD_SLOTS)
        self.cs = CardSet.from_json(cards) if cards else CardSet.default()
        self.cards = _card_table(self.cs)
        self.names = Words(self.cards)     # card names and ability texts: the page's words
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
                "sims": {"min": 1, "max": self.max_sims, "default": min(int(_core.SEARCH_SIMS), self.max_sims)},
                "think_s": self.think_s}]
        for name, (path, label, err) in self.ckpts.items():
            opp.append({"id": f"ckpt:{name}", "label": label, "error": err})
        return {"cards": self.cards, "decks": list(self.cs.decks),
                "prompt_kinds": _table(S.PROMPT, S.PROMPT_DOC), "statuses": _table(S.STATUS, S.STATUS_DOC),
                "keywords": _table(S.KEYWORD, S.KEYWORD_DOC), "phases": _table(S.PHASE, S.PHASE_DOC),
                "actions": _table(S.ACTION, S.ACTION_DOC), "results": list(S.RESULT),
                "zones": list(getattr(S, "ZONE", ())), "opponents": opp, "idle_s": self.store.idle_s}

    # ---- API ------------------------------------------------------------------------------
    def opponent(self, spec, sims, seed):
        if spec in ("random", "greedy"):
            bot = self.bots.make_bot(spec, seed)
            return Player(spec, spec, bot.act)
        if spec == "search":
            if sims is None:
                sims = min(self.bots.SEARCH_SIMS, self.max_sims)
            if isinstance(sims, bool) or not isinstance(sims, int) or not 1 <= sims <= self.max_sims:
                raise RequestError(400, f"sims must be an integer in [1, {self.max_sims}]")
            bot = self.bots.make_bot("search", seed, sims=sims)
            return Player(f"search:sims={sims}", f"search ({sims} sims)", bot.act, stoppable=True)
        if isinstance(spec, str) and spec.startswith("ckpt:") and spec[5:] in self.ckpts:
            path, label, err = self.ckpts[spec[5:]]
            if err:
                raise RequestError(400, f"checkpoint opponent unavailable: {err}")
            from ..policy_np import NumpyPolicyPlayer
            p = NumpyPolicyPlayer(self._policies[spec[5:]], seed=seed)
            return Player(f"checkpoint:{os.path.basename(path)}", label.split(" (")[0], p.act, lambda: p.last)
        names = ", ".join(o["id"] for o in self.meta["opponents"])
        raise RequestError(400, f"unknown opponent {str(spec)[:40]!r} (one of: {names})")

    def new_game(self, body, gone=None):
        """`gone`: true once the requesting client has left (its bot's
        thinking stops and the game is dropped: nobody knows its id)."""
        import secrets
        if not isinstance(body, dict):
            raise RequestError(400, "expected a JSON object")
        unknown = set(body) - {"mode", "decks", "human_seat", "opponent", "sims", "seed"}
        if unknown:
            raise RequestError(400, f"unknown keys: {', '.join(sorted(map(str, unknown)))[:100]}")
        mode = body.get("mode", "bot")
        if mode not in ("bot", "hotseat", "remote"):
            raise RequestError(400, "mode must be 'bot', 'hotseat' or 'remote'")
        decks = body.get("decks", list(self.cs.decks[:2]) if len(self.cs.decks) > 1 else [self.cs.decks[0]] * 2)
        if not isinstance(decks, list) or len(decks) != 2 or any(d not in self.cs.decks for d in decks):
            raise RequestError(400, f"decks must be two of {list(self.cs.decks)}")
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 63):
            raise RequestError(400, "seed must be an integer in [0, 2**63)")
        if mode in ("hotseat", "remote"):     # remote: one seat per machine, each with its invite link
            players = [None, None]
        else:
            hs = body.get("human_seat", 0)
            if hs not in (0, 1) or isinstance(hs, bool):
                raise RequestError(400, "human_seat must be 0 or 1")
            opp = self.opponent(body.get("opponent", "random"), body.get("sims"), secrets.randbits(62))
            players = [None, opp] if hs == 0 else [opp, None]
        sess = GameSession(decks, players, cards=self.cards_arg, seed=seed, names=self.names, think_s=self.think_s,
                           gone=gone)
        if sess.abandoned:
            sess.close()
            self.dropped = self.dropped[-15:] + [sess.thinking[-1]]
            raise RequestError(400, "the client left while the bot was thinking: the game was dropped")
        sess.mode = mode
        self.store.add("game", sess)
        return {"game": sess.id, "keys": {str(s): k for s, k in sess.keys.items()}, "mode": mode}

    def game_state(self, gid, q, key=None, gone=None):
        """The seat's view; a bot decision left waiting (its client had gone)
        is taken now."""
        sess = self.store.get("game", gid)
        seat = _seat(q)
        since = _int_q(q, "since", 0)
        with _locked(sess):
            sess.check_key(seat, key)
            sess.advance(gone)
            return sess.payload(seat, min(since, len(sess.events)))

    def game_act(self, gid, body, key=None, gone=None):
        if not isinstance(body, dict):
            raise RequestError(400, "expected a JSON object {seat, token, action}")
        if "key" in body:
            raise RequestError(400, f"the seat key goes in the {KEY_HEADER} header, not in the body")
        unknown = set(body) - {"seat", "token", "action", "since"}
        if unknown:
            raise RequestError(400, f"unknown keys: {', '.join(sorted(map(str, unknown)))[:100]}")
        sess = self.store.get("game", gid)
        seat = body.get("seat")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise RequestError(400, "seat must be 0 or 1")
        since = body.get("since", 0)
        since = since if isinstance(since, int) and not isinstance(since, bool) and since >= 0 else 0
        with _locked(sess):
            sess.check_key(seat, key)
            sess.act(seat, body.get("token"), body.get("action"), gone)
            return sess.payload(seat, min(since, len(sess.events)))

    def game_replay(self, gid, q, key=None):
        sess = self.store.get("game", gid)
        with _locked(sess):
            sess.check_key(_seat(q), key)
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
        except (ValueError, TypeError, KeyError, OverflowError) as e:
            raise RequestError(400, f"not a valid replay: {str(e)[:200]}") from None
        self.store.add("replay", sess)
        return {"replay": sess.id, "steps": sess.n, "message": sess.message, "players": sess.players,
                "decks": sess.decks, "inspection": sess.inspection}

    def replay_state(self, rid, q):
        sess = self.store.get("replay", rid)
        view = q.get("view", "full")
        if view not in ("0", "1", "full"):
            raise RequestError(400, "view must be 0, 1 or full")
        with _locked(sess):
            return sess.payload(_int_q(q, "step", 0), view if view == "full" else int(view))


LOCK_WAIT_S = 2.0


@contextlib.contextmanager
def _locked(sess):
    """A session's lock, or 409 after LOCK_WAIT_S (a bot thinking in the game
    holds it for at most its time budget per decision): requests do not
    queue up threads behind a busy game."""
    if not sess.lock.acquire(timeout=LOCK_WAIT_S):
        raise RequestError(409, "the game is busy (a bot is thinking); try again in a moment")
    try:
        yield
    finally:
        sess.lock.release()


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
    timeout = IDLE_TIMEOUT_S     # socket timeout: an idle or stalled connection frees its thread

    def log_message(self, fmt, *args):
        if not self.quiet:
            # no query strings (seat keys never travel there, but a client may put one in)
            sys.stderr.write("%s - [%s] %s\n" % (self.address_string(), self.log_date_time_string(),
                                                  _KEY_IN_TEXT.sub(r"\1<hidden>", fmt % args)))

    def log_request(self, code="-", size="-"):
        path = urllib.parse.urlsplit(getattr(self, "path", "") or "").path
        self.log_message('"%s %s" %s %s', getattr(self, "command", None) or "-", path[:200], code, size)

    def _send(self, status, body, ctype="application/json; charset=utf-8", extra=()):
        data = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
        try:
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
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            self.close_connection = True       # the client left: nothing to answer

    def _error(self, status, message, **extra):
        self._send(status, {"error": message, "status": status, **extra})

    def _host_ok(self):
        """Refuse requests for another host name (DNS rebinding) and cross-site
        posts: the Host (and a POST's Origin) must name one of the server's
        allowed hosts (loopback names, the --host it listens on, --allow-host)."""
        allowed = self.server.allowed_hosts
        host = _host_name(self.headers.get("Host") or "")
        if host not in allowed:
            return False
        origin = self.headers.get("Origin")
        if origin and self.command == "POST":
            try:
                o = (urllib.parse.urlsplit(origin).hostname or "").lower()
            except ValueError:
                return False
            if o not in allowed:
                return False
        return True

    def _client_gone(self):
        """True once the client has closed its connection (its request is
        fully read, so a readable socket with nothing to read means it left)."""
        try:
            r, _, _ = select.select([self.connection], [], [], 0)
            return bool(r) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    def _body(self, limit, max_depth, max_containers):
        try:
            n = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise RequestError(411, "a JSON body with a Content-Length is required") from None
        if n < 0 or n > limit:
            self.close_connection = True       # the body is not read
            raise RequestError(413, f"request body too large ({n} bytes; at most {limit})")
        raw = self.rfile.read(n)
        if len(raw) != n:
            raise RequestError(400, f"the body ended after {len(raw)} of {n} bytes")
        json_shape(raw, max_depth, max_containers)
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            raise RequestError(400, f"the body is not JSON ({str(e)[:80]})") from None

    def _dispatch(self):
        if not self._host_ok():
            names = ", ".join(sorted(self.server.allowed_hosts))
            return self._error(403, f"forbidden host or origin (this play server answers only for: {names})")
        url = urllib.parse.urlsplit(self.path)
        parts = [p for p in url.path.split("/") if p]
        q = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query, keep_blank_values=True).items()}
        m = self.command
        key = self.headers.get(KEY_HEADER)
        gone = self._client_gone
        try:
            if "key" in q:
                raise RequestError(400, f"a seat key never goes in a URL: send it in the {KEY_HEADER} header")
            if parts[:1] != ["api"]:
                if m not in ("GET", "HEAD"):
                    raise RequestError(405, "method not allowed")
                return self._static(parts)
            for route in ROUTES:
                ids = route.match(m, parts[1:])
                if ids is not None:
                    limits = route.body
                    read_body = (lambda: self._body(*limits)) if limits else None
                    return self._send(200, getattr(self, route.handler)(ids, q, key, gone, read_body))
            raise RequestError(404, f"no such endpoint: {m} {url.path[:80]}")
        except RequestError as e:
            return self._error(e.status, e.message, **e.extra)
        except Exception as e:   # a bug: say so, keep serving
            return self._error(500, f"internal error: {type(e).__name__}: {str(e)[:200]}")

    # ---- the handlers of ROUTES: (ids, query, seat key, client-gone check, body reader) -> payload
    def _api_meta(self, ids, q, key, gone, read_body):
        return self.app.meta

    def _api_new(self, ids, q, key, gone, read_body):
        return self.app.new_game(read_body(), gone=gone)

    def _api_game(self, ids, q, key, gone, read_body):
        return self.app.game_state(ids[0], q, key=key, gone=gone)

    def _api_act(self, ids, q, key, gone, read_body):
        return self.app.game_act(ids[0], read_body(), key=key, gone=gone)

    def _api_game_replay(self, ids, q, key, gone, read_body):
        return self.app.game_replay(ids[0], q, key=key)

    def _api_upload(self, ids, q, key, gone, read_body):
        app = self.app
        if not app.upload_slots.acquire(timeout=UPLOAD_WAIT_S):
            self.close_connection = True
            raise RequestError(503, "the server is busy with other replay uploads; try again")
        try:               # parsed inside the slot: at most UPLOAD_SLOTS bodies are being built at once
            body = read_body()
            out = app.new_replay(body)
            del body
        finally:
            app.upload_slots.release()
        return out

    def _api_replay(self, ids, q, key, gone, read_body):
        return self.app.replay_state(ids[0], q)

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


_KEY_IN_TEXT = re.compile(r"((?:\?|&|%3[fF]|%26)key(?:=|%3[dD]))[^&\s'\"]*")
WILDCARD = ("0.0.0.0", "::", "")


def _host_name(h):
    """The host part of a Host header or address, lower case, without port or brackets."""
    h = h.strip().lower()
    if h.startswith("["):
        return h[1:].split("]", 1)[0]
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


def is_loopback(host):
    """Whether `host` (an address or a name) is this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host, allow=()):
    """The host names requests may name (Host, a POST's Origin): the loopback
    names, the address listened on (unless a wildcard), each of `allow`, and
    for a wildcard address this machine's host names."""
    out = set(LOOPBACK_NAMES)
    if host not in WILDCARD:
        out.add(_host_name(host))
    else:
        for name in (socket.gethostname(), socket.getfqdn()):
            if name:
                out.add(name.lower())
    out.update(_host_name(a) for a in allow if a)
    return out


class PlayServer(ThreadingHTTPServer):
    request_queue_size = BACKLOG   # socketserver's default is 5: a burst of clients got resets
    daemon_threads = True


def make_server(app, host="127.0.0.1", port=0, quiet=True, allow_hosts=(), idle_timeout=IDLE_TIMEOUT_S):
    """A threading HTTP server for `app` (port 0: a free port). Requests must
    name one of allowed_hosts(host, allow_hosts); connections idle for
    `idle_timeout` seconds are closed."""
    handler = type("AzukiHandler", (Handler,), {"app": app, "quiet": quiet, "timeout": idle_timeout})
    srv = PlayServer((host, port), handler)
    srv.allowed_hosts = allowed_hosts(host, allow_hosts)
    app.store.start_reaper()
    return srv


@contextlib.contextmanager
def serving(app, host="127.0.0.1", port=0, **kw):
    """Serve `app` from a daemon thread for the `with` block (tests,
    screenshots); yields its URL. Afterwards the server is shut down and
    the game store's reaper and any thinking bot stopped."""
    srv = make_server(app, host, port, **kw)
    threading.Thread(target=srv.serve_forever, name="azuki-play", daemon=True).start()
    try:
        yield f"http://{host}:{srv.server_address[1]}/"
    finally:
        srv.shutdown()
        srv.server_close()
        app.store.stop()


def exposure_lines(host, port, allowed, app):
    """What a server on a non-loopback address exposes (printed at start)."""
    return [
        f"azuki play: listening on {host}:{port}, NOT only this machine: anyone who can reach this address can",
        "   load the page, start games (bots use this machine's CPU: search bots up to "
        f"{app.max_sims} simulations and {app.think_s:g} s per decision), upload replays and view them;",
        f"   at most {app.store.max_games} games and {app.store.max_replays} replays at once.",
        "   Each game's seats are guarded by keys, but this is plain HTTP: keys and moves cross the network",
        "   unencrypted. Requests must name one of these hosts (add others with --allow-host NAME): "
        + ", ".join(sorted(allowed)),
    ]


def main(args):
    """`python -m azuki play` (azuki/__main__.py parses the arguments)."""
    host = args.host
    if not is_loopback(host) and not getattr(args, "expose", False):
        print(f"azuki play: --host {host} is not a loopback address: other machines could reach the server. "
              "Add --expose to serve them (it prints what that exposes), or leave --host out (127.0.0.1).",
              file=sys.stderr)
        return 2
    app = App(cards=args.cards, runs=args.runs, max_games=args.max_games, idle_s=args.idle_minutes * 60.0,
              checkpoints=args.checkpoint or (), think_s=getattr(args, "think_seconds", THINK_S))
    srv = make_server(app, host, args.port, quiet=not args.verbose, allow_hosts=getattr(args, "allow_host", None) or ())
    port = srv.server_address[1]
    shown = "127.0.0.1" if host in WILDCARD else host
    url = f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"
    print(f"azuki play: open {url}  (Ctrl-C stops the server)", flush=True)
    if not is_loopback(host):
        for line in exposure_lines(host, port, srv.allowed_hosts, app):
            print(line, flush=True)
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

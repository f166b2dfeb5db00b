"""Games and replays held by the play server (azuki/web/server.py).

A `GameSession` is one live game: an azuki.Game recorded by a Recorder (so
it can be saved as a replay when over), the players of its two seats (a
human, or a bot / checkpoint that moves at once when it is to act), the
events so far in words per seat, and a lock (one request at a time per game).
Each human seat has its own unguessable key: a request for a seat's view or
action must carry it, so a page never gets the other seat's view (hot-seat:
the one page holds both keys and shows one seat at a time).

`state_payload(game, seat)` is the whole per-position part of what the
server sends a seat: a pure function of the seat's view (azuki.view), so it
never depends on hidden information (tests/test_web_server.py checks this
under Game.resample).

A bot that searches (the search bot) thinks under a `SearchControl`: a
watcher thread stops its search at the per-decision time budget, when the
client whose request it serves goes away, or when the game is freed; the
C search checks the flag between simulations (docs/play.md "Limits").

A `ReplaySession` is an uploaded replay, every field checked
(`check_replay`) and every state hash verified on load, with a snapshot of
the position every SNAP_EVERY steps (the viewer's positions are replayed
from the nearest one), so what a replay keeps is bounded by its step count.
"""
from __future__ import annotations

import math
import os
import re
import secrets
import threading
import time

from ..view import full_view, seat_view
from .words import Words, event_entries, legal_entries, mark_auto_end, page_words, public_action


class RequestError(Exception):
    """A bad or stale request: an HTTP status and a one-line message; nothing changed."""

    def __init__(self, status, message, **extra):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def _words(names):
    """A Words from the server's (a Words, or a dict card id -> name)."""
    if isinstance(names, Words):
        return names
    return Words({k: {"name": v} for k, v in (names or {}).items()})


def state_payload(game, seat, names=None):
    """What a seat (0/1) or the full view (None) may see of a position, with
    its words (the banner, the prompt's title and option labels: words.py)."""
    words = _words(names)
    view = full_view(game) if seat is None else seat_view(game, seat)
    decider = game.current_player
    over = bool(game.is_terminal)
    return {"view": view, "legal": legal_entries(game, view, words), "decider": decider,
            "over": over, "result": game.result, "words": page_words(game, view, seat, over, words)}


class Player:
    """A non-human seat: a built-in bot or a numpy checkpoint player.
    `stoppable`: its act takes a SearchControl (the search bot), so its
    thinking can be stopped (GameSession._think)."""

    def __init__(self, spec, label, act, inspect=None, stoppable=False):
        self.spec, self.label, self._act, self._inspect = spec, label, act, inspect
        self.stoppable = stoppable

    def act(self, game, control=None):
        a = self._act(game, control) if self.stoppable else self._act(game)
        return a, (self._inspect() if self._inspect else None)


PRESENCE_S = 6.0      # remote play: a seat whose page made no request for this long counts as away
THINK_S = 10.0        # default per-decision time budget of a searching bot (play --think-seconds)
WATCH_EVERY_S = 0.05  # how often a thinking bot's watcher looks at the budget, the client and the game


class GameSession:
    """One live game. `think_s`: the time budget of one decision of a
    stoppable (search) player; `gone`: a callable, true once the client of
    the request that created the game has left (then the game is abandoned:
    `abandoned` is set and the bot's thinking stops)."""

    def __init__(self, decks, players, cards=None, seed=None, turn_cap=200, names=None, think_s=THINK_S,
                 gone=None):
        from ..replay import Recorder
        self.id = secrets.token_urlsafe(18)
        # 52 bits: a seed a JavaScript number holds exactly (the page may parse the replay)
        self.seed = secrets.randbits(52) if seed is None else seed
        self.rec = Recorder(seed=self.seed, decks=tuple(decks), cards=cards, turn_cap=turn_cap)
        self.game = self.rec.game
        self.players = players            # [None (human) or Player] per seat
        self.keys = {s: secrets.token_urlsafe(18) for s in (0, 1) if players[s] is None}
        self.names = names or {}
        self.events = []                  # {"n", "type", "player", "texts": [seat0, seat1, full], "turn"}
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.created = time.time()
        self.think_s = think_s
        self.closed = threading.Event()   # set when the store frees the game (or the server stops)
        self.thinking = []                # per stoppable decision: {"sims_run", "stopped"} (last 256)
        self.abandoned = False            # the last bot decision was dropped: its client left
        self.mode = "hotseat" if players == [None, None] else "bot"   # the server sets "remote"
        self.seen = {}                    # seat -> time.monotonic() of its last request with the right key
        self._drain()
        self.advance(gone)

    def close(self):
        """The game is freed: a bot thinking in it stops."""
        self.closed.set()

    # --- internals (under self.lock) ---
    def _drain(self, action_type=None):
        evs = self.game.events()
        if evs:
            for e in mark_auto_end(event_entries(self.game, evs, self.names, self.game.turn), action_type):
                e["n"] = len(self.events)
                self.events.append(e)

    def _step(self, a, info=None):
        t = self.game.decode(a)[0]
        self.rec.step(a)
        if info is not None:
            self.rec.steps[-1]["policy"] = info
        self._drain(t)

    def advance(self, gone=None, limit=100000):
        """Let the bots move until a human is to act or the game ends. A
        decision whose client left (`gone()`) or whose game was freed is
        dropped, not played: the game waits at it, and the next request for
        the game (a reload) takes it again. Returns False then."""
        n = 0
        self.abandoned = False
        while not self.game.is_terminal and self.players[self.game.current_player] is not None and n < limit:
            p = self.players[self.game.current_player]
            if p.stoppable:
                a, info, why = self._think(p, gone)
                if why in ("left", "closed"):
                    self.abandoned = True
                    return False
            else:
                a, info = p.act(self.game)
            self._step(a, info)
            n += 1
        return True

    def _stop_reason(self, gone, deadline):
        if self.closed.is_set():
            return "closed"
        if gone is not None and gone():
            return "left"
        if time.monotonic() >= deadline:
            return "budget"
        return None

    def _think(self, player, gone):
        """One decision of a stoppable player under a SearchControl. The
        reasons to stop are checked once before the search (so a budget of 0
        or a client already gone runs no simulation) and then by a watcher
        thread every WATCH_EVERY_S while it runs. Returns (action, info,
        why): why is None (all simulations ran), "budget" (the best action
        so far is played), "left" or "closed"."""
        from .._core import SearchControl
        ctl = SearchControl()
        deadline = time.monotonic() + self.think_s
        why = [self._stop_reason(gone, deadline)]
        done = threading.Event()
        watcher = None
        if why[0]:
            ctl.cancel()
        else:
            def watch():
                while not done.wait(WATCH_EVERY_S):
                    r = self._stop_reason(gone, deadline)
                    if r:
                        why[0] = r
                        ctl.cancel()
                        return
            watcher = threading.Thread(target=watch, name="azuki-play-think", daemon=True)
            watcher.start()
        try:
            a, info = player.act(self.game, ctl)
        finally:
            done.set()
            if watcher is not None:
                watcher.join()
        self.thinking = self.thinking[-255:] + [{"sims_run": ctl.sims_run, "stopped": why[0]}]
        return a, info, why[0]

    @property
    def token(self):
        return str(len(self.rec.steps))

    def check_key(self, seat, key):
        if seat not in self.keys:
            raise RequestError(403, f"seat {seat} of this game is not a human's: its view is not served")
        if not isinstance(key, str) or not secrets.compare_digest(key, self.keys[seat]):
            raise RequestError(403, "wrong or missing seat key for this game")
        self.seen[seat] = time.monotonic()

    def peer(self, seat):
        """Remote play: is the other seat's page there? "absent" (it never
        came: the invite link was not opened yet), "connected" (a request in
        the last PRESENCE_S seconds: its page polls every second or so),
        "away" (its connection dropped; it may come back with its link)."""
        t = self.seen.get(1 - seat)
        if t is None:
            return "absent"
        return "connected" if time.monotonic() - t <= PRESENCE_S else "away"

    def payload(self, seat, since=0):
        out = state_payload(self.game, seat, self.names)
        out.update(game=self.id, seat=seat, token=self.token, humans=sorted(self.keys),
                   players=[("human" if p is None else p.label) for p in self.players],
                   events=[{"n": e["n"], "type": e["type"], "player": e["player"], "turn": e["turn"],
                            "text": e["texts"][seat]} for e in self.events[since:]],
                   next_event=len(self.events), mode=self.mode)
        if self.mode == "remote":
            out["peer"] = self.peer(seat)
        return out

    def act(self, seat, token, action, gone=None):
        g = self.game
        if g.is_terminal:
            raise RequestError(409, "the game is over: no more actions", token=self.token)
        if token != self.token:
            raise RequestError(409, f"stale state: this action was chosen at state {token!r}, the game is now at "
                                    f"{self.token!r} (another tab or an old page?); reload the state",
                               token=self.token)
        if g.current_player != seat:
            raise RequestError(409, f"not seat {seat}'s decision (P{g.current_player} decides)", token=self.token)
        if isinstance(action, bool) or not hasattr(action, "__index__"):
            raise RequestError(400, "action must be an integer action id from the legal list")
        action = action.__index__()
        try:
            legal = bool(g.is_legal(action))
        except (ValueError, TypeError, OverflowError):
            legal = False
        if not legal:
            raise RequestError(400, f"action {action} is not legal here (use an id from the legal list)")
        self._step(action)
        self.advance(gone)

    def replay(self):
        d = self.rec.to_dict()
        d["players"] = [("human" if p is None else p.spec) for p in self.players]
        return d


# ---- replay uploads: every field checked, what is kept bounded ------------------------------
MAX_REPLAY_STEPS = 5_000     # one replay (games of the page: a few hundred decisions; 200 turns: ~2,000)
MAX_STORED_STEPS = 50_000    # all replays held together (a step keeps ~3 KB: its log in words, actions, policy)
MAX_POLICY_PROBS = 64        # `play` writes at most 16 (docs/replays.md)
MAX_TEXT = 200               # deck names, player labels
SNAP_EVERY = 16              # a kept position every SNAP_EVERY steps (the others are replayed)
_HEX16 = re.compile(r"[0-9a-f]{16}\Z")
REPLAY_KEYS = ("format", "cardset", "cards", "decks", "seed", "turn_cap", "initial_hash", "steps", "result",
               "players")
STEP_KEYS = ("player", "action", "hash", "policy")


def _bad(where, what):
    return RequestError(400, f"not a valid replay: {where}: {what}")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_real(v):
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def _short(v):
    t = repr(v)
    return t if len(t) <= 40 else t[:37] + "..."


def check_replay(rep, max_steps=MAX_REPLAY_STEPS):
    """Check every field of an uploaded replay (docs/replays.md, with the
    play server's optional `players` and per-step `policy`): RequestError 400
    naming the first bad field, before anything is built or stored."""
    from .. import spec_autogen as S
    from .._core import NUM_ACTIONS
    from ..replay import FORMAT, REQUIRED_KEYS
    if not isinstance(rep, dict):
        raise _bad("replay", "expected a JSON object")
    for k in rep:
        if k not in REPLAY_KEYS:
            raise _bad(f"replay.{str(k)[:40]}", f"unknown key (expected some of {', '.join(REPLAY_KEYS)})")
    for k in REQUIRED_KEYS:
        if k not in rep:
            raise _bad("replay", f"missing key {k!r}")
    if rep["format"] != FORMAT:
        raise _bad("replay.format", f"expected {FORMAT!r}, got {_short(rep['format'])}")
    for k in ("cardset", "initial_hash"):
        if not isinstance(rep[k], str) or not _HEX16.match(rep[k]):
            raise _bad(f"replay.{k}", f"expected 16 lowercase hex digits, got {_short(rep[k])}")
    if rep.get("cards") is not None and (not isinstance(rep["cards"], str) or len(rep["cards"]) > 4096):
        raise _bad("replay.cards", f"expected null or a path, got {_short(rep['cards'])}")
    d = rep["decks"]
    if not isinstance(d, list) or len(d) != 2 or not all(isinstance(x, str) and 0 < len(x) <= MAX_TEXT for x in d):
        raise _bad("replay.decks", f"expected two deck names, got {_short(d)}")
    if not _is_int(rep["seed"]) or not 0 <= rep["seed"] < 1 << 64:
        raise _bad("replay.seed", f"expected an integer in [0, 2**64), got {_short(rep['seed'])}")
    if "turn_cap" in rep and (not _is_int(rep["turn_cap"]) or not 1 <= rep["turn_cap"] <= 60000):
        raise _bad("replay.turn_cap", f"expected an integer in [1, 60000], got {_short(rep['turn_cap'])}")
    if "result" in rep and rep["result"] not in S.RESULT:
        raise _bad("replay.result", f"expected one of {', '.join(S.RESULT)}, got {_short(rep['result'])}")
    pl = rep.get("players")
    if pl is not None and (not isinstance(pl, list) or len(pl) != 2
                           or not all(isinstance(x, str) and len(x) <= MAX_TEXT for x in pl)):
        raise _bad("replay.players", f"expected two player labels, got {_short(pl)}")
    steps = rep["steps"]
    if not isinstance(steps, list):
        raise _bad("replay.steps", f"expected a list, got {type(steps).__name__}")
    if len(steps) > max_steps:
        raise RequestError(413, f"replay too long: {len(steps)} steps (this server takes at most {max_steps})")
    for i, st in enumerate(steps):
        w = f"replay.steps[{i}]"
        if not isinstance(st, dict):
            raise _bad(w, f"expected an object, got {_short(st)}")
        for k in st:
            if k not in STEP_KEYS:
                raise _bad(f"{w}.{str(k)[:40]}", f"unknown key (expected some of {', '.join(STEP_KEYS)})")
        for k in ("action", "hash"):
            if k not in st:
                raise _bad(w, f"missing key {k!r}")
        if not _is_int(st["action"]) or not 0 <= st["action"] < NUM_ACTIONS:
            raise _bad(f"{w}.action", f"expected an action id in [0, {NUM_ACTIONS}), got {_short(st['action'])}")
        if not isinstance(st["hash"], str) or not _HEX16.match(st["hash"]):
            raise _bad(f"{w}.hash", f"expected 16 lowercase hex digits, got {_short(st['hash'])}")
        if "player" in st and (not _is_int(st["player"]) or st["player"] not in (0, 1)):
            raise _bad(f"{w}.player", f"expected 0 or 1, got {_short(st['player'])}")
        if "policy" in st:
            _check_policy(st["policy"], f"{w}.policy", NUM_ACTIONS)
    return rep


def _check_policy(pol, w, num_actions):
    if not isinstance(pol, dict):
        raise _bad(w, f"expected an object {{value, probs}}, got {_short(pol)}")
    for k in pol:
        if k not in ("value", "probs"):
            raise _bad(f"{w}.{str(k)[:40]}", "unknown key (expected value, probs)")
    if pol.get("value") is not None and not _is_real(pol["value"]):
        raise _bad(f"{w}.value", f"expected a finite number or null, got {_short(pol['value'])}")
    probs = pol.get("probs", [])
    if not isinstance(probs, list) or len(probs) > MAX_POLICY_PROBS:
        raise _bad(f"{w}.probs", f"expected a list of at most {MAX_POLICY_PROBS} [action, p] pairs, got {_short(probs)}")
    for j, e in enumerate(probs):
        if (not isinstance(e, list) or len(e) != 2 or not _is_int(e[0]) or not 0 <= e[0] < num_actions
                or not _is_real(e[1]) or not 0 <= e[1] <= 1):
            raise _bad(f"{w}.probs[{j}]", f"expected [action id, probability in [0, 1]], got {_short(e)}")


class ReplaySession:
    """A replay, checked field by field (check_replay) and verified on load
    (every state hash). It keeps the actions, the inspection data, the log
    of every step in words and a position every SNAP_EVERY steps, not the
    uploaded JSON."""

    def __init__(self, rep, cards=None, names=None):
        from .._core import Game
        from ..replay import verify_replay
        check_replay(rep)
        ok, msg = verify_replay(rep)
        if not ok:
            raise RequestError(400, f"replay check failed: {msg}")
        self.id = secrets.token_urlsafe(18)
        self.message = msg
        self.names = names or {}
        steps = rep["steps"]
        self.n = len(steps)
        self.actions = [s["action"] for s in steps]
        self.movers = [s.get("player") for s in steps]
        self.policies = {i: (s["policy"].get("value"), [tuple(e) for e in s["policy"].get("probs", [])])
                         for i, s in enumerate(steps) if "policy" in s}
        self.players, self.result, self.decks = rep.get("players"), rep.get("result"), list(rep["decks"])
        g = Game(seed=rep["seed"], decks=tuple(rep["decks"]), cards=rep.get("cards"), turn_cap=rep.get("turn_cap", 200))
        first = event_entries(g, g.events(), self.names, g.turn)
        self.snaps, self.step_events = [g.clone()], [first]
        for i, a in enumerate(self.actions):
            g.step(a)
            self.step_events.append(mark_auto_end(event_entries(g, g.events(), self.names, g.turn), g.decode(a)[0]))
            if (i + 1) % SNAP_EVERY == 0:
                self.snaps.append(g.clone())
        self.lock = threading.Lock()
        self.touched = time.monotonic()

    @property
    def inspection(self):
        return bool(self.policies)

    def close(self):
        pass

    def game_at(self, step):
        """The position after `step` steps (a new Game: replayed from the
        nearest snapshot)."""
        k = step // SNAP_EVERY
        g = self.snaps[k].clone()
        for a in self.actions[k * SNAP_EVERY:step]:
            g.step(a)
        return g

    def payload(self, step, view):
        n = self.n
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= n:
            raise RequestError(400, f"step must be an integer in [0, {n}]")
        prev = self.game_at(step - 1) if step > 0 else None
        if prev is not None:
            g = prev.clone()
            g.step(self.actions[step - 1])
        else:
            g = self.game_at(0)
        seat = None if view == "full" else view
        out = state_payload(g, seat, self.names)
        k = 2 if seat is None else seat
        out.update(replay=self.id, step=step, steps=n, view_mode=view, message=self.message,
                   players=self.players, result=self.result,
                   events=[{"type": e["type"], "player": e["player"], "turn": e["turn"], "text": e["texts"][k],
                            "step": i, "new": i == step}
                           for i in range(step + 1) for e in self.step_events[i]])
        if step > 0:   # the step that led here
            a = self.actions[step - 1]
            who = self.movers[step - 1]
            who = prev.current_player if who is None else who
            seen = seat is None or seat == who
            out["last"] = {"player": who, "action": a if seen else None,
                           "text": _action_text(prev, a, seat, _words(self.names))}
        if step < n and seat is None and step in self.policies:   # inspection: full view only
            value, probs = self.policies[step]
            out["policy"] = {"value": value, "player": self.movers[step], "chosen": self.actions[step],
                             "probs": [[a, p, _action_text(g, a, None, _words(self.names))] for a, p in probs]}
        return out


def _action_text(game, a, seat, words=None):
    """An action in words as `seat` (None: the full view) may read it: the
    actor reads its own view's words; the other seat only what is public."""
    words = words or Words()
    try:
        d = game.describe(a)
    except (ValueError, TypeError):
        return "an unknown action"
    actor = game.current_player
    if seat is None or seat == actor:
        view = full_view(game) if seat is None else seat_view(game, seat)
        for e in legal_entries(game, view, words):
            if e["id"] == a:
                return e["label"]
        return words.action(d, seat)
    return public_action(game, a, words)


class Store:
    """Sessions by id, at most `max_games` live games and `max_replays`
    replays holding at most `max_stored_steps` steps together; a reaper frees
    any idle longer than `idle_s`."""

    def __init__(self, max_games=64, max_replays=32, idle_s=1800.0, max_stored_steps=MAX_STORED_STEPS):
        self.max_games, self.max_replays, self.idle_s = max_games, max_replays, idle_s
        self.max_stored_steps = max_stored_steps
        self.games, self.replays = {}, {}
        self.lock = threading.Lock()
        self._stop = threading.Event()

    def add(self, kind, sess):
        table, cap = (self.games, self.max_games) if kind == "game" else (self.replays, self.max_replays)
        with self.lock:
            self._reap_locked()
            if len(table) >= cap:
                raise RequestError(503, f"too many open {kind}s ({cap}); finish or close one (idle ones are freed "
                                        f"after {int(self.idle_s)} s)")
            if kind == "replay" and sum(r.n for r in table.values()) + sess.n > self.max_stored_steps:
                raise RequestError(503, f"the open replays hold too many steps (at most {self.max_stored_steps} "
                                        f"together); idle ones are freed after {int(self.idle_s)} s")
            table[sess.id] = sess
        return sess

    def get(self, kind, sid):
        table = self.games if kind == "game" else self.replays
        with self.lock:
            s = table.get(sid) if isinstance(sid, str) else None
            if s is None:
                raise RequestError(404, f"no such {kind} (unknown id, or freed after {int(self.idle_s)} s idle)")
            s.touched = time.monotonic()
            return s

    def _reap_locked(self):
        now = time.monotonic()
        for table in (self.games, self.replays):
            for sid in [k for k, s in table.items() if now - s.touched > self.idle_s]:
                table.pop(sid).close()     # a bot thinking in a freed game stops

    def reap(self):
        with self.lock:
            self._reap_locked()

    def start_reaper(self, every=None):
        every = every or max(1.0, min(60.0, self.idle_s / 4))

        def loop():
            while not self._stop.wait(every):
                self.reap()
        t = threading.Thread(target=loop, name="azuki-play-reaper", daemon=True)
        t.start()
        return t

    def stop(self):
        """Stop the reaper and every bot still thinking (the server stops)."""
        self._stop.set()
        with self.lock:
            for table in (self.games, self.replays):
                for sess in table.values():
                    sess.close()


def newest_run(root="runs"):
    """The newest numpy export of a training run (runs/*/play.json, written by
    `azuki train`), or, if torch is installed, its latest torch checkpoint."""
    found = []
    if os.path.isdir(root):
        for d in os.listdir(root):
            # play.json names play.npz; a torch checkpoint's latest.json names its
            # generation files (docs/training.md), so the JSON alone marks it.
            for base, data in ((os.path.join(root, d, "play"), ".npz"),
                               (os.path.join(root, d, "checkpoint", "latest"), None)):
                if os.path.exists(base + ".json") and (data is None or os.path.exists(base + data)):
                    found.append((os.path.getmtime(base + ".json"), base))
                    break
    return max(found)[1] if found else None

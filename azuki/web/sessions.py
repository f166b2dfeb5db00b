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

A `ReplaySession` is a verified replay file (every state hash checked on
load) with the position after each step, for the viewer.
"""
from __future__ import annotations

import os
import secrets
import threading
import time

from ..view import full_view, seat_view
from .words import event_entries, legal_entries


class RequestError(Exception):
    """A bad or stale request: an HTTP status and a one-line message; nothing changed."""

    def __init__(self, status, message, **extra):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def state_payload(game, seat):
    """What a seat (0/1) or the full view (None) may see of a position."""
    view = full_view(game) if seat is None else seat_view(game, seat)
    decider = game.current_player
    return {"view": view, "legal": legal_entries(game, view), "decider": decider,
            "over": bool(game.is_terminal), "result": game.result}


class Player:
    """A non-human seat: a built-in bot or a numpy checkpoint player."""

    def __init__(self, spec, label, act, inspect=None):
        self.spec, self.label, self._act, self._inspect = spec, label, act, inspect

    def act(self, game):
        a = self._act(game)
        return a, (self._inspect() if self._inspect else None)


class GameSession:
    def __init__(self, decks, players, cards=None, seed=None, turn_cap=200, names=None):
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
        self._drain()
        self._run_bots()

    # --- internals (under self.lock) ---
    def _drain(self):
        evs = self.game.events()
        if evs:
            for e in event_entries(self.game, evs, self.names, self.game.turn):
                e["n"] = len(self.events)
                self.events.append(e)

    def _step(self, a, info=None):
        self.rec.step(a)
        if info is not None:
            self.rec.steps[-1]["policy"] = info
        self._drain()

    def _run_bots(self, limit=100000):
        n = 0
        while not self.game.is_terminal and self.players[self.game.current_player] is not None and n < limit:
            a, info = self.players[self.game.current_player].act(self.game)
            self._step(a, info)
            n += 1

    @property
    def token(self):
        return str(len(self.rec.steps))

    def check_key(self, seat, key):
        if seat not in self.keys:
            raise RequestError(403, f"seat {seat} of this game is not a human's: its view is not served")
        if not isinstance(key, str) or not secrets.compare_digest(key, self.keys[seat]):
            raise RequestError(403, "wrong or missing seat key for this game")

    def payload(self, seat, since=0):
        out = state_payload(self.game, seat)
        out.update(game=self.id, seat=seat, token=self.token, humans=sorted(self.keys),
                   players=[("human" if p is None else p.label) for p in self.players],
                   events=[{"n": e["n"], "type": e["type"], "player": e["player"], "turn": e["turn"],
                            "text": e["texts"][seat]} for e in self.events[since:]],
                   next_event=len(self.events))
        return out

    def act(self, seat, token, action):
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
        self._run_bots()

    def replay(self):
        d = self.rec.to_dict()
        d["players"] = [("human" if p is None else p.spec) for p in self.players]
        return d


class ReplaySession:
    """A replay, verified on load, with the position after every step."""

    def __init__(self, rep, cards=None, names=None):
        from .._core import Game
        from ..replay import load_replay, verify_replay
        rep = load_replay(rep)
        ok, msg = verify_replay(rep)
        if not ok:
            raise RequestError(400, f"replay check failed: {msg}")
        self.id = secrets.token_urlsafe(18)
        self.rep, self.message = rep, msg
        self.names = names or {}
        g = Game(seed=rep["seed"], decks=tuple(rep["decks"]), cards=rep.get("cards"), turn_cap=rep.get("turn_cap", 200))
        first = event_entries(g, g.events(), self.names, g.turn)
        self.games, self.step_events = [g.clone()], [first]
        for s in rep["steps"]:
            g.step(s["action"])
            self.step_events.append(event_entries(g, g.events(), self.names, g.turn))
            self.games.append(g.clone())
        self.lock = threading.Lock()
        self.touched = time.monotonic()

    def payload(self, step, view):
        n = len(self.rep["steps"])
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= n:
            raise RequestError(400, f"step must be an integer in [0, {n}]")
        g = self.games[step]
        seat = None if view == "full" else view
        out = state_payload(g, seat)
        k = 2 if seat is None else seat
        out.update(replay=self.id, step=step, steps=n, view_mode=view, message=self.message,
                   players=self.rep.get("players"), result=self.rep.get("result"),
                   events=[{"type": e["type"], "player": e["player"], "turn": e["turn"], "text": e["texts"][k],
                            "step": i, "new": i == step}
                           for i in range(step + 1) for e in self.step_events[i]])
        if step > 0:   # the step that led here
            s = self.rep["steps"][step - 1]
            prev = self.games[step - 1]
            who = s.get("player", prev.current_player)
            seen = seat is None or seat == who
            out["last"] = {"player": who, "action": s["action"] if seen else None,
                           "text": _action_text(prev, s["action"], seat)}
        if step < n and seat is None:   # inspection: the agent's view of the next decision, full view only
            info = self.rep["steps"][step].get("policy")
            if isinstance(info, dict):
                out["policy"] = {"value": info.get("value"), "player": self.rep["steps"][step].get("player"),
                                 "chosen": self.rep["steps"][step]["action"],
                                 "probs": [[a, p, _action_text(g, a, None)] for a, p in info.get("probs", [])
                                           if isinstance(a, int)]}
        return out


def _action_text(game, a, seat):
    """An action's text as `seat` (None: the full view) may read it: the actor
    reads its own view's text; the other seat only what is public."""
    try:
        t = game.decode(a)[0]
    except (ValueError, TypeError):
        return str(a)
    actor = game.current_player
    if seat is None:
        return game.action_str(a)
    if seat == actor:
        return dict(map(tuple, seat_view(game, seat)["legal"])).get(a, t)
    return _public_text(game, a, t)


def _public_text(game, a, t):
    """The text of an action as the other seat sees it: the card is public once
    played (PLAYED events name it), a prompt choice is named by its type only."""
    if t in ("ATTACK", "DECLARE_DEFENDER", "PORTAL_GATE", "ACTIVATE_ABILITY", "END_TURN", "NO_OP",
             "MULLIGAN_KEEP", "MULLIGAN_SHUFFLE"):
        return game.action_str(a)
    return t


class Store:
    """Sessions by id, at most `max_games` live games and `max_replays`
    replays; a reaper frees any idle longer than `idle_s`."""

    def __init__(self, max_games=64, max_replays=32, idle_s=1800.0):
        self.max_games, self.max_replays, self.idle_s = max_games, max_replays, idle_s
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
                del table[sid]

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
        self._stop.set()


def newest_run(root="runs"):
    """The newest numpy export of a training run (runs/*/play.json, written by
    `azuki train`), or, if torch is installed, its latest torch checkpoint."""
    found = []
    if os.path.isdir(root):
        for d in os.listdir(root):
            for base in (os.path.join(root, d, "play"), os.path.join(root, d, "checkpoint", "latest")):
                if os.path.exists(base + ".json") and (os.path.exists(base + ".npz") or os.path.exists(base + ".pt")):
                    found.append((os.path.getmtime(base + ".json"), base))
                    break
    return max(found)[1] if found else None

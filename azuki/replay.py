"""Replay files: record a game, re-run it, verify every state hash.

Format (JSON, docs/replays.md)::

    {"format": "azuki-replay/1",
     "cardset": "<azk_cardset_hash, 16 hex>", "cards": null | "path/to/cards.json",
     "decks": ["STT01", "STT02"], "seed": 7, "turn_cap": 200,
     "initial_hash": "<16 hex>",
     "steps": [{"player": 0, "action": 1041, "hash": "<16 hex after the step>"}, ...],
     "result": "WIN_P0"}

`verify_replay` rebuilds the game from (cards, decks, seed), applies every
action and compares hashes; the first divergence (or illegal action) is
reported with its step number.
"""
from __future__ import annotations

import json
import operator
import os

from ._util import excerpt

FORMAT = "azuki-replay/1"
REQUIRED_KEYS = ("format", "cardset", "decks", "seed", "initial_hash", "steps")
MAX_STEPS = 1_000_000


class Recorder:
    """Wraps a fresh Game and records every step: `rec = Recorder(seed=3)`,
    `rec.step(a)`, `rec.to_dict()`."""

    def __init__(self, seed=0, decks=("STT01", "STT02"), cards=None, turn_cap=200):
        from ._core import CardSet, Game

        self.game = Game(seed=seed, decks=decks, cards=cards, turn_cap=turn_cap)
        if cards is None or self.game.cards is CardSet.default():
            src = None
        elif isinstance(cards, CardSet):
            src = cards.source if isinstance(cards.source, str) and os.path.isfile(cards.source) else None
            if src is None:
                raise ValueError("a replay names its card set by path: pass cards=path (or a CardSet built "
                                 "from a JSON file) so verify_replay can load it")
        else:
            src = os.fspath(cards)
        self.meta = {"format": FORMAT, "cardset": f"{self.game.cards.hash:016x}",
                     "cards": src, "decks": list(self.game.decks),
                     "seed": int(seed), "turn_cap": self.game.turn_cap,
                     "initial_hash": f"{self.game.state_hash():016x}"}
        self.steps = []

    def step(self, a):
        p = self.game.current_player
        self.game.step(a)   # validates a (TypeError / IllegalActionError); nothing recorded on failure
        self.steps.append({"player": p, "action": operator.index(a), "hash": f"{self.game.state_hash():016x}"})

    def to_dict(self):
        return dict(self.meta, steps=list(self.steps), result=self.game.result)


def record_random_game(seed, decks=("STT01", "STT02"), cards=None, turn_cap=200, player_seed=None):
    """A uniform-random legal game as a replay dict (players draw from pcg32)."""
    from ._core import rng_bounded

    rec = Recorder(seed, decks, cards, turn_cap)
    ps = seed if player_seed is None else player_seed
    i = 0
    while not rec.game.is_terminal:
        legal = rec.game.legal_actions()
        k = int(rng_bounded(ps, 0x9e3779b9 + i, [len(legal)])[0])
        rec.step(int(legal[k]))
        i += 1
    return rec.to_dict()


def load_replay(path_or_dict):
    """A replay dict from a path (str / os.PathLike) or a dict, checked for
    shape: ValueError naming the first missing or malformed key."""
    rep = path_or_dict
    if not isinstance(rep, dict):
        if isinstance(rep, (bytes, bytearray)) or not isinstance(rep, (str, os.PathLike)):
            raise TypeError(f"a replay is a dict or a path (str / os.PathLike), got {type(rep).__name__}")
        try:
            with open(rep, encoding="utf-8") as f:
                rep = json.load(f)
        except OSError as e:
            raise OSError(e.errno, f"cannot read replay {excerpt(os.fspath(path_or_dict))}: {e.strerror}") from None
        except ValueError as e:   # JSON or UTF-8 errors
            raise ValueError(f"{excerpt(os.fspath(path_or_dict))}: not a JSON replay: {excerpt(str(e), 200)}") from None
        if not isinstance(rep, dict):
            raise ValueError(f"{excerpt(os.fspath(path_or_dict))}: a replay file holds a JSON object")
    if rep.get("format") != FORMAT:
        return rep   # verify_replay reports it
    for k in REQUIRED_KEYS:
        if k not in rep:
            raise ValueError(f"replay: missing key {k!r}")
    for k in ("cardset", "initial_hash"):
        if not isinstance(rep[k], str):
            raise ValueError(f"replay.{k}: expected a hex string, got {excerpt(rep[k])}")
    if not isinstance(rep["decks"], list) or len(rep["decks"]) != 2:
        raise ValueError(f"replay.decks: expected two deck names, got {excerpt(rep['decks'])}")
    if not isinstance(rep["steps"], list):
        raise ValueError(f"replay.steps: expected a list, got {type(rep['steps']).__name__}")
    if len(rep["steps"]) > MAX_STEPS:
        raise ValueError(f"replay.steps: more than {MAX_STEPS} steps")
    for i, s in enumerate(rep["steps"]):
        if not isinstance(s, dict):
            raise ValueError(f"replay.steps[{i}]: expected an object, got {excerpt(s)}")
        for k in ("action", "hash"):
            if k not in s:
                raise ValueError(f"replay.steps[{i}]: missing key {k!r}")
    return rep


def verify_replay(path_or_dict):
    """(ok, message). Re-runs the replay and checks every hash. A malformed
    replay (missing keys, wrong types) raises ValueError / TypeError naming
    the key; bad values inside a well-formed replay (deck, seed, card set)
    raise the errors azuki.Game raises for them."""
    from ._core import Game

    rep = load_replay(path_or_dict)
    if rep.get("format") != FORMAT:
        return False, f"not a replay file (format {excerpt(rep.get('format'))}, expected {FORMAT!r})"
    g = Game(seed=rep["seed"], decks=tuple(rep["decks"]), cards=rep.get("cards"), turn_cap=rep.get("turn_cap", 200))
    if f"{g.cards.hash:016x}" != rep["cardset"]:
        return False, f"card set differs: replay {excerpt(rep['cardset'])}, this engine {g.cards.hash:016x}"
    if f"{g.state_hash():016x}" != rep["initial_hash"]:
        return False, f"diverged at setup: hash {g.state_hash():016x}, replay {excerpt(rep['initial_hash'])}"
    for i, s in enumerate(rep["steps"]):
        if "player" in s and g.current_player != s["player"]:
            return False, f"diverged at step {i}: player {g.current_player} to act, replay says {excerpt(s['player'])}"
        try:
            g.step(s["action"])
        except (TypeError, ValueError) as e:
            return False, f"diverged at step {i}: {e}"
        h = f"{g.state_hash():016x}"
        if h != s["hash"]:
            return False, f"diverged at step {i}: hash {h}, replay {excerpt(s['hash'])}"
    if "result" in rep and g.result != rep["result"]:
        return False, f"result {g.result}, replay says {excerpt(rep['result'])}"
    return True, f"ok: {len(rep['steps'])} steps verified, result {g.result}"

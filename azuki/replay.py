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

FORMAT = "azuki-replay/1"


class Recorder:
    """Wraps a fresh Game and records every step: `rec = Recorder(seed=3)`,
    `rec.step(a)`, `rec.to_dict()`."""

    def __init__(self, seed=0, decks=("STT01", "STT02"), cards=None, turn_cap=200):
        from ._core import Game

        self.game = Game(seed=seed, decks=decks, cards=cards, turn_cap=turn_cap)
        self.meta = {"format": FORMAT, "cardset": f"{self.game.cards.hash:016x}",
                     "cards": None if cards is None else str(cards), "decks": list(self.game.decks),
                     "seed": int(seed), "turn_cap": int(turn_cap),
                     "initial_hash": f"{self.game.state_hash():016x}"}
        self.steps = []

    def step(self, a):
        p = self.game.current_player
        self.game.step(a)
        self.steps.append({"player": p, "action": int(a), "hash": f"{self.game.state_hash():016x}"})

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


def verify_replay(path_or_dict):
    """(ok, message). Re-runs the replay and checks every hash."""
    from ._core import Game

    rep = path_or_dict
    if not isinstance(rep, dict):
        with open(rep) as f:
            rep = json.load(f)
    if rep.get("format") != FORMAT:
        return False, f"not a replay file (format {rep.get('format')!r}, expected {FORMAT!r})"
    g = Game(seed=rep["seed"], decks=tuple(rep["decks"]), cards=rep.get("cards"), turn_cap=rep.get("turn_cap", 200))
    if f"{g.cards.hash:016x}" != rep["cardset"]:
        return False, f"card set differs: replay {rep['cardset']}, this engine {g.cards.hash:016x}"
    if f"{g.state_hash():016x}" != rep["initial_hash"]:
        return False, f"diverged at setup: hash {g.state_hash():016x}, replay {rep['initial_hash']}"
    for i, s in enumerate(rep["steps"]):
        if g.current_player != s.get("player", g.current_player):
            return False, f"diverged at step {i}: player {g.current_player} to act, replay says {s['player']}"
        try:
            g.step(s["action"])
        except ValueError as e:
            return False, f"diverged at step {i}: {e}"
        h = f"{g.state_hash():016x}"
        if h != s["hash"]:
            return False, f"diverged at step {i}: hash {h}, replay {s['hash']}"
    if "result" in rep and g.result != rep["result"]:
        return False, f"result {g.result}, replay says {rep['result']}"
    return True, f"ok: {len(rep['steps'])} steps verified, result {g.result}"

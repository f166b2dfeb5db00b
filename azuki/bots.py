"""azuki.bots — the built-in players (docs/bots.md), written in C (csrc/bot.c).

    bot = GreedyBot(seed=1)
    while not game.is_terminal:
        game.step(bot.act(game))

A bot chooses one legal flat action for whoever is to act in a Game; it
never modifies the game (its lookahead runs on clones) and draws from its
own pcg32 stream, so its choices are a pure function of the game and its
seed and of the decisions it has already made. `act` raises TypeError for
something that is not an azuki.Game and ValueError for a finished game.
"""
from __future__ import annotations

import numpy as np

from . import _core

BOT_KINDS = _core.BOT_KINDS            # ("random", "greedy", "search")
BOT_VERSIONS = _core.BOT_VERSIONS      # {"random": 1, "greedy": AZK_BOT_GREEDY_VERSION, "search": ...}
GREEDY_VERSION = _core.GREEDY_VERSION
SEARCH_VERSION = _core.SEARCH_VERSION
SEARCH_SIMS = _core.SEARCH_SIMS        # the search bot's default simulations per decision
SearchControl = _core.SearchControl    # stops a search from another thread (SearchBot.act(game, control))


class _Seeded:
    """The rng every bot (built-in or policy) draws from, restartable."""

    def reset(self, seed=None):
        """Start the bot's rng again from `seed` (default: its current seed)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
            self.seed = seed
        self._rng = _core.bot_rng(self.seed)


class Bot(_Seeded):
    """A built-in bot of kind `name` (one of BOT_KINDS) with its own rng."""

    name = None

    def __init__(self, seed=0):
        if self.name is None:
            raise TypeError("use RandomBot, GreedyBot, SearchBot or make_bot(name, seed)")
        self._kind = _core.bot_kind(self.name)
        self.reset(seed)

    @property
    def version(self):
        """Behaviour version of this kind (bumped whenever its choices change)."""
        return BOT_VERSIONS[self.name]

    def act(self, game) -> int:
        """The bot's action (a flat action id, always legal) for the player to
        act in `game`. The game is left unchanged."""
        if not isinstance(game, _core.Game):
            raise TypeError(f"act needs an azuki.Game, got {type(game).__name__}")
        return _core.bot_act(game, self._kind, self._rng)

    __call__ = act

    def __repr__(self):
        return f"{type(self).__name__}(seed={self.seed})"


class RandomBot(Bot):
    """Uniform over the legal actions."""
    name = "random"


class GreedyBot(Bot):
    """Rules-aware one-ply lookahead with a hand-written evaluation (docs/bots.md)."""
    name = "greedy"


class SearchBot(Bot):
    """Information-set Monte Carlo tree search (docs/bots.md): `sims`
    simulations per decision, each on a position resampled from what the bot
    may know, played on by the greedy policy; never sees hidden information."""
    name = "search"

    def __init__(self, seed=0, sims=None):
        if sims is None:
            sims = SEARCH_SIMS
        if isinstance(sims, bool) or not isinstance(sims, int):
            raise TypeError(f"sims must be an integer, got {type(sims).__name__}")
        if not 1 <= sims <= _core.SEARCH_MAX_SIMS:
            raise ValueError(f"sims must be in [1, {_core.SEARCH_MAX_SIMS}], got {sims}")
        self.sims = sims
        super().__init__(seed)

    def act(self, game, control=None) -> int:
        """As Bot.act; `control` (a SearchControl) lets another thread stop
        this decision's search early (a server's time budget, a client that
        left): the bot then plays the best action of the simulations run."""
        if not isinstance(game, _core.Game):
            raise TypeError(f"act needs an azuki.Game, got {type(game).__name__}")
        return _core.bot_act(game, self._kind, self._rng, sims=self.sims, control=control)

    __call__ = act

    def label(self, game, visits=None):
        """act's decision with the search's labels (training from search, azuki.expert): (action,
        value, visits): the action act would take (the bot's stream advanced the same), the root's
        mean result for the player to act in [0, 1] (-1.0: no simulation ran) and the visit shares
        (float32 [NUM_ACTIONS], summing to 1; `visits` is filled when given)."""
        if not isinstance(game, _core.Game):
            raise TypeError(f"label needs an azuki.Game, got {type(game).__name__}")
        if visits is None:
            visits = np.zeros(_core.NUM_ACTIONS, dtype=np.float32)
        a, v = _core.search_label(game, self._rng, visits, sims=self.sims)
        return a, v, visits

    def __repr__(self):
        return f"SearchBot(seed={self.seed}, sims={self.sims})"


BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}

PBOT_KINDS = _core.PBOT_KINDS          # ("policy", "psearch"): bots that play a loaded C policy
PBOT_VERSIONS = _core.PBOT_VERSIONS


def parse_pbot_spec(spec):
    """Split a policy-bot spec into (kind, path, settings), or None when `spec`
    names no policy bot. Spec: ``KIND:PATH[:k=v,k=v]`` with KIND ``policy``
    or ``psearch``, PATH an ``.azkw`` weight file or a checkpoint that
    azuki.policy_np loads (``NAME.json`` / ``.npz`` / ``.pt``; ``reference``
    is the shipped one), settings as _core.pbot_defaults(KIND) lists them
    (policy: temp; psearch: sims, cpuct, prior_temp, value, threads, halving). ValueError for a
    malformed spec or setting."""
    if not isinstance(spec, str):
        return None
    kind, sep, rest = spec.partition(":")
    if kind not in PBOT_KINDS:
        return None
    if not sep or not rest:
        raise ValueError(f"player {spec!r}: {kind} needs a weight file: {kind}:PATH[:k=v,...]")
    path, settings = rest, {}
    head, sep2, tail = rest.rpartition(":")
    if sep2 and "=" in tail and head:
        path = head
        allowed = _core.pbot_defaults(kind)
        for kv in tail.split(","):
            k, eq, v = kv.partition("=")
            if not eq or k not in allowed:
                raise ValueError(f"player {spec!r}: unknown setting {kv!r} ({kind} takes {', '.join(allowed)})")
            try:
                settings[k] = int(v, 10) if k in ("sims", "threads", "halving") else float(v)
            except ValueError:
                raise ValueError(f"player {spec!r}: {k} must be a number, got {v!r}") from None
    if path == "reference":
        from .policy_np import REFERENCE
        path = REFERENCE + ".azkw"
    _core.pbot_defaults(kind, settings)   # checked: ValueError for a bad setting
    return kind, path, settings


class PolicyBot(_Seeded):
    """A policy bot (csrc/bot.c azk_pbot_act): kind "policy" plays the C
    policy alone (its most likely legal action, or sampled with temp > 0),
    "psearch" runs PUCT information-set search with its priors and value
    (settings: _core.pbot_defaults). `policy`: a CPolicy, or a path loaded
    with azuki.policy_np.cpolicy_for (compatibility checked, CheckpointError
    otherwise). Draws from its own pcg32 stream like the built-in bots."""

    def __init__(self, kind, policy, seed=0, cards=None, **settings):
        if kind not in PBOT_KINDS:
            raise ValueError(f"unknown policy bot {kind!r}: expected one of {', '.join(PBOT_KINDS)}")
        if not isinstance(policy, _core.CPolicy):
            from .policy_np import cpolicy_for
            policy = cpolicy_for(policy, cards)
        _core.pbot_defaults(kind, settings)   # checked: ValueError for a bad setting
        self.kind, self.policy, self.settings = kind, policy, dict(settings)
        self.name = kind
        self.reset(seed)

    @property
    def version(self):
        return PBOT_VERSIONS[self.kind]

    def act(self, game, control=None) -> int:
        if not isinstance(game, _core.Game):
            raise TypeError(f"act needs an azuki.Game, got {type(game).__name__}")
        return _core.pbot_act(game, self.policy, self.kind, self._rng, self.settings, control)

    __call__ = act

    def label(self, game, visits=None):
        """psearch only: act's decision with the search's labels, as SearchBot.label."""
        if self.kind != "psearch":
            raise ValueError(f"only psearch reports search labels, not {self.kind}")
        if not isinstance(game, _core.Game):
            raise TypeError(f"label needs an azuki.Game, got {type(game).__name__}")
        if visits is None:
            visits = np.zeros(_core.NUM_ACTIONS, dtype=np.float32)
        a, v = _core.pbot_label(game, self.policy, self._rng, visits, self.settings)
        return a, v, visits

    def __repr__(self):
        return f"PolicyBot({self.kind!r}, seed={self.seed}, {self.settings})"


def make_pbot(spec, seed=0, cards=None) -> PolicyBot:
    """A PolicyBot from a spec string (parse_pbot_spec)."""
    parsed = parse_pbot_spec(spec)
    if parsed is None:
        raise ValueError(f"not a policy bot spec: {spec!r} (policy:PATH or psearch:PATH[:k=v,...])")
    kind, path, settings = parsed
    return PolicyBot(kind, path, seed=seed, cards=cards, **settings)


def make_bot(name, seed=0, **kw) -> Bot:
    """A bot by name (BOT_KINDS); keyword settings (SearchBot: sims) pass on."""
    _core.bot_kind(name)     # the one error message for unknown names
    return BOTS[name](seed, **kw)

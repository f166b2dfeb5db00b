"""azuki.eval_players — what a player of `azuki eval` is (docs/eval.md, "Players").

A spec is a built-in bot name (``random``, ``greedy``, ``search``,
``search:sims=N``), a policy bot (``policy:PATH[:temp=T]``,
``psearch:PATH[:sims=N,cpuct=C,prior_temp=T,value=V,threads=K,halving=M]``: azuki.bots, played in
C), a policy checkpoint path (``*.pt``; ``PATH:greedy`` takes the argmax
action), or any object with ``act(obs, masks) -> int32[k]``.

Two families come out of make_player: BotPlayer (a C bot that acts on a
Game, played by the arena or answering on game copies) and BatchedPlayer
(acts on a batch of observations, the agent of a VecGame).
"""
from __future__ import annotations

import os

from . import _core


def load_cardset(cards):
    """The card set to play: None = the embedded default; a CardSet; or a JSON path."""
    if cards is None:
        return _core.CardSet.default()
    return cards if isinstance(cards, _core.CardSet) else _core.CardSet.from_json(os.fspath(cards))


class BotPlayer:
    """A built-in C bot (kind name, optional search budget)."""

    def __init__(self, kind, sims=None):
        _core.bot_kind(kind)
        self.kind = kind
        self.sims = sims
        self.name = kind if sims is None else f"{kind}:sims={sims}"

    @property
    def default_settings(self):
        return self.sims is None or self.sims == _core.SEARCH_SIMS

    def act_game(self, game, rng):
        return _core.bot_act(game, _core.bot_kind(self.kind), rng, sims=self.sims)

    def __repr__(self):
        return f"BotPlayer({self.name!r})"


class PBotPlayer(BotPlayer):
    """A policy bot (azuki.bots.PolicyBot's C player: ``policy:PATH`` or
    ``psearch:PATH[:k=v,...]``): plays in C like the built-in bots (the
    arena's play_games, or on game copies opposite a batched player)."""

    def __init__(self, spec, cards=None):
        from .bots import parse_pbot_spec
        from .policy_np import cpolicy_for
        kind, path, settings = parse_pbot_spec(spec)
        self.kind, self.path, self.settings = kind, path, settings
        self.sims = settings.get("sims")
        self.name = spec
        self.policy = cpolicy_for(path, load_cardset(cards))

    @classmethod
    def of(cls, cpolicy, name, kind="policy", settings=None):
        """The policy bot of a CPolicy already in memory (a training run's learner, exported by
        azuki.policy.state_azkw), named `name`; settings as the spec's (e.g. {"temp": 1.0})."""
        self = cls.__new__(cls)
        self.kind, self.path, self.settings = kind, None, dict(settings or {})
        self.sims = self.settings.get("sims")
        self.name, self.policy = name, cpolicy
        return self

    @property
    def default_settings(self):
        return False          # never VecGame's built-in bot: answered from Python on the game copies

    def act_game(self, game, rng):
        return _core.pbot_act(game, self.policy, self.kind, rng, self.settings)

    def __repr__(self):
        return f"PBotPlayer({self.name!r})"


class BatchedPlayer:
    """A batched player (anything with act(obs, masks)) with a display name."""

    def __init__(self, obj, name):
        self.obj = obj
        self.name = name

    def act(self, obs, masks):
        return self.obj.act(obs, masks)


def parse_bot(spec, cards=None):
    """BotPlayer for 'random', 'greedy', 'search', 'search:sims=N', and the
    policy bots 'policy:PATH[:temp=T]', 'psearch:PATH[:sims=N,cpuct=C,
    prior_temp=T,value=V,threads=K,halving=M]' (azuki.bots.parse_pbot_spec; PATH 'reference' is
    the shipped policy; the weights loaded and checked against `cards`); None
    if `spec` names no bot; ValueError for a bot name with bad settings."""
    base, _, opts = spec.partition(":")
    if base in _core.PBOT_KINDS:
        return PBotPlayer(spec, cards)
    if base not in _core.BOT_KINDS:
        return None
    sims = None
    if opts:
        for kv in opts.split(","):
            k, eq, v = kv.partition("=")
            if k != "sims" or not eq or base != "search":
                raise ValueError(f"player {spec!r}: unknown setting {kv!r} (only search:sims=N)")
            try:
                sims = int(v, 10)
            except ValueError:
                raise ValueError(f"player {spec!r}: sims must be an integer, got {v!r}") from None
            if not 1 <= sims <= _core.SEARCH_MAX_SIMS:
                raise ValueError(f"player {spec!r}: sims must be in [1, {_core.SEARCH_MAX_SIMS}], got {sims}")
    return BotPlayer(base, sims)


def split_checkpoint(spec):
    """(path, greedy) of a checkpoint spec ``PATH[:greedy|:sample]``."""
    for suffix, greedy in ((":greedy", True), (":sample", False)):
        if spec.endswith(suffix):
            return spec[: -len(suffix)], greedy
    return spec, False


def check_player(spec, cards=None):
    """Raise ValueError (one line) for a spec that cannot be a player, without
    loading anything heavy; returns the display name. A checkpoint must be
    complete and fit this build and the card set in use (`cards`;
    azuki.policy_np.check_compat, the one compatibility check: a
    CheckpointError naming what differs)."""
    if not isinstance(spec, str):
        if isinstance(spec, BotPlayer) or hasattr(spec, "act"):
            return getattr(spec, "name", type(spec).__name__)
        raise TypeError(f"a player is a bot name, a checkpoint path or an object with act(obs, masks), "
                        f"got {type(spec).__name__}")
    bot = parse_bot(spec, cards)
    if bot is not None:
        return bot.name
    path, greedy = split_checkpoint(spec)
    from .policy_np import check_compat, checkpoint_exists, resolve_checkpoint
    if path.endswith((".pt", ".json")) or os.path.exists(path) or checkpoint_exists(path):
        if not checkpoint_exists(path) and not os.path.isfile(path):
            raise ValueError(f"player {spec!r}: no such checkpoint file")
        check_compat(resolve_checkpoint(path)[0], path, load_cardset(cards))
        return spec
    raise ValueError(f"unknown player {spec!r} (a bot: {', '.join(_core.BOT_KINDS)}, search:sims=N; "
                     f"or a checkpoint file *.pt)")


def make_player(spec, seed=0, cards=None):
    """A BotPlayer or a batched player (with .act and .name) for a spec;
    checkpoints are loaded here (azuki.policy, which needs torch), their
    sampling seeded with `seed`, checked against the card set `cards`."""
    name = check_player(spec, cards)
    if not isinstance(spec, str):
        return spec if isinstance(spec, BotPlayer) else BatchedPlayer(spec, name)
    bot = parse_bot(spec, cards)
    if bot is not None:
        return bot
    path, greedy = split_checkpoint(spec)
    try:
        from . import policy as _policy
    except ImportError as e:
        raise ValueError(f"player {spec!r}: loading a checkpoint needs torch and azuki.policy ({e})") from None
    pol, _meta = _policy.load_checkpoint(path, cards=load_cardset(cards))
    return BatchedPlayer(_policy.PolicyPlayer(pol, greedy=greedy, seed=seed & ((1 << 63) - 1)), name)


def annotators(specs, cards=None):
    """[(player index, numpy policy)] for the checkpoint players among `specs`:
    agent inspection in the replays (docs/play.md), each checkpoint player's
    probabilities and value at each of its decisions, computed again by the
    numpy player (azuki.policy_np) on the replayed position."""
    from .policy_np import CheckpointError, load_numpy_policy
    out = []
    for k, spec in enumerate(specs):
        if not isinstance(spec, str) or parse_bot(spec) is not None:
            continue
        try:
            out.append((k, load_numpy_policy(split_checkpoint(spec)[0], cards=cards)))
        except CheckpointError:
            continue               # (the torch player loaded it; no inspection then)
    return out

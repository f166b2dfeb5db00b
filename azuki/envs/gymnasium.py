"""azuki.envs.gymnasium — Azuki as a single-agent Gymnasium env against a built-in bot.

    import gymnasium, azuki.envs.gymnasium          # registers "azuki/Azuki-v0"
    env = gymnasium.make("azuki/Azuki-v0", opponent="greedy")
    obs, info = env.reset(seed=0)
    while True:
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
        if terminated or truncated:
            break

The agent plays one seat; the opponent (a built-in bot of azuki.BOT_KINDS:
"random", "greedy", "search"; or any object with `act(game) -> action`) answers
every decision of the other seat inside `reset()` and `step()`, so each call
returns when the agent must decide or the game is over.

Spaces: observation Box(0, 255, (azuki.OBS_LEN,), uint8) = Game.observe(seat)
(docs/observation.md: bytes, `azuki.obs.decode` names them); the legal-action
mask travels inside it, as the field `MASK` (offset
`azuki.obs_layout()["MASK"]["offset"]`, NUM_ACTIONS packed bits;
`azuki.envs.mask_from_obs` unpacks it).
The same mask is `info["action_mask"]` (int8[NUM_ACTIONS], ready for
`action_space.sample(mask)`) after every reset and step. Action: Discrete(NUM_ACTIONS).

Rewards: +1 win, -1 loss, 0 draw (terminated). A game the engine truncates
(turn cap, decision cap, engine bound: docs/rules.md §13) gives truncated=True
and 0. An illegal action (not in the mask, out of range, not an integer) loses:
terminated=True, reward -1, info["illegal_action"] = True; nothing raises.

Seeding: `reset(seed=s)` calls `super().reset(seed=s)`; the engine seed and the
bot's seed are drawn from `self.np_random`. Episode number `e` (set to `s` by
`reset(seed=s)`, +1 at every later reset, drawn from `np_random` when never
seeded) picks the seats: with `seat="alternate"` (default) the agent plays seat
`e % 2` (each reset swaps it) and the pairing's decks are swapped when
`(e // 2)` is odd, so over four episodes the agent plays each deck from each seat;
pairing `pairings[(e // 4) % len(pairings)]`. With a fixed seat the decks swap
every episode and the pairing changes every two. (`e` counts mod 2**64: the C
schedule's episode, azuki._core.deal_schedule, decides.)

This module imports only azuki, numpy and gymnasium (never pufferlib or torch).
"""
from __future__ import annotations

import operator

import gymnasium
import numpy as np
from gymnasium import spaces

import azuki
import azuki.bots

__all__ = ["AzukiEnv", "AzukiVectorEnv", "ENV_ID", "MASK_OFFSET"]

ENV_ID = "azuki/Azuki-v0"
from azuki.envs import MASK_OFFSET, action_id as _action_id, cards_arg, game_args, pairings_arg as _pairings  # noqa: E402
from azuki.envs import MASK_BYTES  # noqa: E402
_MASK = slice(MASK_OFFSET, MASK_OFFSET + MASK_BYTES)
_EPISODE_MASK = (1 << 64) - 1    # the C schedule counts episodes in a uint64


class AzukiEnv(gymnasium.Env):
    """Azuki, one seat, against a built-in bot (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, opponent="random", seat="alternate", decks=("STT01", "STT02"), render_mode=None,
                 cards=None, turn_cap=None, decision_cap=None, opponent_kwargs=None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if seat not in (0, 1, "alternate") or isinstance(seat, bool):
            raise ValueError(f"seat must be 0, 1 or 'alternate', got {seat!r}")
        if isinstance(opponent, str):
            self.opponent = azuki.bots.make_bot(opponent, 0, **(opponent_kwargs or {}))
        elif callable(getattr(opponent, "act", None)):
            if opponent_kwargs:
                raise TypeError("opponent_kwargs only go with a bot name (azuki.bots.make_bot)")
            self.opponent = opponent
        else:
            raise TypeError(f"opponent must be one of {azuki.BOT_KINDS} or have act(game), got {azuki.excerpt(opponent)}")
        # alike in pettingzoo.AzukiEnv.__init__ (the tool `duplicates` pairs them): what is shared,
        # the deck/card/cap checks, is game_args; the attributes are each API's own
        self.render_mode = render_mode
        self.seat_mode = seat
        self.cards, self.pairings = game_args(decks, cards, turn_cap, decision_cap)
        self.turn_cap = turn_cap
        self.decision_cap = decision_cap
        self.observation_space = spaces.Box(0, 255, (azuki.OBS_LEN,), np.uint8)
        self.action_space = spaces.Discrete(azuki.NUM_ACTIONS)
        self.game = None          # the azuki.Game of the current episode
        self.seat = None          # the agent's seat in it
        self._episode = None      # episode number e (seats, decks, pairing)
        self._over = True

    # ---- episode -------------------------------------------------------------
    def _setup(self, e):
        """(agent seat, decks for seat 0 and 1) of episode number e."""
        # the schedule is defined in C (azk_deal_schedule): "alternate" is the paired schedule (the agent
        # takes both seats of a deal), a fixed seat the unpaired one; episodes counted as its uint64
        # (mod 2**64): nothing here knows the schedule's period
        paired = self.seat_mode == "alternate"
        d = azuki._core.deal_schedule(e & _EPISODE_MASK, npairs=len(self.pairings), paired=paired)
        d0, d1 = self.pairings[d["pairing"]]
        return (d["agent_seat"] if paired else self.seat_mode), ((d1, d0) if d["swapped"] else (d0, d1))

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._episode = operator.index(seed)
        elif self._episode is None:
            self._episode = int(self.np_random.integers(2**62))
        else:
            self._episode += 1
        game_seed, bot_seed = (int(x) for x in self.np_random.integers(2**63, size=2))
        self.seat, decks = self._setup(self._episode)
        self.game = azuki.Game(seed=game_seed, decks=decks, cards=self.cards,
                               turn_cap=self.turn_cap, decision_cap=self.decision_cap)
        if hasattr(self.opponent, "reset"):
            self.opponent.reset(bot_seed)
        self._over = False
        self._opponent_moves()
        info = {"seat": self.seat}
        self._outcome(info)     # (no starter game ends before the agent's first decision; a custom one might)
        return self._observe(), self._info(info)

    def step(self, action):
        if self.game is None or self._over:
            raise RuntimeError("the episode is over: call reset()")
        a = _action_id(action)
        if a is None or not self.game.is_legal(a):
            self._over = True
            info = {"seat": self.seat, "illegal_action": True}
            return self._observe(), -1.0, True, False, self._info(info)
        self.game.step(a)
        self._opponent_moves()
        info = {"seat": self.seat}
        reward, terminated, truncated = self._outcome(info)
        return self._observe(), reward, terminated, truncated, self._info(info)

    def _opponent_moves(self):
        g = self.game
        while not g.is_terminal and g.current_player != self.seat:
            g.step(int(self.opponent.act(g)))

    def _outcome(self, info):
        """(reward, terminated, truncated) now; fills the final info."""
        g = self.game
        if not g.is_terminal:
            return 0.0, False, False
        self._over = True
        info["result"], info["end_reason"] = g.result, g.end_reason
        if g.result == "TRUNCATED":
            return 0.0, False, True
        if g.winner is None:
            return 0.0, True, False
        return (1.0 if g.winner == self.seat else -1.0), True, False

    def _observe(self):
        obs = self.game.observe(self.seat)
        if self._over:
            obs[_MASK] = 0         # after an illegal-action loss the game itself goes on
        return obs

    def _info(self, info):
        mask = np.zeros(azuki.NUM_ACTIONS, dtype=np.int8)
        if not self._over:
            self.game.action_mask(out=mask.view(np.uint8))
        info["action_mask"] = mask
        return info

    def action_mask(self):
        """The agent's legal actions now (int8[NUM_ACTIONS]; all 0 once the episode is over)."""
        return self._info({})["action_mask"]

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        return "" if self.game is None else self.game.render()

    def close(self):
        pass


class AzukiVectorEnv(gymnasium.vector.VectorEnv):
    """`num_envs` games against a built-in bot stepped by one C call
    (azuki.VecGame, mode "bot", docs/vecgame.md); Gymnasium >= 1.0 VectorEnv API.

    Spaces, mask and rewards as AzukiEnv: single observation
    Box(0, 255, (OBS_LEN,), uint8), single action Discrete(NUM_ACTIONS),
    `infos["action_mask"]` int8[num_envs, NUM_ACTIONS]; +1 / -1 / 0 terminated,
    engine truncation truncated with 0. Differences from a SyncVectorEnv of
    AzukiEnv:

    - autoreset is "same step" (`metadata["autoreset_mode"]`): a finished game
      resets inside the step that ended it; the returned observation and mask
      are already the next episode's, and there is no `final_obs` (the engine
      does not keep it);
    - an illegal action loses its game, as in AzukiEnv (reward -1,
      terminated, `infos["illegal_action"]` True for that row; the row then
      shows its next episode: same-step autoreset), while the other rows'
      actions are applied; with `illegal_action="raise"` it raises
      azuki.IllegalActionError naming the row instead, and nothing changes;
    - seats and decks follow VecGame: episode `e` of the vector (numbered as
      episodes start) is `Game(seed=base + e)` on pairing `(e // 2) %
      len(pairings)`, seats swapped when `e` is odd, the agent's seat
      `(e >> 1) & 1`; `reset(seed=s)` uses base `s`, `reset()` draws it from
      `np_random`;
    - the opponent is "random" or "greedy" (the bots VecGame runs in C).
    """

    def __init__(self, num_envs=1, opponent="random", decks=("STT01", "STT02"), cards=None, illegal_action="lose"):
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if int(gymnasium.__version__.split(".")[0]) < 1:
            raise RuntimeError(f"AzukiVectorEnv needs gymnasium >= 1.0 (found {gymnasium.__version__}); "
                               "use gymnasium.vector.SyncVectorEnv of AzukiEnv")
        from gymnasium.vector.utils import batch_space
        self.num_envs = num_envs
        self.opponent = opponent
        self.pairings = _pairings(decks)
        self.cards = cards_arg(cards)
        self.vec = self._make(0)                 # fail now on bad arguments
        self.single_observation_space = spaces.Box(0, 255, (azuki.OBS_LEN,), np.uint8)
        self.single_action_space = spaces.Discrete(azuki.NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        mode = getattr(gymnasium.vector, "AutoresetMode", None)
        self.metadata = {"autoreset_mode": mode.SAME_STEP if mode is not None else "SameStep"}

    def _make(self, base_seed):
        return azuki.VecGame(self.num_envs, seed=base_seed, pairings=self.pairings, mode="bot",
                             bot=self.opponent, cards=self.cards, illegal=self.illegal_action)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        base = seed if seed is not None else int(self.np_random.integers(2**62))
        self.vec = self._make(base)
        return self.vec.obs.copy(), self._infos()

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integers of shape ({self.num_envs},), got {actions.dtype} {actions.shape}")
        a = actions.astype(np.int32)
        inside = (a >= 0) & (a < azuki.NUM_ACTIONS)
        illegal = ~inside
        illegal[inside] = self.vec.masks[np.flatnonzero(inside), a[inside]] == 0
        obs, rewards, terminals, truncations = self.vec.step(a)
        infos = self._infos()
        infos["illegal_action"] = illegal
        return (obs.copy(), rewards.astype(np.float64), terminals.astype(bool), truncations.astype(bool), infos)

    def _infos(self):
        """The masks of the rows (the agent's seat in game i: `self.vec.agent_seat(i)`)."""
        return {"action_mask": self.vec.masks.view(np.int8).copy()}


def _register():
    if ENV_ID not in gymnasium.envs.registration.registry:
        gymnasium.register(id=ENV_ID, entry_point="azuki.envs.gymnasium:AzukiEnv")


_register()

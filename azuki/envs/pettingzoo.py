"""azuki.envs.pettingzoo — Azuki as a two-player PettingZoo AEC environment.

    from azuki.envs.pettingzoo import env
    e = env(decks=("STT01", "STT02"))
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents `player_0` and `player_1` are seats 0 and 1; `agent_selection` is the
seat the engine asks to decide (docs/rules.md §12). Each agent observes a dict:

    "observation": uint8[azuki.OBS_LEN], exactly Game.observe(seat)
                   (docs/observation.md; the legal mask is also its MASK field, packed bits)
    "action_mask": int8[azuki.NUM_ACTIONS], 1 for each legal action of the
                   agent to decide, all 0 for the other agent and once the
                   episode is over

Rewards: +1 win, -1 loss, 0 draw. A game the engine truncates (turn cap,
decision cap, engine bound: docs/rules.md §13) ends with truncations True for
both agents and rewards 0. An illegal action with `illegal_action="lose"` (the
default) ends the episode: the mover is terminated with -1, the other agent
with +1, and the mover's info has `"illegal_action": True`; with
`illegal_action="raise"` it raises azuki.IllegalActionError and changes nothing.

Seeding: `reset(seed=s)` reseeds the env's generator (numpy PCG64) from `s`;
each game's engine seed is drawn from it, so every episode after a seeded
reset is reproducible. Pairings: episode number `e` (set to `s` by
`reset(seed=s)`, +1 at every later reset; drawn from the generator when the env
was never seeded) plays `pairings[(e // 2) % len(pairings)]` with the seats
swapped when `e` is odd, so each deck plays each seat equally often (`e` counted
mod 2**64: the C schedule's episode, azuki._core.deal_schedule, decides).

This module imports only azuki, numpy and pettingzoo (never pufferlib or torch).
"""
from __future__ import annotations

import operator

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import azuki

__all__ = ["AzukiAECEnv", "env", "raw_env", "AGENTS"]

from azuki.envs import action_id, game_args  # noqa: E402

AGENTS = ("player_0", "player_1")
_EPISODE_MASK = (1 << 64) - 1    # the C schedule counts episodes in a uint64
_ILLEGAL_MODES = ("lose", "raise")


def _episode_decks(pairings, episode):
    """(decks for seat 0, seat 1) of episode number `episode`."""
    # the schedule is defined in C (azk_deal_schedule), episodes counted as its uint64 (mod 2**64):
    # nothing here knows its period
    d = azuki._core.deal_schedule(episode & _EPISODE_MASK, npairs=len(pairings))
    d0, d1 = pairings[d["pairing"]]
    return (d1, d0) if d["swapped"] else (d0, d1)


class AzukiAECEnv(AECEnv, EzPickle):
    """Two-player Azuki as a PettingZoo AEC env (see the module docstring)."""

    metadata = {"name": "azuki_v0", "render_modes": ["ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, decks=("STT01", "STT02"), render_mode=None, illegal_action="lose", cards=None,
                 turn_cap=None, decision_cap=None):
        EzPickle.__init__(self, decks=decks, render_mode=render_mode, illegal_action=illegal_action,
                          cards=cards, turn_cap=turn_cap, decision_cap=decision_cap)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if illegal_action not in _ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {_ILLEGAL_MODES}, got {illegal_action!r}")
        # alike in gymnasium.AzukiEnv.__init__ (the tool `duplicates` pairs them): what is shared,
        # the deck/card/cap checks, is game_args; the attributes are each API's own
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.cards, self.pairings = game_args(decks, cards, turn_cap, decision_cap)
        self.turn_cap = turn_cap
        self.decision_cap = decision_cap

        self.possible_agents = list(AGENTS)
        self.agents = []
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, 255, (azuki.OBS_LEN,), np.uint8),
                "action_mask": spaces.Box(0, 1, (azuki.NUM_ACTIONS,), np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(azuki.NUM_ACTIONS) for a in self.possible_agents}
        mask_field = azuki.obs_layout()["MASK"]
        self._mask_slice = slice(mask_field["offset"], mask_field["offset"] + mask_field["cols"])
        self._rng = None          # np.random.Generator, created at the first reset
        self._episode = None      # episode number e (pairing and seat swap)
        self.game = None          # the azuki.Game of the current episode
        self._over = True         # the episode has ended (the game may go on after an illegal-action loss)

    # ---- spaces --------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ---- episode -------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._episode = operator.index(seed)
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            self._episode = int(self._rng.integers(2**62)) if self._episode is None else self._episode + 1
        game_seed = int(self._rng.integers(2**63))
        self.game = azuki.Game(seed=game_seed, decks=_episode_decks(self.pairings, self._episode),
                               cards=self.cards, turn_cap=self.turn_cap, decision_cap=self.decision_cap)
        self._over = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._finish_if_over(self.agent_selection)    # (a game never ends before its first decision)

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        obs = self.game.observe(seat)
        mask = np.zeros(azuki.NUM_ACTIONS, dtype=np.int8)
        if self._over:
            obs[self._mask_slice] = 0        # an illegal-action loss leaves the game going: no legal actions now
        elif seat == self.game.current_player:
            self.game.action_mask(out=mask.view(np.uint8))
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        seat = self.possible_agents.index(agent)
        other = self.possible_agents[1 - seat]
        a = self._action_id(action)
        if a is None or not self.game.is_legal(a):
            if self.illegal_action == "raise":
                raise azuki.IllegalActionError(f"action {azuki.excerpt(action)} is not legal for {agent}")
            self._over = True
            self.rewards[agent], self.rewards[other] = -1, 1
            self.terminations = {x: True for x in self.agents}
            self.infos[agent] = {"illegal_action": True, "action": azuki.excerpt(action)}
            self.infos[other] = {}
            self.agent_selection = other
        else:
            self.game.step(a)
            if self.game.is_terminal:
                self._finish_if_over(other)
            else:
                self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()

    def _action_id(self, action):
        return action_id(action)

    def _finish_if_over(self, next_agent):
        """When the game has ended: rewards, terminations / truncations, infos."""
        g = self.game
        if not g.is_terminal:
            return
        self._over = True
        info = {"result": g.result, "end_reason": g.end_reason}
        if g.result == "TRUNCATED":
            self.truncations = {a: True for a in self.agents}
        else:
            self.terminations = {a: True for a in self.agents}
            if g.winner is not None:
                self.rewards[self.possible_agents[g.winner]] = 1
                self.rewards[self.possible_agents[1 - g.winner]] = -1
        self.infos = {a: dict(info) for a in self.agents}
        self.agent_selection = next_agent

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.game is None:
            return ""
        return self.game.render()

    def close(self):
        pass


raw_env = AzukiAECEnv


def env(**kwargs):
    """The AEC env with PettingZoo's OrderEnforcingWrapper (errors for calls
    before reset). Illegal actions are handled by the env itself
    (`illegal_action=`), so no TerminateIllegalWrapper is added."""
    return wrappers.OrderEnforcingWrapper(AzukiAECEnv(**kwargs))

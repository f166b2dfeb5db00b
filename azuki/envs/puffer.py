"""azuki.envs.puffer — AzukiEnv, a native ``pufferlib.PufferEnv`` on VecGame.

One AzukiEnv steps ``num_envs`` games with one C call (azuki.VecGame), writing
straight into PufferLib's buffers (observations, rewards, terminals,
truncations: zero-copy). Modes (docs/envs.md):

    mode="self"    self-play: 2 agents per game, agent 2i + s is seat s of game i;
                   the seat that does not decide gets a NO_OP-only mask
    mode="bot"     1 agent per game against a built-in bot (azuki.BOT_KINDS), which
                   moves inside step(); the agent's seat alternates every 2 episodes
    mode="policy"  1 agent per game against a frozen policy: `opponent(obs, masks)
                   -> actions`, called from step() on the games waiting for it,
                   or a built-in bot's name (switchable with set_opponent: a league)

The legal-action mask travels inside the observation (field MASK, packed bits, at
azuki.envs.MASK_OFFSET; azuki.envs.mask_from_obs unpacks it; PufferLib has no mask channel and its trainer ignores
masks): policies apply it to their logits with azuki.envs.apply_mask in both
forward passes. Action space: Discrete(NUM_ACTIONS) (flat actions, rules.md
§14), or with ``action_heads=True`` MultiDiscrete(HEAD_SIZES) with the
per-head marginal masks appended to the observation (0/1 bytes); PuffeRL samples heads
independently, so a joint action can be illegal: it is replaced by the legal
action agreeing on the longest prefix of heads (azuki.envs.resolve_heads),
counted in the log as ``heads_replaced``.

An illegal flat action (a policy that does not mask) loses its game
(``illegal_action="lose"``, the convention of PufferLib's two-player games;
counted in the log as ``illegal``), or raises azuki.IllegalActionError with
``illegal_action="raise"`` (nothing changes).

Seeding: ``reset(seed)`` rebuilds every game. Episode e of the env (e = 0, 1,
... in the order episodes start, as in VecGame) is exactly
``azuki.Game(seed=env.engine_seed + e)``, where ``engine_seed =
engine_seed(seed, stream)`` is a 64-bit hash: envs with different
(seed, stream) never share a deal in practice. PufferLib's backends reset env
i of a worker with ``seed + i``; on Ray every worker does the same, so the
envs of a vector also take a ``stream`` argument, their global index (the
``make`` helper here sets it). A run is reproducible from its seeds and actions.
"""
from __future__ import annotations

import numpy as np
import gymnasium
import pufferlib

from .. import _core
from . import HEAD_SIZES, NUM_ACTIONS, OBS_LEN, head_masks, resolve_heads

MODES = ("self", "bot", "policy")
_M64 = (1 << 64) - 1


def engine_seed(seed, stream=0):
    """The engine seed of episode 0 of an env reset with `seed`, stream `stream` (splitmix64, defined
    once in C: azuki.h azk_splitmix64)."""
    return _core.splitmix64((seed & _M64) ^ _core.splitmix64(stream & _M64))


def _log_dict(raw, mode):
    """PufferLib-style per-episode log (floats only) from VecGame.log()."""
    n = raw["episodes"]
    out = {"n": n, "episode_length": raw["length"], "draw_rate": raw["draws"] / n,
           "truncation_rate": raw["truncated"] / n, "illegal_rate": raw["illegal"] / n,
           "win_rate_seat0": raw["wins_seat0"] / n, "win_rate_seat1": raw["wins_seat1"] / n}
    if mode != "self":
        out["agent_win_rate"] = raw["agent_wins"] / n
        out["agent_loss_rate"] = raw["agent_losses"] / n
        for s in (0, 1):
            g = raw[f"agent_games_seat{s}"]
            if g:
                out[f"agent_win_rate_seat{s}"] = raw[f"agent_wins_seat{s}"] / g
    for deck, g in raw["deck_games"].items():
        if g:
            out[f"win_rate_{deck}"] = raw["deck_wins"][deck] / g
    return out


class AzukiEnv(pufferlib.PufferEnv):
    """num_envs games of Azuki as one native PufferLib env (docs/envs.md).

    Arguments: num_envs (games), mode ("self" | "bot" | "policy"), bot (the
    built-in opponent of mode "bot"), opponent (mode "policy": a callable
    ``(obs [k, L], masks uint8 [k, NUM_ACTIONS]) -> int actions [k]`` for the
    k games waiting for it; picklable for the Multiprocessing backend;
    replace it with set_opponent), pairings (deck pairs, each played from
    both seats), seed and stream (module docstring), cards (a CardSet; default the embedded starter set),
    obs_dtype ("uint8": the one observation encoding, docs/observation.md), waiting_obs ("full" | "mask",
    VecGame), action_heads (MultiDiscrete heads), illegal_action ("lose" |
    "raise"), report_interval (steps between logs), render_mode (None |
    "ansi"), threads (VecGame's threads=k: k - 1 C worker threads and the
    caller step, observe and answer with built-in bots slices of the games;
    every buffer and trajectory equals threads=1's, docs/vecgame.md),
    privileged (mode "bot" / "policy", training only: each row gains, after
    the rest, OBS_LEN more bytes, the opponent seat's observation of the same
    position (VecGame.observe_others: hidden cards included) for a privileged
    critic; a policy reads its own observation from the first OBS_LEN bytes,
    docs/training.md "Privileged critic"), buf (PufferLib's buffers)."""

    def __init__(self, num_envs=1024, mode="self", bot="random", opponent=None,
                 pairings=(("STT01", "STT02"),), seed=0, stream=0, cards=None, obs_dtype="uint8", waiting_obs="full",
                 action_heads=False, illegal_action="lose", report_interval=32, render_mode=None, threads=1,
                 privileged=False, buf=None):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if mode == "bot" and bot not in _core.BOT_KINDS:
            raise ValueError(f"bot must be one of {_core.BOT_KINDS}, got {bot!r}")
        if mode == "policy" and opponent is not None and not callable(opponent) and opponent not in _core.BOT_KINDS:
            raise TypeError(f"opponent must be a callable (obs, masks) -> actions or one of {_core.BOT_KINDS}")
        if privileged and mode == "self":
            raise ValueError("privileged=True is for mode 'bot' or 'policy' (in self-play both seats are agents)")
        if obs_dtype != "uint8":
            raise ValueError(f"obs_dtype must be 'uint8' (the only observation encoding since layout v4), "
                             f"got {obs_dtype!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        if isinstance(report_interval, bool) or not isinstance(report_interval, (int, np.integer)) \
                or report_interval < 1:
            raise ValueError(f"report_interval must be an int >= 1, got {report_interval!r}")
        # (VecGame checks the upper bound, azuki.h AZK_VEC_MAX_THREADS, when reset() builds it)
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
            raise ValueError(f"threads must be an int >= 1, got {threads!r}")
        self.n = int(num_envs)
        self.mode, self.bot, self.opponent = mode, bot, opponent
        self.pairings = tuple(tuple(p) for p in pairings)
        self.cards, self.obs_dtype, self.waiting_obs = cards, obs_dtype, waiting_obs
        self.action_heads, self.illegal_action = bool(action_heads), illegal_action
        self.privileged = bool(privileged)
        self.report_interval, self.render_mode = int(report_interval), render_mode
        self.threads = int(threads)
        self.seed = self._check_seed(seed, "seed")
        self.stream = self._check_seed(stream, "stream")
        self.num_agents = 2 * self.n if mode == "self" else self.n
        obs_len = OBS_LEN + (sum(HEAD_SIZES) if self.action_heads else 0) + (OBS_LEN if self.privileged else 0)
        self.single_observation_space = gymnasium.spaces.Box(0, 255, (obs_len,), np.uint8)
        self.single_action_space = (gymnasium.spaces.MultiDiscrete(list(HEAD_SIZES)) if self.action_heads
                                    else gymnasium.spaces.Discrete(NUM_ACTIONS))
        super().__init__(buf)
        self.vec = None          # built by reset(): construction stays cheap (PufferLib builds throw-away envs)
        self._others = np.empty((self.n, OBS_LEN), dtype=np.uint8) if self.privileged else None
        self.tick = 0
        self._heads_replaced = 0
        self.opponent_name = opponent if isinstance(opponent, str) else "policy"
        self._results = {}

    @staticmethod
    def _check_seed(seed, what):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 64:
            raise ValueError(f"{what} must be an int in [0, 2**64), got {seed!r}")
        return int(seed)

    @property
    def engine_seed(self):
        """Engine seed of the env's episode 0 since the last reset (episode e: + e)."""
        return engine_seed(self.seed, self.stream)

    # -- PufferEnv -----------------------------------------------------------

    def reset(self, seed=None):
        if seed is not None:
            self.seed = self._check_seed(seed, "seed")
        bufs = {"rewards": self.rewards, "terminals": self.terminals.view(np.uint8),
                "truncations": self.truncations.view(np.uint8)}
        if not (self.action_heads or self.privileged):
            bufs["obs"] = self.observations   # zero-copy; with heads or the privileged view appended: a copy
        if self.mode == "policy":   # rewards and ends accumulate over the opponent's calls (step): VecGame keeps its own
            for k in ("rewards", "terminals", "truncations"):
                del bufs[k]
        self.vec = _core.VecGame(self.n, seed=self.engine_seed, pairings=self.pairings, mode=self.mode,
                                 bot=self.bot if self.mode == "bot" else "random", cards=self.cards,
                                 buffers=bufs, obs_dtype=self.obs_dtype, waiting_obs=self.waiting_obs,
                                 illegal="lose" if self.illegal_action == "lose" else "raise",
                                 masks=self.action_heads,   # else the mask lives only in the observation
                                 threads=self.threads)
        self.tick = 0
        self._heads_replaced = 0
        self._opp_decisions = np.zeros(self.n, dtype=np.uint64)   # per game: opponent decisions answered
        if self.mode == "policy":
            self.rewards[:] = 0
            self.terminals[:] = False
            self.truncations[:] = False
            self._play_opponent()
        self._publish()
        return self.observations, []

    def step(self, actions):
        self._agent_step(actions)
        if self.mode == "policy":
            self._play_opponent()
        return self._end_step()

    def _agent_step(self, actions):
        """step()'s first half: apply the agents' actions (mode="policy": up to
        the opponent's decisions, which play_opponents answers)."""
        if self.vec is None:
            raise RuntimeError("AzukiEnv: call reset() before step()")
        a = np.asarray(actions)
        if self.action_heads:
            a, replaced = resolve_heads(a.reshape(self.num_agents, 3), self.vec.masks)
            self._heads_replaced += int(np.count_nonzero(replaced & (self.vec.acting != 0)))
        self.vec.step(a)
        if self.mode == "policy":
            v = self.vec
            self._record(v.rewards, v.terminals, v.truncations)
            self.rewards[:] = v.rewards
            self.terminals[:] = v.terminals != 0
            self.truncations[:] = v.truncations != 0

    def _end_step(self):
        """step()'s second half: publish the buffers, count the tick, the infos."""
        self._publish()
        self.tick += 1
        infos = []
        if self.tick % self.report_interval == 0:
            log = self.log()
            if log:
                infos.append(log)
        return self.observations, self.rewards, self.terminals, self.truncations, infos

    def _play_opponent(self):
        """mode="policy": answer every pending opponent decision (play_opponents)."""
        play_opponents([self])

    def opponent_keys(self, idx):
        """uint64 keys of the pending opponent decisions of games `idx`: (stream,
        game, decision number of that game's opponent since reset), so a keyed
        player's action for a decision depends on the decision alone, not on the
        batch it was computed in (azuki.sampler.keyed_uniforms). Streams and
        games above 2**16, decisions above 2**32 wrap (keys then repeat)."""
        g = np.asarray(idx, dtype=np.uint64)
        return ((np.uint64(self.stream & 0xFFFF) << np.uint64(48)) | ((g & np.uint64(0xFFFF)) << np.uint64(32))
                | (self._opp_decisions[idx] & np.uint64(0xFFFFFFFF)))

    def _opponent_answered(self, acts, idx):
        """Apply the opponent actions `acts` [n] (games `idx` pending), then
        accumulate the agent rows' rewards and end flags."""
        v = self.vec
        v.step_opponent(acts)
        self._opp_decisions[idx] += np.uint64(1)
        # VecGame writes a non-zero reward only on a row whose episode ended in
        # this call: most rounds end nothing, and cost one test (~11 rounds a step)
        if not (v.terminals.any() or v.truncations.any()):
            return
        self._record(v.rewards, v.terminals, v.truncations)
        self.rewards += v.rewards
        self.terminals |= v.terminals != 0
        self.truncations |= v.truncations != 0

    def _publish(self):
        """With heads or privileged: the observation (VecGame wrote its own buffer), then the marginals, then the
        opponent seat's view."""
        if self.action_heads or self.privileged:
            self.observations[:, :OBS_LEN] = self.vec.obs
        if self.action_heads:
            self.observations[:, OBS_LEN:OBS_LEN + sum(HEAD_SIZES)] = head_masks(self.vec.masks)   # 0/1 bytes
        if self.privileged:
            self.observations[:, -OBS_LEN:] = self.vec.observe_others(self._others)

    def set_opponent(self, opponent, name=None):
        """mode="policy": the opponent for the next steps (league play): a
        frozen policy (callable) or a built-in bot's name; `name` labels its
        results in take_results() (default: the bot's name or "policy")."""
        if not callable(opponent) and opponent not in _core.BOT_KINDS:
            raise TypeError(f"opponent must be a callable (obs, masks) -> actions or one of {_core.BOT_KINDS}")
        self.opponent = opponent
        self.opponent_name = name or (opponent if isinstance(opponent, str) else "policy")

    def _record(self, rewards, terminals, truncations):
        """Per-opponent results of the agent rows (mode="policy")."""
        ended = (terminals != 0) | (truncations != 0)
        if not ended.any():
            return
        r = rewards[ended]
        res = self._results.setdefault(self.opponent_name, [0, 0, 0])
        res[0] += int((r > 0).sum())
        res[1] += int((r < 0).sum())
        res[2] += int((r == 0).sum())

    def take_results(self):
        """mode="policy": {opponent name: [agent wins, losses, draws or
        truncations]} of the episodes finished since the last call (then cleared)."""
        out, self._results = self._results, {}
        return out

    def log(self):
        """The episode log since the last call (PufferLib convention: floats,
        rates over `n` finished episodes), or {} when none finished."""
        if self.vec is None:
            return {}
        raw = self.vec.log()
        if not raw["episodes"]:
            return {}
        out = _log_dict(raw, self.mode)
        if self.action_heads:
            out["heads_replaced"] = float(self._heads_replaced)
            self._heads_replaced = 0
        return out

    def render(self):
        if self.vec is None:
            return ""
        return self.vec.game(0).render()

    def close(self):
        self.vec = None


def play_opponents(envs, batched=True):
    """mode="policy": answer every pending opponent decision of the AzukiEnvs
    `envs`, round by round, until every game waits for its agent. Each round
    a built-in bot answers its env's games in C; a policy opponent (a
    callable) gets the pending rows of every env it plays in one call (one
    forward per distinct opponent per round, across all envs: the league's
    snapshots), or with batched=False one call per env (the reference the
    tests compare with). An opponent with `wants_keys` (azuki.PolicyPlayer)
    gets keys= (AzukiEnv.opponent_keys) so its actions do not depend on the
    batching; any other callable is called as opponent(obs, masks). A C
    policy player (azuki.policy_np.CPolicyPlayer) answers inside each env's
    VecGame (VecGame.policy_opponent_actions: forward and keyed sample in C,
    on the env's threads; with batched=False it is called like any keyed
    player, the reference). Each env's games see the same sequence of states
    and calls as when it is stepped alone."""
    while True:
        pend = [(e, np.flatnonzero(e.vec.opp_pending)) for e in envs]
        pend = [(e, idx) for e, idx in pend if idx.size]
        if not pend:
            return
        envs = [e for e, _ in pend]      # an env with nothing pending stays so: only its own calls change that
        acts = {}
        groups = {}          # id(opponent) -> (opponent, [(env, idx)])
        for e, idx in pend:
            if e.opponent is None:
                raise RuntimeError("AzukiEnv(mode='policy'): no opponent; pass opponent= or call set_opponent()")
            if isinstance(e.opponent, str):         # a built-in bot, in C on the games themselves
                acts[id(e)] = e.vec.bot_opponent_actions(e.opponent)
            elif isinstance(getattr(e.opponent, "cpolicy", None), _core.CPolicy) and batched:
                # a C policy (azuki.policy_np.CPolicyPlayer): forward + keyed sample in C, inside the
                # vector, on its threads: the actions the keyed player gives for the same keys
                o = e.opponent
                acts[id(e)] = e.vec.policy_opponent_actions(o.cpolicy, o.seed, e.opponent_keys(np.arange(e.n)),
                                                            greedy=o.greedy)
            else:
                groups.setdefault(id(e.opponent), (e.opponent, []))[1].append((e, idx))
        for opp, members in groups.values():
            keyed = bool(getattr(opp, "wants_keys", False))
            for part in ([members] if batched else [[m] for m in members]):
                obs = [e.vec.opp_obs[idx] for e, idx in part]
                masks = [e.vec.opp_masks[idx] for e, idx in part]
                obs = obs[0] if len(part) == 1 else np.concatenate(obs)
                masks = masks[0] if len(part) == 1 else np.concatenate(masks)
                if keyed:
                    keys = np.concatenate([e.opponent_keys(idx) for e, idx in part])
                    out = np.asarray(opp(obs, masks, keys=keys)).reshape(-1)
                else:
                    out = np.asarray(opp(obs, masks)).reshape(-1)
                if out.shape[0] != obs.shape[0]:
                    raise ValueError(f"opponent returned {out.shape[0]} actions for {obs.shape[0]} decisions")
                at = 0
                for e, idx in part:
                    a = np.zeros(e.n, dtype=np.int32)
                    a[idx] = out[at:at + idx.size]
                    at += idx.size
                    acts[id(e)] = a
        for e, idx in pend:
            e._opponent_answered(acts[id(e)], idx)


def batched_serial():
    """A pufferlib.vector.Serial whose step answers the opponents of all its
    AzukiEnvs (mode="policy") together (play_opponents): the league's
    snapshot opponents run one forward per round for every env they play in,
    instead of one per env. Otherwise Serial as it is (the send() override
    lives, checked against pufferlib, in azuki.envs.pufferl_adapter)."""
    from .pufferl_adapter import batched_serial as serial_with

    def step_together(envs, parts):
        for env, actions in zip(envs, parts):
            env._agent_step(actions)
        play_opponents([e for e in envs if e.mode == "policy"])
        infos = []
        for env in envs:
            infos.extend(env._end_step()[4])
        return infos
    return serial_with(step_together)


def make(num_envs=1024, backend="serial", num_workers=1, envs_per_worker=1, **env_kwargs):
    """A PufferLib vector of AzukiEnvs: ``backend`` "serial", "multiprocessing"
    or "ray"; ``envs_per_worker`` AzukiEnvs of ``num_envs`` games each per
    worker. Seeds go through the env arguments (pufferlib.vector.make
    swallows its own ``seed=``, and Ray seeds nothing): env k of the vector
    gets stream k; reset the vector with ``vec.reset(seed)``."""
    import pufferlib.vector as pv
    backends = {"serial": pv.Serial, "multiprocessing": pv.Multiprocessing, "ray": pv.Ray}
    if backend not in backends:
        raise ValueError(f"backend must be one of {tuple(backends)}, got {backend!r}")
    total = num_workers * envs_per_worker
    if "seed" in env_kwargs or "stream" in env_kwargs:
        raise ValueError("make(): seed with vec.reset(seed); streams are set here")
    kw = [dict(env_kwargs, num_envs=num_envs, stream=k) for k in range(total)]
    extra = {}
    if backend != "serial":
        extra = dict(num_workers=num_workers, batch_size=total)
    if backend == "multiprocessing":
        extra["overwork"] = True
    return pv.make([AzukiEnv] * total, env_args=[[] for _ in range(total)], env_kwargs=kw,
                   backend=backends[backend], num_envs=total, **extra)

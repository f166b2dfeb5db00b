"""Helpers shared by the .venv-puffer suites in tests/envs (imported after their importorskip
lines; not a test file): the self-play observation rows the policy tests run on, and the tiny
`azuki train` subprocess the crash and expert-iteration tests drive."""
import os
import subprocess
import sys

import numpy as np

from azuki import _core
from azuki.envs import mask_from_obs

EXPANSION = os.path.join(os.path.dirname(_core.__file__), "data", "expansion.json")


def positions(pairings, cards=None, games=32, steps=120, seed=5, keep=4):
    """uint8 observations [rows, OBS_LEN] of the deciding agents of self-play games with random
    legal moves (every `keep`-th step kept)."""
    from azuki.envs.puffer import AzukiEnv
    env = AzukiEnv(num_envs=games, mode="self", seed=seed, pairings=pairings, cards=cards)
    env.reset()
    rng = np.random.default_rng(seed)
    out = []
    for k in range(steps):
        m = mask_from_obs(env.observations)
        if k % keep == 0:
            out.append(env.observations[m.any(axis=1)].copy())
        env.step(np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in m]))
    return np.concatenate(out)


def starter_and_expansion_positions():
    """positions() of a starter pairing and of an expansion pairing (auras, cost modifiers), together."""
    return np.concatenate([positions((("STT01", "STT02"),)),
                           positions((("EXP01-FIRE", "EXP01-EARTH"),), cards=EXPANSION, seed=6)])


# a tiny run: 2 envs x 8 games x horizon 8 = 128 agent-steps per epoch, a checkpoint and a league
# snapshot after every epoch, no final evaluation
TINY = ["env.envs=2", "env.games_per_env=8", "ppo.bptt_horizon=8", "ppo.minibatch_size=64", "eval.games=2",
        "eval.minutes=1000.0", "eval.final_games=0", "league.snapshot_steps=0", "league.pool_size=3",
        "run.checkpoint_minutes=0.0", "run.log_seconds=1000.0", "policy.hidden=16", "run.threads=1",
        "kickstart.decisions=0"]
HANG = 300          # seconds: only a hang gets near this (a tiny run saves within seconds)


def run_train(cwd, *args, sets=TINY, kill=None, preexec_fn=None):
    """`python -m azuki train --minutes 0 ARGS --set S...` in `cwd`, its output captured; `kill` sets the
    test hook AZUKI_TEST_KILL=POINT@N (azuki.policy_np._test_kill), otherwise it is cleared."""
    cmd = [sys.executable, "-m", "azuki", "train", "--minutes", "0", *args]
    for s in sets:
        cmd += ["--set", s]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("AZUKI_TEST_KILL", None)
    if kill:
        env["AZUKI_TEST_KILL"] = kill
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(cwd), timeout=HANG,
                          preexec_fn=preexec_fn)

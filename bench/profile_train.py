"""bench/profile_train.py — where one PPO iteration of `azuki train` spends its time.

Runs `azuki.train.train` in this process for a fixed step budget (the
curve's evaluations left out: eval.games is tiny, no final evaluation, no
checkpoint until the end) with timers wrapped around the parts of an
iteration, and prints milliseconds per PPO iteration (envs x games_per_env x
bptt_horizon agent-steps of the run's config):

    rollout (PuffeRL.evaluate)
      env step (BatchedSerial.send)
        agents' C step (AzukiEnv._agent_step)
        opponents' rounds (play_opponents), of which the built-in bots'
          moves (VecGame.bot_opponent_actions, C), the opponents' C steps
          and bookkeeping (AzukiEnv._opponent_answered), the snapshot
          players (in C since the league plays snapshots as CPolicyPlayer:
          VecGame.policy_opponent_actions; PolicyPlayer.act, torch, before)
      the rest of the rollout: the learner's forward, sampling, PuffeRL's copies, of which
        the learner's forward (Policy.forward_eval; with ppo.c_rollout, the
        default, CRollout.forward_eval: the forward and the sampling in C)
        and its sampling (azuki.sampler.sample_logits: action,
        log-probability, entropy; with the C rollout only the hand-back)
    learn (PuffeRL.train), of which the forward (Policy.forward), the
      log-probabilities and entropy of the stored actions (sample_logits),
      backward, gradient clipping + the optimizer step, and the rest
      (PuffeRL's advantages, prioritized sampling, copies, losses, logging);
      with ppo.learner_threads > 1 (the default: azuki.envs.ppo_update) the
      update's total only (its parts run on several threads at once)

With --cprofile it runs under cProfile instead (Python-heavy parts slowed)
and prints the 30 functions with the most own time.

Usage (from the repository root, .venv-puffer; PYTHONPATH=. to profile this
checkout without rebuilding the venv's wheel):

    PYTHONPATH=. .venv-puffer/bin/python bench/profile_train.py [STEPS] [--cprofile] [--set section.key=value ...]

STEPS defaults to 81,920 (10 iterations of the default config), with
league.snapshot_steps = 16,384 so snapshots join the league after two
iterations (as in a long run), unless --set says otherwise. The machine may
be shared: compare runs side by side, not with figures taken at another time.
"""
from __future__ import annotations

import functools
import sys
import tempfile
import time

TIMERS = {}
IN_ROUNDS = [False]
PHASE = [None]          # "rollout" inside PuffeRL.evaluate, "learn" inside PuffeRL.train


def _timed(label, fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        t0 = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            TIMERS[label] = TIMERS.get(label, 0.0) + time.perf_counter() - t0
    return wrapper


def _install():
    """Timers around the parts of an iteration (module docstring)."""
    import pufferlib.pufferl as pufferl
    from azuki import _core, policy
    from azuki.envs import puffer

    class TimedVec(_core.VecGame):
        def bot_opponent_actions(self, bot):
            t0 = time.perf_counter()
            try:
                return super().bot_opponent_actions(bot)
            finally:
                TIMERS["bots"] = TIMERS.get("bots", 0.0) + time.perf_counter() - t0

        def policy_opponent_actions(self, *a, **k):       # a snapshot played in C (CPolicyPlayer)
            t0 = time.perf_counter()
            try:
                return super().policy_opponent_actions(*a, **k)
            finally:
                TIMERS["snapshots"] = TIMERS.get("snapshots", 0.0) + time.perf_counter() - t0

    class CoreProxy:        # puffer._core with a VecGame whose bot moves are timed
        def __getattr__(self, name):
            return TimedVec if name == "VecGame" else getattr(_core, name)

    puffer._core = CoreProxy()
    pufferl.PuffeRL.evaluate = _phase("rollout", _timed("rollout", pufferl.PuffeRL.evaluate))
    pufferl.PuffeRL.train = _phase("learn", _timed("learn", pufferl.PuffeRL.train))
    from azuki.envs import ppo_update        # the update split across ppo.learner_threads threads (> 1)
    ppo_update.update = _phase("learn", _timed("learn", ppo_update.update))
    _install_learner()
    puffer.AzukiEnv._agent_step = _timed("agent_step", puffer.AzukiEnv._agent_step)
    puffer.AzukiEnv._opponent_answered = _timed("opp_step", puffer.AzukiEnv._opponent_answered)
    play = _timed("rounds", puffer.play_opponents)

    def rounds(*a, **k):
        IN_ROUNDS[0] = True
        try:
            return play(*a, **k)
        finally:
            IN_ROUNDS[0] = False
    puffer.play_opponents = rounds
    act = policy.PolicyPlayer.act
    timed_act = _timed("snapshots", act)
    # the snapshots' forwards inside the opponents' rounds (not the curve's evaluations)
    policy.PolicyPlayer.act = policy.PolicyPlayer.__call__ = \
        lambda self, *a, **k: (timed_act if IN_ROUNDS[0] else act)(self, *a, **k)
    serial = puffer.batched_serial

    def batched_serial():
        cls = serial()
        cls.send = _timed("send", cls.send)
        return cls
    puffer.batched_serial = batched_serial


def _phase(name, fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        PHASE[0] = name
        try:
            return fn(*a, **k)
        finally:
            PHASE[0] = None
    return wrapper


def _install_learner():
    """Timers around the learner's own torch work: its forward and sampling in the rollout
    (not the snapshot players' forwards inside the opponents' rounds), and in PuffeRL.train
    the forward, sampling (log-probabilities, entropy), backward, clipping and optimizer step."""
    import torch
    from azuki import policy, sampler

    def when(labels, fn):
        """fn timed under labels[phase] while PuffeRL is in that phase (and not in the rounds)."""
        timed = {ph: _timed(lab, fn) for ph, lab in labels.items()}

        @functools.wraps(fn)
        def wrapper(*a, **k):
            ph = PHASE[0]
            return (timed[ph] if ph in timed and not IN_ROUNDS[0] else fn)(*a, **k)
        return wrapper
    policy.Policy.forward_eval = when({"rollout": "r_forward"}, policy.Policy.forward_eval)
    from azuki.envs import crollout           # the learner acting in C (ppo.c_rollout): its forward + sampling
    crollout.CRollout.forward_eval = when({"rollout": "r_forward"}, crollout.CRollout.forward_eval)
    policy.Policy.forward = when({"learn": "l_forward"}, policy.Policy.forward)
    sampler.sample_logits = when({"rollout": "r_sample", "learn": "l_sample"}, sampler.sample_logits)
    torch.Tensor.backward = when({"learn": "l_backward"}, torch.Tensor.backward)
    torch.nn.utils.clip_grad_norm_ = when({"learn": "l_opt"}, torch.nn.utils.clip_grad_norm_)
    for cls in (torch.optim.Adam,):
        cls.step = when({"learn": "l_opt"}, cls.step)


ROWS = [("rollout", "rollout (PuffeRL.evaluate)"),
        ("send", "  env step (BatchedSerial.send)"),
        ("agent_step", "    agents' C step (AzukiEnv._agent_step)"),
        ("rounds", "    opponents' rounds (play_opponents)"),
        ("bots", "      built-in bots' moves (VecGame.bot_opponent_actions, C)"),
        ("opp_step", "      opponents' C steps + bookkeeping (_opponent_answered)"),
        ("snapshots", "      snapshot players (C: policy_opponent_actions; or torch)"),
        ("rounds_rest", "      the rest (pending lists, batching, Python)"),
        ("rollout_rest", "  learner forward, sampling, PuffeRL's copies"),
        ("r_forward", "    learner forward (Policy.forward_eval; C: + sampling)"),
        ("r_sample", "    sampling (azuki.sampler.sample_logits)"),
        ("r_rest", "    PuffeRL's copies and bookkeeping"),
        ("learn", "learn (PuffeRL.train)"),
        ("l_forward", "  forward (Policy.forward)"),
        ("l_sample", "  log-probabilities + entropy (sample_logits)"),
        ("l_backward", "  backward"),
        ("l_opt", "  gradient clipping + optimizer step"),
        ("l_rest", "  PuffeRL's own work (advantages, sampling, copies, losses)")]


def main(argv):
    steps, sets, use_cprofile = 81920, [], False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--set":
            sets.append(args.pop(0))
        elif a == "--cprofile":
            use_cprofile = True
        else:
            steps = int(a)
    from azuki.train import _passive_omp, load_config, train
    _passive_omp()          # as `azuki train` does, before torch loads (OMP_WAIT_POLICY set in the environment wins)
    overrides = ["league.snapshot_steps=16384", "eval.games=8", "eval.final_games=0", "eval.minutes=1000",
                 "run.checkpoint_minutes=1000"] + sets
    cfg = load_config(None, overrides)
    cfg["run"]["minutes"], cfg["run"]["steps"] = 0, steps
    e, p = cfg["env"], cfg["ppo"]
    per_iter = int(e["envs"]) * int(e["games_per_env"]) * int(p["bptt_horizon"])
    prof = None
    if use_cprofile:
        import cProfile
        prof = cProfile.Profile()
    else:
        _install()
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        if prof:
            prof.enable()
        s = train(cfg, out, quiet=True, log=lambda m: None)
        if prof:
            prof.disable()
        wall = time.perf_counter() - t0
    iters = s["steps"] / per_iter
    print(f"azuki train: {s['steps']:,} agent-steps ({iters:.1f} iterations of {per_iter:,}), "
          f"{s['steps_per_second']:,.0f} agent-steps/s in the loop, {wall:.1f} s in all "
          f"({'under cProfile' if prof else 'timers'}); overrides: {' '.join(overrides)}")
    if prof:
        import pstats
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return 0
    t = dict(TIMERS)
    t["rounds_rest"] = t.get("rounds", 0) - t.get("bots", 0) - t.get("opp_step", 0) - t.get("snapshots", 0)
    t["rollout_rest"] = t.get("rollout", 0) - t.get("send", 0)
    t["r_rest"] = t["rollout_rest"] - t.get("r_forward", 0) - t.get("r_sample", 0)
    t["l_rest"] = t.get("learn", 0) - sum(t.get(k, 0) for k in ("l_forward", "l_sample", "l_backward", "l_opt"))
    threads = int(cfg["ppo"]["learner_threads"])
    print(f"{'per iteration':<66} {'ms':>8}")
    for key, label in ROWS:
        if key == "learn" and threads > 1:
            label = f"learn (azuki.envs.ppo_update, {threads} threads)"
        elif key.startswith("l_") and threads > 1:
            continue         # the parts run on several threads at once: --set ppo.learner_threads=1 shows them
        if key in t:
            print(f"{label:<66} {1000 * t[key] / iters:8.1f}")
    if threads > 1:
        print(f"(the learn parts run on {threads} threads at once; --set ppo.learner_threads=1 times them one by one)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Learner-only micro-benchmark of the policy (docs/training.md "Policy"):
one PPO iteration's torch work on real observations, no environment —
rollout: forward_eval + sample on the batch in chunks of `--chunk` rows
(8 envs x 64 games = 512 per forward in the default config); training:
`--epochs` passes over the batch in minibatches of `--minibatch` rows,
forward + log-probability of the stored actions + entropy + backward + Adam.
Prints agent-steps/s (batch rows / seconds per iteration, median of
`--reps`) for each architecture spec, with azuki.sampler as the sampler,
and agent-steps per CPU second (all threads' CPU time: steadier than the
wall clock on a loaded machine).

--breakdown: milliseconds per iteration (wall and CPU, medians of `--reps`)
of each part, timed alone: the rollout's obs_inputs, encoder, head (the
distribution object and the value) and sampling (azuki.sampler.sample_logits:
action, log-probability, entropy); the training pass's forward with the
stored actions' log-probabilities and entropy, backward, and gradient
clipping + Adam (what PuffeRL.train does per minibatch, without its own
bookkeeping).

--pufferl: PuffeRL's own train() on a real rollout (8 envs x 64 games vs the
random bot, the default config's PPO keys) against the bare loop of the same
passes (forward, log-probabilities, loss, backward, clip, Adam) on the same
buffers, alternately, wall and CPU ms: what PuffeRL adds per iteration
(advantages per minibatch, prioritized sampling, copies, `.item()` logging).

    PYTHONPATH=. .venv-puffer/bin/python bench/learner_micro.py [--threads 2] [--archs flat structured:factored ...]
    PYTHONPATH=. .venv-puffer/bin/python bench/learner_micro.py --breakdown --archs structured:factored
    PYTHONPATH=. .venv-puffer/bin/python bench/learner_micro.py --pufferl --archs structured:factored
    PYTHONPATH=. .venv-puffer/bin/python bench/learner_micro.py --empty-slots --archs structured:factored --epochs 4

--learner-threads K: each training minibatch's rows split across K threads, each running the
forward and backward of its share (azuki.learner_threads, what `[ppo] learner_threads` does to
PPO's update); run it with --threads 1 and K = 1, then 2, for the split's speed-up.

--empty-slots: the structured encoder padded (Policy.skip_empty = False) against skipping the
empty entity slots (the default; bit-identical values), one iteration each, alternating.

(PYTHONPATH=.: the tree's azuki, not an installed copy.)
"""
import argparse
import os
import statistics
import time

# torch's OpenMP threads spin at every barrier by default: on a loaded 2-core machine that costs
# several times the work (azuki train sets the same, azuki/train.py)
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import torch  # noqa: E402


def observations(n, seed=0):
    from azuki.envs import mask_from_obs
    from azuki.envs.puffer import AzukiEnv
    env = AzukiEnv(num_envs=512, mode="self", seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    out, have = [], 0
    while have < n:
        m = mask_from_obs(env.observations)
        rows = env.observations[m.any(axis=1)]
        out.append(rows.copy())
        have += len(rows)
        env.step(np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in m]))
    return torch.as_tensor(np.concatenate(out)[:n])


def iteration(policy, opt, obs, chunk, minibatch, epochs, pool=None):
    """One iteration (module docstring); `pool` (an azuki.learner_threads.Shares): each
    minibatch's rows split across its threads, as `[ppo] learner_threads` splits PPO's update."""
    from azuki.learner_threads import shares, sum_grads
    from azuki.sampler import sample_logits
    acts = []
    with torch.no_grad():
        for i in range(0, len(obs), chunk):
            out, _ = policy.forward_eval(obs[i:i + chunk])
            acts.append(sample_logits(out)[0])
    acts = torch.cat(acts)
    params = list(policy.parameters())

    def share(idx, adv, n):
        out, v = policy(obs[idx])
        _, logp, ent = sample_logits(out, action=acts[idx])
        loss = (-(logp * adv).sum() - 0.01 * ent.sum() + (v ** 2).sum()) / n
        return torch.autograd.grad(loss, params, allow_unused=True)

    for _ in range(epochs):
        perm = torch.randperm(len(obs))
        for i in range(0, len(obs), minibatch):
            idx = perm[i:i + minibatch]
            adv = torch.randn(len(idx))
            opt.zero_grad()
            if pool is None:
                out, v = policy(obs[idx])
                _, logp, ent = sample_logits(out, action=acts[idx])
                loss = -(logp * adv).mean() - 0.01 * ent.mean() + (v ** 2).mean()
                loss.backward()
            else:
                sum_grads(params, pool.run(share, [(idx[lo:hi], adv[lo:hi], len(idx))
                                                   for lo, hi in shares(len(idx), pool.threads)]))
            opt.step()


def _timed(fn, reps):
    """(wall ms, CPU ms), medians of reps calls of fn."""
    ws, cs = [], []
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        fn()
        ws.append(1000 * (time.perf_counter() - t))
        cs.append(1000 * (time.process_time() - c))
    return statistics.median(ws), statistics.median(cs)


def breakdown(policy, opt, obs, a):
    """ms per iteration of each part (module docstring, --breakdown): cumulative stages timed
    alone, the parts as their differences."""
    from azuki.policy import obs_inputs
    from azuki.sampler import sample_logits
    flat = policy.arch == "flat"
    chunks = [obs[i:i + a.chunk] for i in range(0, len(obs), a.chunk)]
    with torch.no_grad():
        acts = torch.cat([sample_logits(policy.forward_eval(x)[0])[0] for x in chunks])
    n_mb = a.epochs * len(obs) // a.minibatch
    mbs = [torch.randperm(len(obs))[:a.minibatch] for _ in range(n_mb)]

    compact = policy.arch == "structured" and policy.skip_empty      # as Policy.forward_eval reads them

    def rollout(stage):
        def run():
            with torch.no_grad():
                for x in chunks:
                    if stage == 0:
                        obs_inputs(policy.ix, x, flat=flat, compact=compact)
                    elif stage == 1:
                        inp = obs_inputs(policy.ix, x, flat=flat, compact=compact)
                        if policy.arch == "structured":
                            policy.enc(inp, policy.empty_inputs(x.device) if policy.skip_empty else None)
                        else:
                            policy.enc(inp)
                    elif stage == 2:
                        policy.forward_eval(x)
                    else:
                        sample_logits(policy.forward_eval(x)[0])
        return run

    def train(stage):
        def run():
            for idx in mbs:
                out, v = policy(obs[idx])
                _, logp, ent = sample_logits(out, action=acts[idx])
                if stage == 0:
                    continue
                loss = -(logp * 0.1).mean() - 0.01 * ent.mean() + (v ** 2).mean()
                loss.backward()
                if stage == 2:
                    torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                    opt.step()
                opt.zero_grad()
        return run

    r = [_timed(rollout(k), a.reps) for k in range(4)]
    t = [_timed(train(k), a.reps) for k in range(3)]
    rows = [("rollout: obs_inputs", r[0]), ("rollout: encoder", _sub(r[1], r[0])),
            ("rollout: head + value", _sub(r[2], r[1])), ("rollout: sampling (sample_logits)", _sub(r[3], r[2])),
            ("rollout, all", r[3]),
            ("train: forward + log-prob + entropy", t[0]), ("train: backward", _sub(t[1], t[0])),
            ("train: clip + Adam", _sub(t[2], t[1])), ("train, all", t[2])]
    for name, (w, c) in rows:
        print(f"  {name:38s} {w:8.1f} ms wall {c:8.1f} ms CPU", flush=True)


def _sub(x, y):
    return x[0] - y[0], x[1] - y[1]


def pufferl_overhead(arch, a):
    """PuffeRL.train against the bare loop on the same buffers (module docstring, --pufferl)."""
    import tempfile
    import warnings

    import pufferlib.vector as pv

    from azuki.envs import pufferl_adapter as adapter
    from azuki.envs.puffer import AzukiEnv, batched_serial
    from azuki.policy import make_policy
    from azuki.sampler import sample_logits
    from azuki.train import _puffer_config, load_config
    cfg = load_config(None, [f"policy.arch={arch}", f"policy.hidden={a.hidden}"])
    torch.manual_seed(0)
    policy = make_policy(arch, hidden=a.hidden)
    vec = pv.make(AzukiEnv, backend=batched_serial(), num_envs=int(cfg["env"]["envs"]),
                  env_kwargs=dict(num_envs=int(cfg["env"]["games_per_env"]), mode="policy", opponent="random",
                                  report_interval=1 << 30))
    tr = None
    try:
        with tempfile.TemporaryDirectory() as d, warnings.catch_warnings(), adapter.masked_sampling():
            warnings.simplefilter("ignore")
            tr = adapter.make_trainer(_puffer_config(cfg, "cpu", d, vec.num_agents), vec, policy)
            tr.evaluate()
            tr.train()
            p = tr.config
            obs = tr.observations.reshape(-1, tr.observations.shape[-1])
            acts = tr.actions.reshape(-1)
            mb = tr.minibatch_size

            def bare():
                for _ in range(int(p["update_epochs"])):
                    perm = torch.randperm(len(obs))
                    for i in range(0, len(obs), mb):
                        idx = perm[i:i + mb]
                        out, v = policy(obs[idx])
                        _, logp, ent = sample_logits(out, action=acts[idx])
                        loss = -(logp * 0.1).mean() - p["ent_coef"] * ent.mean() + (v ** 2).mean()
                        loss.backward()
                        torch.nn.utils.clip_grad_norm_(policy.parameters(), p["max_grad_norm"])
                        tr.optimizer.step()
                        tr.optimizer.zero_grad()
            res = {"PuffeRL.train": [], "bare loop": []}
            for _ in range(a.reps):
                tr.evaluate()
                res["PuffeRL.train"].append(_timed(tr.train, 1))
                res["bare loop"].append(_timed(bare, 1))
    finally:
        if tr is not None:
            adapter.stop_trainer(tr)
        vec.close()
    print(f"{arch}: ms per iteration ({len(obs):,} rows, {p['update_epochs']} epochs of minibatch {mb}), "
          f"alternating runs")
    for k, v in res.items():
        print(f"  {k:14s} wall " + " ".join(f"{w:7.0f}" for w, _ in v) + "   CPU " + " ".join(f"{c:7.0f}" for _, c in v))
    cpu = [x[1] for x in res["PuffeRL.train"]], [x[1] for x in res["bare loop"]]
    print(f"  CPU ratio PuffeRL / bare (medians): {statistics.median(cpu[0]) / statistics.median(cpu[1]):.3f}")


def empty_slots(pol, opt, obs, a, arch):
    """--empty-slots: one iteration padded, one skipping empty slots, alternating, `reps` times."""
    res = {False: [], True: []}
    for _ in range(a.reps):
        for skip in (False, True):
            pol.skip_empty = skip
            t, c = time.perf_counter(), time.process_time()
            iteration(pol, opt, obs, a.chunk, a.minibatch, a.epochs)
            res[skip].append((time.perf_counter() - t, time.process_time() - c))
    pol.skip_empty = True
    for skip, name in ((False, "padded"), (True, "empty slots skipped")):
        w = [a.rows / x[0] for x in res[skip]]
        c = [a.rows / x[1] for x in res[skip]]
        print(f"{arch} {name:20s} agent-steps/s wall " + " ".join(f"{x:7,.0f}" for x in w)
              + "   per CPU s " + " ".join(f"{x:7,.0f}" for x in c), flush=True)
    med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)) for k, v in res.items()}
    print(f"{arch} ratio skipped / padded (medians): wall {med[False][0] / med[True][0]:.3f}, "
          f"CPU {med[False][1] / med[True][1]:.3f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--chunk", type=int, default=512)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--learner-threads", type=int, default=1,
                    help="each training minibatch's rows split across this many threads (ppo.learner_threads); with "
                         "--threads 1 this is how `azuki train` runs the update")
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--archs", nargs="+", default=["flat", "structured", "flat:factored", "structured:factored"])
    ap.add_argument("--obs", help="a torch file of uint8 observation rows (torch.save) in place of fresh ones: the "
                                  "same rows for two trees compared side by side")
    ap.add_argument("--breakdown", action="store_true", help="ms per iteration of each part (module docstring)")
    ap.add_argument("--pufferl", action="store_true", help="PuffeRL.train against the bare loop (module docstring)")
    ap.add_argument("--empty-slots", action="store_true",
                    help="the structured encoder padded (skip_empty=False) against skipping empty slots, alternating")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    from azuki.policy import make_policy
    if a.pufferl:
        for arch in a.archs:
            pufferl_overhead(arch, a)
        return
    obs = torch.load(a.obs)[:a.rows] if a.obs else observations(a.rows)
    print(f"rows {a.rows}, obs {obs.shape[1]} {obs.dtype}, chunk {a.chunk}, minibatch {a.minibatch}, "
          f"epochs {a.epochs}, threads {a.threads}, learner threads {a.learner_threads}")
    for arch in a.archs:
        torch.manual_seed(0)
        pol = make_policy(arch, hidden=a.hidden)
        opt = torch.optim.Adam(pol.parameters(), lr=1e-4)
        iteration(pol, opt, obs[:a.minibatch], a.chunk, a.minibatch, 1)      # warm-up
        if a.breakdown:
            print(f"{arch}: ms per iteration")
            breakdown(pol, opt, obs, a)
            continue
        if a.empty_slots:
            empty_slots(pol, opt, obs, a, arch)
            continue
        from azuki.learner_threads import Shares
        ts, cs = [], []
        with Shares(a.learner_threads) as pool:
            for _ in range(a.reps):
                t, c = time.perf_counter(), time.process_time()
                iteration(pol, opt, obs, a.chunk, a.minibatch, a.epochs, pool if a.learner_threads > 1 else None)
                ts.append(time.perf_counter() - t)
                cs.append(time.process_time() - c)
        n = sum(p.numel() for p in pol.parameters())
        print(f"{arch:22s} params {n:>9,d}  {a.rows / statistics.median(ts):>9,.0f} agent-steps/s "
              f"(median of {a.reps}: {statistics.median(ts):.3f} s per iteration; "
              f"{a.rows / statistics.median(cs):,.0f} agent-steps per CPU second)", flush=True)


if __name__ == "__main__":
    main()

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

    PYTHONPATH=. .venv-puffer/bin/python bench/learner_micro.py [--threads 2] [--archs flat structured:factored ...]

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


def iteration(policy, opt, obs, chunk, minibatch, epochs):
    from azuki.sampler import sample_logits
    acts = []
    with torch.no_grad():
        for i in range(0, len(obs), chunk):
            out, _ = policy.forward_eval(obs[i:i + chunk])
            acts.append(sample_logits(out)[0])
    acts = torch.cat(acts)
    for _ in range(epochs):
        perm = torch.randperm(len(obs))
        for i in range(0, len(obs), minibatch):
            idx = perm[i:i + minibatch]
            out, v = policy(obs[idx])
            _, logp, ent = sample_logits(out, action=acts[idx])
            loss = -(logp * torch.randn_like(logp)).mean() - 0.01 * ent.mean() + (v ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--chunk", type=int, default=512)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--archs", nargs="+", default=["flat", "structured", "flat:factored", "structured:factored"])
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    from azuki.policy import make_policy
    obs = observations(a.rows)
    print(f"rows {a.rows}, obs {obs.shape[1]} {obs.dtype}, chunk {a.chunk}, minibatch {a.minibatch}, "
          f"epochs {a.epochs}, threads {a.threads}")
    for arch in a.archs:
        torch.manual_seed(0)
        pol = make_policy(arch, hidden=a.hidden)
        opt = torch.optim.Adam(pol.parameters(), lr=1e-4)
        iteration(pol, opt, obs[:a.minibatch], a.chunk, a.minibatch, 1)      # warm-up
        ts, cs = [], []
        for _ in range(a.reps):
            t, c = time.perf_counter(), time.process_time()
            iteration(pol, opt, obs, a.chunk, a.minibatch, a.epochs)
            ts.append(time.perf_counter() - t)
            cs.append(time.process_time() - c)
        n = sum(p.numel() for p in pol.parameters())
        print(f"{arch:22s} params {n:>9,d}  {a.rows / statistics.median(ts):>9,.0f} agent-steps/s "
              f"(median of {a.reps}: {statistics.median(ts):.3f} s per iteration; "
              f"{a.rows / statistics.median(cs):,.0f} agent-steps per CPU second)", flush=True)


if __name__ == "__main__":
    main()

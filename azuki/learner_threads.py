"""azuki.learner_threads — a minibatch's forward and backward split across
threads (`[ppo] learner_threads`): the one mechanism behind PPO's update
(azuki.envs.ppo_update) and the distillation fits (azuki.distill.fit_epochs:
the kickstart, the expert rounds). Needs torch (the `train` extra).

Why rows and not operations: on a CPU this network's products are small, and
more torch threads inside each operation make an update slower (the barriers
cost more than they save; docs/training.md, Ablation). Splitting the ROWS of
a minibatch into shares, each thread running the whole forward and backward
of its share on one core, keeps every operation as large as it is on one
thread: 1.55-1.65x per update on 2 cores.

Invariants:
  * a share's loss is its rows' SUM divided by the minibatch's row count, so
    the shares' losses add up to the minibatch's mean and their gradients
    (torch.autograd.grad: one tuple per share, no .grad written by two
    threads) to its gradient; sum_grads adds them in share order, so a run
    is deterministic for a fixed thread count and equals the one-thread
    update to float rounding;
  * share 0 runs on the calling thread, the others on the pool's workers
    (threads - 1 of them); Shares.run returns the results in share order and
    re-raises a worker's exception on the calling thread;
  * the pool's threads are named "azuki-learner"; Shares.close() ends them.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

MAX_THREADS = 16


def check_threads(threads):
    """ValueError unless `threads` is a thread count (an int in 1..MAX_THREADS)."""
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"ppo.learner_threads must be an integer in 1..{MAX_THREADS}, got {threads!r}")
    return threads


def shares(n, threads):
    """[(lo, hi)]: n rows (or segments) in min(threads, n) contiguous shares, as equal as can be."""
    k = max(1, min(int(threads), n))
    bounds = [n * i // k for i in range(k + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(k)]


class Shares:
    """A pool of threads - 1 workers for Shares.run (none for 1 thread)."""

    def __init__(self, threads):
        self.threads = check_threads(threads)
        self.pool = ThreadPoolExecutor(threads - 1, thread_name_prefix="azuki-learner") if threads > 1 else None

    def run(self, fn, jobs):
        """[fn(*job) for job in jobs], job 0 on this thread and the rest on the workers at once."""
        if self.pool is None:
            return [fn(*job) for job in jobs]
        futures = [self.pool.submit(fn, *job) for job in jobs[1:]]
        first = fn(*jobs[0])
        return [first] + [f.result() for f in futures]

    def close(self):
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def sum_grads(params, grad_tuples):
    """Add the shares' gradient tuples (torch.autograd.grad's, None where a parameter was unused)
    to each parameter's .grad, in share order."""
    for k, p in enumerate(params):
        gs = [g[k] for g in grad_tuples if g is not None and g[k] is not None]
        if not gs:
            continue
        total = gs[0]
        for x in gs[1:]:
            total = total + x
        p.grad = total if p.grad is None else p.grad + total


__all__ = ["MAX_THREADS", "check_threads", "shares", "Shares", "sum_grads"]

"""azuki.envs.ppo_update — PuffeRL's PPO update (PuffeRL.train, pufferlib 3.0.0
pufferl.py:312-448) with each minibatch's forward and backward split across
threads (`[ppo] learner_threads`; docs/training.md "Speed").

Why, and the split's invariants (shares, their losses and gradients,
share order): azuki.learner_threads, the one mechanism for this update and
the distillation fits.

The update is PuffeRL.train's, step for step, with the same random draws
(the same `torch.multinomial` of each minibatch's segments), so a run is the
same run up to float rounding:
  * per minibatch: advantages by pufferl.compute_puff_advantage from the
    stored values and ratios, the prioritized segment sample, the
    advantages normalized over the WHOLE minibatch (before the split), the
    clipped policy loss, the clipped value loss and the entropy bonus, each a
    mean over the minibatch's rows; ratios and values written back for the
    next minibatch's advantages; gradient clipping and the optimizer step
    (every accumulate_minibatches minibatches);
  * the split: the minibatch's segments in `threads` contiguous shares
    (azuki.learner_threads), each share's losses its rows' sums over the
    minibatch's row count;
  * the logged losses, approx_kl, clipfrac, importance and the explained
    variance as PuffeRL computes them; the epoch count, the learning-rate
    schedule, the log and checkpoint cadence as PuffeRL's.
A policy's extra loss (azuki.policy.Policy.extra_loss, the expert imitation
term) is computed once per minibatch on the calling thread, its gradient
added to the shares' (in PuffeRL's update it reaches backward through the
value output: the same sum).

tests/envs/test_ppo_update.py: from the same trainer state, PuffeRL.train
and this update (1, 2 and 3 threads) give the same parameters, optimizer
state, stored values and ratios, and losses, to float rounding;
tests/envs/test_train.py: a seed trains the same checkpoint twice (the
default, 2 threads).
"""
from __future__ import annotations

import time
from collections import defaultdict
from typing import NamedTuple

from ..learner_threads import Shares, shares, sum_grads


class _Part(NamedTuple):
    """What one share's forward and backward give back (_share)."""
    grads: tuple
    ratio: object
    logratio: object
    value: object
    pg_loss: object
    v_loss: object
    entropy: object


class ParallelUpdate:
    """trainer.train replacement (make_trainer installs it when learner_threads > 1): the PPO
    update with each minibatch split across `threads` threads (module docstring). close()
    ends its worker threads."""

    def __init__(self, trainer, threads):
        self.trainer, self.shares = trainer, Shares(threads)      # Shares refuses a bad count

    def close(self):
        self.shares.close()

    def __call__(self):
        return update(self.trainer, self.shares)


def _share(policy, params, sample_logits, obs, actions, logprobs, adv, returns, values, n_rows, cfg):
    """One share's _Part (gradients, ratio, log-ratio, new values, policy loss, value loss, entropy
    sum), its losses divided by the minibatch's row count n_rows (their sums over the shares are
    the minibatch's means)."""
    import torch
    clip_coef, vf_clip = cfg["clip_coef"], cfg["vf_clip_coef"]
    # rows: the minibatch's row count, so a per-row term inside the forward (the privileged critic's fit of the
    # player's value head) is summed over the share / n_rows, as the losses here
    logits, newvalue = policy(obs, dict(action=actions, lstm_h=None, lstm_c=None, rows=n_rows))
    _, newlogprob, entropy = sample_logits(logits, action=actions)
    newlogprob = newlogprob.reshape(logprobs.shape)
    logratio = newlogprob - logprobs
    ratio = logratio.exp()
    pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)).sum() / n_rows
    newvalue = newvalue.view(returns.shape)
    v_clipped = values + torch.clamp(newvalue - values, -vf_clip, vf_clip)
    v_loss = 0.5 * torch.max((newvalue - returns) ** 2, (v_clipped - returns) ** 2).sum() / n_rows
    ent = entropy.sum() / n_rows
    loss = pg_loss + cfg["vf_coef"] * v_loss - cfg["ent_coef"] * ent
    grads = torch.autograd.grad(loss, params, allow_unused=True)
    return _Part(grads, ratio.detach(), logratio.detach(), newvalue.detach(), pg_loss.detach(), v_loss.detach(),
                 ent.detach())


def update(trainer, pool):
    """One PPO update of `trainer` (a PuffeRL) on its stored rollout, each minibatch split across
    the threads of `pool` (a learner_threads.Shares; module docstring); returns what
    PuffeRL.train returns (its logs, or None)."""
    import torch
    from pufferlib import pufferl, pytorch

    self = trainer
    profile = self.profile
    epoch = self.epoch
    profile("train", epoch)
    losses = defaultdict(float)
    config = self.config
    device = config["device"]
    b0, a = config["prio_beta0"], config["prio_alpha"]
    anneal_beta = b0 + (1 - b0) * a * self.epoch / self.total_epochs
    self.ratio[:] = 1
    policy = self.policy
    params = [p for p in policy.parameters() if p.requires_grad]
    sample_logits = pytorch.sample_logits     # looked up per update, as PuffeRL does (masked_sampling's hook)
    obs_shape = self.vecenv.single_observation_space.shape
    extra_hook = getattr(policy, "extra_loss", None)
    advantages = None

    for mb in range(self.total_minibatches):
        profile("train_misc", epoch, nest=True)
        advantages = torch.zeros(self.values.shape, device=device)
        advantages = pufferl.compute_puff_advantage(self.values, self.rewards, self.terminals, self.ratio, advantages,
                                                    config["gamma"], config["gae_lambda"], config["vtrace_rho_clip"],
                                                    config["vtrace_c_clip"])
        profile("train_copy", epoch)
        adv = advantages.abs().sum(axis=1)
        prio_weights = torch.nan_to_num(adv ** a, 0, 0, 0)
        prio_probs = (prio_weights + 1e-6) / (prio_weights.sum() + 1e-6)
        idx = torch.multinomial(prio_probs, self.minibatch_segments)
        mb_prio = (self.segments * prio_probs[idx, None]) ** -anneal_beta
        mb_obs = self.observations[idx]
        mb_actions = self.actions[idx]
        mb_logprobs = self.logprobs[idx]
        mb_values = self.values[idx]
        mb_returns = advantages[idx] + mb_values
        mb_adv = advantages[idx]
        mb_adv = mb_prio * (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)    # over the whole minibatch

        profile("train_forward", epoch)
        n_rows = mb_logprobs.numel()
        jobs = [(policy, params, sample_logits, mb_obs[lo:hi].reshape(-1, *obs_shape), mb_actions[lo:hi],
                 mb_logprobs[lo:hi], mb_adv[lo:hi], mb_returns[lo:hi], mb_values[lo:hi], n_rows, config)
                for lo, hi in shares(len(idx), pool.threads)]
        policy.extra_loss = None            # the extra loss is computed once, below, not per share
        try:
            parts = pool.run(_share, jobs)
            extra_grads = None
            if extra_hook is not None:
                extra = extra_hook(policy)
                if extra is not None:
                    extra_grads = torch.autograd.grad(extra, params, allow_unused=True)
        finally:
            policy.extra_loss = extra_hook

        profile("train_misc", epoch)
        ratio = torch.cat([p.ratio for p in parts])
        logratio = torch.cat([p.logratio for p in parts])
        newvalue = torch.cat([p.value for p in parts])
        self.ratio[idx] = ratio
        with torch.no_grad():
            old_approx_kl = (-logratio).mean()
            approx_kl = ((ratio - 1) - logratio).mean()
            clipfrac = ((ratio - 1.0).abs() > config["clip_coef"]).float().mean()
        pg_loss = sum(p.pg_loss for p in parts)
        v_loss = sum(p.v_loss for p in parts)
        entropy_loss = sum(p.entropy for p in parts)
        self.values[idx] = newvalue.float()
        losses["policy_loss"] += pg_loss.item() / self.total_minibatches
        losses["value_loss"] += v_loss.item() / self.total_minibatches
        losses["entropy"] += entropy_loss.item() / self.total_minibatches
        losses["old_approx_kl"] += old_approx_kl.item() / self.total_minibatches
        losses["approx_kl"] += approx_kl.item() / self.total_minibatches
        losses["clipfrac"] += clipfrac.item() / self.total_minibatches
        losses["importance"] += ratio.mean().item() / self.total_minibatches

        profile("learn", epoch)
        sum_grads(params, [p.grads for p in parts] + [extra_grads])     # in share order, the extra loss's last
        if (mb + 1) % self.accumulate_minibatches == 0:
            torch.nn.utils.clip_grad_norm_(policy.parameters(), config["max_grad_norm"])
            self.optimizer.step()
            self.optimizer.zero_grad()

    profile("train_misc", epoch)
    if config["anneal_lr"]:
        self.scheduler.step()
    y_pred = self.values.flatten()
    y_true = advantages.flatten() + self.values.flatten()
    var_y = y_true.var()
    explained_var = torch.nan if var_y == 0 else 1 - (y_true - y_pred).var() / var_y
    losses["explained_variance"] = float(explained_var)

    profile.end()
    logs = None
    self.epoch += 1
    done_training = self.global_step >= config["total_timesteps"]
    if done_training or self.global_step == 0 or time.time() > self.last_log_time + 0.25:
        logs = self.mean_and_log()
        self.losses = losses
        self.print_dashboard()
        self.stats = defaultdict(list)
        self.last_log_time = time.time()
        self.last_log_step = self.global_step
        profile.clear()
    if self.epoch % config["checkpoint_interval"] == 0 or done_training:
        self.save_checkpoint()
        self.msg = f"Checkpoint saved at update {self.epoch}"
    return logs

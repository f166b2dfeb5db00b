"""azuki.envs.crollout — the learner acting in C during PuffeRL's rollout (`[ppo] c_rollout`, on by default;
docs/training.md "Speed").

PuffeRL.evaluate (pufferlib 3.0.0, pufferl.py:254-255) runs ``policy.forward_eval`` on each round's
observations, then ``pufferlib.pytorch.sample_logits`` on its first output (azuki.sampler.sample_logits while
azuki trains), and stores the action, its log-probability and the value. In torch that is ~70 small
operations per round on one thread. With the C rollout, for the length of each evaluate() call
(`CRollout.acting`, installed on the trainer by azuki.envs.pufferl_adapter.make_trainer):

  * the policy's current weights are exported once (azuki.policy.state_azkw, float32) and loaded as a CPolicy
    (csrc/policy.c, the forward pass the league's snapshots and the policy bots run);
  * the policy's forward_eval is `CRollout.forward_eval`: it draws the uniforms the sampler would have drawn
    (torch.rand, float64, one per row, from torch's global generator: the same draws in the same order, so a
    seed gives one run), acts in C (CPolicy.act(..., with_value=True, with_logp=True): azk_policy_sample) on
    the rows split across `threads` threads (the C call runs without the GIL) and returns a `Presampled` in
    place of the distribution, which azuki.sampler.sample_logits hands back as (action, log-probability).

What C computes equals torch to float rounding: the same action for the same uniform except at an interval's
edge, |delta log-probability| and |delta value| <= 1e-4 (tests/envs/test_crollout.py); the update recomputes
both in torch from the stored observations, so PPO's first-epoch ratio is 1 to that rounding.

Torch acts instead (the same forward_eval as without this module) for a privileged policy (its rollout value
reads the opponent seat's view, which the C forward does not take), parameters on a device other than the
CPU, rows that are not OBS_LEN-wide uint8 observations, or weights the C loader refuses (a network it does not
know: `refused` says why; `azuki train` logs it once).
"""
from __future__ import annotations

import contextlib

import numpy as np

from .. import _core
from ..learner_threads import Shares, shares


class Presampled:
    """forward_eval's first output when C acted: the rows' actions (int32 [B]) and their log-probabilities
    (float32 [B]); azuki.sampler.sample_logits returns them (a training pass cannot take one)."""
    __slots__ = ("actions", "logp")

    def __init__(self, actions, logp):
        self.actions, self.logp = actions, logp

    @property
    def shape(self):
        return (int(self.actions.shape[0]), _core.NUM_ACTIONS)


class CRollout:
    """The C rollout of one torch policy (module docstring); `threads`: the C calls of a round in that many
    shares of its rows (azuki.learner_threads.Shares). close() ends the threads."""

    def __init__(self, policy, threads=1):
        self.policy, self.pool, self.cpol = policy, Shares(threads), None
        self.refused = None         # why the C loader refused the weights (then torch acts), once it has

    def usable(self):
        """C can act for this policy: not privileged, every parameter on the CPU."""
        return getattr(self.policy, "priv", None) is None and all(
            p.device.type == "cpu" for p in self.policy.parameters())

    @contextlib.contextmanager
    def acting(self):
        """Within the block the policy's forward_eval acts in C on its weights as they are at entry (exported
        once); the class's forward_eval is back on the way out, whatever happens."""
        if not self.usable():
            yield
            return
        from ..policy import state_azkw
        try:
            self.cpol = _core.CPolicy.from_bytes(state_azkw(self.policy))
        except _core.PolicyFileError as e:      # a network the C forward does not know: torch acts, as without
            self.refused = str(e)
            yield
            return
        self.policy.forward_eval = self.forward_eval     # an instance attribute: shadows the class's method
        try:
            yield
        finally:
            del self.policy.forward_eval
            self.cpol = None

    def forward_eval(self, observations, state=None):
        """(Presampled, value float32 [B, 1]) of uint8 rows [B, OBS_LEN] on the CPU without gradients; anything
        else goes to the policy's own forward_eval."""
        import torch
        obs = observations
        if (self.cpol is None or torch.is_grad_enabled() or obs.device.type != "cpu" or obs.dtype != torch.uint8
                or obs.dim() != 2 or obs.shape[1] != _core.OBS_LEN):
            return type(self.policy).forward_eval(self.policy, observations, state)
        b = obs.shape[0]
        u = torch.rand(b, dtype=torch.float64)           # what azuki.sampler.sample_logits would draw
        o, un = np.ascontiguousarray(obs.numpy()), u.numpy()
        parts = self.pool.run(self._act, [(o[lo:hi], un[lo:hi]) for lo, hi in shares(b, self.pool.threads)])
        a, v, lp = (np.concatenate(x) for x in zip(*parts))
        return Presampled(torch.from_numpy(a), torch.from_numpy(lp)), torch.from_numpy(v).unsqueeze(1)

    def _act(self, obs, u):
        return self.cpol.act(obs, u=u, with_value=True, with_logp=True)

    def close(self):
        self.pool.close()


__all__ = ["CRollout", "Presampled"]

"""azuki.sampler — the fast masked sampler: the one adapter between azuki's
policies and PuffeRL's action sampling (docs/training.md, "Sampling").

PuffeRL 3.0.0 samples actions and recomputes log-probabilities and entropy
itself, through ``pufferlib.pytorch.sample_logits(logits, action=None)``,
called by module attribute in two places: ``PuffeRL.evaluate`` (rollout:
sample, keep the log-probability) and ``PuffeRL.train`` (the same logits
recomputed on the stored observations: the log-probability of the stored
action and the entropy). Its version runs ``torch.multinomial`` over all
NUM_ACTIONS (1,056) logits per row and a dense logsumexp / exp over logits
that azuki's policies set to MASKED_LOGIT (-1e9) where illegal, the slow
underflow path of those kernels. `installed()` (the PuffeRL adapter's
masked_sampling, azuki/envs/pufferl_adapter.py) swaps in `sample_logits`
below for the length of a training run and puts PuffeRL's back afterwards.

The distribution. azuki's policies mark an illegal action by the logit
MASKED_LOGIT (azuki.envs.apply_mask); an entry is legal when its logit is
above MASKED_LOGIT / 2 (a trained policy's logits are many orders of
magnitude away from either). The policy is the categorical distribution over
the legal entries only: p(a) = exp(l_a - m) / sum_legal exp(l_b - m), m the
row's largest logit. A row without any legal entry (never produced by the
engine) is uniform over all entries, as PuffeRL's own computation gives.
Every quantity is computed on the legal entries alone (a compact list of
(row, column) pairs): the log-probability of an action is exact under the
mask (no -1e9 term is exponentiated), the entropy is the entropy of that
masked distribution, -sum_legal p log p in nats (illegal entries contribute
exactly 0, as they do in the dense formula), and both are differentiable
(PPO's entropy bonus and ratio). Sampling is by inverse CDF on the legal
entries with one uniform per row (float64 cumulative sums), so a caller that
supplies the uniforms (`sample(logits, u)`) gets actions that depend only on
them: the league's keyed opponents use that to make a batched forward give
exactly the actions of per-env forwards (azuki.envs.puffer.play_opponents).

The factored head (azuki.policy, head "factored") returns a distribution
object (azuki.policy.Factored) in place of logits; `sample_logits` samples it
(hierarchical inverse CDF, one uniform per row: the same action the flat
inverse CDF of that distribution gives) and asks it for the exact
log-probability of the stored action and its entropy. PuffeRL 3.0.0 does
nothing else with the policy's first output: evaluate() passes it to
sample_logits and checks isinstance(..., torch.distributions.Normal); train()
passes it to sample_logits with the stored actions (pufferl.py, read for this).
"""
from __future__ import annotations

import numpy as np
import torch

from . import _core
from .envs import MASKED_LOGIT
from .envs.crollout import Presampled

LEGAL_THRESHOLD = MASKED_LOGIT / 2


def legal_entries(logits, row_max=None):
    """bool [B, A]: the legal entries of masked logits [B, A] (rows without any
    legal entry count every entry as legal). row_max: logits.amax(-1), when
    the caller has it (a row is empty when its largest logit is masked)."""
    legal = logits > LEGAL_THRESHOLD
    empty = (logits.amax(dim=-1) if row_max is None else row_max) <= LEGAL_THRESHOLD
    if bool(empty.any()):
        legal[empty] = True
    return legal


class Masked:
    """The masked categorical distribution of logits [B, A] (module docstring),
    kept in compact form: rows, cols (the legal entries, row-major), logp
    (their log-probabilities, differentiable) and the row maxima."""

    def __init__(self, logits):
        if logits.dim() != 2:
            raise ValueError(f"masked sampler: logits must be [batch, actions], got shape {tuple(logits.shape)}")
        self.logits = logits
        b = logits.shape[0]
        self.m = logits.detach().amax(dim=-1)        # a legal entry's logit (illegal ones are -1e9)
        if bool(torch.isnan(self.m).any()):
            raise FloatingPointError("masked sampler: the policy produced NaN logits")
        self.rows, self.cols = legal_entries(logits.detach(), self.m).nonzero(as_tuple=True)
        z = logits[self.rows, self.cols] - self.m[self.rows]
        s = torch.zeros(b, dtype=logits.dtype, device=logits.device).index_add(0, self.rows, z.exp())
        self.lse = s.log()                           # log sum_legal exp(l - m), per row
        self.logp = z - self.lse[self.rows]

    def log_prob(self, action):
        """Log-probabilities [B] of the actions [B] (exact under the mask)."""
        a = action.reshape(-1).long()
        idx = torch.arange(a.shape[0], device=a.device)
        return self.logits[idx, a] - self.m - self.lse

    def entropy(self):
        """-sum_legal p log p per row [B], in nats."""
        p_logp = self.logp.exp() * self.logp
        return -torch.zeros(self.logits.shape[0], dtype=self.logp.dtype,
                            device=self.logp.device).index_add(0, self.rows, p_logp)

    def sample(self, u):
        """int64 [B]: the legal action whose cumulative probability interval
        holds u [B] (uniforms in [0, 1)): inverse CDF on the legal entries."""
        b = self.logits.shape[0]
        p = self.logp.detach().double().exp()
        c = torch.cumsum(p, 0)
        counts = torch.bincount(self.rows, minlength=b)
        ends = torch.cumsum(counts, 0)
        starts = ends - counts
        base = torch.where(starts > 0, c[(starts - 1).clamp(min=0)], torch.zeros_like(c[:1]).expand(b))
        total = c[ends - 1] - base
        t = base + u.to(c.device, torch.float64).reshape(-1) * total
        i = torch.searchsorted(c, t, right=True)
        i = torch.minimum(torch.maximum(i, starts), ends - 1)
        return self.cols[i]


def sample(logits, u):
    """(actions int64 [B], log-probabilities [B]) of masked logits [B, A],
    sampled with the given uniforms u [B] (module docstring)."""
    d = Masked(logits)
    a = d.sample(u)
    return a, d.log_prob(a)


def sample_logits(logits, action=None):
    """Drop-in for pufferlib.pytorch.sample_logits on a discrete head:
    (action, log-probability, entropy). Without `action`: sample one per row
    (uniforms from torch's global generator, which train() seeds). With
    `action`: their log-probabilities and the entropy (the training pass).
    A factored head's distribution (azuki.policy.Factored, in place of the
    logits): sampled by its hierarchical inverse CDF with one uniform per row,
    its exact log-probabilities and its entropy (azuki.policy's docstring).
    The C rollout's Presampled (azuki.envs.crollout: C sampled with the same
    uniforms): its actions and their log-probabilities, no entropy (the
    rollout discards it). Anything else (MultiDiscrete heads, continuous
    actions) goes to PuffeRL's own function."""
    if isinstance(logits, Presampled):               # C acted (azuki.envs.crollout)
        if action is not None:
            raise TypeError("sample_logits: the C rollout's actions have no distribution to recompute "
                            "(the training pass runs the torch forward)")
        return logits.actions, logits.logp, None
    if hasattr(logits, "log_prob_entropy"):          # azuki.policy.Factored
        if action is None:
            u = torch.rand(logits.shape[0], dtype=torch.float64, device=logits.h.device)
            action = logits.sample(u).int()
        logp, ent = logits.log_prob_entropy(action)
        return action, logp, ent
    if not isinstance(logits, torch.Tensor) or logits.dim() != 2:
        return _original()(logits, action)
    d = Masked(logits)
    if action is None:
        u = torch.rand(logits.shape[0], dtype=torch.float64, device=logits.device)
        action = d.sample(u).int()
    return action, d.log_prob(action), d.entropy()


def _original():
    import pufferlib.pytorch
    return getattr(pufferlib.pytorch.sample_logits, "_azuki_original", pufferlib.pytorch.sample_logits)


def installed():
    """Within the block, PuffeRL samples with `sample_logits` above (it looks
    the function up in pufferlib.pytorch at every call); PuffeRL's own
    function is restored on the way out, whatever happens. The patch itself
    is azuki.envs.pufferl_adapter.masked_sampling (the one module that
    touches PuffeRL's internals); this name stays for callers of the
    sampler."""
    from .envs.pufferl_adapter import masked_sampling
    return masked_sampling()


# ---- keyed uniforms (reproducible per game and decision, whatever the batching) --------------------------------

_M64 = (1 << 64) - 1


def keyed_uniforms(seed, keys):
    """float64 uniforms in [0, 1), keys' shape, each a function of (seed, key)
    alone (splitmix64 of the key mixed with the seed): the same game decision
    gets the same number whether it is sampled alone or in a batch. Computed
    by the C hash (azk_keyed_uniform, through azuki._core.keyed_uniforms_c),
    the one the C forward's keyed sampling uses: the mixer is written once
    (csrc/rng.h), not again here in numpy."""
    k = np.asarray(keys, dtype=np.uint64)
    return _core.keyed_uniforms_c(int(seed) & _M64, k.reshape(-1)).reshape(k.shape)


__all__ = ["Masked", "sample", "sample_logits", "installed", "keyed_uniforms", "legal_entries", "LEGAL_THRESHOLD"]

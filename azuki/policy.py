"""azuki.policy — the policy networks for azuki observations, and checkpoints.

Needs torch (the `train` extra); never pufferlib: a checkpoint trained with
PuffeRL loads and plays anywhere torch is installed.

A policy is an ENCODER (observation -> trunk state h and the entities an
action can name) and a HEAD (h, entities, legal mask -> the masked action
distribution), plus a value head on h. `make_policy(arch, head=...)`; the
architecture spec "ARCH" or "ARCH:HEAD" (the config's policy.arch; a spec
without a head means "dense", the head of the older checkpoints):

Encoders
  * "structured": one card embedding shared by every card identity; the 24
    field places, 50 hand slots and 64 prompt options each through one shared
    entity encoder (their features + the card's embedding + a learned position
    embedding), all of the same width D (ent_dim); the card multisets and
    identity lists (deck, discard piles, the opponent's unseen and known cards,
    looked-at cards, known deck positions) as count-weighted bags of card
    vectors; the scalars through a small layer; the trunk MLP reads the places
    in place order, the pooled hand and options, the bags and the scalars.
    The entities (places, hand slots, options) are what the factored head
    points at.
  * "flat": the baseline, one MLP over every observation value; its entities
    are learned constants (the factored head then scores actions linearly).
  The observation side is ONE function, `obs_inputs` (its numpy twin
  azuki.policy_np.obs_inputs), from a raw batch to entity tensors.

Heads
  * "dense": one linear layer to the NUM_ACTIONS (1,056) flat logits, masked
    with MASKED_LOGIT (azuki.envs.apply_mask); azuki.sampler.Masked samples it.
  * "factored": the action as (type, p0, p1) (azuki.envs.HEADS; flat ids are
    type-major, then p0, then p1), each level a softmax over the values that
    have at least one legal completion under the flat mask:
      type  14 logits from h;
      p0    given the type, q_t(h) . entity(p0) + b0[t, p0]: a hand slot's
            encoding (play types), my place's (ATTACK's attacker, the defender,
            PORTAL_GATE's alley slot, an ability's source), an option's
            (CHOOSE); a type with one p0 value has that value;
      p1    given (type, p0), from z = relu(Wh_k h + We_k entity(p0)) (k the
            type's p1 kind): z . entity(target place) for garden / alley slots,
            weapon holders and attack targets (the opponent's places), a linear
            layer of z for the ability index; + b1[k, p1].
    log pi(a) = log p(t) + log p(p0 | t) + log p(p1 | t, p0), exact under the
    mask: the probabilities of the legal flat actions sum to 1, illegal ones
    get exactly 0 (tests/envs/test_head.py). A row with no legal action at all
    (never one the engine asks to decide) counts every action as legal.
    No 1,056-wide layer: per row 14 + 14 x (N_ENT + 1) scores, and p1 only at
    the one (type, p0) sampled or taken.
    Sampling: hierarchical inverse CDF with ONE uniform per row (the uniform
    is rescaled into the chosen interval at each level); as flat ids are
    ordered (type, p0, p1), this is exactly the action that the flat inverse
    CDF of the same distribution gives for that uniform (float64; tested).
    Entropy (PPO's bonus): H(type) + sum_t p(t) H(p0 | t) + H(p1 | t*, p0*),
    the first two terms exact, the last at the taken action (t*, p0*): its
    expectation over the policy's actions is the exact entropy's remaining
    term, so the whole is an unbiased estimate of the policy's entropy
    (docs/training.md, "Sampling").
  The head's forward returns a `Factored` distribution object in place of
  logits; azuki.sampler.sample_logits (the one PuffeRL hook) samples it and
  computes log-probabilities and the entropy.

A checkpoint is `NAME.json` (the model config incl. the head, the arch spec,
the training config, the hashes of the observation layout, the card set and
the action space, and the name, size and sha256 of each data file) and the
files it names: a plain torch state dict (`NAME.gNNNNNN.pt`) and, for
training, the optimizer state (`NAME.gNNNNNN.opt.pt`); written by the commit
protocol of azuki.policy_np.commit_checkpoint (NAME.json is the commit point).
`load_checkpoint` refuses a checkpoint whose hashes differ from this build's
and the card set in use (policy_np.check_compat, the one compatibility check),
with a message naming what changed. azuki.policy_np mirrors every
architecture / head pair in numpy (tests/envs/test_policy_np.py).
"""
from __future__ import annotations

import io
import os

import numpy as np
import torch
import torch.nn as nn

from .envs import MASKED_LOGIT, MASK_OFFSET, NUM_ACTIONS, OBS_LEN, mask_from_obs
# The tables and the compatibility checks live in the torch-free azuki.policy_np (the browser's
# numpy player uses the same ones).
from .policy_np import (ENT_NULL, FEATURE_OPS, N_ENT, N_HAND, N_OPT, N_PLACES, CheckpointError, action_space_hash,  # noqa: F401
                        base_path, cardset_hash, check_compat, commit_checkpoint, compat_hashes, head_tables,
                        layout_hash, meta_arch, obs_tables, parse_arch, read_meta, resolve_checkpoint,
                        upgrade_weights)

CHECKPOINT_FORMAT = 1


# ---- the observation side: raw batch -> entity tensors ---------------------------------------

class _ObsIndex(nn.Module):
    """obs_tables() as (non-persistent) buffers, so they follow the module to its device."""

    def __init__(self):
        super().__init__()
        t = obs_tables()
        self.n_cards, self.n_bags = t["n_cards"], t["n_bags"]
        self.blocks = {}
        for k, v in t.items():
            if isinstance(v, np.ndarray):
                self.register_buffer(k, torch.as_tensor(v), persistent=False)
            elif isinstance(v, dict) and k != "dims":
                names = []
                for op in FEATURE_OPS:
                    col, const = v[op]
                    if col.shape[1]:
                        self.register_buffer(f"{k}_{op}_col", torch.as_tensor(col), persistent=False)
                        self.register_buffer(f"{k}_{op}_k", torch.as_tensor(const), persistent=False)
                        names.append(op)
                self.blocks[k] = names

    def features(self, u, s, name):
        """float32 [B, R, F] features of block `name` (azuki.policy_np._features)."""
        parts = []
        for op in self.blocks[name]:
            col, k = getattr(self, f"{name}_{op}_col"), getattr(self, f"{name}_{op}_k")
            if op == "NUM":
                parts.append(u[:, col].float() * k)
            elif op == "SNUM":
                parts.append(s[:, col].float() * k)
            elif op == "EQ":
                parts.append((u[:, col] == k).float())
            elif op == "GT":
                parts.append((u[:, col] > k).float())
            else:
                parts.append(((u[:, col].long() >> k) & 1).float())
        return torch.cat(parts, dim=-1)


def obs_inputs(ix, obs):
    """THE observation side of the torch networks (azuki.policy_np.obs_inputs is its numpy
    twin): uint8 observations [..., OBS_LEN (+ extra columns)] -> {place_x [B, 24, F],
    place_id [B, 24], hand_x, hand_id, opt_x, opt_id, bags (card counts [B, n_bags, n_cards]),
    glob_x [B, G], glob_id [B, K], flat [B, W], mask [B, NUM_ACTIONS]}. Every field is read
    as its kind says (azuki.obs_layout(): ID an embedding index, ENUM / PLACE one-hot, NUM
    value / n, SNUM signed value / n, BITS unpacked), the tables built once in
    azuki.policy_np.obs_tables."""
    if obs.dtype != torch.uint8 or obs.shape[-1] < OBS_LEN:
        raise ValueError(f"observations are uint8 with at least OBS_LEN = {OBS_LEN} entries on the last axis, "
                         f"got dtype {obs.dtype} shape {tuple(obs.shape)}")
    u = obs.reshape(-1, obs.shape[-1])
    s = u.view(torch.int8)
    b, nc = u.shape[0], ix.n_cards
    idx = ix.list_bag * nc + u[:, ix.list_cols].long()
    counts = torch.zeros(b, ix.n_bags * nc, device=u.device).scatter_add_(
        1, idx, torch.ones(idx.shape, device=u.device)).reshape(b, ix.n_bags, nc)
    counts[..., 0] = 0.0
    return dict(place_x=ix.features(u, s, "place"), place_id=u[:, ix.place_id].long(),
                hand_x=ix.features(u, s, "hand"), hand_id=u[:, ix.hand_id].long(),
                opt_x=ix.features(u, s, "opt"), opt_id=u[:, ix.opt_id].long(), bags=counts,
                glob_x=ix.features(u, s, "glob")[:, 0], glob_id=u[:, ix.glob_id].long(),
                flat=ix.features(u, s, "flat")[:, 0], mask=mask_from_obs(u))


# ---- encoders ---------------------------------------------------------------------------------

class StructuredEncoder(nn.Module):
    """The entity encoder (module docstring): forward(inputs) -> (h [B, hidden], entities [B, N_ENT, D])."""

    def __init__(self, hidden, card_dim, ent_dim, bag_dim=128, glob_dim=64):
        super().__init__()
        t = obs_tables()
        nc, dims = t["n_cards"], t["dims"]
        self.card = nn.Embedding(nc, card_dim)
        self.place_x = nn.Linear(dims["place"], ent_dim)
        self.place_c = nn.Linear(card_dim, ent_dim, bias=False)
        self.place_pos = nn.Parameter(torch.randn(N_PLACES, ent_dim) * 0.1)
        self.hand_x = nn.Linear(dims["hand"], ent_dim)
        self.hand_c = nn.Linear(card_dim, ent_dim, bias=False)
        self.hand_pos = nn.Parameter(torch.randn(N_HAND, ent_dim) * 0.1)
        self.opt_x = nn.Linear(dims["opt"], ent_dim)
        self.opt_c = nn.Linear(card_dim, ent_dim, bias=False)
        self.opt_pos = nn.Parameter(torch.randn(N_OPT, ent_dim) * 0.1)
        self.bags = nn.Linear(t["n_bags"] * card_dim, bag_dim)
        self.glob = nn.Linear(dims["glob"] + len(t["glob_id"]) * card_dim, glob_dim)
        trunk_in = N_PLACES * ent_dim + 2 * ent_dim + bag_dim + glob_dim
        self.trunk = nn.Sequential(nn.Linear(trunk_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())

    def forward(self, inp):
        relu = torch.relu
        emb = self.card.weight
        b = inp["place_x"].shape[0]
        # the card part of each entity layer: project the (small) embedding table, then gather
        places = relu(self.place_x(inp["place_x"]) + self.place_c(emb)[inp["place_id"]] + self.place_pos)
        hand = relu(self.hand_x(inp["hand_x"]) + self.hand_c(emb)[inp["hand_id"]] + self.hand_pos)
        opts = relu(self.opt_x(inp["opt_x"]) + self.opt_c(emb)[inp["opt_id"]] + self.opt_pos)
        bags = relu(self.bags(torch.matmul(inp["bags"], emb).reshape(b, -1)))
        glob = relu(self.glob(torch.cat([inp["glob_x"], emb[inp["glob_id"]].reshape(b, -1)], dim=1)))
        x = torch.cat([places.reshape(b, -1), hand.sum(dim=1), opts.sum(dim=1), bags, glob], dim=1)
        return self.trunk(x), torch.cat([places, hand, opts], dim=1)


class FlatEncoder(nn.Module):
    """The baseline: one MLP over every observation value; entities (for the factored head) are
    learned constants."""

    def __init__(self, hidden, ent_dim, entities):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_tables()["dims"]["flat"], hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                                 nn.ReLU())
        self.ent = nn.Parameter(torch.randn(N_ENT, ent_dim) * 0.1) if entities else None

    def forward(self, inp):
        h = self.net(inp["flat"])
        return h, (self.ent[None] if self.ent is not None else None)


# ---- heads ------------------------------------------------------------------------------------

class _HeadIndex(nn.Module):
    """head_tables() as (non-persistent) buffers."""

    def __init__(self):
        super().__init__()
        tb = head_tables()
        for k, v in tb.items():
            if isinstance(v, np.ndarray):
                self.register_buffer(k, torch.as_tensor(v), persistent=False)
        self.T, self.P0, self.P1, self.K, self.NG0 = tb["T"], tb["P0"], tb["P1"], tb["K"], tb["NG0"]


def _mls(x, legal):
    """Log-softmax over the last axis restricted to `legal` (each row has one legal entry); 0
    where illegal. No -1e9 term is exponentiated and no NaN reaches a gradient."""
    lse = torch.logsumexp(x.masked_fill(~legal, float("-inf")), dim=-1, keepdim=True)
    return torch.where(legal, x - lse, torch.zeros_like(x))


def _plogp(logp, legal):
    return torch.where(legal, logp.exp() * logp, torch.zeros_like(logp))


class DenseHead(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.actor = nn.Linear(hidden, NUM_ACTIONS)
        nn.init.normal_(self.actor.weight, std=0.01)
        nn.init.zeros_(self.actor.bias)

    def forward(self, h, ent, mask):
        return self.actor(h).masked_fill(~mask, MASKED_LOGIT)


class FactoredHead(nn.Module):
    """The factored, pointer-scored head (module docstring): forward -> a Factored distribution."""

    def __init__(self, hidden, ent_dim):
        super().__init__()
        self.ix = _HeadIndex()
        t, k = self.ix.T, self.ix.K
        self.tlin = nn.Linear(hidden, t)
        self.q0 = nn.Linear(hidden, t * ent_dim)
        self.b0 = nn.Parameter(torch.zeros(t, self.ix.P0))
        self.z_h = nn.Linear(hidden, k * ent_dim)
        self.z_e = nn.Linear(ent_dim, k * ent_dim, bias=False)
        self.ab = nn.Linear(ent_dim, self.ix.P1)
        self.b1 = nn.Parameter(torch.zeros(k, self.ix.P1))
        for lin in (self.tlin, self.q0, self.ab):
            nn.init.normal_(lin.weight, std=0.01)
            nn.init.zeros_(lin.bias)

    def forward(self, h, ent, mask):
        return Factored(self, h, ent, mask)

    def p1_logits(self, h, entx, kind, ent):
        """p1 logits [B, N, P1] of the pairs with p1 kind `kind` [B, N] and p0 entity `ent` [B, N]
        (azuki.policy_np._p1_logits)."""
        ix = self.ix
        b, n = kind.shape
        d = entx.shape[-1]
        kc = kind.clamp(min=0)
        zh = self.z_h(h).reshape(b, 1, ix.K, d).expand(b, n, ix.K, d)
        e = entx.gather(1, ent.unsqueeze(-1).expand(b, n, d))                       # [B, N, D]
        ze = self.z_e(e).reshape(b, n, ix.K, d)
        sel = kc.reshape(b, n, 1, 1).expand(b, n, 1, d)
        z = torch.relu(zh.gather(2, sel) + ze.gather(2, sel)).squeeze(2)            # [B, N, D]
        s = torch.bmm(z, entx.transpose(1, 2))                                      # [B, N, N_ENT + 1]
        place = s.gather(2, ix.KIND_TGT[kc])
        lin = self.ab(z)
        return torch.where(ix.KIND_LIN[kc].unsqueeze(-1), lin, place) + self.b1[kc]


class Factored:
    """The factored head's masked distribution for a batch (module docstring). sample(u),
    log_prob(a), entropy(a), log_prob_entropy(a), full_log_prob() [B, NUM_ACTIONS]."""

    def __init__(self, head, h, ent, mask):
        ix = head.ix
        self.head, self.h, self.ix = head, h, ix
        b = h.shape[0]
        self.b = b
        mask = mask.clone()
        empty = ~mask.any(dim=1)
        if bool(empty.any()):
            mask[empty] = True
        self.mask = mask
        mext = torch.cat([mask, torch.zeros(b, 1, dtype=torch.bool, device=mask.device)], dim=1)
        self.m3 = mext[:, ix.P0FLAT]                                                # [B, NG0, P1]
        self.p0any = self.m3.any(dim=-1)                                            # [B, NG0]
        p0leg = torch.cat([self.p0any, torch.zeros(b, 1, dtype=torch.bool, device=mask.device)], dim=1)[:, ix.TP0]
        self.tleg = p0leg.any(dim=-1)                                               # [B, T]
        self.leg0 = p0leg | ~self.tleg.unsqueeze(-1)                                # [B, T, P0]
        ent = ent.expand(b, -1, -1)
        self.entx = torch.cat([ent, torch.zeros(b, 1, ent.shape[-1], dtype=ent.dtype, device=ent.device)], dim=1)
        self.logp_t = _mls(head.tlin(h), self.tleg)                                 # [B, T]
        q = head.q0(h).reshape(b, ix.T, -1)
        s = torch.bmm(q, self.entx.transpose(1, 2))                                 # [B, T, N_ENT + 1]
        l0 = s.gather(2, ix.ENT0.unsqueeze(0).expand(b, -1, -1)) + head.b0
        self.logp0 = _mls(l0, self.leg0)                                            # [B, T, P0]
        self.shape = (b, NUM_ACTIONS)

    def _p1(self, g0):
        """(log p(p1 | pair) [B, P1], legal [B, P1]) at one pair per row (g0 [B])."""
        ix = self.ix
        logits = self.head.p1_logits(self.h, self.entx, ix.G0_KIND[g0].unsqueeze(1), ix.G0_ENT[g0].unsqueeze(1))[:, 0]
        r = torch.arange(self.b, device=g0.device)
        leg = self.m3[r, g0] | ~self.p0any[r, g0].unsqueeze(-1)
        return _mls(logits, leg), leg

    def _h01(self):
        """H(type) + sum_t p(t) H(p0 | t), exact [B]."""
        ht = -_plogp(self.logp_t, self.tleg).sum(-1)
        h0 = -_plogp(self.logp0, self.leg0).sum(-1)                                 # [B, T]
        pt = torch.where(self.tleg, self.logp_t.exp(), torch.zeros_like(self.logp_t))
        return ht + (pt * h0).sum(-1)

    def log_prob_entropy(self, action):
        """(log pi(a) [B], the entropy (module docstring) at a [B])."""
        ix = self.ix
        a = action.reshape(-1).long()
        r = torch.arange(self.b, device=a.device)
        t, p0, p1 = ix.A_T[a], ix.A_P0[a], ix.A_P1[a]
        lp1, leg1 = self._p1(ix.A_G0[a])
        logp = self.logp_t[r, t] + self.logp0[r, t, p0] + lp1[r, p1]
        return logp, self._h01() - _plogp(lp1, leg1).sum(-1)

    def log_prob(self, action):
        return self.log_prob_entropy(action)[0]

    def entropy(self, action):
        return self.log_prob_entropy(action)[1]

    def sample(self, u):
        """int64 [B]: the action of the uniforms u [B] (hierarchical inverse CDF, module docstring)."""
        ix = self.ix
        r = torch.arange(self.b, device=self.h.device)
        u = u.to(self.h.device, torch.float64).reshape(-1)
        t, u = _icdf(self.logp_t, self.tleg, u)
        p0, u = _icdf(self.logp0[r, t], self.leg0[r, t], u)
        g0 = ix.TP0[t, p0]
        lp1, leg1 = self._p1(g0)
        p1, _ = _icdf(lp1, leg1, u)
        return ix.P0FLAT[g0, p1]

    def full_log_prob(self):
        """log pi of every flat action [B, NUM_ACTIONS] (-inf where illegal): p1 at every pair."""
        ix = self.ix
        b = self.b
        logits = self.head.p1_logits(self.h, self.entx, ix.G0_KIND.expand(b, -1), ix.G0_ENT.expand(b, -1))
        lp1 = _mls(logits, self.m3 | ~self.p0any.unsqueeze(-1))                     # [B, NG0, P1]
        full = self.logp_t[:, ix.G0_T].unsqueeze(-1) + self.logp0[:, ix.G0_T, ix.G0_P0].unsqueeze(-1) + lp1
        out = full[:, ix.A_G0, ix.A_P1]
        return out.masked_fill(~self.mask, float("-inf"))

    def argmax(self):
        """The most likely legal flat action per row [B]."""
        return self.full_log_prob().argmax(dim=-1)


_ONE_MINUS = 1.0 - 2.0 ** -53


def _icdf(logp, legal, u):
    """(index [B], rescaled uniform [B]) of one level's inverse CDF: the first entry whose
    cumulative probability exceeds u * total (float64), clamped to the last legal entry;
    u' = (u * total - cdf before it) / its probability."""
    p = torch.where(legal, logp.detach().double().exp(), torch.zeros_like(logp, dtype=torch.float64))
    c = torch.cumsum(p, dim=-1)
    x = u * c[:, -1]
    i = (c <= x.unsqueeze(-1)).sum(dim=-1)
    n = legal.shape[-1]
    last = n - 1 - torch.flip(legal, dims=[-1]).int().argmax(dim=-1)
    i = torch.minimum(i, last)
    r = torch.arange(len(i), device=i.device)
    before = torch.where(i > 0, c[r, (i - 1).clamp(min=0)], torch.zeros_like(x))
    pi = p[r, i]
    un = torch.where(pi > 0, (x - before) / torch.where(pi > 0, pi, torch.ones_like(pi)), torch.zeros_like(x))
    return i, un.clamp(0.0, _ONE_MINUS)


# ---- the policy -------------------------------------------------------------------------------

class Policy(nn.Module):
    """encoder + head + value head (module docstring). PuffeRL interface:
    forward_eval(obs, state) and forward(obs, state) both return (the action
    distribution: masked logits [B, NUM_ACTIONS] for the dense head, a
    Factored for the factored one; value [B, 1])."""

    def __init__(self, arch="structured", head=None, hidden=256, card_dim=32, ent_dim=32, **_):
        super().__init__()
        arch, head = parse_arch(arch, head)
        self.arch, self.head_kind = arch, head
        self.config = dict(hidden=hidden, card_dim=card_dim, ent_dim=ent_dim, head=head)
        self.ix = _ObsIndex()
        if arch == "structured":
            self.enc = StructuredEncoder(hidden, card_dim, ent_dim)
        else:
            self.enc = FlatEncoder(hidden, ent_dim, entities=head == "factored")
        self.head = DenseHead(hidden) if head == "dense" else FactoredHead(hidden, ent_dim)
        self.critic = nn.Linear(hidden, 1)

    @property
    def spec(self):
        return self.arch if self.head_kind == "dense" else f"{self.arch}:{self.head_kind}"

    def forward_eval(self, observations, state=None):
        inp = obs_inputs(self.ix, observations)
        h, ent = self.enc(inp)
        return self.head(h, ent, inp["mask"]), self.critic(h)

    def forward(self, observations, state=None):
        return self.forward_eval(observations, state)


class AzukiPolicy(Policy):
    """The structured encoder (kept name)."""

    def __init__(self, head=None, **kw):
        super().__init__("structured", head=head, **kw)


class FlatPolicy(Policy):
    """The flat baseline (kept name)."""

    def __init__(self, head=None, **kw):
        super().__init__("flat", head=head, **kw)


ARCHITECTURES = {"structured": AzukiPolicy, "flat": FlatPolicy}


def make_policy(arch="structured", head=None, **kw):
    """A Policy of architecture spec `arch` ("structured", "flat", optionally ":factored" or
    ":dense") and head (`head` overrides the spec's; the two may not contradict)."""
    arch, head = parse_arch(arch, head)
    return Policy(arch, head=head, **kw)


def action_probs(out):
    """float32 [B, NUM_ACTIONS] probabilities of a forward pass's first output (dense logits or a
    Factored)."""
    if isinstance(out, Factored):
        return out.full_log_prob().exp()
    return torch.softmax(out.float(), dim=-1)


def _paths(path):
    base = base_path(path)
    return base + ".pt", base + ".json"


def _writer(state):
    """write(tmp_path) of a torch state: serialized in memory, then written with
    plain file I/O, so a full disk or a file-size limit is an OSError naming
    its cause (ENOSPC, EFBIG) rather than torch's stream-position error."""
    buf = io.BytesIO()
    torch.save(state, buf)
    data = buf.getvalue()

    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
    return write


def save_checkpoint(path, policy, arch=None, train_config=None, extra=None, cards=None, optimizer=None):
    """Write checkpoint NAME (NAME.json naming a weights file, and an optimizer
    file when `optimizer` is given) by the commit protocol of
    azuki.policy_np.commit_checkpoint: every file under a temporary name,
    renamed, NAME.json last (the commit point). `arch`: the spec to record
    (as the config spelled it; default the policy's own); it must name the
    policy's architecture and head. Returns NAME.json's path."""
    if arch is None:
        arch = policy.spec
    elif parse_arch(arch, policy.config.get("head")) != (policy.arch, policy.head_kind):
        raise ValueError(f"save_checkpoint: arch {arch!r} does not describe the policy ({policy.spec})")
    meta = {"format": CHECKPOINT_FORMAT, "arch": arch, "model": dict(policy.config),
            "hashes": compat_hashes(cards), "train": dict(train_config or {}), "extra": dict(extra or {})}
    data = {"weights": (".pt", _writer(policy.state_dict()))}
    if optimizer is not None:
        data["optimizer"] = (".opt.pt", _writer(optimizer.state_dict()))
    commit_checkpoint(path, data, meta)
    return base_path(path) + ".json"


def open_checkpoint(path, cards=None, map_location="cpu"):
    """(policy in eval mode, meta, {role: file}, the JSON read, [why newer JSONs
    were skipped]) of the complete checkpoint at `path` (NAME, NAME.json or
    NAME.pt; azuki.policy_np.resolve_checkpoint falls back to NAME.prev.json
    when NAME.json names a damaged file). CheckpointError when there is none,
    when it is corrupt, or when check_compat refuses it for the card set in
    use (`cards`)."""
    meta, files, js, skipped = resolve_checkpoint(path)
    check_compat(meta, base_path(path), cards)
    wpath = files.get("weights")
    try:
        arch, head = meta_arch(meta)
        policy = make_policy(arch, **dict(meta.get("model", {}), head=head))
        state = torch.load(wpath, map_location=map_location, weights_only=True)
        policy.load_state_dict(upgrade_weights(state, arch))
    except Exception as e:    # a corrupt or mismatched state dict
        raise CheckpointError(f"checkpoint {wpath}: cannot load the weights ({type(e).__name__}: {e})") from None
    policy.eval()
    return policy, meta, files, js, skipped


def load_checkpoint(path, cards=None, map_location="cpu"):
    """(policy in eval mode, meta) of open_checkpoint."""
    policy, meta = open_checkpoint(path, cards=cards, map_location=map_location)[:2]
    return policy, meta


class PolicyPlayer:
    """A policy as a player for evaluation and league opponents:
    act(obs [k, OBS_LEN] uint8 or float, masks [k, NUM_ACTIONS], keys=None) ->
    np.int32 [k]: sampled from the masked policy by azuki.sampler (inverse
    CDF on the legal actions, one uniform per row: from a seeded torch
    generator, or, given `keys` (one uint64 per row, e.g. game and decision
    number), from keyed_uniforms(seed, key), so a row's action does not
    depend on which other rows share the batch), or its most likely legal
    action with greedy=True."""

    wants_keys = True      # AzukiEnv passes keys= (azuki.envs.puffer.play_opponents)

    def __init__(self, policy, greedy=False, seed=0, name="policy"):
        self.policy, self.greedy, self.name = policy, greedy, name
        self.seed = int(seed) & ((1 << 63) - 1)
        self.gen = torch.Generator().manual_seed(self.seed)

    @classmethod
    def load(cls, path, greedy=False, seed=0, cards=None):
        policy, meta = load_checkpoint(path, cards=cards)
        return cls(policy, greedy=greedy, seed=seed, name=os.path.basename(_paths(path)[0]))

    @torch.no_grad()
    def act(self, obs, masks=None, keys=None):
        if len(obs) == 0:
            return np.zeros(0, dtype=np.int32)
        dist, _ = self.policy.forward_eval(torch.as_tensor(np.ascontiguousarray(obs)))
        if self.greedy:
            a = dist.argmax() if isinstance(dist, Factored) else dist.argmax(dim=-1)
        else:
            from . import sampler
            if keys is not None:
                u = torch.as_tensor(sampler.keyed_uniforms(self.seed, keys))
            else:
                u = torch.rand(dist.shape[0], generator=self.gen, dtype=torch.float64)
            a = dist.sample(u) if isinstance(dist, Factored) else sampler.sample(dist.float(), u)[0]
        return a.numpy().astype(np.int32)

    __call__ = act


__all__ = ["Policy", "AzukiPolicy", "FlatPolicy", "Factored", "make_policy", "action_probs", "obs_inputs", "save_checkpoint", "load_checkpoint", "open_checkpoint",
           "read_meta", "check_compat", "resolve_checkpoint",
           "CheckpointError", "PolicyPlayer", "compat_hashes", "layout_hash", "action_space_hash", "cardset_hash",
           "ARCHITECTURES", "MASK_OFFSET", "export_checkpoint"]


def export_checkpoint(path, out, dtype="float16"):
    """Write a torch checkpoint's weights as OUT.npz + OUT.json for the numpy
    player (azuki.policy_np; `python -m azuki.policy export CKPT OUT`). The
    training curve and league are left out of the metadata. Returns OUT's base."""
    from .policy_np import export_npz
    policy, meta = load_checkpoint(path)
    meta = dict(meta)
    meta["extra"] = {k: v for k, v in (meta.get("extra") or {}).items() if k not in ("curve", "league")}
    meta["exported_from"] = os.path.basename(_paths(path)[0])
    return export_npz({k: v.detach().float().numpy() for k, v in policy.state_dict().items()}, meta, out, dtype)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="python -m azuki.policy",
                                 description="Checkpoint tools. export: write CKPT's weights as OUT.npz + OUT.json "
                                             "for the numpy player (python -m azuki play; no torch needed there).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("export", help="torch checkpoint -> numpy checkpoint")
    ex.add_argument("ckpt", help="NAME.pt (with NAME.json beside it)")
    ex.add_argument("out", help="output base path (OUT.npz and OUT.json are written)")
    ex.add_argument("--dtype", choices=("float16", "float32"), default="float16")
    args = ap.parse_args(argv)
    try:
        base = export_checkpoint(args.ckpt, args.out, args.dtype)
    except CheckpointError as e:
        print(f"error: {e}", file=__import__("sys").stderr)
        return 2
    print(f"wrote {base}.npz ({os.path.getsize(base + '.npz') // 1024} KiB) and {base}.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

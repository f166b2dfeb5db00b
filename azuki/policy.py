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
    in place order (each through an 8-wide projection, place_trunk_dim), the
    pooled hand and options, the bags and the scalars.
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
    No 1,056-wide layer: per row 14 type logits, p0 scores for one type (12
    places + 50 hand slots + 64 options) and p1 only at the one (type, p0)
    sampled or taken; the full flat distribution (full_log_prob: greedy
    play, the numpy player, tests) scores every pair.
    Sampling: hierarchical inverse CDF with ONE uniform per row (the uniform
    is rescaled into the chosen interval at each level); as flat ids are
    ordered (type, p0, p1), this is exactly the action that the flat inverse
    CDF of the same distribution gives for that uniform (float64; tested).
    Entropy (PPO's bonus): H(type) + H(p0 | t*) + H(p1 | t*, p0*), the type
    level exact, the others at the taken action (t*, p0*): by the chain rule
    its expectation over the policy's actions is the exact entropy of the
    flat distribution (tested), so it is an unbiased estimate of the entropy
    the dense head reports, and p0 is scored for one type per row
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

from ._cpolicy_py import count_ids
from .envs import MASKED_LOGIT, MASK_OFFSET, NUM_ACTIONS, OBS_LEN, mask_from_obs
from .obs import obs_layout
# The tables and the compatibility checks live in the torch-free azuki.policy_np (the browser's
# numpy player uses the same ones).
from .policy_np import (ENT_HAND, ENT_NULL, ENT_OPT, ENT_PLACE, FEATURE_OPS, N_ENT, N_HAND, N_OPT, N_PLACES, CheckpointError, action_space_hash,  # noqa: F401
                        base_path, cardset_hash, check_compat, commit_checkpoint, compat_hashes, head_tables,
                        layout_hash, meta_arch, obs_tables, parse_arch, read_meta, resolve_checkpoint)

CHECKPOINT_FORMAT = 1


# ---- the observation side: raw batch -> entity tensors ---------------------------------------

class _ObsIndex(nn.Module):
    """obs_tables() as (non-persistent) buffers, so they follow the module to its device."""

    def __init__(self):
        super().__init__()
        t = obs_tables()
        self.n_cards, self.n_bags = t["n_cards"], t["n_bags"]
        # the identity lists' columns and bags as azuki._cpolicy_py.count_ids takes them (the CPU path of the bags)
        self.list_np = (t["list_cols"].astype(np.int32), t["list_bag"].astype(np.int32))
        self.blocks, self.onehot_width = {}, {}
        for k, v in t.items():
            if isinstance(v, np.ndarray):
                self.register_buffer(k, torch.as_tensor(v), persistent=False)
            elif isinstance(v, dict) and k != "dims":
                names = []
                for op in FEATURE_OPS:
                    col, const = v[op]
                    if op == "ONEHOT":
                        if col.shape[1]:
                            n = const[0].astype(np.int64)
                            self.register_buffer(f"{k}_oh_col", torch.as_tensor(col), persistent=False)
                            self.register_buffer(f"{k}_oh_n", torch.as_tensor(n.astype(np.uint8)), persistent=False)
                            self.register_buffer(f"{k}_oh_base", torch.as_tensor(np.cumsum(n) - n), persistent=False)
                            self.onehot_width[k] = int(n.sum())
                        continue
                    if col.shape[1]:
                        self.register_buffer(f"{k}_{op}_col", torch.as_tensor(col), persistent=False)
                        # comparison codes and bit shifts as bytes: the uint8 comparisons stay uint8
                        kt = torch.as_tensor(const if op in ("NUM", "SNUM") else const.astype(np.uint8))
                        self.register_buffer(f"{k}_{op}_k", kt, persistent=False)
                        names.append(op)
                self.blocks[k] = names
                if k in ("place", "hand", "opt"):
                    # every observation byte a slot's inputs are read from (its features and its card
                    # id): a slot whose bytes are all 0 is empty (_entity_layer)
                    src = np.concatenate([v[op][0] for op in FEATURE_OPS] + [t[f"{k}_id"][:, None]], axis=1)
                    self.register_buffer(f"{k}_src", torch.as_tensor(src.astype(np.int64)), persistent=False)

    def onehot(self, u, name):      # u: a _Cols
        """The one-hot features of block `name` as row indices [B, R, F_oh] into that block's
        one-hot columns (base of the field + value; the width, a zero row, for a value out of
        range), or None: azuki.policy_np._features expands the same columns."""
        if name not in self.onehot_width:
            return None
        col = getattr(self, f"{name}_oh_col")
        return self._onehot_codes(_gather(u, col), name)

    def _onehot_codes(self, v, name):
        n, base = getattr(self, f"{name}_oh_n"), getattr(self, f"{name}_oh_base")     # [F_oh]: the same per slot
        return torch.where(v < n, base + v.long(), torch.full_like(base, self.onehot_width[name]))

    def features(self, u, name):    # u: a _Cols
        """float32 [B, R, F] features of block `name` (azuki.policy_np._features), the one-hot
        ones left out (onehot). Made batch-minor ([R, F, B] in memory, the _Cols rows gathered
        whole) and returned as a permuted view: the same values; a linear layer reads either
        layout, and the batch-major concatenation of transposed pieces was 8x slower (2,048 rows of
        the flat encoder's 2,552 features: 27 -> 3.4 ms)."""
        b = u.u.shape[0]
        parts = []
        for op in self.blocks[name]:
            col = getattr(self, f"{name}_{op}_col")
            v = torch.index_select(u.ut, 0, col.reshape(-1)).reshape(tuple(col.shape) + (b,))
            parts.append(_feature_op(op, v, getattr(self, f"{name}_{op}_k")[..., None]))
        return torch.cat(parts, dim=1).permute(2, 0, 1)

    def nonzero_features(self, u, name):
        """(x [n, B] float32, cols [n] int64) of a one-row block (the flat encoder's): features(...)
        at the columns `cols` (ascending) that are nonzero in some row of the batch, batch-minor;
        every other column is 0 in every row. Which columns are nonzero is read from the uint8
        codes (cheaper than the floats), and only those columns are made."""
        b = u.u.shape[0]
        xs, cols, off = [], [], 0
        for op in self.blocks[name]:
            col = getattr(self, f"{name}_{op}_col").reshape(-1)
            k = getattr(self, f"{name}_{op}_k").reshape(-1)
            v = torch.index_select(u.ut, 0, col)                 # [F_op, B] uint8 codes
            if b:
                used = (_code_nonzero(op, v, k[:, None]).amax(dim=1) > 0).nonzero().squeeze(1)
            else:                                                # no row: no column is nonzero (amax needs one)
                used = torch.zeros(0, dtype=torch.long, device=v.device)
            xs.append(_feature_op(op, torch.index_select(v, 0, used), k[used][:, None]))
            cols.append(used + off)
            off += col.shape[0]
        return torch.cat(xs), torch.cat(cols)

    def slot_inputs(self, u, name, rows):
        """(features [n, F], one-hot codes [n, F_oh] or None, card ids [n]) of the slots `rows`
        (flat indices b * S + s into block `name`'s [B, S] slots): features(...), onehot(...) and
        the ids at those rows, the same values bit for bit, computed for those slots only (an
        8,192-row batch has 17 % of its places, 14 % of its hand slots, 0.6 % of its options
        occupied). u: the uint8 batch [B, L]."""
        s, width = getattr(self, f"{name}_src").shape[0], u.shape[1]
        slot, flat = rows % s, u.reshape(-1)
        base = (rows // s * width).unsqueeze(1)

        def read(cols):
            return flat[base + cols[slot]]
        x = torch.cat([_feature_op(op, read(getattr(self, f"{name}_{op}_col")), getattr(self, f"{name}_{op}_k")[slot])
                       for op in self.blocks[name]], dim=-1)
        oh = None
        if name in self.onehot_width:
            oh = self._onehot_codes(read(getattr(self, f"{name}_oh_col")), name)
        ids = read(getattr(self, f"{name}_id").reshape(s, 1))[:, 0].long()
        return x, oh, ids


def _code_nonzero(op, v, k):
    """uint8 / bool codes nonzero exactly where _feature_op(op, v, k) is (from the uint8 codes alone;
    NUM / SNUM: a nonzero code, whatever the scale). Reduced with amax, not any: torch's uint8 amax
    along a row is ~100x faster than `!= 0` then any on this CPU."""
    if op in ("NUM", "SNUM"):
        return v
    if op == "EQ":
        return v == k
    if op == "GT":
        return v > k
    return (v >> k) & 1


def _feature_op(op, v, k):
    """One feature kind of uint8 codes v with its constants k (broadcast): NUM / SNUM scaled,
    EQ / GT compared, BIT one bit (azuki.policy_np._features)."""
    if op == "SNUM":
        v = v.view(torch.int8)
    if op in ("NUM", "SNUM"):
        return v.float() * k
    if op == "EQ":
        return (v == k).float()
    if op == "GT":
        return (v > k).float()
    return ((v >> k) & 1).float()


class _Cols:
    """A uint8 batch [B, L] with its columns gathered as rows: `_gather(u, cols)` = u[:, cols]
    ([B, *cols.shape]). torch's index_select along dim 1 gathers byte by byte; one transpose per
    batch, then whole-row copies, takes about half its time (the same bytes)."""

    def __init__(self, u):
        self.u, self.ut = u, u.t().contiguous()


def _gather(c, cols):
    b = c.u.shape[0]
    return torch.index_select(c.ut, 0, cols.reshape(-1)).t().reshape((b,) + tuple(cols.shape))


def _row0(x):
    return None if x is None else x[:, 0]


def obs_inputs(ix, obs, flat=False, compact=False):
    """THE observation side of the torch networks (azuki.policy_np.obs_inputs is its numpy
    twin): uint8 observations [..., OBS_LEN (+ extra columns)] -> {place_x [B, 24, F],
    place_id [B, 24], hand_x, hand_id, opt_x, opt_id, bags (card counts [B, n_bags, n_cards]),
    glob_x [B, G], glob_id [B, K], flat [B, W], mask [B, NUM_ACTIONS]}. Every field is read
    as its kind says (azuki.obs_layout(): ID an embedding index, ENUM / PLACE one-hot, NUM
    value / n, SNUM signed value / n, BITS unpacked), the tables built once in
    azuki.policy_np.obs_tables. flat=True: only {flat, mask} (what the flat encoder reads); with
    compact=True {flat_x [n, B], flat_cols [n], mask}: the batch's nonzero columns of flat only
    (_ObsIndex.nonzero_features; every other column is 0 in every row).
    compact=True (the structured encoder skipping empty slots): for place / hand / opt, in place
    of {name}_x, _oh, _id, only the occupied slots' rows: {name}_rows (flat slot indices
    b * S + s, ascending), {name}_xo [n, F], {name}_oho [n, F_oh] (or None), {name}_ido [n]:
    the same values as the full form's at those rows (_ObsIndex.slot_inputs)."""
    if obs.dtype != torch.uint8 or obs.shape[-1] < OBS_LEN:
        raise ValueError(f"observations are uint8 with at least OBS_LEN = {OBS_LEN} entries on the last axis, "
                         f"got dtype {obs.dtype} shape {tuple(obs.shape)}")
    u = obs.reshape(-1, obs.shape[-1])
    c = _Cols(u)
    if flat and compact:
        x, cols = ix.nonzero_features(c, "flat")
        return dict(flat_x=x, flat_cols=cols, mask=mask_from_obs(u))
    if flat:
        return dict(flat=ix.features(c, "flat")[:, 0], mask=mask_from_obs(u))
    b, nc = u.shape[0], ix.n_cards
    if u.device.type == "cpu":      # counted in C (azk_count_ids): the scatter below was 2/3 of this function
        counts = torch.from_numpy(count_ids(np.ascontiguousarray(u.numpy()), *ix.list_np, ix.n_bags, nc))
    else:
        idx = ix.list_bag * nc + _gather(c, ix.list_cols).long()
        counts = torch.zeros(b, ix.n_bags * nc, device=u.device).scatter_add_(
            1, idx, torch.ones(idx.shape, device=u.device)).reshape(b, ix.n_bags, nc)
        counts[..., 0] = 0.0
    def ids(cols):
        return _gather(c, cols).long()

    def used(name):     # bool [B, S]: the slot has a nonzero byte (else it reads as the all-zero observation's)
        src = getattr(ix, f"{name}_src")        # [S, K]: reduced in the batch-minor layout (no strided amax)
        return (torch.index_select(c.ut, 0, src.reshape(-1)).reshape(tuple(src.shape) + (b,)).amax(dim=1) > 0).t()

    out = dict(bags=counts, glob_x=ix.features(c, "glob")[:, 0], glob_oh=_row0(ix.onehot(c, "glob")),
               glob_id=ids(ix.glob_id), mask=mask_from_obs(u))
    for name in ("place", "hand", "opt"):
        out[f"{name}_used"] = used(name)
        if compact:
            rows = out[f"{name}_used"].reshape(-1).nonzero().squeeze(1)
            out[f"{name}_rows"] = rows
            out[f"{name}_xo"], out[f"{name}_oho"], out[f"{name}_ido"] = ix.slot_inputs(u, name, rows)
        else:
            out[f"{name}_x"], out[f"{name}_oh"] = ix.features(c, name), ix.onehot(c, name)
            out[f"{name}_id"] = ids(getattr(ix, f"{name}_id"))
    return out


# ---- encoders ---------------------------------------------------------------------------------

class StructuredEncoder(nn.Module):
    """The entity encoder (module docstring): forward(inputs) -> (h [B, hidden], the entity tables
    (places [B, 24, D], hand slots [B, 50, D], options [B, 64, D]))."""

    def __init__(self, hidden, card_dim, ent_dim, place_trunk_dim=8, bag_dim=128, glob_dim=64):
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
        # each place reaches the trunk through a narrow projection (in place order: 24 x 8 inputs,
        # not 24 x D: the trunk's first layer was most of the encoder's multiply-adds)
        self.place_t = nn.Linear(ent_dim, place_trunk_dim)
        trunk_in = N_PLACES * place_trunk_dim + 2 * ent_dim + bag_dim + glob_dim
        self.trunk = nn.Sequential(nn.Linear(trunk_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())

    def forward(self, inp, empty=None):
        """empty: obs_inputs of an observation of zeros (Policy.empty_inputs), or None. Given, the
        place / hand / option layers run on the occupied slots only and the entity tables stay
        compact (_Ents): the same tables bit for bit as without it, the trunk state the same sums
        in another order (float rounding)."""
        relu = torch.relu
        emb = self.card.weight
        b = inp["mask"].shape[0]
        # the card part of each entity layer: project the (small) embedding table, then gather
        layer = _entity_layer
        places = layer(self.place_x, self.place_c(emb), self.place_pos, inp, "place", empty)
        hand = layer(self.hand_x, self.hand_c(emb), self.hand_pos, inp, "hand", empty)
        opts = layer(self.opt_x, self.opt_c(emb), self.opt_pos, inp, "opt", empty)
        bags = relu(self.bags(torch.matmul(inp["bags"], emb).flatten(1)))
        glob = relu(_linear_oh(self.glob, inp["glob_x"], inp["glob_oh"], _lookup(inp["glob_id"], emb).flatten(1)))
        x = torch.cat([_tab_map(self.place_t, places).flatten(1), _tab_sum(hand), _tab_sum(opts), bags, glob],
                      dim=1)
        return self.trunk(x), (places, hand, opts)


def _entity_layer(lin, cards, pos, inp, name, empty):
    """One entity table [B, S, D]: relu(lin(the slot's features) + cards[its card id] + pos[slot]).

    With `empty` (the inputs of an all-zero observation): a slot whose observation bytes are
    all 0 (obs_inputs' `{name}_used` is False) has exactly the all-zero observation's inputs at
    that position, so its value is computed once per position (on 8,192 self-play positions
    only 17 % of the places, 14 % of the hand slots and 0.6 % of the option slots are
    occupied). The occupied slots and the S empty values go through ONE linear call (the same
    row-wise GEMM as the padded form) and the same additions in the same order, so every value
    equals the padded form's bit for bit (tests/envs/test_empty_slots.py); returned as an _Ents
    (compact), whose consumers sum in another order (float rounding). Without `empty`: the
    padded form, a [B, S, D] tensor."""
    if empty is None:
        x, oh, ids = inp[f"{name}_x"], inp[f"{name}_oh"], inp[f"{name}_id"]
        return torch.relu(_linear_oh(lin, x, oh) + _lookup(ids, cards) + pos)
    used = inp[f"{name}_used"]
    b, s = used.shape
    occ = used.reshape(-1)
    if f"{name}_rows" in inp:                   # obs_inputs(compact=True): the occupied slots' inputs only
        rows, xo, oho, ido = (inp[f"{name}_{k}"] for k in ("rows", "xo", "oho", "ido"))
    else:
        rows = occ.nonzero().squeeze(1)                                           # flat slot indices
        x, oh = inp[f"{name}_x"], inp[f"{name}_oh"]
        xo, ido = x.reshape(b * s, x.shape[-1]).index_select(0, rows), inp[f"{name}_id"].reshape(-1).index_select(0, rows)
        oho = None if oh is None else oh.reshape(b * s, oh.shape[-1]).index_select(0, rows)
    n = rows.shape[0]
    slot = torch.cat([rows % s, torch.arange(s, device=rows.device)])
    xs = torch.cat([_oh_input(lin, xo, oho),
                    _oh_input(lin, empty[f"{name}_x"][0], None if oho is None else empty[f"{name}_oh"][0])])
    ids_s = torch.cat([ido, empty[f"{name}_id"][0]])
    v = torch.relu(lin(xs) + torch.index_select(cards, 0, ids_s) + torch.index_select(pos, 0, slot))
    # every slot's row of v: an occupied slot its own (its rank among them), an empty one its position's
    where = torch.where(occ, torch.cumsum(occ, 0) - 1, n + torch.arange(b * s, device=occ.device) % s)
    return _Ents(v, n, where.reshape(b, s), occ.reshape(b, s), 0, rows // s)


class _Ents:
    """An entity table [B, S, D] kept as its distinct rows (_entity_layer with `empty`): v [n + S_all, D]
    holds the n occupied slots' rows, then one row per slot position for an empty slot; where [B, S]
    the row of each slot; occ [B, S] bool (occupied); lo: the first slot position (a slice of the
    table's slots keeps v and own); own [n]: the batch row of each occupied row. Its consumers
    (_tab_sum, _tab_map, _scores, _ent_rows) read it without writing the [B, S, D] tensor (on
    2,048 self-play positions the hand and option tables are 7 M floats, most of them copies of
    the S empty rows, written and read back in forward and backward); _tab_full writes it (the
    paths that score every action)."""
    __slots__ = ("v", "n", "where", "occ", "lo", "own")

    def __init__(self, v, n, where, occ, lo, own):
        self.v, self.n, self.where, self.occ, self.lo, self.own = v, n, where, occ, lo, own

    @property
    def shape(self):
        return (self.where.shape[0], self.where.shape[1], self.v.shape[1])

    def slots(self, lo, hi):
        """The sub-table of slots lo..hi-1."""
        return _Ents(self.v, self.n, self.where[:, lo:hi], self.occ[:, lo:hi], self.lo + lo, self.own)

    def empty_rows(self):
        """[S, D]: an empty slot's row at each position of this table."""
        s = self.where.shape[1]
        return self.v[self.n + self.lo:self.n + self.lo + s]

    def rank(self):
        """[B * S] long: each slot's row in cat([its occupied row values (n) | a [B, S] array of
        per-position values]), the layout _scores builds."""
        b, s = self.where.shape
        flat = torch.arange(b * s, device=self.where.device)
        return torch.where(self.occ.reshape(-1), self.where.reshape(-1), self.n + flat)


def _tab_full(t):
    """The table as a tensor [B or 1, S, D]."""
    if isinstance(t, _Ents):
        b, s, d = t.shape
        return t.v.index_select(0, t.where.reshape(-1)).reshape(b, s, d)
    return t


def _tab_sum(t):
    """[B, D]: the sum over the slots of a whole table (the occupied rows per batch row, plus the empty rows
    weighted by whether their slot is empty: a GEMM of [B, S] by [S, D])."""
    if not isinstance(t, _Ents):
        return t.sum(dim=1)
    b, _, d = t.shape
    occ_part = torch.zeros(b, d, dtype=t.v.dtype, device=t.v.device).index_add(0, t.own, t.v[:t.n])
    return occ_part + (~t.occ).to(t.v.dtype) @ t.empty_rows()


def _tab_slots(t, lo, hi):
    """The slots lo..hi-1 of a table."""
    return t.slots(lo, hi) if isinstance(t, _Ents) else t[:, lo:hi]


def _tab_map(f, t):
    """f applied row-wise to the table -> a tensor [B, S, D'] (f runs on v's rows only)."""
    if not isinstance(t, _Ents):
        return f(t)
    b, s, _ = t.shape
    y = f(t.v)
    return y.index_select(0, t.where.reshape(-1)).reshape(b, s, y.shape[-1])


def _linear_oh(lin, dense, oh, rest=None):
    """lin applied to [dense features | the one-hot features oh stands for | rest] (the column
    order of azuki.policy_np's features)."""
    x = _oh_input(lin, dense, oh, rest)
    return lin(x)


def _oh_input(lin, dense, oh, rest=None):
    """lin's input [dense features | the one-hot features oh stands for | rest]: the one-hot
    columns are written by a scatter of the indices (cheaper than comparing every code, and a
    matmul backward, not an embedding's)."""
    parts = [dense]
    if oh is not None:
        width = lin.weight.shape[1] - dense.shape[-1] - (0 if rest is None else rest.shape[-1])
        x = torch.zeros(tuple(oh.shape[:-1]) + (width + 1,), dtype=dense.dtype, device=dense.device)
        parts.append(x.scatter_(-1, oh, 1.0)[..., :width])
    if rest is not None:
        parts.append(rest)
    return torch.cat(parts, dim=-1) if len(parts) > 1 else dense


def _lookup(ids, table):
    """table[ids] by index_select (its backward, index_add, is the cheapest on a CPU)."""
    return torch.index_select(table, 0, ids.reshape(-1)).reshape(tuple(ids.shape) + (table.shape[-1],))


class FlatEncoder(nn.Module):
    """The baseline: one MLP over every observation value; entities (for the factored head) are
    learned constants."""

    def __init__(self, hidden, ent_dim, entities):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_tables()["dims"]["flat"], hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                                 nn.ReLU())
        self.ent = nn.Parameter(torch.randn(N_ENT, ent_dim) * 0.1) if entities else None

    def forward(self, inp):
        """inp: obs_inputs(flat=True), either form. The compact one (Policy.skip_empty) holds only
        the columns nonzero somewhere in the batch: 6.5 % of the 2,552 inputs of a self-play row
        are nonzero and most columns are 0 in a whole batch (1,749 never in 25,600 starter
        positions), so the first layer's product over those columns is the full one (the other
        terms are exactly 0) and its two GEMMs, forward and the weight's gradient (zero elsewhere,
        as the full product's), shrink ~3x; the sums differ by float rounding only."""
        if "flat_cols" in inp:
            lin = self.net[0]
            w = torch.index_select(lin.weight, 1, inp["flat_cols"])
            h = self.net[1:](torch.addmm(lin.bias, inp["flat_x"].t(), w.t()))
        else:
            h = self.net(inp["flat"])
        if self.ent is None:
            return h, None
        e = self.ent[None]
        return h, (e[:, ENT_PLACE:ENT_PLACE + N_PLACES], e[:, ENT_HAND:ENT_HAND + N_HAND], e[:, ENT_OPT:ENT_OPT + N_OPT])


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
        self.type_blocks = [(int(o), int(a), int(c)) for o, a, c in zip(tb["OFF"], tb["N0"], tb["N1"])]
        # Factored reads pair legality type block by type block: pairs must be numbered in that order
        g0 = np.concatenate([np.stack([np.full(n0, t), np.arange(n0)], 1) for t, (_, n0, _) in
                             enumerate(self.type_blocks)])
        assert (g0 == np.stack([tb["G0_T"], tb["G0_P0"]], 1)).all(), "pairs (g0) are type-major, then p0"
        # the entity tables (places, hand slots, options) that p1's source and target entities lie in
        def tables(ents):
            return tuple(k for k, (lo, w) in enumerate(zip(_TABLE_STARTS, _TABLE_WIDTHS))
                         if ((ents >= lo) & (ents < lo + w)).any())
        self.p1_src = tables(tb["G0_ENT"][tb["G0_KIND"] >= 0])
        self.p1_tgt = tables(tb["KIND_TGT"][~tb["KIND_LIN"]]) or (0,)
        self.groups = []
        for i, (_, start, width, ts) in enumerate(tb["P0_GROUPS"]):
            self.register_buffer(f"group{i}", torch.as_tensor(ts), persistent=False)
            self.groups.append((start, width))


_BIG = 1e30


def _mls(x, lf):
    """Log-softmax over the last axis restricted to the entries where lf (float 0/1) is 1 (each
    row has one); 0 elsewhere. Nothing masked is exponentiated (no -inf / -1e9 underflow path of
    logsumexp) and no NaN reaches a gradient."""
    m = (x.detach() - (1.0 - lf) * _BIG).amax(dim=-1, keepdim=True)
    e = torch.exp((x - m).clamp(max=0.0)) * lf
    return (x - (m + e.sum(dim=-1, keepdim=True).log())) * lf


def _plogp(logp, lf):
    return logp.exp() * logp * lf


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

    def p1_logits(self, h, ent, kind, e):
        """p1 logits [B, N, P1] of the pairs with p1 kind `kind` [B, N] and p0 entity `e` [B, N]
        (azuki.policy_np._p1_logits); ent: the entity tables."""
        ix = self.ix
        b, n = kind.shape
        places = ent[0]
        d = places.shape[-1]
        kc = kind.clamp(min=0)
        ev = _ent_rows(ent, e, tables=ix.p1_src)                                      # [B, N, D]
        if n == 1:      # the sampled / stored pair: the kind's block of each row only
            zh = _rows_linear(self.z_h, h, kc[:, 0], ix.K)
            ze = _rows_linear(self.z_e, ev[:, 0], kc[:, 0], ix.K)
            z = torch.relu(zh + ze).unsqueeze(1)                                     # [B, 1, D]
            tgt = _ent_rows(ent, ix.KIND_TGT[kc[:, 0]], tables=ix.p1_tgt)             # [B, P1, D]
            place = (z * tgt).sum(-1).unsqueeze(1)                                   # [B, 1, P1]
        else:
            zh = self.z_h(h).reshape(b, 1, ix.K, d).expand(b, n, ix.K, d)
            ze = self.z_e(ev).reshape(b, n, ix.K, d)
            sel = kc.reshape(b, n, 1, 1).expand(b, n, 1, d)
            z = torch.relu(zh.gather(2, sel) + ze.gather(2, sel)).squeeze(2)        # [B, N, D]
            allent = torch.cat([_tab_full(t).expand(b, -1, -1) for t in ent], dim=1)  # [B, N_ENT, D]
            place = torch.bmm(z, allent.transpose(1, 2)).gather(2, ix.KIND_TGT[kc])
        lin = self.ab(z)
        return torch.where(ix.KIND_LIN[kc].unsqueeze(-1), lin, place) + self.b1[kc]

    def p0_logits(self, h, ent):
        """p0 logits [B, T, P0] (azuki.policy_np._p0_logits): per entity table, only the types
        that point into it."""
        ix = self.ix
        b = h.shape[0]
        d = ent[0].shape[-1]
        q = self.q0(h).reshape(b, ix.T, d)
        ent = tuple(_tab_full(t) for t in ent)
        blocks = []
        for i, (start, width) in enumerate(ix.groups):
            k = _table_of(start)
            tab = ent[k][:, start - _TABLE_STARTS[k]:start - _TABLE_STARTS[k] + width]
            blocks.append(torch.matmul(q[:, getattr(ix, f"group{i}")], tab.transpose(-1, -2)).flatten(1))
        flat = torch.cat(blocks + [torch.zeros(b, 1, dtype=q.dtype, device=q.device)], dim=1)
        return torch.index_select(flat, 1, ix.L0IDX.reshape(-1)).reshape(b, ix.T, ix.P0) + self.b0

    def p0_row(self, h, ent, t):
        """p0 logits [B, P0] of one type per row (t [B]): the row's query (q0(h)'s block of its type
        only, _rows_linear) against my places, the hand slots and the options, arranged by L0ROW."""
        ix = self.ix
        b = h.shape[0]
        qt = _rows_linear(self.q0, h, t, ix.T)                                        # [B, D]
        scores = [_scores(qt, _tab_slots(ent[0], 0, N_PLACES // 2)), _scores(qt, ent[1]), _scores(qt, ent[2]),
                  torch.zeros(b, 1, dtype=qt.dtype, device=qt.device)]
        return torch.cat(scores, dim=1).gather(1, ix.L0ROW[t]) + self.b0[t]


def _rows_linear(lin, x, t, k):
    """lin(x).reshape(B, k, D)[arange(B), t] -> [B, D]: each row's output block t[row] only, by
    one GEMM per block over the rows that need it (sorted once). The heads read one type's p0
    query / one kind's p1 projection per row: the full layer computes k (14 / 6) times that.
    The same products as the full layer's, summed by another GEMM shape (float rounding)."""
    b = x.shape[0]
    d = lin.out_features // k
    w = lin.weight.view(k, d, -1)
    bias = None if lin.bias is None else lin.bias.view(k, d)
    if b <= 1:
        return torch.nn.functional.linear(x, w[t[0]], None if bias is None else bias[t[0]]) if b else x.new_zeros(0, d)
    order = torch.argsort(t, stable=True)
    counts = torch.bincount(t, minlength=k).tolist()
    parts = [torch.nn.functional.linear(chunk, w[j], None if bias is None else bias[j])
             for j, chunk in enumerate(torch.split(x.index_select(0, order), counts)) if counts[j]]
    inv = torch.empty_like(order)
    inv[order] = torch.arange(b, device=order.device)
    return torch.cat(parts).index_select(0, inv)


def _scores(q, tab):
    """q [B, D] . every row of the entity table tab ([B or 1, W, D] or _Ents) -> [B, W]."""
    if isinstance(tab, _Ents):      # the occupied rows' dot products, the empty rows by one GEMM
        occ = (q.index_select(0, tab.own) * tab.v[:tab.n]).sum(-1)
        emp = q @ tab.empty_rows().transpose(0, 1)
        return torch.cat([occ, emp.reshape(-1)]).index_select(0, tab.rank()).reshape(emp.shape)
    if tab.shape[0] == 1:
        return q @ tab[0].transpose(0, 1)
    # a product and a sum, not bmm (B one-column GEMMs: 3x slower forward + backward on a CPU)
    return (tab * q.unsqueeze(1)).sum(-1)


_TABLE_STARTS = (ENT_PLACE, ENT_HAND, ENT_OPT)
_TABLE_WIDTHS = (N_PLACES, N_HAND, N_OPT)


def _table_of(start):
    return max(k for k in range(3) if _TABLE_STARTS[k] <= start)


def _ent_rows(ent, idx, tables=(0, 1, 2)):
    """The rows idx [B, n] (entity indices, places | hand slots | options) of the entity tables
    (each [B or 1, W, D]) -> [B, n, D], reading only `tables` (the caller knows idx lies in them)."""
    b = idx.shape[0]
    out = None
    for k in tables:
        tab, start, width = ent[k], _TABLE_STARTS[k], _TABLE_WIDTHS[k]
        local = (idx - start).clamp(0, width - 1)
        if isinstance(tab, _Ents):
            rows = tab.v.index_select(0, tab.where.gather(1, local).reshape(-1)).reshape(tuple(local.shape) + (tab.v.shape[-1],))
        elif tab.shape[0] == 1:
            rows = tab[0][local]
        else:
            rows = tab[torch.arange(b, device=idx.device).unsqueeze(1), local]
        if out is None:
            out = rows
        else:
            out = torch.where(((idx >= start) & (idx < start + width)).unsqueeze(-1), rows, out)
    return out


class Factored:
    """The factored head's masked distribution for a batch (module docstring). sample(u),
    log_prob(a), entropy(a), log_prob_entropy(a), full_log_prob() [B, NUM_ACTIONS]."""

    def __init__(self, head, h, ent, mask):
        ix = head.ix
        self.head, self.h, self.ix = head, h, ix
        b = h.shape[0]
        self.b = b
        empty = mask.view(torch.uint8).amax(dim=1) == 0      # ~any, 20x faster on this CPU as a uint8 max
        if bool(empty.any()):
            mask = mask.clone()
            mask[empty] = True
        self.mask = mask
        # Which pairs (type, p0) and types have a legal completion: flat ids run type-major, then
        # p0, then p1, and pairs (g0) type-major, then p0, so one pass over each type's block of
        # the mask gives its pairs in g0 order, and each type's pairs are a run of those.
        pairs, tleg = [], []
        for o, n0, n1 in ix.type_blocks:
            blk = mask[:, o:o + n0 * n1]
            pairs.append(blk.reshape(b, n0, n1).any(dim=-1) if n1 > 1 else blk)
            tleg.append(blk.view(torch.uint8).amax(dim=-1, keepdim=True) > 0)
        self.pairleg = torch.cat(pairs + [torch.zeros(b, 1, dtype=torch.bool, device=mask.device)], dim=1)
        self.tleg = torch.cat(tleg, dim=1)                                          # [B, T]
        dt = h.dtype
        self.tlegf = self.tleg.to(dt)
        self.ent = ent
        self.logp_t = _mls(head.tlin(h), self.tlegf)                                # [B, T]
        self.shape = (b, NUM_ACTIONS)
        self._sampled = None

    @property
    def leg0(self):
        """bool [B, T, P0]: the p0 values with a legal completion per type (every one for a type
        that has none)."""
        return self.pairleg[:, self.ix.TP0] | ~self.tleg.unsqueeze(-1)

    def _p0(self, t):
        """(log p(p0 | t) [B, P0], legal float [B, P0]) of one type per row (t [B])."""
        r = torch.arange(self.b, device=t.device)
        leg = (self.pairleg.gather(1, self.ix.TP0[t]) | ~self.tleg[r, t].unsqueeze(-1)).to(self.h.dtype)
        return _mls(self.head.p0_row(self.h, self.ent, t), leg), leg

    def _m3(self):
        """bool [B, NG0, P1]: the legal p1 values of every pair."""
        mext = torch.cat([self.mask, torch.zeros(self.b, 1, dtype=torch.bool, device=self.mask.device)], dim=1)
        return mext[:, self.ix.P0FLAT]

    def _p1(self, g0):
        """(log p(p1 | pair) [B, P1], legal float [B, P1]) at one pair per row (g0 [B])."""
        ix = self.ix
        logits = self.head.p1_logits(self.h, self.ent, ix.G0_KIND[g0].unsqueeze(1), ix.G0_ENT[g0].unsqueeze(1))[:, 0]
        mext = torch.cat([self.mask, torch.zeros(self.b, 1, dtype=torch.bool, device=self.mask.device)], dim=1)
        leg = mext.gather(1, ix.P0FLAT[g0])
        leg = (leg | ~leg.any(dim=-1, keepdim=True)).to(logits.dtype)
        return _mls(logits, leg), leg

    def log_prob_entropy(self, action):
        """(log pi(a) [B], the entropy (module docstring) at a [B])."""
        ix = self.ix
        a = action.reshape(-1).long()
        r = torch.arange(self.b, device=a.device)
        t, p0, p1 = ix.A_T[a], ix.A_P0[a], ix.A_P1[a]
        if self._sampled is not None and torch.equal(self._sampled[0], a):     # sample()'s levels, reused
            lp0, leg0, lp1, leg1 = self._sampled[1:]
        else:
            lp0, leg0 = self._p0(t)
            lp1, leg1 = self._p1(ix.A_G0[a])
        logp = self.logp_t[r, t] + lp0[r, p0] + lp1[r, p1]
        ent = -(_plogp(self.logp_t, self.tlegf).sum(-1) + _plogp(lp0, leg0).sum(-1) + _plogp(lp1, leg1).sum(-1))
        return logp, ent

    def log_prob(self, action):
        return self.log_prob_entropy(action)[0]

    def entropy(self, action):
        return self.log_prob_entropy(action)[1]

    def sample(self, u):
        """int64 [B]: the action of the uniforms u [B] (hierarchical inverse CDF, module docstring)."""
        ix = self.ix
        u = u.to(self.h.device, torch.float64).reshape(-1)
        t, u = _icdf(self.logp_t, self.tleg, u)
        lp0, leg0 = self._p0(t)
        p0, u = _icdf(lp0, leg0 > 0, u)
        g0 = ix.TP0[t, p0]
        lp1, leg1 = self._p1(g0)
        p1, _ = _icdf(lp1, leg1 > 0, u)
        a = ix.P0FLAT[g0, p1]
        self._sampled = (a, lp0, leg0, lp1, leg1)
        return a

    def full_log_prob(self):
        """log pi of every flat action [B, NUM_ACTIONS] (-inf where illegal): p1 at every pair."""
        ix = self.ix
        b = self.b
        logits = self.head.p1_logits(self.h, self.ent, ix.G0_KIND.expand(b, -1), ix.G0_ENT.expand(b, -1))
        m3 = self._m3()
        lp1 = _mls(logits, (m3 | ~m3.any(dim=-1, keepdim=True)).to(logits.dtype))  # [B, NG0, P1]
        logp0 = _mls(self.head.p0_logits(self.h, self.ent), self.leg0.to(self.h.dtype))  # [B, T, P0]
        full = self.logp_t[:, ix.G0_T].unsqueeze(-1) + logp0[:, ix.G0_T, ix.G0_P0].unsqueeze(-1) + lp1
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

class PrivilegedCritic(nn.Module):
    """The privileged value of training (docs/training.md "Privileged critic"): base(h) + r(h, hidden), from
    the trunk state h and the opponent's hand, read from the opponent seat's observation that
    AzukiEnv(privileged=True) appends to each row (its HAND_CARD ids, embedded and summed, and their count),
    r through a small MLP whose last layer starts at 0. Its own parameters throughout (the player's value
    head is fitted to it, never part of it, so that fit cannot move it); `start_from(critic)` copies the
    player's value head into base, so it starts as the player's value (after a kickstart: the fitted one).
    Never exported (azuki.policy_np.playing_weights)."""

    def __init__(self, hidden, dim=32, width=64):
        super().__init__()
        f = obs_layout()["HAND_CARD"]
        self.lo, self.n = f["offset"], f["cols"]
        self.base = nn.Linear(hidden, 1)
        self.emb = nn.Embedding(PRIV_CARD_IDS, dim, padding_idx=0)
        self.net = nn.Sequential(nn.Linear(hidden + dim + 1, width), nn.ReLU(), nn.Linear(width, 1))
        nn.init.zeros_(self.net[2].weight)
        nn.init.zeros_(self.net[2].bias)

    @torch.no_grad()
    def start_from(self, critic):
        self.base.load_state_dict(critic.state_dict())

    def forward(self, h, other):       # other: the opponent seat's observation rows, uint8 [B, OBS_LEN]
        ids = other[:, self.lo:self.lo + self.n].long()
        bag = self.emb(ids).sum(1)                       # padding_idx 0: empty slots add nothing
        count = (ids != 0).sum(1, keepdim=True).to(h.dtype) / 10.0
        return self.base(h) + self.net(torch.cat([h, bag.to(h.dtype), count], dim=1))


PRIV_CARD_IDS = 256        # card ids are bytes: any id of a HAND_CARD slot has a row
PRIVILEGED_VALUE_COEF = 0.5   # the player's value head fitted to the privileged value: coef x 1/2 (v - v_priv)^2


class Policy(nn.Module):
    """encoder + head + value head (module docstring). PuffeRL interface:
    forward_eval(obs, state) and forward(obs, state) both return (the action
    distribution: masked logits [B, NUM_ACTIONS] for the dense head, a
    Factored for the factored one; value [B, 1])."""

    def __init__(self, arch="structured", head=None, hidden=256, card_dim=32, ent_dim=32, place_trunk_dim=8,
                 privileged=False, **_):
        super().__init__()
        arch, head = parse_arch(arch, head)
        self.arch, self.head_kind = arch, head
        self.config = dict(hidden=hidden, card_dim=card_dim, ent_dim=ent_dim, place_trunk_dim=place_trunk_dim, head=head)
        if privileged:
            self.config["privileged"] = True
        self.ix = _ObsIndex()
        if arch == "structured":
            self.enc = StructuredEncoder(hidden, card_dim, ent_dim, place_trunk_dim)
        else:
            self.enc = FlatEncoder(hidden, ent_dim, entities=head == "factored")
        self.head = DenseHead(hidden) if head == "dense" else FactoredHead(hidden, ent_dim)
        self.critic = nn.Linear(hidden, 1)
        # the privileged critic (training only; its parameters under policy_np.PRIVILEGED_PREFIX)
        self.priv = PrivilegedCritic(hidden) if privileged else None
        if self.priv is not None:
            self.priv.start_from(self.critic)

    @property
    def spec(self):
        return self.arch if self.head_kind == "dense" else f"{self.arch}:{self.head_kind}"

    skip_empty = True      # the encoder skips what is empty in the batch: the structured one empty slots (the
                           # same tables bit for bit), the flat one the input columns 0 in every row (the same
                           # sums to float rounding); False: the padded / full forms

    def empty_inputs(self, device):
        """obs_inputs of one all-zero observation (the template of an empty slot), cached per
        device."""
        cache = self.__dict__.setdefault("_empty", {})
        if device not in cache:
            cache[device] = obs_inputs(self.ix, torch.zeros(1, OBS_LEN, dtype=torch.uint8, device=device))
        return cache[device]

    def _forward(self, observations):
        """(distribution, the player's value [B, 1], the privileged value [B, 1] or None). For a privileged
        policy, rows of at least 2 x OBS_LEN bytes carry the opponent seat's observation in their last
        OBS_LEN (AzukiEnv(privileged=True)); the policy and the player's value read only the first OBS_LEN."""
        priv = self.priv is not None and observations.shape[-1] >= 2 * OBS_LEN
        own = observations[..., :OBS_LEN] if priv else observations
        skip = self.skip_empty
        inp = obs_inputs(self.ix, own, flat=self.arch == "flat", compact=skip)
        if self.arch == "structured":
            h, ent = self.enc(inp, self.empty_inputs(observations.device) if self.skip_empty else None)
        else:
            h, ent = self.enc(inp)
        value = self.critic(h)
        vpriv = self.priv(h, observations[..., -OBS_LEN:]) if priv else None
        return self.head(h, ent, inp["mask"]), value, vpriv

    def forward_eval(self, observations, state=None):
        """(distribution, value): the privileged value for rows that carry the opponent's view (training's
        rollout), else the player's own."""
        dist, value, vpriv = self._forward(observations)
        return dist, (value if vpriv is None else vpriv)

    extra_loss = None      # train: a callable(policy) -> scalar tensor or None, added to PPO's loss (_with_loss)

    def forward(self, observations, state=None):
        """PuffeRL's training forward (its rollout calls forward_eval): forward_eval, and when
        `extra_loss` is set and gradients are on, that loss joins the minibatch's backward. With the
        privileged critic on rows carrying the opponent's view, the value is the privileged one and the
        player's value head is fitted to it (PRIVILEGED_VALUE_COEF x 1/2 (v - v_priv)^2, summed over the
        rows / state["rows"] when given (a share of a split minibatch), else its mean): the value search
        and export use learns what the privileged one knows, in expectation over the hidden cards."""
        dist, value, vpriv = self._forward(observations)
        if vpriv is not None:
            if torch.is_grad_enabled():
                d2 = (value - vpriv.detach()).pow(2).sum()
                rows = state.get("rows") if isinstance(state, dict) else None
                fit = PRIVILEGED_VALUE_COEF * 0.5 * d2 / (rows or value.shape[0])
                value = _with_loss(vpriv, fit)
            else:
                value = vpriv
        if self.extra_loss is not None and torch.is_grad_enabled():
            extra = self.extra_loss(self)
            if extra is not None:
                value = _with_loss(value, extra)
        return dist, value


class _WithLoss(torch.autograd.Function):
    """x unchanged forward; backward also sends gradient 1 into `extra` (a scalar loss), so
    d(total)/d(params) gains d(extra)/d(params) wherever backward passes through x: the way a term
    is added to PuffeRL's loss, which Policy.forward cannot name (its value output always reaches
    the value loss)."""

    @staticmethod
    def forward(ctx, x, extra):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return grad, torch.ones((), dtype=grad.dtype, device=grad.device)


def _with_loss(x, extra):
    return _WithLoss.apply(x, extra)


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


def save_checkpoint(path, policy, arch=None, train_config=None, extra=None, cards=None, optimizer=None,
                    average=None):
    """Write checkpoint NAME (NAME.json naming a weights file, an optimizer
    file when `optimizer` is given, and a file of the running weight average
    (azuki.weight_average's state) when `average` is) by the commit protocol of
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
    if average is not None:
        data["average"] = (".avg.pt", _writer(average))
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
        # the fresh network's initial weights are overwritten below: drawn from a forked generator, so
        # loading a checkpoint never moves torch's global one (a training run's rollout samples from it,
        # and its saves load what they wrote: docs/training.md "Budgets, interruption, resume, seeds")
        with torch.random.fork_rng(devices=[]):
            policy = make_policy(arch, **dict(meta.get("model", {}), head=head))
        state = torch.load(wpath, map_location=map_location, weights_only=True)
        policy.load_state_dict(state)
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
        dev = next(self.policy.parameters()).device       # a policy on a GPU plays on numpy rows too
        dist, _ = self.policy.forward_eval(torch.as_tensor(np.ascontiguousarray(obs)).to(dev))
        if self.greedy:
            a = dist.argmax() if isinstance(dist, Factored) else dist.argmax(dim=-1)
        else:
            from . import sampler
            if keys is not None:
                u = torch.as_tensor(sampler.keyed_uniforms(self.seed, keys))
            else:
                u = torch.rand(dist.shape[0], generator=self.gen, dtype=torch.float64)
            a = dist.sample(u) if isinstance(dist, Factored) else sampler.sample(dist.float(), u.to(dev))[0]
        return a.cpu().numpy().astype(np.int32)

    __call__ = act


__all__ = ["Policy", "AzukiPolicy", "FlatPolicy", "Factored", "make_policy", "action_probs", "obs_inputs", "save_checkpoint", "load_checkpoint", "open_checkpoint",
           "read_meta", "check_compat", "resolve_checkpoint",
           "CheckpointError", "PolicyPlayer", "compat_hashes", "layout_hash", "action_space_hash", "cardset_hash",
           "ARCHITECTURES", "MASK_OFFSET", "export_checkpoint", "state_azkw"]


def export_checkpoint(path, out, dtype="float16", fmt="npz"):
    """Write a checkpoint's weights for the players that need no torch: fmt "npz" -> OUT.npz +
    OUT.json (the numpy player, azuki.policy_np), fmt "azkw" -> OUT.azkw (the C forward pass,
    csrc/policy.c; from a torch or an exported numpy checkpoint) and OUT.json. The training curve
    and league are left out of the metadata. `python -m azuki.policy export`. Returns OUT's base."""
    from .policy_np import export_npz, load_numpy_policy, write_azkw, _write_json
    if fmt == "azkw":
        npol = load_numpy_policy(path)
        meta = dict(npol.meta)
        weights = npol.w
    elif fmt == "npz":
        policy, meta = load_checkpoint(path)
        meta = dict(meta)
        weights = {k: v.detach().float().numpy() for k, v in policy.state_dict().items()}
    else:
        raise ValueError(f"export format npz or azkw, got {fmt!r}")
    meta["extra"] = {k: v for k, v in (meta.get("extra") or {}).items() if k not in ("curve", "league")}
    meta["exported_from"] = meta.get("exported_from") or os.path.basename(_paths(path)[0])
    if fmt == "npz":
        return export_npz(weights, meta, out, dtype)
    base = base_path(out)
    write_azkw(weights, meta, base, dtype)
    if not os.path.exists(base + ".json"):
        meta = {k: v for k, v in meta.items() if k != "files"}
        meta["weights"] = {"file": os.path.basename(base) + ".azkw", "dtype": dtype}
        _write_json(base + ".json", meta)
    return base


def state_azkw(policy, meta_hashes=None, dtype="float32"):
    """The C weight file (bytes) of a live torch policy (a league snapshot: no file round trip)."""
    from .policy_np import azkw_bytes
    meta = {"arch": policy.spec, "model": dict(policy.config), "hashes": meta_hashes or compat_hashes()}
    return azkw_bytes({k: v.detach().float().cpu().numpy() for k, v in policy.state_dict().items()}, meta, dtype)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="python -m azuki.policy",
                                 description="Checkpoint tools. export: write CKPT's weights as OUT.npz + OUT.json "
                                             "for the numpy player (python -m azuki play; no torch needed there), or "
                                             "as OUT.azkw for the C forward pass (--format azkw).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("export", help="torch checkpoint -> numpy checkpoint or C weight file")
    ex.add_argument("ckpt", help="NAME.pt (with NAME.json beside it), or an exported NAME.npz for --format azkw")
    ex.add_argument("out", help="output base path (OUT.npz and OUT.json, or OUT.azkw, are written)")
    ex.add_argument("--dtype", choices=("float16", "float32"), default="float16")
    ex.add_argument("--format", choices=("npz", "azkw"), default="npz",
                    help="npz: the numpy player's checkpoint; azkw: the C policy's weight file (docs/policy_c.md)")
    args = ap.parse_args(argv)
    try:
        base = export_checkpoint(args.ckpt, args.out, args.dtype, args.format)
    except CheckpointError as e:
        print(f"error: {e}", file=__import__("sys").stderr)
        return 2
    ext = ".npz" if args.format == "npz" else ".azkw"
    print(f"wrote {base}{ext} ({os.path.getsize(base + ext) // 1024} KiB) and {base}.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

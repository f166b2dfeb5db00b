"""azuki.envs — reinforcement-learning environments (optional extras).

    azuki.envs.puffer      AzukiEnv, a native pufferlib.PufferEnv on VecGame   (pip install azuki[puffer])
    azuki.envs.pettingzoo  an AEC env, player_0 / player_1                      (pip install azuki[pettingzoo])
    azuki.envs.gymnasium   a single-agent env versus a built-in bot             (pip install azuki[gymnasium])

Each submodule imports only its own framework: the PettingZoo and Gymnasium
modules never import pufferlib, and this module imports none of them.

The helpers here are what a policy needs whatever the framework
(docs/envs.md): where the legal mask sits inside an observation (packed
bits, field MASK of the uint8 layout, docs/observation.md), how to read it,
and how to apply it to logits. PufferLib has no mask channel and its
trainer ignores masks, so a policy reads the mask from the observation and
applies it in BOTH its evaluation and its training forward pass (the
log-probabilities of the two passes must agree).

They take numpy arrays or torch tensors (duck-typed: this module never
imports torch).
"""
from __future__ import annotations

import sys

import numpy as np

from .. import _core
from ..obs import MASK_BYTES, MASK_OFFSET, decode as _decode

NUM_ACTIONS = _core.NUM_ACTIONS
OBS_LEN = _core.OBS_LEN          # bytes (uint8), the mask inside
HEAD_SIZES = tuple(_core.HEAD_SIZES)
#: MASK_OFFSET: the first byte of the packed legal-action mask (field MASK,
#: MASK_BYTES bytes, bit a of the field = flat action a, LSB first) in an observation.
#: Logit given to illegal actions (finite: -inf turns an all-masked row into NaNs).
MASKED_LOGIT = -1e9

_TORCH_SHIFTS = {}   # torch device -> uint8 [8]: 0..7, the bit of each unpacked position (LSB first)


def _torch_shifts(device):
    t = _TORCH_SHIFTS.get(device)
    if t is None:
        torch = sys.modules["torch"]     # obs is a torch tensor, so torch is imported
        t = _TORCH_SHIFTS[device] = torch.arange(8, dtype=torch.uint8, device=device)
    return t


def _check_u8(obs):
    if not str(obs.dtype).endswith("uint8") or obs.shape[-1] < OBS_LEN:
        raise ValueError(f"an observation is uint8 with at least OBS_LEN = {OBS_LEN} entries on its last axis, "
                         f"got dtype {obs.dtype} shape {tuple(obs.shape)}")


def mask_from_obs(obs):
    """The legal-action mask inside uint8 observations (last axis OBS_LEN, or
    OBS_LEN + sum(HEAD_SIZES) for AzukiEnv(action_heads=True)), unpacked from
    its bits to booleans of shape [..., NUM_ACTIONS]: numpy arrays and CPU
    tensors by np.unpackbits (a tensor shares the result's memory: ~8x the
    shifts on a CPU), tensors on another device by shifts on that device
    (_mask_bits_shifts, no round trip to the host)."""
    _check_u8(obs)
    m = obs[..., MASK_OFFSET:MASK_OFFSET + MASK_BYTES]
    if not hasattr(m, "masked_fill"):        # numpy
        return np.unpackbits(m, axis=-1, bitorder="little")[..., :NUM_ACTIONS].astype(bool)
    if m.device.type != "cpu":
        return _mask_bits_shifts(m)
    torch = sys.modules["torch"]             # obs is a torch tensor, so torch is imported
    bits = np.unpackbits(m.numpy(), axis=-1, bitorder="little")[..., :NUM_ACTIONS]
    return torch.from_numpy(np.ascontiguousarray(bits)).view(torch.bool)


def _mask_bits_shifts(m):
    """The mask bytes m (a torch tensor [..., MASK_BYTES]) unpacked by shifts on m's device."""
    bits = ((m.unsqueeze(-1) >> _torch_shifts(m.device)) & 1).bool()     # [..., MASK_BYTES, 8]
    return bits.reshape(tuple(m.shape[:-1]) + (8 * MASK_BYTES,))[..., :NUM_ACTIONS]


def apply_mask(logits, mask):
    """logits with every illegal entry set to MASKED_LOGIT (-1e9): torch
    tensors with masked_fill (differentiable, no in-place change), numpy
    arrays with np.where. mask: booleans or 0/1 of logits' shape."""
    if hasattr(logits, "masked_fill"):
        if str(mask.dtype) != "torch.bool":
            mask = mask != 0
        return logits.masked_fill(~mask, MASKED_LOGIT)
    return np.where(np.asarray(mask) != 0, logits, np.float32(MASKED_LOGIT)).astype(np.asarray(logits).dtype,
                                                                                    copy=False)


def decode_obs(obs):
    """Observations (last axis OBS_LEN, or longer: AzukiEnv(action_heads=True)
    appends its head masks, which are left out) as named fields:
    azuki.obs.decode's {name: int64 array [..., rows, cols]}, bits unpacked,
    MASK bool [..., NUM_ACTIONS] (docs/observation.md). numpy arrays, or torch
    tensors (decoded on the CPU, returned as torch tensors on obs's device;
    for people and tests: a policy reads the bytes itself)."""
    _check_u8(obs)
    if hasattr(obs, "masked_fill"):      # torch
        torch = sys.modules["torch"]
        d = _decode(obs[..., :OBS_LEN].cpu().numpy())
        return {k: torch.from_numpy(v).to(obs.device) for k, v in d.items()}
    return _decode(np.ascontiguousarray(obs[..., :OBS_LEN]))


def _head_tables():
    """For every flat action: its (type, p0, p1) head values; and the
    [NUM_ACTIONS, sum(HEAD_SIZES)] 0/1 matrix mapping a flat mask to the
    per-head marginal masks (a head value is legal when some legal action has it)."""
    names = list(_core.ACTION_TYPES)
    heads = np.zeros((NUM_ACTIONS, 3), dtype=np.int64)
    for a in range(NUM_ACTIONS):
        t, p0, p1, _ = _core.decode(a)
        heads[a] = (names.index(t), p0, p1)
    offs = np.cumsum((0,) + HEAD_SIZES[:-1])
    marg = np.zeros((NUM_ACTIONS, sum(HEAD_SIZES)), dtype=np.uint8)
    for k in range(3):
        marg[np.arange(NUM_ACTIONS), offs[k] + heads[:, k]] = 1
    return heads, marg


#: HEADS[a] = (type, p0, p1) of flat action a; HEAD_MARGINALS: flat mask -> per-head marginal masks.
HEADS, HEAD_MARGINALS = _head_tables()
_HEAD_INDEX = {tuple(h): a for a, h in enumerate(HEADS.tolist())}


def head_masks(mask):
    """Per-head marginal masks of flat masks [..., NUM_ACTIONS]: uint8 [...,
    sum(HEAD_SIZES)], the type head first, then p0, then p1 (a value is 1
    when some legal action has it). Sampling the heads independently from
    these can still give an illegal joint action: see resolve_heads."""
    m = (np.asarray(mask) != 0).astype(np.uint8)
    return (m @ HEAD_MARGINALS > 0).astype(np.uint8)


def resolve_heads(head_actions, mask):
    """Flat actions for MultiDiscrete head actions [rows, 3] under flat legal
    masks [rows, NUM_ACTIONS]. A joint action that is legal is kept; an
    illegal one (the heads were sampled independently) becomes the legal
    action that agrees with it on the longest prefix of heads — same type,
    then same p0, then same p1 —, the lowest flat id among ties. Returns
    (flat int32 [rows], replaced bool [rows])."""
    h = np.asarray(head_actions, dtype=np.int64).reshape(-1, 3)
    legal = np.asarray(mask) != 0
    mt = HEADS[None, :, 0] == h[:, 0:1]
    m0 = mt & (HEADS[None, :, 1] == h[:, 1:2])
    m1 = m0 & (HEADS[None, :, 2] == h[:, 2:3])
    score = mt.astype(np.int8) + m0 + m1
    score = np.where(legal, score, np.int8(-1))
    flat = score.argmax(axis=1).astype(np.int32)
    replaced = score[np.arange(len(h)), flat] < 3
    return flat, replaced


# ---- argument helpers shared by the framework modules --------------------------------------------

def pairings_arg(decks):
    """`decks` as a tuple of (deck, deck) pairs: one pair, or a sequence of pairs."""
    from .._util import excerpt
    if isinstance(decks, (str, bytes)) or not hasattr(decks, "__len__"):
        raise TypeError(f"decks must be a pair of deck names or a list of pairs, got {excerpt(decks)}")
    if len(decks) == 2 and all(isinstance(d, (str, int, np.integer)) for d in decks):
        return (tuple(decks),)
    pairs = tuple(tuple(p) for p in decks)
    if not pairs or any(len(p) != 2 for p in pairs):
        raise ValueError(f"decks must be a pair of deck names or a non-empty list of pairs, got {excerpt(decks)}")
    return pairs


def cards_arg(cards):
    """None, a CardSet, or a JSON path compiled once into a CardSet."""
    if cards is None or isinstance(cards, _core.CardSet):
        return cards
    return _core.CardSet.from_json(cards)


def game_args(decks, cards, turn_cap, decision_cap):
    """(card set, pairings) for envs that build azuki.Games, checked now (a
    Game per pairing) so bad decks or caps fail in the constructor, not at
    the first reset."""
    cards = cards_arg(cards)
    pairings = pairings_arg(decks)
    for pair in pairings:
        _core.Game(seed=0, decks=pair, cards=cards, turn_cap=turn_cap, decision_cap=decision_cap)
    return cards, pairings


def action_id(action):
    """An action as a Python int in [0, NUM_ACTIONS), or None (not an integer, a bool, out of range)."""
    import operator
    if isinstance(action, (bool, np.bool_)):
        return None
    try:
        a = operator.index(action)
    except TypeError:
        return None
    return a if 0 <= a < NUM_ACTIONS else None


__all__ = ["pairings_arg", "cards_arg", "game_args", "action_id", "NUM_ACTIONS", "OBS_LEN", "HEAD_SIZES", "MASK_OFFSET",
           "MASK_BYTES", "MASKED_LOGIT", "mask_from_obs", "apply_mask",
           "decode_obs", "HEADS", "HEAD_MARGINALS", "head_masks", "resolve_heads"]

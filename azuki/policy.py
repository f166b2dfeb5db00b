"""azuki.policy — the policy network for azuki observations, and checkpoints.

Needs torch (the `train` extra); never pufferlib: a checkpoint trained with
PuffeRL loads and plays anywhere torch is installed.

The network (`AzukiPolicy`) reads the observation's structure
(docs/observation.md) instead of one flat vector:
  * one card embedding shared by every card-identity field (places, hand
    slots, prompt options, the placing / source card);
  * the 24 field places through one shared place encoder (their numbers,
    statuses, flags, the card's embedding, whether the place attacks or is
    attacked, plus a learned embedding of the place itself), kept in place
    order (action ids name places: an attack's source and target, a slot);
  * the 50 hand slots through one shared slot encoder (card embedding +
    slot embedding), in canonical order (action ids name hand indices);
  * the 64 prompt options through one shared option encoder (valid, card,
    side, zone, place, number);
  * the card multisets (my hand, deck, discard piles, the opponent's unseen and
    known cards, looked-at cards) as count vectors through one linear layer
    (a count-weighted bag of card vectors);
  * the scalars (phase, turn, counts, prompt kind, ...) through a small MLP;
then a trunk MLP, a policy head over the NUM_ACTIONS flat actions and a value
head. The legal mask inside the observation is applied to the logits in
both forward passes (PuffeRL ignores masks: docs/envs.md), so the policy
never samples an illegal action.

A checkpoint is `NAME.json` (the model config, the training config, the
hashes of the observation layout, the card set and the action space, and the
name, size and sha256 of each data file) and the files it names: a plain
torch state dict (`NAME.gNNNNNN.pt`) and, for training, the optimizer state
(`NAME.gNNNNNN.opt.pt`); written by the commit protocol of
azuki.policy_np.commit_checkpoint (NAME.json is the commit point).
`load_checkpoint` refuses a checkpoint whose hashes differ from this build's
and the card set in use (policy_np.check_compat, the one compatibility check),
with a message naming what changed.
"""
from __future__ import annotations

import io
import json
import os

import numpy as np
import torch
import torch.nn as nn

from .envs import MASK_OFFSET, NUM_ACTIONS, OBS_LEN, apply_mask, mask_from_obs
from .obs import CARD_ID_SCALE, obs_layout

_LAY = obs_layout()
N_CARDS = CARD_ID_SCALE      # identity v = (def + 1) / AZK_CARD_ID_SCALE (docs/observation.md)
N_PLACES, N_HAND, N_OPT = 24, 50, 64
CHECKPOINT_FORMAT = 1


def _off(name):
    return _LAY[name]["offset"]


def _span(name):
    f = _LAY[name]
    return list(range(f["offset"], f["offset"] + int(np.prod(f["shape"]))))


def _per_row(name, rows):
    """[rows, cols] offsets of a slice shaped (rows,) or (rows, cols)."""
    f = _LAY[name]
    shape = f["shape"] if len(f["shape"]) == 2 else (f["shape"][0], 1)
    assert shape[0] == rows, (name, shape)
    return np.arange(f["offset"], f["offset"] + shape[0] * shape[1]).reshape(shape)


# Index tables into the observation (built once from the declared layout).
_PLACE_SCALARS = np.concatenate(
    [_per_row(n, N_PLACES) for n in ("PLACE_OCCUPIED", "PLACE_ATTACK", "PLACE_HEALTH", "PLACE_DAMAGE",
                                      "PLACE_REMAINING", "PLACE_TAPPED", "PLACE_COOLDOWN", "PLACE_STATUS",
                                      "PLACE_WEAPONS", "PLACE_WEAPON_BONUS", "PLACE_ONCE_USED", "ATTACKER",
                                      "TARGET")], axis=1)
_PLACE_CARD = _per_row("PLACE_CARD", N_PLACES)[:, 0]
_HAND_CARD = _per_row("HAND_SLOTS", N_HAND)[:, 0]
_OPT_SCALARS = np.concatenate([_per_row(n, N_OPT) for n in ("OPT_VALID", "OPT_SIDE", "OPT_ZONE", "OPT_PLACE",
                                                            "OPT_NUMBER")], axis=1)
_OPT_CARD = _per_row("OPT_CARD", N_OPT)[:, 0]
_BAGS = np.array(_span("HAND") + _span("OPP_HAND_KNOWN") + _span("DECK") + _span("OPP_UNSEEN") + _span("DISCARD")
                 + _span("LOOK"))
_GLOBAL_NAMES = ("PHASE", "STEP", "DECIDER", "MY_TURN", "FIRST_PLAYER", "TURN", "DECISIONS", "RESULT", "HAND_N",
                 "DECK_N", "DISCARD_N", "IKZ_UNTAPPED", "IKZ_TAPPED", "IKZ_PILE_N", "TOKEN", "LOOK_N",
                 "PLAYED_ENTITIES", "MULLIGAN_DONE", "WEAPONS_N", "IN_ATTACK", "DEFENDER_USED", "PROMPT_KIND",
                 "PROMPT_MINE", "PROMPT_OPTIONAL", "PROMPT_N", "PROMPT_SOURCE_SIDE")
_GLOBALS = np.array(sum((_span(n) for n in _GLOBAL_NAMES), []))
_GLOBAL_CARDS = np.array([_off("PROMPT_SOURCE_CARD"), _off("PROMPT_PLACING_CARD")])
_DECK_BOTTOM = np.array(_span("DECK_BOTTOM"))


# The compatibility hashes and CheckpointError live in the torch-free
# azuki.policy_np (the browser's numpy player checks them the same way).
from .policy_np import (CheckpointError, action_space_hash, base_path, cardset_hash, check_compat,  # noqa: E402
                        commit_checkpoint, compat_hashes, layout_hash, read_meta, resolve_checkpoint)


def _decode(obs):
    """float32 [B, L] in [-1, 1] from uint8 or float observations (in place on the converted copy)."""
    if obs.dtype == torch.uint8:
        return obs.float().sub_(128.0).mul_(1.0 / 127.0)
    return obs.float()


def _card_index(v):
    """Card identity values (def + 1) / N_CARDS -> embedding indices 0..N_CARDS (0: none / unknown)."""
    return torch.clamp(torch.round(v * N_CARDS), 0, N_CARDS).long()


class AzukiPolicy(nn.Module):
    """Structured encoders + trunk + masked policy head + value head (module
    docstring). PuffeRL interface: forward_eval(obs, state) and
    forward(obs, state) both return (masked logits [B, NUM_ACTIONS], value [B, 1])."""

    def __init__(self, hidden=256, card_dim=32, place_dim=32, hand_dim=16, opt_dim=16, **_):
        super().__init__()
        self.config = dict(hidden=hidden, card_dim=card_dim, place_dim=place_dim, hand_dim=hand_dim, opt_dim=opt_dim)
        self.card = nn.Embedding(N_CARDS + 1, card_dim)
        self.place_pos = nn.Parameter(torch.zeros(N_PLACES, place_dim))
        # (a linear layer over [scalars, card embedding] written as the sum of two: no concatenation)
        self.place_x = nn.Linear(_PLACE_SCALARS.shape[1], place_dim)
        self.place_c = nn.Linear(card_dim, place_dim, bias=False)
        self.hand_pos = nn.Parameter(torch.zeros(N_HAND, hand_dim))
        self.hand = nn.Linear(card_dim, hand_dim)
        self.opt_x = nn.Linear(_OPT_SCALARS.shape[1], opt_dim)
        self.opt_c = nn.Linear(card_dim, opt_dim, bias=False)
        self.bags = nn.Sequential(nn.Linear(len(_BAGS), 128), nn.ReLU())
        self.glob = nn.Sequential(nn.Linear(len(_GLOBALS) + 2 * card_dim + card_dim, 64), nn.ReLU())
        trunk_in = N_PLACES * place_dim + N_HAND * hand_dim + N_OPT * opt_dim + 128 + 64
        self.trunk = nn.Sequential(nn.Linear(trunk_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.actor = nn.Linear(hidden, NUM_ACTIONS)
        self.critic = nn.Linear(hidden, 1)
        nn.init.normal_(self.place_pos, std=0.1)
        nn.init.normal_(self.hand_pos, std=0.1)
        nn.init.normal_(self.actor.weight, std=0.01)
        nn.init.zeros_(self.actor.bias)
        for name in ("_PLACE_SCALARS", "_PLACE_CARD", "_HAND_CARD", "_OPT_SCALARS", "_OPT_CARD", "_BAGS",
                     "_GLOBALS", "_GLOBAL_CARDS", "_DECK_BOTTOM"):
            self.register_buffer(name.lower(), torch.as_tensor(globals()[name], dtype=torch.long), persistent=False)

    def encode(self, obs):
        """The trunk's hidden state [B, hidden] and the legal mask [B, NUM_ACTIONS] of raw observations."""
        obs = obs.reshape(-1, obs.shape[-1])
        mask = mask_from_obs(obs)
        x = _decode(obs)
        b = x.shape[0]
        relu = torch.relu
        places = relu(self.place_x(x[:, self._place_scalars]) + self.place_c(self.card(_card_index(x[:, self._place_card])))
                      + self.place_pos)
        hand = relu(self.hand(self.card(_card_index(x[:, self._hand_card]))) + self.hand_pos)
        opts = relu(self.opt_x(x[:, self._opt_scalars]) + self.opt_c(self.card(_card_index(x[:, self._opt_card]))))
        bags = self.bags(x[:, self._bags])
        gcards = self.card(_card_index(x[:, self._global_cards])).reshape(b, -1)
        bottom = self.card(_card_index(x[:, self._deck_bottom])).sum(dim=1)
        glob = self.glob(torch.cat([x[:, self._globals], gcards, bottom], dim=-1))
        h = torch.cat([places.reshape(b, -1), hand.reshape(b, -1), opts.reshape(b, -1), bags, glob], dim=-1)
        return self.trunk(h), mask

    def forward_eval(self, observations, state=None):
        h, mask = self.encode(observations)
        return apply_mask(self.actor(h), mask), self.critic(h)

    def forward(self, observations, state=None):
        return self.forward_eval(observations, state)


class FlatPolicy(nn.Module):
    """Baseline for comparison: one MLP over the whole decoded observation
    (masked head, value head)."""

    def __init__(self, hidden=256, **_):
        super().__init__()
        self.config = dict(hidden=hidden)
        self.net = nn.Sequential(nn.Linear(OBS_LEN, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.actor = nn.Linear(hidden, NUM_ACTIONS)
        self.critic = nn.Linear(hidden, 1)
        nn.init.normal_(self.actor.weight, std=0.01)

    def forward_eval(self, observations, state=None):
        obs = observations.reshape(-1, observations.shape[-1])
        h = self.net(_decode(obs))
        return apply_mask(self.actor(h), mask_from_obs(obs)), self.critic(h)

    def forward(self, observations, state=None):
        return self.forward_eval(observations, state)


ARCHITECTURES = {"structured": AzukiPolicy, "flat": FlatPolicy}


def make_policy(arch="structured", **kw):
    if arch not in ARCHITECTURES:
        raise ValueError(f"unknown policy architecture {arch!r} (known: {', '.join(ARCHITECTURES)})")
    return ARCHITECTURES[arch](**kw)


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


def save_checkpoint(path, policy, arch="structured", train_config=None, extra=None, cards=None, optimizer=None):
    """Write checkpoint NAME (NAME.json naming a weights file, and an optimizer
    file when `optimizer` is given) by the commit protocol of
    azuki.policy_np.commit_checkpoint: every file under a temporary name,
    renamed, NAME.json last (the commit point). Returns NAME.json's path."""
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
        policy = make_policy(meta.get("arch", "structured"), **meta.get("model", {}))
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
        logits, _ = self.policy.forward_eval(torch.as_tensor(np.ascontiguousarray(obs)))
        if self.greedy:
            a = logits.argmax(dim=-1)
        else:
            from . import sampler
            if keys is not None:
                u = torch.as_tensor(sampler.keyed_uniforms(self.seed, keys))
            else:
                u = torch.rand(logits.shape[0], generator=self.gen, dtype=torch.float64)
            a = sampler.sample(logits.float(), u)[0]
        return a.numpy().astype(np.int32)

    __call__ = act


__all__ = ["AzukiPolicy", "FlatPolicy", "make_policy", "save_checkpoint", "load_checkpoint", "open_checkpoint",
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

"""azuki.policy_np — play a trained checkpoint with numpy only (no torch).

The browser front end (`python -m azuki play`) and anything else that must
run in the core install (numpy + jsonschema) use this module; training and
`azuki.policy` need torch.

A numpy checkpoint is two files, like a torch one (azuki/policy.py):
`NAME.npz` (the state dict's arrays, float16 or float32, under the torch
parameter names) and `NAME.json` (the same metadata: architecture, model
config, the observation-layout / action-space / card-set hashes). It is
written from a torch checkpoint by

    python -m azuki.policy export runs/X/checkpoint/latest OUT      (needs torch)

and the package ships one, `azuki/data/reference/reference.{npz,json}`
(tools/make_reference.sh trains and exports it). `load_numpy_policy` refuses a
checkpoint made for another observation layout, action space or card set
(CheckpointError, naming what changed), exactly as `azuki.policy` does.

Both architectures of azuki.policy are implemented ("flat": one MLP over the
observation; "structured": the per-place / per-slot / per-option encoders),
with the observation quantised to uint8 and decoded as training sees it
(VecGame(obs_dtype="uint8")); tests/envs/test_policy_np.py checks that numpy
and torch give the same probabilities.
"""
from __future__ import annotations

import hashlib
import json
import os

import numpy as np

from . import _core
from .obs import OBS_VERSION, obs_layout

CHECKPOINT_FORMAT = 1
NUM_ACTIONS = _core.NUM_ACTIONS
OBS_LEN = _core.OBS_LEN
MASKED_LOGIT = -1e9
REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "reference", "reference")


class CheckpointError(ValueError):
    """A checkpoint that cannot be used with this build (missing, corrupt, or
    made for another observation layout, action space or card set)."""


# ---- compatibility hashes (azuki.policy re-exports these) ------------------------------

def layout_hash():
    """Hash of the observation layout (names, offsets, shapes, version)."""
    lay = obs_layout()
    text = json.dumps([OBS_VERSION, OBS_LEN, [(k, v["offset"], list(v["shape"])) for k, v in lay.items()]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def action_space_hash():
    """Hash of the action space (types, head sizes, every flat id's meaning)."""
    text = json.dumps([NUM_ACTIONS, list(_core.HEAD_SIZES), list(_core.ACTION_TYPES),
                       [_core.decode(a)[:3] for a in range(NUM_ACTIONS)]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cardset_hash(cards=None):
    cs = cards if cards is not None else _core.CardSet.default()
    h = cs.hash
    return f"{h:016x}" if isinstance(h, int) else str(h)


def compat_hashes(cards=None):
    return {"obs_layout": layout_hash(), "action_space": action_space_hash(), "card_set": cardset_hash(cards)}


_WHAT = {"obs_layout": "observation layout", "action_space": "action space", "card_set": "card set"}


def check_compat(meta, where, cards=None):
    """Raise CheckpointError when meta's hashes differ from this build's."""
    now = compat_hashes(cards)
    had = meta.get("hashes", {}) if isinstance(meta.get("hashes"), dict) else {}
    diff = [k for k in now if had.get(k) != now[k]]
    if diff:
        then = ", ".join(f"{k}={had.get(k)}" for k in diff)
        here = ", ".join(f"{k}={now[k]}" for k in diff)
        raise CheckpointError(f"checkpoint {where} was trained for another " + ", ".join(_WHAT[k] for k in diff)
                              + f" (checkpoint {then}; this build {here}); retrain (tools/make_reference.sh "
                              "for the shipped reference), or use the azuki version it came from")


def base_path(path):
    base = os.fspath(path)
    for ext in (".npz", ".pt", ".json"):
        if base.endswith(ext):
            return base[: -len(ext)]
    return base


def read_meta(path):
    js = base_path(path) + ".json"
    try:
        with open(js) as f:
            meta = json.load(f)
    except OSError as e:
        raise CheckpointError(f"checkpoint {js}: cannot read it ({e.strerror})") from None
    except ValueError as e:
        raise CheckpointError(f"checkpoint {js}: not JSON ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointError(f"checkpoint {js}: not an azuki checkpoint of format {CHECKPOINT_FORMAT}")
    return meta


# ---- the networks in numpy ------------------------------------------------------------------

def _relu(x):
    return np.maximum(x, 0.0, out=x)


def _lin(w, prefix, x, bias=True):
    y = x @ w[prefix + ".weight"].T
    if bias:
        y += w[prefix + ".bias"]
    return y


def _mask(obs):
    off = obs_layout()["MASK"]["offset"]
    return obs[:, off:off + NUM_ACTIONS] > 0.5


def _flat(w, x):
    h = _relu(_lin(w, "net.0", x))
    h = _relu(_lin(w, "net.2", h))
    return _lin(w, "actor", h), _lin(w, "critic", h)[:, 0]


class _Structured:
    """azuki.policy.AzukiPolicy's forward pass (same index tables)."""

    def __init__(self):
        lay = obs_layout()
        n_places, n_hand, n_opt = 24, 50, 64      # azuki.policy's N_PLACES, N_HAND, N_OPT

        def span(name):
            f = lay[name]
            return list(range(f["offset"], f["offset"] + int(np.prod(f["shape"]))))

        def per_row(name, rows):
            f = lay[name]
            shape = f["shape"] if len(f["shape"]) == 2 else (f["shape"][0], 1)
            if shape[0] != rows:
                raise CheckpointError(f"observation slice {name} has {shape[0]} rows, the structured policy {rows}")
            return np.arange(f["offset"], f["offset"] + shape[0] * shape[1]).reshape(shape)

        self.place_scalars = np.concatenate(
            [per_row(n, n_places) for n in ("PLACE_OCCUPIED", "PLACE_ATTACK", "PLACE_HEALTH", "PLACE_DAMAGE",
                                            "PLACE_REMAINING", "PLACE_TAPPED", "PLACE_COOLDOWN", "PLACE_STATUS",
                                            "PLACE_WEAPONS", "PLACE_WEAPON_BONUS", "PLACE_ONCE_USED", "ATTACKER",
                                            "TARGET")], axis=1)
        self.place_card = per_row("PLACE_CARD", n_places)[:, 0]
        self.hand_card = per_row("HAND_SLOTS", n_hand)[:, 0]
        self.opt_scalars = np.concatenate([per_row(n, n_opt) for n in ("OPT_VALID", "OPT_SIDE", "OPT_ZONE",
                                                                        "OPT_PLACE", "OPT_NUMBER")], axis=1)
        self.opt_card = per_row("OPT_CARD", n_opt)[:, 0]
        self.bags = np.array(span("HAND") + span("OPP_HAND_KNOWN") + span("DECK") + span("OPP_UNSEEN")
                             + span("DISCARD") + span("LOOK"))
        names = ("PHASE", "STEP", "DECIDER", "MY_TURN", "FIRST_PLAYER", "TURN", "DECISIONS", "RESULT", "HAND_N",
                 "DECK_N", "DISCARD_N", "IKZ_UNTAPPED", "IKZ_TAPPED", "IKZ_PILE_N", "TOKEN", "LOOK_N",
                 "PLAYED_ENTITIES", "MULLIGAN_DONE", "WEAPONS_N", "IN_ATTACK", "DEFENDER_USED", "PROMPT_KIND",
                 "PROMPT_MINE", "PROMPT_OPTIONAL", "PROMPT_N", "PROMPT_SOURCE_SIDE")
        self.globals_ = np.array(sum((span(n) for n in names), []))
        self.global_cards = np.array([lay["PROMPT_SOURCE_CARD"]["offset"], lay["PROMPT_PLACING_CARD"]["offset"]])
        self.deck_bottom = np.array(span("DECK_BOTTOM"))

    def __call__(self, w, x):
        b = x.shape[0]
        emb = w["card.weight"]
        n = emb.shape[0] - 1     # azuki.policy's N_CARDS (the embedding has N_CARDS + 1 rows): identity v = (def + 1) / N

        def ci(v):
            return np.clip(np.rint(v * n), 0, n).astype(np.int64)

        places = _relu(_lin(w, "place_x", x[:, self.place_scalars])
                       + _lin(w, "place_c", emb[ci(x[:, self.place_card])], bias=False) + w["place_pos"])
        hand = _relu(_lin(w, "hand", emb[ci(x[:, self.hand_card])]) + w["hand_pos"])
        opts = _relu(_lin(w, "opt_x", x[:, self.opt_scalars])
                     + _lin(w, "opt_c", emb[ci(x[:, self.opt_card])], bias=False))
        bags = _relu(_lin(w, "bags.0", x[:, self.bags]))
        gcards = emb[ci(x[:, self.global_cards])].reshape(b, -1)
        bottom = emb[ci(x[:, self.deck_bottom])].sum(axis=1)
        glob = _relu(_lin(w, "glob.0", np.concatenate([x[:, self.globals_], gcards, bottom], axis=-1)))
        h = np.concatenate([places.reshape(b, -1), hand.reshape(b, -1), opts.reshape(b, -1), bags, glob], axis=-1)
        h = _relu(_lin(w, "trunk.0", h))
        h = _relu(_lin(w, "trunk.2", h))
        return _lin(w, "actor", h), _lin(w, "critic", h)[:, 0]


class NumpyPolicy:
    """A checkpoint's network in numpy: `forward(obs)` -> (masked logits
    [B, NUM_ACTIONS], value [B]) for float observations [B, OBS_LEN]."""

    def __init__(self, weights, meta, name="policy"):
        self.meta, self.name = meta, name
        self.arch = meta.get("arch", "structured")
        self.w = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
        if self.arch == "flat":
            self._net = _flat
        elif self.arch == "structured":
            self._net = _Structured()
        else:
            raise CheckpointError(f"checkpoint {name}: unknown architecture {self.arch!r}")
        try:     # one forward pass on a blank observation: a wrong or missing array fails here, clearly
            self.forward(np.zeros((1, OBS_LEN), dtype=np.float32))
        except (KeyError, ValueError, IndexError) as e:
            raise CheckpointError(f"checkpoint {name}: the weights do not fit the {self.arch} policy "
                                  f"({type(e).__name__}: {e})") from None

    def forward(self, obs):
        obs = np.asarray(obs, dtype=np.float32).reshape(-1, OBS_LEN)
        # quantise as training saw it: u = 128 + round(127 v), v' = (u - 128) / 127
        x = (np.rint(obs * 127.0) / 127.0).astype(np.float32)
        logits, value = self._net(self.w, x)
        logits = np.where(_mask(obs), logits, np.float32(MASKED_LOGIT)).astype(np.float32)
        return logits, value.astype(np.float32)

    def probabilities(self, obs):
        logits, value = self.forward(obs)
        z = logits - logits.max(axis=-1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=-1, keepdims=True)
        return p, value


def load_numpy_policy(path, cards=None):
    """A NumpyPolicy from NAME.npz + NAME.json (numpy only), or from a torch
    checkpoint NAME.pt + NAME.json when torch is installed. CheckpointError
    when missing, corrupt or made for another build."""
    base = base_path(path)
    meta = read_meta(base)
    check_compat(meta, base, cards)
    name = os.path.basename(base)
    if os.path.exists(base + ".npz"):
        try:
            with np.load(base + ".npz", allow_pickle=False) as z:
                weights = {k: z[k] for k in z.files}
        except (OSError, ValueError) as e:
            raise CheckpointError(f"checkpoint {base}.npz: unreadable ({e})") from None
    elif os.path.exists(base + ".pt"):
        try:
            import torch
        except ImportError:
            raise CheckpointError(f"checkpoint {base}.pt is a torch file and torch is not installed: export it "
                                  f"with `python -m azuki.policy export {base} {base}` where torch is "
                                  "(.venv-puffer), or run this with torch") from None
        try:
            state = torch.load(base + ".pt", map_location="cpu", weights_only=True)
            weights = {k: v.float().numpy() for k, v in state.items()}
        except Exception as e:
            raise CheckpointError(f"checkpoint {base}.pt: cannot load the weights ({type(e).__name__}: {e})") from None
    else:
        raise CheckpointError(f"checkpoint {base}: needs {name}.npz (or {name}.pt) beside {name}.json")
    return NumpyPolicy(weights, meta, name=name)


def decision_info(policy, game):
    """(legal actions, their probabilities under `policy`, the inspection
    record {"value", "probs": [[action, p], ...] most likely first, p >=
    0.001, at most 16}) for the player to act in `game`."""
    p = game.current_player
    if p < 0:
        raise ValueError("the game is over")
    probs, value = policy.probabilities(game.observe(p)[None, :])
    legal = np.asarray(game.legal_actions(), dtype=np.int64)
    pl = probs[0][legal].astype(np.float64)
    s = pl.sum()
    pl = pl / s if s > 0 else np.full(len(legal), 1.0 / len(legal))
    order = np.argsort(-pl, kind="stable")
    info = {"value": round(float(value[0]), 4),
            "probs": [[int(legal[i]), round(float(pl[i]), 4)] for i in order[:16] if pl[i] >= 0.001]}
    return legal, pl, info


def annotate_replay(rep, seat, policy):
    """Add the inspection record ("policy" in each step `seat` chose) of
    `policy` to a replay dict, re-running it (used by `azuki eval --replays`
    for checkpoint players; the hash check ignores the field)."""
    from ._core import Game
    g = Game(seed=rep["seed"], decks=tuple(rep["decks"]), cards=rep.get("cards"), turn_cap=rep.get("turn_cap", 200))
    for s in rep["steps"]:
        if g.current_player == seat:
            s["policy"] = decision_info(policy, g)[2]
        g.step(s["action"])
    return rep


class NumpyPolicyPlayer:
    """A checkpoint as a player of an azuki.Game: `act(game)` -> a legal flat
    action for the player to act (sampled from the masked policy with its own
    numpy generator, or the most likely with greedy=True); `last` holds what
    it saw: {"value", "probs": [[action, p], ...] (most likely first, the
    legal actions with p >= 0.001, at most 16)}."""

    def __init__(self, policy, greedy=False, seed=0):
        self.policy, self.greedy = policy, greedy
        self.name = policy.name
        self.rng = np.random.default_rng(int(seed) & ((1 << 63) - 1))
        self.last = None

    @classmethod
    def load(cls, path, greedy=False, seed=0, cards=None):
        return cls(load_numpy_policy(path, cards=cards), greedy=greedy, seed=seed)

    def inspect(self, game):
        """(probabilities over NUM_ACTIONS, value) for the player to act."""
        p = game.current_player
        if p < 0:
            raise ValueError("the game is over")
        probs, value = self.policy.probabilities(game.observe(p)[None, :])
        return probs[0], float(value[0])

    def act(self, game):
        legal, pl, info = decision_info(self.policy, game)
        if self.greedy:
            a = int(legal[int(np.argmax(pl))])
        else:
            a = int(legal[int(self.rng.choice(len(legal), p=pl))])
        self.last = info if info["probs"] else dict(info, probs=[[a, 1.0]])
        return a

    __call__ = act


def export_npz(weights, meta, out, dtype="float16"):
    """Write OUT.npz (weights as `dtype`) and OUT.json (meta). Returns the base path."""
    base = base_path(out)
    os.makedirs(os.path.dirname(os.path.abspath(base)) or ".", exist_ok=True)
    arrays = {k: np.asarray(v, dtype=np.float32).astype(dtype) for k, v in weights.items()}
    np.savez_compressed(base + ".npz.tmp.npz", **arrays)
    os.replace(base + ".npz.tmp.npz", base + ".npz")
    meta = dict(meta, weights={"file": os.path.basename(base) + ".npz", "dtype": dtype})
    with open(base + ".json.tmp", "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True, default=str)
    os.replace(base + ".json.tmp", base + ".json")
    return base


__all__ = ["NumpyPolicy", "NumpyPolicyPlayer", "decision_info", "annotate_replay", "load_numpy_policy", "CheckpointError", "compat_hashes",
           "layout_hash", "action_space_hash", "cardset_hash", "check_compat", "export_npz", "REFERENCE"]

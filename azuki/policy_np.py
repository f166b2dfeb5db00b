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
import re

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
    """THE compatibility check of a checkpoint, used by every loader (eval,
    play, arena, train --resume, league snapshots, the numpy player): raise
    CheckpointError, naming what differs, when the observation layout, action
    space or card set recorded in `meta` differ from this build's and the card
    set in use (`cards`: a CardSet, a card-set JSON path, or None for the
    embedded starter set)."""
    if cards is not None and not isinstance(cards, _core.CardSet):
        cards = _core.CardSet.from_json(os.fspath(cards))
    now = compat_hashes(cards)
    had = meta.get("hashes", {}) if isinstance(meta.get("hashes"), dict) else {}
    diff = [k for k in now if had.get(k) != now[k]]
    if diff:
        then = ", ".join(f"{k}={had.get(k)}" for k in diff)
        here = ", ".join(f"{k}={now[k]}" for k in diff)
        raise CheckpointError(f"checkpoint {where} was trained for another " + ", ".join(_WHAT[k] for k in diff)
                              + f" (checkpoint {then}; here {here}); retrain (tools/make_reference.sh "
                              "for the shipped reference), or use the azuki version it came from")


def base_path(path):
    base = os.fspath(path)
    for ext in (".npz", ".opt.pt", ".pt", ".json"):
        if base.endswith(ext):
            return base[: -len(ext)]
    return base


# ---- checkpoint files: the commit protocol (docs/training.md, "Checkpoints") ------------------
#
# A checkpoint NAME is NAME.json plus the data files it names (weights, optimizer state):
#   1. each data file is written under a new generation name (NAME.gNNNNNN.pt, NAME.gNNNNNN.opt.pt)
#      as FILE.tmp, flushed to disk and renamed: a crash leaves at most an unreferenced file;
#   2. the committed NAME.json is copied to NAME.prev.json (tmp + rename): the fallback;
#   3. NAME.json.tmp (meta, with each data file's name, size and sha256) is flushed and renamed to
#      NAME.json: that rename is the commit point;
#   4. data files no JSON names any more are deleted.
# A crash at any moment leaves NAME.json naming a complete checkpoint (the old one or the new), and
# NAME.prev.json the one before. Readers (resolve_checkpoint) take the first of NAME.json,
# NAME.prev.json whose files all exist with the recorded size and hash. A checkpoint written
# before this protocol (meta without "files") has its weights in NAME.pt / NAME.npz.

PREV = ".prev"


def _test_kill(point):
    """Test hook (tests/envs/test_train_crash.py): with AZUKI_TEST_KILL=POINT@N the process
    SIGKILLs itself the N-th time it reaches POINT (a named moment inside a save or a training
    epoch), so crash tests need no clock. Does nothing without the variable."""
    spec = os.environ.get("AZUKI_TEST_KILL")
    if not spec:
        return
    name, _, n = spec.partition("@")
    if name != point:
        return
    _KILL_COUNTS[point] = _KILL_COUNTS.get(point, 0) + 1
    if _KILL_COUNTS[point] >= int(n or 1):
        import signal
        os.kill(os.getpid(), signal.SIGKILL)


_KILL_COUNTS = {}


def _fsync_dir(d):
    try:
        fd = os.open(d or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path, write):
    """write(tmp_path) the file's content, flush it to disk, rename it to `path`.
    On any error the temporary file is removed and the error raised; `path` is
    untouched."""
    path = os.fspath(path)
    tmp = path + ".tmp"
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        _test_kill("save.tmp_written")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(os.path.dirname(os.path.abspath(path)))


def _digest(path):
    h = hashlib.sha256()
    n = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            n += len(block)
    return {"bytes": n, "sha256": h.hexdigest()}


def _write_json(path, obj):
    def w(tmp):
        with open(tmp, "w") as f:
            json.dump(obj, f, indent=1, sort_keys=True, default=str)
    write_atomic(path, w)


_GEN = re.compile(r"\.g(\d{6,})\.")


def commit_checkpoint(path, data, meta):
    """Write checkpoint `path` (its base or any of its files) by the commit
    protocol above. `data`: {role: (suffix, write(tmp_path))} for each data file
    (e.g. {"weights": (".pt", ...), "optimizer": (".opt.pt", ...)}); `meta`:
    the JSON content (a "files" entry is added). Returns {role: final path}."""
    base = base_path(path)
    d, name = os.path.split(os.path.abspath(base))
    os.makedirs(d, exist_ok=True)
    gens = [int(m.group(1)) for f in os.listdir(d) if f.startswith(name + ".g") and (m := _GEN.match(f[len(name):]))]
    gen = max(gens, default=0) + 1
    files, out = {}, {}
    for role, (suffix, write) in data.items():
        fn = f"{name}.g{gen:06d}{suffix}"
        write_atomic(os.path.join(d, fn), write)
        files[role] = dict(_digest(os.path.join(d, fn)), file=fn)
        out[role] = os.path.join(d, fn)
        _test_kill("save.data_file")
    meta = dict(meta, files=files)
    cur = os.path.join(d, name + ".json")
    if os.path.exists(cur):
        with open(cur, "rb") as f:
            text = f.read()
        def copy(tmp):
            with open(tmp, "wb") as f:
                f.write(text)
        write_atomic(os.path.join(d, name + PREV + ".json"), copy)
        _test_kill("save.prev_written")
    _write_json(cur, meta)                      # the commit point
    _test_kill("save.committed")
    _collect(d, name)
    return out


def _referenced(d, name):
    keep = set()
    for js in (name + ".json", name + PREV + ".json"):
        try:
            with open(os.path.join(d, js)) as f:
                m = json.load(f)
            keep.update(v["file"] for v in m.get("files", {}).values())
        except (OSError, ValueError, AttributeError, KeyError, TypeError):
            pass
    return keep


def _collect(d, name):
    """Delete NAME's generation files that neither NAME.json nor NAME.prev.json
    names, and NAME's temporary files left by a crash."""
    keep = _referenced(d, name)
    for f in os.listdir(d):
        if not f.startswith(name + "."):
            continue
        gen_file = _GEN.match(f[len(name):]) is not None
        if (gen_file and f not in keep) or (f.endswith(".tmp") and (gen_file or f[len(name):] in (
                ".json.tmp", PREV + ".json.tmp"))):
            try:
                os.remove(os.path.join(d, f))
            except OSError:
                pass


def _check_files(d, meta):
    """{role: path} of a committed meta's data files, or a string saying what is
    missing or damaged."""
    files = meta.get("files")
    if not isinstance(files, dict):
        return "no file list"
    out = {}
    for role, rec in files.items():
        if not isinstance(rec, dict) or not isinstance(rec.get("file"), str) or os.sep in rec["file"]:
            return f"bad file entry for {role}"
        p = os.path.join(d, rec["file"])
        try:
            got = _digest(p)
        except OSError as e:
            return f"{rec['file']}: {e.strerror or e}"
        if got["bytes"] != rec.get("bytes") or got["sha256"] != rec.get("sha256"):
            return f"{rec['file']}: {got['bytes']} bytes, sha256 {got['sha256'][:12]}, not the recorded " \
                   f"{rec.get('bytes')} bytes, {str(rec.get('sha256'))[:12]}"
        out[role] = p
    return out


def _read_json(js):
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


def resolve_checkpoint(path, fallback=True):
    """(meta, {role: path}, json path, [reasons a newer JSON was skipped]) of
    the complete checkpoint at `path` (NAME, NAME.json, NAME.pt, ...): NAME.json
    when every file it names is intact, else (with `fallback`) NAME.prev.json.
    A checkpoint of the older layout (no "files") has {"weights": NAME.npz or
    NAME.pt, "optimizer": NAME.opt.pt if present}. CheckpointError when none
    is complete."""
    base = base_path(path)
    d, name = os.path.split(os.path.abspath(base))
    skipped = []
    cands = [base + ".json"] + ([base + PREV + ".json"] if fallback else [])
    for js in cands:
        if js != cands[0] and not os.path.exists(js):
            continue
        try:
            meta = _read_json(js)
        except CheckpointError as e:
            skipped.append(str(e))
            continue
        if "files" not in meta:        # the older layout: NAME.pt / NAME.npz beside NAME.json
            files = {}
            for ext in (".npz", ".pt"):
                if os.path.exists(base + ext):
                    files["weights"] = base + ext
                    break
            if os.path.exists(base + ".opt.pt"):
                files["optimizer"] = base + ".opt.pt"
            if "weights" not in files:
                skipped.append(f"checkpoint {base}: needs {name}.npz or {name}.pt beside {name}.json")
                continue
            return meta, files, js, skipped
        files = _check_files(d, meta)
        if isinstance(files, str):
            skipped.append(f"checkpoint {js}: incomplete ({files})")
            continue
        return meta, files, js, skipped
    raise CheckpointError("; ".join(skipped) if skipped else f"checkpoint {base}: no such checkpoint")


def checkpoint_exists(path):
    """Whether `path` names a checkpoint (its JSON, or a legacy weights file, exists)."""
    base = base_path(path)
    return os.path.isfile(base + ".json") or os.path.isfile(base + PREV + ".json")


def read_meta(path):
    """The metadata of the complete checkpoint at `path` (resolve_checkpoint)."""
    return resolve_checkpoint(path)[0]


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
    """A NumpyPolicy from NAME.json and the weights it names (NAME.npz, or a
    torch NAME....pt when torch is installed), numpy only. CheckpointError when
    missing, incomplete, corrupt or made for another build or card set."""
    base = base_path(path)
    meta, files, js, _ = resolve_checkpoint(base)
    check_compat(meta, base, cards)
    name = os.path.basename(base)
    wpath = files.get("weights")
    if wpath is None:
        raise CheckpointError(f"checkpoint {js}: names no weights file")
    if wpath.endswith(".npz"):
        try:
            with np.load(wpath, allow_pickle=False) as z:
                weights = {k: z[k] for k in z.files}
        except (OSError, ValueError) as e:
            raise CheckpointError(f"checkpoint {wpath}: unreadable ({e})") from None
    else:
        try:
            import torch
        except ImportError:
            raise CheckpointError(f"checkpoint {wpath} is a torch file and torch is not installed: export it "
                                  f"with `python -m azuki.policy export {base} {base}` where torch is "
                                  "(.venv-puffer), or run this with torch") from None
        try:
            state = torch.load(wpath, map_location="cpu", weights_only=True)
            weights = {k: v.float().numpy() for k, v in state.items()}
        except Exception as e:
            raise CheckpointError(f"checkpoint {wpath}: cannot load the weights ({type(e).__name__}: {e})") from None
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
    """Write OUT.npz (weights as `dtype`) and OUT.json (meta), each to a
    temporary name and renamed, the JSON last. Returns the base path. (A fixed
    pair of names, which `play` looks for: an export is a derived copy,
    rewritten from the committed checkpoint at every save.)"""
    base = base_path(out)
    os.makedirs(os.path.dirname(os.path.abspath(base)) or ".", exist_ok=True)
    arrays = {k: np.asarray(v, dtype=np.float32).astype(dtype) for k, v in weights.items()}

    def w_npz(tmp):
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **arrays)
    write_atomic(base + ".npz", w_npz)
    meta = {k: v for k, v in meta.items() if k != "files"}
    meta["weights"] = {"file": os.path.basename(base) + ".npz", "dtype": dtype}
    _write_json(base + ".json", meta)
    return base


__all__ = ["NumpyPolicy", "NumpyPolicyPlayer", "decision_info", "annotate_replay", "load_numpy_policy", "CheckpointError", "compat_hashes",
           "layout_hash", "action_space_hash", "cardset_hash", "check_compat", "export_npz", "REFERENCE",
           "resolve_checkpoint", "commit_checkpoint", "write_atomic", "checkpoint_exists", "read_meta", "base_path"]

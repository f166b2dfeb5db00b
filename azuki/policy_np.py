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

Every architecture / head pair of azuki.policy is implemented ("structured"
or "flat" encoder, "dense" or "factored" head), reading the uint8
observation (layout v4) through the same index tables as the torch networks
(`obs_tables`, `head_tables`, built here once, from azuki.obs_layout() and the
action space); tests/envs/test_policy_np.py checks that numpy and torch give
the same probabilities.
"""
from __future__ import annotations

import hashlib
import json
import os
import re

import numpy as np

from . import _core
from .obs import OBS_VERSION, PLACES, obs_layout
from .spec_autogen import CAPS

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
    text = json.dumps([OBS_VERSION, OBS_LEN, [(k, v["offset"], list(v["shape"]), v.get("kind"), v.get("n"))
                                              for k, v in lay.items()]])
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
#
# azuki.policy's networks, mirrored op for op (tests/envs/test_policy_np.py checks every
# architecture / head pair). The tables both implementations index with are built here, once,
# torch-free: the observation side (`obs_tables`) and the action head's (`head_tables`).

ARCHS = ("structured", "flat")
HEAD_KINDS = ("factored", "dense")
DEFAULT_HEAD = "dense"     # what an arch spec without ":head" means (azuki/data/train.toml names its head)
# The entity tables' sizes, read from the observation layout (csrc/azk_obs.def): the place rows
# (AZK_OBS_PLACE_ROWS: side * places + place), my hand's slots (AZK_HAND_CAP), the prompt's options
# (AZK_MAX_OPTIONS).
N_PLACES = obs_layout()["PLACE_CARD"]["rows"]
N_HAND = obs_layout()["HAND_CARD"]["cols"]
N_OPT = obs_layout()["OPT_CARD"]["rows"]
# The entities the factored head points at: rows of one table [places | hand slots | options | null].
ENT_PLACE, ENT_HAND, ENT_OPT = 0, N_PLACES, N_PLACES + N_HAND
N_ENT = N_PLACES + N_HAND + N_OPT
ENT_NULL = N_ENT           # "no entity" while the head tables are built (then entity 0 stands in: head_tables)


def parse_arch(arch, head=None):
    """(arch, head) of an architecture spec "ARCH" or "ARCH:HEAD" (the config's
    policy.arch) and an optional explicit head; ValueError for unknown names or
    a contradiction."""
    if not isinstance(arch, str):
        raise ValueError(f"policy architecture must be a string, got {arch!r}")
    base, _, spec_head = arch.partition(":")
    if base not in ARCHS:
        raise ValueError(f"unknown policy architecture {base!r} (known: {', '.join(ARCHS)})")
    if spec_head and head is not None and spec_head != head:
        raise ValueError(f"policy architecture {arch!r} names head {spec_head!r}, but head={head!r} was given")
    h = head if head is not None else (spec_head or DEFAULT_HEAD)
    if h not in HEAD_KINDS:
        raise ValueError(f"unknown policy head {h!r} (known: {', '.join(HEAD_KINDS)})")
    return base, h


def meta_arch(meta):
    """(arch, head) a checkpoint's metadata records (older ones: no head = dense)."""
    model = meta.get("model") or {}
    return parse_arch(meta.get("arch", "structured"), model.get("head"))


_TABLES = {}


def head_tables():
    """The factored head's index tables (numpy, built once from the action space and the kind of
    each parameter csrc/azk_actions.def declares: a new action type needs no code here):
      T, P0 (= 64), P1 (= 6): types, widest p0 and p1; OFF / N0 / N1 [T]: each type's block
      (first flat id, p0 and p1 sizes);
      G0 = the (type, p0) pairs in flat order (NG0 of them), G0_T / G0_P0 their parts;
      TP0[t, p0]: the pair's index (NG0 past the type's p0 values);
      P0FLAT[g, p1]: the flat action (NUM_ACTIONS past the type's p1 values);
      A_T / A_P0 / A_P1 / A_G0 [NUM_ACTIONS]: each flat action's parts and pair;
      ENT0[t, p0]: the entity p0 names (0 where none: the score cannot matter there);
      P0_GROUPS [(table, first entity, width, types)], L0IDX [T, P0], L0_WIDTH: the p0 scores
      per entity table and where each (t, p0) finds its score; L0ROW [T, P0]: the same within one
      row's scores [my places 0..11 | hand slots | options | 0] (azuki.policy.Factored);
      KIND[t]: the p1 kind of a type whose p1 has several values (-1: one value);
      KIND_TGT[k, p1]: the entity a p1 value names (0 past the values);
      KIND_LIN[k]: True for the kind scored by a linear layer (the ability index)."""
    if "head" in _TABLES:
        return _TABLES["head"]
    names = list(_core.ACTION_TYPES)
    n_t = len(names)
    parts = np.array([[names.index(d[0]), d[1], d[2]] for d in (_core.decode(a) for a in range(NUM_ACTIONS))],
                     dtype=np.int64)
    n0 = np.array([parts[parts[:, 0] == t, 1].max() + 1 for t in range(n_t)])
    n1 = np.array([parts[parts[:, 0] == t, 2].max() + 1 for t in range(n_t)])
    p0w, p1w = int(n0.max()), int(n1.max())
    g0 = [(t, p) for t in range(n_t) for p in range(n0[t])]
    ng0 = len(g0)
    tp0 = np.full((n_t, p0w), ng0, dtype=np.int64)
    for g, (t, p) in enumerate(g0):
        tp0[t, p] = g
    p0flat = np.full((ng0, p1w), NUM_ACTIONS, dtype=np.int64)
    a_g0 = tp0[parts[:, 0], parts[:, 1]]
    p0flat[a_g0, parts[:, 2]] = np.arange(NUM_ACTIONS)
    # What each parameter names, from the kinds csrc/azk_actions.def declares (Game.describe reports
    # them): the entity a value points at. Nothing here names an action type.
    row = CAPS["AZK_ROW"]                    # garden / alley slots (GARDEN / ALLEY values)
    half = PLACES                            # places of one side: 0 leader, 1..row garden, then alley, gate
    point = {"HAND": lambda v: ENT_HAND + v, "GARDEN": lambda v: ENT_PLACE + 1 + v,
             "ALLEY": lambda v: ENT_PLACE + 1 + row + v, "HOLDER": lambda v: ENT_PLACE + v,
             "SOURCE": lambda v: ENT_PLACE + v, "ENEMY_HOLDER": lambda v: ENT_PLACE + half + v,
             "OPTION": lambda v: ENT_OPT + v}
    game = _core.Game(seed=0)
    ent0 = np.full((n_t, p0w), ENT_NULL, dtype=np.int64)
    kinds, kind = [], np.full(n_t, -1, dtype=np.int64)
    for t, name in enumerate(names):
        first = int(np.flatnonzero(parts[:, 0] == t)[0])
        pk = {d["param"]: d["kind"] for d in game.describe(first)["params"]}
        k0, k1 = pk.get(0, "NONE"), pk.get(1, "NONE")
        if n0[t] > 1:
            if k0 not in point:
                raise AssertionError(f"action type {name}: the factored head cannot point a p0 of kind {k0}")
            ent0[t, :n0[t]] = [point[k0](v) for v in range(n0[t])]
        if n1[t] == 1:
            continue
        kind[t] = len(kinds)
        if k1 == "ABILITY":                  # an index into the source card's abilities: a linear layer
            kinds.append(None)
        elif k1 in point:
            kinds.append(np.array([point[k1](v) for v in range(n1[t])]))
        else:
            raise AssertionError(f"action type {name}: the factored head cannot score a p1 of kind {k1}")
    kind_tgt = np.full((len(kinds), p1w), ENT_NULL, dtype=np.int64)
    kind_lin = np.zeros(len(kinds), dtype=bool)
    for k, tg in enumerate(kinds):
        if tg is None:
            kind_lin[k] = True
        else:
            kind_tgt[k, :len(tg)] = tg
    # p0 scores are computed per entity table (my places, hand slots, options), only for the types
    # that point into it: P0_GROUPS[(table, start, width)] = types; L0IDX[t, p0] indexes the
    # concatenation of those score blocks (+ one 0 at the end for one-valued types and pads).
    groups, l0idx, pos = [], np.zeros((n_t, p0w), dtype=np.int64), 0
    for table, start, width in (("place", ENT_PLACE, N_PLACES // 2), ("hand", ENT_HAND, N_HAND),
                                ("opt", ENT_OPT, N_OPT)):
        ts = [t for t in range(n_t) if n0[t] > 1 and start <= ent0[t, 0] < start + width]
        for t in ts:
            assert ((ent0[t, :n0[t]] >= start) & (ent0[t, :n0[t]] < start + width)).all()
        groups.append((table, start, width, np.array(ts, dtype=np.int64)))
        for j, t in enumerate(ts):
            l0idx[t, :n0[t]] = pos + j * width + ent0[t, :n0[t]] - start
        pos += len(ts) * width
    for t in range(n_t):
        if n0[t] == 1:
            l0idx[t, :] = pos
        else:
            l0idx[t, n0[t]:] = pos
    assert len(np.unique(np.concatenate([g[3] for g in groups]))) == int((n0 > 1).sum())
    # one row's p0 scores [my places 0..11 | hand slots | options | 0]: L0ROW[t, p0] indexes them
    l0row = np.full((n_t, p0w), N_PLACES // 2 + N_HAND + N_OPT, dtype=np.int64)
    for t in range(n_t):
        if n0[t] == 1:
            continue
        e = ent0[t, :n0[t]]
        l0row[t, :n0[t]] = np.where(e < ENT_HAND, e - ENT_PLACE, np.where(e < ENT_OPT, N_PLACES // 2 + e - ENT_HAND,
                                                                          N_PLACES // 2 + N_HAND + e - ENT_OPT))
    # entity 0 stands in for "none" wherever the score cannot matter (one-valued levels, masked pads)
    ent0 = np.where(ent0 == ENT_NULL, 0, ent0)
    kind_tgt = np.where(kind_tgt == ENT_NULL, 0, kind_tgt)
    g0a = np.array(g0, dtype=np.int64)
    offs = np.array([int(np.flatnonzero(parts[:, 0] == t)[0]) for t in range(n_t)])
    tb = dict(L0ROW=l0row, OFF=offs, N0=n0, N1=n1, P0_GROUPS=groups, L0IDX=l0idx, L0_WIDTH=pos + 1, T=n_t, P0=p0w, P1=p1w, NG0=ng0, G0_T=g0a[:, 0], G0_P0=g0a[:, 1], TP0=tp0, P0FLAT=p0flat,
              A_T=parts[:, 0], A_P0=parts[:, 1], A_P1=parts[:, 2], A_G0=a_g0, ENT0=ent0, KIND=kind,
              G0_KIND=kind[g0a[:, 0]], G0_ENT=ent0[g0a[:, 0], g0a[:, 1]], KIND_TGT=kind_tgt, KIND_LIN=kind_lin,
              K=len(kinds))
    _TABLES["head"] = tb
    return tb


def _relu(x):
    return np.maximum(x, 0.0)


def _lin(w, prefix, x, bias=True):
    y = x @ w[prefix + ".weight"].T
    if bias:
        y = y + w[prefix + ".bias"]
    return y


def _mls(x, legal):
    """Log-softmax of x over its last axis restricted to `legal` (each row has one); 0 where illegal."""
    m = np.where(legal, x, -np.inf).max(axis=-1, keepdims=True)
    s = np.where(legal, np.exp(np.where(legal, x, m) - m), 0.0).sum(axis=-1, keepdims=True)
    return np.where(legal, x - (m + np.log(s)), 0.0)


def legal_levels(mask):
    """The factored head's legal sets from flat masks bool [B, NUM_ACTIONS] (a row without any
    legal action counts every action legal): (mask, m3 [B, NG0, P1] legal p1 values per pair,
    p0 legal [B, T, P0] (pairs with a legal completion), type legal [B, T])."""
    tb = head_tables()
    mask = np.asarray(mask, dtype=bool).copy()
    mask[~mask.any(axis=1)] = True
    mext = np.concatenate([mask, np.zeros((len(mask), 1), dtype=bool)], axis=1)
    m3 = mext[:, tb["P0FLAT"]]
    p0leg = np.concatenate([m3.any(axis=-1), np.zeros((len(mask), 1), dtype=bool)], axis=1)[:, tb["TP0"]]
    return mask, m3, p0leg, p0leg.any(axis=-1)


def _p1_logits(w, h, ent, kind, e):
    """p1 logits [B, N, P1] of the pairs whose p1 kind is kind [N] and p0 entity e [N] (rows of
    ent [B, N_ENT, D]); kind -1 (one p1 value) scores anything (that level is exactly 0)."""
    tb = head_tables()
    b, d = h.shape[0], ent.shape[-1]
    kc = np.maximum(kind, 0)
    zh = _lin(w, "head.z_h", h).reshape(b, tb["K"], d)[:, kc]                        # [B, N, D]
    ze = _lin(w, "head.z_e", ent[:, e], bias=False).reshape(b, len(e), tb["K"], d)
    ze = ze[:, np.arange(len(e)), kc]                                                 # [B, N, D]
    z = _relu(zh + ze)
    s = z @ ent.transpose(0, 2, 1)                                                    # [B, N, N_ENT]
    place = np.take_along_axis(s, np.broadcast_to(tb["KIND_TGT"][kc][None], (b, len(e), tb["P1"])), axis=2)
    lin = _lin(w, "head.ab", z)
    return np.where(tb["KIND_LIN"][kc][None, :, None], lin, place) + w["head.b1"][kc][None]


def _p0_logits(w, h, ent):
    """p0 logits [B, T, P0]: q_t(h) . entity(t, p0), per entity table (head_tables' P0_GROUPS)."""
    tb = head_tables()
    b, d = h.shape[0], ent.shape[-1]
    q = _lin(w, "head.q0", h).reshape(b, tb["T"], d)
    blocks = [(q[:, ts] @ ent[:, start:start + width].transpose(0, 2, 1)).reshape(b, -1)
              for _, start, width, ts in tb["P0_GROUPS"]]
    flat = np.concatenate(blocks + [np.zeros((b, 1), dtype=q.dtype)], axis=1)
    return flat[:, tb["L0IDX"]] + w["head.b0"]


def factored_log_probs(w, h, ent, mask):
    """The factored head's log-probabilities of every flat action [B, NUM_ACTIONS] (-inf where
    illegal) from the trunk state h [B, H], the entities ent [B or 1, N_ENT, D] and the flat
    legal masks [B, NUM_ACTIONS] (azuki.policy.Factored, in full)."""
    tb = head_tables()
    b = h.shape[0]
    mask, m3, p0leg, tleg = legal_levels(mask)
    ent = np.broadcast_to(ent, (b,) + ent.shape[1:])
    logp_t = _mls(_lin(w, "head.tlin", h), tleg)
    logp0 = _mls(_p0_logits(w, h, ent), p0leg | ~tleg[..., None])
    p0any = m3.any(axis=-1)
    logp1 = _mls(_p1_logits(w, h, ent, tb["G0_KIND"], tb["G0_ENT"]), m3 | ~p0any[..., None])
    full = logp_t[:, tb["G0_T"], None] + logp0[:, tb["G0_T"], tb["G0_P0"], None] + logp1     # [B, NG0, P1]
    out = full[:, tb["A_G0"], tb["A_P1"]]
    return np.where(mask, out, -np.inf)


def _dense_logits(w, h, mask):
    return np.where(mask, _lin(w, "head.actor", h), np.float32(MASKED_LOGIT))


OBS_TABLES = {}
# The feature ops of a byte column (obs_tables): NUM value / n, SNUM (int8) value / n, EQ value == code
# ("this place is the attacker"), GT value > code (option i exists: PROMPT_N > i), BIT bit `shift` of
# the byte, ONEHOT the n-wide one-hot of an ENUM / PLACE byte (always the last features of a block;
# azuki.policy reads them as embedding rows of the consuming layer's weight, the same numbers).
FEATURE_OPS = ("NUM", "SNUM", "EQ", "GT", "BIT", "ONEHOT")


def _block(rows):
    """[(op, col, const), ...] per entity row -> {op: (col int64 [R, F_op], const [R, F_op])}."""
    out = {}
    for op in FEATURE_OPS:
        cols = [[c for o, c, _ in r if o == op] for r in rows]
        consts = [[k for o, _, k in r if o == op] for r in rows]
        dt = np.float32 if op in ("NUM", "SNUM") else np.int64
        if op == "ONEHOT":
            assert all(c == consts[0] for c in consts), "ONEHOT fields differ between rows"
        out[op] = (np.array(cols, dtype=np.int64).reshape(len(rows), -1),
                   np.array(consts, dtype=dt).reshape(len(rows), -1))
    return out


def _field_features(f, col, flat=False):
    """The features of byte `col` of field f (a dict of obs_layout), or of a BITS field's bytes from
    `col` on. flat=True: the flat network's reading (one scalar per byte, bits unpacked)."""
    kind, n = f["kind"], f["n"]
    if kind == "snum":
        return [("SNUM", col, 1.0 / n)]
    if kind == "bits":
        return [("BIT", col + (i >> 3), i & 7) for i in range(n)]
    if kind == "num" or flat:
        return [("NUM", col, 1.0 / n)]
    if kind in ("enum", "place"):
        return [("ONEHOT", col, n)] if n > 1 else []
    raise AssertionError(kind)


def obs_tables():
    """Index tables into the observation layout (azuki.obs_layout(): every field's offset, shape,
    kind and n; nothing here repeats a scale), shared with azuki.policy: per-entity feature blocks
    (places, hand slots, options), identity columns, the identity lists as bags, the globals, the
    flat network's reading."""
    if "obs" in OBS_TABLES:
        return OBS_TABLES["obs"]
    lay = obs_layout()
    ids = {f["n"] for f in lay.values() if f["kind"] == "id"}
    assert len(ids) == 1, ids
    n_cards = ids.pop()
    place, hand, opt = [[] for _ in range(N_PLACES)], [[] for _ in range(N_HAND)], [[] for _ in range(N_OPT)]
    glob, glob_id, list_cols, list_bag, flat = [], [], [], [], []
    place_id = hand_id = opt_id = None
    n_bags = 0
    for name, f in lay.items():
        off, rows, cols, kind = f["offset"], f["rows"], f["cols"], f["kind"]
        if name == "PAD":
            continue
        if name == "MASK":
            flat += _field_features(f, off, flat=True)
            continue
        if kind == "bits":
            for r in range(rows):
                flat += _field_features(f, off + r * cols, flat=True)
        else:
            for c in range(rows * cols):
                flat += _field_features(f, off + c, flat=True)
        if rows == N_PLACES:                     # a place field: row side * 12 + place
            if kind == "id":
                place_id = off + cols * np.arange(N_PLACES)
            else:
                for r in range(N_PLACES):
                    place[r] += (_field_features(f, off + r * cols) if kind == "bits" else
                                 sum((_field_features(f, off + r * cols + j) for j in range(cols)), []))
        elif name.startswith("HAND_") and cols == N_HAND:     # my hand, slot i = hand index i
            if kind == "id":
                hand_id = off + np.arange(N_HAND)
            else:
                for i in range(N_HAND):
                    hand[i] += _field_features(f, off + i)
        elif name.startswith("OPT_") and rows == N_OPT:       # option i = CHOOSE i
            if kind == "id":
                opt_id = off + np.arange(N_OPT)
            else:
                for i in range(N_OPT):
                    opt[i] += _field_features(f, off + i * cols)
        elif kind == "id" and rows * cols == 1:
            glob_id.append(off)
        elif kind == "id":                        # an identity list: one bag per row
            for r in range(rows):
                list_cols += list(range(off + r * cols, off + (r + 1) * cols))
                list_bag += [n_bags] * cols
                n_bags += 1
        else:
            if kind == "bits":
                for r in range(rows):
                    glob += _field_features(f, off + r * cols)
            else:
                for c in range(rows * cols):
                    glob += _field_features(f, off + c)
            if kind == "place" and rows * cols == 1:          # ATTACKER, TARGET: also "this place is it"
                for r in range(N_PLACES):
                    place[r].append(("EQ", off, 1 + r))
            if name == "PROMPT_N":                            # option i exists when i < PROMPT_N
                for i in range(N_OPT):
                    opt[i].append(("GT", off, i))
    assert place_id is not None and hand_id is not None and opt_id is not None
    t = dict(n_cards=n_cards, place=_block(place), place_id=place_id, hand=_block(hand), hand_id=hand_id,
             opt=_block(opt), opt_id=opt_id, glob=_block([glob]), glob_id=np.array(glob_id, dtype=np.int64),
             list_cols=np.array(list_cols, dtype=np.int64), list_bag=np.array(list_bag, dtype=np.int64),
             n_bags=n_bags, flat=_block([flat]))
    t["dims"] = {k: sum(t[k][op][0].shape[1] for op in FEATURE_OPS if op != "ONEHOT") + int(t[k]["ONEHOT"][1][0].sum())
                 for k in ("place", "hand", "opt", "glob", "flat")}
    OBS_TABLES["obs"] = t
    return t


def _features(u, s, blk):
    """float32 [B, R, F] features of uint8 observations u [B, L] (s: the same bytes as int8)."""
    parts = []
    for op in FEATURE_OPS:
        col, k = blk[op]
        if col.shape[1] == 0:
            continue
        if op == "NUM":
            parts.append(u[:, col].astype(np.float32) * k)
        elif op == "SNUM":
            parts.append(s[:, col].astype(np.float32) * k)
        elif op == "EQ":
            parts.append((u[:, col] == k).astype(np.float32))
        elif op == "GT":
            parts.append((u[:, col] > k).astype(np.float32))
        elif op == "BIT":
            parts.append(((u[:, col] >> k) & 1).astype(np.float32))
        else:
            v = u[:, col]
            parts += [(v[..., j:j + 1] == np.arange(n)).astype(np.float32) for j, n in enumerate(k[0])]
    return np.concatenate(parts, axis=-1)


def _check_obs(obs):
    obs = np.asarray(obs)
    if obs.dtype != np.uint8 or obs.shape[-1] < OBS_LEN:
        raise ValueError(f"observations are uint8 with at least OBS_LEN = {OBS_LEN} entries on the last axis "
                         f"(layout v{OBS_VERSION}), got dtype {obs.dtype} shape {obs.shape}")
    return obs.reshape(-1, obs.shape[-1])


def obs_inputs(obs, flat=False):
    """THE observation side of the numpy networks: uint8 observations [B, OBS_LEN (+ extra
    columns)] -> the entity inputs {place_x [B, 24, F], place_id [B, 24], hand_x, hand_id,
    opt_x, opt_id, bags (card counts [B, n_bags, n_cards], none counted), glob_x [B, G],
    glob_id [B, K], flat [B, W], mask [B, NUM_ACTIONS]}. azuki.policy.obs_inputs is its torch
    twin. flat=True: only {flat, mask} (what the flat encoder reads)."""
    from .envs import mask_from_obs
    t = obs_tables()
    u = _check_obs(obs)
    s = u.view(np.int8)
    if flat:
        return dict(flat=_features(u, s, t["flat"])[:, 0], mask=mask_from_obs(u))
    b, nc = len(u), t["n_cards"]
    counts = np.zeros((b, t["n_bags"] * nc), dtype=np.float32)
    np.add.at(counts, (np.arange(b)[:, None], t["list_bag"] * nc + u[:, t["list_cols"]]), 1.0)
    counts = counts.reshape(b, t["n_bags"], nc)
    counts[..., 0] = 0.0
    return dict(place_x=_features(u, s, t["place"]), place_id=u[:, t["place_id"]].astype(np.int64),
                hand_x=_features(u, s, t["hand"]), hand_id=u[:, t["hand_id"]].astype(np.int64),
                opt_x=_features(u, s, t["opt"]), opt_id=u[:, t["opt_id"]].astype(np.int64), bags=counts,
                glob_x=_features(u, s, t["glob"])[:, 0], glob_id=u[:, t["glob_id"]].astype(np.int64),
                mask=mask_from_obs(u))


def _structured(w, inp):
    """azuki.policy.StructuredEncoder: (trunk state [B, H], entities [B, N_ENT, D])."""
    emb = w["enc.card.weight"]
    b = inp["place_x"].shape[0]
    places = _relu(_lin(w, "enc.place_x", inp["place_x"]) + (emb @ w["enc.place_c.weight"].T)[inp["place_id"]]
                   + w["enc.place_pos"])
    hand = _relu(_lin(w, "enc.hand_x", inp["hand_x"]) + (emb @ w["enc.hand_c.weight"].T)[inp["hand_id"]]
                 + w["enc.hand_pos"])
    opts = _relu(_lin(w, "enc.opt_x", inp["opt_x"]) + (emb @ w["enc.opt_c.weight"].T)[inp["opt_id"]]
                 + w["enc.opt_pos"])
    bags = _relu(_lin(w, "enc.bags", (inp["bags"] @ emb).reshape(b, -1)))
    glob = _relu(_lin(w, "enc.glob", np.concatenate([inp["glob_x"], emb[inp["glob_id"]].reshape(b, -1)], axis=1)))
    x = np.concatenate([_lin(w, "enc.place_t", places).reshape(b, -1), hand.sum(axis=1), opts.sum(axis=1), bags, glob],
                       axis=1)
    h = _relu(_lin(w, "enc.trunk.2", _relu(_lin(w, "enc.trunk.0", x))))
    return h, np.concatenate([places, hand, opts], axis=1)


def _flat(w, inp):
    """azuki.policy.FlatEncoder: one MLP over every value; entities are learned constants."""
    h = _relu(_lin(w, "enc.net.2", _relu(_lin(w, "enc.net.0", inp["flat"]))))
    return h, w.get("enc.ent", np.zeros((N_ENT, 1), dtype=np.float32))[None]


class NumpyPolicy:
    """A checkpoint's network, run by the C forward pass (azuki._core.CPolicy, csrc/policy.c;
    the numpy functions above are its reference, forward_numpy): `forward(obs)` -> (masked
    "logits" [B, NUM_ACTIONS], value [B]) for uint8 observations [B, OBS_LEN]. The "logits" are
    the exact log-probabilities of every flat action (MASKED_LOGIT where illegal), for either
    head, so a softmax of them gives the policy's probabilities. `cpolicy`: the CPolicy
    (act(obs, u=..., keys=..., greedy=...) samples in C)."""

    def __init__(self, weights, meta, name="policy"):
        self.meta, self.name = meta, name
        try:
            self.arch, self.head = meta_arch(meta)
        except ValueError as e:
            raise CheckpointError(f"checkpoint {name}: {e}") from None
        self.w = {k: np.asarray(v, dtype=np.float32) for k, v in playing_weights(weights).items()}
        self._enc = _structured if self.arch == "structured" else _flat
        try:     # the C loader checks every tensor's presence and shape: a wrong or missing array fails here
            self.cpolicy = _core.CPolicy.from_bytes(azkw_bytes(self.w, dict(meta, hashes=_hashes_or_here(meta))))
        except (ValueError, KeyError) as e:
            raise CheckpointError(f"checkpoint {name}: the weights do not fit the {self.arch}:{self.head} policy "
                                  f"({e})") from None

    def forward(self, obs):
        lp, value = self.cpolicy.forward(np.ascontiguousarray(_check_obs(obs)))
        return np.where(np.isfinite(lp), lp, np.float32(MASKED_LOGIT)).astype(np.float32), value

    def forward_numpy(self, obs):
        """The same in numpy (the reference the C forward is tested against)."""
        inp = obs_inputs(obs, flat=self.arch == "flat")
        h, ent = self._enc(self.w, inp)
        value = _lin(self.w, "critic", h)[:, 0].astype(np.float32)
        if self.head == "dense":
            return _dense_logits(self.w, h, inp["mask"]).astype(np.float32), value
        lp = factored_log_probs(self.w, h, ent, inp["mask"])
        return np.where(np.isfinite(lp), lp, MASKED_LOGIT).astype(np.float32), value

    def probabilities(self, obs):
        logits, value = self.forward(obs)
        z = logits - logits.max(axis=-1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=-1, keepdims=True)
        return p, value


def _hashes_or_here(meta):
    """The checkpoint's hashes for the weight file (this build's where it records none: the
    loaders check compatibility before, with check_compat)."""
    h = meta.get("hashes")
    if isinstance(h, dict) and all(isinstance(h.get(k), str) and len(h[k]) == 16 for k in _WHAT):
        return h
    return compat_hashes()


# ---- the C policy's weight file (csrc/policy.c: format in its header; docs/policy_c.md) ----------------------

AZKW_FORMAT = 1
_AZKW_DT = {"float32": (1, "<f4"), "float16": (2, "<f2"), "int32": (3, "<i4")}


def _azkw_block(blk):
    """A feature block of obs_tables() as the C tables: int32 [R, E, 4] (op, observation column, argument (EQ / GT
    code, BIT shift, ONEHOT width), first input column of the layer) and float32 [R, E] (NUM / SNUM scale)."""
    ents, scales, base = [], [], 0
    rows = next(iter(blk.values()))[0].shape[0]
    for op_i, op in enumerate(FEATURE_OPS):
        col, k = blk[op]
        if col.shape[1] == 0:
            continue
        if op == "ONEHOT":
            n = k[0].astype(np.int64)
            starts = base + np.cumsum(n) - n
            for j in range(col.shape[1]):
                ents.append(np.stack([np.full(rows, op_i), col[:, j], np.full(rows, n[j]), np.full(rows, starts[j])], -1))
                scales.append(np.zeros(rows))
            base += int(n.sum())
            continue
        for j in range(col.shape[1]):
            num = op in ("NUM", "SNUM")
            ents.append(np.stack([np.full(rows, op_i), col[:, j], np.zeros(rows, np.int64) if num else k[:, j],
                                  np.full(rows, base + j)], -1))
            scales.append(k[:, j] if num else np.zeros(rows))
        base += col.shape[1]
    return (np.stack(ents, 1).astype(np.int32), np.stack(scales, 1).astype(np.float32))


def azkw_tables(arch, head):
    """{name: array} of the index tables the C forward reads (obs_tables / head_tables, derived here once)."""
    out = {}
    if arch == "structured":
        t = obs_tables()
        for k in ("place", "hand", "opt", "glob"):
            out[f"tab.{k}"], out[f"tab.{k}.scale"] = _azkw_block(t[k])
        for k in ("place_id", "hand_id", "opt_id", "glob_id", "list_cols", "list_bag"):
            out[f"tab.{k}"] = np.asarray(t[k], dtype=np.int32)
        out["tab.n_bags"] = np.array([t["n_bags"]], dtype=np.int32)
    else:
        out["tab.flat"], out["tab.flat.scale"] = _azkw_block(obs_tables()["flat"])
    if head == "factored":
        tb = head_tables()
        a = np.arange(NUM_ACTIONS)
        assert (tb["OFF"][tb["A_T"]] + tb["A_P0"] * tb["N1"][tb["A_T"]] + tb["A_P1"] == a).all(), "flat ids are (type, p0, p1)"
        for k in ("N0", "N1", "OFF", "ENT0", "KIND", "KIND_TGT", "KIND_LIN"):
            out[f"head.tab.{k}"] = np.asarray(tb[k], dtype=np.int32)
    return out


PRIVILEGED_PREFIX = "priv."   # a privileged critic's parameters (azuki.policy.PrivilegedCritic): training only


def playing_weights(weights):
    """`weights` without a privileged critic's parameters: they read the opponent's hidden cards in training
    and never reach what plays (every export, the C policy, the numpy player, league snapshots)."""
    return {k: v for k, v in weights.items() if not k.startswith(PRIVILEGED_PREFIX)}


def azkw_bytes(weights, meta, dtype="float32"):
    """The C policy's weight file (bytes) of a state dict {torch name: array} and its checkpoint metadata (arch,
    head, hashes): the weights as `dtype` (float16 or float32), the index tables, the header csrc/policy.c
    documents, an FNV-1a checksum last. Deterministic: the same weights give the same bytes."""
    import struct
    arch, head = meta_arch(meta)
    hashes = meta.get("hashes") or {}
    hs = [str(hashes.get(k, "")) for k in ("obs_layout", "action_space", "card_set")]
    if not all(len(h) == 16 and all(c in "0123456789abcdef" for c in h) for h in hs):
        raise CheckpointError(f"azkw export: the checkpoint's compatibility hashes are not 16 hex digits each ({hs})")
    if dtype not in ("float16", "float32"):
        raise ValueError(f"azkw export: dtype float16 or float32, got {dtype!r}")
    tensors = [(k, np.asarray(v, dtype=np.float32), dtype) for k, v in sorted(playing_weights(weights).items())]
    tensors += [(k, v, "int32" if v.dtype.kind == "i" else "float32") for k, v in azkw_tables(arch, head).items()]
    parts = [b"AZKW", struct.pack("<7I", AZKW_FORMAT, ARCHS.index(arch), ("dense", "factored").index(head),
                                  OBS_VERSION, OBS_LEN, NUM_ACTIONS, len(tensors))]
    parts += [h.encode() for h in hs]
    for name, arr, dt in tensors:
        code, np_dt = _AZKW_DT[dt]
        nb = name.encode()
        shape = arr.shape if arr.ndim else (1,)
        parts.append(struct.pack("<B", len(nb)) + nb + struct.pack("<BB", code, len(shape))
                     + struct.pack(f"<{len(shape)}I", *shape))
        parts.append(np.ascontiguousarray(arr, dtype=np_dt).tobytes())
    body = b"".join(parts)
    return body + struct.pack("<Q", _core.fnv1a64(body))


def write_azkw(weights, meta, out, dtype="float32"):
    """Write the C weight file OUT.azkw (azkw_bytes; temporary name, renamed). Returns its path."""
    path = base_path(out) + ".azkw"
    data = azkw_bytes(weights, meta, dtype)

    def w(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
    os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
    write_atomic(path, w)
    return path


def load_cpolicy(path, cards=None):
    """A CPolicy from a C weight file (NAME.azkw), refused (CheckpointError) when unreadable, corrupt,
    or made for another observation layout, action space or card set (check_compat on the hashes
    it carries, the one compatibility check)."""
    p = base_path(path) + ".azkw" if not os.fspath(path).endswith(".azkw") else os.fspath(path)
    try:
        cp = _core.CPolicy.from_file(p)
    except OSError as e:
        raise CheckpointError(f"weight file {p}: cannot read it ({e.strerror})") from None
    except _core.PolicyFileError as e:
        raise CheckpointError(str(e)) from None
    check_compat({"hashes": cp.hashes}, p, cards)
    return cp


def cpolicy_for(path, cards=None):
    """The CPolicy a bot plays from `path`: an AZKW weight file (NAME.azkw, load_cpolicy) or any
    checkpoint load_numpy_policy reads (NAME.json with .npz, or torch .pt); every loader's
    compatibility check applies (CheckpointError naming what differs)."""
    p = os.fspath(path)
    if p.endswith(".azkw"):
        if not os.path.isfile(p):
            raise CheckpointError(f"weight file {p}: no such file")
        return load_cpolicy(p, cards)
    return load_numpy_policy(p, cards).cpolicy


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


class CPolicyPlayer:
    """A C policy (azuki._core.CPolicy) as a player of observation batches, the C twin of
    azuki.policy.PolicyPlayer (league opponents, evaluation): act(obs [k, OBS_LEN] uint8,
    masks=None (the mask is inside the observation), keys=None) -> int32 [k], sampled by inverse
    CDF with keyed_uniforms(seed, key) per row when `keys` are given (the same action
    PolicyPlayer picks for the same seed and key, up to float rounding at an interval's edge),
    else with uniforms from its own numpy generator; greedy=True: the most likely legal action.
    azuki.envs.puffer.play_opponents hands it to VecGame.policy_opponent_actions: the forward and
    the sample in C, inside the vector, on its threads."""

    wants_keys = True

    def __init__(self, cpolicy, greedy=False, seed=0, name="policy"):
        if not isinstance(cpolicy, _core.CPolicy):
            raise TypeError(f"CPolicyPlayer takes a CPolicy, got {type(cpolicy).__name__}")
        self.cpolicy, self.greedy, self.name = cpolicy, bool(greedy), name
        self.seed = int(seed) & ((1 << 63) - 1)
        self.rng = np.random.default_rng(self.seed)

    @classmethod
    def load(cls, path, greedy=False, seed=0, cards=None):
        """From a C weight file (NAME.azkw; load_cpolicy checks compatibility)."""
        return cls(load_cpolicy(path, cards=cards), greedy=greedy, seed=seed, name=os.path.basename(base_path(path)))

    def act(self, obs, masks=None, keys=None):
        obs = np.ascontiguousarray(obs)
        if len(obs) == 0:
            return np.zeros(0, dtype=np.int32)
        if self.greedy:
            return self.cpolicy.act(obs, greedy=True)
        if keys is not None:
            return self.cpolicy.act(obs, keys=keys, seed=self.seed)
        return self.cpolicy.act(obs, u=self.rng.random(len(obs)))

    __call__ = act


def export_npz(weights, meta, out, dtype="float16"):
    """Write OUT.npz (weights as `dtype`) and OUT.json (meta), each to a
    temporary name and renamed, the JSON last. Returns the base path. (A fixed
    pair of names, which `play` looks for: an export is a derived copy,
    rewritten from the committed checkpoint at every save.)"""
    base = base_path(out)
    os.makedirs(os.path.dirname(os.path.abspath(base)) or ".", exist_ok=True)
    arrays = {k: np.asarray(v, dtype=np.float32).astype(dtype) for k, v in playing_weights(weights).items()}

    def w_npz(tmp):
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **arrays)
    write_atomic(base + ".npz", w_npz)
    meta = {k: v for k, v in meta.items() if k != "files"}
    if "privileged" in (meta.get("model") or {}):     # what plays has no privileged critic (playing_weights)
        meta["model"] = {k: v for k, v in meta["model"].items() if k != "privileged"}
    meta["weights"] = {"file": os.path.basename(base) + ".npz", "dtype": dtype}
    _write_json(base + ".json", meta)
    return base


__all__ = ["playing_weights", "PRIVILEGED_PREFIX", "azkw_bytes", "write_azkw", "load_cpolicy", "CPolicyPlayer", "NumpyPolicy", "NumpyPolicyPlayer", "decision_info", "annotate_replay", "load_numpy_policy", "CheckpointError", "compat_hashes",
           "layout_hash", "action_space_hash", "cardset_hash", "check_compat", "export_npz", "REFERENCE",
           "resolve_checkpoint", "commit_checkpoint", "write_atomic", "checkpoint_exists", "read_meta", "base_path"]

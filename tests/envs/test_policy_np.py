"""The numpy checkpoint player (azuki.policy_np, used by `python -m azuki
play` where torch is absent) computes what the torch policy computes: the
same probabilities and value for every architecture / head pair, on
observations of random games (starter and expansion decks); `python -m azuki.policy export` round-trips; the shipped
reference loads. Runs in .venv-puffer (torch); skipped elsewhere."""
import os
import random
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import azuki  # noqa: E402
from azuki.envs import mask_from_obs  # noqa: E402
from azuki.policy import action_probs, make_policy, save_checkpoint  # noqa: E402
from azuki.policy_np import REFERENCE, NumpyPolicy, NumpyPolicyPlayer, compat_hashes, load_numpy_policy  # noqa: E402


EXPANSION = os.path.join(os.path.dirname(azuki._core.__file__), "data", "expansion.json")


def observations(n=48, seed=0, every=1):
    """Observations of the player to act in random games: starter decks, then (every > 1)
    expansion decks too, every `every`-th decision kept (prompts, attacks, abilities)."""
    rng = random.Random(seed)
    out = []
    games = [dict()] + ([dict(decks=("EXP01-FIRE", "EXP01-EARTH"), cards=EXPANSION)] if every > 1 else [])
    for k in range(6):
        g = azuki.Game(seed=seed + k, **games[k % len(games)])
        i = 0
        while not g.is_terminal and len(out) < n * (k + 1) // 6:
            if i % every == 0:
                out.append(g.observe(g.current_player).copy())
            i += 1
            g.step(rng.choice(list(g.legal_actions())))
    return np.stack(out)


def torch_probs(policy, obs):
    if obs.dtype != np.uint8:
        obs = np.clip(np.rint(obs * 127.0) + 128, 0, 255).astype(np.uint8)   # VecGame(obs_dtype="uint8")'s encoding
    with torch.no_grad():
        out, value = policy.forward_eval(torch.as_tensor(obs))
        return action_probs(out).numpy(), value[:, 0].numpy()


@pytest.mark.parametrize("arch", ["flat", "structured", "flat:factored", "structured:factored"])
def test_numpy_and_torch_agree(arch):
    torch.manual_seed(1)
    pol = make_policy(arch, hidden=64).eval()
    with torch.no_grad():     # larger weights than the init, so differences would show
        for p in pol.parameters():
            p.add_(torch.randn_like(p) * 0.05)
    meta = {"format": 1, "arch": arch, "model": dict(pol.config), "hashes": compat_hashes()}
    npol = NumpyPolicy({k: v.numpy() for k, v in pol.state_dict().items()}, meta)
    assert (npol.arch, npol.head) == (pol.arch, pol.head_kind)
    obs = observations(96, every=3)
    pt, vt = torch_probs(pol, obs)
    pn, vn = npol.probabilities(obs)
    assert np.abs(pt - pn).max() < 1e-4 and np.abs(vt - vn).max() < 1e-4
    assert (pn[~mask_from_obs(obs)] == 0).all()          # illegal actions: exactly 0


@pytest.mark.parametrize("arch", ["flat", "structured:factored"])
def test_export_round_trip(tmp_path, arch):
    torch.manual_seed(2)
    pol = make_policy(arch, hidden=32).eval()
    save_checkpoint(tmp_path / "ck", pol, arch=arch, extra={"curve": [1, 2, 3]})
    r = subprocess.run([sys.executable, "-m", "azuki.policy", "export", str(tmp_path / "ck.pt"), str(tmp_path / "np")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    npol = load_numpy_policy(tmp_path / "np")
    assert "curve" not in npol.meta["extra"] and npol.meta["weights"]["dtype"] == "float16"
    obs = observations(12)
    pt, _ = torch_probs(pol, obs)
    pn, _ = npol.probabilities(obs)
    assert np.abs(pt - pn).max() < 2e-2        # float16 weights
    # the .pt itself loads too (torch installed), as the same architecture and head
    assert (npol.arch, npol.head) == (load_numpy_policy(tmp_path / "ck").arch, load_numpy_policy(tmp_path / "ck").head)
    assert npol.arch + ":" + npol.head in (arch, arch + ":dense")
    # and plays a game as the numpy player (decision_info: one row's full distribution)
    p = NumpyPolicyPlayer(npol, seed=1)
    g = azuki.Game(seed=4)
    for _ in range(60):
        if g.is_terminal:
            break
        probs, _ = npol.probabilities(g.observe(g.current_player)[None])
        assert abs(probs[0][list(g.legal_actions())].sum() - 1) < 1e-5      # all mass on the legal actions
        a = p.act(g)
        assert a in set(g.legal_actions()) and p.last["probs"]
        g.step(a)


@pytest.mark.skipif(not os.path.exists(REFERENCE + ".npz"), reason="no shipped reference")
def test_reference_plays():
    p = NumpyPolicyPlayer.load(REFERENCE, seed=0, greedy=True)
    g = azuki.Game(seed=3)
    while not g.is_terminal:
        g.step(p.act(g))
    assert g.result != "ONGOING"


def test_eval_replays_carry_inspection(tmp_path):
    """`azuki eval --replays` records a checkpoint's probabilities and value
    at each of its decisions (docs/play.md "Agent inspection"); with the most
    likely legal action (`:greedy`) the chosen action is the top one."""
    import json
    from azuki.evaluate import evaluate
    from azuki.replay import verify_replay
    torch.manual_seed(3)
    save_checkpoint(tmp_path / "ck", make_policy("flat", hidden=32), arch="flat")
    r = evaluate(str(tmp_path / "ck.pt") + ":greedy", "random", games=2, seed=0, n=2, replays=tmp_path / "rep")
    agree = total = 0
    for f in sorted(os.listdir(tmp_path / "rep")):
        rep = json.load(open(tmp_path / "rep" / f))
        assert verify_replay(rep)[0]
        seat = rep["eval"]["a_seat"]
        mine = [s for s in rep["steps"] if s["player"] == seat]
        assert mine and all("policy" in s for s in mine)
        assert not any("policy" in s for s in rep["steps"] if s["player"] != seat)
        agree += sum(s["policy"]["probs"][0][0] == s["action"] for s in mine)
        total += len(mine)
    assert r["games"] == 2 and agree >= 0.95 * total

"""The policy in C (csrc/policy.c, azuki._core.CPolicy) computes what the torch policy computes:
max |delta log-probability| <= 1e-4 and the same value for every architecture / head pair, with
float32 weights and with float16 weights (torch running the dequantized ones), on observations of
played games (both seats, every kind of decision); the same action as torch's samplers
(Factored.sample, sampler.sample) for the same uniforms and the same greedy action; the league's
PolicyPlayer and the C player agree on keyed actions. Runs in .venv-puffer (torch); the torch-free
checks are tests/test_cpolicy.py."""
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import azuki  # noqa: E402
from azuki import sampler  # noqa: E402
from azuki._core import CPolicy  # noqa: E402
from azuki.policy import Factored, PolicyPlayer, make_policy  # noqa: E402
from azuki.policy_np import azkw_bytes, compat_hashes  # noqa: E402

PAIRS = ["structured:factored", "flat:factored", "structured:dense", "flat:dense"]
EXPANSION = azuki.policy_np.os.path.join(azuki.policy_np.os.path.dirname(azuki._core.__file__), "data", "expansion.json")


def observations(n=400, seed=0):
    """Both seats' observations at every decision of random games (starter and expansion decks):
    the acting seat's (with its legal mask) and the waiting seat's (NO_OP-free, empty mask)."""
    rng = random.Random(seed)
    out = []
    games = [dict(), dict(decks=("EXP01-FIRE", "EXP01-EARTH"), cards=EXPANSION)]
    k = 0
    while len(out) < n:
        g = azuki.Game(seed=seed + k, **games[k % 2])
        k += 1
        while not g.is_terminal and len(out) < n:
            p = g.current_player
            out.append(g.observe(p).copy())
            if rng.random() < 0.2:
                out.append(g.observe(1 - p).copy())
            g.step(rng.choice(list(g.legal_actions())))
    return np.stack(out)


def network(spec, seed=1, hidden=64, half=False):
    torch.manual_seed(seed)
    pol = make_policy(spec, hidden=hidden).eval()
    with torch.no_grad():     # larger weights than the init, so differences would show
        for p in pol.parameters():
            p.add_(torch.randn_like(p) * 0.05)
            if half:          # torch runs the weights the float16 file holds
                p.copy_(p.half().float())
    meta = {"format": 1, "arch": spec, "model": dict(pol.config), "hashes": compat_hashes()}
    return pol, meta


def torch_logp(pol, obs):
    with torch.no_grad():
        out, value = pol.forward_eval(torch.as_tensor(obs))
        if isinstance(out, Factored):
            lp = out.full_log_prob()
        else:
            legal = sampler.legal_entries(out.float())      # a row without legal actions: all legal
            lp = torch.log_softmax(out.float().masked_fill(~legal, float("-inf")), dim=-1)
    return lp.numpy(), value[:, 0].numpy(), out


OBS = None


def obs_cache():
    global OBS
    if OBS is None:
        OBS = observations()
    return OBS


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("spec", PAIRS)
def test_c_matches_torch(spec, dtype):
    pol, meta = network(spec, half=dtype == "float16")
    cp = CPolicy.from_bytes(azkw_bytes({k: v.numpy() for k, v in pol.state_dict().items()}, meta, dtype))
    assert (cp.arch, cp.head) == (pol.arch, pol.head_kind)
    obs = obs_cache()
    lt, vt, out = torch_logp(pol, obs)
    lc, vc = cp.forward(obs)
    assert (np.isfinite(lc) == np.isfinite(lt)).all()            # the same legal sets (-inf where illegal)
    fin = np.isfinite(lt)
    assert np.abs(lc[fin] - lt[fin]).max() <= 1e-4
    assert np.abs(vc - vt).max() <= 1e-4
    # the same action for the same uniforms, and the same greedy action
    u = np.random.default_rng(5).random(len(obs))
    with torch.no_grad():
        ut = torch.as_tensor(u)
        at = (out.sample(ut) if isinstance(out, Factored) else sampler.sample(out.float(), ut)[0]).numpy()
        gt = (out.argmax() if isinstance(out, Factored) else out.argmax(dim=-1)).numpy()
    ac = cp.act(obs, u=u)
    assert (ac == at).mean() >= 0.999, np.flatnonzero(ac != at)
    assert (cp.act(obs, greedy=True) == gt).mean() >= 0.999


def test_keyed_actions_match_policy_player():
    """The league's player (torch, keyed uniforms) and the C policy pick the same actions."""
    pol, meta = network("structured:factored", seed=3, hidden=64)
    cp = CPolicy.from_bytes(azkw_bytes({k: v.numpy() for k, v in pol.state_dict().items()}, meta))
    obs = obs_cache()
    keys = np.arange(len(obs), dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(7)
    at = PolicyPlayer(pol, seed=11).act(obs, keys=keys)
    ac = cp.act(obs, keys=keys, seed=11)
    assert (at == ac).mean() >= 0.999


def test_keyed_uniforms_c_equal_sampler():
    keys = np.array([0, 1, 99, (1 << 64) - 1, 0x9E3779B97F4A7C15], dtype=np.uint64)
    for seed in (0, 3, (1 << 63) - 1):
        assert np.array_equal(azuki._core.keyed_uniforms_c(seed, keys), sampler.keyed_uniforms(seed, keys))

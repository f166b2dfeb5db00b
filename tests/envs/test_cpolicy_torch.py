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


def _league_trace(snap, threads, steps=60, monkeypatch=None):
    """A league under batched_serial (azuki train's): two slots against the snapshot `snap`
    (answered together per round), one against greedy; every step's buffers and the opponents'
    answers as applied."""
    import pufferlib.vector as pv
    from azuki.envs import mask_from_obs, puffer
    from azuki.envs.puffer import AzukiEnv
    vec = pv.make(AzukiEnv, backend=puffer.batched_serial(), num_envs=3,
                  env_kwargs=dict(num_envs=12, mode="policy", opponent="random", report_interval=1 << 30,
                                  threads=threads))
    answers = []
    real = AzukiEnv._opponent_answered

    def answered(self, acts, idx):
        answers.append((self.stream, self.opponent_name, np.asarray(acts)[idx].copy()))
        return real(self, acts, idx)
    try:
        AzukiEnv._opponent_answered = answered
        for k, (env, opp) in enumerate(zip(vec.envs, (snap, "greedy", snap))):
            env.stream = k
            env.set_opponent(opp, name=getattr(opp, "name", opp))
        vec.async_reset(21)
        rng = np.random.default_rng(5)
        trace = []
        for _ in range(steps):
            obs = vec.recv()[0]
            trace.append((obs.copy(), vec.rewards.copy(), vec.terminals.copy()))
            m = mask_from_obs(obs)
            vec.send(np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in m], dtype=np.int32))
    finally:
        AzukiEnv._opponent_answered = real
        vec.close()
    return trace, answers


def test_league_snapshot_in_c_plays_as_the_torch_snapshot(monkeypatch):
    """azuki train's league with a snapshot played in C (CPolicyPlayer, answered inside the
    VecGame) follows the same trajectories as with the torch PolicyPlayer of the same weights
    and seed (keyed uniforms), and threads=2 the same as threads=1; the C player is never called
    from Python on that path."""
    from azuki.policy_np import CPolicyPlayer
    from azuki.policy import state_azkw
    pol, _ = network("structured:factored", seed=4, hidden=64)
    torch_snap = PolicyPlayer(pol, seed=77, name="snap")
    c_snap = CPolicyPlayer(CPolicy.from_bytes(state_azkw(pol)), seed=77, name="snap")
    t_torch, a_torch = _league_trace(torch_snap, 1)

    def no_python(*a, **k):
        raise AssertionError("a C snapshot in a batched league is answered inside the VecGame")
    monkeypatch.setattr(CPolicyPlayer, "act", no_python)
    t_c1, a_c1 = _league_trace(c_snap, 1)
    t_c2, a_c2 = _league_trace(c_snap, 2)
    n_snap = sum(a.size for s, name, a in a_torch if name == "snap")
    assert n_snap > 200
    for other_t, other_a in ((t_c1, a_c1), (t_c2, a_c2)):
        assert len(other_a) == len(a_torch)
        for (s1, n1, x), (s2, n2, y) in zip(a_torch, other_a):
            assert (s1, n1) == (s2, n2)
            np.testing.assert_array_equal(x, y)
        for a, b in zip(t_torch, other_t):
            for x, y in zip(a, b):
                np.testing.assert_array_equal(x, y)


def test_export_command_writes_the_c_weight_file(tmp_path):
    """`python -m azuki.policy export CKPT OUT --format azkw` from a torch checkpoint and from its
    numpy export: both load (load_cpolicy: hashes checked) and compute torch's probabilities."""
    import subprocess
    import sys
    from azuki.policy import save_checkpoint
    from azuki.policy_np import load_cpolicy
    pol, _ = network("flat:factored", seed=6, hidden=32)
    save_checkpoint(tmp_path / "ck", pol, arch="flat:factored")
    for src, out, extra in ((tmp_path / "ck.pt", tmp_path / "c32", ["--dtype", "float32"]),
                            (tmp_path / "ck.pt", tmp_path / "np", []),
                            (tmp_path / "np", tmp_path / "c16", ["--dtype", "float16"])):
        fmt = ["--format", "azkw"] if out.name != "np" else []
        r = subprocess.run([sys.executable, "-m", "azuki.policy", "export", str(src), str(out)] + fmt + extra,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
    obs = obs_cache()[:50]
    lt, vt, _ = torch_logp(pol, obs)
    fin = np.isfinite(lt)
    lc, vc = load_cpolicy(tmp_path / "c32").forward(obs)
    assert np.abs(lc[fin] - lt[fin]).max() <= 1e-4 and np.abs(vc - vt).max() <= 1e-4
    lh, _ = load_cpolicy(tmp_path / "c16.azkw").forward(obs)
    assert np.abs(np.exp(lh[fin]) - np.exp(lt[fin])).max() < 2e-2          # float16 weights


def test_training_league_plays_snapshots_in_c_or_falls_back_to_torch(tmp_path, monkeypatch):
    """azuki train's league answers its snapshots through VecGame.policy_opponent_actions (C);
    a snapshot the C loader refuses (a network it does not know) plays in torch, with a log line,
    and the run completes."""
    import sys
    sys.path.insert(0, str(azuki.policy_np.os.path.dirname(__file__)))
    from test_league_batch import tiny
    from azuki import train as T
    from azuki.envs import puffer

    calls = {"c": 0, "torch": 0, "in_rounds": False}
    real_torch_act = PolicyPlayer.act

    def torch_act(self, *a, **k):           # a torch snapshot answering in the league's rounds
        calls["torch"] += calls["in_rounds"]
        return real_torch_act(self, *a, **k)
    monkeypatch.setattr(PolicyPlayer, "act", torch_act)
    monkeypatch.setattr(PolicyPlayer, "__call__", torch_act)
    real_play = puffer.play_opponents

    def play(envs, batched=True):           # count the rounds in which a C snapshot answers
        calls["c"] += sum(isinstance(getattr(e.opponent, "cpolicy", None), CPolicy) for e in envs)
        calls["in_rounds"] = True
        try:
            return real_play(envs, batched)
        finally:
            calls["in_rounds"] = False
    monkeypatch.setattr(puffer, "play_opponents", play)

    def run(where):
        cfg = tiny(steps=2048)
        cfg["league"]["snapshot_steps"] = 256
        cfg["league"]["opponents"] = ["random"]
        logs = []
        T.train(cfg, tmp_path / where, log=logs.append, quiet=True)
        return logs
    run("c")
    assert calls["c"] > 0 and calls["torch"] == 0

    class Refusing:
        @staticmethod
        def from_bytes(data):
            raise azuki._core.PolicyFileError("weight file refused (TENSOR): tensor x is missing")
    monkeypatch.setattr(azuki._core, "CPolicy", Refusing)
    calls.update(c=0, torch=0, in_rounds=False)
    logs = run("torch")
    assert calls["torch"] > 0 and any("plays in torch" in m for m in logs)
    # the learner's own rollout (ppo.c_rollout) falls back to torch too, said once
    assert sum("ppo.c_rollout: the learner acts in torch (no C forward for it: weight file refused" in m
               for m in logs) == 1

"""The training pipeline end to end (azuki.train, azuki.policy, azuki.evaluate;
docs/training.md): a short run, checkpoints that load without pufferlib, the
policy's masking in both forward passes, checkpoint compatibility checks,
determinism, resume and Ctrl-C. Runs in .venv-puffer; skipped elsewhere.
Learning speed is measured in the README, never asserted here."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("pufferlib")
torch = pytest.importorskip("torch")

from azuki import train as T  # noqa: E402
from azuki.envs import mask_from_obs  # noqa: E402
from azuki.envs.puffer import AzukiEnv  # noqa: E402
from azuki.policy import (CheckpointError, PolicyPlayer, load_checkpoint, make_policy,  # noqa: E402
                          save_checkpoint)


def tiny_config(**run):
    cfg = T.load_config(overrides=[
        "env.envs=2", "env.games_per_env=16", "ppo.bptt_horizon=8", "ppo.minibatch_size=128",
        "eval.games=8", "eval.minutes=100.0", "league.snapshot_steps=0", "league.pool_size=2",
        "run.checkpoint_minutes=100.0", "run.log_seconds=0.0", "policy.hidden=32",
        "kickstart.decisions=0"])
    cfg["run"].update({"minutes": 0.0, "steps": 2048, "threads": 1, **run})
    return cfg


def test_short_training_run_end_to_end(tmp_path):
    lines = []
    s = T.train(tiny_config(), tmp_path / "run", log=lines.append)
    assert s["steps"] >= 2048 and "step budget" in s["stopped"]
    assert s["losses"] and all(np.isfinite(v) for v in s["losses"].values())
    assert lines and "steps" in lines[-1]
    ck = tmp_path / "run" / "checkpoint" / "latest.pt"        # names the checkpoint latest.json
    assert ck.with_suffix(".json").exists()
    assert (tmp_path / "run" / "curve.json").exists() and (tmp_path / "run" / "summary.json").exists()
    assert (tmp_path / "run" / "curve.png").stat().st_size > 1000
    meta = json.loads(ck.with_suffix(".json").read_text())
    assert set(meta["hashes"]) == {"obs_layout", "action_space", "card_set"}
    assert meta["extra"]["league"]["order"]            # snapshots joined the pool
    # reload and evaluate in a process where pufferlib cannot be imported
    code = (
        "import sys; sys.modules['pufferlib'] = None\n"
        "from azuki.policy import PolicyPlayer\n"
        "from azuki.evaluate import evaluate\n"
        f"p = PolicyPlayer.load({str(ck)!r})\n"
        "r = evaluate(p, 'random', games=8, seed=1)\n"
        "print(r['games'] if 'games' in r else r)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=str(tmp_path))
    assert out.returncode == 0, out.stderr[-2000:]


def test_final_report_gives_each_deck_matchup(tmp_path, capsys):
    """The final evaluation prints and keeps the win rate of every deck
    matchup (the policy's deck first), so a run trained on some pairings
    shows where it is weak (docs/training.md "Deck pairings")."""
    cfg = tiny_config()
    s = T.train(cfg, tmp_path / "run", log=lambda m: None)
    cfg["eval"].update({"final_games": 8, "bots": ["random"]})
    capsys.readouterr()
    T._final_report(cfg, tmp_path / "run", s)
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "by decks:" in x)
    matchups = ("STT01 vs STT01", "STT01 vs STT02", "STT02 vs STT01", "STT02 vs STT02")
    assert all(m in line for m in matchups), line
    kept = json.loads((tmp_path / "run" / "summary.json").read_text())["final_eval"]["random"]
    assert set(kept["by_decks"]) == set(matchups) and all(0 <= v <= 1 for v in kept["by_decks"].values())


def test_same_seed_same_checkpoint_with_a_step_budget(tmp_path):
    a = T.train(tiny_config(seed=5), tmp_path / "a", log=lambda m: None)
    b = T.train(tiny_config(seed=5), tmp_path / "b", log=lambda m: None)
    pa, _ = load_checkpoint(a["checkpoint"])
    pb, _ = load_checkpoint(b["checkpoint"])
    for (k, va), (_, vb) in zip(pa.state_dict().items(), pb.state_dict().items()):
        assert torch.equal(va, vb), k


def test_timers_leave_a_step_budget_run_alone(tmp_path):
    """A step-budget run trains the same weights on a quiet machine and a loaded one: the saves
    (run.checkpoint_minutes) and curve points (eval.minutes) that wall-clock timers trigger draw
    nothing from the run's random streams (the rollout samples from torch's global generator; a save
    loads what it wrote, and loading a checkpoint once drew the new network's initial weights from
    it). Here a save and a curve point after every epoch against none; and a load alone."""
    a = T.train(tiny_config(seed=5, steps=4096), tmp_path / "a", log=lambda m: None)
    cfg = tiny_config(seed=5, steps=4096)
    cfg["run"]["checkpoint_minutes"], cfg["eval"]["minutes"] = 0.0, 0.0
    b = T.train(cfg, tmp_path / "b", log=lambda m: None)
    assert len(json.loads((tmp_path / "b" / "curve.json").read_text())) > 3
    pa, pb = load_checkpoint(a["checkpoint"])[0].state_dict(), load_checkpoint(b["checkpoint"])[0].state_dict()
    assert all(torch.equal(pa[k], pb[k]) for k in pa)
    before = torch.get_rng_state()
    load_checkpoint(a["checkpoint"])
    assert torch.equal(torch.get_rng_state(), before)


def test_env_threads_give_the_same_checkpoint(tmp_path):
    """[env] threads = 2 (each AzukiEnv's VecGame steps and plays the bots on
    a C worker pool) trains exactly the run threads = 1 trains: the same
    seed gives the same weights."""
    cfg = tiny_config(seed=5)
    cfg["env"]["threads"] = 2
    a = T.train(cfg, tmp_path / "a", log=lambda m: None)
    b = T.train(tiny_config(seed=5), tmp_path / "b", log=lambda m: None)
    assert T.load_config()["env"]["threads"] == 1
    pa, _ = load_checkpoint(a["checkpoint"])
    pb, _ = load_checkpoint(b["checkpoint"])
    for (k, va), (_, vb) in zip(pa.state_dict().items(), pb.state_dict().items()):
        assert torch.equal(va, vb), k


def test_train_command_makes_torch_threads_wait_passively(monkeypatch):
    """`azuki train` sets OMP_WAIT_POLICY=PASSIVE before it imports torch
    (spinning OpenMP threads slowed a loaded 2-core machine ~3-4x), unless
    the environment says otherwise or torch is already loaded (too late)."""
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.delitem(sys.modules, "torch")
    T._passive_omp()
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    T._passive_omp()
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"
    monkeypatch.delenv("OMP_WAIT_POLICY")
    monkeypatch.setitem(sys.modules, "torch", torch)
    T._passive_omp()
    assert "OMP_WAIT_POLICY" not in os.environ

def test_train_command_line_sets_the_passive_wait_before_torch(tmp_path):
    """The command line path end to end: when training starts, the variable is
    set and torch was imported after it (a child process without it set)."""
    code = ("import os, sys\n"
            "import azuki.train as T\n"
            "assert 'torch' not in sys.modules\n"
            "T.train = lambda *a, **k: sys.exit('OMP=%s' % os.environ.get('OMP_WAIT_POLICY'))\n"
            "from azuki.__main__ import main\n"
            "main(['train', '--minutes', '0', '--steps', '1', '--out', sys.argv[1]])\n")
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r")], capture_output=True, text=True,
                         timeout=120, env=env)
    assert "OMP=PASSIVE" in out.stderr, out.stderr[-2000:]


def test_resume_continues_the_run(tmp_path):
    T.train(tiny_config(), tmp_path / "run", log=lambda m: None)
    lines = []
    s = T.train(tiny_config(steps=4096), tmp_path / "run", resume=tmp_path / "run", log=lines.append)
    assert any("resumed" in m for m in lines)
    assert s["steps"] >= 4096


def test_ctrl_c_saves_a_checkpoint_and_exits_cleanly(tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "azuki", "train", "--minutes", "5", "--out", str(tmp_path / "r"),
                          "--set", "env.envs=2", "--set", "env.games_per_env=16", "--set", "ppo.bptt_horizon=8",
                          "--set", "ppo.minibatch_size=128", "--set", "eval.games=8", "--set", "policy.hidden=32",
                          "--set", "kickstart.decisions=0", "--set", "eval.final_games=0",
                          "--set", "run.log_seconds=0.0"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=str(tmp_path))
    seen = []
    deadline = time.time() + 120
    for line in p.stdout:
        seen.append(line)
        if "steps" in line and "/s" in line:
            break
        assert time.time() < deadline, "".join(seen)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=600)   # a hang guard only: no final evaluation runs (eval.final_games=0)
    assert p.returncode == 0, "".join(seen) + out
    assert "interrupted" in out
    assert (tmp_path / "r" / "checkpoint" / "latest.json").exists()


@pytest.mark.parametrize("arch", ["flat", "structured"])
def test_policy_never_samples_illegal_in_either_pass(arch):
    import pufferlib.pytorch
    torch.manual_seed(0)
    policy = make_policy(arch, hidden=64)
    env = AzukiEnv(num_envs=64, mode="bot", bot="greedy", illegal_action="raise")
    env.reset(seed=2)
    for _ in range(60):
        obs = torch.from_numpy(env.observations)
        legal = mask_from_obs(obs)
        with torch.no_grad():
            logits, _ = policy.forward_eval(obs)
        a, _, _ = pufferlib.pytorch.sample_logits(logits)
        assert bool(legal[torch.arange(len(a)), a.long().flatten()].all())
        # the training pass (PuffeRL reshapes to [-1, obs]) gives the same masked distribution
        logits_t, _ = policy.forward(obs.reshape(4, -1, obs.shape[-1]))
        a2, logp, _ = pufferlib.pytorch.sample_logits(logits_t)
        assert bool(legal[torch.arange(len(a2.flatten())), a2.long().flatten()].all())
        _, logp_eval, _ = pufferlib.pytorch.sample_logits(logits, action=a2.reshape(a.shape))
        assert torch.allclose(logp, logp_eval, atol=1e-5)
        env.step(a.numpy().astype(np.int32))     # illegal_action="raise": an illegal action would raise


def test_checkpoint_mismatch_and_corruption_are_clear_errors(tmp_path):
    policy = make_policy("flat", hidden=16)
    pt = save_checkpoint(tmp_path / "m", policy, arch="flat")
    load_checkpoint(pt)
    js = tmp_path / "m.json"
    meta = json.loads(js.read_text())
    good = dict(meta["hashes"])
    meta["hashes"]["obs_layout"] = "0000000000000000"
    js.write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="observation layout"):
        load_checkpoint(pt)
    meta["hashes"] = dict(good, card_set="x")
    js.write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="card set"):
        load_checkpoint(pt)
    with pytest.raises(CheckpointError, match="cannot read"):
        load_checkpoint(tmp_path / "missing.pt")
    save_checkpoint(tmp_path / "n", policy, arch="flat")
    n_meta = json.loads((tmp_path / "n.json").read_text())
    (tmp_path / n_meta["files"]["weights"]["file"]).write_bytes(b"not a torch file")
    with pytest.raises(CheckpointError, match="incomplete"):
        load_checkpoint(tmp_path / "n.pt")
    n_meta["files"]["weights"].update(bytes=16, sha256=__import__("hashlib").sha256(b"not a torch file").hexdigest())
    (tmp_path / "n.json").write_text(json.dumps(n_meta))
    with pytest.raises(CheckpointError, match="cannot load"):
        load_checkpoint(tmp_path / "n.pt")
    js.write_text("{not json")
    with pytest.raises(CheckpointError, match="not JSON"):
        load_checkpoint(pt)


def test_policy_player_is_seeded():
    policy = make_policy("flat", hidden=16)
    env = AzukiEnv(num_envs=16, mode="bot")
    env.reset(seed=0)
    a = PolicyPlayer(policy, seed=3).act(env.observations)
    b = PolicyPlayer(policy, seed=3).act(env.observations)
    np.testing.assert_array_equal(a, b)


def test_config_errors():
    with pytest.raises(ValueError):
        T.load_config(overrides=["nosuch.key=1"])
    with pytest.raises(ValueError):
        T.load_config(overrides=["run.minutes"])
    cfg = T.load_config(overrides=["run.minutes=2.5", "policy.arch=structured"])
    assert cfg["run"]["minutes"] == 2.5 and cfg["policy"]["arch"] == "structured"


def test_every_loader_checks_the_card_set_in_use(tmp_path):
    """One compatibility check (azuki.policy_np.check_compat) for every loader.
    Before, `eval CKPT --cards OTHER.json` played a checkpoint trained on the
    starter set (while `play --cards` refused it)."""
    from azuki import _core
    from azuki.policy_np import load_numpy_policy
    exp = os.path.join(os.path.dirname(_core.__file__), "data", "expansion.json")
    other = _core.CardSet.from_json(exp)
    pt = tmp_path / "m.pt"
    save_checkpoint(pt, make_policy("flat", hidden=16), arch="flat")
    p = subprocess.run([sys.executable, "-m", "azuki", "eval", str(pt), "random", "--cards", exp,
                        "--decks", "EXP01-FIRE,EXP01-EARTH", "--games", "2"],
                       capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
    assert p.returncode == 2, p.stdout + p.stderr
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and "card set" in err[0], p.stderr
    for load in (lambda: load_checkpoint(pt, cards=other), lambda: PolicyPlayer.load(pt, cards=other),
                 lambda: load_numpy_policy(pt, cards=other)):
        with pytest.raises(CheckpointError, match="card set"):
            load()
    load_checkpoint(pt)            # the starter set: fine


def test_make_run_trains_a_step_budget_and_make_train_ten_minutes():
    """make run's budget is agent-steps (the same work on any machine), make
    train's a 10-minute wall clock (Makefile; docs/training.md)."""
    import re
    import shutil
    if shutil.which("make") is None:
        pytest.skip("no make")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    def train_line(target):
        out = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=root, capture_output=True,
                             text=True, timeout=120)
        lines = [ln for ln in out.stdout.splitlines() if "azuki train" in ln]
        assert lines, out.stdout + out.stderr
        return lines[-1]
    run = train_line("run")
    assert re.search(r"--minutes 0 --steps [1-9][0-9]*", run), run
    assert re.search(r"--minutes 10 --steps 0\b", train_line("train"))
    # make run's recipe (azuki/data/run.toml): the default network, one expert round before PPO, greedy the only
    # built-in opponent, the last quarter's weights averaged, curve points by agent-steps; make train the recipe of
    # training from search (azuki/data/expert.toml)
    m = re.search(r"--config (\S+)", run)
    assert m, run
    cfg = T.load_config(os.path.join(root, m.group(1)))
    assert cfg["policy"]["arch"] == T.load_config()["policy"]["arch"] and cfg["league"]["opponents"] == ["greedy"]
    assert cfg["expert"]["decisions"] > 0 and cfg["expert"]["every_steps"] == 0 and cfg["expert"]["prefetch"]
    assert cfg["kickstart"]["decisions"] > 0 and cfg["ppo"]["average_last"] == 0.25
    assert 0 < cfg["eval"]["steps"] < int(re.search(r"--steps (\d+)", run).group(1))    # a curve by agent-steps
    m = re.search(r"--config (\S+)", train_line("train"))
    assert m and m.group(1).endswith("expert.toml"), train_line("train")
    cfg = T.load_config(os.path.join(root, m.group(1)))
    assert cfg["policy"]["arch"] == T.load_config()["policy"]["arch"]
    assert cfg["expert"]["decisions"] > 0 and cfg["expert"]["every_steps"] > 0 and cfg["expert"]["prefetch"]


def test_the_60_minute_recipe_is_expert_toml_with_two_changes():
    """azuki/data/expert60.toml (docs/training.md "The 60-minute run") is make train's recipe (expert.toml)
    with the learning rate annealed over the budget and no label round in its last 60 %: nothing else."""
    data = os.path.join(os.path.dirname(T.__file__), "data")
    long = T.load_config(os.path.join(data, "expert60.toml"))
    short = T.load_config(os.path.join(data, "expert.toml"))
    assert long["ppo"]["anneal_lr"] is True and long["expert"]["quiet_end"] == 0.6
    assert short["ppo"]["anneal_lr"] is False and short["expert"]["quiet_end"] != 0.6
    short["ppo"]["anneal_lr"], short["expert"]["quiet_end"] = True, 0.6
    assert long == short


def test_a_config_builds_on_its_base_and_refuses_a_loop(tmp_path):
    (tmp_path / "a.toml").write_text('[ppo]\nlearning_rate = 0.002\nent_coef = 0.03\n')
    (tmp_path / "b.toml").write_text('base = "a.toml"\n[ppo]\nent_coef = 0.04\n')
    cfg = T.load_config(str(tmp_path / "b.toml"), ["ppo.gamma=0.9"])
    assert (cfg["ppo"]["learning_rate"], cfg["ppo"]["ent_coef"], cfg["ppo"]["gamma"]) == (0.002, 0.04, 0.9)
    (tmp_path / "c.toml").write_text('base = "d.toml"\n')
    (tmp_path / "d.toml").write_text('base = "c.toml"\n')
    with pytest.raises(ValueError, match="builds on itself"):
        T.load_config(str(tmp_path / "c.toml"))
    (tmp_path / "e.toml").write_text('base = 3\n')
    with pytest.raises(ValueError, match="base must be a file name"):
        T.load_config(str(tmp_path / "e.toml"))
    (tmp_path / "f.toml").write_text('[ppo]\nno_such_key = 1\n')
    (tmp_path / "g.toml").write_text('base = "f.toml"\n')
    with pytest.raises(ValueError, match=r"f\.toml: unknown key ppo\.no_such_key"):
        T.load_config(str(tmp_path / "g.toml"))


def test_final_summary_says_the_budget_and_the_rate(capsys):
    cfg = tiny_config()
    cfg["eval"]["final_games"] = 0
    s = {"stopped": "step budget (2,048 steps)", "steps": 2048, "train_minutes": 0.5, "checkpoint": "x",
         "budget": {"minutes": None, "steps": 2048}, "steps_per_second": 68.3,
         "final": {"steps": 2048, "vs_random": 0.5}}
    T._final_report(cfg, "out", s)
    line = capsys.readouterr().out.splitlines()[0]
    assert "budget 2,048 steps" in line and "68 agent-steps/s" in line
    s["budget"] = {"minutes": 10.0, "steps": None}
    T._final_report(cfg, "out", s)
    assert "budget 10 min;" in capsys.readouterr().out


def test_the_learner_is_evaluated_in_c_as_azuki_eval_plays_its_checkpoint(tmp_path, monkeypatch):
    """The curve's evaluations play the learner in C (train.learner_player: its exported weights as
    a policy bot, the most likely legal action; temperature 1 when not greedy), game for game as
    `azuki eval policy:CKPT` plays the saved checkpoint (the command the final evaluation prints);
    a network the C forward refuses plays in torch."""
    import torch
    from azuki import policy as P
    from azuki.eval_players import PBotPlayer
    from azuki.evaluate import evaluate
    torch.manual_seed(0)
    pol = P.make_policy("structured:factored", hidden=64)
    p = T.learner_player(pol, True, 0)
    assert isinstance(p, PBotPlayer) and p.kind == "policy" and p.settings == {}
    assert T.learner_player(pol, False, 0).settings == {"temp": 1.0}
    js = P.save_checkpoint(tmp_path / "ck", pol)
    for greedy in (True, False):
        spec = f"policy:{js}" + ("" if greedy else ":temp=1")
        a = evaluate(T.learner_player(pol, greedy, 0), "greedy", games=24, seed=3, outcomes=True)
        b = evaluate(spec, "greedy", games=24, seed=3, outcomes=True)
        assert a["outcomes"] == b["outcomes"], greedy

    def refuse(*_a, **_k):
        raise ValueError("no C forward for this network")
    monkeypatch.setattr(P, "state_azkw", refuse)
    fallback = T.learner_player(pol, True, 5)
    assert isinstance(fallback, P.PolicyPlayer) and fallback.greedy


def test_anneal_lr_decays_over_the_step_budget(tmp_path):
    """ppo.anneal_lr: PuffeRL's cosine schedule over the run's step budget (the learning rate reaches 0
    at its end: the saved optimizer says so); refused, before any work, without a step budget; a
    resumed run's schedule continues from its step count, recomputed from the configured rate (not
    from the optimizer state's last value, which the scheduler's recursive form would anneal twice)."""
    import math

    from azuki.policy import open_checkpoint
    cfg = tiny_config(steps=512)           # 2 PPO epochs of 32 agents x 8
    cfg["ppo"]["anneal_lr"] = True
    assert T._puffer_config(cfg, "cpu", tmp_path, 16)["total_timesteps"] == 512     # whole epochs of 16 agents x 8
    assert T._puffer_config(dict(cfg, run=dict(cfg["run"], steps=500)), "cpu", tmp_path, 16)["total_timesteps"] == 512
    s = T.train(cfg, tmp_path / "run", log=lambda m: None)
    _, _, files, _, _ = open_checkpoint(s["checkpoint"])
    lr = torch.load(files["optimizer"], weights_only=True)["param_groups"][0]["lr"]
    assert s["steps"] == 512 and lr == pytest.approx(0.0, abs=1e-12)
    bad = tiny_config(steps=0, minutes=0.0)
    bad["ppo"]["anneal_lr"] = True
    with pytest.raises(ValueError, match="anneal_lr needs a budget"):
        T.train(bad, tmp_path / "bad", log=lambda m: None)
    assert not (tmp_path / "bad" / "checkpoint").exists()
    # the resume replay, on a trainer's optimizer and scheduler as PuffeRL builds them
    p = torch.nn.Linear(2, 2)
    opt = torch.optim.Adam(p.parameters(), lr=0.0005)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=8)
    opt.param_groups[0]["lr"] = 0.123            # as a loaded optimizer state would have it

    class Trainer:
        optimizer, scheduler, config = opt, sched, {"batch_size": 100}
    T._resume_schedule(Trainer, cfg, 300)        # 3 epochs done
    assert opt.param_groups[0]["lr"] == pytest.approx(0.0005 * (1 + math.cos(math.pi * 3 / 8)) / 2, rel=1e-9)
    cfg["ppo"]["anneal_lr"] = False
    opt.param_groups[0]["lr"] = 0.123
    T._resume_schedule(Trainer, cfg, 300)        # off: the loaded state's rate stays
    assert opt.param_groups[0]["lr"] == 0.123


def test_anneal_lr_over_a_wall_clock_budget():
    """ppo.anneal_lr with only a wall-clock budget (make train's): the same cosine over the budget's
    elapsed fraction, set before each update (PuffeRL's epoch scheduler stays off); with a step
    budget the step schedule wins. Checked on the schedule's function and the config it reads: the
    clock is not part of a test."""
    import math

    lr = 0.0005
    assert T.time_annealed_lr(lr, 0.0, 600.0) == lr and T.time_annealed_lr(lr, 300.0, 600.0) == pytest.approx(lr / 2)
    assert T.time_annealed_lr(lr, 600.0, 600.0) == pytest.approx(0.0, abs=1e-15)
    assert T.time_annealed_lr(lr, 900.0, 600.0) == T.time_annealed_lr(lr, 600.0, 600.0)       # past the end: 0
    assert T.time_annealed_lr(lr, 150.0, 600.0) == pytest.approx(lr * (1 + math.cos(math.pi / 4)) / 2)
    cfg = tiny_config(steps=0, minutes=10.0)
    cfg["ppo"]["anneal_lr"] = True
    assert T._time_anneal(cfg) == float(cfg["ppo"]["learning_rate"]) and T._anneal_steps(cfg) is None
    assert T._puffer_config(cfg, "cpu", "/tmp", 16)["anneal_lr"] is False       # PuffeRL's scheduler off
    both = tiny_config(steps=512, minutes=10.0)
    both["ppo"]["anneal_lr"] = True
    assert T._time_anneal(both) is None and T._puffer_config(both, "cpu", "/tmp", 16)["anneal_lr"] is True
    cfg["ppo"]["anneal_lr"] = False
    assert T._time_anneal(cfg) is None


def test_online_elo_is_shown_against_a_bot_that_plays():
    """The progress line's and the curve's online Elo is the learner's minus random's when random is in
    the league, else minus the first built-in bot's (make run's league has greedy alone: random never
    plays there, so its rating would be the learner's starting point, not a bot)."""
    for bots, anchor in ((["random", "greedy"], "random"), (["greedy"], "greedy"), ([], "start")):
        cfg = T.load_config(overrides=[f"league.opponents={json.dumps(bots)}"])
        lg = T.League(cfg, np.random.default_rng(0))
        assert lg.anchor == anchor
        lg.elo["learner"] = 250.0
        if bots:
            lg.elo[bots[0]] = 50.0
        assert lg.rating() == (200.0 if bots else 250.0)


def test_curve_axes_label_the_points_minutes_without_overlap(tmp_path):
    """curve.png's top axis labels the curve's own points with their wall-clock minutes (an
    interpolated scale piled its ticks at the ends), thinned so no two labels sit closer than a ninth
    of the axis; the steps axis reads 500k / 1.5M, not an offset exponent."""
    pytest.importorskip("matplotlib")
    from azuki.train import _spaced, _steps_label, plot_curve
    assert [_steps_label(x) for x in (0, 500, 500000, 1500000, 10000000)] == ["0", "500", "500k", "1.5M", "10M"]
    assert _spaced([0, 1, 2, 10, 11], 3) == [0, 4]          # the last point replaces a kept one too close
    assert _spaced([0, 5, 10], 3) == [0, 1, 2] and _spaced([7], 3) == [0]
    curve = [{"steps": s, "minutes": 1.5 + 2 * i, "vs_greedy": 0.5 + 0.05 * i, "elo": 100.0 * i}
             for i, s in enumerate(range(0, 12_000_000, 400_000))]
    assert plot_curve(curve, tmp_path / "c.png") == tmp_path / "c.png"
    assert (tmp_path / "c.png").stat().st_size > 1000


def test_league_bot_share_draws_among_the_bots(tmp_path):
    """league.bot_share: that fraction of the draws is among the built-in bots alone (PFSP within them);
    0, the default, draws exactly as before (the same names from the same seed); bad values are refused
    before any work."""
    def league(share, seed=0):
        cfg = T.load_config()
        cfg["league"]["bot_share"] = share
        lg = T.League(cfg, np.random.default_rng(seed))
        for k in range(4):
            lg.add_snapshot(f"snap{k}", object())
        return lg
    assert T.load_config()["league"]["bot_share"] == 0.0
    lg = league(1.0)
    assert all(lg.sample() in lg.bots for _ in range(300))
    lg = league(0.5, 3)
    half = [lg.sample() for _ in range(2000)]
    bots = sum(n in ("random", "greedy") for n in half) / len(half)
    assert 0.55 < bots < 0.75          # 0.5 + 0.5 x the bots' share of the whole pool (2 of 6 names)
    plain = league(0.0)

    class Old(T.League):                # the draw without the option: PFSP over the whole pool
        def sample(self):
            names = self.names()
            w = np.array([(1.0 - (self.rate(n) if self.rate(n) is not None else 0.5)) ** self.power + self.floor
                          for n in names])
            return names[int(self.rng.choice(len(names), p=w / w.sum()))]
    cfg = T.load_config()
    old = Old(cfg, np.random.default_rng(0))
    for k in range(4):
        old.add_snapshot(f"snap{k}", object())
    assert [plain.sample() for _ in range(200)] == [old.sample() for _ in range(200)]
    for bad in (-0.1, 1.5, "half", True, None):
        with pytest.raises(ValueError, match="league.bot_share"):
            T.check_bot_share(bad)
    cfg = tiny_config()
    cfg["league"]["bot_share"] = 2
    with pytest.raises(ValueError, match="league.bot_share"):
        T.train(cfg, tmp_path / "r", log=lambda m: None)
    assert not (tmp_path / "r" / "checkpoint").exists()


def _recording_trainers(monkeypatch, after=None):
    """Each PPO update's resulting weights and step count, as the loop sees them (and `after(trainer)`
    called after each update)."""
    from azuki.envs import pufferl_adapter as adapter
    seen, make = [], adapter.make_trainer

    def recording(*a, **k):
        trainer = make(*a, **k)
        update = trainer.train

        def train():
            r = update()
            seen.append((int(trainer.global_step),
                         {n: v.detach().clone() for n, v in trainer.policy.state_dict().items()}))
            if after:
                after(trainer)
            return r
        trainer.train = train
        return trainer
    monkeypatch.setattr(adapter, "make_trainer", recording)
    return seen


def _mean_after(seen, start):
    """The float64 mean (cast back) of the recorded weights after each update past `start` steps."""
    rows = [sd for step, sd in seen if step > start]
    return len(rows), {n: (sum(sd[n].double() for sd in rows) / len(rows)).to(v.dtype) if v.is_floating_point()
                       else rows[-1][n] for n, v in rows[0].items()}


def test_average_last_makes_the_run_the_mean_of_its_last_updates(tmp_path, monkeypatch):
    """ppo.average_last = f: the checkpoint a run ends with at its budget holds the mean of the weights
    after each update whose step count is past (1 - f) of the budget (docs/training.md "Averaged
    weights"), and its final evaluation plays those weights; 0 (the default) keeps the last ones."""
    seen = _recording_trainers(monkeypatch)
    cfg = tiny_config(steps=4096)
    cfg["ppo"]["average_last"] = 0.5
    cfg["eval"]["minutes"] = 0.0          # a curve point after every epoch, the last one's before the mean too
    lines = []
    s = T.train(cfg, tmp_path / "run", log=lines.append)
    n, want = _mean_after(seen, 2048)
    assert n >= 4 and s["averaged"] == {"updates": n, "from_step": min(k for k, _ in seen if k > 2048),
                                        "fraction": 0.5}
    assert any(f"the mean of the last {n} updates" in m for m in lines)
    avg = load_checkpoint(s["checkpoint"])[0]
    got = avg.state_dict()
    assert all(torch.equal(got[k], want[k]) for k in want)
    assert not all(torch.equal(got[k], seen[-1][1][k]) for k in want)       # not the last update's
    # the final curve point (one per step count) is the mean's, as the loop evaluates it
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())
    assert len({p["steps"] for p in curve}) == len(curve) and curve[-1] == s["final"]
    from azuki.evaluate import evaluate
    k, e = len(curve) - 1, cfg["eval"]
    for bot in e["bots"]:
        r = evaluate(T.learner_player(avg, bool(e["greedy"]), cfg["run"]["seed"] + k), bot, games=int(e["games"]),
                     seed=cfg["run"]["seed"] + 7919 * k, n=128)
        assert s["final"][f"vs_{bot}"] == r["win_rate"]["rate"]
    assert T.load_config()["ppo"]["average_last"] == 0.0
    seen.clear()
    s = T.train(tiny_config(steps=1024), tmp_path / "plain", log=lambda m: None)
    got = load_checkpoint(s["checkpoint"])[0].state_dict()
    assert "averaged" not in s and all(torch.equal(got[k], v) for k, v in seen[-1][1].items())


def test_average_last_carries_on_across_ctrl_c_and_resume(tmp_path, monkeypatch):
    """A run stopped (Ctrl-C) inside the averaged stretch saves its own last weights with the running
    sum beside them; resumed with the same step budget it ends with the mean over the updates of both
    invocations. A resume with another budget starts the average again, and says so."""
    import signal as sig
    state = {"stop_at": 3072}

    def stop_once(trainer):
        if state["stop_at"] and trainer.global_step >= state["stop_at"]:
            state["stop_at"] = None
            sig.raise_signal(sig.SIGINT)        # the loop's own handler: saves and stops after this epoch
    seen = _recording_trainers(monkeypatch, stop_once)
    cfg = tiny_config(steps=4096)
    cfg["ppo"]["average_last"] = 0.5
    s = T.train(cfg, tmp_path / "run", log=lambda m: None)
    assert s["stopped"] == T.INTERRUPTED and "averaged" not in s and s["steps"] < 4096
    from azuki.policy import open_checkpoint
    pol, _, files, _, _ = open_checkpoint(s["checkpoint"])
    assert all(torch.equal(v, seen[-1][1][k]) for k, v in pol.state_dict().items())     # its own weights
    st = torch.load(files["average"], weights_only=True)
    assert st["count"] == len([k for k, _ in seen if k > 2048]) >= 2
    lines = []
    s = T.train(cfg, tmp_path / "run", resume=tmp_path / "run", log=lines.append)
    n, want = _mean_after(seen, 2048)
    assert s["averaged"]["updates"] == n and not any("starts again" in m for m in lines)
    got = load_checkpoint(s["checkpoint"])[0].state_dict()
    assert all(torch.equal(got[k], want[k]) for k in want)
    assert "average" not in open_checkpoint(s["checkpoint"])[2]      # consumed: the end's save holds none
    # stopped again inside the stretch, then resumed with another budget: the sum is dropped, said once
    state["stop_at"] = 3072
    T.train(cfg, tmp_path / "again", log=lambda m: None)
    lines = []
    T.train(dict(cfg, run=dict(cfg["run"], steps=8192)), tmp_path / "again", resume=tmp_path / "again",
            log=lines.append)
    assert sum("the average starts again" in m for m in lines) == 1


@pytest.mark.parametrize("bad", [1.0, -0.1, "0.5", True])
def test_average_last_out_of_range_is_refused_before_any_work(tmp_path, bad):
    cfg = tiny_config()
    cfg["ppo"]["average_last"] = bad
    with pytest.raises(ValueError, match="ppo.average_last must be a number in"):
        T.train(cfg, tmp_path / "bad", log=lambda m: None)
    assert not (tmp_path / "bad" / "checkpoint").exists()


def test_eval_steps_puts_the_curve_points_at_step_multiples(tmp_path):
    """eval.steps = k: a curve point at each multiple of k agent-steps (the first epoch that reaches it),
    whatever the machine's speed, across a resume too (the cadence comes from the step count), and the
    end's point once at the budget; bad values are refused before any work (docs/training.md, Outputs)."""
    cfg = tiny_config(steps=1024)
    cfg["eval"]["steps"] = 512            # 2 epochs of 256 agent-steps
    s = T.train(cfg, tmp_path / "run", log=lambda m: None)
    cfg["run"]["steps"] = 2048
    s = T.train(cfg, tmp_path / "run", resume=tmp_path / "run", log=lambda m: None)
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())
    assert [p["steps"] for p in curve] == [0, 512, 1024, 1536, 2048] and curve[-1] == s["final"]
    for bad in (-1, 1.5, "512", True):
        cfg = tiny_config()
        cfg["eval"]["steps"] = bad
        with pytest.raises(ValueError, match="eval.steps must be a whole number"):
            T.train(cfg, tmp_path / "bad", log=lambda m: None)
        assert not (tmp_path / "bad" / "checkpoint").exists()

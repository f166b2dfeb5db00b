"""azuki.envs.pufferl_adapter: every patch azuki makes to PuffeRL's internals
is declared in one table, checked against the installed pufferlib (the one it
was verified with), and a pufferlib that differs fails loudly, naming what
changed, before any work. Runs in .venv-puffer; skipped elsewhere."""
import inspect
import os
import subprocess
import sys
import types

import pytest

pytest.importorskip("pufferlib")
pytest.importorskip("torch")

import pufferlib.pufferl as pufferl  # noqa: E402
import pufferlib.pytorch  # noqa: E402
import pufferlib.vector as pv  # noqa: E402

from azuki.envs import pufferl_adapter as A  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _resolve(mod_name, path):
    obj = sys.modules[mod_name]
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def test_the_installed_pufferlib_is_the_verified_one_and_matches_every_patch():
    assert A.installed_version() == A.VERIFIED == "3.0.0"
    assert A.check() == []
    A.require()
    for mod_name, path, params, uses, why in A.EXPECTED:      # the same, entry by entry
        obj = _resolve(mod_name, path)
        have = tuple(inspect.signature(obj).parameters)
        assert have[:len(params)] == params, (path, have)
        names, _ = A._code_names(obj)
        assert set(uses) <= names, (path, set(uses) - names)
        assert why


def test_the_table_covers_every_patch_site():
    """Each numbered patch of the docstring has a checked entry."""
    paths = {f"{m}.{p}" for m, p, *_ in A.EXPECTED}
    for need in ("pufferlib.pufferl.PuffeRL.print_dashboard", "pufferlib.pufferl.Utilization.stop",
                 "pufferlib.pytorch.sample_logits", "pufferlib.pufferl.PuffeRL.evaluate",
                 "pufferlib.pufferl.PuffeRL.train", "pufferlib.vector.Serial.send", "pufferlib.vector.send_precheck"):
        assert need in paths


def test_a_missing_patched_attribute_fails_loudly_naming_it(monkeypatch):
    monkeypatch.delattr(pufferl.PuffeRL, "print_dashboard")
    with pytest.raises(A.PufferlibIncompatible) as e:
        A.require()
    msg = str(e.value)
    assert "pufferlib.pufferl.PuffeRL.print_dashboard: missing" in msg
    assert "verified with pufferlib 3.0.0" in msg and "\n" not in msg      # one line: a CLI prints it whole
    # every entry point refuses before it does anything
    with pytest.raises(A.PufferlibIncompatible, match="print_dashboard"):
        A.make_trainer({}, None, None)
    with pytest.raises(A.PufferlibIncompatible, match="print_dashboard"):
        A.batched_serial(lambda envs, parts: [])
    with pytest.raises(A.PufferlibIncompatible, match="print_dashboard"):
        with A.masked_sampling():
            pass
    assert not hasattr(pufferlib.pytorch.sample_logits, "_azuki_original")


def test_a_reshaped_function_fails_loudly_naming_its_parameters(monkeypatch):
    def sample_logits(logits, actions=None, temperature=1.0):
        return None
    monkeypatch.setattr(pufferlib.pytorch, "sample_logits", sample_logits)
    problems = A.check()
    assert len(problems) == 1
    assert problems[0].startswith("pufferlib.pytorch.sample_logits: parameters (logits, actions, temperature), "
                                  "expected (logits, action, ...)")


def test_the_update_azuki_re_implements_is_checked(monkeypatch):
    """azuki.envs.ppo_update re-implements PuffeRL.train on its buffers and config keys (8): a
    release whose update stops reading one of them, or whose advantage function changes its
    parameters, is refused by name."""
    fake = types.ModuleType("pufferlib.pufferl")

    class PuffeRL(pufferl.PuffeRL):
        def train(self):       # an update that no longer reads prio_alpha, ratio, ...
            return self.losses, pytorch_ref.sample_logits, self.print_dashboard
    pytorch_ref = pufferlib.pytorch
    fake.PuffeRL = PuffeRL
    fake.Utilization = pufferl.Utilization

    def compute_puff_advantage(values, rewards, terminals, ratio, advantages, gamma):
        return advantages
    fake.compute_puff_advantage = compute_puff_advantage
    problems = A.check({"pufferlib.pufferl": fake})
    assert any(p.startswith("pufferlib.pufferl.PuffeRL.train: its code no longer uses ") and "prio_alpha" in p
               and "ratio" in p and "(8)" in p for p in problems), problems
    assert any(p.startswith("pufferlib.pufferl.compute_puff_advantage: parameters ") for p in problems), problems


def test_code_that_stops_using_the_hook_fails_loudly():
    """A stand-in pufferl whose PuffeRL.evaluate no longer looks up
    pytorch.sample_logits (a release that imports it by name would bypass
    the masked sampler silently)."""
    fake = types.ModuleType("pufferlib.pufferl")

    class PuffeRL(pufferl.PuffeRL):
        def evaluate(self):
            self.global_step += 1
    fake.PuffeRL = PuffeRL
    fake.Utilization = pufferl.Utilization
    fake.compute_puff_advantage = pufferl.compute_puff_advantage
    problems = A.check({"pufferlib.pufferl": fake})
    assert problems == ["pufferlib.pufferl.PuffeRL.evaluate: its code no longer uses pytorch, sample_logits, "
                        "forward_eval; needed for the rollout samples through pufferlib.pytorch.sample_logits (4), "
                        "counts global_step (6) and acts through policy.forward_eval (9)"]


def test_a_module_that_cannot_be_imported_fails_loudly(monkeypatch):
    monkeypatch.setitem(sys.modules, "pufferlib.vector", None)
    problems = A.check()
    assert problems and all(p.startswith("pufferlib.vector: cannot be imported") for p in problems)
    assert len(problems) == sum(m == "pufferlib.vector" for m, *_ in A.EXPECTED)


def test_another_version_is_refused_unless_asked_for(monkeypatch):
    monkeypatch.delenv(A.UNVERIFIED_ENV, raising=False)
    with pytest.raises(A.PufferlibIncompatible, match=r"pufferlib 3\.1\.0 is installed.*verified with pufferlib "
                                                      r"3\.0\.0.*AZUKI_PUFFERLIB_UNVERIFIED=1"):
        A.require(version="3.1.0")
    monkeypatch.setenv(A.UNVERIFIED_ENV, "1")
    A.require(version="3.1.0")                   # shapes match: allowed when asked for


def test_train_refuses_an_incompatible_pufferlib_before_any_work(tmp_path, monkeypatch):
    from azuki import train as T
    monkeypatch.delattr(pufferl.Utilization, "stop")
    cfg = T.load_config(overrides=["policy.hidden=16", "kickstart.decisions=0"])
    cfg["run"].update({"minutes": 0.0, "steps": 64, "threads": 1})
    with pytest.raises(A.PufferlibIncompatible, match="Utilization.stop: missing"):
        T.train(cfg, tmp_path / "r", log=lambda m: None)
    assert not (tmp_path / "r" / "checkpoint").exists()


def test_import_undoes_pufferls_sigint_handler():
    """Importing pufferl installs os._exit(0) on SIGINT; import_pufferl puts
    back the handler from before (here a custom one, set explicitly so the
    test holds whatever the caller's dispositions), or Python's default when
    pufferl had been imported earlier by someone else."""
    code = (
        "import signal\n"
        "def mine(s, f): pass\n"
        "signal.signal(signal.SIGINT, mine)\n"
        "from azuki.envs import pufferl_adapter as A\n"
        "A.import_pufferl()\n"
        "assert signal.getsignal(signal.SIGINT) is mine, signal.getsignal(signal.SIGINT)\n"
        "import importlib, pufferlib.pufferl as p\n"
        "importlib.reload(p)\n"                      # someone imports it again: its handler is back
        "assert signal.getsignal(signal.SIGINT).__module__ == 'pufferlib.pufferl'\n"
        "A.import_pufferl()\n"
        "assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n"
        "print('ok')\n")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env=env)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stdout[-2000:] + out.stderr[-3000:]


def test_masked_sampling_restores_pufferls_function_and_nests():
    orig = pufferlib.pytorch.sample_logits
    with A.masked_sampling():
        hooked = pufferlib.pytorch.sample_logits
        assert hooked is not orig and hooked._azuki_original is orig
        with A.masked_sampling():
            assert pufferlib.pytorch.sample_logits is hooked
        assert pufferlib.pytorch.sample_logits is hooked
    assert pufferlib.pytorch.sample_logits is orig
    with pytest.raises(RuntimeError):
        with A.masked_sampling():
            raise RuntimeError("boom")
    assert pufferlib.pytorch.sample_logits is orig


def test_stop_utilization_threads_stops_them():
    import threading
    t = pufferl.Utilization(delay=0.01)
    try:
        assert t in threading.enumerate()
        A.stop_utilization_threads()
        t.join(timeout=60)
        assert not t.is_alive()
    finally:
        t.stop()


def test_the_cpu_adam_is_swapped_for_the_fused_one_before_any_step():
    """Patch 7: make_trainer's trainer steps with the fused Adam (same hyperparameters, same update
    to float rounding, a state dict either one loads), its scheduler on the new optimizer; an
    optimizer with state, or another kind, is left alone."""
    import types
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Linear(6, 3)
    ref = torch.nn.Linear(6, 3)
    ref.load_state_dict(net.state_dict())

    def trainer_of(params):
        opt = torch.optim.Adam(params, lr=0.01, betas=(0.9, 0.99), eps=1e-7)
        return types.SimpleNamespace(optimizer=opt, scheduler=torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=9))

    tr = trainer_of(net.parameters())
    A._fused_adam(tr, {"optimizer": "adam"})
    assert tr.optimizer.defaults["fused"] is True and tr.scheduler.optimizer is tr.optimizer
    assert tr.scheduler.T_max == 9
    g = tr.optimizer.param_groups[0]
    assert (g["lr"], g["betas"], g["eps"]) == (0.01, (0.9, 0.99), 1e-7)
    plain = torch.optim.Adam(ref.parameters(), lr=0.01, betas=(0.9, 0.99), eps=1e-7, foreach=False)
    x = torch.randn(32, 6)
    for opt, m in ((tr.optimizer, net), (plain, ref)):
        for _ in range(3):
            opt.zero_grad()
            (m(x) ** 2).sum().backward()
            opt.step()
    for a, b in zip(net.parameters(), ref.parameters()):
        assert torch.allclose(a, b, atol=1e-6)
    plain.load_state_dict(tr.optimizer.state_dict())             # a resume reads either
    tr.optimizer.load_state_dict(plain.state_dict())

    stepped = trainer_of(net.parameters())                       # has state: a resumed one, left alone
    stepped.optimizer.zero_grad()
    (net(x) ** 2).sum().backward()
    stepped.optimizer.step()
    before = stepped.optimizer
    A._fused_adam(stepped, {"optimizer": "adam"})
    assert stepped.optimizer is before
    other = trainer_of(net.parameters())
    A._fused_adam(other, {"optimizer": "muon"})
    assert other.optimizer.defaults["fused"] is None

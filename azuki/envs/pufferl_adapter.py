"""azuki.envs.pufferl_adapter — every place azuki reaches into PufferLib's
internals (beyond its public PufferEnv / vector API), in one module, checked
against the pufferlib release it was verified with (VERIFIED).

What is patched or relied on, where in pufferlib 3.0.0, and why:

1. The SIGINT handler pufferlib.pufferl installs when it is imported
   (pufferl.py:45-46, ``lambda sig, frame: os._exit(0)``): Ctrl-C would end
   the process at once, with status 0 and nothing saved. import_pufferl()
   imports the module and, from the main thread, puts back the handler that
   was there before, so Ctrl-C raises KeyboardInterrupt (or stays ignored
   under nohup) until the training loop installs its own, which saves.
2. PuffeRL.print_dashboard (pufferl.py:528; called by __init__ at :196 and
   by train() at :440): a full-screen dashboard reprinted to stdout at every
   log; azuki prints its own progress line. make_trainer() silences it on
   the class for the constructor's call only (restored whatever happens),
   then on the instance.
3. PuffeRL.utilization, a pufferl.Utilization thread that __init__ starts
   (:188) and that is not a daemon (:740-772): while it lives the process
   cannot exit. stop_trainer() stops a trainer's; stop_utilization_threads()
   stops every one of the process (a constructor that failed after starting
   one, a trainer lost to an exception).
4. pufferlib.pytorch.sample_logits(logits, action=None) (pytorch.py:189),
   which PuffeRL.evaluate (:254) and PuffeRL.train (:365) look up by module
   attribute at every call: masked_sampling() swaps in
   azuki.sampler.sample_logits for the length of a run and puts PuffeRL's
   own back afterwards. The hook carries PuffeRL's function as
   ``_azuki_original`` (azuki.sampler falls back to it for heads it does not
   sample; a nested install leaves the outer one in place).
5. pufferlib.vector.Serial.send (vector.py:136): batched_serial(step) is a
   Serial whose send() hands every env's actions to one `step` call (the
   league's opponents of all envs answer together). It re-implements send()
   on Serial's internals: send_precheck(vecenv, actions), agents_per_env,
   infos and _avg_infos().
6. What azuki reads or writes on a PuffeRL besides its public methods
   evaluate() / train(): global_step (counted by evaluate(); set on resume),
   optimizer (its state loaded on resume), losses (read after train()), and
   the config keys azuki.train._puffer_config writes (read by __init__,
   evaluate and train).
7. PuffeRL.optimizer and PuffeRL.scheduler (pufferl.py:141-171): on a CPU,
   make_trainer() replaces the Adam that __init__ builds with the fused one
   (the same update and state dict, one kernel for all parameters) and the
   scheduler with one on it, before the first step.
8. PuffeRL.train (pufferl.py:312-448) and pufferl.compute_puff_advantage
   (:634): with learner_threads > 1, make_trainer() puts
   azuki.envs.ppo_update's re-implementation of the update on the instance
   (each minibatch's forward and backward split across threads; the same
   update, random draws and bookkeeping: it reads the trainer's buffers,
   ratio, values, segments, minibatch_segments, total_minibatches,
   accumulate_minibatches, profile, epoch, total_epochs, and calls
   mean_and_log and save_checkpoint as train does). stop_trainer() ends its
   threads.

9. PuffeRL.evaluate (pufferl.py:203-300) calls ``self.policy.forward_eval``
   then ``pufferlib.pytorch.sample_logits`` on its first output (:254-255):
   with c_rollout, make_trainer() wraps evaluate on the instance so that,
   for each call, the policy's forward_eval acts in C on the weights of that
   moment (azuki.envs.crollout.CRollout.acting) and returns a Presampled,
   which azuki.sampler.sample_logits (4) hands back as (action,
   log-probability); stop_trainer() ends its threads.

check() compares each of these with the installed pufferlib: the attribute
exists, has the parameters azuki calls or replaces it with, and its code
still uses the names the patch relies on (e.g. PuffeRL.evaluate still looks
up ``pytorch.sample_logits``). require() raises PufferlibIncompatible,
naming every difference, when any is found, or when the installed version is
not VERIFIED (behaviour a signature cannot show may have changed): set
AZUKI_PUFFERLIB_UNVERIFIED=1 to try another version whose shapes all match.
import_pufferl(), make_trainer() and batched_serial() call require() before
anything else, so an incompatible pufferlib fails at the first use with one
clear error, never deep inside a run. tests/envs/test_pufferl_adapter.py
checks the table against the installed pufferlib and that a missing or
reshaped attribute fails loudly.
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import signal
import threading
import warnings

VERIFIED = "3.0.0"
UNVERIFIED_ENV = "AZUKI_PUFFERLIB_UNVERIFIED"


class PufferlibIncompatible(RuntimeError):
    """The installed pufferlib differs from what this adapter was verified with."""


# (module, attribute path, parameters (a prefix: more after them are fine; None: not callable),
#  names its code must use, why azuki needs it)
EXPECTED = (
    ("pufferlib.pufferl", "PuffeRL.__init__", ("self", "config", "vecenv", "policy"),
     ("print_dashboard", "Utilization", "utilization", "optimizer", "global_step", "losses", "scheduler",
      "CosineAnnealingLR"),
     "make_trainer builds it quietly (2, 3, 6) and swaps its CPU Adam for the fused one (7)"),
    ("pufferlib.pufferl", "PuffeRL.print_dashboard", ("self", "clear"), (), "silenced by make_trainer (2)"),
    ("pufferlib.pufferl", "PuffeRL.evaluate", ("self",), ("pytorch", "sample_logits", "global_step", "forward_eval"),
     "the rollout samples through pufferlib.pytorch.sample_logits (4), counts global_step (6) and acts through "
     "policy.forward_eval (9)"),
    ("pufferlib.pufferl", "PuffeRL.train", ("self",),
     ("pytorch", "sample_logits", "losses", "print_dashboard", "compute_puff_advantage", "multinomial", "ratio",
      "values", "minibatch_segments", "total_minibatches", "accumulate_minibatches", "mean_and_log",
      "save_checkpoint", "prio_alpha", "prio_beta0", "vtrace_rho_clip", "clip_coef", "vf_clip_coef"),
     "the update recomputes log-probabilities through pufferlib.pytorch.sample_logits (4), sets losses (6); "
     "azuki.envs.ppo_update re-implements it on these names (8)"),
    ("pufferlib.pufferl", "compute_puff_advantage",
     ("values", "rewards", "terminals", "ratio", "advantages", "gamma", "gae_lambda", "vtrace_rho_clip",
      "vtrace_c_clip"), (), "called by azuki.envs.ppo_update (8)"),
    ("pufferlib.pufferl", "PuffeRL.mean_and_log", ("self",), (), "called by azuki.envs.ppo_update (8)"),
    ("pufferlib.pufferl", "PuffeRL.save_checkpoint", ("self",), (), "called by azuki.envs.ppo_update (8)"),
    ("pufferlib.pufferl", "Utilization.stop", ("self",), ("stopped",), "stop_trainer / stop_utilization_threads (3)"),
    ("pufferlib.pufferl", "Utilization.run", ("self",), ("stopped",), "the thread ends once stopped (3)"),
    ("pufferlib.pytorch", "sample_logits", ("logits", "action"), (), "replaced by masked_sampling (4)"),
    ("pufferlib.vector", "Serial.send", ("self", "actions"), ("send_precheck", "agents_per_env", "_avg_infos", "infos"),
     "batched_serial re-implements it (5)"),
    ("pufferlib.vector", "Serial._avg_infos", ("self",), ("infos",), "called by batched_serial's send (5)"),
    ("pufferlib.vector", "send_precheck", ("vecenv", "actions"), (), "called by batched_serial's send (5)"),
)


def installed_version():
    """The installed pufferlib's version (package metadata), or None when not installed."""
    from importlib import metadata
    try:
        return metadata.version("pufferlib")
    except metadata.PackageNotFoundError:
        return None


def _code_names(fn):
    """Every global, attribute and local name and every string constant (a config key it reads) the
    code of `fn` (and the code nested in it) uses; a functools.wraps wrapper is seen through
    (bench/profile_train.py times PuffeRL's methods so)."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    names, todo = set(), [code] if code is not None else []
    while todo:
        c = todo.pop()
        names.update(c.co_names)
        names.update(c.co_varnames)
        names.update(k for k in c.co_consts if isinstance(k, str))
        todo.extend(k for k in c.co_consts if inspect.iscode(k))
    return names, code is not None


def check(modules=None):
    """The differences between the installed pufferlib and EXPECTED, one line
    each ([] when it matches). `modules`: name -> module, to check stand-ins
    (default: import the real ones; an import that fails is a difference)."""
    problems = []
    for mod_name, path, params, uses, why in EXPECTED:
        where = f"{mod_name}.{path}"
        try:
            obj = (modules or {}).get(mod_name) or importlib.import_module(mod_name)
        except Exception as e:        # ImportError, or whatever the module raised while importing
            problems.append(f"{mod_name}: cannot be imported ({type(e).__name__}: {e}); needed for {why}")
            continue
        missing = False
        for part in path.split("."):
            if not hasattr(obj, part):
                problems.append(f"{where}: missing; needed for {why}")
                missing = True
                break
            obj = getattr(obj, part)
        if missing:
            continue
        if params is not None:
            try:
                have = tuple(inspect.signature(obj).parameters)
            except (TypeError, ValueError):
                problems.append(f"{where}: not a function with a signature; needed for {why}")
                continue
            if have[:len(params)] != params:
                problems.append(f"{where}: parameters ({', '.join(have)}), expected ({', '.join(params)}, ...); "
                                f"needed for {why}")
        if uses:
            names, has_code = _code_names(obj)
            lost = [u for u in uses if u not in names]
            if has_code and lost:
                problems.append(f"{where}: its code no longer uses {', '.join(lost)}; needed for {why}")
            elif not has_code:
                problems.append(f"{where}: no Python code to inspect; needed for {why}")
    return problems


def require(modules=None, version=None):
    """Raise PufferlibIncompatible when check() finds differences, or when the
    installed version (or `version`) is not VERIFIED and AZUKI_PUFFERLIB_UNVERIFIED
    is not set. The message names each difference."""
    version = installed_version() if version is None else version
    problems = check(modules)
    other = version != VERIFIED
    if not problems and (not other or os.environ.get(UNVERIFIED_ENV)):
        return
    head = (f"pufferlib {version} is installed; azuki's PuffeRL adapter (azuki/envs/pufferl_adapter.py) "
            f"was verified with pufferlib {VERIFIED}")
    if problems:      # one line (a CLI prints an error's first line): the differences joined by " | "
        body = ", and it differs: " + " | ".join(problems)
    else:
        body = (f"; every patched attribute has the expected shape, but behaviour may differ: set "
                f"{UNVERIFIED_ENV}=1 to try it")
    raise PufferlibIncompatible(head + body + f" (install pufferlib=={VERIFIED}: bash tools/setup_envs.sh puffer; "
                                "or re-verify the patches the adapter's docstring lists and update it)")


# ---- 1. the import-time SIGINT handler --------------------------------------------------------------------

def _is_pufferl_handler(h):
    return callable(h) and getattr(h, "__module__", None) == "pufferlib.pufferl"


def import_pufferl():
    """pufferlib.pufferl, checked (require), with the SIGINT handler its import
    installs (os._exit) undone: the handler from before the import is back
    (Python's default when that was PuffeRL's too). From another thread the
    handlers cannot change; nothing is undone there."""
    main = threading.current_thread() is threading.main_thread()
    prev = signal.getsignal(signal.SIGINT) if main else None
    import pufferlib.pufferl as pufferl
    require()
    if main and _is_pufferl_handler(signal.getsignal(signal.SIGINT)):
        keep = prev if prev is not None and not _is_pufferl_handler(prev) else signal.default_int_handler
        signal.signal(signal.SIGINT, keep)
    return pufferl


# ---- 2, 3. a quiet trainer and its thread ------------------------------------------------------------------

def _quiet(*a, **k):
    return None


def make_trainer(config, vecenv, policy, learner_threads=1, c_rollout=False):
    """pufferl.PuffeRL(config, vecenv, policy) without its dashboard (2) and
    with its warnings ignored (its numpy RuntimeWarnings are errors); with
    learner_threads > 1 its update is azuki.envs.ppo_update's, each
    minibatch split across that many threads (8); with c_rollout the policy
    acts in C during each evaluate() (9: azuki.envs.crollout, on
    learner_threads threads). ValueError for a bad thread count, before the
    trainer is built."""
    from ..learner_threads import check_threads
    from .ppo_update import ParallelUpdate
    check_threads(learner_threads)
    pufferl = import_pufferl()
    dashboard = pufferl.PuffeRL.print_dashboard
    pufferl.PuffeRL.print_dashboard = _quiet
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trainer = pufferl.PuffeRL(config, vecenv, policy)
    finally:
        pufferl.PuffeRL.print_dashboard = dashboard
    trainer.print_dashboard = _quiet
    _fused_adam(trainer, config)
    if learner_threads > 1:
        trainer.train = ParallelUpdate(trainer, learner_threads)
    if c_rollout:
        _c_rollout(trainer, policy, learner_threads)
    return trainer


def _c_rollout(trainer, policy, threads):
    """trainer.evaluate with the policy acting in C for its length (9)."""
    from .crollout import CRollout
    crollout = CRollout(policy, threads)
    evaluate = trainer.evaluate

    def evaluate_in_c():
        with crollout.acting():
            return evaluate()
    evaluate_in_c.crollout = crollout
    trainer.evaluate = evaluate_in_c


def _fused_adam(trainer, config):
    """PuffeRL's Adam (pufferl.py:141-147: torch.optim.Adam with its defaults) runs one tensor at
    a time on a CPU (torch picks foreach / fused only for CUDA tensors); the fused kernel does the
    same update (the same state dict: a resumed run loads either) in one pass: clipping + the
    optimizer step of an 8,192-step iteration of the default config 106 -> 28 ms with 2 torch
    threads, 50 -> 21 ms with 1 (bench/profile_train.py, side by side on a loaded 2-core CPU). The optimizer is replaced
    before any step, and the learning-rate scheduler (:171) rebuilt on the new one (7)."""
    import torch
    opt = trainer.optimizer
    if config.get("optimizer") != "adam" or type(opt) is not torch.optim.Adam:
        return
    params = [p for g in opt.param_groups for p in g["params"]]
    if not params or any(p.device.type != "cpu" for p in params) or opt.state:
        return
    g = opt.param_groups[0]
    trainer.optimizer = torch.optim.Adam(params, lr=g["lr"], betas=g["betas"], eps=g["eps"],
                                         weight_decay=g["weight_decay"], fused=True)
    trainer.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(trainer.optimizer,
                                                                   T_max=trainer.scheduler.T_max)


def stop_trainer(trainer):
    """Stop the trainer's Utilization thread (3), its update's worker threads (8) and its C rollout's (9)."""
    close = getattr(trainer.__dict__.get("train"), "close", None)
    if callable(close):
        close()
    crollout = getattr(trainer.__dict__.get("evaluate"), "crollout", None)
    if crollout is not None:
        crollout.close()
    trainer.utilization.stop()


def stop_utilization_threads():
    """Stop every PuffeRL Utilization thread of this process (3); nothing when
    pufferl was never imported."""
    import sys
    pufferl = sys.modules.get("pufferlib.pufferl")
    if pufferl is None:
        return
    for t in threading.enumerate():
        # A cleanup path (train's finally): it must not replace the error being
        # raised, e.g. require()'s report that Utilization.stop is missing; a
        # stopped thread can still be listed until its sleep ends.
        stop = getattr(t, "stop", None) if isinstance(t, pufferl.Utilization) else None
        if callable(stop):
            stop()


# ---- 4. the masked sampler -----------------------------------------------------------------------------------

@contextlib.contextmanager
def masked_sampling():
    """Within the block PuffeRL samples with azuki.sampler.sample_logits (4);
    its own function is back on the way out, whatever happens. Nested: the
    outer install stays."""
    require()
    import pufferlib.pytorch
    from ..sampler import sample_logits
    orig = pufferlib.pytorch.sample_logits
    if getattr(orig, "_azuki_original", None) is not None:
        yield
        return

    def hooked(logits, action=None):
        return sample_logits(logits, action)
    hooked._azuki_original = orig
    pufferlib.pytorch.sample_logits = hooked
    try:
        yield
    finally:
        pufferlib.pytorch.sample_logits = orig


# ---- 5. one step call for every env of a Serial --------------------------------------------------------------

def batched_serial(step):
    """A pufferlib.vector.Serial class whose send(actions) calls
    ``step(envs, parts)`` once (parts[k]: env k's rows of the actions), which
    returns the step's infos (a list); otherwise Serial as it is (5)."""
    require()
    import pufferlib.vector as pv

    class BatchedSerial(pv.Serial):
        def send(self, actions):
            if not actions.flags.contiguous:
                import numpy as np
                actions = np.ascontiguousarray(actions)
            actions = pv.send_precheck(self, actions)
            parts, ptr = [], 0
            for k in range(len(self.envs)):
                parts.append(actions[ptr:ptr + self.agents_per_env[k]])
                ptr += self.agents_per_env[k]
            self.infos = []
            self.infos.extend(step(self.envs, parts))
            self._avg_infos()
    return BatchedSerial


__all__ = ["VERIFIED", "EXPECTED", "PufferlibIncompatible", "check", "require", "installed_version",
           "import_pufferl", "make_trainer", "stop_trainer", "stop_utilization_threads", "masked_sampling",
           "batched_serial"]

"""[expert]'s imitation term during PPO (azuki.expert.Imitation; docs/training.md "Expert
iteration"): the extra loss joins PuffeRL's backward exactly (the gradients of loss + extra, through
Policy.forward's hook), the weight decays linearly over the stated agent-steps, the label rows drawn
depend on (seed, agent-steps) alone, bad values and a psearch teacher are refused, a run with the term
trains other weights than one without it and leaves no hook behind, and a resumed run makes the
latest round's labels again, byte for byte. Budgets are agent-steps; no clock. Runs in .venv-puffer
(torch, pufferlib)."""
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pufferlib")

from azuki import expert  # noqa: E402
from azuki import train as T  # noqa: E402
from azuki.policy import load_checkpoint, make_policy  # noqa: E402
from azuki.sampler import sample_logits  # noqa: E402
from envs_helpers import TINY, positions, run_train  # noqa: E402


@pytest.fixture(scope="module")
def labels():
    return expert.label_dataset(200, "search:2", seed=3, threads=1, topk=4)


def _ex(**kw):
    ex = T.load_config(overrides=["expert.decisions=200", "expert.teacher=\"search:2\"", "expert.topk=4"])["expert"]
    return expert.check_config(dict(ex, **kw))


@pytest.mark.parametrize("arch", ["structured:factored", "flat:factored", "flat"])
def test_the_extra_loss_joins_the_backward_exactly(labels, arch):
    """PuffeRL computes loss(policy(obs)) and calls backward; with policy.extra_loss set, the
    gradients are those of loss + extra (the same extra computed by hand), to float rounding."""
    torch.manual_seed(0)
    pol = make_policy(arch, hidden=32)
    obs = torch.as_tensor(positions((("STT01", "STT02"),), games=8, steps=40))
    im = expert.Imitation(_ex(imitation_weight=0.7, imitation_batch=16), seed=5)
    im.set_labels(labels, 0)

    with torch.no_grad():
        torch.manual_seed(1)
        acts = sample_logits(pol.forward_eval(obs)[0])[0]

    def ppo_like(dist, value):                     # PuffeRL's terms: the stored actions' log-probabilities,
        _, logp, ent = sample_logits(dist, action=acts)    # the entropy, the value
        return -logp.mean() - 0.01 * ent.mean() + value.square().mean()

    def grads():
        out = {k: p.grad.clone() for k, p in pol.named_parameters() if p.grad is not None}
        pol.zero_grad(set_to_none=True)
        return out

    im.begin(1000)
    pol.extra_loss = im
    ppo_like(*pol(obs)).backward()
    pol.extra_loss = None
    hooked = grads()
    im.begin(1000)                                # the same draw again, by hand
    (ppo_like(*pol(obs)) + im(pol)).backward()
    by_hand = grads()
    assert hooked.keys() == by_hand.keys() and hooked
    for k in hooked:
        torch.testing.assert_close(hooked[k], by_hand[k], rtol=1e-5, atol=1e-7, msg=k)
    ppo_like(*pol(obs)).backward()                  # no hook: PPO's loss alone, and the two differ
    alone = grads()
    assert any(not torch.allclose(alone[k], hooked[k]) for k in alone)
    def boom(policy):
        raise AssertionError("extra_loss called with gradients off")
    pol.extra_loss = boom
    with torch.no_grad():                         # gradients off (a rollout, an evaluation): not called
        pol(obs)
    pol.extra_loss = None


def test_weight_schedule_draws_and_refusals(labels):
    im = expert.Imitation(_ex(imitation_weight=0.5, imitation_steps=1000, imitation_batch=8), seed=1)
    assert not im.active(0)                       # no labels yet
    im.set_labels(labels, 2)
    assert im.mark == 2 and im.active(0)
    assert [im.weight(s) for s in (0, 500, 1000, 5000)] == [0.5, 0.25, 0.0, 0.0]
    assert not im.active(1000)
    const = expert.Imitation(_ex(imitation_weight=0.5, imitation_steps=0), seed=1)
    assert const.weight(10 ** 9) == 0.5
    pol = make_policy("flat:factored", hidden=16)
    draws = []
    for steps in (300, 300, 301):
        im.begin(steps)
        torch.manual_seed(steps)                  # the global generator does not matter
        with torch.no_grad():
            draws.append(float(im(pol)))
    assert draws[0] == draws[1] != draws[2]
    assert draws[2] == pytest.approx(im.weight(301) * float(im.last[0] + im.vf_coef * im.last[1]), rel=1e-5)
    im.begin(2000)                                # past the decay: no term
    assert im(pol) is None
    for bad, match in ((dict(imitation_weight=-1.0), "imitation_weight"), (dict(imitation_batch=0), "imitation_batch"),
                       (dict(imitation_steps=-5), "imitation_steps"), (dict(imitation_weight="1"), "imitation_weight"),
                       (dict(imitation_weight=1.0, teacher="psearch:8"), "psearch")):
        with pytest.raises(ValueError, match=match):
            _ex(**bad)
    old = T.load_config(overrides=["expert.decisions=10"])["expert"]
    for k in ("imitation_weight", "imitation_steps", "imitation_batch"):
        old.pop(k)
    assert expert.check_config(old)["imitation_weight"] == 0.0     # a config saved before the keys: off


SETS = [s for s in TINY if not s.startswith("kickstart")] + [
    "kickstart.decisions=0", "expert.decisions=120", "expert.teacher=\"search:2\"", "expert.epochs=1",
    "expert.batch=64", "expert.threads=1", "expert.imitation_batch=32", "league.opponents=[\"random\"]"]


def test_a_run_with_the_term_trains_other_weights_and_leaves_no_hook(tmp_path):
    def run(name, weight):
        cfg = T.load_config(overrides=SETS + ["run.steps=512", f"expert.imitation_weight={weight}",
                                              "expert.imitation_steps=384"])
        return T.train(cfg, tmp_path / name, log=lambda s: None)
    a, b, c = run("a", 1.0), run("b", 0.0), run("c", 1.0)
    assert a["steps"] == b["steps"] == c["steps"]
    pa, pb, pc = (load_checkpoint(r["checkpoint"])[0] for r in (a, b, c))
    assert pa.extra_loss is None
    sa, sb, sc = pa.state_dict(), pb.state_dict(), pc.state_dict()
    assert any(not torch.equal(sa[k], sb[k]) for k in sa)          # the term changed the training
    assert a["expert"]["imitation"] == {"weight": 1.0, "steps": 384, "batch": 32}
    assert "imitation" not in b["expert"]


def test_a_resumed_run_makes_the_labels_again(tmp_path):
    """Killed mid-way (SIGKILL) and resumed while the term still weighs: the latest round's labels
    are made again (the same bytes as the round made them: a search teacher's labels depend on the
    round's seed alone) and the run goes on to its budget."""
    run = tmp_path / "run"
    sets = SETS + ["expert.imitation_weight=1.0", "expert.imitation_steps=4096", "expert.every_steps=256"]
    p = run_train(tmp_path, "--steps", "1024", "--out", str(run), sets=sets, kill="train.epoch@4")
    assert p.returncode != 0 and "expert round 0:" in p.stdout, p.stdout + p.stderr
    p = run_train(tmp_path, "--steps", "1024", "--resume", str(run), sets=sets)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "resume: the imitation term's labels (expert round" in p.stdout, p.stdout
    cfg = T.load_config(overrides=sets)
    ex = T._expert_config(cfg)
    im = expert.Imitation(ex, 0)
    T._imitation_resumed(cfg, im, 0, 600, lambda s: None)
    assert im.mark == 2
    again = expert.label_dataset(120, "search:2", seed=expert.round_seed(0, 2), threads=1, topk=int(ex["topk"]))
    assert torch.equal(im.t["obs"], torch.as_tensor(again["obs"]))
    assert torch.equal(im.t["played"], torch.as_tensor(again["actions"]).long())

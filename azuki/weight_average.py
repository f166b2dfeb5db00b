"""The learner's weights averaged over the last stretch of a run's budget (`ppo.average_last`;
docs/training.md "Averaged weights").

PPO's last weights carry the noise of its last few updates: at `make run`'s budget six seeds'
final policies won 73.5-79.0 % against greedy (sd 2.2 points), the uniform mean of the weights
after each update of the budget's last quarter 75.0-77.9 % (sd 1.3, about what a 1,000-game
evaluation's own noise gives) at the same mean: stochastic weight averaging (Izmailov et al. 2018)
applied to the policy PPO leaves.

Invariants:
- an update counts when the run's progress after it (agent-steps over the step budget, or training
  seconds over the wall-clock budget, the larger) exceeds 1 - fraction; the mean is taken in
  float64 over the floating-point entries of the state dict (any other entry keeps its last value);
- the average replaces the learner's weights only when the run ends at its budget (a Ctrl-C or an
  error leaves the learner's own weights in the checkpoint, with the running sum beside them, so a
  resumed run of the same step budget carries the sum on: `state` / `load`).
"""
import math


def check_fraction(v):
    """ppo.average_last as a float in [0, 1), else ValueError (0: off)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= float(v) < 1.0:
        raise ValueError(f"ppo.average_last must be a number in [0, 1) (the budget's share whose updates are "
                         f"averaged; 0: off), got {v!r}")
    return float(v)


def progress(steps, budget_steps, train_s, budget_s):
    """How far the run is through its budget (the larger of its two shares; 0 with no budget)."""
    p = 0.0
    if budget_steps:
        p = max(p, steps / budget_steps)
    if budget_s and math.isfinite(budget_s):
        p = max(p, train_s / budget_s)
    return p


class WeightAverage:
    """The running sum of the weights after each update in the budget's last `fraction`."""

    def __init__(self, fraction, budget_steps=None):
        self.fraction = check_fraction(fraction)
        self.budget_steps = budget_steps
        self.sum, self.count, self.first_step = None, 0, None

    def due(self, prog):
        return self.fraction > 0.0 and prog > 1.0 - self.fraction

    def add(self, policy, step):
        sd = policy.state_dict()
        if self.sum is None:
            self.sum = {k: v.detach().double().clone() for k, v in sd.items() if v.is_floating_point()}
            self.first_step = int(step)
        else:
            for k, acc in self.sum.items():
                acc.add_(sd[k].detach().double())
        self.count += 1

    def apply(self, policy):
        """The learner's weights := the mean; the sum is consumed (a later save holds no average)."""
        import torch
        sd = policy.state_dict()
        with torch.no_grad():
            for k, acc in self.sum.items():
                sd[k].copy_((acc / self.count).to(sd[k].dtype))
        done = {"updates": self.count, "from_step": self.first_step, "fraction": self.fraction}
        self.sum, self.count, self.first_step = None, 0, None
        return done

    def state(self):
        """What a checkpoint keeps of it (None: nothing summed)."""
        if not self.count:
            return None
        return {"fraction": self.fraction, "budget_steps": self.budget_steps, "count": self.count,
                "first_step": self.first_step, "sum": self.sum}

    def load(self, st):
        """Carries on a saved sum when it was made for the same fraction and step budget; returns
        None, or why it was dropped (a wall-clock budget is this invocation's own, so its sum is)."""
        if st.get("fraction") != self.fraction or st.get("budget_steps") != self.budget_steps or \
                self.budget_steps is None:
            return (f"its weight average (ppo.average_last = {st.get('fraction')}, step budget "
                    f"{st.get('budget_steps')}) belongs to another budget than this run's "
                    f"({self.fraction}, {self.budget_steps}): the average starts again")
        self.sum = {k: v.double() for k, v in st["sum"].items()}
        self.count, self.first_step = int(st["count"]), int(st["first_step"])
        return None

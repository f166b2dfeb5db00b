"""What search labels buy at the kickstart (docs/training.md "Expert iteration", issue 27 item 3).

At one budget of teacher decisions (the same deals: game i of seed 0, STT01 vs STT02 from both
seats), three kickstarts of the default network (structured:factored, hidden 256, the [kickstart]
fit: 3 epochs, batch 1024, lr 1e-3, vf_coef 0.5, torch seed 0):
  greedy-bc     behavioural cloning of the greedy bot (today's default kickstart);
  search-bc     behavioural cloning of search-N's played action (the argmax of its visits);
  search-visits cross-entropy to search-N's root visit distribution (azuki.expert.fit_labels);
  search-mixW   the same to (1 - W) x the visits + W x one-hot(the played action) (played_weight W).
Each policy alone (most likely legal action, the C forward pass) is then played with the arena
(paired deals) against greedy and against search-64. Each is saved as a checkpoint OUT/ARM(.json)
from which `azuki train --resume OUT/ARM.json --out RUN` continues with PPO (same step budget). Usage:
  PYTHONPATH=. OMP_WAIT_POLICY=PASSIVE nice .venv-puffer/bin/python bench/expert_kickstart.py \
      --decisions 20000 --sims 16 --greedy-games 400 --search-games 200 --out /tmp/expert
"""
from __future__ import annotations

import argparse
import json
import os
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=20000)
    ap.add_argument("--sims", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--greedy-games", type=int, default=400)
    ap.add_argument("--search-games", type=int, default=200)
    ap.add_argument("--arms", default="greedy-bc,search-bc,search-visits")
    ap.add_argument("--out", default="/tmp/expert")
    a = ap.parse_args()
    import torch
    from azuki import distill, expert
    from azuki.arena import run_arena
    from azuki.policy import make_policy, state_azkw
    from azuki.stats import fmt_rate
    os.makedirs(a.out, exist_ok=True)
    torch.set_num_threads(2)
    res = {"decisions": a.decisions, "sims": a.sims}
    t = time.perf_counter()
    lab = expert.label_dataset(a.decisions, f"search:{a.sims}", seed=0, threads=a.threads)
    res["labels"] = {"seconds": time.perf_counter() - t, "games": lab["games"], "simulations": lab["simulations"]}
    print("labels", res["labels"], flush=True)
    t = time.perf_counter()
    gd = distill.teacher_dataset(a.decisions, "greedy", seed=0)
    res["greedy_labels"] = {"seconds": time.perf_counter() - t, "games": gd["games"]}
    print("greedy labels", res["greedy_labels"], flush=True)
    for arm in a.arms.split(","):
        torch.manual_seed(0)
        pol = make_policy("structured:factored", hidden=256)
        t = time.perf_counter()
        if arm == "greedy-bc":
            fit = distill.fit(pol, gd, epochs=a.epochs, batch=1024, lr=1e-3, vf_coef=0.5, seed=0)
        elif arm == "search-bc":
            fit = distill.fit(pol, lab, epochs=a.epochs, batch=1024, lr=1e-3, vf_coef=0.5, seed=0)
        elif arm == "search-visits":
            fit = expert.fit_labels(pol, lab, epochs=a.epochs, batch=1024, lr=1e-3, vf_coef=0.5, seed=0)
        elif arm.startswith("search-mix"):      # search-mixW: played_weight W (e.g. search-mix0.5)
            fit = expert.fit_labels(pol, lab, epochs=a.epochs, batch=1024, lr=1e-3, vf_coef=0.5, seed=0,
                                    played_weight=float(arm[len("search-mix"):]))
        else:
            raise SystemExit(f"unknown arm {arm}")
        fit["seconds"] = time.perf_counter() - t
        from azuki.policy import save_checkpoint      # for a PPO continuation: azuki train --resume
        save_checkpoint(os.path.join(a.out, arm), pol, arch="structured:factored",
                        extra={"steps": 0, "minutes": 0.0, "curve": [], "seed": 0})
        path = os.path.join(a.out, arm + ".azkw")
        with open(path, "wb") as f:
            f.write(state_azkw(pol.eval()))
        r = {"fit": fit}
        for opp, games, sims in (("greedy", a.greedy_games, None), ("search", a.search_games, 64)):
            t = time.perf_counter()
            rep = run_arena([f"policy:{path}", opp], games, seed=1, sims=sims, jobs=2)
            label = rep["players"][0]
            r[f"vs_{opp}"] = {"rate": rep["overall"][label], "wall": time.perf_counter() - t}
            print(arm, "vs", opp if sims is None else f"search-{sims}", fmt_rate(rep["overall"][label]), flush=True)
        res[arm] = r
        print(arm, json.dumps(r), flush=True)
    with open(os.path.join(a.out, "result.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()

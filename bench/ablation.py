#!/usr/bin/env python3
"""bench/ablation.py — issue 26's ablation: what the observation layout, the
network, the action head, the sampler, the opponents' batching and the
threads each do to training speed and to what a run learns, at one step
budget and the same seeds (docs/training.md "Ablation").

Two kinds of rows, all `azuki train --minutes 0 --steps STEPS --seed S`:

* learning rows (every seed): the old layout (git revision BASE, default
  4310ef3: layout v3, its flat and structured networks, the 1,056-way dense
  head, PuffeRL's sampler, snapshot opponents in torch per env, 2 epochs, no
  kickstart) against this tree's layout with each network and head; each run
  is then judged by its own final evaluation (1,000 games per bot against
  random and greedy, most likely legal action, paired deals) and, for the
  first seed, 200 games against the search bot (64 simulations);
* speed rows (the first seed only, no kickstart, no final evaluation,
  snapshots every 50,000 steps so the league holds some): this tree's default
  with one change each (`--ablate` patches of this script for the changes
  that have no config key: PuffeRL's own sampler instead of azuki.sampler,
  which also has torch act in the rollout, snapshot opponents' forwards in
  torch instead of the C forward; `ppo.c_rollout=false` for the learner's
  rollout in torch). Env
  threads give the same trajectories as one thread (tested), the C snapshot
  forward the same actions as torch (tested) and the two samplers draw from
  the same distribution: their rows change speed, not what is learned.

Both sides run from worktrees with their own .venv-puffer (tools/setup_envs.sh
puffer), one run at a time, so each run has the machine to itself; the
agent-steps/s are the run's own (summary.json: steps / training seconds, the
kickstart and evaluations not counted). Results go to OUT/results.jsonl (one
line per run; a rerun skips the runs already there: resumable) and the
Markdown tables to stdout.

  python3 bench/ablation.py --out /tmp/ablation                  # everything (~2-3 h on 2 cores)
  python3 bench/ablation.py --out /tmp/ablation --seeds 0 --rows old-flat,default
  python3 bench/ablation.py --out /tmp/ablation --table          # the tables from what is there

The child mode (`--child PATCHES -- ARGS...`) is how a run gets its patches:
it applies them inside the worktree's interpreter, then runs `python -m
azuki ARGS`.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

# name -> (side, azuki train arguments, patches, kind)
ROWS = {
    # learning rows: representation x network x head, and the old PPO config on the new layout
    "old-flat": ("base", [], "", "learn"),
    "old-structured": ("base", ["--arch", "structured"], "", "learn"),
    "new-flat-oldcfg": ("new", ["--arch", "flat", "--set", "ppo.update_epochs=2", "--set", "kickstart.decisions=0"],
                        "", "learn"),
    "new-flat": ("new", ["--arch", "flat"], "", "learn"),
    "new-flat-factored": ("new", ["--arch", "flat:factored"], "", "learn"),
    "new-structured": ("new", ["--arch", "structured"], "", "learn"),
    "default": ("new", [], "", "learn"),
    # speed rows: this tree's default with one change
    "speed-default": ("new", [], "", "speed"),
    "speed-env-threads-2": ("new", ["--set", "env.threads=2"], "", "speed"),
    "speed-torch-threads-1": ("new", ["--set", "run.threads=1"], "", "speed"),
    "speed-torch-snapshots": ("new", [], "torch-snapshots", "speed"),
    "speed-torch-rollout": ("new", ["--set", "ppo.c_rollout=false"], "", "speed"),
    "speed-structured-dense": ("new", ["--arch", "structured"], "", "speed"),
    "speed-structured-dense-puffer-sampler": ("new", ["--arch", "structured"], "puffer-sampler", "speed"),
}
SPEED_ARGS = ["--set", "kickstart.decisions=0", "--set", "eval.final_games=0", "--set", "eval.games=16",
              "--set", "league.snapshot_steps=50000"]


# ---- child: patches, then azuki's CLI ----------------------------------------------------------------------

PATCHES = ("puffer-sampler", "torch-snapshots")


def apply(patches):
    """Apply the named patches (comma-separated) to this process's azuki."""
    import azuki.sampler
    import azuki.train
    for p in [p for p in patches.split(",") if p]:
        if p == "puffer-sampler":          # PuffeRL's multinomial over the masked logits (dense head only)
            def puffer_sample_logits(logits, action=None):
                if hasattr(logits, "log_prob_entropy"):
                    raise SystemExit("ablation: puffer-sampler needs the dense head (--arch structured or flat)")
                return azuki.sampler._original()(logits, action)
            azuki.sampler.sample_logits = puffer_sample_logits
            import azuki.envs.crollout   # the sampler acts only where torch acts: no C rollout (ppo.c_rollout)
            azuki.envs.crollout.CRollout.usable = lambda self: False
        elif p == "torch-snapshots":       # snapshot opponents' forwards in torch (batched across envs)
            azuki.train.c_forward = lambda policy: (None, "ablation: the torch forward")
        else:
            raise SystemExit(f"ablation: unknown patch {p!r} (known: {', '.join(PATCHES)})")


def _child(patches, args):
    apply(patches)
    from azuki.__main__ import main
    raise SystemExit(main(args))


# ---- driver -------------------------------------------------------------------------------------------------

def _sh(cmd, cwd, log):
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT).returncode


def _worktree(rev, path):
    if not (path / ".venv-puffer" / "bin" / "azuki").exists():
        if not path.exists():
            subprocess.run(["git", "worktree", "add", "--detach", "-q", str(path), rev], cwd=HERE, check=True)
        print(f"setting up {rev}'s .venv-puffer in {path} (tools/setup_envs.sh puffer)", flush=True)
        subprocess.run(["bash", "tools/setup_envs.sh", "puffer"], cwd=path, check=True, stdout=subprocess.DEVNULL)
    return path


def _load(path):
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done[(r["row"], r["seed"])] = r
    return done


def _run(row, seed, steps, trees, out, search_games):
    side, args, patches, kind = ROWS[row]
    wt = trees[side]
    run_dir = out / "runs" / f"{row}-s{seed}"
    log = out / "logs" / f"{row}-s{seed}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(run_dir, ignore_errors=True)      # a run cut short before: start it again
    train = ["train", "--minutes", "0", "--steps", str(steps), "--seed", str(seed), "--quiet",
             "--out", str(run_dir)] + args + (SPEED_ARGS if kind == "speed" else ["--set", "eval.games=16"])
    py = str(wt / ".venv-puffer" / "bin" / "python")
    cmd = [py, str(Path(__file__).resolve()), "--child", patches, "--"] + train
    t0 = time.time()
    load0 = os.getloadavg()[0]
    if _sh(cmd, wt, log):
        raise SystemExit(f"{row} seed {seed} failed: see {log}")
    s = json.loads((run_dir / "summary.json").read_text())
    r = {"row": row, "seed": seed, "side": side, "steps": s["steps"], "train_minutes": s["train_minutes"],
         # the run's own figure where it writes one (train_minutes is rounded to 0.01 min)
         "steps_per_second": round(s.get("steps_per_second") or s["steps"] / (s["train_minutes"] * 60)),
         "kickstart_seconds": round(sum(s.get("kickstart", {}).get(k, 0) for k in ("data_seconds", "fit_seconds")),
                                    1),
         "wall_seconds": round(time.time() - t0), "load_start": round(load0, 2), "load_end":
         round(os.getloadavg()[0], 2)}
    for bot, e in (s.get("final_eval") or {}).items():
        r[bot] = {"rate": e["rate"], "ci95": e["ci95"], "games": e["games"]}
    if kind == "learn" and search_games:
        ck = s["checkpoint"]
        spec = ("policy:" + ck) if side == "new" else (ck + ":greedy")
        js = out / "logs" / f"{row}-s{seed}.search.json"
        with open(js, "w") as f, open(log, "a") as err:
            rc = subprocess.run([str(wt / ".venv-puffer" / "bin" / "azuki"), "eval", spec, "search", "--games",
                                 str(search_games), "--seed", str(seed + 1), "--json"], cwd=wt, stdout=f,
                                stderr=err).returncode
        if rc:
            raise SystemExit(f"{row} seed {seed}: the search evaluation failed: see {log}")
        e = json.loads(js.read_text())
        r["search"] = {"rate": e["win_rate"]["rate"], "ci95": e["win_rate"]["ci95"], "games": search_games}
    return r


def _pct(e):
    if not e:
        return "–"
    return f"{100 * e['rate']:.1f} % [{100 * e['ci95'][0]:.1f}, {100 * e['ci95'][1]:.1f}]"


def _results(done, row, seeds):
    """The results of `row` for the seeds that have one, in seed order."""
    return [done[(row, s)] for s in seeds if (row, s) in done]


def table(done, seeds):
    lines = ["| row | seeds | agent-steps/s (median) | vs random | vs greedy | vs search-64 (first seed, 200) |",
             "|---|---|---|---|---|---|"]
    for row, (_, _, _, kind) in ROWS.items():
        rs = _results(done, row, seeds)
        if not rs or kind != "learn":
            continue
        sps = statistics.median(r["steps_per_second"] for r in rs)
        med = {}
        for bot in ("random", "greedy"):
            vals = [r[bot]["rate"] for r in rs if bot in r]
            med[bot] = (f"{100 * statistics.median(vals):.1f} % (" + ", ".join(f"{100 * v:.1f}" for v in vals) + ")"
                        if vals else "–")
        srch = next((_pct(r.get("search")) for r in rs if r.get("search")), "–")
        lines.append(f"| {row} | {','.join(str(r['seed']) for r in rs)} | {sps:,.0f} | {med['random']} | "
                     f"{med['greedy']} | {srch} |")
    lines += ["", "| speed row | seeds | agent-steps/s (median; each run) | ratio to speed-default's median |",
              "|---|---|---|---|"]
    med = {}
    for row, (_, _, _, kind) in ROWS.items():
        rs = _results(done, row, seeds)
        if kind == "speed" and rs:
            med[row] = statistics.median(r["steps_per_second"] for r in rs)
            ratio = f"{med[row] / med['speed-default']:.2f}" if "speed-default" in med else "–"
            lines.append(f"| {row} | {','.join(str(r['seed']) for r in rs)} | {med[row]:,.0f} ("
                         + ", ".join(f"{r['steps_per_second']:,}" for r in rs) + f") | {ratio} |")
    return "\n".join(lines)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        i = sys.argv.index("--")
        _child(sys.argv[2] if i > 2 else "", sys.argv[i + 1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--base", default="4310ef3", help="the old layout's revision (default 4310ef3)")
    ap.add_argument("--new", default="HEAD", help="this side's revision (default HEAD; a worktree of it)")
    ap.add_argument("--work", type=Path, default=None, help="where the worktrees go (default OUT/trees)")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--steps", type=int, default=400000)
    ap.add_argument("--speed-steps", type=int, default=200000)
    ap.add_argument("--speed-seeds", action="store_true",
                    help="run the speed rows for every seed too (their medians; the first seed only without)")
    ap.add_argument("--search-games", type=int, default=200)
    ap.add_argument("--rows", default=",".join(ROWS), help="comma-separated rows (default all)")
    ap.add_argument("--table", action="store_true", help="print the tables of what OUT holds and stop")
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    a.out.mkdir(parents=True, exist_ok=True)
    res = a.out / "results.jsonl"
    done = _load(res)
    if a.table:
        print(table(done, seeds))
        return 0
    rows = a.rows.split(",")
    for r in rows:
        if r not in ROWS:
            raise SystemExit(f"unknown row {r!r}; rows: {', '.join(ROWS)}")
    work = a.work or (a.out / "trees")
    trees = {"base": _worktree(a.base, work / "base"), "new": _worktree(a.new, work / "new")}
    # the first seed of every row first (a complete table early), then the other seeds (speed rows
    # only with --speed-seeds: they are there for the medians of their rates)
    more = [r for r in rows if ROWS[r][3] == "learn" or a.speed_seeds]
    plan = [(r, seeds[0]) for r in rows] + [(r, s) for s in seeds[1:] for r in more]
    for row, seed in plan:
        if (row, seed) in done:
            continue
        steps = a.speed_steps if ROWS[row][3] == "speed" else a.steps
        print(f"{time.strftime('%H:%M:%S')} {row} seed {seed} ({steps:,} steps)", flush=True)
        r = _run(row, seed, steps, trees, a.out, a.search_games if seed == seeds[0] else 0)
        with open(res, "a") as f:
            f.write(json.dumps(r) + "\n")
        done[(row, seed)] = r
        print(f"   {r['steps_per_second']:,} agent-steps/s, " + ", ".join(
            f"vs {b} {_pct(r.get(b))}" for b in ("random", "greedy", "search") if r.get(b)), flush=True)
    print(table(done, seeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())

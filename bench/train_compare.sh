#!/usr/bin/env bash
# bench/train_compare.sh REV [RUNS] [STEPS] [NEW] — end-to-end training speed
# (`azuki train`, each commit's default config) of this tree (or of git
# revision NEW) against git revision REV, side by side: REV (and NEW) is
# checked out in a temporary worktree with its own .venv-puffer
# (tools/setup_envs.sh puffer, from the wheelhouse); without NEW this tree's
# .venv-puffer is brought up to date (make venv-puffer). Then
# RUNS runs of STEPS agent-steps each are made alternately (REV, this tree,
# REV, ...) so machine noise hits both alike. Prints each run's
# agent-steps/s (steps / training seconds from summary.json: the curve's
# evaluations are not counted), the medians and the median ratio.
#
# STEPS (default 400,000) must be long enough for the league to hold
# snapshots in both (4310ef3 takes one every 1.5 wall-clock minutes, this
# tree every league.snapshot_steps, 200,000): the snapshot opponents are a
# large part of an iteration's cost. A step budget, not minutes: both do the
# same work. NEW_ARGS (environment) adds arguments to the new side's runs,
# e.g. NEW_ARGS="--set league.snapshot_steps=40000" for a short budget on a
# slow machine, where REV's 1.5 minutes are fewer steps than 200,000;
# BASE_ARGS to REV's (both: the same recipe on each side, e.g.
# BASE_ARGS=NEW_ARGS="--config azuki/data/run.toml", make run's). On a shared machine compare the ratio, not absolute figures
# taken at different times, and note the load (printed).
# OMP_WAIT_POLICY: this tree's `azuki train` sets PASSIVE for torch's threads
# unless the environment sets it (docs/training.md, Speed); older revisions
# spin, which on a loaded machine costs them 3-4x. Export OMP_WAIT_POLICY=PASSIVE
# (or ACTIVE) to run both sides alike and measure the rest of the difference.
#
#   bash bench/train_compare.sh 4310ef3                  # 3 runs of 400,000 steps each (~20-30 min)
#   bash bench/train_compare.sh 4310ef3 3 400000 HEAD    # the committed HEAD instead of this tree
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh   # report
rev=${1:?usage: bench/train_compare.sh REV [RUNS] [STEPS] [NEW]}
runs=${2:-3}
steps=${3:-400000}
new=${4:-}
tmp=$(mktemp -d)
trap 'for w in base new; do git worktree remove --force "$tmp/$w" >/dev/null 2>&1 || true; done; rm -rf "$tmp"' EXIT
setup() {     # REV DIR: a worktree of REV with its own .venv-puffer
    git worktree add --detach -q "$2" "$1"
    echo "setting up $1's .venv-puffer in a worktree (tools/setup_envs.sh puffer)"
    (cd "$2" && bash tools/setup_envs.sh puffer >/dev/null)
}
setup "$rev" "$tmp/base"
if [ -n "$new" ]; then
    setup "$new" "$tmp/new"
    newdir=$tmp/new label=$new
else
    echo "bringing this tree's .venv-puffer up to date (make venv-puffer)"
    make -s venv-puffer >/dev/null
    newdir=$(pwd) label="this tree"
fi
# one run: ROOT (a checkout with its .venv-puffer), OUT -> agent-steps/s of the training loop
run_one() {
    local root=$1 out=$2
    shift 2
    (cd "$root" && .venv-puffer/bin/azuki train --minutes 0 --steps "$steps" --seed 0 --quiet --out "$out" \
        --set eval.final_games=0 --set eval.games=16 "$@" >"$out.log" 2>&1) || { tail -5 "$out.log" >&2; return 1; }
    python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(round(s["steps"] / (s["train_minutes"] * 60)))' \
        "$out/summary.json"
}
echo "OMP_WAIT_POLICY: ${OMP_WAIT_POLICY:-unset: the default of each side}"
base=() head=()
for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086
    b=$(run_one "$tmp/base" "$tmp/run-base-$i" ${BASE_ARGS:-})
    # shellcheck disable=SC2086
    h=$(run_one "$newdir" "$tmp/run-head-$i" ${NEW_ARGS:-})
    base+=("$b") head+=("$h")
    echo "  run $((i + 1)): $rev $b/s, $label $h/s (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
done
report "agent-steps/s of azuki train, median of $runs alternating runs of $steps steps ($(nproc) cores)" \
    "$rev" "$label" 2

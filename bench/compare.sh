#!/usr/bin/env bash
# bench/compare.sh REV [ROUNDS] [GAMES] — engine speed of this tree against
# git revision REV, side by side in one run: both benchmarks are built, then
# run alternately ROUNDS times (so machine noise hits both alike), and the
# medians and their ratio are printed. On a shared machine compare ratios,
# not absolute figures taken at different times.
#
#   bash bench/compare.sh 662b603          # 7 rounds of 20,000 games each
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh   # report
rev=${1:?usage: bench/compare.sh REV [ROUNDS] [GAMES]}
rounds=${2:-7}
games=${3:-20000}
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach -q "$tmp/base" "$rev"
make -s -C "$tmp/base" out/opt/bench_engine >/dev/null
make -s out/opt/bench_engine >/dev/null
base=() head=()
for ((i = 0; i < rounds; i++)); do
    base+=("$("$tmp/base/out/opt/bench_engine" "$games" 1 | awk '/decisions\/s/ {print $2}')")
    head+=("$(./out/opt/bench_engine "$games" 1 | awk '/decisions\/s/ {print $2}')")
done
report "decisions/s, median of $rounds alternating runs of $games games" "$rev" "this tree" 3

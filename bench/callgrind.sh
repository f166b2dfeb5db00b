#!/usr/bin/env bash
# bench/callgrind.sh REV [GAMES] — instructions per GAMES games (default 1,000)
# of this tree against git revision REV, counted by valgrind's callgrind:
# repeatable on a noisy shared machine where timings are not. Both
# bench_engine binaries play the same games (same seeds, same deck pairings:
# the default card set unless $AZK_CARDSET names another); the micro-benchmark
# loops are cut to one repetition so the count is the games. Prints both
# counts and their ratio (this tree / REV); the issue-17 bar is within 3 %.
#
#   bash bench/callgrind.sh c38883d        # needs valgrind (apt-get install valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: bench/callgrind.sh REV [GAMES]}
games=${2:-1000}
command -v valgrind >/dev/null || { echo "error: bench/callgrind.sh needs valgrind (apt-get install valgrind)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach -q "$tmp/base" "$rev"
make -s -C "$tmp/base" out/opt/bench_engine >/dev/null
make -s out/opt/bench_engine >/dev/null
count() {
    AZK_BENCH_REPS=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$2" "$1" "$games" 1 >/dev/null 2>"$tmp/log.$2"
    awk '/^summary:/ {print $2}' "$tmp/cg.$2"
}
b=$(count "$tmp/base/out/opt/bench_engine" base)
h=$(count ./out/opt/bench_engine head)
echo "callgrind instructions, $games games (bench_engine)"
echo "  $rev: $b"
echo "  this tree: $h"
awk -v a="$h" -v b="$b" 'BEGIN {printf "  ratio: %.4f (%+.2f%%)\n", a / b, 100 * (a / b - 1)}'

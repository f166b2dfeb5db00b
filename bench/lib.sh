# bench/lib.sh — what the side-by-side scripts (compare.sh, train_compare.sh)
# share; sourced, not run.

# median N...: the median of the numbers (the mean of the middle two for an even count)
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

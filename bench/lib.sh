# bench/lib.sh — what the side-by-side scripts (compare.sh, train_compare.sh)
# share; sourced, not run.

# median N...: the median of the numbers (the mean of the middle two for an even count)
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# report TITLE REV LABEL DIGITS: the title, the medians of the caller's arrays base (REV's runs) and
# head (LABEL's runs), and head's median over base's with DIGITS decimals
report() {
    local mb mh
    mb=$(median "${base[@]}") mh=$(median "${head[@]}")
    echo "$1"
    echo "  $2: $mb"
    echo "  $3: $mh"
    awk -v a="$mh" -v b="$mb" -v d="$4" 'BEGIN {printf "  ratio: %." d "f\n", a / b}'
}

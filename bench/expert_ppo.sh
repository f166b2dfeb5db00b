#!/usr/bin/env bash
# bench/expert_ppo.sh DIR STEPS ARM... — the PPO continuation of bench/expert_kickstart.py's
# kickstarted policies (docs/training.md "Expert iteration"): each ARM's checkpoint DIR/ARM is
# resumed by `azuki train` for STEPS agent-steps (ARM "default": a fresh default run, its own
# greedy kickstart; ARM "expert": that, then one [expert] round of 30,000 search:16 labels) (the default config, seed 0; no final evaluation),
# then its policy alone (most likely legal action) plays the arena against greedy (400 games) and
# search-64 (200 games), paired deals. Run from the repository root, one run at a time:
#   PYTHONPATH=. nice bash bench/expert_ppo.sh /tmp/expert30k 400000 greedy-bc search-visits
set -euo pipefail
dir=${1:?usage: bench/expert_ppo.sh DIR STEPS ARM...}
steps=${2:?}
shift 2
py=${PY:-.venv-puffer/bin/python}
export OMP_WAIT_POLICY=PASSIVE
for arm in "$@"; do
    run="$dir/ppo-$arm"
    start=$(date +%s)
    if [ "$arm" = default ]; then     # the default config: its own greedy kickstart (200,000 decisions), then PPO
        from=()
    elif [ "$arm" = expert ]; then    # the default kickstart, then [expert] round 0: 30,000 search-16 labels
        from=(--set expert.decisions=30000 --set expert.threads=2)
    else
        from=(--resume "$dir/$arm.json")
    fi
    if ! grep -q '^stopped: step budget' "$run.log" 2>/dev/null; then     # a finished arm is not trained again
        "$py" -m azuki train "${from[@]}" --out "$run" --minutes 0 --steps "$steps" --seed 0 --quiet \
            --set eval.final_games=0 --set eval.minutes=1000.0 > "$run.log" 2>&1
    fi
    echo "$arm: PPO $steps steps in $(( $(date +%s) - start )) s: $(grep -m1 '^stopped' "$run.log")"
    "$py" -m azuki arena --players "policy:$run/checkpoint/latest.json" greedy --games 400 --seed 1 \
        --jobs 2 > "$run.vs-greedy.txt" 2>&1
    "$py" -m azuki arena --players "policy:$run/checkpoint/latest.json" search --sims 64 --games 200 \
        --seed 1 --jobs 2 > "$run.vs-search64.txt" 2>&1
    echo "$arm:"; grep -h -m2 "%" "$run.vs-greedy.txt" "$run.vs-search64.txt"
done

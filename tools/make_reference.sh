#!/usr/bin/env bash
# Train the small reference checkpoint that ships with the package and that
# `python -m azuki play` offers as an opponent (azuki/data/reference/):
#   1. .venv-puffer (tools/setup_envs.sh puffer: pufferlib + torch, CPU),
#   2. `azuki train --minutes 0 --steps $STEPS --seed $SEED --out runs/reference`
#      --config azuki/data/expert60.toml: training from search (docs/training.md
#      "Expert iteration"): the default policy (structured:factored) and config,
#      plus `[expert]` rounds of 30,000 search:16 labels before PPO and every
#      2,000,000 agent-steps until 40 % of the budget, the learning rate
#      annealed to 0 over it (the shipped reference: 19,734,528 agent-steps,
#      what the 60-minute run reached on the quiet 2-core machine, with the
#      default deck pairings, mirrors included; docs/training.md "The
#      60-minute run"); a step budget, so the same budget on any machine and
#      load. Extra arguments go to `azuki train` after these (e.g. `--set
#      expert.decisions=0` for plain PPO). FROM=CHECKPOINT skips the training
#      and exports that checkpoint instead (a run already made),
#   3. `python -m azuki.policy export` of its latest checkpoint into
#      azuki/data/reference/reference.{npz,json} (float16 weights, ~3 MB; the
#      JSON carries the observation-layout / action-space / card-set hashes, so
#      a build whose observation changed refuses it with a clear CheckpointError:
#      then run this script again and commit the files),
#   4. `python -m azuki.policy export --format azkw` of that numpy export into
#      azuki/data/reference/reference.azkw (the C forward pass's weight file,
#      float16 as the npz: the same numbers; tests/test_cpolicy.py checks that
#      re-exporting reference.npz gives these bytes).
# Then it checks the export: the numpy player loads it and plays a game.
#
# Usage: tools/make_reference.sh [STEPS (default 19734528)] [SEED (default 0)] [azuki train args...]
#        FROM=runs/x/checkpoint/latest tools/make_reference.sh
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS=${1:-19734528}
SEED=${2:-0}
shift $(( $# < 2 ? $# : 2 ))
OUT=runs/reference
DEST=azuki/data/reference/reference
bash tools/setup_envs.sh puffer     # idempotent; reinstalls azuki from this checkout when it changed
if [ -n "${FROM:-}" ]; then
    CKPT=$FROM
else
    rm -rf "$OUT"
    .venv-puffer/bin/azuki train --minutes 0 --steps "$STEPS" --seed "$SEED" --out "$OUT" \
        --config azuki/data/expert60.toml "$@"
    CKPT=$OUT/checkpoint/latest
fi
mkdir -p "$(dirname "$DEST")"
.venv-puffer/bin/python -m azuki.policy export "$CKPT" "$DEST"
.venv-puffer/bin/python -m azuki.policy export "$DEST" "$DEST" --format azkw --dtype float16
.venv-puffer/bin/python - "$DEST" <<'PY'
import sys
import azuki
from azuki.policy_np import NumpyPolicyPlayer
p = NumpyPolicyPlayer.load(sys.argv[1], seed=0)
g = azuki.Game(seed=1)
while not g.is_terminal:
    g.step(p.act(g))
print(f"reference ok: plays a self-play game to {g.result}; value at the end {p.last['value']}")
PY
ls -l "$DEST".npz "$DEST".json "$DEST".azkw

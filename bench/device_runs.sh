#!/usr/bin/env bash
# bench/device_runs.sh — training runs on a lent GPU machine (the device tool;
# never CI): several CPU runs side by side, each pinned to its own 2 cores
# (a step budget, so what they learn does not depend on the machine), plus
# optionally one run on the GPU. Used for issue 26/27's GPU figure and for
# sweeps that a shared 2-core machine cannot run in the time.
#
# The GPU machine has Python 3.12 with CUDA torch, no PyPI and no pufferlib.
# ./.whl (ignored by git, carried by the device tool) must hold cp312 / pure
# wheels of numpy 1.26.4, gymnasium 0.29.1, gym 0.23.0 (an sdist on PyPI: `pip wheel --no-deps gym==0.23.0`)
# (+ gym_notices), pyro-ppl 1.9.2 (+ pyro-api), pettingzoo 1.24.1, shimmy 1.3.0,
# farama-notifications, rich-argparse, jsonschema (+ jsonschema-specifications,
# referencing, rpds-py), and pufferlib_slim.tgz: pufferlib 3.0.0's Python
# files (from a .venv-puffer, without the 72 MB of Ocean resources and the
# cp311 _C) plus the sdist's pufferlib/extensions/pufferlib.cpp. The script
# builds pufferlib._C as a CPU extension (PuffeRL then computes advantages on
# the CPU: it picks its CUDA kernel only when nvcc is on PATH, so nvcc is kept
# off PATH) and azuki._core in place.
#
# Usage: bash bench/device_runs.sh STEPS RUNS_FILE
#   RUNS_FILE: one run per line, "NAME DEVICE [--set k=v ...]" (DEVICE cpu or cuda; any `azuki train`
#   flags, which come last and win: STEPS 0 and `--minutes M` there give a wall-clock budget);
#   each run's summary.json and log land in $OUT (or /tmp/device_out).
set -uo pipefail
PY=${PY:-python3}
STEPS=$1; RUNS=$2
OUTDIR=${OUT:-/tmp/device_out}; mkdir -p "$OUTDIR"
export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
t0=$(date +%s)
NVCC_DIR=$(dirname "$(command -v nvcc 2>/dev/null || echo /nonexistent/x)")
export PATH=$(echo "$PATH" | tr ':' '\n' | grep -vx "$NVCC_DIR" | paste -sd:)
[ -n "${SKIP_SETUP:-}" ] || {
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
mkdir -p /tmp/pf && tar xzf .whl/pufferlib_slim.tgz -C /tmp/pf || exit 1
# the slim copy has no dist-info; azuki's PuffeRL adapter reads the installed version (3.0.0, which it was verified with)
mkdir -p /tmp/pf/pufferlib-3.0.0.dist-info && printf 'Metadata-Version: 2.1\nName: pufferlib\nVersion: 3.0.0\n' > /tmp/pf/pufferlib-3.0.0.dist-info/METADATA
cat > /tmp/pf/setup_c.py <<'PY'
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
setup(name="pufferlib_c", ext_modules=[CppExtension("pufferlib._C", ["pufferlib.cpp"], extra_compile_args=["-O2"])],
      cmdclass={"build_ext": BuildExtension})
PY
export PYTHONPATH=/tmp/site:/tmp/pf:$PWD
(cd /tmp/pf && python3 setup_c.py -q build_ext --inplace > build.log 2>&1) || { tail -30 /tmp/pf/build.log; exit 1; }
# (that machine's gcc has no LTO plugin: the same build without -flto)
sed 's/"-flto=auto", "-ffat-lto-objects", //' setup.py > setup_device.py
rm -rf /tmp/azb; python3 setup_device.py -q build_clib -b /tmp/azb -t /tmp/azb build_ext -t /tmp/azb --inplace -j 8 > /tmp/azuki_build.log 2>&1 || { rm -f setup_device.py; tail -30 /tmp/azuki_build.log; exit 1; }
rm -f setup_device.py
}
echo "setup: $(( $(date +%s) - t0 )) s"
$PY -c "import torch, numpy, pufferlib.pufferl, azuki._core; print('torch', torch.__version__, torch.cuda.is_available() and torch.cuda.get_device_name(0), 'numpy', numpy.__version__)" || exit 1
echo "cores: $(nproc)"
$PY -c "from azuki._core import simulate; print('calibration: engine', round(simulate(20000, seed=1)['decisions_per_second']), 'decisions/s on one core')"
set -f
core=0
while read -r name dev rest; do
    [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
    cores="$core-$((core + 1))"; core=$((core + 2))
    ( taskset -c "$cores" $PY -m azuki train --steps "$STEPS" --minutes 0 --seed 0 --out "/tmp/runs/$name" \
          --set run.device="$dev" --set run.threads=2 --set run.checkpoint_minutes=1000 $rest \
          > "$OUTDIR/$name.log" 2>&1; cp "/tmp/runs/$name/summary.json" "$OUTDIR/$name.summary.json" 2>/dev/null ) &
done < "$RUNS"
wait
set +f
for f in "$OUTDIR"/*.log; do echo "== $f"; grep -E "stopped:|vs random|vs greedy|kickstart: [0-9]|Error|error" "$f" | tail -6; done
echo "total: $(( $(date +%s) - t0 )) s"

#!/usr/bin/env bash
# Virtual environments for azuki's RL-environment modules (azuki.envs), one per
# tested world, each with azuki installed from a wheel of this checkout:
#
#   tools/setup_envs.sh puffer   .venv-puffer: constraints/puffer.txt
#                                (pufferlib 3.0.0, torch 2.13.0 CPU, numpy 1.26,
#                                gymnasium 0.29.1, pettingzoo 1.24.1, ray)
#   tools/setup_envs.sh latest   .venv-latest: constraints/latest.txt
#                                (pettingzoo 1.27, gymnasium 1.4, numpy 2; no pufferlib)
#   tools/setup_envs.sh web      .venv-web: constraints/web.txt (Playwright for the
#                                browser tests, tests/web; the browser is Debian's chromium)
#
# pufferlib 3.0.0 ships only an sdist whose setup.py needs work-arounds to build
# on a CPU machine (../shared/PUFFERLIB.md, docs/envs.md "Installing"):
#   - it imports torch at build time: build with --no-build-isolation after torch;
#   - NO_OCEAN=1 (else it downloads raylib/box2d from GitHub), and then setup.py
#     reads `c_extension_paths`, defined only without NO_OCEAN: a
#     sitecustomize.py on PYTHONPATH (for the build only) defines it as [];
#   - an `nvcc` on PATH makes it build a CUDA extension against CPU torch and
#     fail: the build runs with a PATH that holds only the venv and the system.
# The built wheel goes to a wheelhouse ($AZUKI_WHEELHOUSE, default
# ~/.cache/azuki/wheelhouse), with every dependency wheel, so a second install
# needs no build and no network (seconds, plus unpacking torch).
#
# Idempotent. Needs Python 3.11, gcc and PyPI (first run only).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PYTHON=${PYTHON:-python3}
WH=${AZUKI_WHEELHOUSE:-$HOME/.cache/azuki/wheelhouse}
WORLD=${1:-}
case "$WORLD" in
    puffer) VENV=.venv-puffer; CONS=constraints/puffer.txt
            PKGS=(torch pufferlib psutil gymnasium pettingzoo ray matplotlib pytest) ;;
    latest) VENV=.venv-latest; CONS=constraints/latest.txt
            PKGS=(numpy gymnasium pettingzoo pytest) ;;
    web)    VENV=.venv-web; CONS=constraints/web.txt
            PKGS=(playwright numpy pytest) ;;
    *) echo "usage: tools/setup_envs.sh puffer|latest|web" >&2; exit 2 ;;
esac
mkdir -p "$WH"
t0=$(date +%s)

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)
"${PIP[@]}" install --quiet --upgrade pip

# pip install from the wheelhouse when it has everything, else from PyPI
# (and then fill the wheelhouse for next time).
install_world() {
    if "${PIP[@]}" install --quiet --no-index --find-links "$WH" -c "$CONS" "$@" 2>/dev/null; then
        echo "   installed from the wheelhouse ($WH): $*"
    else
        "${PIP[@]}" install --quiet --find-links "$WH" -c "$CONS" "$@"
        "${PIP[@]}" wheel --quiet --find-links "$WH" -c "$CONS" -w "$WH" "$@" >/dev/null 2>&1 || true
    fi
}

if [ "$WORLD" = puffer ]; then
    install_world torch "numpy" setuptools wheel "Cython>=3.0.10"
    if ! ls "$WH"/pufferlib-3.0.0-*.whl >/dev/null 2>&1; then
        echo "   building pufferlib 3.0.0 (CPU, no Ocean envs) into $WH"
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        mkdir -p "$tmp/site"
        echo 'import builtins; builtins.c_extension_paths = []' > "$tmp/site/sitecustomize.py"
        # (pip download runs setup.py for the metadata too: same environment)
        build_env=(env NO_OCEAN=1 PYTHONPATH="$tmp/site" PATH="$ROOT/$VENV/bin:/usr/sbin:/usr/bin:/sbin:/bin")
        "${build_env[@]}" "${PIP[@]}" download --quiet --no-deps --no-binary :all: --no-build-isolation \
            -d "$tmp" pufferlib==3.0.0
        "${build_env[@]}" "${PIP[@]}" wheel --quiet --no-deps --no-build-isolation --no-cache-dir -w "$WH" \
            "$tmp"/pufferlib-3.0.0.tar.gz
    fi
fi
install_world "${PKGS[@]}"

# azuki itself, from a wheel of this checkout (built once per checkout state
# with the main .venv's toolchain: numpy 2 headers, which run on numpy 1.26 too).
# Rebuilt only when a source file is newer than the wheel (every venv shares it). Under a lock: make test
# sets up two worlds at once (its two lanes), and pip builds the wheel in the checkout's build/.
mkdir -p out/wheel
exec 9> out/wheel/.lock
flock 9
whl=$(ls out/wheel/azuki-*.whl 2>/dev/null | head -1 || true)
if [ -z "$whl" ] || [ -n "$(find azuki csrc generated setup.py pyproject.toml -newer "$whl" \
        -not -name '*.pyc' -not -path '*/__pycache__*' -not -name '_core.c' -not -name '*.so' -print -quit)" ]; then
    rm -f out/wheel/azuki-*.whl
    PYTHONDONTWRITEBYTECODE=1 "${PIP[@]}" wheel --quiet --no-deps -w out/wheel .
fi
"${PIP[@]}" install --quiet --force-reinstall --no-deps out/wheel/azuki-*.whl
flock -u 9
"${PIP[@]}" install --quiet -c "$CONS" "jsonschema>=4.17"
echo "   $VENV ready in $(( $(date +%s) - t0 )) s: $("$VENV/bin/python" - <<'EOF'
import importlib
out = []
for m in ("numpy", "torch", "pufferlib", "gymnasium", "pettingzoo", "ray", "playwright"):
    try:
        out.append(f"{m} {importlib.import_module(m).__version__}")
    except Exception:
        pass
print(", ".join(out))
EOF
)"

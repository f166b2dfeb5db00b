#!/usr/bin/env bash
# Install clang with libFuzzer (Debian package `clang`) if `clang
# -fsanitize=fuzzer` does not already work. Idempotent and quiet when present.
# Runs apt-get as root, or through sudo when available.
set -euo pipefail
probe() {
    local d
    d=$(mktemp -d)
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$d/p.c"
    clang -fsanitize=fuzzer,address,undefined "$d/p.c" -o "$d/p" >/dev/null 2>&1 && "$d/p" -runs=1 >/dev/null 2>&1
    local ok=$?
    rm -rf "$d"
    return $ok
}
if command -v clang >/dev/null 2>&1 && probe; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install_fuzz_deps: need root or sudo to apt-get install clang" >&2; exit 1; }
    SUDO=sudo
fi
echo "install_fuzz_deps: installing clang (libFuzzer) from Debian packages"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang >/dev/null
probe || { echo "install_fuzz_deps: clang installed but -fsanitize=fuzzer does not work" >&2; exit 1; }

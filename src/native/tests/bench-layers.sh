#!/usr/bin/env bash
# Per-present cost of the gfxstats Vulkan layer against MangoHud's, in one run of one app: vkcube
# under Xvfb with both layers loaded, under callgrind, once with N and once with 2N presents. The
# instructions executed inside each layer's own shared object, (I(2N) - I(N)) / N, are its cost per
# present; the difference removes start-up (instance, device, swapchain, MangoHud's font atlas).
# Counts only each layer's own code, not the libc or driver calls it makes. Slow: minutes per run
# under lavapipe. No daemon is needed (frames are kept in memory); usage: bench-layers.sh [N]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v valgrind >/dev/null || t_fail "valgrind is not installed"
command -v mangohud >/dev/null || t_fail "mangohud is not installed (scripts/ci-deps)"
n=${1:-50}
make -s -C "$NATIVE" all
t_start_xvfb
in_layers() { # $1: presents; prints "<gfxstats layer instructions> <MangoHud instructions>"
  GFXSTATS_SOCKET="$T_DIR/none.sock" XDG_DATA_DIRS="$OUT/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
    GFXSTATS=1 MANGOHUD=1 valgrind --tool=callgrind --callgrind-out-file="$T_DIR/cg.$1" vkcube --c "$1" \
    >"$T_DIR/cg.$1.log" 2>&1 || { tail "$T_DIR/cg.$1.log" >&2; t_fail "vkcube under callgrind failed"; }
  callgrind_annotate --threshold=100 "$T_DIR/cg.$1" | awk '
    /libgfxstats_layer\.so/ { gsub(",", "", $1); g += $1 }
    /libMangoHud\.so/ { gsub(",", "", $1); m += $1 }
    END { print g + 0, m + 0 }'
}
read -r g1 m1 < <(in_layers "$n")
read -r g2 m2 < <(in_layers $((2 * n)))
awk -v n="$n" -v g1="$g1" -v g2="$g2" -v m1="$m1" -v m2="$m2" 'BEGIN {
  g = (g2 - g1) / n; m = (m2 - m1) / n
  printf "instructions per present: gfxstats layer %.0f, MangoHud layer %.0f, ratio %.5f\n", g, m, g / m }'

#!/usr/bin/env bash
# Per-present cost of the gfxstats Vulkan layer against MangoHud's, in one run of one app: vkcube
# under Xvfb with both layers loaded, under callgrind, once with N and once with 2N presents. The
# instructions executed inside each layer's own shared object, (I(2N) - I(N)) / N, are its cost per
# present; the difference removes start-up (instance, device, swapchain, MangoHud's font atlas).
# Counts only each layer's own code, not the libc or driver calls it makes. Slow: minutes per run
# under lavapipe. No daemon is needed (frames are kept in memory); usage: bench-layers.sh [N]
#
# bench-layers.sh --present-wait [N]: what present times add (docs/native.md, "Present times"):
# vkcube on Khronos' mock driver with the gfxstats layer alone, without present times
# (GFXSTATS_PRESENT_WAIT=0 GFXSTATS_DISPLAY_TIMING=0) against present wait (the default) and
# display timing (GFXSTATS_PRESENT_WAIT=0), N and 2N presents each, every thread counted apart:
# the render thread's instructions in the present hook (inclusive: with the append, the clock
# reads, the mock's own present and, with display timing, its query, which answers no record),
# and per present those of the waiting thread (with the driver's wait) and of the layer's code on
# the other threads (the session thread's drain).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v valgrind >/dev/null || t_fail "valgrind is not installed"
if [ "${1:-}" = --present-wait ]; then
  n=${2:-2000}
  t_mock_icd
  make -s -C "$NATIVE" all
  t_start_xvfb
  costs() { # $1: 0 (none), 1 (present wait) or d (display timing), $2: presents; prints "<present hook> <waiter> <layer, other threads>"
    local wait=0 display=0
    case "$1" in 1) wait=1 ;; d) display=1 ;; esac
    GFXSTATS_SOCKET="$T_DIR/none.sock" XDG_DATA_DIRS="$OUT/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
      VK_ICD_FILENAMES="$T_MOCK_ICD" GFXSTATS=1 GFXSTATS_QUIET=1 GFXSTATS_PRESENT_WAIT="$wait" GFXSTATS_DISPLAY_TIMING="$display" \
      valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$T_DIR/cg.$1.$2" vkcube --c "$2" \
      >"$T_DIR/cg.$1.$2.log" 2>&1 || { tail "$T_DIR/cg.$1.$2.log" >&2; t_fail "vkcube under callgrind failed"; }
    local f hook=0 waiter=0 other=0 h w o
    for f in "$T_DIR/cg.$1.$2"-*; do
      read -r h w o < <(callgrind_annotate --inclusive=yes --threshold=100 "$f" 2>/dev/null | awk '
        /layer_QueuePresentKHR/ { gsub(",", "", $1); if ($1 + 0 > h) h = $1 + 0 }
        /present_wait\.c:run / { gsub(",", "", $1); if ($1 + 0 > w) w = $1 + 0 }
        END { print h + 0, w + 0 }')
      if [ "$h" != 0 ]; then hook=$h; elif [ "$w" != 0 ]; then waiter=$w; else
        o="$(callgrind_annotate --threshold=100 "$f" 2>/dev/null | awk '/libgfxstats_layer\.so/ { gsub(",", "", $1); g += $1 } END { print g + 0 }')"
        other=$((other + o))
      fi
    done
    echo "$hook $waiter $other"
  }
  read -r h0a w0a o0a < <(costs 0 "$n")
  read -r h0b w0b o0b < <(costs 0 $((2 * n)))
  read -r h1a w1a o1a < <(costs 1 "$n")
  read -r h1b w1b o1b < <(costs 1 $((2 * n)))
  read -r hda _ oda < <(costs d "$n")
  read -r hdb _ odb < <(costs d $((2 * n)))
  awk -v n="$n" -v h0a="$h0a" -v h0b="$h0b" -v h1a="$h1a" -v h1b="$h1b" -v w1a="$w1a" -v w1b="$w1b" \
      -v o0a="$o0a" -v o0b="$o0b" -v o1a="$o1a" -v o1b="$o1b" -v hda="$hda" -v hdb="$hdb" -v oda="$oda" -v odb="$odb" 'BEGIN {
    off = (h0b - h0a) / n; on = (h1b - h1a) / n; dt = (hdb - hda) / n
    printf "instructions per present, render thread (present hook): without present times %.0f, with present wait %.0f (%.2fx, +%.0f), with display timing %.0f (%.2fx, +%.0f)\n", off, on, on / off, on - off, dt, dt / off, dt - off
    printf "per present, waiting thread: %.0f; the layer on the other threads: without %.0f, with present wait %.0f, with display timing %.0f\n", (w1b - w1a) / n, (o0b - o0a) / n, (o1b - o1a) / n, (odb - oda) / n }'
  exit 0
fi
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

#!/usr/bin/env bash
# MangoHud as the peer for what a present is: unmodified vkcube and glxgears under Xvfb with BOTH
# MangoHud (its Vulkan layer through MANGOHUD=1, its GL preload through `mangohud`) and gfxstats
# (`gfxstats run`) loaded. gfxstats must count exactly the presents vkcube made (--c N) and at least
# every present MangoHud logged, and its frame times must be consistent with MangoHud's.
#
# The percentile comparison and why it is one-sided: t_vkcube_with_mangohud in lib.sh. MangoHud
# logs only a window (from autostart_log seconds after start, for log_duration, and nothing if the
# app exits while it logs), so frame counts are compared with the app's own count, not MangoHud's.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v vkcube >/dev/null || t_fail "vkcube is not installed (scripts/ci-deps)"
command -v mangohud >/dev/null || t_fail "mangohud is not installed (scripts/ci-deps)"

t_start_daemon
t_start_xvfb
t_vkcube_with_mangohud vkcube 1500 vkcube
report=$T_MANGO_REPORT
mkdir -p "$T_DIR/mango"

# OpenGL: glxgears under `mangohud` (its GL hook preloaded after ours).
MANGOHUD_CONFIG="output_folder=$T_DIR/mango,autostart_log=1,log_duration=2,log_interval=0" \
  "$ROOT/scripts/gfxstats" run -- mangohud glxgears >"$T_DIR/gears.out" 2>&1 &
GEARS=$!
T_PIDS+=("$GEARS")
t_mangohud_gl_peer "$T_DIR/mango" glxgears "$T_DIR/gears.out"
gours="$(t_counter glxgears "Total frames rendered")"
kill -KILL "$GEARS" 2>/dev/null
wait "$GEARS" 2>/dev/null || true
t_pass "$report; glxgears: gfxstats $gours frames, MangoHud logged $T_MANGO_LOGGED in its window"

#!/usr/bin/env bash
# An unmodified OpenGL program through `gfxstats run`: glxgears under Xvfb, killed right after
# it printed its first "N frames in 5.0 seconds"; the dump holds those N frames plus the few it
# drew between that line and the kill (the first frame is counted from glXMakeCurrent on).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v glxgears >/dev/null || t_fail "glxgears is not installed (scripts/ci-deps)"
t_start_daemon
t_start_xvfb
"$ROOT/scripts/gfxstats" run -- glxgears >"$T_DIR/gears.out" 2>&1 &
GEARS=$!
T_PIDS+=("$GEARS")
t_wait_for 60 grep -q "frames in" "$T_DIR/gears.out" || { cat "$T_DIR/gears.out" >&2; t_fail "glxgears printed no FPS line"; }
kill -STOP "$GEARS"
printed="$(sed -n 's/^\([0-9]*\) frames in \([0-9.]*\) seconds.*/\1/p' "$T_DIR/gears.out" | head -1)"
live="$(t_counter glxgears "Total frames rendered")"
kill -KILL "$GEARS"
wait "$GEARS" 2>/dev/null || true
t_wait_for 30 grep -q "exit: glxgears" "$T_DIR/daemon.log" || t_fail "the daemon did not see glxgears exit"
total="$(t_counter glxgears "Total frames rendered")"
[ "$total" = "$live" ] || t_fail "frames changed when glxgears was killed: $live while stopped, $total after"
# At most a second of frames after the line (the kill follows it within the 50 ms poll).
[ "$total" -ge "$printed" ] && [ "$total" -le $((printed + printed / 5)) ] \
  || t_fail "glxgears printed $printed frames in its first 5 s, the dump has $total"
t_pass "glxgears: $printed frames in its first line, $total in the dump, none lost at SIGKILL"

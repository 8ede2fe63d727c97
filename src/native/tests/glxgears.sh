#!/usr/bin/env bash
# An unmodified OpenGL program through `gfxstats run`: glxgears under Xvfb, killed soon after
# it printed its first "N frames in 5.0 seconds"; the dump holds at least those N frames (the
# first frame is counted from glXMakeCurrent on) and keeps what it showed across the kill; and
# es2gears_x11 for eglSwapBuffers.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v glxgears >/dev/null || t_fail "glxgears is not installed (scripts/ci-deps)"
t_start_daemon
t_start_xvfb
"$ROOT/scripts/gfxstats" run -- glxgears >"$T_DIR/gears.out" 2>&1 &
GEARS=$!
T_PIDS+=("$GEARS")
t_wait_for 60 grep -q "frames in" "$T_DIR/gears.out" || { cat "$T_DIR/gears.out" >&2; t_fail "glxgears printed no FPS line"; }
printed="$(sed -n 's/^\([0-9]*\) frames in \([0-9.]*\) seconds.*/\1/p' "$T_DIR/gears.out" | head -1)"
# The render thread only appends a frame to its ring; the session thread counts it within one
# drain period (at most 50 ms). So wait until those frames are counted, then stop glxgears: a
# stopped process's ring is not drained, and what it held at the SIGKILL is lost (docs/native.md).
gears_counted() { [ "$(t_counter glxgears "Total frames rendered" 2>/dev/null || true)" -ge "$printed" ] 2>/dev/null; }
t_wait_for 30 gears_counted || t_fail "glxgears printed $printed frames in its first 5 s, the dump has $(t_counter glxgears "Total frames rendered")"
kill -STOP "$GEARS"
live="$(t_counter glxgears "Total frames rendered")"
kill -KILL "$GEARS"
wait "$GEARS" 2>/dev/null || true
t_wait_for 30 grep -q "exit: glxgears" "$T_DIR/daemon.log" || t_fail "the daemon did not see glxgears exit"
total="$(t_counter glxgears "Total frames rendered")"
[ "$total" = "$live" ] || t_fail "frames changed when glxgears was killed: $live while stopped, $total after"
# No upper bound here: glxgears keeps drawing while the dumps above wait (each a JVM start), so
# how many more frames it drew depends on the machine's load. Exact counts, which would show a
# frame counted twice, are checked with programs that draw a known number of frames: vkcube.sh
# (vkcube --c N) and gl-lookup.sh (600 swaps through glXSwapBuffers' lookups).

# EGL: es2gears_x11 (eglSwapBuffers), stopped after a second of frames, then killed: what the
# dump showed while it was stopped is what stays.
command -v es2gears_x11 >/dev/null || t_fail "es2gears_x11 is not installed (scripts/ci-deps)"
"$ROOT/scripts/gfxstats" run -- es2gears_x11 >"$T_DIR/es2.out" 2>&1 &
ES2=$!
T_PIDS+=("$ES2")
es2_frames() { [ "$(t_counter es2gears_x11 "Total frames rendered" 2>/dev/null || true)" -ge "$1" ] 2>/dev/null; }
t_wait_for 60 es2_frames 200 || { cat "$T_DIR/es2.out" >&2; t_fail "es2gears_x11: no frames counted through eglSwapBuffers"; }
kill -STOP "$ES2"
es2_live="$(t_counter es2gears_x11 "Total frames rendered")"
kill -KILL "$ES2"
wait "$ES2" 2>/dev/null || true
t_wait_for 30 grep -q "exit: es2gears_x11/" "$T_DIR/daemon.log" || t_fail "the daemon did not see es2gears_x11 exit"
[ "$(t_counter es2gears_x11 "Total frames rendered")" = "$es2_live" ] || t_fail "es2gears_x11: frames changed at SIGKILL"
t_pass "glxgears: $printed frames in its first line, $total in the dump; es2gears_x11 (EGL): $es2_live; none lost at SIGKILL"

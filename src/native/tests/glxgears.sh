#!/usr/bin/env bash
# An unmodified OpenGL program through `gfxstats run`: glxgears under Xvfb, killed soon after
# it printed its first "N frames in 5.0 seconds"; the dump holds at least those N frames (the
# first frame is counted from glXMakeCurrent on) and keeps what it showed across the kill; and
# es2gears_x11 for eglSwapBuffers. Exact counts with unmodified programs: apitrace's glretrace
# (GLX) and eglretrace (EGL), replaying recordings of glxgears and es2gears_x11, give exactly the
# swaps the recordings hold (as m32app.sh at 32 bits).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v glxgears >/dev/null || t_fail "glxgears is not installed (scripts/ci-deps)"
T_APITRACE_ARCH="$(uname -m)-linux-gnu"
T_APITRACE_BIN=/usr/bin
for p in apitrace glretrace eglretrace es2gears_x11 xdotool xwininfo; do
  command -v "$p" >/dev/null || t_fail "$p is not installed (scripts/ci-deps)"
done
[ -e "/usr/lib/$T_APITRACE_ARCH/apitrace/wrappers/egltrace.so" ] || t_fail "apitrace's tracers are not installed (scripts/ci-deps)"
t_start_daemon
t_start_xvfb
"$ROOT/scripts/gfxstats" run -- glxgears >"$T_DIR/gears.out" 2>&1 &
GEARS=$!
T_PIDS+=("$GEARS")
t_wait_for 60 grep -q "frames in" "$T_DIR/gears.out" || { cat "$T_DIR/gears.out" >&2; t_fail "glxgears printed no FPS line"; }
printed="$(sed -n 's/^\([0-9]*\) frames in \([0-9.]*\) seconds.*/\1/p' "$T_DIR/gears.out" | head -1)"
# The render thread only appends a frame to its ring; the session thread counts it within one
# drain period (at most 50 ms). So wait until those frames are counted, then stop glxgears: a
# stopped process's ring is not drained; what it held at the SIGKILL the daemon counts from the
# ring stripe in the buffer (docs/native.md, "A SIGKILL of the app").
gears_counted() { [ "$(t_counter glxgears "Total frames rendered" 2>/dev/null || true)" -ge "$printed" ] 2>/dev/null; }
t_wait_for 30 gears_counted || t_fail "glxgears printed $printed frames in its first 5 s, the dump has $(t_counter glxgears "Total frames rendered")"
t_sigkill_keeps "$GEARS" glxgears
total=$T_KEPT
# No upper bound here: glxgears keeps drawing while the dumps above wait (each a JVM start), so
# how many more frames it drew depends on the machine's load. Exact counts, which would show a
# frame counted twice, are checked with programs that draw a known number of frames: vkcube.sh
# (vkcube --c N) and gl-lookup.sh (600 swaps through glXSwapBuffers' lookups).
# The replays below count unmodified GL programs exactly.

# GLX and EGL, exact: apitrace's tracer records glxgears and es2gears_x11 while gfxstats counts
# them, and apitrace's glretrace and eglretrace replay the recordings through gfxstats run: the
# trace's swap calls, the replayer's "Rendered N frames" and the dump must be equal (lib.sh).
# eglretrace opens libEGL privately, which the hook's dlsym(RTLD_NEXT) cannot see: its fallback
# (gl_hook.c, real_of) is what makes this replay count at all.
t_apitrace_replay_exact glxtrace.so glxgears glxgears glretrace glXSwapBuffers gl64
glx_swaps=$T_SWAPS
t_apitrace_replay_exact egltrace.so es2gears_x11 es2gears eglretrace eglSwapBuffers egl64
egl_swaps=$T_SWAPS

# EGL: es2gears_x11 (eglSwapBuffers), stopped after a second of frames, then killed: what the
# dump showed while it was stopped is what stays.
"$ROOT/scripts/gfxstats" run -- es2gears_x11 >"$T_DIR/es2.out" 2>&1 &
ES2=$!
T_PIDS+=("$ES2")
es2_frames() { [ "$(t_counter es2gears_x11 "Total frames rendered" 2>/dev/null || true)" -ge "$1" ] 2>/dev/null; }
t_wait_for 60 es2_frames 200 || { cat "$T_DIR/es2.out" >&2; t_fail "es2gears_x11: no frames counted through eglSwapBuffers"; }
t_sigkill_keeps "$ES2" es2gears_x11
es2_live=$T_KEPT
t_pass "glxgears: $printed frames in its first line, $total in the dump; es2gears_x11 (EGL): $es2_live; none lost at SIGKILL; glretrace (GLX): $glx_swaps of $glx_swaps, eglretrace (EGL): $egl_swaps of $egl_swaps"

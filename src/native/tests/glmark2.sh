#!/usr/bin/env bash
# Live, unmodified OpenGL programs counted exactly: glmark2 (GLX, glXSwapBuffers) and glmark2-es2
# (EGL, eglSwapBuffers) through `gfxstats run` under Xvfb, each running three of its scenes for a
# set time and then exiting by itself, so that how many frames it drew is known when it has ended.
# apitrace's tracer rides along in the same process and records every swap call: the dump must hold
# exactly the trace's swaps. glxgears and es2gears_x11 give only lower bounds live (they are
# stopped from outside), and their exact counts come from replays (glxgears.sh).
#
# glmark2 makes a new GL context for every scene (its default), on the same window: the swaps of
# all three contexts are one tracker's frames. The package is the executable's name, through the
# package-name rule ("glmark2", "glmark2-es2"), as for any app that `gfxstats run` starts without
# --package.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
T_APITRACE_ARCH="$(uname -m)-linux-gnu"
for p in glmark2 glmark2-es2 apitrace; do
  command -v "$p" >/dev/null || t_fail "$p is not installed (scripts/ci-deps)"
done
[ -e "/usr/lib/$T_APITRACE_ARCH/apitrace/wrappers/egltrace.so" ] || t_fail "apitrace's tracers are not installed (scripts/ci-deps)"
t_start_daemon
t_start_xvfb

# $1 the program, $2 its package, $3 the tracer, $4 the swap call. Sets T_SWAPS.
t_glmark2_exact() {
  local prog=$1 pkg=$2 tracer=$3 call=$4 got
  local out="$T_DIR/$prog.out" trace="$T_DIR/$prog.trace"
  # Small windows and short scenes keep the trace at a few hundred frames on llvmpipe.
  TRACE_FILE="$trace" "$ROOT/scripts/gfxstats" run -- \
    "${T_TRACED[@]}" "/usr/lib/$T_APITRACE_ARCH/apitrace/wrappers/$tracer" \
    "$prog" --size 320x240 -b build:duration=1.0 -b shading:duration=0.7 -b texture:duration=0.7 >"$out" 2>&1 \
    || { cat "$out" >&2; t_fail "$prog failed under gfxstats run"; }
  grep -q "glmark2 Score:" "$out" || { cat "$out" >&2; t_fail "$prog did not finish its scenes"; }
  grep -q "apitrace: unloaded from" "$out" || { cat "$out" >&2; t_fail "apitrace's tracer wrote no trace of $prog"; }
  t_clean_output "$out" "$prog"
  T_SWAPS="$(t_trace_swaps "$trace" "$call")"
  [ "$T_SWAPS" -ge 30 ] || t_fail "the trace of $prog holds $T_SWAPS $call calls, not 30 or more"
  t_wait_for 30 grep -q "exit: $pkg/" "$T_DIR/daemon.log" || t_fail "the daemon did not see $prog exit (package $pkg)"
  got="$(t_counter "$pkg" "Total frames rendered" 2>/dev/null || true)"
  [ "$got" = "$T_SWAPS" ] || t_fail "$prog made $T_SWAPS $call calls (apitrace), the dump of $pkg has ${got:-no} frames"
}

t_glmark2_exact glmark2 glmark2 glxtrace.so glXSwapBuffers
glx=$T_SWAPS
t_glmark2_exact glmark2-es2 glmark2-es2 egltrace.so eglSwapBuffers
egl=$T_SWAPS
t_pass "glmark2 (GLX, three scenes, three contexts): $glx of $glx swaps; glmark2-es2 (EGL): $egl of $egl"

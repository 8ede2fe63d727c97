#!/usr/bin/env bash
# GTK 4, a toolkit nobody here wrote, unmodified through `gfxstats run` under Xvfb: gtk4-demo's
# gears demo (a GtkGLArea redrawn on every tick of GTK's frame clock, by GTK's GL renderer, which
# finds every GL and EGL function through libepoxy: its own dlopen of libGL or libEGL, dlsym on
# that handle, and the GetProcAddress functions) runs until its --autoquit ends it, about 2 s.
#
# GLX (GDK_DEBUG=gl-glx): apitrace's tracer rides along in the same process and records every swap;
# the dump must hold exactly the trace's swaps (as glmark2.sh). EGL, GTK's default on X11: apitrace's
# EGL tracer cannot ride along (libepoxy, given the tracer for libGL, aborts looking for GLX in it),
# so the frames must arrive and the process's exit must be seen; the exact EGL counts are
# glmark2-es2's (glmark2.sh) and the replays' (glxgears.sh). Where the driver offers
# EGL_KHR_swap_buffers_with_damage (Mesa's GPU drivers; not its software driver here), GTK swaps
# with eglSwapBuffersWithDamageKHR/EXT instead: that path is gl-lookup.sh's (tests/gl-swaps.c).
#
# The package is the executable's name ("gtk4-demo"), through the package-name rule.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
T_APITRACE_ARCH="$(uname -m)-linux-gnu"
for p in gtk4-demo apitrace; do
  command -v "$p" >/dev/null || t_fail "$p is not installed (scripts/ci-deps)"
done
t_start_daemon
t_start_xvfb
# An address GLib cannot use, so that it never autolaunches a session bus (dbus-launch, where it is
# installed, starts a bus daemon that outlives the test); GTK warns once that it has no bus.
export DBUS_SESSION_BUS_ADDRESS=disabled:

# $1 the backend (glx, egl). Runs the demo to its end; sets T_GOT to the dump's frames for the run.
t_gtk4_gears() {
  local backend=$1 before
  before="$(grep -c "exit: gtk4-demo/" "$T_DIR/daemon.log" || true)"
  GDK_DEBUG="gl-$backend" "$ROOT/scripts/gfxstats" run -- "${@:2}" gtk4-demo --run=gears --autoquit \
    >"$T_DIR/gtk4-$backend.out" 2>&1 || { cat "$T_DIR/gtk4-$backend.out" >&2; t_fail "gtk4-demo ($backend) failed under gfxstats run"; }
  t_clean_output "$T_DIR/gtk4-$backend.out" "gtk4-demo ($backend)"
  gtk4_exited() { [ "$(grep -c "exit: gtk4-demo/" "$T_DIR/daemon.log")" -gt "$before" ]; }
  t_wait_for 30 gtk4_exited || t_fail "the daemon did not see gtk4-demo ($backend) exit"
  T_GOT="$(t_counter gtk4-demo "Total frames rendered" 2>/dev/null || true)"
}

t_gtk4_gears egl
egl=$T_GOT
[ "${egl:-0}" -ge 1 ] || t_fail "gtk4-demo (EGL) drew its gears for about 2 s, the dump has no frames"

trace="$T_DIR/gtk4.trace"
TRACE_FILE="$trace" t_gtk4_gears glx "${T_TRACED[@]}" "/usr/lib/$T_APITRACE_ARCH/apitrace/wrappers/glxtrace.so"
grep -q "apitrace: unloaded from" "$T_DIR/gtk4-glx.out" || { cat "$T_DIR/gtk4-glx.out" >&2; t_fail "apitrace's tracer wrote no trace of gtk4-demo"; }
swaps="$(t_trace_swaps "$trace" glXSwapBuffers)"
[ "$swaps" -ge 1 ] || t_fail "the trace of gtk4-demo holds no glXSwapBuffers call"
glx=$((T_GOT - egl))
[ "$glx" = "$swaps" ] || t_fail "gtk4-demo (GLX) made $swaps glXSwapBuffers calls (apitrace), the dump has $glx more frames"
t_pass "gtk4-demo gears: EGL $egl frames; GLX $glx of $glx swaps"

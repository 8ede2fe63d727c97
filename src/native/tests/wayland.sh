#!/usr/bin/env bash
# A Wayland compositor and its clients, unmodified, each through its own `gfxstats run`, under Xvfb:
# weston (Debian's; x11 backend, whose GL renderer presents each repaint of its output with
# eglSwapBuffers into its X window; kiosk shell, which starts no helper clients of its own), and
# inside it vkcube-wayland (Vulkan through the Wayland WSI, the layer) and weston-simple-egl (EGL on
# the Wayland platform, the hook).
#
# vkcube-wayland --c 200: exactly 200 frames. weston and weston-simple-egl run with apitrace's EGL
# tracer in the same process (as glmark2.sh): each dump holds exactly its trace's eglSwapBuffers
# calls. weston-simple-egl ends on SIGINT and weston on SIGTERM, each through its own handler, so
# that the tracers write their traces and the sessions close. The packages are the executables'
# names.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
T_APITRACE_ARCH="$(uname -m)-linux-gnu"
TRACER="/usr/lib/$T_APITRACE_ARCH/apitrace/wrappers/egltrace.so"
for p in weston weston-simple-egl vkcube-wayland apitrace; do
  command -v "$p" >/dev/null || t_fail "$p is not installed (scripts/ci-deps)"
done
[ -e "$TRACER" ] || t_fail "apitrace's tracers are not installed (scripts/ci-deps)"
t_start_daemon
t_start_xvfb
export XDG_RUNTIME_DIR="$T_DIR/runtime"
mkdir -m 700 "$XDG_RUNTIME_DIR"

# The output is as large as kiosk-shell makes vkcube-wayland's window (full screen), and vkcube
# is told that size: a larger window is a protocol error, after which vkcube spins without drawing.
TRACE_FILE="$T_DIR/weston.trace" "$ROOT/scripts/gfxstats" run -- "${T_TRACED[@]}" "$TRACER" \
  weston --no-config --backend=x11-backend.so --shell=kiosk-shell.so --socket=gfx-wl --idle-time=0 \
  --width=320 --height=240 >"$T_DIR/weston.out" 2>&1 &
WESTON=$!
T_PIDS+=("$WESTON")
t_wait_for 30 test -S "$XDG_RUNTIME_DIR/gfx-wl" || { cat "$T_DIR/weston.out" >&2; t_fail "weston did not start"; }
export WAYLAND_DISPLAY=gfx-wl

T_HANG_GUARD_S=60 t_gfx_guarded run -- vkcube-wayland --c 200 --width 320 --height 240 >"$T_DIR/vkcube.out" 2>&1 \
  || { cat "$T_DIR/vkcube.out" >&2; t_fail "vkcube-wayland failed under gfxstats run"; }
t_clean_output "$T_DIR/vkcube.out" vkcube-wayland
t_wait_for 30 grep -q "exit: vkcube-wayland/" "$T_DIR/daemon.log" || t_fail "the daemon did not see vkcube-wayland exit"
got="$(t_counter vkcube-wayland "Total frames rendered" 2>/dev/null || true)"
[ "$got" = 200 ] || t_fail "vkcube-wayland --c 200 in weston: the dump has ${got:-no} frames"

TRACE_FILE="$T_DIR/simple-egl.trace" "$ROOT/scripts/gfxstats" run -- "${T_TRACED[@]}" "$TRACER" \
  weston-simple-egl >"$T_DIR/simple-egl.out" 2>&1 &
EGL=$!
T_PIDS+=("$EGL")
t_wait_for 60 t_has_frames weston-simple-egl 100 || { cat "$T_DIR/simple-egl.out" >&2; t_fail "weston-simple-egl: no 100 frames counted"; }
kill -INT "$EGL"
wait "$EGL" || { cat "$T_DIR/simple-egl.out" >&2; t_fail "weston-simple-egl did not exit cleanly on SIGINT"; }
kill -TERM "$WESTON"
wait "$WESTON" || { cat "$T_DIR/weston.out" >&2; t_fail "weston did not exit cleanly on SIGTERM"; }

declare -A swaps_of=()
for pkg in weston-simple-egl weston; do
  trace="$T_DIR/${pkg#weston-}.trace"
  out="$T_DIR/${pkg#weston-}.out"
  grep -q "apitrace: unloaded from" "$out" || { cat "$out" >&2; t_fail "apitrace's tracer wrote no trace of $pkg"; }
  t_wait_for 30 grep -q "exit: $pkg/" "$T_DIR/daemon.log" || t_fail "the daemon did not see $pkg exit"
  swaps="$(t_trace_swaps "$trace" eglSwapBuffers)"
  [ "$swaps" -ge 50 ] || t_fail "the trace of $pkg holds $swaps eglSwapBuffers calls, not 50 or more"
  got="$(t_counter "$pkg" "Total frames rendered" 2>/dev/null || true)"
  [ "$got" = "$swaps" ] || t_fail "$pkg made $swaps eglSwapBuffers calls (apitrace), the dump has ${got:-no} frames"
  swaps_of[$pkg]=$swaps
done
t_pass "vkcube-wayland in weston: 200 of 200 frames; weston-simple-egl: ${swaps_of[weston-simple-egl]} of ${swaps_of[weston-simple-egl]} swaps; weston (its GL renderer): ${swaps_of[weston]} of ${swaps_of[weston]}"

#!/usr/bin/env bash
# Programs that look the swap function up themselves instead of linking libGL: tests/gl-lookup.c
# (dlopen of libGL with RTLD_LOCAL; glXSwapBuffers from dlsym on that handle, from
# glXGetProcAddressARB and from glXGetProcAddress, a third of the frames each) must be counted
# exactly, and dlsym(RTLD_NEXT) from the program must still search after the program; and an
# unmodified SDL2 OpenGL program from Debian (testgl2 of libsdl2-tests, which loads libGL the same
# way) is counted through SDL_GL_SwapWindow. And the extensions' swaps, which programs find only
# through the GetProcAddress functions (tests/gl-swaps.c): eglSwapBuffersWithDamageKHR and EXT
# beside eglSwapBuffers, glXSwapBuffersMscOML beside glXSwapBuffers, every call a frame; and a
# process that forks after it rendered, whose child renders too (its frames in its own session).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v gcc >/dev/null || t_fail "gcc is not installed (scripts/ci-deps)"
[ -f /usr/include/X11/Xlib.h ] || t_fail "the X11 headers are not installed (libx11-dev; scripts/ci-deps)"
gcc -std=gnu11 -Wall -Wextra -Werror -o "$T_DIR/gl-lookup" "$NATIVE/tests/gl-lookup.c" -ldl -lX11 \
  || t_fail "tests/gl-lookup.c does not build"
gcc -std=gnu11 -Wall -Wextra -Werror -o "$T_DIR/gl-swaps" "$NATIVE/tests/gl-swaps.c" -ldl -lX11 \
  || t_fail "tests/gl-swaps.c does not build"
t_start_daemon
t_start_xvfb
"$T_DIR/gl-lookup" 30 all >/dev/null || t_fail "gl-lookup fails without the hook"
# Each lookup path alone (the hook must find the real function through it), then all three in turn.
expected=0
for mode in arb gpa dlsym all; do
  GL_LOOKUP_EXPECT_HOOK=1 gfx run --package gl.lookup -- "$T_DIR/gl-lookup" 150 "$mode" >"$T_DIR/lookup.out" 2>&1 \
    || { cat "$T_DIR/lookup.out" >&2; t_fail "gl-lookup $mode failed under gfxstats run"; }
  grep -qx "drew 150" "$T_DIR/lookup.out" || { cat "$T_DIR/lookup.out" >&2; t_fail "gl-lookup $mode did not draw 150 frames"; }
  expected=$((expected + 150))
  lookup_done() { [ "$(grep -c "exit: gl.lookup/" "$T_DIR/daemon.log")" -ge $((expected / 150)) ]; }
  t_wait_for 30 lookup_done || t_fail "the daemon did not see gl-lookup $mode exit"
  got="$(t_counter gl.lookup "Total frames rendered")"
  [ "$got" = "$expected" ] || { gfx dump --package gl.lookup >&2; t_fail "gl-lookup $mode: $expected swaps so far, the dump has $got"; }
done

t_gl_swaps_exact "$T_DIR/gl-swaps" gl.swaps ""

# A program that opens and closes windows as it runs (tests/gl-swaps.c eglsurfaces, glxsurfaces):
# 1,100 surfaces one after another, each swapped once and destroyed (an EGL window surface, an X
# window as the GLX drawable): exactly 1,100 each. The hook closes a surface's tracker when the
# program destroys it; before session 34 it kept every one until the exit, and had no tracker for
# any surface after the 1,024th (its table was full). The same with each X window destroyed through
# xcb (gl-swaps xcbsurfaces, as Qt's xcb platform does): 1,024 before session 35, which hooks
# xcb_destroy_window too.
for mode in eglsurfaces glxsurfaces xcbsurfaces; do
  gfx run --package "gl.$mode" -- "$T_DIR/gl-swaps" "$mode" 1100 >"$T_DIR/$mode.out" 2>&1 \
    || { cat "$T_DIR/$mode.out" >&2; t_fail "gl-swaps $mode failed under gfxstats run"; }
  grep -qx "drew 1100" "$T_DIR/$mode.out" || { cat "$T_DIR/$mode.out" >&2; t_fail "gl-swaps $mode did not draw 1100 frames"; }
  t_clean_output "$T_DIR/$mode.out" "gl-swaps $mode"
  t_wait_for 30 grep -q "exit: gl.$mode/" "$T_DIR/daemon.log" || t_fail "the daemon did not see gl-swaps $mode exit"
  got="$(t_counter "gl.$mode" "Total frames rendered")"
  [ "$got" = 1100 ] || t_fail "gl-swaps $mode: 1100 surfaces swapped once each, the dump has $got frames"
done

# Surfaces that end without a destroy call of their own (gl-swaps glxreopen, eglreopen): 20 X
# connections one after another, each with a window, a context and one swap, closed by XCloseDisplay
# (GLX) or by eglTerminate and XCloseDisplay (EGL), 40 ms apart. The hook retires a display's
# surfaces when it is closed or terminated, so none is left at the exit (the hook's test line,
# GFXSTATS_TEST_SURFACES_AT_EXIT); before session 35 some were. And the X server gives each window
# the id the last one had, so each GLX swap must be the first frame of a window of its own, from its
# MakeCurrent: before, the last window's record was found again and the frame ran from that
# window's swap, across the 40 ms (20 janky frames of 20).
for mode in glxreopen eglreopen; do
  GFXSTATS_TEST_SURFACES_AT_EXIT=1 gfx run --package "gl.$mode" -- "$T_DIR/gl-swaps" "$mode" 20 >"$T_DIR/$mode.out" 2>&1 \
    || { cat "$T_DIR/$mode.out" >&2; t_fail "gl-swaps $mode failed under gfxstats run"; }
  grep -qx "drew 20" "$T_DIR/$mode.out" || { cat "$T_DIR/$mode.out" >&2; t_fail "gl-swaps $mode did not draw 20 frames"; }
  t_clean_output "$T_DIR/$mode.out" "gl-swaps $mode"
  grep -qx "gfxstats test: 0 surfaces open at exit" "$T_DIR/$mode.out" \
    || { grep "surfaces open" "$T_DIR/$mode.out" >&2; t_fail "gl-swaps $mode: surfaces of closed displays still open at the exit"; }
  t_wait_for 30 grep -q "exit: gl.$mode/" "$T_DIR/daemon.log" || t_fail "the daemon did not see gl-swaps $mode exit"
  got="$(t_counter "gl.$mode" "Total frames rendered")"
  [ "$got" = 20 ] || t_fail "gl-swaps $mode: 20 windows swapped once each, the dump has $got frames"
done
janky="$(t_counter gl.glxreopen "Janky frames")"
# A loaded machine may stall a thread between its MakeCurrent and its swap: a few, not most.
[ "$janky" -le 5 ] || { gfx dump --package gl.glxreopen >&2; t_fail "gl-swaps glxreopen: $janky of 20 first frames janky (each ran from the closed window's swap?)"; }

# Destroys while another thread is inside its swaps (gl-swaps threads): one thread swaps 1,000 times
# on its own window while the main thread makes, swaps once and destroys 250 windows: 1,250.
gfx run --package gl.threads -- "$T_DIR/gl-swaps" threads 1000 >"$T_DIR/threads.out" 2>&1 \
  || { cat "$T_DIR/threads.out" >&2; t_fail "gl-swaps threads failed under gfxstats run"; }
t_clean_output "$T_DIR/threads.out" "gl-swaps threads"
t_wait_for 30 grep -q "exit: gl.threads/" "$T_DIR/daemon.log" || t_fail "the daemon did not see gl-swaps threads exit"
got="$(t_counter gl.threads "Total frames rendered")"
[ "$got" = 1250 ] || t_fail "gl-swaps threads: 1000 swaps on one thread and 250 windows on another, the dump has $got frames"

# A process that forks after it rendered, without exec (tests/gl-swaps.c fork): the child's 50
# swaps count in a session of its own (its pid, the same package), the parent's 100 in the
# parent's. Before the hook forgot the parent's session in the child, the child's were lost.
gfx run --package gl.fork -- "$T_DIR/gl-swaps" fork 150 >"$T_DIR/fork.out" 2>&1 \
  || { cat "$T_DIR/fork.out" >&2; t_fail "gl-swaps fork failed under gfxstats run"; }
grep -qx "drew 150" "$T_DIR/fork.out" || { cat "$T_DIR/fork.out" >&2; t_fail "gl-swaps fork did not draw 150 frames"; }
t_clean_output "$T_DIR/fork.out" "gl-swaps fork"
fork_done() { [ "$(grep -c "exit: gl.fork/" "$T_DIR/daemon.log")" -ge 2 ]; }
t_wait_for 30 fork_done || t_fail "the daemon did not see gl-swaps fork's two processes exit"
got="$(t_counter gl.fork "Total frames rendered")"
[ "$got" = 150 ] || t_fail "gl-swaps fork: 150 swaps in a parent and its forked child, the dump has $got"

# testgl2 draws until it is told to quit (SIGTERM is SDL's quit event) and then prints its frame
# rate, not its frame count, so the check is: frames arrive through SDL's lookups at all (none
# did before the dlsym interception), and none are lost when it is stopped and killed.
TESTGL2=/usr/libexec/installed-tests/SDL2/testgl2
[ -x "$TESTGL2" ] || t_fail "$TESTGL2 is not installed (libsdl2-tests; scripts/ci-deps)"
"$ROOT/scripts/gfxstats" run -- "$TESTGL2" >"$T_DIR/testgl2.out" 2>&1 &
SDL=$!
T_PIDS+=("$SDL")
sdl_frames() { [ "$(t_counter testgl2 "Total frames rendered" 2>/dev/null || true)" -ge "$1" ] 2>/dev/null; }
t_wait_for 60 sdl_frames 200 || { cat "$T_DIR/testgl2.out" >&2; t_fail "testgl2 (SDL2): no frames counted"; }
t_sigkill_keeps "$SDL" testgl2
sdl_live=$T_KEPT
t_pass "gl-lookup: $expected of $expected swaps through glXGetProcAddressARB, glXGetProcAddress, dlsym(handle) and all three; 150 of 150 through eglSwapBuffers and both damage swaps, 150 of 150 through glXSwapBuffers and glXSwapBuffersMscOML; 150 of 150 from a parent and its forked child; 1100 of 1100 from 1,100 EGL surfaces, 1,100 GLX windows and 1,100 destroyed through xcb, made and destroyed one after another; 20 of 20 GLX windows ended by XCloseDisplay ($janky janky) and 20 of 20 EGL surfaces by eglTerminate, none left open; 1250 of 1250 with the destroys beside another thread's swaps; SDL2 testgl2: $sdl_live frames"

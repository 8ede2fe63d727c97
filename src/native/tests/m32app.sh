#!/usr/bin/env bash
# Real, unmodified 32-bit (i386) programs from Debian through `gfxstats run`, counted by the 32-bit
# build of the layer and the hook, into the same daemon as 64-bit programs running at the same
# time: 32-bit vkcube --c N (i386 lavapipe) gives exactly N frames under package vkcube while a
# 64-bit vkcube gives its M under another package; 32-bit vkcubepp (the C++ one) its N; both
# SIGKILLed right after their Nth present give exactly N (the ring stripe, as postmortem.sh); 32-bit glxgears gives at least the frames of its
# first FPS line, keeps what the dump showed across a SIGKILL, next to a 64-bit glxgears;
# tests/gl-lookup.c and tests/gl-swaps.c built at 32 bits give exactly their swaps; and apitrace's i386 glretrace (GLX)
# and eglretrace (EGL), replaying recordings of i386 glxgears and es2gears_x11, give exactly the
# swaps the recordings hold; SIGKILLs of the daemon and of the program, a full daemon's refusal
# and the scene options of gfxstats run, as at 64 bits. No program's output has an ld.so line: each class loads its own
# build through $LIB.
# Needs Debian's i386 Mesa (scripts/ci-deps: libgl1-mesa-dri:i386, mesa-vulkan-drivers:i386,
# mesa-utils-bin:i386, apitrace-tracers:i386, mangohud:i386, and vulkan-tools:i386 and apitrace:i386 unpacked
# apart, as their programs would replace the 64-bit ones) and a 32-bit toolchain (gcc-multilib).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ "$(uname -m)" = x86_64 ] || { echo "SKIP $T_NAME: 32-bit programs are tested on x86-64 only"; exit 0; }
VKCUBE32="${GFXSTATS_VKCUBE32:-/opt/gfxstats-tests/vulkan-tools.i386/usr/bin/vkcube}"
VKCUBEPP32="${VKCUBE32%/*}/vkcubepp"
GEARS32=/usr/bin/glxgears.i386-linux-gnu
ES2GEARS32=/usr/bin/es2gears_x11.i386-linux-gnu
for f in "$VKCUBE32" "$VKCUBEPP32" "$GEARS32" "$ES2GEARS32" /opt/gfxstats-tests/apitrace.i386/usr/bin/eglretrace \
    /usr/lib/i386-linux-gnu/apitrace/wrappers/glxtrace.so /usr/lib/i386-linux-gnu/mangohud/libMangoHud.so \
    /usr/share/vulkan/icd.d/lvp_icd.i686.json /usr/lib/i386-linux-gnu/dri/swrast_dri.so; do
  [ -e "$f" ] || t_fail "$f is not installed: run scripts/ci-deps (it installs Debian's i386 Mesa, a 32-bit vkcube, apitrace and MangoHud)"
done
command -v vkcube >/dev/null || t_fail "vkcube is not installed (scripts/ci-deps)"
command -v glxgears >/dev/null || t_fail "glxgears is not installed (scripts/ci-deps)"
command -v mangohud >/dev/null || t_fail "mangohud is not installed (scripts/ci-deps)"
command -v xdotool >/dev/null || t_fail "xdotool is not installed (scripts/ci-deps)"
file -L "$VKCUBE32" | grep -q "ELF 32-bit" || t_fail "$VKCUBE32 is not a 32-bit program"
file -L "$VKCUBEPP32" | grep -q "ELF 32-bit" || t_fail "$VKCUBEPP32 is not a 32-bit program"
file -L "$GEARS32" | grep -q "ELF 32-bit" || t_fail "$GEARS32 is not a 32-bit program"
t_start_daemon
t_start_xvfb

# Vulkan: both classes at once, exact counts.
gfx run -- "$VKCUBE32" --c 300 >"$T_DIR/vk32.out" 2>&1 &
VK32=$!
T_PIDS+=("$VK32")
gfx run --package vkcube.b64 -- vkcube --c 200 >"$T_DIR/vk64.out" 2>&1 &
VK64=$!
T_PIDS+=("$VK64")
wait "$VK32" || { cat "$T_DIR/vk32.out" >&2; t_fail "32-bit vkcube failed"; }
wait "$VK64" || { cat "$T_DIR/vk64.out" >&2; t_fail "64-bit vkcube failed"; }
vk32="$(t_counter vkcube "Total frames rendered" 2>/dev/null || true)"
[ "$vk32" = 300 ] || { cat "$T_DIR/vk32.out" >&2; gfx dump >&2; t_fail "32-bit vkcube --c 300: ${vk32:-no} frames in the dump"; }
[ "$(t_counter vkcube.b64 "Total frames rendered")" = 200 ] || t_fail "64-bit vkcube --c 200 beside it: not 200 frames"
t_clean_output "$T_DIR/vk32.out" "32-bit vkcube"
t_clean_output "$T_DIR/vk64.out" "64-bit vkcube"
gfx dump --package vkcube | grep -qx "Version: 0" || t_fail "32-bit vkcube: no version 0 entry"

# The C++ vkcube (vkcubepp, on vulkan.hpp) at 32 bits: exactly its frames. Then both SIGKILLed by
# the 32-bit layer right after their Nth present, as postmortem.sh at 64 bits: exactly N, the last
# ones counted by the daemon from the ring stripe that the 32-bit library wrote.
gfx run --package vkcubepp.b32 -- "$VKCUBEPP32" --c 250 >"$T_DIR/vkpp32.out" 2>&1 \
  || { cat "$T_DIR/vkpp32.out" >&2; t_fail "32-bit vkcubepp failed"; }
[ "$(t_counter vkcubepp.b32 "Total frames rendered")" = 250 ] || t_fail "32-bit vkcubepp --c 250: not 250 frames"
t_clean_output "$T_DIR/vkpp32.out" "32-bit vkcubepp"
t_vulkan_sigkill_after "$VKCUBE32" vkcube.pm32
pm32="vkcube $T_SIGKILLED"
t_vulkan_sigkill_after "$VKCUBEPP32" vkcubepp.pm32
pm32+=", vkcubepp $T_SIGKILLED"

# MangoHud's i386 Vulkan layer as the peer on a 32-bit vkcube, as mangohud.sh at 64 bits: exactly
# the presents vkcube made, and gfxstats' percentiles within MangoHud's present-to-present ones.
t_vkcube_with_mangohud "$VKCUBE32" 1500 vk32.mangohud
t_clean_output "$T_DIR/mango.vk32.mangohud.out" "32-bit vkcube with MangoHud"
mango_vk32=$T_MANGO_REPORT

# OpenGL, exact: tests/gl-lookup.c built at 32 bits swaps 150 times per lookup path (dlsym on a
# private libGL handle, glXGetProcAddressARB, glXGetProcAddress, all three in turn), so the
# 32-bit hook's dlsym interception (and its tail call, which keeps dlsym(RTLD_NEXT) from the
# program meaning "after the program") is checked as at 64 bits in gl-lookup.sh.
gcc -m32 -std=gnu11 -Wall -Wextra -Werror -o "$T_DIR/gl-lookup32" "$NATIVE/tests/gl-lookup.c" -ldl \
  /usr/lib/i386-linux-gnu/libX11.so.6 || t_fail "tests/gl-lookup.c does not build at 32 bits (gcc-multilib, libx11-6:i386; scripts/ci-deps)"
expected=0
for mode in arb gpa dlsym all; do
  GL_LOOKUP_EXPECT_HOOK=1 gfx run --package gl.lookup32 -- "$T_DIR/gl-lookup32" 150 "$mode" >"$T_DIR/lookup.out" 2>&1 \
    || { cat "$T_DIR/lookup.out" >&2; t_fail "32-bit gl-lookup $mode failed under gfxstats run"; }
  grep -qx "drew 150" "$T_DIR/lookup.out" || { cat "$T_DIR/lookup.out" >&2; t_fail "32-bit gl-lookup $mode did not draw 150 frames"; }
  t_clean_output "$T_DIR/lookup.out" "32-bit gl-lookup $mode"
  expected=$((expected + 150))
  lookup_done() { [ "$(grep -c "exit: gl.lookup32/" "$T_DIR/daemon.log")" -ge $((expected / 150)) ]; }
  t_wait_for 30 lookup_done || t_fail "the daemon did not see 32-bit gl-lookup $mode exit"
  got="$(t_counter gl.lookup32 "Total frames rendered" 2>/dev/null || true)"
  [ "$got" = "$expected" ] || t_fail "32-bit gl-lookup $mode: $expected swaps so far, the dump has ${got:-none}"
done
# The extensions' swaps through the 32-bit hook (tests/gl-swaps.c, as in gl-lookup.sh).
gcc -m32 -std=gnu11 -Wall -Wextra -Werror -o "$T_DIR/gl-swaps32" "$NATIVE/tests/gl-swaps.c" -ldl \
  /usr/lib/i386-linux-gnu/libX11.so.6 || t_fail "tests/gl-swaps.c does not build at 32 bits (gcc-multilib, libx11-6:i386; scripts/ci-deps)"
t_gl_swaps_exact "$T_DIR/gl-swaps32" gl.swaps32 "32-bit "

# OpenGL (GLX) and EGL, exact, with unmodified programs (as glxgears.sh at 64 bits): apitrace's
# i386 tracer records an i386 glxgears and an i386 es2gears_x11 while gfxstats counts them, and
# apitrace's i386 glretrace and eglretrace replay the recordings through gfxstats run: the trace's
# swap calls, the replayer's "Rendered N frames" and the dump must be equal (lib.sh).
T_APITRACE_ARCH=i386-linux-gnu
T_APITRACE_BIN=/opt/gfxstats-tests/apitrace.i386/usr/bin
t_apitrace_replay_exact glxtrace.so "$GEARS32" glxgears glretrace glXSwapBuffers gl32
glx_swaps=$T_SWAPS
t_apitrace_replay_exact egltrace.so "$ES2GEARS32" es2gears eglretrace eglSwapBuffers egl32
egl_swaps=$T_SWAPS

# OpenGL: 32-bit glxgears (package from its name, glxgears.i386-linux-gnu) beside a 64-bit one.
# Not through gfx (a function): the pid must be the program's, as gfxstats and gfxstats-run exec.
# MangoHud's i386 GL hook is loaded as well (`mangohud`, whose LD_PRELOAD names /usr/$LIB/mangohud),
# as the peer: gfxstats must come to count at least every frame MangoHud logged (as mangohud.sh).
mkdir -p "$T_DIR/mango.gears32"
MANGOHUD_CONFIG="output_folder=$T_DIR/mango.gears32,autostart_log=1,log_duration=2,log_interval=0" \
  "$ROOT/scripts/gfxstats" run -- mangohud "$GEARS32" >"$T_DIR/gears32.out" 2>&1 &
GEARS=$!
T_PIDS+=("$GEARS")
"$ROOT/scripts/gfxstats" run --package gears.b64 -- glxgears >"$T_DIR/gears64.out" 2>&1 &
GEARS64=$!
T_PIDS+=("$GEARS64")
P32=glxgears_i386-linux-gnu
t_wait_for 60 grep -q "frames in" "$T_DIR/gears32.out" || { cat "$T_DIR/gears32.out" >&2; t_fail "32-bit glxgears printed no FPS line"; }
printed="$(sed -n 's/^\([0-9]*\) frames in \([0-9.]*\) seconds.*/\1/p' "$T_DIR/gears32.out" | head -1)"
# As in glxgears.sh: frames reach the dump within one drain period after they were drawn, so wait
# for the printed ones, then stop it; what the dump shows then must stay after SIGKILL (plus what
# its ring held, counted from its ring stripe).
gears_counted() { [ "$(t_counter "$P32" "Total frames rendered" 2>/dev/null || true)" -ge "$printed" ] 2>/dev/null; }
t_wait_for 30 gears_counted || t_fail "32-bit glxgears printed $printed frames in its first 5 s, the dump has $(t_counter "$P32" "Total frames rendered")"
t_mangohud_gl_peer "$T_DIR/mango.gears32" "$P32" "$T_DIR/gears32.out"
t_sigkill_keeps "$GEARS" "$P32"
total=$T_KEPT
gears64_counted() { [ "$(t_counter gears.b64 "Total frames rendered" 2>/dev/null || true)" -ge 100 ] 2>/dev/null; }
t_wait_for 30 gears64_counted || { cat "$T_DIR/gears64.out" >&2; t_fail "64-bit glxgears beside it: no frames counted"; }
kill -KILL "$GEARS64"
wait "$GEARS64" 2>/dev/null || true
# One ld.so line is MangoHud's script's own: it appends libMangoHud.so to an LD_PRELOAD that
# gfxstats run had already exported, so the change reaches its own `env` before the
# LD_LIBRARY_PATH that would find the library does (not exported before). Harmless; not ours.
grep -v "object 'libMangoHud.so' from LD_PRELOAD cannot be preloaded" "$T_DIR/gears32.out" >"$T_DIR/gears32.ours" || true
t_clean_output "$T_DIR/gears32.ours" "32-bit glxgears"
t_clean_output "$T_DIR/gears64.out" "64-bit glxgears"
# SIGKILLs at 32 bits, as kill.sh at 64: the daemon during an i386 vkcube --c 3000 run (its
# 32-bit layer registers again and the new daemon adopts its buffer: exactly 3000), then the i386
# vkcube itself (the dump keeps exactly what it showed while the program was stopped).
t_vkcube_across_daemon_kill "$VKCUBE32" 3000 vk32.daemon-killed
t_vkcube_sigkill "$VKCUBE32" vk32.killed
t_clean_output "$T_DIR/vk32.daemon-killed.out" "32-bit vkcube across the daemon's SIGKILL"
# Scenes through gfxstats run at 32 bits (--scene, --scene-file), as layer-scenes.sh at 64.
t_layer_scenes "$VKCUBE32" vk32
scenes32=$T_SCENES
# Refused by a full daemon at 32 bits, as vkcube.sh at 64.
t_stop_daemon
t_vkcube_refused "$VKCUBE32"

t_pass "32-bit vkcube: 300 of 300 frames (64-bit beside it: 200 of 200); 32-bit vkcubepp: 250 of 250; SIGKILLed after their Nth present: $pm32; 32-bit gl-lookup: $expected of $expected swaps; 32-bit gl-swaps: 150 of 150 through the EGL damage swaps and 150 of 150 through glXSwapBuffersMscOML; 32-bit glretrace (GLX): $glx_swaps of $glx_swaps, eglretrace (EGL): $egl_swaps of $egl_swaps; $mango_vk32; 32-bit glxgears: $printed in its first line, $total in the dump, at least the $T_MANGO_LOGGED MangoHud logged, none lost at SIGKILL; daemon SIGKILL during 32-bit vkcube: 3000 of 3000; 32-bit vkcube SIGKILL: $T_KEPT kept; refused by a full daemon, 32-bit vkcube runs and says why; 32-bit scenes: $scenes32"

#!/usr/bin/env bash
# A GL implementation layered on another one: ANGLE, Chromium's OpenGL ES (Debian's chromium ships
# its libEGL.so and libGLESv2.so), under a program through `gfxstats run`. ANGLE presents each
# eglSwapBuffers of the program with a swap of the implementation below it, from inside that call:
# on its GL backend a glXSwapBuffers of Mesa's, which it finds itself (dlopen, dlsym) and so gets
# the GL hook's; on its Vulkan backend a vkQueuePresentKHR, through the gfxstats layer. The
# program's swap is the frame, and the one inside it must not count again: until session 30 both
# runs below counted every frame twice (300 of 150), and Chromium's GPU process on ANGLE's Vulkan
# backend counted its frames in two sessions, the hook's and the layer's.
#
# The program is tests/gl-swaps.c (150 swaps; on the Vulkan backend a third each through
# eglSwapBuffers and the KHR damage swap twice, ANGLE having no EXT one; on the GL backend, whose
# damage swaps fail where it does not list them, eglSwapBuffers alone), which finds libEGL.so.1 on
# LD_LIBRARY_PATH: a directory of links to ANGLE, and to the system's Vulkan loader (ANGLE loads
# libvulkan.so.1 from its own directory). Then Chromium itself on ANGLE's Vulkan backend, drawing
# an animation: of the two sessions its GPU process opens (the hook's at its first EGL surface, the
# layer's at its first swapchain), only one counts frames.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ARCH_DIR="/usr/lib/$(uname -m)-linux-gnu"
for f in /usr/lib/chromium/libEGL.so /usr/lib/chromium/libGLESv2.so "$ARCH_DIR/libvulkan.so.1"; do
  [ -e "$f" ] || t_fail "$f is missing (chromium, libvulkan1; scripts/ci-deps)"
done
command -v chromium >/dev/null || t_fail "chromium is not installed (scripts/ci-deps)"
gcc -std=gnu11 -Wall -Wextra -Werror -o "$T_DIR/gl-swaps" "$NATIVE/tests/gl-swaps.c" -ldl -lX11 \
  || t_fail "tests/gl-swaps.c does not build"
ANGLE="$T_DIR/angle"
mkdir "$ANGLE"
ln -s /usr/lib/chromium/libEGL.so "$ANGLE/libEGL.so.1"
ln -s /usr/lib/chromium/libGLESv2.so "$ANGLE/libGLESv2.so"
ln -s "$ARCH_DIR/libvulkan.so.1" "$ANGLE/libvulkan.so.1"
t_start_daemon
t_start_xvfb

# $1 ANGLE's backend, $2 gl-swaps' mode, $3 the swaps line it must print.
t_angle_exact() {
  local backend=$1 mode=$2 swaps=$3 pkg="angle.$1" out="$T_DIR/angle.$1.out" got
  ANGLE_DEFAULT_PLATFORM="$backend" LD_LIBRARY_PATH="$ANGLE" "$T_DIR/gl-swaps" "$mode" 30 >/dev/null 2>&1 \
    || t_fail "gl-swaps $mode on ANGLE ($backend) fails without gfxstats"
  ANGLE_DEFAULT_PLATFORM="$backend" LD_LIBRARY_PATH="$ANGLE" gfx run --package "$pkg" -- "$T_DIR/gl-swaps" "$mode" 150 \
    >"$out" 2>&1 || { cat "$out" >&2; t_fail "gl-swaps on ANGLE ($backend) failed under gfxstats run"; }
  grep -qx "drew 150" "$out" && grep -qx "swaps: $swaps" "$out" || { cat "$out" >&2; t_fail "gl-swaps on ANGLE ($backend) did not swap 150 times through $swaps"; }
  t_wait_for 30 grep -q "exit: $pkg/" "$T_DIR/daemon.log" || t_fail "the daemon did not see gl-swaps on ANGLE ($backend) exit"
  got="$(t_counter "$pkg" "Total frames rendered" 2>/dev/null || true)"
  [ "$got" = 150 ] || t_fail "gl-swaps on ANGLE ($backend): 150 swaps, the dump has ${got:-no} frames"
}
t_angle_exact gl egl1 "eglSwapBuffers"
t_angle_exact vulkan egl "eglSwapBuffers eglSwapBuffersWithDamageKHR eglSwapBuffersWithDamageKHR"
# Chromium on ANGLE's Vulkan backend, its own process group so that every process it starts goes
# at the end (and at a failure: t_cleanup kills the group).
cat >"$T_DIR/anim.html" <<'HTML'
<html><body style="margin:0"><div id="b" style="position:absolute;width:60px;height:60px;background:red"></div>
<script>let t = 0; function f() { t++; document.getElementById("b").style.left = (t % 200) + "px"; requestAnimationFrame(f); } requestAnimationFrame(f);</script></body></html>
HTML
PROFILE="$T_DIR/chromium-profile"
# TMPDIR: Chromium's own temporary directories (its singleton socket's), which a SIGKILL leaves.
mkdir "$T_DIR/tmp"
TMPDIR="$T_DIR/tmp" setsid "$ROOT/scripts/gfxstats" run -- chromium --no-sandbox --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --disable-breakpad --user-data-dir="$PROFILE" --window-size=320,240 \
  --ignore-gpu-blocklist --use-gl=angle --use-angle=vulkan "file://$T_DIR/anim.html" >"$T_DIR/chromium.out" 2>&1 &
CHROMIUM=$!
T_PIDS+=("-$CHROMIUM")
# The GPU process: the one that registered twice.
gpu_pid() { grep -o "register: new buffer chromium/[0-9]* pid [0-9]*" "$T_DIR/daemon.log" | awk '{print $NF}' | sort | uniq -d | head -1; }
gpu_registered() { [ -n "$(gpu_pid)" ]; }
t_wait_for 90 gpu_registered || { cat "$T_DIR/chromium.out" >&2; t_fail "no Chromium process registered with both the hook and the layer"; }
t_wait_for 60 t_has_frames chromium 120 || { cat "$T_DIR/chromium.out" >&2; t_fail "Chromium on ANGLE over Vulkan: no 120 frames counted"; }
GPU=$(gpu_pid)
kill -KILL -- "-$CHROMIUM"
wait "$CHROMIUM" 2>/dev/null || true
gpu_gone() { [ "$(grep -c "exit: chromium/[0-9]* pid $GPU " "$T_DIR/daemon.log")" = 2 ]; }
t_wait_for 30 gpu_gone || t_fail "the daemon did not see both sessions of Chromium's GPU process (pid $GPU) end"
saved="$(grep "exit: chromium/[0-9]* pid $GPU " "$T_DIR/daemon.log" | sed -n 's/.*, saved \([0-9]*\) frames.*/\1/p' | sort -n | paste -sd ' ')"
set -- $saved
[ "$#" = 2 ] && [ "$1" = 0 ] && [ "$2" -ge 120 ] \
  || t_fail "Chromium's GPU process (pid $GPU): its two sessions saved $saved frames; one must have saved none (the layer's, under the hook's swaps)"
t_pass "gl-swaps on ANGLE over GLX: 150 of 150 frames; on ANGLE over Vulkan: 150 of 150; Chromium on ANGLE over Vulkan: its GPU process's frames ($2) in one session of its two"

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
# an animation: its GPU process opens one session, the hook's at its first EGL surface (the layer
# leaves the swapchains of an instance whose engine is ANGLE to the hook; before session 34 it
# opened a second one that counted nothing).
#
# And Mesa's zink (OpenGL on Vulkan; LIBGL_ALWAYS_SOFTWARE=1 with MESA_LOADER_DRIVER_OVERRIDE=zink
# runs it on lavapipe under Xvfb), which presents from a thread of its own after the program's
# swap has returned: gl-swaps through GLX (oml) and EGL (egl1), 150 of 150 each. Before session 34
# the layer counted zink's presents beside the hook's swaps: 300 of 150.
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

ANGLE_DEFAULT_PLATFORM=gl LD_LIBRARY_PATH="$ANGLE" \
  t_gl_swaps_counted "$T_DIR/gl-swaps" egl1 angle.gl "eglSwapBuffers" "gl-swaps on ANGLE (gl)"
ANGLE_DEFAULT_PLATFORM=vulkan LD_LIBRARY_PATH="$ANGLE" \
  t_gl_swaps_counted "$T_DIR/gl-swaps" egl angle.vulkan "eglSwapBuffers eglSwapBuffersWithDamageKHR eglSwapBuffersWithDamageKHR" \
  "gl-swaps on ANGLE (vulkan)"
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
t_wait_for 90 t_has_frames chromium 120 || { cat "$T_DIR/chromium.out" >&2; t_fail "Chromium on ANGLE over Vulkan: no 120 frames counted"; }
kill -KILL -- "-$CHROMIUM"
wait "$CHROMIUM" 2>/dev/null || true
# Every Chromium session that registered has ended; the GPU process's is the one that saved frames.
chromium_pids() { grep -o "register: new buffer chromium/[0-9]* pid [0-9]*" "$T_DIR/daemon.log" | awk '{print $NF}'; }
chromium_gone() {
  [ "$(chromium_pids | wc -l)" = "$(grep -c "exit: chromium/" "$T_DIR/daemon.log")" ]
}
t_wait_for 30 chromium_gone || t_fail "the daemon did not see every session of Chromium end"
GPU="$(grep "exit: chromium/" "$T_DIR/daemon.log" | sed -n 's/.* pid \([0-9]*\) .*, saved \([1-9][0-9]*\) frames.*/\1/p')"
[ "$(echo "$GPU" | wc -w)" = 1 ] || t_fail "Chromium: the sessions that saved frames were those of pids '$GPU', not one"
gpu_frames="$(grep "exit: chromium/[0-9]* pid $GPU " "$T_DIR/daemon.log" | sed -n 's/.*, saved \([0-9]*\) frames.*/\1/p')"
[ "$(chromium_pids | grep -cx "$GPU")" = 1 ] \
  || t_fail "Chromium's GPU process (pid $GPU) registered $(chromium_pids | grep -cx "$GPU") times: the layer opened a session at ANGLE's swapchain"

# zink, on lavapipe. Its renderer string says it is zink, not llvmpipe's GL.
command -v glxinfo >/dev/null || t_fail "glxinfo is not installed (mesa-utils; scripts/ci-deps)"
mkdir -m 700 "$T_DIR/xdg"
zink() { XDG_RUNTIME_DIR="$T_DIR/xdg" LIBGL_ALWAYS_SOFTWARE=1 MESA_LOADER_DRIVER_OVERRIDE=zink "$@"; }
zink glxinfo -B >"$T_DIR/zink.info" 2>&1 || { cat "$T_DIR/zink.info" >&2; t_fail "glxinfo on zink failed"; }
grep -q "^OpenGL renderer string: zink" "$T_DIR/zink.info" || { cat "$T_DIR/zink.info" >&2; t_fail "Mesa did not load zink"; }
zink t_gl_swaps_counted "$T_DIR/gl-swaps" oml zink.glx "" "gl-swaps on zink (GLX)"
zink t_gl_swaps_counted "$T_DIR/gl-swaps" egl1 zink.egl "eglSwapBuffers" "gl-swaps on zink (EGL)"
t_pass "gl-swaps on ANGLE over GLX: 150 of 150 frames; on ANGLE over Vulkan: 150 of 150; Chromium on ANGLE over Vulkan: its GPU process's frames ($gpu_frames) in its one session; gl-swaps on zink: 150 of 150 through GLX, 150 of 150 through EGL"

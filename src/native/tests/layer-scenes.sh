#!/usr/bin/env bash
# Scenes for unmodified programs: vkcube under Xvfb through `gfxstats run --scene NAME` counts
# every frame in that scene; with `--scene-file PATH` the scene follows the file while vkcube
# runs (written by this script as a user would, `echo NAME > PATH`), and every frame is in one of
# the scenes it named: the scenes' frames add up to the dump's total, none in "default".
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v vkcube >/dev/null || t_fail "vkcube is not installed (scripts/ci-deps)"
t_start_daemon
t_start_xvfb
# Frames per scene of a package, from `gfxstats scenes --json`: "NAME=N" lines.
scene_frames() {
  gfx scenes --package "$1" --json | python3 -c '
import json, sys
def walk(x):
    if isinstance(x, dict):
        if "scene" in x:
            print("%s=%s" % (x["scene"], x.get("totalFrames", 0)))
        for v in x.values():
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.load(sys.stdin))'
}
frames_in() { scene_frames "$1" | sed -n "s/^$2=//p"; }
gfx run --scene intro -- vkcube --c 200 >"$T_DIR/intro.out" 2>&1 || { cat "$T_DIR/intro.out" >&2; t_fail "vkcube failed"; }
[ "$(frames_in vkcube intro)" = 200 ] || { scene_frames vkcube >&2; t_fail "--scene intro: not 200 frames in intro"; }
[ "$(frames_in vkcube default)" -eq 0 ] 2>/dev/null || [ -z "$(frames_in vkcube default)" ] \
  || t_fail "--scene intro: frames in default"
# The scene file: "menu" from the start, then "level 1" while vkcube runs; vkcube ends by itself
# (a SIGKILL could fall between a frame's total and its scene's count). The launcher execs vkcube,
# so $! is vkcube.
echo menu > "$T_DIR/scene"
"$ROOT/scripts/gfxstats" run --package scenecube --scene-file "$T_DIR/scene" -- vkcube --c 3000 >"$T_DIR/cube.out" 2>&1 &
CUBE=$!
T_PIDS+=("$CUBE")
above() { [ "$(frames_in scenecube "$1")" -gt "$2" ] 2>/dev/null; }
t_wait_for 60 above menu 50 || { cat "$T_DIR/cube.out" >&2; t_fail "no frames in menu"; }
printf 'level 1\n' > "$T_DIR/scene.new" && mv "$T_DIR/scene.new" "$T_DIR/scene"
t_wait_for 60 above "level 1" 0 || t_fail "the scene file's change did not reach the frames"
wait "$CUBE" || { cat "$T_DIR/cube.out" >&2; t_fail "vkcube --c 3000 failed"; }
total=$(t_counter scenecube "Total frames rendered")
[ "$total" = 3000 ] || t_fail "--scene-file: $total frames, not 3000"
menu=$(frames_in scenecube menu)
level=$(frames_in scenecube "level 1")
[ $((menu + level)) = "$total" ] || { scene_frames scenecube >&2; t_fail "menu $menu + level 1 $level != total $total"; }
[ -z "$(frames_in scenecube default)" ] || [ "$(frames_in scenecube default)" = 0 ] || t_fail "frames in default"
t_pass "--scene: 200 of 200 frames in intro; --scene-file: $menu frames in menu, then $level in level 1, of $total"

#!/usr/bin/env bash
# Scenes for unmodified programs (the steps are lib.sh's t_layer_scenes, which m32app.sh runs at
# 32 bits): vkcube under Xvfb through `gfxstats run --scene NAME` counts
# every frame in that scene; with `--scene-file PATH` the scene follows the file while vkcube
# runs (written by this script as a user would, `echo NAME > PATH`), and every frame is in one of
# the scenes it named: the scenes' frames add up to the dump's total, none in "default".
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v vkcube >/dev/null || t_fail "vkcube is not installed (scripts/ci-deps)"
t_start_daemon
t_start_xvfb
t_layer_scenes vkcube cube
t_pass "$T_SCENES"

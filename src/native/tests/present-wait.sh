#!/usr/bin/env bash
# Present times (docs/native.md, "Present times"): where the driver offers VK_KHR_present_wait the
# layer enables it, gives each present an id, waits for it on a thread of its own, and the frames
# go to the FrameTimeline with those times. Debian's lavapipe offers no such extension (its
# frames stay out of the FrameTimeline); Khronos' mock driver (libVkICD_mock_icd.so, in Debian's
# chromium-common) offers every extension and completes each present at once: unmodified vkcube
# on it, paced to 300 frames a second by MangoHud's fps_limit, must have all of its N frames
# committed and every one answered with a present time, while `dump` counts the N frames as
# without present times. Unpaced (the mock draws 300 frames in about a millisecond, before the
# waiting thread looks), dump still counts exactly N. The daemon SIGKILLed
# during a paced run loses and doubles none of either count. Under TSan, no report between the
# render thread and the waiting thread.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v mangohud >/dev/null || t_fail "mangohud is not installed (scripts/ci-deps)"
t_mock_icd
t_start_daemon
t_start_xvfb

# Paced: every frame committed (recordedFrames counts a frame once it was answered or given up)
# and answered (none "present unknown", none left without a prediction but the first ones).
MANGOHUD=1 MANGOHUD_CONFIG=fps_limit=300,no_display t_on_mock gfx run --package mock.paced -- vkcube --c 300 \
  >"$T_DIR/paced.out" 2>&1 || { cat "$T_DIR/paced.out" >&2; t_fail "vkcube on the mock driver with MangoHud failed"; }
[ "$(t_counter mock.paced "Total frames rendered")" = 300 ] || { gfx dump >&2; t_fail "paced: not 300 frames in dump"; }
gfx dump --frametimeline --package mock.paced >"$T_DIR/paced.ft"
count() { t_ft_value "$1" <"$T_DIR/paced.ft"; }
[ "$(count recordedFrames)" = 300 ] || { cat "$T_DIR/paced.ft" >&2; t_fail "paced: $(count recordedFrames) FrameTimeline frames, not 300"; }
[ "$(count presentUnknownFrames)" = 0 ] || { cat "$T_DIR/paced.ft" >&2; t_fail "paced: $(count presentUnknownFrames) frames without a present time"; }
valid="$(count predictionValidFrames)"
[ "$valid" -ge 290 ] && [ "$((valid + $(count predictionNoneFrames)))" = 300 ] \
  || { cat "$T_DIR/paced.ft" >&2; t_fail "paced: $valid frames predicted from the present times, not 290 or more"; }
answered=$(( $(count presentOnTimeFrames) + $(count presentLateFrames) + $(count presentEarlyFrames) ))
[ "$answered" = "$valid" ] || { cat "$T_DIR/paced.ft" >&2; t_fail "paced: $answered presents classified, $valid predicted"; }

# The daemon SIGKILLed during a paced run (as kill.sh): the dump and the FrameTimeline exact.
MANGOHUD=1 MANGOHUD_CONFIG=fps_limit=300,no_display VK_ICD_FILENAMES="$T_MOCK_ICD" \
  t_vkcube_across_daemon_kill vkcube 1500 mock.kill
[ "$(t_timeline mock.kill recordedFrames)" = 1500 ] || { gfx dump --frametimeline --package mock.kill >&2; t_fail "daemon SIGKILL: not 1500 FrameTimeline frames"; }
[ "$(t_timeline mock.kill presentUnknownFrames)" = 0 ] || t_fail "daemon SIGKILL: frames without a present time"

# Unpaced: dump exact.
t_on_mock t_gfx_guarded run --package mock.fast -- vkcube --c 300 >"$T_DIR/fast.out" 2>&1 \
  || { cat "$T_DIR/fast.out" >&2; t_fail "vkcube on the mock driver failed"; }
[ "$(t_counter mock.fast "Total frames rendered")" = 300 ] || t_fail "unpaced: not 300 frames in dump"

# GFXSTATS_PRESENT_WAIT=0 (and GFXSTATS_DISPLAY_TIMING=0, else the mock's display timing is
# used: display-timing.sh): not enabled, no FrameTimeline frames; dump the same.
GFXSTATS_PRESENT_WAIT=0 GFXSTATS_DISPLAY_TIMING=0 t_on_mock gfx run --package mock.off -- vkcube --c 100 >/dev/null 2>&1 \
  || t_fail "vkcube with GFXSTATS_PRESENT_WAIT=0 failed"
[ "$(t_counter mock.off "Total frames rendered")" = 100 ] || t_fail "GFXSTATS_PRESENT_WAIT=0: not 100 frames in dump"
[ "$(t_timeline mock.off recordedFrames)" = 0 ] || t_fail "GFXSTATS_PRESENT_WAIT=0: FrameTimeline frames counted"

# lavapipe (no VK_KHR_present_wait): no FrameTimeline frames.
gfx run --package lvp.cube -- vkcube --c 100 >/dev/null 2>&1 || t_fail "vkcube on lavapipe failed"
[ "$(t_counter lvp.cube "Total frames rendered")" = 100 ] || t_fail "lavapipe: not 100 frames in dump"
[ "$(t_timeline lvp.cube recordedFrames)" = 0 ] || t_fail "lavapipe: FrameTimeline frames counted without present times"

# The TSan build of the layer on the mock driver, paced and unpaced.
for how in paced fast; do
  mangohud=1
  [ "$how" = paced ] || mangohud=0 # its layer is enabled by MANGOHUD=1 only
  MANGOHUD=$mangohud MANGOHUD_CONFIG=fps_limit=300,no_display t_on_mock t_tsan_vulkan "tsan.$how" vkcube --c 300 \
    >"$T_DIR/tsan.$how.out" 2>&1 \
    || { cat "$T_DIR/tsan.$how.out" >&2; t_fail "vkcube ($how) on the mock driver with the TSan layer failed"; }
  t_wait_for 30 grep -q "exit: tsan.$how/" "$T_DIR/daemon.log" || t_fail "the daemon did not see vkcube ($how) exit"
  [ "$(t_counter "tsan.$how" "Total frames rendered")" = 300 ] || t_fail "TSan layer ($how): not 300 frames"
done
[ "$(t_timeline tsan.paced recordedFrames)" = 300 ] || t_fail "TSan layer (paced): not 300 FrameTimeline frames"
t_pass "vkcube on the mock driver: 300 frames, all committed and answered with present times ($valid predicted), exact across a daemon SIGKILL (1500 of 1500 in both), unpaced and under TSan; none to the FrameTimeline with GFXSTATS_PRESENT_WAIT=0 GFXSTATS_DISPLAY_TIMING=0 or on lavapipe"

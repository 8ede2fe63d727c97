#!/usr/bin/env bash
# Present times from VK_GOOGLE_display_timing (docs/native.md, "Present times"), where the device
# offers it and not VK_KHR_present_wait: the layer enables the extension, gives each present a
# VkPresentTimeGOOGLE id and asks the driver for the presents it displayed. Khronos' mock driver
# offers it (and present wait: GFXSTATS_PRESENT_WAIT=0 leaves display timing) but answers no
# query with a record, so here every frame is committed to the FrameTimeline and none gets a
# present time; tests/display-timing.c gives the layer's part driver answers that hold times.
# Khronos' validation layer, below the layer, checks the calls the layer adds to vkcube's (its
# own are clean on the mock): none may draw a validation message, with display timing or present
# wait.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] \
  || t_fail "Khronos' validation layer is not installed (vulkan-validationlayers; scripts/ci-deps)"
t_mock_icd
t_start_daemon
t_start_xvfb
validated() { VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$@"; }
# Validation messages in a program's output, one VUID (or message kind) a line.
messages() { grep -o -e 'VUID-[A-Za-z0-9_-]*' -e 'Validation Error' -e 'Validation Warning' "$1" | sort | uniq -c || true; }
# On failure: the messages in full.
show() { grep -A4 -e 'VUID-' -e 'Validation' "$1" | head -40 >&2; }

# vkcube alone on the mock under validation: no message (else the comparisons below mean nothing).
GFXSTATS_DISABLE=1 t_on_mock validated vkcube --c 30 >"$T_DIR/plain.out" 2>&1 || { cat "$T_DIR/plain.out" >&2; t_fail "vkcube on the mock driver under validation failed"; }
[ -z "$(messages "$T_DIR/plain.out")" ] || { show "$T_DIR/plain.out"; t_fail "vkcube alone draws validation messages on the mock driver"; }

# Display timing: every frame in dump, no validation message, and every frame committed; none has
# a present time (the mock answers no record), so none is predicted, and the FrameTimeline gives a
# frame up unanswered when the 17th after it is committed: the last 16 are still waiting at the end.
GFXSTATS_PRESENT_WAIT=0 t_on_mock validated gfx run --package mock.display -- vkcube --c 300 >"$T_DIR/display.out" 2>&1 \
  || { cat "$T_DIR/display.out" >&2; t_fail "vkcube with display timing failed"; }
[ -z "$(messages "$T_DIR/display.out")" ] || { show "$T_DIR/display.out"; t_fail "the layer's display timing calls draw validation messages"; }
[ "$(t_counter mock.display "Total frames rendered")" = 300 ] || { gfx dump >&2; t_fail "display timing: not 300 frames in dump"; }
gfx dump --frametimeline --package mock.display >"$T_DIR/display.ft"
count() { t_ft_value "$1" <"$T_DIR/display.ft"; }
[ "$(count recordedFrames)" = 284 ] || { cat "$T_DIR/display.ft" >&2; t_fail "display timing: $(count recordedFrames) FrameTimeline frames, not 300 - 16"; }
[ "$(count predictionNoneFrames)" = 284 ] \
  || { cat "$T_DIR/display.ft" >&2; t_fail "display timing: a present time from a driver that gives none"; }

# Present wait under validation: no message either. Without the layer's thread-safety checks:
# Debian's layer (1.3.239) reports the wait for a present beside the render thread's use of the
# swapchain (acquire, present) as a threading error, from either side, which the specification
# allows (every use but its destruction) and the layer's later releases no longer report
# (Vulkan-ValidationLayers pull request 6927); here it did in about 1 run in 12 under load.
MANGOHUD=1 MANGOHUD_CONFIG=fps_limit=300,no_display VK_LAYER_DISABLES=VK_VALIDATION_FEATURE_DISABLE_THREAD_SAFETY_EXT \
  t_on_mock validated gfx run --package mock.wait -- vkcube --c 100 \
  >"$T_DIR/wait.out" 2>&1 || { cat "$T_DIR/wait.out" >&2; t_fail "vkcube with present wait under validation failed"; }
[ -z "$(messages "$T_DIR/wait.out")" ] || { show "$T_DIR/wait.out"; t_fail "the layer's present-wait calls draw validation messages"; }
[ "$(t_timeline mock.wait presentUnknownFrames)" = 0 ] || t_fail "present wait under validation: frames without a present time"

t_pass "display timing on the mock driver: 300 of 300 frames in dump and committed (284 given up unanswered, 16 waiting at the end), none given a present time the driver did not give; no validation message from the layer's calls (display timing and present wait)"

#!/usr/bin/env bash
# The Android 9 rules and dequeue forgiveness from C against the Java client, end to end: the same
# random frames recorded through libgfxstats (gfxstats-drive, gfxstats_tracker_new_with) and
# through the Java client (tests/SceneDrive.java: Android9JankTracker, TrackerConfig
# .withDequeueForgiveness) into one real daemon give the same dump and the same scenes. Times
# and FrameInfo paths under the Android 9 rules, FrameInfo with 2 ms of dequeue forgiven under
# the modern ones (the stream's DequeueBufferDuration is 0..3 ms). GFXSTATS_DIFF_FRAMES (default
# 300000) sets the length of the times stream; the FrameInfo streams are a third of it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_DIFF_FRAMES:-300000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
t_compile_drives
t_start_daemon
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$N" > "$T_DIR/times.txt"
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$((N / 3))" --format frameinfo > "$T_DIR/frameinfo.txt"
source "$ROOT/scripts/lib.sh"
# case: name, stream, gfxstats-drive flags, SceneDrive options
run_case() {
  local name=$1 stream=$2 c_flags=$3 java_opts=$4
  # shellcheck disable=SC2086
  "$OUT/bin/gfxstats-drive" --package "c.$name" --version-code 1 $c_flags < "$T_DIR/$stream.txt" >/dev/null \
    2>"$T_DIR/c.log" || { tail -5 "$T_DIR/c.log" >&2; t_fail "$name: gfxstats-drive failed"; }
  # shellcheck disable=SC2086
  t_java_drive SceneDrive "java.$name" "$GFXSTATS_SOCKET" \
    $java_opts < "$T_DIR/$stream.txt" >/dev/null 2>"$T_DIR/java.log" \
    || { tail -5 "$T_DIR/java.log" >&2; t_fail "$name: the Java client failed"; }
  for side in c java; do
    t_counts "$side.$name" > "$T_DIR/$side.$name.dump"
    t_scenes_json "$side.$name" "$T_DIR/$side.$name.json"
  done
  grep -q "^Total frames rendered: [1-9]" "$T_DIR/c.$name.dump" || t_fail "$name: no frames in the dump"
  diff "$T_DIR/java.$name.dump" "$T_DIR/c.$name.dump" >&2 || t_fail "$name: C and Java dumps differ (seed $SEED)"
  diff "$T_DIR/java.$name.json" "$T_DIR/c.$name.json" >&2 || t_fail "$name: C and Java scenes differ (seed $SEED)"
}
run_case android9-times times "--rules android9" "rules=android9"
run_case android9-frameinfo frameinfo "--rules android9 --frameinfo --replay" "frameinfo rules=android9"
run_case forgiveness frameinfo "--dequeue-forgiveness 2000000 --frameinfo --replay" "frameinfo forgiveness=2000000"
# The Android 9 rules count no GPU time, the modern ones do for this stream (a check that the
# option reaches the rules at all).
grep "^GPU HISTOGRAM:" "$T_DIR/c.android9-times.dump" | grep -q "=[1-9]" \
  && t_fail "android9-times: GPU times counted, so these are not the Android 9 rules"
t_pass "$N times frames and $((N / 3)) FrameInfo frames (seed $SEED) under the Android 9 rules, and with dequeue forgiveness, counted alike"

#!/usr/bin/env bash
# FrameTimeline from C against the Java client, end to end: one random stream of frames with
# random presentation feedback (tests/gen-timeline.py: late, early, at the threshold, torn,
# estimated, discarded, answered twice, for unknown tokens, too late or never) fed to
# gfxstats_timeline_* (gfxstats-drive) and to WindowTracker.timeline() (tests/TimelineDrive.java)
# in one real daemon gives the same `gfxstats dump --frametimeline` (and the same dump). Then the
# same stream through the ASan/UBSan library, with the daemon SIGKILLed halfway and its buffer
# file deleted (a handover), must still give Java's counters. GFXSTATS_TIMELINE_FRAMES (default
# 200000) sets the stream length.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_TIMELINE_FRAMES:-200000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
t_compile_drives
t_start_daemon
python3 "$NATIVE/tests/gen-timeline.py" --seed "$SEED" --count "$N" > "$T_DIR/stream.txt"
source "$ROOT/scripts/lib.sh"
"$OUT/bin/gfxstats-drive" --package c.timeline --version-code 1 < "$T_DIR/stream.txt" >/dev/null \
  || t_fail "gfxstats-drive failed"
# The same stream with 24 trackers on the 16 stripes of a buffer, the frame lines dealt round
# robin, the FrameTimeline lines to the last one: it may count in a stripe or, without one, in its
# own memory handed to the shared stripe at close; the counters must not change.
"$OUT/bin/gfxstats-drive" --package c.trackers --version-code 1 --trackers 24 --timeline-tracker 23 --wait-attached 30000 \
  < "$T_DIR/stream.txt" >/dev/null || t_fail "gfxstats-drive --trackers 24 failed"
t_java_drive TimelineDrive java.timeline "$GFXSTATS_SOCKET" \
  < "$T_DIR/stream.txt" >/dev/null 2>"$T_DIR/java.log" \
  || { tail -5 "$T_DIR/java.log" >&2; t_fail "the Java client failed"; }
timeline() {
  gfx dump --frametimeline --package "$1" | grep -v -e '^Package:' -e '^Stats since:' -e '^Stats end:'
}
for side in c java; do
  timeline "$side.timeline" > "$T_DIR/$side.ft"
  t_counts "$side.timeline" > "$T_DIR/$side.dump"
done
# The stream must reach every rule the C port has, or an equal result would prove little.
for line in 'recordedFrames' 'jankType AppDeadlineMissed' 'jankType BufferStuffing' 'jankType Dropped' \
            'jankType Unknown' 'jankType PredictionError' 'jankType SurfaceFlingerScheduling' \
            'presentEarlyFrames' 'lateDisplayUnknownFrames' 'presentDelay >250ms'; do
  grep -q "^$line = [1-9]" "$T_DIR/java.ft" || t_fail "the stream never gives '$line' (seed $SEED)"
done
diff "$T_DIR/java.ft" "$T_DIR/c.ft" >&2 || t_fail "C and Java FrameTimeline counters differ (seed $SEED)"
diff "$T_DIR/java.dump" "$T_DIR/c.dump" >&2 || t_fail "C and Java dumps differ (seed $SEED)"
timeline c.trackers > "$T_DIR/trackers.ft"
diff "$T_DIR/java.ft" "$T_DIR/trackers.ft" >&2 || t_fail "24 trackers: FrameTimeline counters differ from Java's (seed $SEED)"

# Across a handover, from the sanitized library.
t_drive_across_handover "$T_DIR/stream.txt"
timeline c.handover > "$T_DIR/handover.ft"
diff "$T_DIR/java.ft" "$T_DIR/handover.ft" >&2 \
  || t_fail "handover: C FrameTimeline counters across a lost buffer differ from Java's (seed $SEED)"
t_pass "$N frames with random feedback (seed $SEED): C and Java FrameTimeline counters equal, also across a handover"

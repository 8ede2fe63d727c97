#!/usr/bin/env bash
# The C rules against the Java rules on large random frame streams, end to end: the same frames
# recorded by libgfxstats (gfxstats-drive) and by the Java client (gfxstats record) into one real
# daemon give the same dump, counter for counter. Times path and FrameInfo path.
# GFXSTATS_DIFF_FRAMES (default 1000000) sets the stream length.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_DIFF_FRAMES:-1000000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
t_start_daemon
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$N" > "$T_DIR/times.txt"
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$((N / 3))" --format frameinfo > "$T_DIR/fi.txt"
"$OUT/bin/gfxstats-drive" --package c.times --version-code 1 < "$T_DIR/times.txt" >/dev/null
gfx record --package java.times --version-code 1 "$T_DIR/times.txt" >/dev/null
"$OUT/bin/gfxstats-drive" --package c.frameinfo --version-code 1 --frameinfo --replay < "$T_DIR/fi.txt" >/dev/null
gfx record --package java.frameinfo --version-code 1 --format framestats "$T_DIR/fi.txt" >/dev/null
for kind in times frameinfo; do
  t_counts "c.$kind" > "$T_DIR/c.$kind"
  t_counts "java.$kind" > "$T_DIR/java.$kind"
  grep -q "^Total frames rendered: [1-9]" "$T_DIR/c.$kind" || t_fail "$kind: no frames in the dump"
  diff "$T_DIR/java.$kind" "$T_DIR/c.$kind" >&2 || t_fail "$kind: C and Java counts differ (seed $SEED)"
done
t_pass "$N times frames and $((N / 3)) FrameInfo frames (seed $SEED) counted alike"

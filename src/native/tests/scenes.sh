#!/usr/bin/env bash
# Scenes and Matrix levels from C against the Java client, end to end: the same random frame
# stream with scene switches (some before, some after the frames they cut, more names than a
# buffer holds, UTF-8 names, returns to the default scene) recorded by libgfxstats
# (gfxstats-drive) and by the Java client (tests/SceneDrive.java) into one real daemon gives the
# same `gfxstats scenes --json` and the same dump. GFXSTATS_DIFF_FRAMES (default 1000000) sets
# the stream length.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_DIFF_FRAMES:-1000000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
t_compile_drives
t_start_daemon
# The stream of one format ($2, $1 frames) with a scene switch before a frame with probability
# $3. Every frame of the stream is kept, intervals below 1 ms and totals of hours too: one such
# frame adds up to 2^31 - 1 dropped frames to a level sum, which is why those are 64-bit (scene
# group version 2; with version 1's u32 sums the two clients' totals differed by 2^32 depending
# on how the frames fell between stripes).
with_scenes() {
  python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$1" --format "$2" --scene-rate "$3" \
    --scene-names "menu|level 1|level 2|Größe|設定|shop|(other)|default|" --scene-numbered 14
}
with_scenes "$N" times 0.002 > "$T_DIR/times.txt"
with_scenes "$((N / 3))" frameinfo 0.006 > "$T_DIR/frameinfo.txt"
source "$ROOT/scripts/lib.sh"
for kind in times frameinfo; do
  grep -q '^@' "$T_DIR/$kind.txt" || t_fail "$kind: the stream has no scene switch"
  c_flags=() java_flags=()
  [ "$kind" = frameinfo ] && c_flags=(--frameinfo --replay) java_flags=(frameinfo)
  "$OUT/bin/gfxstats-drive" --package "c.$kind" --version-code 1 "${c_flags[@]}" < "$T_DIR/$kind.txt" >/dev/null \
    || t_fail "$kind: gfxstats-drive failed"
  t_java_drive SceneDrive "java.$kind" "$GFXSTATS_SOCKET" \
    "${java_flags[@]}" < "$T_DIR/$kind.txt" >/dev/null 2>"$T_DIR/java.log" \
    || { tail -5 "$T_DIR/java.log" >&2; t_fail "$kind: the Java client failed"; }
  for side in c java; do
    t_scenes_json "$side.$kind" "$T_DIR/$side.$kind.json"
    t_counts "$side.$kind" > "$T_DIR/$side.$kind.dump"
  done
  grep -q '"matrixFrames"' "$T_DIR/c.$kind.json" || t_fail "$kind: no Matrix frames in the C client's scenes"
  [ "$(grep -c '"scene"' "$T_DIR/c.$kind.json")" -ge 16 ] || t_fail "$kind: fewer than 16 scenes, (other) is not reached"
  diff "$T_DIR/java.$kind.json" "$T_DIR/c.$kind.json" >&2 || t_fail "$kind: C and Java scenes differ (seed $SEED)"
  diff "$T_DIR/java.$kind.dump" "$T_DIR/c.$kind.dump" >&2 || t_fail "$kind: C and Java dumps differ (seed $SEED)"
done

# Scene counts across a handover, from the sanitized library: the daemon is SIGKILLed halfway
# with the buffer file lost, the client registers again and moves everything (Android and scene
# counters, slot names) into the new buffer; the result must still equal the Java client's.
t_drive_across_handover "$T_DIR/times.txt"
t_scenes_json c.handover "$T_DIR/c.handover.json"
diff "$T_DIR/java.times.json" "$T_DIR/c.handover.json" >&2 \
  || t_fail "handover: C scenes across a lost buffer differ from Java's (seed $SEED)"
t_pass "$N times frames and $((N / 3)) FrameInfo frames with scene switches (seed $SEED) counted alike, also across a handover"

#!/usr/bin/env bash
# A SIGKILL of the app loses nothing (docs/native.md, "A SIGKILL of the app"): what a tracker's
# ring held at the kill is counted by the daemon from the ring stripe in the client's buffer and
# its last checkpoint.
#  (a) gfxstats-drive records a generated stream (times, then FrameInfo; scene switches of the
#      tracker and of the session) with the drain paused, so that its ring surely holds the frames
#      since its last explicit drain, and SIGKILLs itself after its last frame; the dump and the
#      scenes must equal the Java client's for the same stream (tests/SceneDrive.java), which
#      computes them the way `gfxstats framestats` does.
#  (b) vkcube through `gfxstats run` with GFXSTATS_TEST_SIGKILL_AFTER=N (the layer SIGKILLs the
#      process right after its Nth present) gives exactly N frames in the dump.
# GFXSTATS_POSTMORTEM_FRAMES (default 20000) sets the stream length, GFXSTATS_DIFF_SEED the seed.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_POSTMORTEM_FRAMES:-20000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
echo "postmortem.sh: seed $SEED" >&2
t_start_daemon
source "$ROOT/scripts/lib.sh"

# (a) Not a multiple of 256 (the driver drains every 256 frames): frames stay in the ring.
lefts=""
for kind in times frameinfo; do
  count=$((N + 77))
  [ "$kind" = frameinfo ] && count=$((N / 3 + 41))
  python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$count" --format "$kind" --scene-rate 0.001 \
    --scene-names "menu|level 1|" --default-share 0.3 > "$T_DIR/$kind.txt"
  c_flags=() java_flags=()
  [ "$kind" = frameinfo ] && c_flags=(--frameinfo --replay) java_flags=(frameinfo)
  rc=0
  # (braces: the shell's "Killed" line goes to /dev/null, the driver's stderr to c.log)
  { GFXSTATS_TEST_DRAIN_PAUSED=1 "$OUT/bin/gfxstats-drive" --package "c.pm.$kind" --version-code 1 \
    --wait-attached 30000 --sigkill-at-end "${c_flags[@]}" < "$T_DIR/$kind.txt" >/dev/null 2>"$T_DIR/c.log"; } 2>/dev/null \
    || rc=$?
  [ "$rc" = 137 ] || { cat "$T_DIR/c.log" >&2; t_fail "$kind: gfxstats-drive was not SIGKILLed (exit $rc)"; }
  left="$(sed -n 's/.*, \([0-9]*\) since the last drain.*/\1/p' "$T_DIR/c.log")"
  [ "${left:-0}" -gt 0 ] || { cat "$T_DIR/c.log" >&2; t_fail "$kind: no frame was left in the ring at the SIGKILL"; }
  t_wait_for 30 grep -qF "exit: c.pm.$kind/" "$T_DIR/daemon.log" || t_fail "$kind: the daemon did not see the driver die"
  java "${GFX_JVM_FLAGS[@]}" -cp "$GFX_JAR" "$NATIVE/tests/SceneDrive.java" "java.pm.$kind" "$GFXSTATS_SOCKET" \
    "${java_flags[@]}" < "$T_DIR/$kind.txt" >/dev/null 2>"$T_DIR/java.log" \
    || { tail -5 "$T_DIR/java.log" >&2; t_fail "$kind: the Java client failed"; }
  for side in c java; do
    t_counts "$side.pm.$kind" > "$T_DIR/$side.$kind.dump"
    gfx scenes --package "$side.pm.$kind" --json | sed "s/$side\.pm\.$kind/PACKAGE/g" > "$T_DIR/$side.$kind.json"
  done
  grep -q "^Total frames rendered: [1-9]" "$T_DIR/c.$kind.dump" || t_fail "$kind: no frames in the dump"
  diff "$T_DIR/java.$kind.dump" "$T_DIR/c.$kind.dump" >&2 \
    || t_fail "$kind: the SIGKILLed driver's dump differs from the stream's ($left frames were in its ring; seed $SEED)"
  diff "$T_DIR/java.$kind.json" "$T_DIR/c.$kind.json" >&2 \
    || t_fail "$kind: the SIGKILLed driver's scenes differ from the stream's (seed $SEED)"
  lefts+="$kind $left, "
done

# (b) vkcube SIGKILLed by its layer right after its Nth present.
t_start_xvfb
K=$((300 + RANDOM % 700))
rc=0
{ GFXSTATS_TEST_SIGKILL_AFTER=$K "$ROOT/scripts/gfxstats" run --package vk.pm -- vkcube --c 1000000 \
  >"$T_DIR/vk.out" 2>&1; } 2>/dev/null || rc=$?
[ "$rc" = 137 ] || { cat "$T_DIR/vk.out" >&2; t_fail "vkcube was not SIGKILLed after $K presents (exit $rc)"; }
t_wait_for 30 grep -qF "exit: vk.pm/" "$T_DIR/daemon.log" || t_fail "the daemon did not see vkcube die"
got="$(t_counter vk.pm "Total frames rendered")"
[ "$got" = "$K" ] || t_fail "vkcube SIGKILLed after $K presents: ${got:-no} frames in the dump"
t_pass "SIGKILL with frames in the ring: drive streams (seed $SEED; ${lefts}frames in the ring) equal the Java client's, vkcube $K of $K"

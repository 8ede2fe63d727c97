#!/usr/bin/env bash
# A SIGKILL of the app loses nothing (docs/native.md, "A SIGKILL of the app"): what a tracker's
# ring held at the kill is counted by the daemon from the ring stripe in the client's buffer and
# its last checkpoint.
#  (a) gfxstats-drive records a generated stream (times, then FrameInfo, then times through the
#      32-bit driver; scene switches of the tracker and of the session) with the drain paused, so that its ring surely holds the frames
#      since its last explicit drain, and SIGKILLs itself after its last frame; the dump and the
#      scenes must equal the Java client's for the same stream (tests/SceneDrive.java), which
#      computes them the way `gfxstats framestats` does.
#  (b) vkcube and vkcubepp through `gfxstats run` with GFXSTATS_TEST_SIGKILL_AFTER=N (the layer
#      SIGKILLs the process right after its Nth present) give exactly N frames in the dump; so
#      do vkcube killed after its 1st, 2nd and 3rd present and glxgears after its 1st.
#  (c) against a daemon that adds no ring group (buffers.native.rings=false, as an earlier release):
#      no ring group in the buffer, private rings, and a drive's dump equal to the Java client's.
#  (d) a drive that recorded before the daemon started, and after its answer, SIGKILLed before
#      any drain followed the answer: every frame counted.
#  (e) a drive that exec()s another program after its last frame (same pid, running on): its ring
#      counted as after a SIGKILL; (f) the same with an exec into vkcube under `gfxstats run`: the
#      drive's ring counted, and vkcube's 57 frames under its own package.
# GFXSTATS_POSTMORTEM_FRAMES (default 20000) sets the stream length, GFXSTATS_DIFF_SEED the seed.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_POSTMORTEM_FRAMES:-20000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
echo "postmortem.sh: seed $SEED" >&2
t_compile_drives
t_start_daemon
source "$ROOT/scripts/lib.sh"

# (a) Not a multiple of 256 (the driver drains every 256 frames): frames stay in the ring. The
# times stream also through the 32-bit driver (its ring stripe's pointers in the slots' low
# halves), when a 32-bit toolchain is installed (as m32.sh).
DRIVES=("$OUT/bin/gfxstats-drive")
if echo 'int main(void){return 0;}' | gcc -m32 -x c -o "$T_DIR/probe" - >/dev/null 2>&1; then
  make -s -C "$NATIVE" m32 >"$T_DIR/build.log" 2>&1 || { tail -20 "$T_DIR/build.log" >&2; t_fail "make m32 failed"; }
  DRIVES+=("$OUT/m32/bin/gfxstats-drive")
else
  echo "postmortem.sh: no 32-bit toolchain, the 32-bit driver is not run" >&2
fi
lefts=""
for run in times frameinfo times.m32; do
  kind=${run%.m32} drive=${DRIVES[0]} pkg="pm.$run"
  if [ "$run" = times.m32 ]; then
    [ "${#DRIVES[@]}" = 2 ] || continue
    drive=${DRIVES[1]}
  fi
  count=$((N + 77))
  [ "$kind" = frameinfo ] && count=$((N / 3 + 41))
  python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$count" --format "$kind" --scene-rate 0.001 \
    --scene-names "menu|level 1|" --default-share 0.3 > "$T_DIR/$kind.txt"
  c_flags=() java_flags=()
  [ "$kind" = frameinfo ] && c_flags=(--frameinfo --replay) java_flags=(frameinfo)
  rc=0
  # (braces: the shell's "Killed" line goes to /dev/null, the driver's stderr to c.log)
  { GFXSTATS_TEST_DRAIN_PAUSED=1 "$drive" --package "c.$pkg" --version-code 1 \
    --wait-attached 30000 --sigkill-at-end "${c_flags[@]}" < "$T_DIR/$kind.txt" >/dev/null 2>"$T_DIR/c.log"; } 2>/dev/null \
    || rc=$?
  [ "$rc" = 137 ] || { cat "$T_DIR/c.log" >&2; t_fail "$run: gfxstats-drive was not SIGKILLed (exit $rc)"; }
  left="$(sed -n 's/.*, \([0-9]*\) since the last drain.*/\1/p' "$T_DIR/c.log")"
  [ "${left:-0}" -gt 0 ] || { cat "$T_DIR/c.log" >&2; t_fail "$run: no frame was left in the ring at the SIGKILL"; }
  t_wait_for 30 grep -qF "exit: c.$pkg/" "$T_DIR/daemon.log" || t_fail "$run: the daemon did not see the driver die"
  t_java_drive SceneDrive "java.$pkg" "$GFXSTATS_SOCKET" \
    "${java_flags[@]}" < "$T_DIR/$kind.txt" >/dev/null 2>"$T_DIR/java.log" \
    || { tail -5 "$T_DIR/java.log" >&2; t_fail "$run: the Java client failed"; }
  for side in c java; do
    t_counts "$side.$pkg" > "$T_DIR/$side.$run.dump"
    t_scenes_json "$side.$pkg" "$T_DIR/$side.$run.json"
  done
  grep -q "^Total frames rendered: [1-9]" "$T_DIR/c.$run.dump" || t_fail "$run: no frames in the dump"
  diff "$T_DIR/java.$run.dump" "$T_DIR/c.$run.dump" >&2 \
    || t_fail "$run: the SIGKILLed driver's dump differs from the stream's ($left frames were in its ring; seed $SEED)"
  diff "$T_DIR/java.$run.json" "$T_DIR/c.$run.json" >&2 \
    || t_fail "$run: the SIGKILLed driver's scenes differ from the stream's (seed $SEED)"
  lefts+="$run $left, "
done

# (e) exec() instead of SIGKILL: the same times stream, then the driver replaces itself with a
# sleep (same pid, still running when the daemon sees its connection close, but no longer mapping
# the buffer): what its ring held is counted as after a SIGKILL.
GFXSTATS_TEST_DRAIN_PAUSED=1 "${DRIVES[0]}" --package c.pm.exec --version-code 1 --wait-attached 30000 \
  --exec-at-end 'exec sleep 600' < "$T_DIR/times.txt" >/dev/null 2>"$T_DIR/exec.log" &
EXECED=$!
T_PIDS+=("$EXECED")
t_wait_for 30 grep -qF "exit: c.pm.exec/" "$T_DIR/daemon.log" || { cat "$T_DIR/exec.log" >&2; t_fail "(e): the daemon did not see the driver's connection close at its exec"; }
kill -0 "$EXECED" 2>/dev/null || { cat "$T_DIR/exec.log" >&2; t_fail "(e): the driver did not run on after its exec"; }
exec_left="$(sed -n 's/.*, \([0-9]*\) since the last drain.*/\1/p' "$T_DIR/exec.log")"
[ "${exec_left:-0}" -gt 0 ] || { cat "$T_DIR/exec.log" >&2; t_fail "(e): no frame was left in the ring at the exec"; }
t_counts c.pm.exec > "$T_DIR/c.exec.dump"
kill "$EXECED" 2>/dev/null; wait "$EXECED" 2>/dev/null || true
diff "$T_DIR/java.times.dump" "$T_DIR/c.exec.dump" >&2 \
  || t_fail "(e): the driver that exec'ed has a dump different from the stream's ($exec_left frames were in its ring; seed $SEED)"

# (b) vkcube, and vkcubepp (the C++ one, on vulkan.hpp), SIGKILLed by the layer right after the
# Nth present: exactly N frames. How many of them the daemon took from the ring is in its log.
t_start_xvfb
vks=""
for prog in vkcube vkcubepp; do
  command -v "$prog" >/dev/null || t_fail "$prog is not installed (scripts/ci-deps)"
  t_vulkan_sigkill_after "$prog" "$prog.pm"
  vks+="$prog $T_SIGKILLED, "
done
# (f) An exec into a renderer, under the layer and hook `gfxstats run` set up: the drive's ring is
# counted as in (e), and vkcube, the same process after the exec, counts into a session of its own.
GFXSTATS_TEST_DRAIN_PAUSED=1 gfx run -- "${DRIVES[0]}" --package c.pm.exec.vk --version-code 1 --wait-attached 30000 \
  --exec-at-end 'exec env -u GFXSTATS_TEST_DRAIN_PAUSED vkcube --c 57' < "$T_DIR/times.txt" >/dev/null 2>"$T_DIR/exec.vk.log" \
  || { cat "$T_DIR/exec.vk.log" >&2; t_fail "(f): the drive that exec'ed vkcube failed"; }
t_wait_for 30 grep -qF "exit: c.pm.exec.vk/" "$T_DIR/daemon.log" || t_fail "(f): the daemon did not see the drive's exec"
t_wait_for 30 grep -qF "exit: vkcube/" "$T_DIR/daemon.log" || t_fail "(f): the daemon did not see vkcube exit"
t_counts c.pm.exec.vk > "$T_DIR/c.exec.vk.dump"
diff "$T_DIR/java.times.dump" "$T_DIR/c.exec.vk.dump" >&2 \
  || t_fail "(f): the drive that exec'ed vkcube has a dump different from the stream's (seed $SEED)"
[ "$(t_counter vkcube "Total frames rendered")" = 57 ] \
  || t_fail "(f): vkcube after the drive's exec counted $(t_counter vkcube "Total frames rendered"), not 57 frames"

# The first presents: the layer and the hook wait for the daemon's answer before their first
# tracker (GFXSTATS_OPEN_WAIT_MS), so even the first frame is in the daemon's buffer when the
# process dies. Without that wait they were in the process's memory only: such runs kept no frame
# in 6 of 6 (session 25: 1, 2 and 3 presents, twice each).
firsts=""
for k in 1 2 3; do
  t_sigkill_after "vkcube.first$k" "$k" vkcube --c 1000000
  firsts+="vkcube $T_SIGKILLED, "
done
t_sigkill_after gl.first 1 glxgears
firsts+="glxgears $T_SIGKILLED"

# (c) A daemon that adds no ring group (buffers.native.rings=false; a daemon of an earlier release
# skips field 1000 alike): the buffer has only the counter groups, the rings stay in the client's memory,
# and a drive that ends normally is counted exactly as the Java client counts the same stream.
t_stop_daemon
t_start_daemon --set buffers.native.rings=false
mkfifo "$T_DIR/norings.fifo"
"${DRIVES[0]}" --package c.norings --version-code 1 < "$T_DIR/norings.fifo" >/dev/null 2>"$T_DIR/norings.log" &
NORINGS=$!
T_PIDS+=("$NORINGS")
exec 3>"$T_DIR/norings.fifo"
t_wait_for 30 t_registered c.norings 1 || { cat "$T_DIR/norings.log" >&2; t_fail "c.norings did not register"; }
# The group directory (docs/buffer-format.md, "Layout version 2") of the ready buffer (state 1 at
# offset 8) whose pid (offset 40) is the driver's, among the buffer files of both daemons: offset
# at 536, count at 540, 16-byte entries starting with the group id; the ring group's id is 4.
norings_groups() {
  python3 -c '
import glob, struct, sys
for path in sorted(glob.glob(sys.argv[1] + "/*")):
    b = open(path, "rb").read()
    if len(b) < 544 or struct.unpack_from("<I", b, 8)[0] != 1 or struct.unpack_from("<I", b, 40)[0] != int(sys.argv[2]):
        continue
    d, g = struct.unpack_from("<II", b, 536)
    print(" ".join(str(struct.unpack_from("<I", b, d + 16 * i)[0]) for i in range(g)))' "$T_DIR/state/buffers" "$NORINGS"
}
norings_ready() { [ -n "$(norings_groups)" ]; }
t_wait_for 30 norings_ready || t_fail "buffers.native.rings=false: no ready buffer of pid $NORINGS"
groups="$(norings_groups)"
[ "$groups" = "1 2 3" ] || t_fail "buffers.native.rings=false: the buffer's groups are \"$groups\", not the counter groups 1 2 3 alone"
cat "$T_DIR/times.txt" >&3
exec 3>&-
wait "$NORINGS" || { cat "$T_DIR/norings.log" >&2; t_fail "the drive failed against a daemon without ring groups"; }
t_counts c.norings > "$T_DIR/c.norings.dump"
diff "$T_DIR/java.times.dump" "$T_DIR/c.norings.dump" >&2 \
  || t_fail "without a ring group the drive's dump differs from the stream's (seed $SEED)"

# (d) A SIGKILL right after the daemon answered, before the next drain: the driver records frames
# with no daemon (its private ring), then the daemon starts, the driver waits for the answer
# (which counts the private ring and starts the move to the ring stripe), records more frames
# (into the ring stripe) and SIGKILLs itself, with the drain paused, so no drain follows the
# answer. The ring stripe's checkpoint written with the move lets the daemon count them all.
t_stop_daemon
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count 1500 --format times > "$T_DIR/answer.txt"
mkfifo "$T_DIR/answer.fifo"
GFXSTATS_TEST_DRAIN_PAUSED=1 "${DRIVES[0]}" --package c.pm.answer --version-code 1 --no-flush --sigkill-at-end \
  < "$T_DIR/answer.fifo" >/dev/null 2>"$T_DIR/answer.log" &
ANSWER=$!
T_PIDS+=("$ANSWER")
exec 3>"$T_DIR/answer.fifo"
head -n 1000 "$T_DIR/answer.txt" >&3
t_start_daemon 3>&- # not holding the fifo open
{ echo A; tail -n +1001 "$T_DIR/answer.txt"; } >&3
exec 3>&-
rc=0
wait "$ANSWER" 2>/dev/null || rc=$?
[ "$rc" = 137 ] || { cat "$T_DIR/answer.log" >&2; t_fail "(d): gfxstats-drive was not SIGKILLed (exit $rc)"; }
t_wait_for 30 grep -qF "exit: c.pm.answer/" "$T_DIR/daemon.log" || t_fail "(d): the daemon did not see the driver die"
t_java_drive SceneDrive java.pm.answer "$GFXSTATS_SOCKET" \
  < "$T_DIR/answer.txt" >/dev/null 2>"$T_DIR/java.log" || { tail -5 "$T_DIR/java.log" >&2; t_fail "(d): the Java client failed"; }
t_counts c.pm.answer > "$T_DIR/c.answer.dump"
t_counts java.pm.answer > "$T_DIR/java.answer.dump"
diff "$T_DIR/java.answer.dump" "$T_DIR/c.answer.dump" >&2 \
  || t_fail "(d): SIGKILLed right after the daemon answered, the driver's dump differs from the stream's (seed $SEED)"

t_pass "SIGKILL with frames in the ring: drive streams (seed $SEED; ${lefts}frames in the ring) equal the Java client's; without a ring group as well; SIGKILLed before the first drain after the answer as well; exec'ed with $exec_left frames in its ring as well, and into vkcube (57 of 57); ${vks%, }; right after the first presents: $firsts"

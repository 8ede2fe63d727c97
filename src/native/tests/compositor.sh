#!/usr/bin/env bash
# FrameTimeline in compositor mode from C against the Java client, end to end: one random stream
# (tests/gen-compositor.py) of client frames presented on the outputs of a simulated compositor,
# whose display frames go through the daemon's real compositor feed into its display-frame ring,
# published ahead of the clients' feedback, a little behind (joined at a later call), after the
# join wait (client-only) or never, fed to gfxstats_timeline_* in compositor mode (the sanitized
# gfxstats-drive --compositor) and to WindowTracker.timeline() with a CompositorLink
# (tests/CompositorDrive.java, which conducts both), with the daemon SIGKILLed halfway and its
# buffer directory emptied (a new ring, which both clients must map). `gfxstats dump
# --frametimeline` must be the same for both. GFXSTATS_COMPOSITOR_FRAMES (default 100000) sets
# the stream length.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_COMPOSITOR_FRAMES:-100000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
ASAN="$OUT/asan/gfxstats-drive"
[ -x "$ASAN" ] || make -s -C "$NATIVE" target/asan/gfxstats-drive >/dev/null
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
t_compile_drives
t_start_daemon
python3 "$NATIVE/tests/gen-compositor.py" --seed "$SEED" --count "$N" --kill > "$T_DIR/stream.txt"
source "$ROOT/scripts/lib.sh"
coproc DRIVE { t_java_drive CompositorDrive java.compositor \
  "$GFXSTATS_SOCKET" "$T_DIR/stream.txt" "$T_DIR/c.log" "$ASAN" --package c.compositor --version-code 1 \
  2>"$T_DIR/java.log"; }
drive_pid=$DRIVE_PID drive_out=${DRIVE[0]} drive_in=${DRIVE[1]}
T_PIDS+=("$drive_pid")
while IFS= read -r line <&"$drive_out"; do
  if [ "$line" = kill ]; then
    kill -KILL "$DAEMON_PID"
    wait "$DAEMON_PID" 2>/dev/null || true
    rm -f "$T_DIR"/state/buffers/*
    t_start_daemon
    t_wait_for 30 t_registered c.compositor 2 || t_fail "c.compositor did not register again"
    t_wait_for 30 t_registered java.compositor 2 || t_fail "java.compositor did not register again"
    echo ok >&"$drive_in"
  else
    echo "$line" >> "$T_DIR/java.out"
  fi
done
wait "$drive_pid" || { tail -20 "$T_DIR/java.log" "$T_DIR/c.log" >&2; t_fail "the conductor failed (seed $SEED)"; }
timeline() {
  gfx dump --frametimeline --package "$1" | grep -v -e '^Package:' -e '^Stats since:' -e '^Stats end:'
}
for side in c java; do
  timeline "$side.compositor" > "$T_DIR/$side.ft"
done
# The stream must join frames and give up waiting for others, and reach the display jank only a
# compositor frame gives, or an equal result would prove little.
read -r joined unjoined < <(sed -n 's/^joined \([0-9]*\) unjoined \([0-9]*\)$/\1 \2/p' "$T_DIR/java.out")
[ "${joined:-0}" -gt $((N / 4)) ] && [ "${unjoined:-0}" -gt $((N / 100)) ] \
  || t_fail "the stream joined ${joined:-0} and gave up ${unjoined:-0} frames (seed $SEED)"
for line in 'jankType DisplayHAL' 'jankType SurfaceFlingerCpuDeadlineMissed' 'jankType SurfaceFlingerGpuDeadlineMissed' \
            'jankType SurfaceFlingerStuffing' 'jankType AppDeadlineMissed' 'jankType Unknown' 'jankType Dropped' \
            'jankType PredictionError' 'jankType SurfaceFlingerScheduling' 'lateDisplayUnknownFrames'; do
  grep -q "^$line = [1-9]" "$T_DIR/java.ft" || t_fail "the stream never gives '$line' (seed $SEED)"
done
diff "$T_DIR/java.ft" "$T_DIR/c.ft" >&2 || t_fail "C and Java FrameTimeline counters differ in compositor mode (seed $SEED)"
t_pass "$N frames, $joined joined, $unjoined given up waiting, a daemon SIGKILL (seed $SEED): C and Java FrameTimeline counters equal"

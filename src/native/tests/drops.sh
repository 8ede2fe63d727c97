#!/usr/bin/env bash
# Frames a full ring dropped reach the daemon exactly (issue 25): gfxstats-drive records 1,714
# times-path frames with the session thread's drains held off (GFXSTATS_TEST_DRAIN_PAUSED, a test
# hook) and no flushes, so the tracker's ring (1,638 frames of 40 bytes in 64 KiB) drops exactly
# 76; the close counts the 1,638 frames that fitted and the 76 drops into the buffer, and the daemon's metrics show both, also
# after a restart (seeded from the day file); the daemon's line for the client's exit names them.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
METRICS=(--set metrics.enabled=true --set metrics.port=0)
scrape() { # the newest daemon's exposition
  local port
  port="$(sed -n 's/.*metrics: http:\/\/[^ ]*:\([0-9][0-9]*\)\/metrics.*/\1/p' "$T_DIR/daemon.log" | tail -1)"
  [ -n "$port" ] && curl -sf "http://127.0.0.1:$port/metrics"
}
series() { # the value of one series of package c.drops, e.g. series gfxstats_frames_total
  scrape | sed -n "s/^$1{package=\"c\.drops\",[^}]*} \([0-9.]*\)$/\1/p"
}
drops_are() { [ "$(series gfxstats_ring_dropped_frames_total)" = "$1" ]; }
t_start_daemon "${METRICS[@]}"
python3 "$NATIVE/tests/gen-frames.py" --seed 7 --count 1714 > "$T_DIR/frames.txt"
if GFXSTATS_TEST_DRAIN_PAUSED=1 "$OUT/bin/gfxstats-drive" --package c.drops --version-code 1 --wait-attached 30000 \
    --no-flush < "$T_DIR/frames.txt" >/dev/null 2>"$T_DIR/drive.err"; then
  t_fail "gfxstats-drive reported no dropped frames"
fi
grep -q "76 frames dropped" "$T_DIR/drive.err" || t_fail "drive: $(cat "$T_DIR/drive.err")"
t_wait_for 30 drops_are 76.0 ||
  t_fail "metrics show $(series gfxstats_ring_dropped_frames_total) ring-dropped frames, not 76"
t_wait_for 30 grep -q "exit: c.drops/.*its clients dropped 76 frames because a recording ring was full" \
  "$T_DIR/daemon.log" || t_fail "the daemon's exit line for c.drops does not name the 76 dropped frames"
# The frames that fitted are counted by the rules as usual (some random frames count as none).
counted="$(head -n 1638 "$T_DIR/frames.txt" | "$OUT/bin/gfxstats-drive" --rules-only | head -1)"
[ "$(series gfxstats_frames_total)" = "$counted.0" ] ||
  t_fail "metrics show $(series gfxstats_frames_total) frames, not the rules' $counted of the 1,638 that fitted"
t_stop_daemon
t_start_daemon "${METRICS[@]}"
t_wait_for 30 drops_are 76.0 || t_fail "after a restart: $(series gfxstats_ring_dropped_frames_total)"
t_pass "76 frames dropped by a full ring, shown exactly by the daemon after the client exited and after a daemon restart"

#!/usr/bin/env bash
# Frames a full ring dropped reach the daemon exactly (issue 25): gfxstats-drive records 1,714
# times-path frames with the session thread's drains held off (GFXSTATS_TEST_DRAIN_PAUSED, a test
# hook) and no flushes, so the tracker's ring (1,638 frames of 40 bytes in 64 KiB) drops exactly
# 76. A sync line then drains the ring by hand: the 1,638 frames that fitted and the 76 drops go
# into the buffer while the client stays alive (its stdin, a FIFO, held open), so the views users
# watch can be checked on a live C client: `gfxstats top --once` (LOST column), `top --json`
# (ringDroppedFrames) and the HTML report (Lost) show exactly 76, also after the daemon is
# SIGKILLed and restarted under the running client (which adopts its buffer again, so nothing is
# lost or counted twice). After the client exits the metrics show the 76 and the frames the rules
# count, the daemon's exit line names them, and after a clean restart (seeded from the day file)
# the metrics and the report still show 76.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
DROPS="${GFXSTATS_TEST_EXPECT_DROPS:-76}" # another value: checks that this test can fail
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
# `top --once` as text: the header ends in LOST, and c.drops' row in the count.
top_text_shows() {
  gfx top --once --interval 0.2 --no-color >"$T_DIR/top.txt" 2>&1 || return 1
  sed -n 2p "$T_DIR/top.txt" | grep -q " LOST$" && grep -Eq "^c\.drops .* $1$" "$T_DIR/top.txt"
}
# `top --once --json`: c.drops' ringDroppedFrames.
top_json_shows() {
  gfx top --once --interval 0.2 --json >"$T_DIR/top.json" 2>&1 || return 1
  python3 - "$T_DIR/top.json" "$1" <<'PY'
import json, sys
packages = [p for p in json.load(open(sys.argv[1]))["packages"] if p["packageName"] == "c.drops"]
sys.exit(0 if packages and all(p["ringDroppedFrames"] == int(sys.argv[2]) for p in packages) else 1)
PY
}
# The HTML report's "By package" table: a Lost column, explained, and c.drops' row ending in the count.
report_shows() {
  rm -f "$T_DIR/report.html"
  gfx report --out "$T_DIR/report.html" >"$T_DIR/report.out" 2>&1 || return 1
  grep -q "<th>99th</th><th>Lost</th></tr>" "$T_DIR/report.html" && grep -q 'id="lost-note"' "$T_DIR/report.html" \
    && grep -q "^<tr><td>c\.drops</td>.*<td>$1</td></tr>$" "$T_DIR/report.html"
}
views_show() { # $1: when, for the failure line
  t_wait_for 30 top_text_shows "$DROPS" || { cat "$T_DIR/top.txt" >&2; t_fail "$1: gfxstats top --once does not show LOST $DROPS for c.drops"; }
  t_wait_for 30 top_json_shows "$DROPS" || { cat "$T_DIR/top.json" >&2; t_fail "$1: gfxstats top --json does not show ringDroppedFrames $DROPS for c.drops"; }
  report_shows "$DROPS" || { cat "$T_DIR/report.out" >&2; grep "c\.drops\|Lost" "$T_DIR/report.html" >&2; t_fail "$1: the report's Lost column does not show $DROPS for c.drops"; }
}
t_start_daemon "${METRICS[@]}"
python3 "$NATIVE/tests/gen-frames.py" --seed 7 --count 1714 > "$T_DIR/frames.txt"
mkfifo "$T_DIR/drive.fifo"
GFXSTATS_TEST_DRAIN_PAUSED=1 "$OUT/bin/gfxstats-drive" --package c.drops --version-code 1 --wait-attached 30000 \
  --no-flush < "$T_DIR/drive.fifo" >"$T_DIR/drive.out" 2>"$T_DIR/drive.err" &
DRIVE=$!
T_PIDS+=("$DRIVE")
exec 3>"$T_DIR/drive.fifo"
cat "$T_DIR/frames.txt" >&3
echo S >&3
t_wait_for 30 grep -qx synced "$T_DIR/drive.out" || t_fail "gfxstats-drive did not sync: $(cat "$T_DIR/drive.err")"
t_wait_for 30 drops_are "$DROPS.0" ||
  t_fail "live: metrics show $(series gfxstats_ring_dropped_frames_total) ring-dropped frames, not $DROPS"
views_show "live"
# The daemon SIGKILLed under the live client (the FIFO's writer is not passed to the new one).
t_kill_daemon
t_start_daemon "${METRICS[@]}" 3>&-
# The client reconnects and the new daemon takes up its buffer (recovered from the state dir).
t_wait_for 30 grep -q "register: adopted c\.drops/" "$T_DIR/daemon.log" \
  || t_fail "c.drops did not register again with the restarted daemon"
views_show "live, after a daemon SIGKILL and restart"
exec 3>&-
if wait "$DRIVE"; then
  t_fail "gfxstats-drive reported no dropped frames"
fi
grep -q "76 frames dropped" "$T_DIR/drive.err" || t_fail "drive: $(cat "$T_DIR/drive.err")"
t_wait_for 30 drops_are "$DROPS.0" ||
  t_fail "metrics show $(series gfxstats_ring_dropped_frames_total) ring-dropped frames, not $DROPS"
t_wait_for 30 grep -q "exit: c.drops/.*its clients dropped $DROPS frames because a recording ring was full" \
  "$T_DIR/daemon.log" || t_fail "the daemon's exit line for c.drops does not name the $DROPS dropped frames"
# The frames that fitted are counted by the rules as usual (some random frames count as none).
counted="$(head -n 1638 "$T_DIR/frames.txt" | "$OUT/bin/gfxstats-drive" --rules-only | head -1)"
[ "$(series gfxstats_frames_total)" = "$counted.0" ] ||
  t_fail "metrics show $(series gfxstats_frames_total) frames, not the rules' $counted of the 1,638 that fitted"
t_stop_daemon
t_start_daemon "${METRICS[@]}"
t_wait_for 30 drops_are "$DROPS.0" || t_fail "after a restart: $(series gfxstats_ring_dropped_frames_total)"
report_shows "$DROPS" || { grep "c\.drops\|Lost" "$T_DIR/report.html" >&2; t_fail "after a restart: the report's Lost column does not show $DROPS for c.drops"; }
t_pass "$DROPS frames dropped by a full ring of a live C client, shown exactly by top (text, JSON), the report and the metrics, also after a daemon SIGKILL under it; after it exited and after a daemon restart"

#!/usr/bin/env bash
# MangoHud as the peer for what a present is: unmodified vkcube and glxgears under Xvfb with BOTH
# MangoHud (its Vulkan layer through MANGOHUD=1, its GL preload through `mangohud`) and gfxstats
# (`gfxstats run`) loaded. gfxstats must count exactly the presents vkcube made (--c N) and at least
# every present MangoHud logged, and its frame times must be consistent with MangoHud's.
#
# The two measure different spans, so their distributions are not equal by design: MangoHud's frame
# time is the present-to-present interval; gfxstats' (Android's frame duration) is the app's work
# between the return of one present and the call of the next, without the time blocked in present
# or acquire, and Android's histogram starts at 5 ms. So each gfxstats percentile must be at most
# MangoHud's for the same percentile plus one 1 ms bucket, or 5 ms (the first bucket) - a work time
# longer than the interval that contains it would be a wrong frame boundary. MangoHud also logs only
# a window (from autostart_log seconds after start, for log_duration, and nothing if the app exits
# while it logs), so frame counts are compared with the app's own count, not with MangoHud's.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v vkcube >/dev/null || t_fail "vkcube is not installed (scripts/ci-deps)"
command -v mangohud >/dev/null || t_fail "mangohud is not installed (scripts/ci-deps)"

FRAMES=1500
t_start_daemon
t_start_xvfb
mkdir -p "$T_DIR/mango"
MANGOHUD=1 MANGOHUD_CONFIG="output_folder=$T_DIR/mango,autostart_log=1,log_duration=2,log_interval=0" \
  gfx run -- vkcube --c "$FRAMES" >"$T_DIR/vkcube.out" 2>&1 || { cat "$T_DIR/vkcube.out" >&2; t_fail "vkcube failed"; }
total="$(t_counter vkcube "Total frames rendered")"
[ "$total" = "$FRAMES" ] || { gfx dump --package vkcube >&2; t_fail "vkcube --c $FRAMES with MangoHud loaded: $total frames"; }
csv="$(ls "$T_DIR"/mango/vkcube_*.csv 2>/dev/null | grep -v _summary | head -1)"
[ -n "$csv" ] || { cat "$T_DIR/vkcube.out" >&2; t_fail "MangoHud wrote no CSV (its layer did not run, or vkcube exited before its log window ended)"; }
# The CSV: two lines of system info, a header, then one line per frame (log_interval=0) with the
# frame time in microseconds in the second column.
tail -n +4 "$csv" | cut -d, -f2 | sort -n >"$T_DIR/mango.us"
logged="$(wc -l <"$T_DIR/mango.us")"
[ "$logged" -ge 50 ] && [ "$logged" -lt "$FRAMES" ] || t_fail "MangoHud logged $logged frames of $FRAMES"
# MangoHud's percentile p (nearest rank) in whole milliseconds, rounded down as Android's buckets are.
mango_pct() { awk -v p="$1" -v n="$logged" 'NR == int((n * p + 99) / 100) { printf "%d", $1 / 1000 }' "$T_DIR/mango.us"; }
dump="$(gfx dump --package vkcube)"
report="vkcube: gfxstats $total frames, MangoHud logged $logged in its window;"
for p in 50 90 95 99; do
  ours="$(sed -n "s/^${p}th percentile: \([0-9]*\)ms.*/\1/p" <<<"$dump")"
  theirs="$(mango_pct "$p")"
  [ -n "$ours" ] && [ -n "$theirs" ] || t_fail "no ${p}th percentile (gfxstats '$ours', MangoHud '$theirs')"
  [ "$ours" -le $((theirs + 1)) ] || [ "$ours" -le 5 ] \
    || { echo "$dump" >&2; t_fail "${p}th percentile: gfxstats ${ours} ms of work in a MangoHud interval of ${theirs} ms"; }
  report="$report p$p ${ours}/${theirs} ms"
done

# OpenGL: glxgears under `mangohud` (its GL hook preloaded after ours). Once MangoHud has written its
# log, gfxstats must come to count at least every frame MangoHud logged, plus those before
# MangoHud's window. glxgears keeps drawing while that is awaited: its newest frames wait in the
# ring for the session thread's drain (at most 50 ms), so a stopped glxgears would not show them
# (docs/native.md, "The frame ring and the drain"); the exact count against MangoHud is vkcube's above.
MANGOHUD_CONFIG="output_folder=$T_DIR/mango,autostart_log=1,log_duration=2,log_interval=0" \
  "$ROOT/scripts/gfxstats" run -- mangohud glxgears >"$T_DIR/gears.out" 2>&1 &
GEARS=$!
T_PIDS+=("$GEARS")
gears_csv() { ls "$T_DIR"/mango/glxgears*_summary.csv >/dev/null 2>&1; }
t_wait_for 90 gears_csv || { cat "$T_DIR/gears.out" >&2; t_fail "MangoHud wrote no glxgears log"; }
gcsv="$(ls "$T_DIR"/mango/glxgears*.csv | grep -v _summary | head -1)"
glogged=$(($(wc -l <"$gcsv") - 3))
[ "$glogged" -ge 50 ] || t_fail "MangoHud logged $glogged glxgears frames"
gears_counted() { [ "$(t_counter glxgears "Total frames rendered" 2>/dev/null || true)" -ge "$glogged" ] 2>/dev/null; }
t_wait_for 30 gears_counted \
  || t_fail "glxgears: gfxstats counted $(t_counter glxgears "Total frames rendered") frames, MangoHud logged $glogged in its window alone"
gours="$(t_counter glxgears "Total frames rendered")"
kill -KILL "$GEARS" 2>/dev/null
wait "$GEARS" 2>/dev/null || true
t_pass "$report; glxgears: gfxstats $gours frames, MangoHud logged $glogged in its window"

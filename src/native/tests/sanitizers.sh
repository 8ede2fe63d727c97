#!/usr/bin/env bash
# libgfxstats built with AddressSanitizer and UndefinedBehaviorSanitizer (any report aborts),
# against a real daemon: random frames on both paths (the rules' arithmetic on hostile input),
# registration, attach, a daemon restart mid-stream (re-registration) and close. Counts must
# still equal what the rules give for the frames.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ASAN="$OUT/asan/gfxstats-drive"
[ -x "$ASAN" ] || make -s -C "$NATIVE" "target/asan/gfxstats-drive" >/dev/null
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
t_start_daemon
python3 "$NATIVE/tests/gen-frames.py" --seed 21 --count 100000 > "$T_DIR/times"
python3 "$NATIVE/tests/gen-frames.py" --seed 22 --count 30000 --format frameinfo > "$T_DIR/fi"
"$ASAN" --package asan.times < "$T_DIR/times" >/dev/null || t_fail "sanitized driver failed (times)"
"$ASAN" --package asan.fi --frameinfo < "$T_DIR/fi" >/dev/null || t_fail "sanitized driver failed (FrameInfo)"
[ "$(t_counter asan.times "Total frames rendered")" = "$("$OUT/bin/gfxstats-drive" --rules-only < "$T_DIR/times" | head -1)" ] \
  || t_fail "asan.times: counts differ from the rules"
[ "$(t_counter asan.fi "Total frames rendered")" = "$("$OUT/bin/gfxstats-drive" --rules-only --frameinfo < "$T_DIR/fi" | head -1)" ] \
  || t_fail "asan.fi: counts differ from the rules"
# A daemon restart while the sanitized client runs: it re-registers and the new daemon adopts.
mkfifo "$T_DIR/fifo"
"$ASAN" --package asan.restart < "$T_DIR/fifo" >"$T_DIR/restart.out" 2>&1 &
DRIVE=$!
T_PIDS+=("$DRIVE")
exec 3>"$T_DIR/fifo"
head -n 50000 "$T_DIR/times" >&3
t_wait_for 30 grep -q "register: new buffer asan.restart/" "$T_DIR/daemon.log" || t_fail "asan.restart did not register"
t_stop_daemon
t_start_daemon 3>&-
t_wait_for 30 grep -q "register: adopted asan.restart/" "$T_DIR/daemon.log" || t_fail "asan.restart was not adopted"
tail -n +50001 "$T_DIR/times" >&3
exec 3>&-
wait "$DRIVE" || { cat "$T_DIR/restart.out" >&2; t_fail "sanitized driver failed across a daemon restart"; }
[ "$(t_counter asan.restart "Total frames rendered")" = "$(t_counter asan.times "Total frames rendered")" ] \
  || t_fail "asan.restart: counts differ across the restart"
t_pass "ASan+UBSan client: 100000 + 30000 random frames and a daemon restart, counts exact"

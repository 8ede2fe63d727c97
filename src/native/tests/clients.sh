#!/usr/bin/env bash
# A C program (two windows on two threads, linked against libgfxstats.so) and a Python program
# (ctypes) against a real daemon: their dumps equal what the Java client (gfxstats record) counts
# for the same frames. The C program starts before the daemon: its first frames are counted in
# memory and handed over when the daemon answers.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gcc -std=gnu11 -Wall -Wextra -Werror -I"$NATIVE/include" -o "$T_DIR/example" "$NATIVE/tests/example.c" \
    -L"$OUT/lib" -lgfxstats -Wl,-rpath,"$OUT/lib" -pthread
export GFXSTATS_SOCKET="$T_DIR/state/gfxstatsd.sock"
"$T_DIR/example" c.example 400 "$T_DIR/c-frames" >"$T_DIR/c.out" 2>&1 &
C_PID=$!
T_PIDS+=("$C_PID")
t_start_daemon
python3 "$NATIVE/tests/example.py" "$OUT/lib/libgfxstats.so" py.example 300 "$T_DIR/py-frames" >/dev/null \
  || t_fail "the Python program failed"
wait "$C_PID" || { cat "$T_DIR/c.out" >&2; t_fail "the C program failed"; }
cat "$T_DIR/c-frames0" | gfx record --package java.c.example --version-code 5 --pipeline vulkan >/dev/null
cat "$T_DIR/c-frames1" | gfx record --package java.c.example --version-code 5 --pipeline vulkan >/dev/null
gfx record --package java.py.example --version-code 9 "$T_DIR/py-frames" >/dev/null
for p in c.example py.example; do
  t_counts "$p" | grep -v '^Version:' > "$T_DIR/$p.native"
  t_counts "java.$p" | grep -v '^Version:' > "$T_DIR/$p.java"
  diff "$T_DIR/$p.java" "$T_DIR/$p.native" >&2 || t_fail "$p: native and Java counts differ"
done
[ "$(t_counter c.example "Total frames rendered")" = 800 ] || t_fail "C: not 800 frames"
[ "$(t_counter py.example "Total frames rendered")" = 300 ] || t_fail "Python: not 300 frames"
janky="$(t_counter c.example "Janky frames")"
[ "$janky" -ge 1 ] || t_fail "C: no janky frame although every 50th takes 25 ms"
# More trackers than the buffer has writer stripes (16): the others count in their own memory and
# hand it over to the shared stripe at each drain; every frame arrives.
python3 "$NATIVE/tests/gen-frames.py" --seed 8 --count 50000 > "$T_DIR/many"
"$OUT/bin/gfxstats-drive" --package many.trackers --trackers 40 < "$T_DIR/many" >/dev/null || t_fail "40 trackers failed"
expected="$("$OUT/bin/gfxstats-drive" --rules-only < "$T_DIR/many" | head -1)"
[ "$(t_counter many.trackers "Total frames rendered")" = "$expected" ] \
  || t_fail "40 trackers: $(t_counter many.trackers "Total frames rendered") frames, expected $expected"
# The same, SIGKILLed right after every tracker was drained: the 24 trackers without a stripe of
# their own handed what they counted over to the shared stripe at their drains, so the daemon has
# every frame (before session 34 they kept it in the process's memory until their close: lost).
rc=0
{ "$OUT/bin/gfxstats-drive" --package many.killed --trackers 40 --wait-attached 30000 --drain-at-end --sigkill-at-end \
  < "$T_DIR/many" >/dev/null 2>"$T_DIR/many.log"; } 2>/dev/null || rc=$?
[ "$rc" = 137 ] || { cat "$T_DIR/many.log" >&2; t_fail "40 trackers, SIGKILLed: the driver was not SIGKILLed (exit $rc)"; }
t_wait_for 30 grep -qF "exit: many.killed/" "$T_DIR/daemon.log" || t_fail "the daemon did not see the driver of 40 trackers die"
[ "$(t_counter many.killed "Total frames rendered")" = "$expected" ] \
  || t_fail "40 trackers, SIGKILLed after their drains: $(t_counter many.killed "Total frames rendered") frames, expected $expected"
t_pass "C (800 frames, 2 threads, started before the daemon) and Python ctypes (300 frames) count as Java does; 40 trackers on 16 stripes lose nothing, also SIGKILLed after their drains"

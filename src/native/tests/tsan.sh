#!/usr/bin/env bash
# libgfxstats under ThreadSanitizer (make test-tsan; any report exits 66 and fails the test): the
# unit tests, then the TSan driver against a real daemon, where the recording thread appends to
# the rings while the session thread registers, attaches and drains them (and the recording
# thread's flushes drain them too): three trackers with scene switches, FrameInfo frames,
# FrameTimeline calls, a daemon restart mid-stream (re-registration, adoption) and a handover
# (daemon SIGKILLed, buffer files lost). Every dump must equal the plain build's for the same
# frames. Then an unmodified vkcube under Xvfb through the TSan build of the Vulkan layer, and
# gl-lookup and gl-swaps threads (surfaces destroyed beside another thread's swaps) through the TSan
# build of the GL hook.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_TSAN_FRAMES:-30000}"
SEED="${GFXSTATS_TSAN_SEED:-$RANDOM}"
TSAN="$OUT/tsan/gfxstats-drive"
PLAIN="$OUT/bin/gfxstats-drive"
make -s -C "$NATIVE" target/bin/gfxstats-drive test-tsan >"$T_DIR/unit.out" 2>&1 || { tail -40 "$T_DIR/unit.out" >&2; t_fail "make test-tsan failed"; }
export TSAN_OPTIONS="$T_TSAN_OPTIONS"

# The TSan driver as package tsan.$1 and the plain one as plain.$1, on file $2 with the further
# arguments: their dumps must be equal.
both() {
  local name=$1 file=$2
  shift 2
  "$TSAN" --package "tsan.$name" "$@" <"$file" >"$T_DIR/$name.out" 2>&1 \
    || { cat "$T_DIR/$name.out" >&2; t_fail "$name: the TSan driver failed"; }
  "$PLAIN" --package "plain.$name" "$@" <"$file" >/dev/null || t_fail "$name: the plain driver failed"
  same "tsan.$name" "plain.$name"
}

# Packages $1 and $2 have equal dumps, Android's and FrameTimeline's.
same() {
  local p
  for p in "$1" "$2"; do
    { t_counts "$p"; gfx dump --frametimeline --package "$p" | grep -v -e '^Package:' -e '^Stats since:' -e '^Stats end:'; } \
      >"$T_DIR/$p.dump"
  done
  grep -q "^Total frames rendered: [1-9]" "$T_DIR/$1.dump" || t_fail "$1: no frames in the dump"
  diff "$T_DIR/$2.dump" "$T_DIR/$1.dump" >&2 || t_fail "$1: the dump differs from $2's (seed $SEED)"
}

t_start_daemon
# Times with scene switches, FrameInfo, and a FrameTimeline stream.
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$N" --scene-rate 0.002 >"$T_DIR/times.txt"
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$((N / 3))" --format frameinfo >"$T_DIR/fi.txt"
python3 "$NATIVE/tests/gen-timeline.py" --seed "$SEED" --count "$((N / 3))" >"$T_DIR/timeline.txt"

both times "$T_DIR/times.txt" --trackers 3
both fi "$T_DIR/fi.txt" --frameinfo --replay
both timeline "$T_DIR/timeline.txt"

# A daemon restart while the TSan driver records: it registers again and the new daemon adopts.
mkfifo "$T_DIR/fifo"
"$TSAN" --package tsan.restart --trackers 3 <"$T_DIR/fifo" >"$T_DIR/restart.out" 2>&1 &
DRIVE=$!
T_PIDS+=("$DRIVE")
exec 3>"$T_DIR/fifo"
HALF=$(($(wc -l <"$T_DIR/times.txt") / 2))
head -n "$HALF" "$T_DIR/times.txt" >&3
t_wait_for 30 grep -q "register: new buffer tsan.restart/" "$T_DIR/daemon.log" || t_fail "tsan.restart did not register"
t_stop_daemon
t_start_daemon 3>&-
t_wait_for 30 grep -q "register: adopted tsan.restart/" "$T_DIR/daemon.log" || t_fail "tsan.restart was not adopted"
tail -n +"$((HALF + 1))" "$T_DIR/times.txt" >&3
exec 3>&-
wait "$DRIVE" || { cat "$T_DIR/restart.out" >&2; t_fail "the TSan driver failed across a daemon restart"; }
same tsan.restart plain.times

# The handover: the daemon SIGKILLed and its buffer files lost halfway.
t_drive_across_handover "$T_DIR/times.txt" "$TSAN" --trackers 3
same c.handover plain.times
# An unmodified vkcube (lavapipe, its own threads) through the TSan build of the Vulkan layer
# (lib.sh's t_tsan_vulkan). Exactly 300 frames.
t_start_xvfb
t_tsan_vulkan tsan.vkcube vkcube --c 300 >"$T_DIR/vkcube.out" 2>&1 \
  || { cat "$T_DIR/vkcube.out" >&2; t_fail "vkcube with the TSan layer failed"; }
t_wait_for 30 grep -q "exit: tsan.vkcube/" "$T_DIR/daemon.log" || t_fail "the daemon did not see vkcube exit"
FRAMES="$(t_counter tsan.vkcube "Total frames rendered")"
[ "$FRAMES" = 300 ] || { cat "$T_DIR/vkcube.out" >&2; t_fail "vkcube --c 300 with the TSan layer: ${FRAMES:-no} frames"; }
# The GL hook under TSan: tests/gl-lookup.c (libGL dlopen()ed privately, its swaps found through
# dlsym(handle), glXGetProcAddressARB and glXGetProcAddress in turn, dlsym(RTLD_NEXT) from the
# program checked) with libtsan preloaded before the TSan build of the hook. TSan's start-up
# looks its functions up through the hook's dlsym before its runtime exists; gl_hook.c keeps
# that path uninstrumented (without it: SIGSEGV). Exactly its 150 swaps, no report.
make -s -C "$NATIVE" target/tsan/lib/libgfxstats_gl.so >"$T_DIR/gl.out" 2>&1 \
  || { cat "$T_DIR/gl.out" >&2; t_fail "the TSan GL hook did not build"; }
gcc -std=gnu11 -Wall -Wextra -Werror -o "$T_DIR/gl-lookup" "$NATIVE/tests/gl-lookup.c" -ldl -lX11 \
  || t_fail "tests/gl-lookup.c does not build"
GFXSTATS_PACKAGE=tsan.gl GL_LOOKUP_EXPECT_HOOK=1 TSAN_OPTIONS="$TSAN_OPTIONS suppressions=$NATIVE/tests/tsan-apps.supp" \
  LD_PRELOAD="$(gcc -print-file-name=libtsan.so.2) $OUT/tsan/lib/libgfxstats_gl.so" "$T_DIR/gl-lookup" 150 all \
  >"$T_DIR/gl-lookup.out" 2>&1 || { cat "$T_DIR/gl-lookup.out" >&2; t_fail "gl-lookup with the TSan GL hook failed"; }
grep -qx "drew 150" "$T_DIR/gl-lookup.out" || { cat "$T_DIR/gl-lookup.out" >&2; t_fail "gl-lookup did not draw 150 frames"; }
t_wait_for 30 grep -q "exit: tsan.gl/" "$T_DIR/daemon.log" || t_fail "the daemon did not see gl-lookup exit"
FRAMES="$(t_counter tsan.gl "Total frames rendered")"
[ "$FRAMES" = 150 ] || { cat "$T_DIR/gl-lookup.out" >&2; t_fail "gl-lookup 150 with the TSan GL hook: ${FRAMES:-no} frames"; }
# Surfaces destroyed while another thread is inside its swaps (tests/gl-swaps.c threads): the
# hook's count of swaps in progress and its retired list, under TSan.
gcc -std=gnu11 -Wall -Wextra -Werror -o "$T_DIR/gl-swaps" "$NATIVE/tests/gl-swaps.c" -ldl -lX11 \
  || t_fail "tests/gl-swaps.c does not build"
GFXSTATS_PACKAGE=tsan.gl.threads TSAN_OPTIONS="$TSAN_OPTIONS suppressions=$NATIVE/tests/tsan-apps.supp" \
  LD_PRELOAD="$(gcc -print-file-name=libtsan.so.2) $OUT/tsan/lib/libgfxstats_gl.so" "$T_DIR/gl-swaps" threads 400 \
  >"$T_DIR/gl-threads.out" 2>&1 || { cat "$T_DIR/gl-threads.out" >&2; t_fail "gl-swaps threads with the TSan GL hook failed"; }
t_wait_for 30 grep -q "exit: tsan.gl.threads/" "$T_DIR/daemon.log" || t_fail "the daemon did not see gl-swaps threads exit"
THREADS="$(t_counter tsan.gl.threads "Total frames rendered")"
[ "$THREADS" = 500 ] || { cat "$T_DIR/gl-threads.out" >&2; t_fail "gl-swaps threads 400 with the TSan GL hook: ${THREADS:-no} frames, not 500"; }
t_pass "$(sed -n "s/^unit: \([0-9]*\) checks.*/\1/p" "$T_DIR/unit.out") unit checks under TSan; $N times frames on 3 trackers, $((N / 3)) FrameInfo frames, $((N / 3)) FrameTimeline frames (seed $SEED), a daemon restart and a handover: no report, dumps equal the plain build's; vkcube --c 300 through the TSan layer: 300 frames; gl-lookup through the TSan GL hook: 150 of 150 swaps, gl-swaps threads 500 of 500; no report"

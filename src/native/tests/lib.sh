# Shared by the native end-to-end tests: a private daemon (and X server) on a temporary
# directory, every process started here killed and the directory removed on exit, success or not.
set -euo pipefail
NATIVE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$NATIVE/../.." && pwd)"
OUT="$NATIVE/target"
T_DIR="$(mktemp -d "${TMPDIR:-/tmp}/gfxstats-native.XXXXXX")"
T_PIDS=()
T_DISPLAYS=()
T_NAME="$(basename "$0")"

t_cleanup() {
  local rc=$? p
  for p in "${T_PIDS[@]}"; do
    kill -KILL "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  # A killed X server leaves its lock and socket behind: remove those of the servers started here.
  for p in "${T_DISPLAYS[@]}"; do
    rm -f "/tmp/.X$p-lock" "/tmp/.X11-unix/X$p"
  done
  if [ "$rc" != 0 ] && [ -f "$T_DIR/daemon.log" ]; then
    echo "--- $T_NAME: daemon log (last 30 lines)" >&2
    tail -30 "$T_DIR/daemon.log" >&2 || true
  fi
  rm -rf "$T_DIR"
  exit "$rc"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM

# The test's own standard error, for t_fail inside a command whose output goes to a file.
exec {T_STDERR}>&2
t_fail() {
  echo "FAIL $T_NAME: $*" >&"$T_STDERR"
  exit 1
}

# Waits until the command succeeds, at most $1 seconds. It is tried again after 50 ms, or after as
# long as it took if that was longer: a check that starts a JVM (gfx dump, 0.2-0.4 s of CPU) would
# otherwise keep a CPU busy, taken from the program and the daemon the test is waiting for.
t_wait_for() {
  local limit=$1 start=$SECONDS t0 pause
  shift
  while t0=${EPOCHREALTIME/./}; ! "$@" >/dev/null 2>&1; do
    [ $((SECONDS - start)) -lt "$limit" ] || return 1
    pause=$((${EPOCHREALTIME/./} - t0))
    [ "$pause" -ge 50000 ] || pause=50000
    sleep "$((pause / 1000000)).$(printf %06d $((pause % 1000000)))"
  done
}

# Succeeds once the daemon log says more than $1 daemons started.
t_daemons_started_over() { [ "$(grep -c "gfxstatsd started" "$T_DIR/daemon.log" || true)" -gt "$1" ]; }

# Starts a daemon on $T_DIR/state with the options given; sets GFXSTATS_SOCKET and DAEMON_PID, and
# T_DAEMON_ARGS to the options (a restart after t_kill_daemon uses them again).
t_start_daemon() {
  local before
  T_DAEMON_ARGS=("$@")
  mkdir -p "$T_DIR/state"
  # The log holds the earlier daemons' lines too: this one has started once there is one more.
  before="$(grep -c "gfxstatsd started" "$T_DIR/daemon.log" 2>/dev/null || true)"
  # No hsperfdata file: a daemon these tests SIGKILL could not remove it from /tmp.
  GFXSTATSD_JAVA_OPTS="-XX:-UsePerfData ${GFXSTATSD_JAVA_OPTS:-}" \
    "$ROOT/scripts/gfxstatsd" --no-build --state-dir "$T_DIR/state" "$@" >>"$T_DIR/daemon.log" 2>&1 &
  DAEMON_PID=$!
  T_PIDS+=("$DAEMON_PID")
  export GFXSTATS_SOCKET="$T_DIR/state/gfxstatsd.sock"
  t_wait_for 60 t_daemons_started_over "${before:-0}" || t_fail "the daemon did not start"
}

t_stop_daemon() {
  kill -TERM "$DAEMON_PID"
  wait "$DAEMON_PID" 2>/dev/null || true
}

# An X server on a free display; sets DISPLAY. Xvfb picks the display itself (-displayfd: it takes
# the first whose lock it can create), so that tests running at once never share one. -noreset:
# by default the server resets when its last client is gone, and a client that connects during
# the reset can be refused; the tests start programs one after another on one server, the next
# often just after the last was SIGKILLed (postmortem.sh once failed so: vkcubepp's "Cannot
# connect to XCB" right after vkcube).
t_start_xvfb() {
  local file="$T_DIR/xvfb.${#T_DISPLAYS[@]}" n
  Xvfb -displayfd 5 -screen 0 640x480x24 -nolisten tcp -noreset 5>"$file.display" >"$file.log" 2>&1 &
  T_PIDS+=($!)
  # Written once the server accepts connections.
  t_wait_for 20 grep -q "^[0-9][0-9]*$" "$file.display" || { cat "$file.log" >&2; t_fail "no X server could be started"; }
  n="$(cat "$file.display")"
  T_DISPLAYS+=("$n")
  export DISPLAY=":$n"
}

# The Java client's side of the differential tests (tests/*Drive.java), compiled once into
# $OUT/drives against the product jar: a source-file launch compiles on every run (2.4 s of CPU
# against 0.15 s here). run-all compiles them before any test starts, so that no two tests compile
# into the same directory at once.
t_compile_drives() {
  local stamp="$OUT/drives/.compiled"
  [ -n "${GFX_JAR:-}" ] || source "$ROOT/scripts/lib.sh"
  if [ -f "$stamp" ] && [ ! "$GFX_JAR" -nt "$stamp" ] \
      && [ -z "$(find "$NATIVE/tests" -maxdepth 1 -name '*.java' -newer "$stamp")" ]; then
    return 0
  fi
  rm -rf "$OUT/drives"
  mkdir -p "$OUT/drives"
  javac -nowarn -d "$OUT/drives" -cp "$GFX_JAR" "$NATIVE"/tests/*.java >"$T_DIR/javac.out" 2>&1 \
    || { cat "$T_DIR/javac.out" >&2; t_fail "tests/*.java do not compile against $GFX_JAR"; }
  touch "$stamp"
}

# Runs the Java drive $1 (tests/$1.java) with the arguments after it; the test has called
# t_compile_drives first (not here: a drive may start in a subshell, beside another).
t_java_drive() {
  local name=$1
  shift
  java "${GFX_JVM_FLAGS[@]}" -cp "$GFX_JAR:$OUT/drives" "$name" "$@"
}

# ThreadSanitizer's options for the TSan builds: any report exits 66, which fails the test.
T_TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"

# Runs an unmodified Vulkan program (the command line) through the TSan build of the layer as
# package $1: libtsan preloaded (the layer's runtime must be there before any thread starts), the
# layer found through its own manifest (XDG_DATA_HOME too, so that no installed one is found as
# well), tests/tsan-apps.supp for the libraries that are not ours (tsan.sh, present-wait.sh).
t_tsan_vulkan() {
  local pkg=$1
  shift
  make -s -C "$NATIVE" target/tsan/share/vulkan/implicit_layer.d/gfxstats_layer.json >"$T_DIR/tsan-layer.out" 2>&1 \
    || { cat "$T_DIR/tsan-layer.out" >&2; t_fail "the TSan layer did not build"; }
  GFXSTATS=1 GFXSTATS_PACKAGE="$pkg" XDG_DATA_HOME="$T_DIR/xdg" \
    XDG_DATA_DIRS="$OUT/tsan/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
    TSAN_OPTIONS="$T_TSAN_OPTIONS suppressions=$NATIVE/tests/tsan-apps.supp" \
    LD_PRELOAD="$(gcc -print-file-name=libtsan.so.2)" "$@"
}

# Khronos' mock Vulkan driver (in Debian's chromium-common): it offers every extension and renders
# nothing (present-wait.sh, bench-layers.sh --present-wait). Writes a manifest naming it and sets
# T_MOCK_ICD to it, for VK_ICD_FILENAMES.
t_mock_icd() {
  local lib=/usr/lib/chromium/libVkICD_mock_icd.so
  [ -f "$lib" ] || t_fail "$lib is missing (Debian's chromium-common; scripts/ci-deps installs it)"
  T_MOCK_ICD="$T_DIR/mock.json"
  printf '{"file_format_version": "1.0.1", "ICD": {"library_path": "%s", "api_version": "1.3.0"}}\n' "$lib" >"$T_MOCK_ICD"
}

# Runs a command on the mock driver (after t_mock_icd).
t_on_mock() { VK_ICD_FILENAMES="$T_MOCK_ICD" "$@"; }

# The value of FrameTimeline counter $1 in a `dump --frametimeline` on standard input.
t_ft_value() { sed -n "s/^$1 = \([0-9]*\)$/\1/p"; }

# A FrameTimeline counter $2 of package $1 (`dump --frametimeline`), 0 without an entry.
t_timeline() {
  local v
  v="$(gfx dump --frametimeline --package "$1" | t_ft_value "$2")"
  echo "${v:-0}" # a package without FrameTimeline counters has no entry
}

gfx() {
  "$ROOT/scripts/gfxstats" "$@"
}

# The dump block of one package without the lines that name it or its times.
t_counts() {
  gfx dump --package "$1" | grep -v -e '^Package:' -e '^Stats since:' -e '^Stats end:'
}

# Package $1's `gfxstats scenes --json` into file $2, with the package's name replaced by PACKAGE,
# so that two packages' scenes can be compared with diff.
t_scenes_json() {
  gfx scenes --package "$1" --json | sed "s/${1//./\\.}/PACKAGE/g" > "$2"
}

# A counter line of a package's dump, e.g. t_counter vkcube "Total frames rendered".
t_counter() {
  gfx dump --package "$1" | sed -n "s/^$2: \([0-9]*\).*/\1/p"
}

# Succeeds once the daemon has logged package $1's registration at least $2 times.
t_registered() { [ "$(grep -c "register: new buffer $1/" "$T_DIR/daemon.log")" -ge "$2" ]; }

# Succeeds once package $1's dump counts at least $2 frames.
t_has_frames() { [ "$(t_counter "$1" "Total frames rendered" 2>/dev/null || true)" -ge "$2" ] 2>/dev/null; }

# SIGKILLs the daemon; its clients keep running and keep their buffer files (t_start_daemon starts
# the next one, which adopts them).
t_kill_daemon() {
  kill -KILL "$DAEMON_PID"
  wait "$DAEMON_PID" 2>/dev/null || true
}

# The daemon SIGKILLed during a Vulkan run (kill.sh, and m32app.sh at 32 bits): `gfxstats run` of
# vkcube $1 --c $2 as package $3; once it has registered and while it still draws, the daemon is
# SIGKILLed and a new one started on the same state. The layer's session registers again and the
# new daemon adopts its buffer, so the dump must hold exactly $2 frames: none lost, none twice.
t_vkcube_across_daemon_kill() {
  local vkcube=$1 n=$2 pkg=$3 vk got state
  "$ROOT/scripts/gfxstats" run --package "$pkg" -- "$vkcube" --c "$n" >"$T_DIR/$pkg.out" 2>&1 &
  vk=$!
  T_PIDS+=("$vk")
  t_wait_for 30 t_registered "$pkg" 1 || { cat "$T_DIR/$pkg.out" >&2; t_fail "$pkg did not register"; }
  t_kill_daemon
  # Still drawing (not exited, not a zombie): otherwise the kill was not during the run.
  state="$(awk '{print $3}' "/proc/$vk/stat" 2>/dev/null || true)"
  [ -n "$state" ] && [ "$state" != Z ] || t_fail "$pkg had ended before the daemon was killed: give it more than $n frames"
  t_start_daemon "${T_DAEMON_ARGS[@]}" 3>&-
  wait "$vk" || { cat "$T_DIR/$pkg.out" >&2; t_fail "$vkcube failed across the daemon's SIGKILL"; }
  t_wait_for 30 grep -q "exit: $pkg/" "$T_DIR/daemon.log" || t_fail "the new daemon did not see $pkg exit"
  got="$(t_counter "$pkg" "Total frames rendered" 2>/dev/null || true)"
  [ "$got" = "$n" ] || t_fail "daemon SIGKILL during $vkcube --c $n: ${got:-no} frames in the dump"
}

# A drawing program (pid $1, counted as package $2) stopped and then SIGKILLed: the daemon must
# keep at least what the dump showed while it was stopped, and add at most what the program's
# ring can hold: a stopped process's ring is not drained, so what it held is counted only after the
# SIGKILL, from its ring stripe in the buffer (docs/native.md, "A SIGKILL of the app";
# postmortem.sh checks that count exactly). Sets T_KEPT to the count after the kill.
t_sigkill_keeps() {
  local pid=$1 pkg=$2 before after
  kill -STOP "$pid"
  before="$(t_counter "$pkg" "Total frames rendered")"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null || true
  t_wait_for 30 grep -qF "exit: $pkg/" "$T_DIR/daemon.log" || t_fail "the daemon did not see $pkg exit"
  after="$(t_counter "$pkg" "Total frames rendered")"
  # 1638: the times-path frames one tracker's ring holds (lib/ring.h, GFX_RING_FRAMES).
  [ "$after" -ge "$before" ] && [ "$after" -le $((before + 1638)) ] \
    || t_fail "$pkg SIGKILL: $before frames while stopped, $after after"
  T_KEPT=$after
}

# Runs `gfxstats ARGS...` under a hang guard of T_HANG_GUARD_S seconds and fails if the guard
# ended it, with $T_HUNG as the reason if set; returns the run's status otherwise. The guard is
# far beyond any run's time on a loaded machine: it tells a run that hung, not a slow one.
T_HANG_GUARD_S=${T_HANG_GUARD_S:-300}
t_gfx_guarded() {
  local rc=0
  timeout -k 10 "$T_HANG_GUARD_S" "$ROOT/scripts/gfxstats" "$@" || rc=$?
  [ "$rc" != 124 ] && [ "$rc" != 137 ] \
    || t_fail "gfxstats $*: ${T_HUNG:-hung}: still running after $T_HANG_GUARD_S s"
  return "$rc"
}

# t_gfx_guarded with the layer's and the hook's waits for the daemon at an hour each
# (GFXSTATS_OPEN_WAIT_MS, GFXSTATS_CLOSE_WAIT_MS): a run that waits for a daemon that is not there
# or refuses reaches the guard, one that does not wait ends long before it. So the check is that
# the waits ended by themselves, not how long the run took.
t_gfx_no_wait() {
  GFXSTATS_OPEN_WAIT_MS=3600000 GFXSTATS_CLOSE_WAIT_MS=3600000 T_HUNG="it waited for the daemon" \
    t_gfx_guarded "$@"
}

# A full daemon's refusal (vkcube.sh; m32app.sh at 32 bits): a daemon with buffers.max=1 held by
# another client refuses vkcube $1; vkcube runs as usual, does not wait for the daemon at its first
# swapchain or at exit (t_gfx_no_wait), and says why in one line (the trailers' grpc-status and
# grpc-message). Leaves that daemon running.
t_vkcube_refused() {
  local vkcube=$1 holder
  t_start_daemon --set buffers.max=1
  mkfifo "$T_DIR/hold"
  "$OUT/bin/gfxstats-drive" --package holder < "$T_DIR/hold" >/dev/null 2>&1 &
  holder=$!
  T_PIDS+=("$holder")
  exec 3>"$T_DIR/hold"
  t_wait_for 30 grep -q "register: new buffer holder/" "$T_DIR/daemon.log" || t_fail "the holder did not register"
  t_gfx_no_wait run -- "$vkcube" --c 100 >"$T_DIR/refused.out" 2>&1 || { cat "$T_DIR/refused.out" >&2; t_fail "$vkcube failed when refused"; }
  grep -q "gfxstats: the daemon did not register vkcube: RESOURCE_EXHAUSTED: " "$T_DIR/refused.out" \
    || { cat "$T_DIR/refused.out" >&2; t_fail "$vkcube: no one-line reason for the refusal"; }
  exec 3>&-
  wait "$holder" || true
  rm -f "$T_DIR/hold"
}

# Scenes through `gfxstats run` (layer-scenes.sh; m32app.sh at 32 bits) with vkcube $1, packages
# named after $2: `--scene intro` counts all of a vkcube --c 200 in intro (none in default);
# `--scene-file` (a relative path, the program started elsewhere) follows the file while a vkcube
# --c 3000 runs ("menu", then "level 1" written as a user would), and the scenes' frames add up
# to the dump's total, none in default. Sets T_SCENES (what was counted, for t_pass).
t_layer_scenes() {
  local vkcube=$1 intro="$2.intro" cube="$2.scenecube" total menu level
  gfx run --package "$intro" --scene intro -- "$vkcube" --c 200 >"$T_DIR/intro.out" 2>&1 \
    || { cat "$T_DIR/intro.out" >&2; t_fail "$vkcube failed"; }
  [ "$(t_frames_in "$intro" intro)" = 200 ] || { t_scene_frames "$intro" >&2; t_fail "--scene intro: not 200 frames in intro"; }
  [ -z "$(t_frames_in "$intro" default)" ] || [ "$(t_frames_in "$intro" default)" = 0 ] \
    || t_fail "--scene intro: frames in default"
  # vkcube ends by itself (a SIGKILL could fall between a frame's total and its scene's count).
  # The launcher execs sh, which execs vkcube, so $! is vkcube. The scene file is named relative
  # to the directory gfxstats run starts in, and the program is started from another one (as a
  # game that cds into its data): the library must still find the file.
  echo menu > "$T_DIR/scene"
  (cd "$T_DIR" && exec "$ROOT/scripts/gfxstats" run --package "$cube" --scene-file scene \
      -- sh -c 'cd / && exec "$0" --c 3000' "$vkcube") >"$T_DIR/cube.out" 2>&1 &
  local pid=$!
  T_PIDS+=("$pid")
  above() { [ "$(t_frames_in "$cube" "$1")" -gt "$2" ] 2>/dev/null; }
  t_wait_for 60 above menu 50 || { cat "$T_DIR/cube.out" >&2; t_fail "no frames in menu"; }
  printf 'level 1\n' > "$T_DIR/scene.new" && mv "$T_DIR/scene.new" "$T_DIR/scene"
  t_wait_for 60 above "level 1" 0 || t_fail "the scene file's change did not reach the frames"
  wait "$pid" || { cat "$T_DIR/cube.out" >&2; t_fail "$vkcube --c 3000 failed"; }
  total=$(t_counter "$cube" "Total frames rendered")
  [ "$total" = 3000 ] || t_fail "--scene-file: $total frames, not 3000"
  menu=$(t_frames_in "$cube" menu)
  level=$(t_frames_in "$cube" "level 1")
  [ $((menu + level)) = "$total" ] || { t_scene_frames "$cube" >&2; t_fail "menu $menu + level 1 $level != total $total"; }
  [ -z "$(t_frames_in "$cube" default)" ] || [ "$(t_frames_in "$cube" default)" = 0 ] || t_fail "frames in default"
  T_SCENES="--scene: 200 of 200 frames in intro; --scene-file: $menu frames in menu, then $level in level 1, of $total"
}

# Frames per scene of package $1, from `gfxstats scenes --json`: "NAME=N" lines.
t_scene_frames() {
  gfx scenes --package "$1" --json | python3 -c '
import json, sys
def walk(x):
    if isinstance(x, dict):
        if "scene" in x:
            print("%s=%s" % (x["scene"], x.get("totalFrames", 0)))
        for v in x.values():
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.load(sys.stdin))'
}

# The frames of package $1 in scene $2 (empty when the scene has none).
t_frames_in() { t_scene_frames "$1" | sed -n "s/^$2=//p"; }

# The program SIGKILLed (kill.sh, and m32app.sh at 32 bits): vkcube $1, drawing without end as
# package $2 through `gfxstats run`, is stopped once the dump shows 500 frames and SIGKILLed
# (t_sigkill_keeps). Sets T_KEPT.
t_vkcube_sigkill() {
  local vkcube=$1 pkg=$2 vk
  "$ROOT/scripts/gfxstats" run --package "$pkg" -- "$vkcube" --c 1000000 >"$T_DIR/$pkg.out" 2>&1 &
  vk=$!
  T_PIDS+=("$vk")
  t_wait_for 30 t_registered "$pkg" 1 || { cat "$T_DIR/$pkg.out" >&2; t_fail "$pkg did not register"; }
  t_wait_for 30 t_has_frames "$pkg" 500 || t_fail "$pkg counted no 500 frames"
  t_sigkill_keeps "$vk" "$pkg"
}

# A program through `gfxstats run` as package $1, SIGKILLed by the layer or the hook right after its
# $2th present (GFXSTATS_TEST_SIGKILL_AFTER); the rest is the command: exactly $2 frames in the dump.
# Sets T_SIGKILLED to "N of N (R from its ring)", R being what the daemon counted from its ring
# stripe after the death (its log).
t_sigkill_after() {
  local pkg=$1 k=$2 rc=0 got from_ring
  shift 2
  { GFXSTATS_TEST_SIGKILL_AFTER=$k "$ROOT/scripts/gfxstats" run --package "$pkg" -- "$@" \
    >"$T_DIR/$pkg.out" 2>&1; } 2>/dev/null || rc=$?
  [ "$rc" = 137 ] || { cat "$T_DIR/$pkg.out" >&2; t_fail "$pkg was not SIGKILLed after $k presents (exit $rc)"; }
  t_wait_for 30 grep -qF "exit: $pkg/" "$T_DIR/daemon.log" || t_fail "the daemon did not see $pkg die"
  got="$(t_counter "$pkg" "Total frames rendered")"
  [ "$got" = "$k" ] || t_fail "$pkg SIGKILLed after $k presents: ${got:-no} frames in the dump"
  from_ring="$(sed -n "s/.*ring: buffer ${pkg//./\\.}\/.*: counted \([0-9]*\) entries.*/\1/p" "$T_DIR/daemon.log" | tail -1)"
  T_SIGKILLED="$k of $k (${from_ring:-0} from its ring)"
}

# A Vulkan program $1 (vkcube or vkcubepp) drawing without end as package $2, SIGKILLed after its
# Nth present, N random in 300..999 (postmortem.sh, and m32app.sh at 32 bits): t_sigkill_after.
t_vulkan_sigkill_after() {
  t_sigkill_after "$2" "$((300 + RANDOM % 700))" "$1" --c 1000000
}

# Feeds the lines of file $1 to a sanitized driver (package c.handover) through a FIFO: the first
# half, then the daemon SIGKILLed and its buffer files lost, a new daemon, the second half. The
# driver must register again and move everything it counted into the new buffer (the handover);
# any sanitizer report fails it. $2: the driver, target/asan/gfxstats-drive unless given (tsan.sh
# passes the ThreadSanitizer one, with TSAN_OPTIONS exported); further arguments go to it.
t_drive_across_handover() {
  local stream=$1 drv="${2:-$OUT/asan/gfxstats-drive}" half drive
  shift $(($# < 2 ? $# : 2))
  [ -x "$drv" ] || make -s -C "$NATIVE" "target/${drv#"$OUT"/}" >/dev/null
  mkfifo "$T_DIR/handover.fifo"
  ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$drv" --package c.handover --version-code 1 "$@" < "$T_DIR/handover.fifo" >"$T_DIR/handover.out" 2>&1 &
  drive=$!
  T_PIDS+=("$drive")
  exec 3>"$T_DIR/handover.fifo"
  half=$(($(wc -l < "$stream") / 2))
  head -n "$half" "$stream" >&3
  t_wait_for 30 t_registered c.handover 1 || t_fail "c.handover did not register"
  t_kill_daemon
  rm -f "$T_DIR"/state/buffers/*
  t_start_daemon 3>&-
  t_wait_for 30 t_registered c.handover 2 || t_fail "c.handover did not register again"
  tail -n +"$((half + 1))" "$stream" >&3
  exec 3>&-
  wait "$drive" || { cat "$T_DIR/handover.out" >&2; t_fail "the sanitized driver failed across the handover"; }
}

# The fewest frames MangoHud must log in its 2 s window for a comparison with it to mean
# anything: enough for the percentiles of t_vkcube_with_mangohud (nearest rank of 10: the 5th, 9th
# and 10th). How many fall into the window depends on the load: 35 once, a 32-bit lavapipe vkcube
# beside two other tests and the benchmarks' module; 19 with two busy loops beside the whole build
# as well (session 23), where that run took 41 s and gfxstats still counted all 1,500; 38 of the
# 32-bit glxgears there (session 24, m32app.sh).
T_MANGO_MIN_LOGGED=10

# MangoHud as the peer for what a present is, on one Vulkan run (mangohud.sh; m32app.sh at 32
# bits): vkcube $1 --c $2 as package $3 through `gfxstats run` with MangoHud's layer loaded too
# (MANGOHUD=1, every frame logged from 1 s after the start for 2 s). gfxstats must count exactly
# the $2 presents. The two measure different spans, so their distributions differ by design:
# MangoHud's frame time is the present-to-present interval, gfxstats' (Android's frame duration)
# the app's work between the return of one present and the call of the next, and Android's
# histogram starts at 5 ms. So each gfxstats percentile must be at most MangoHud's for the same
# percentile plus one 1 ms bucket, or 5 ms: a work time longer than the interval that holds it
# would be a wrong frame boundary. MangoHud logs only its window (and nothing if the app exits
# during it), so the count is compared with the app's own. Sets T_MANGO_REPORT.
t_vkcube_with_mangohud() {
  local vkcube=$1 n=$2 pkg=$3 dir="$T_DIR/mango.$3" total csv logged dump p ours theirs
  mkdir -p "$dir"
  MANGOHUD=1 MANGOHUD_CONFIG="output_folder=$dir,autostart_log=1,log_duration=2,log_interval=0" \
    gfx run --package "$pkg" -- "$vkcube" --c "$n" >"$dir.out" 2>&1 || { cat "$dir.out" >&2; t_fail "$vkcube failed with MangoHud loaded"; }
  total="$(t_counter "$pkg" "Total frames rendered")"
  [ "$total" = "$n" ] || { gfx dump --package "$pkg" >&2; t_fail "$vkcube --c $n with MangoHud loaded: $total frames"; }
  csv="$(ls "$dir"/*.csv 2>/dev/null | grep -v _summary | head -1)"
  [ -n "$csv" ] || { cat "$dir.out" >&2; t_fail "MangoHud wrote no CSV for $vkcube (its layer did not run, or the program exited before its log window ended)"; }
  # The CSV: two lines of system info, a header, then one line per frame (log_interval=0) with the
  # frame time in microseconds in the second column.
  tail -n +4 "$csv" | cut -d, -f2 | sort -n >"$dir.us"
  logged="$(wc -l <"$dir.us")"
  [ "$logged" -ge "$T_MANGO_MIN_LOGGED" ] && [ "$logged" -lt "$n" ] || t_fail "MangoHud logged $logged frames of $n of $vkcube"
  dump="$(gfx dump --package "$pkg")"
  T_MANGO_REPORT="$pkg: gfxstats $total frames, MangoHud logged $logged in its window;"
  for p in 50 90 95 99; do
    ours="$(sed -n "s/^${p}th percentile: \([0-9]*\)ms.*/\1/p" <<<"$dump")"
    # MangoHud's percentile p (nearest rank) in whole milliseconds, rounded down as Android's buckets are.
    theirs="$(awk -v p="$p" -v n="$logged" 'NR == int((n * p + 99) / 100) { printf "%d", $1 / 1000 }' "$dir.us")"
    [ -n "$ours" ] && [ -n "$theirs" ] || t_fail "$pkg: no ${p}th percentile (gfxstats '$ours', MangoHud '$theirs')"
    [ "$ours" -le $((theirs + 1)) ] || [ "$ours" -le 5 ] \
      || { echo "$dump" >&2; t_fail "$pkg: ${p}th percentile: gfxstats ${ours} ms of work in a MangoHud interval of ${theirs} ms"; }
    T_MANGO_REPORT="$T_MANGO_REPORT p$p ${ours}/${theirs} ms"
  done
}

# MangoHud as the peer on an OpenGL program that draws without end (mangohud.sh; m32app.sh at 32
# bits), which the caller started as `gfxstats run -- mangohud PROGRAM` with MANGOHUD_CONFIG
# output_folder=$1 (and a log window): once MangoHud has written its log, gfxstats must come to
# count at least every frame MangoHud logged in package $2, plus those before MangoHud's window.
# The program keeps drawing while that is awaited: its newest frames wait in the ring for the
# session thread's drain (at most 50 ms), so a stopped one would not show them (docs/native.md,
# "The frame ring and the drain"); the exact count against MangoHud is vkcube's. $3: the
# program's output, shown when MangoHud wrote no log. Sets T_MANGO_LOGGED. At least
# T_MANGO_MIN_LOGGED frames in MangoHud's window, so that the comparison is not empty.
t_mangohud_gl_peer() {
  local dir=$1 pkg=$2 out=$3 csv
  mango_logged() { ls "$dir"/*_summary.csv >/dev/null 2>&1; }
  t_wait_for 90 mango_logged || { cat "$out" >&2; t_fail "MangoHud wrote no log of $pkg"; }
  csv="$(ls "$dir"/*.csv | grep -v _summary | head -1)"
  T_MANGO_LOGGED=$(($(wc -l <"$csv") - 3))
  [ "$T_MANGO_LOGGED" -ge "$T_MANGO_MIN_LOGGED" ] || t_fail "MangoHud logged $T_MANGO_LOGGED frames of $pkg"
  t_wait_for 30 t_has_frames "$pkg" "$T_MANGO_LOGGED" \
    || t_fail "$pkg: gfxstats counted $(t_counter "$pkg" "Total frames rendered") frames, MangoHud logged $T_MANGO_LOGGED in its window alone"
}

# No ld.so or loader complaint in a program's output (a library of the wrong class, a layer that
# did not load): $1 the output, $2 the program as the failure names it.
t_clean_output() {
  ! grep -E "ld\.so|wrong ELF class|ERROR|libgfxstats" "$1" >&2 || t_fail "$2 wrote the lines above"
}

# A command prefix that adds apitrace's tracer (the next argument, a path) to the LD_PRELOAD that
# gfxstats run set, then execs the program after it: `gfxstats run -- "${T_TRACED[@]}" TRACER PROG
# ARGS...`. So only the program loads the tracer (not the scripts on the way, which may be of another
# class), and the pid waited for is the program's. Not through gfx (a function): the same reason.
T_TRACED=(sh -c 'LD_PRELOAD="$LD_PRELOAD:$0" exec "$@"')

# How many calls of $2 (glXSwapBuffers, eglSwapBuffers) the apitrace trace $1 holds, by the apitrace
# in $T_APITRACE_BIN (else on PATH).
t_trace_swaps() {
  "${T_APITRACE_BIN:+$T_APITRACE_BIN/}apitrace" dump "$1" 2>/dev/null | grep -c "^[0-9]* $2(" || true
}

# Exact GLX and EGL counts with unmodified programs (glxgears.sh at 64 bits, m32app.sh at 32):
# apitrace's tracer records a program while gfxstats counts it, and apitrace's replayer replays the
# recording through gfxstats run. A replay swaps exactly as often as the recording holds swap calls,
# and says so itself ("Rendered N frames"): the trace's count, the replayer's and the dump's must be
# equal, whatever the recording's length. A recording runs until the dump shows 300 of its frames
# and ends with an Escape key sent to the program's window, on which glxgears and es2gears_x11 leave
# their loop and exit normally; the tracer writes the trace at exit. (SIGTERM lost the trace at
# times: the tracer's handler skips the write when the signal lands while it holds its lock. xkill,
# which closes the program's X connection, at times left es2gears_x11 swapping for 20 s more before
# Xlib noticed: its EGL draws through xcb, which does not exit on a lost connection.)
# T_APITRACE_ARCH: the programs' multiarch directory (x86_64-linux-gnu, i386-linux-gnu), where
# the tracers and libEGL are; T_APITRACE_BIN: where apitrace and its replayers are.
# $1 the tracer (glxtrace.so, egltrace.so), $2 the program, $3 its window's name, $4 its replayer,
# $5 the swap call, $6 the packages' stem ($6.traced, $6.replay). Sets T_SWAPS.
t_apitrace_replay_exact() {
  local tracer=$1 prog=$2 window=$3 retrace=$4 call=$5 name=$6 pid wid rendered got
  local lib="/usr/lib/$T_APITRACE_ARCH" libs="$T_DIR/lib.$T_APITRACE_ARCH"
  # The replayers dlopen libEGL.so and libGLESv2.so by the unversioned names only the -dev packages
  # provide: links in the test's directory, on LD_LIBRARY_PATH, stand in for those. eglretrace
  # opens libEGL privately (RTLD_LOCAL): the hook's fallback for that case is checked here.
  if [ ! -d "$libs" ]; then
    mkdir -p "$libs"
    ln -s "$lib/libEGL.so.1" "$libs/libEGL.so"
    ln -s "$lib/libGLESv2.so.2" "$libs/libGLESv2.so"
  fi
  TRACE_FILE="$T_DIR/$name.trace" "$ROOT/scripts/gfxstats" run --package "$name.traced" -- \
    "${T_TRACED[@]}" "$lib/apitrace/wrappers/$tracer" "$prog" >"$T_DIR/$name.rec.out" 2>&1 &
  pid=$!
  T_PIDS+=("$pid")
  t_wait_for 60 t_has_frames "$name.traced" 300 || { cat "$T_DIR/$name.rec.out" >&2; t_fail "$prog under apitrace's tracer: no 300 frames counted"; }
  wid="$(xwininfo -root -tree | awk -v w="\"$window\":" '$2 == w { print $1; exit }')"
  [ -n "$wid" ] || { xwininfo -root -tree >&2; t_fail "no window \"$window\" of $prog"; }
  # Only the key press: the program is gone before a release could reach its window.
  xdotool keydown --window "$wid" Escape >"$T_DIR/$name.xdotool.out" 2>&1 || { cat "$T_DIR/$name.xdotool.out" >&2; t_fail "xdotool could not send Escape to $prog"; }
  wait "$pid" || { cat "$T_DIR/$name.rec.out" >&2; t_fail "$prog under apitrace's tracer did not exit cleanly on Escape"; }
  grep -q "apitrace: unloaded from" "$T_DIR/$name.rec.out" || { cat "$T_DIR/$name.rec.out" >&2; t_fail "apitrace's tracer wrote no trace of $prog"; }
  T_SWAPS="$(t_trace_swaps "$T_DIR/$name.trace" "$call")"
  [ "$T_SWAPS" -ge 300 ] || t_fail "the trace of $prog holds $T_SWAPS $call calls, not 300 or more"
  # --package: glretrace renames its process after the traced program.
  LD_LIBRARY_PATH="$libs" gfx run --package "$name.replay" -- "$T_APITRACE_BIN/$retrace" "$T_DIR/$name.trace" \
    >"$T_DIR/$name.replay.out" 2>&1 || { cat "$T_DIR/$name.replay.out" >&2; t_fail "$retrace failed under gfxstats run"; }
  rendered="$(sed -n 's/^Rendered \([0-9]*\) frames in .*/\1/p' "$T_DIR/$name.replay.out")"
  [ "$rendered" = "$T_SWAPS" ] || { cat "$T_DIR/$name.replay.out" >&2; t_fail "$retrace rendered ${rendered:-no} frames of a trace with $T_SWAPS $call calls"; }
  t_clean_output "$T_DIR/$name.replay.out" "$T_APITRACE_ARCH $retrace"
  t_wait_for 30 grep -q "exit: $name.replay/" "$T_DIR/daemon.log" || t_fail "the daemon did not see $retrace exit"
  got="$(t_counter "$name.replay" "Total frames rendered" 2>/dev/null || true)"
  [ "$got" = "$T_SWAPS" ] || t_fail "$T_APITRACE_ARCH $retrace replayed $T_SWAPS $call calls, the dump has ${got:-no} frames"
}

# One run of tests/gl-swaps.c (built as $1) in mode $2, 150 swaps through gfxstats run into package
# $3, must give exactly 150 frames (it is run once without gfxstats first, which must succeed).
# $4: the list its "swaps:" line must hold (empty for oml, which prints none). $5 names the
# run in failures. The environment passes to both runs (angle.sh: which EGL, which backend).
t_gl_swaps_counted() {
  local bin=$1 mode=$2 pkg=$3 swaps=$4 what=$5 out="$T_DIR/$3.out" got
  "$bin" "$mode" 30 >/dev/null || t_fail "$what fails without the hook"
  gfx run --package "$pkg" -- "$bin" "$mode" 150 >"$out" 2>&1 || { cat "$out" >&2; t_fail "$what failed under gfxstats run"; }
  grep -qx "drew 150" "$out" || { cat "$out" >&2; t_fail "$what did not draw 150 frames"; }
  [ -z "$swaps" ] || grep -qx "swaps: $swaps" "$out" || { cat "$out" >&2; t_fail "$what did not swap through $swaps"; }
  t_clean_output "$out" "$what"
  t_wait_for 30 grep -q "exit: $pkg/" "$T_DIR/daemon.log" || t_fail "the daemon did not see $what exit"
  got="$(t_counter "$pkg" "Total frames rendered" 2>/dev/null || true)"
  [ "$got" = 150 ] || t_fail "$what: 150 swaps, the dump has ${got:-none}"
}

# The extensions' swaps, exact (gl-lookup.sh at 64 bits, m32app.sh at 32): tests/gl-swaps.c built
# as $1 draws 150 frames in each mode through gfxstats run into package $2.egl / $2.oml: a third
# each through eglSwapBuffers and the two damage swaps, half each through glXSwapBuffers and
# glXSwapBuffersMscOML. Before the hook knew the extensions' swaps, it counted 50 and 75. $3 names
# the build in failures ("32-bit ", or empty).
t_gl_swaps_exact() {
  t_gl_swaps_counted "$1" egl "$2.egl" "eglSwapBuffers eglSwapBuffersWithDamageKHR eglSwapBuffersWithDamageEXT" "${3}gl-swaps egl"
  t_gl_swaps_counted "$1" oml "$2.oml" "" "${3}gl-swaps oml"
}

t_pass() {
  echo "PASS $T_NAME${1:+: $1}"
}

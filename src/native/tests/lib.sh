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

t_fail() {
  echo "FAIL $T_NAME: $*" >&2
  exit 1
}

# Waits until the command succeeds, at most $1 seconds (polling every 50 ms).
t_wait_for() {
  local limit=$1 start=$SECONDS
  shift
  until "$@" >/dev/null 2>&1; do
    [ $((SECONDS - start)) -lt "$limit" ] || return 1
    sleep 0.05
  done
}

# Starts a daemon on $T_DIR/state; sets GFXSTATS_SOCKET and DAEMON_PID.
t_start_daemon() {
  mkdir -p "$T_DIR/state"
  # No hsperfdata file: a daemon these tests SIGKILL could not remove it from /tmp.
  GFXSTATSD_JAVA_OPTS="-XX:-UsePerfData ${GFXSTATSD_JAVA_OPTS:-}" \
    "$ROOT/scripts/gfxstatsd" --no-build --state-dir "$T_DIR/state" "$@" >>"$T_DIR/daemon.log" 2>&1 &
  DAEMON_PID=$!
  T_PIDS+=("$DAEMON_PID")
  export GFXSTATS_SOCKET="$T_DIR/state/gfxstatsd.sock"
  t_wait_for 60 grep -q "gfxstatsd started" "$T_DIR/daemon.log" || t_fail "the daemon did not start"
}

t_stop_daemon() {
  kill -TERM "$DAEMON_PID"
  wait "$DAEMON_PID" 2>/dev/null || true
}

# An X server on a free display; sets DISPLAY.
t_start_xvfb() {
  local n
  for n in $(seq 90 140); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
    Xvfb ":$n" -screen 0 640x480x24 -nolisten tcp >"$T_DIR/xvfb.log" 2>&1 &
    T_PIDS+=($!)
    T_DISPLAYS+=("$n")
    if t_wait_for 20 test -e "/tmp/.X11-unix/X$n"; then
      export DISPLAY=":$n"
      return 0
    fi
  done
  t_fail "no X server could be started"
}

gfx() {
  "$ROOT/scripts/gfxstats" "$@"
}

# The dump block of one package without the lines that name it or its times.
t_counts() {
  gfx dump --package "$1" | grep -v -e '^Package:' -e '^Stats since:' -e '^Stats end:'
}

# A counter line of a package's dump, e.g. t_counter vkcube "Total frames rendered".
t_counter() {
  gfx dump --package "$1" | sed -n "s/^$2: \([0-9]*\).*/\1/p"
}

t_pass() {
  echo "PASS $T_NAME${1:+: $1}"
}

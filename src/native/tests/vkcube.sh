#!/usr/bin/env bash
# An unmodified Vulkan program through `gfxstats run`: vkcube --c N under Xvfb (lavapipe) gives
# exactly N frames in `gfxstats dump` under package vkcube (the program's name), and N more on a
# second run; --package and --version-code name another entry. Refused by a full daemon, without
# a daemon, or with one that does not answer, it runs as usual.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v vkcube >/dev/null || t_fail "vkcube is not installed (scripts/ci-deps)"
t_start_daemon
t_start_xvfb
gfx run -- vkcube --c 300 >"$T_DIR/vkcube.out" 2>&1 || { cat "$T_DIR/vkcube.out" >&2; t_fail "vkcube failed"; }
[ "$(t_counter vkcube "Total frames rendered")" = 300 ] || { gfx dump >&2; t_fail "vkcube --c 300: not 300 frames"; }
gfx run -- vkcube --c 177 >/dev/null 2>&1 || t_fail "second vkcube failed"
[ "$(t_counter vkcube "Total frames rendered")" = 477 ] || t_fail "two runs: not 477 frames"
gfx run --package com.example.cube --version-code 42 -- vkcube --c 50 >/dev/null 2>&1 || t_fail "vkcube --package failed"
gfx dump --package com.example.cube | grep -qx "Version: 42" || t_fail "no version 42 entry"
[ "$(t_counter com.example.cube "Total frames rendered")" = 50 ] || t_fail "--package: not 50 frames"
[ "$(t_counter vkcube "Total frames rendered")" = 477 ] || t_fail "--package run counted under vkcube"
# A package name over 255 characters set in the environment (gfxstats run refuses it itself): the
# library refuses the session with one line, and nothing is counted under the first 255 of them.
long="$(printf 'a%.0s' $(seq 300))"
XDG_DATA_DIRS="$OUT/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" GFXSTATS=1 GFXSTATS_PACKAGE="$long" \
  vkcube --c 5 >"$T_DIR/long.out" 2>&1 || { cat "$T_DIR/long.out" >&2; t_fail "vkcube with a 300-character package name failed"; }
grep -q "session not opened: package name \"$long\"" "$T_DIR/long.out" \
  || { cat "$T_DIR/long.out" >&2; t_fail "no line refusing the 300-character package name"; }
if gfx dump | grep -q "^Package: ${long:0:255}"; then t_fail "counted under the package name's first 255 characters"; fi
# Prebuilt libraries named by a relative GFXSTATS_NATIVE_DIR, the program started from another
# directory: the layer and the hook are still found.
(cd "$NATIVE" && GFXSTATS_NATIVE_DIR=target "$ROOT/scripts/gfxstats" run --package vk.prebuilt \
    -- sh -c 'cd / && exec vkcube --c 25') >"$T_DIR/prebuilt.out" 2>&1 \
  || { cat "$T_DIR/prebuilt.out" >&2; t_fail "vkcube with GFXSTATS_NATIVE_DIR=target failed"; }
[ "$(t_counter vk.prebuilt "Total frames rendered")" = 25 ] \
  || { cat "$T_DIR/prebuilt.out" >&2; t_fail "GFXSTATS_NATIVE_DIR=target (relative), vkcube started from /: not 25 frames"; }
# A daemon that refuses (full: buffers.max=1, held by another client): vkcube runs as usual,
# does not wait for it, and says why in one line.
t_stop_daemon
t_vkcube_refused vkcube
# No daemon: the program runs and exits as usual, without waiting for one.
t_stop_daemon
GFXSTATS_SOCKET="$T_DIR/none.sock" t_gfx_no_wait run -- vkcube --c 100 >"$T_DIR/none.out" 2>&1 \
  || { cat "$T_DIR/none.out" >&2; t_fail "vkcube without a daemon failed"; }
# A daemon that does not answer (SIGSTOPped: the kernel still takes the connection and the
# registration): the layer waits for it at most GFXSTATS_OPEN_WAIT_MS at the first swapchain and
# GFXSTATS_CLOSE_WAIT_MS at exit, and says in one line that the frames were not kept.
t_start_daemon
kill -STOP "$DAEMON_PID"
GFXSTATS_OPEN_WAIT_MS=300 GFXSTATS_CLOSE_WAIT_MS=300 t_gfx_guarded run --package vk.stalled -- vkcube --c 100 \
  >"$T_DIR/stalled.out" 2>&1 || { cat "$T_DIR/stalled.out" >&2; t_fail "vkcube with a daemon that does not answer failed"; }
# A digit too many in a wait (the library takes an int32: it wrapped to 14 days): ignored with one
# line, and exit waits the default 2 s for the daemon that does not answer.
GFXSTATS_OPEN_WAIT_MS=300 GFXSTATS_CLOSE_WAIT_MS=99999999999 T_HANG_GUARD_S=60 \
  t_gfx_guarded run --package vk.stalled.env -- vkcube --c 20 >"$T_DIR/env.out" 2>&1 \
  || { cat "$T_DIR/env.out" >&2; t_fail "vkcube with GFXSTATS_CLOSE_WAIT_MS=99999999999 failed"; }
grep -qxF "gfxstats: ignoring GFXSTATS_CLOSE_WAIT_MS=99999999999 (not a whole number from 0 to 2147483647)" "$T_DIR/env.out" \
  || { cat "$T_DIR/env.out" >&2; t_fail "no line ignoring GFXSTATS_CLOSE_WAIT_MS=99999999999"; }
kill -CONT "$DAEMON_PID"
grep -q "100 frames of vk.stalled were counted before a daemon answered and are not kept (the daemon did not answer in time)" \
  "$T_DIR/stalled.out" || { cat "$T_DIR/stalled.out" >&2; t_fail "no line saying that the daemon did not answer"; }
# A peer on the socket that is not a daemon: it takes the connection and sends HTTP/2 PINGs without
# end, never reading a byte, so the library's acks pile up in the socket. vkcube runs and exits as
# usual; until session 34 its exit hung for good (the library's thread blocked sending the acks,
# and the session's close joins it).
python3 -c '
import socket, sys, threading
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(16)
ping = bytes([0, 0, 8, 6, 0, 0, 0, 0, 0]) + b"pingping"
def flood(c):
    try:
        while True:
            c.sendall(ping * 512)
    except OSError:
        c.close()
while True:
    c, _ = s.accept()
    threading.Thread(target=flood, args=(c,), daemon=True).start()
' "$T_DIR/flood.sock" &
FLOOD=$!
T_PIDS+=("$FLOOD")
t_wait_for 30 test -S "$T_DIR/flood.sock" || t_fail "the PING flood's socket did not appear"
GFXSTATS_SOCKET="$T_DIR/flood.sock" GFXSTATS_CLOSE_WAIT_MS=300 T_HANG_GUARD_S=60 T_HUNG="its exit hung on a peer that does not read" \
  t_gfx_guarded run --package vk.flood -- vkcube --c 100 >"$T_DIR/flood.out" 2>&1 \
  || { cat "$T_DIR/flood.out" >&2; t_fail "vkcube with a peer that floods PINGs failed"; }
kill "$FLOOD"
# A daemon (or a peer posing as one) whose buffer this process cannot use (here a path that does
# not exist; as well a file of another user, or of another process): the library says so in one
# line, although it asks again every few seconds (before session 34, a line at every call).
python3 -c '
import socket, sys, threading
path, rid = b"/nonexistent/gfxstats/c.vk.unusable-1-2-ab12.gfxbuf", b"ab12"
inner = bytes([0x0a, len(path)]) + path + bytes([0x12, len(rid)]) + rid + bytes([0x18, 2, 0x20, 0x80, 0x40])
event = bytes([0x0a, len(inner)]) + inner
def frame(kind, flags, stream, payload):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload
def literal(name, value):
    return b"\0" + bytes([len(name)]) + name + bytes([len(value)]) + value
answer = (frame(4, 0, 0, b"") + frame(1, 4, 1, literal(b":status", b"200") + literal(b"content-type", b"application/grpc"))
          + frame(0, 0, 1, b"\0" + len(event).to_bytes(4, "big") + event) + frame(1, 5, 1, literal(b"grpc-status", b"0")))
def serve(c):
    try:
        c.sendall(answer)
        while c.recv(4096):
            pass
    except OSError:
        pass
    c.close()
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(16)
calls = 0
while True:
    c, _ = s.accept()
    calls += 1
    with open(sys.argv[2], "w") as f:
        f.write(str(calls))
    threading.Thread(target=serve, args=(c,), daemon=True).start()
' "$T_DIR/unusable.sock" "$T_DIR/unusable.calls" &
UNUSABLE=$!
T_PIDS+=("$UNUSABLE")
t_wait_for 30 test -S "$T_DIR/unusable.sock" || t_fail "the unusable daemon's socket did not appear"
GFXSTATS_SOCKET="$T_DIR/unusable.sock" GFXSTATS_CLOSE_WAIT_MS=300 T_HANG_GUARD_S=60 \
  t_gfx_guarded run --package vk.unusable -- vkcube --c 2000 >"$T_DIR/unusable.out" 2>&1 \
  || { cat "$T_DIR/unusable.out" >&2; t_fail "vkcube with a daemon whose buffer it cannot use failed"; }
kill "$UNUSABLE"
calls="$(cat "$T_DIR/unusable.calls")"
lines="$(grep -c "cannot count into the daemon's buffer: cannot open buffer /nonexistent/" "$T_DIR/unusable.out" || true)"
[ "$calls" -ge 3 ] || t_fail "vkcube asked the unusable daemon $calls times in its run, not 3 or more (a shorter run?)"
[ "$lines" = 1 ] || { cat "$T_DIR/unusable.out" >&2; t_fail "$lines lines for $calls answers with a buffer that cannot be used, not 1"; }
grep -q "2000 frames of vk.unusable were counted before a daemon answered and are not kept (the buffer the daemon named could not be used)" \
  "$T_DIR/unusable.out" || { cat "$T_DIR/unusable.out" >&2; t_fail "no line at exit saying why the frames were not kept"; }
t_pass "300 + 177 frames under vkcube, 50 under com.example.cube, 25 through a relative GFXSTATS_NATIVE_DIR, a 300-character package name refused, runs when refused, without a daemon, with one that does not answer and with a peer that floods PINGs and reads nothing; $lines line for $calls answers with a buffer it cannot use; a wait out of range ignored with a line"

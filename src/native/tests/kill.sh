#!/usr/bin/env bash
# SIGKILLs lose and double nothing:
#  1. the daemon killed during a vkcube run and restarted: vkcube --c N still gives exactly N
#     (the layer's session re-registers and the new daemon adopts its buffer);
#  2. vkcube killed mid-run: the dump keeps exactly what it showed while vkcube was stopped;
#  3. the daemon killed and its buffer file lost: the restarted daemon hands out a new buffer, the
#     client moves everything over (handover), and the count stays exact.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_start_daemon 3>&-
t_start_xvfb
live() { t_counter "$1" "Total frames rendered"; }

# 1. daemon SIGKILL during vkcube (package vkcube, as its name gives).
t_vkcube_across_daemon_kill vkcube 3000 vkcube

# 2. vkcube SIGKILL.
t_vkcube_sigkill vkcube vk.killed

# 3. daemon SIGKILL and the buffer file lost: handover into a new buffer.
mkfifo "$T_DIR/frames"
"$OUT/bin/gfxstats-drive" --package drive.handover < "$T_DIR/frames" >"$T_DIR/drive.out" 2>&1 &
DRIVE=$!
T_PIDS+=("$DRIVE")
exec 3>"$T_DIR/frames"
python3 "$NATIVE/tests/gen-frames.py" --seed 3 --count 20000 > "$T_DIR/all"
head -n 10000 "$T_DIR/all" >&3
t_wait_for 30 t_has_frames drive.handover 1 || t_fail "drive.handover counted nothing"
t_kill_daemon
rm -f "$T_DIR"/state/buffers/*
t_start_daemon 3>&-
t_wait_for 30 t_registered drive.handover 2 || t_fail "drive.handover did not register again"
tail -n +10001 "$T_DIR/all" >&3
exec 3>&-
wait "$DRIVE" || { cat "$T_DIR/drive.out" >&2; t_fail "gfxstats-drive failed"; }
"$OUT/bin/gfxstats-drive" --rules-only < "$T_DIR/all" | head -1 > "$T_DIR/expected"
[ "$(live drive.handover)" = "$(cat "$T_DIR/expected")" ] \
  || t_fail "handover: $(live drive.handover) frames, the rules count $(cat "$T_DIR/expected")"
t_pass "daemon SIGKILL during vkcube (3000 of 3000), vkcube SIGKILL ($T_KEPT kept), handover after a lost buffer (exact)"

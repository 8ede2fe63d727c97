#!/usr/bin/env bash
# 32-bit builds: libgfxstats, the layer, the hook and gfxstats-drive built with -m32 (make m32);
# the unit tests at 32 bits under ASan and UBSan; and the same random frames (times path with
# scene switches, and FrameInfo) recorded by the 32-bit and the 64-bit gfxstats-drive into one
# real daemon give identical dumps and `gfxstats scenes --json`, also when the sanitized 32-bit drive
# crosses a daemon SIGKILL with its buffer file lost (the handover). Skipped, saying so, when no
# 32-bit toolchain is installed (scripts/ci-deps installs gcc-multilib, lib32asan8, lib32ubsan1).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_DIFF_FRAMES:-200000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
if ! echo 'int main(void){return 0;}' | gcc -m32 -x c -o "$T_DIR/probe" - >/dev/null 2>&1; then
  echo "SKIP $T_NAME: no 32-bit toolchain (install gcc-multilib, lib32asan8, lib32ubsan1: scripts/ci-deps)"
  exit 0
fi
make -s -C "$NATIVE" m32 >"$T_DIR/build.log" 2>&1 || { tail -20 "$T_DIR/build.log" >&2; t_fail "make m32 failed"; }
for f in lib/libgfxstats.so.1 lib/libgfxstats_layer.so lib/libgfxstats_gl.so bin/gfxstats-drive; do
  file -L "$OUT/m32/$f" | grep -q "ELF 32-bit" || t_fail "$f is not a 32-bit ELF"
done
GFXSTATS_QUIET=1 ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  "$OUT/m32/asan/unit" > "$T_DIR/unit.out" 2>&1 || { tail -20 "$T_DIR/unit.out" >&2; t_fail "the 32-bit unit tests failed"; }
t_start_daemon
# A times stream with scene switches (Matrix's float arithmetic at 32 bits: SSE2, not x87; every
# frame kept, as in tests/scenes.sh), and a FrameInfo stream.
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$N" --scene-rate 0.002 \
  --scene-names "menu|level 1|Größe|" > "$T_DIR/times.txt"
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$((N / 3))" --format frameinfo > "$T_DIR/frameinfo.txt"
for kind in times frameinfo; do
  flags=()
  [ "$kind" = frameinfo ] && flags=(--frameinfo --replay)
  # --wait-attached: "attached" in the 32-bit drive's last line is then the registration's
  # outcome, not a race between a short stream and the daemon's answer (close waits either way).
  "$OUT/bin/gfxstats-drive" --package "b64.$kind" --version-code 1 --wait-attached 30000 "${flags[@]}" < "$T_DIR/$kind.txt" >/dev/null \
    || t_fail "$kind: the 64-bit gfxstats-drive failed"
  "$OUT/m32/bin/gfxstats-drive" --package "b32.$kind" --version-code 1 --wait-attached 30000 "${flags[@]}" < "$T_DIR/$kind.txt" \
    >"$T_DIR/b32.out" 2>&1 || { cat "$T_DIR/b32.out" >&2; t_fail "$kind: the 32-bit gfxstats-drive failed"; }
  grep -q "recorded .* frames$" "$T_DIR/b32.out" || { cat "$T_DIR/b32.out" >&2; t_fail "$kind: the 32-bit drive did not attach"; }
  for side in b64 b32; do
    t_counts "$side.$kind" > "$T_DIR/$side.$kind.dump"
    t_scenes_json "$side.$kind" "$T_DIR/$side.$kind.json"
  done
  grep -q "^Total frames rendered: [1-9]" "$T_DIR/b32.$kind.dump" || t_fail "$kind: no frames from the 32-bit drive"
  diff "$T_DIR/b64.$kind.dump" "$T_DIR/b32.$kind.dump" >&2 || t_fail "$kind: 32-bit and 64-bit dumps differ (seed $SEED)"
  diff "$T_DIR/b64.$kind.json" "$T_DIR/b32.$kind.json" >&2 || t_fail "$kind: 32-bit and 64-bit scenes differ (seed $SEED)"
done
# A handover at 32 bits: the sanitized 32-bit driver loses its daemon and its buffer file halfway
# through the times stream and moves everything it counted into the new daemon's buffer; the
# result must equal the 64-bit drive's counts of the whole stream.
t_drive_across_handover "$T_DIR/times.txt" "$OUT/m32/asan/gfxstats-drive"
t_counts c.handover > "$T_DIR/c.handover.dump"
t_scenes_json c.handover "$T_DIR/c.handover.json"
diff "$T_DIR/b64.times.dump" "$T_DIR/c.handover.dump" >&2 \
  || t_fail "handover: the 32-bit drive's counts across a lost buffer differ from the 64-bit drive's (seed $SEED)"
diff "$T_DIR/b64.times.json" "$T_DIR/c.handover.json" >&2 \
  || t_fail "handover: the 32-bit drive's scenes across a lost buffer differ from the 64-bit drive's (seed $SEED)"
t_pass "32-bit library, layer, hook and driver built; $(tail -1 "$T_DIR/unit.out") unit checks at 32 bits under ASan/UBSan; $N times and $((N / 3)) FrameInfo frames (seed $SEED) counted alike by the 32-bit and 64-bit drives, also across a handover at 32 bits"

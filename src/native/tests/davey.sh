#!/usr/bin/env bash
# Davey lines from C = from Java: the same random frames (about one in a hundred of 700 ms or
# more) recorded through libgfxstats with its default Davey report (one line on stderr) and
# through the Java client with DaveyListener.logging() give the same "Davey! duration=...ms; ..."
# lines byte for byte (after each logger's own prefix), on the times path and the FrameInfo path
# under the modern rules and on the FrameInfo path under the Android 9 rules.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_DAVEY_FRAMES:-20000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
t_compile_drives
t_start_daemon
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$N" > "$T_DIR/times.txt"
# The FrameInfo stream's frames stay under 700 ms: one in 50 is made 800 ms longer from
# SwapBuffers on (a slow swap).
python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$((N / 2))" --format frameinfo | python3 -c '
import random, sys
r = random.Random(int(sys.argv[1]))
for line in sys.stdin:
    f = [int(x) for x in line.split(",")]
    if r.random() < 0.02:
        for k in (15, 16, 19, 20, 21, 22):
            if f[k] > 0:
                f[k] += 800_000_000
    print(",".join(map(str, f)))
' "$SEED" > "$T_DIR/frameinfo.txt"
source "$ROOT/scripts/lib.sh"
run_case() {
  local name=$1 stream=$2 c_flags=$3 java_opts=$4
  # shellcheck disable=SC2086
  "$OUT/bin/gfxstats-drive" --package "c.$name" --version-code 1 --davey log $c_flags < "$T_DIR/$stream.txt" \
    >/dev/null 2>"$T_DIR/c.$name.err" || { tail -5 "$T_DIR/c.$name.err" >&2; t_fail "$name: gfxstats-drive failed"; }
  # shellcheck disable=SC2086
  t_java_drive SceneDrive "java.$name" "$GFXSTATS_SOCKET" \
    davey=log $java_opts < "$T_DIR/$stream.txt" >/dev/null 2>"$T_DIR/java.$name.err" \
    || { tail -5 "$T_DIR/java.$name.err" >&2; t_fail "$name: the Java client failed"; }
  sed -n 's/^gfxstats: \(Davey! .*\)$/\1/p' "$T_DIR/c.$name.err" > "$T_DIR/c.$name.davey"
  sed -n 's/^.* \[INFO\] davey - \(Davey! .*\)$/\1/p' "$T_DIR/java.$name.err" > "$T_DIR/java.$name.davey"
  [ -s "$T_DIR/java.$name.davey" ] || { head -3 "$T_DIR/java.$name.err" >&2; t_fail "$name: no Davey line from Java"; }
  cmp "$T_DIR/java.$name.davey" "$T_DIR/c.$name.davey" >&2 \
    || { diff "$T_DIR/java.$name.davey" "$T_DIR/c.$name.davey" | head -4 >&2; t_fail "$name: C and Java Davey lines differ (seed $SEED)"; }
  echo "$name: $(wc -l < "$T_DIR/c.$name.davey") Davey lines alike" >&2
}
run_case times times "" ""
run_case frameinfo frameinfo "--frameinfo --replay" "frameinfo"
run_case android9 frameinfo "--frameinfo --replay --rules android9" "frameinfo rules=android9"
# Off means off.
"$OUT/bin/gfxstats-drive" --package c.off --version-code 1 --davey off < "$T_DIR/times.txt" >/dev/null 2>"$T_DIR/off.err"
grep -q "Davey!" "$T_DIR/off.err" && t_fail "--davey off still wrote Davey lines"
t_pass "Davey lines of $N times and $((N / 2)) FrameInfo frames (seed $SEED) identical to the Java client's"

#!/usr/bin/env bash
# Scene options from C against the Java client, end to end: the same random stream with tracker
# scene switches ("@SINCE,NAME") and session default-scene switches ("@@SINCE,NAME") recorded by
# libgfxstats (gfxstats-drive with the gfxstats_options scene fields) and by the Java client
# (tests/SceneDrive.java with the same SceneOptions) into one real daemon gives the same
# `gfxstats scenes --json` and the same dump, for: a scene limit of 4 with another default scene
# and Matrix's legacy mode with other level bounds; the time mode at a configured 10 Hz (its
# scaled bounds make 0 dropped frames MIDDLE); scenes off. Times and FrameInfo paths.
# GFXSTATS_DIFF_FRAMES (default 200000) sets the times stream's length, FrameInfo a third of it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
N="${GFXSTATS_DIFF_FRAMES:-200000}"
SEED="${GFXSTATS_DIFF_SEED:-$RANDOM}"
t_compile_drives
t_start_daemon
# As tests/scenes.sh (every frame kept, hours-long ones too), a third of the switches being
# default-scene switches.
with_scenes() {
  python3 "$NATIVE/tests/gen-frames.py" --seed "$SEED" --count "$1" --format "$2" --scene-rate "$3" \
    --default-share 0.3333 --scene-names "menu|level 1|Größe|設定|(other)|default|home|" --scene-numbered 6
}
with_scenes "$N" times 0.003 > "$T_DIR/times.txt"
with_scenes "$((N / 3))" frameinfo 0.009 > "$T_DIR/frameinfo.txt"
source "$ROOT/scripts/lib.sh"
run_case() {
  local name=$1 kind=$2 c_flags=$3 java_opts=$4 c_kind=() java_kind=()
  [ "$kind" = frameinfo ] && c_kind=(--frameinfo --replay) java_kind=(frameinfo)
  # shellcheck disable=SC2086
  "$OUT/bin/gfxstats-drive" --package "c.$name" --version-code 1 "${c_kind[@]}" $c_flags < "$T_DIR/$kind.txt" \
    >/dev/null 2>"$T_DIR/c.log" || { tail -5 "$T_DIR/c.log" >&2; t_fail "$name: gfxstats-drive failed"; }
  # shellcheck disable=SC2086
  t_java_drive SceneDrive "java.$name" "$GFXSTATS_SOCKET" \
    "${java_kind[@]}" $java_opts < "$T_DIR/$kind.txt" >/dev/null 2>"$T_DIR/java.log" \
    || { tail -5 "$T_DIR/java.log" >&2; t_fail "$name: the Java client failed"; }
  for side in c java; do
    t_scenes_json "$side.$name" "$T_DIR/$side.$name.json"
    t_counts "$side.$name" > "$T_DIR/$side.$name.dump"
  done
  grep -q "^Total frames rendered: [1-9]" "$T_DIR/c.$name.dump" || t_fail "$name: no frames in the dump"
  diff "$T_DIR/java.$name.json" "$T_DIR/c.$name.json" >&2 || t_fail "$name: C and Java scenes differ (seed $SEED)"
  diff "$T_DIR/java.$name.dump" "$T_DIR/c.$name.dump" >&2 || t_fail "$name: C and Java dumps differ (seed $SEED)"
}
for kind in times frameinfo; do
  run_case "limit-legacy-$kind" "$kind" "--scene-max 4 --default-scene home --matrix legacy --levels 2,5,10,20" \
    "scene-max=4 default-scene=home matrix=legacy levels=2,5,10,20"
  # 4 names and "(other)": the limit holds, and the default scene is "home".
  [ "$(grep -c '"scene"' "$T_DIR/c.limit-legacy-$kind.json")" = 5 ] \
    || t_fail "limit-legacy-$kind: not 5 scenes with a limit of 4"
  grep -q '"scene" *: *"home"' "$T_DIR/c.limit-legacy-$kind.json" || t_fail "limit-legacy-$kind: no scene home"
  run_case "time-$kind" "$kind" "--matrix time --refresh-hz 10 --levels 1,2,3,4" "matrix=time refresh-hz=10 levels=1,2,3,4"
  run_case "off-$kind" "$kind" "--no-scenes" "scenes=off"
  grep -q '"scene"' "$T_DIR/c.off-$kind.json" && t_fail "off-$kind: scenes counted with scenes off"
done
t_pass "$N times frames and $((N / 3)) FrameInfo frames (seed $SEED) with scene and default-scene switches counted alike under three sets of scene options"

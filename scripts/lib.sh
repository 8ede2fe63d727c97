# Shared by the launch scripts: locate the project, build the jar when missing or stale,
# and the JVM flags every gfxstats process needs (chronicle-bytes maps buffers through JDK internals).
# Without dirname and a subshell: every `gfxstats dump` pays for this file's processes.
case "${BASH_SOURCE[0]}" in
  */*) GFX_ROOT="${BASH_SOURCE[0]%/*}/.." ;;
  *) GFX_ROOT=".." ;;
esac
GFX_ROOT="$(cd "$GFX_ROOT" && pwd)"
# GFXSTATS_CLASSPATH runs the scripts from that classpath instead of the jar, without building
# (tests run scripts/demo against the classpath Maven built for them).
GFX_JAR="${GFXSTATS_CLASSPATH:-$GFX_ROOT/target/gfxstats.jar}"
# chronicle-core reads ./system.properties at start unless told otherwise: every JVM gets this.
GFX_BASE_FLAGS=(-Dsystem.properties=/dev/null)
GFX_JVM_FLAGS=(
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
  --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED
  "${GFX_BASE_FLAGS[@]}"
)

gfx_jar_stale() {
  [ ! -f "$GFX_JAR" ] || [ -n "$(find "$GFX_ROOT/src/main" "$GFX_ROOT/proto" "$GFX_ROOT/pom.xml" -newer "$GFX_JAR" -print -quit 2>/dev/null)" ]
}

# Several commands may start at once (the demo starts four): one builds, the others wait for it.
gfx_build_if_needed() {
  [ -z "${GFXSTATS_CLASSPATH:-}" ] || return 0
  gfx_jar_stale || return 0
  mkdir -p "$GFX_ROOT/target"
  (
    flock 9
    if gfx_jar_stale; then
      echo "gfxstats: building $GFX_JAR ..." >&2
      (cd "$GFX_ROOT" && mvn -B -q -DskipTests package) >&2 || { echo "gfxstats: build failed" >&2; exit 2; }
    fi
  ) 9>"$GFX_ROOT/target/.build.lock" || exit 2
}

# Short-lived command-line JVMs (scripts/gfxstats). `gfxstats dump` is typed by people, so start-up
# time matters more than peak speed: C1 only, the serial collector, no perf-data file, no Netty
# JFR allocation events (their first use initializes JFR: ~100 ms), plus the class-data archive below.
GFX_CLI_FLAGS=(
  -XX:TieredStopAtLevel=1
  -XX:+UseSerialGC
  -XX:-UsePerfData
  -Xshare:auto
  -Dio.grpc.netty.shaded.io.netty.jfr.enabled=false
)
# AppCDS (JDK 17 dynamic archive) of every class the command line loads, recorded by a training
# run of io.gfxstats.cli.CdsTraining. Rebuilt when the jar, the JDK or the flags change; when it
# cannot be built or used the command runs without it, silently (GFXSTATS_CDS=0 turns it off).
GFX_CDS_ARCHIVE="$GFX_ROOT/target/gfxstats-cli.jsa"
# Netty's native libraries, copied out of the jar by the training run: loaded from here, Netty
# skips extracting them into a temporary file on every start. The JDK's default path follows.
GFX_NATIVE_DIR="$GFX_ROOT/target/native"
GFX_LIBRARY_PATH=(-Djava.library.path="$GFX_NATIVE_DIR:/usr/java/packages/lib:/usr/lib64:/lib64:/lib:/usr/lib")
# CDS warnings go to stdout by default, where they would corrupt `dump --proto`.
GFX_CDS_QUIET=(-Xlog:cds=off -Xlog:cds+dynamic=off)

# What the archive was made for: the JVM validates the jar itself, but a JDK upgraded in place would
# only make it useless, not be noticed. Sets GFX_CDS_IDENTITY with one `stat` as the only process
# (this runs before every command).
gfx_cds_identity() {
  local dir java_bin=java files
  for dir in ${PATH//:/ }; do
    if [ -x "$dir/java" ]; then java_bin="$dir/java"; break; fi
  done
  # -L: the JDK's real java binary behind the alternatives links; its size and date change with the JDK.
  files="$(stat -L -c '%n %s %Y' "$GFX_JAR" "$java_bin" 2>/dev/null || echo missing)"
  GFX_CDS_IDENTITY="$files"$'\n'"flags ${GFX_BASE_FLAGS[*]} ${GFX_CLI_FLAGS[*]} ${GFX_LIBRARY_PATH[*]}"
}

gfx_cds_create() {
  local want="$1" dir tmp
  dir="$(dirname "$GFX_CDS_ARCHIVE")"
  [ -w "$dir" ] || return 1
  tmp="$GFX_CDS_ARCHIVE.$$.tmp"
  rm -f "$tmp"
  # Trained without the module flags: `gfxstats dump` runs without them (see scripts/gfxstats), and
  # commands started with them still use the archive.
  if timeout 120 java "${GFX_BASE_FLAGS[@]}" "${GFX_CLI_FLAGS[@]}" "${GFX_LIBRARY_PATH[@]}" "${GFX_CDS_QUIET[@]}" \
      -XX:ArchiveClassesAtExit="$tmp" -cp "$GFX_JAR" io.gfxstats.cli.CdsTraining --native-dir "$GFX_NATIVE_DIR" \
      >/dev/null 2>&1 \
      && [ -s "$tmp" ] && mv -f "$tmp" "$GFX_CDS_ARCHIVE"; then
    printf '%s\n' "$want" > "$GFX_CDS_ARCHIVE.stamp.$$" && mv -f "$GFX_CDS_ARCHIVE.stamp.$$" "$GFX_CDS_ARCHIVE.stamp"
  else
    rm -f "$tmp"
    # Remember the failure so that every later command does not pay for another training run.
    printf 'failed\n%s\n' "$want" > "$GFX_CDS_ARCHIVE.stamp" 2>/dev/null || true
    return 1
  fi
}

# Sets GFX_CDS_FLAGS: the archive flags when a current archive exists (made now if needed), else none.
gfx_cds_flags() {
  GFX_CDS_FLAGS=()
  [ "${GFXSTATS_CDS:-1}" = 0 ] && return 0
  # The archive is made for the jar; a GFXSTATS_CLASSPATH run goes without.
  [ -z "${GFXSTATS_CLASSPATH:-}" ] || return 0
  local want have="" line
  gfx_cds_identity
  want="$GFX_CDS_IDENTITY"
  if [ -f "$GFX_CDS_ARCHIVE.stamp" ]; then
    while IFS= read -r line || [ -n "$line" ]; do have+="${have:+$'\n'}$line"; done < "$GFX_CDS_ARCHIVE.stamp"
  fi
  if [ "$have" = "failed"$'\n'"$want" ]; then
    return 0
  fi
  if [ "$have" != "$want" ] || [ ! -f "$GFX_CDS_ARCHIVE" ]; then
    gfx_cds_create "$want" || return 0
  fi
  GFX_CDS_FLAGS=(-XX:SharedArchiveFile="$GFX_CDS_ARCHIVE" "${GFX_CDS_QUIET[@]}" "${GFX_LIBRARY_PATH[@]}")
}

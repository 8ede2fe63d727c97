# Shared by the launch scripts: locate the project, build the jar when missing or stale,
# and the JVM flags of gfxstats's own processes.
# Without dirname, and without a subshell when the path is already absolute: every
# `gfxstats dump` pays for this file's processes.
case "${BASH_SOURCE[0]}" in
  */./*|*/../*|*//*) GFX_ROOT="$(cd "${BASH_SOURCE[0]%/*}/.." && pwd)" ;;
  /*/scripts/lib.sh) GFX_ROOT="${BASH_SOURCE[0]%/scripts/lib.sh}" ;;
  */*) GFX_ROOT="$(cd "${BASH_SOURCE[0]%/*}/.." && pwd)" ;;
  *) GFX_ROOT="$(cd .. && pwd)" ;;
esac
# GFXSTATS_CLASSPATH runs the scripts from that classpath instead of the jar, without building
# (tests run scripts/demo against the classpath Maven built for them).
GFX_JAR="${GFXSTATS_CLASSPATH:-$GFX_ROOT/target/gfxstats.jar}"
# The JVM options of gfxstats's own processes (native access for Netty, JLine and sqlite), from their
# one list, the argument file io/gfxstats/buffer/jvm.args (see JvmFlags). GFX_BASE_FLAGS, its -D
# options, go to every JVM, the dump client's too.
GFX_JVM_FLAGS=()
GFX_BASE_FLAGS=()
while IFS= read -r gfx_flag || [ -n "$gfx_flag" ]; do
  [ -n "$gfx_flag" ] || continue
  GFX_JVM_FLAGS+=("$gfx_flag")
  case "$gfx_flag" in -D*) GFX_BASE_FLAGS+=("$gfx_flag") ;; esac
done < "$GFX_ROOT/src/model/src/main/resources/io/gfxstats/buffer/jvm.args"
unset gfx_flag

# What the launch needs to know about files, found with one `find` (it runs before every command):
# GFX_STALE=1 when the jar is missing or a source is newer than it, and GFX_FILES, the size and date
# of the jar and of the JDK's java binary, which the class-data archives' stamps record.
gfx_inspect() {
  local dir out line jar_pattern java_pattern
  GFX_JAVA_BIN=java
  for dir in ${PATH//:/ }; do
    if [ -x "$dir/java" ]; then GFX_JAVA_BIN="$dir/java"; break; fi
  done
  GFX_STALE=1
  GFX_FILES=missing
  [ -f "$GFX_JAR" ] || return 0
  gfx_find_pattern "$GFX_JAR"
  jar_pattern="$REPLY"
  gfx_find_pattern "$GFX_JAVA_BIN"
  java_pattern="$REPLY"
  # -L: the JDK's real java binary behind the alternatives links; its size and date change with
  # the JDK. The jar and java are listed first, so they are printed before a stale source stops it.
  out="$(find -L "$GFX_JAR" "$GFX_JAVA_BIN" "$GFX_ROOT"/src/*/src/main "$GFX_ROOT"/src/*/pom.xml "$GFX_ROOT/proto" "$GFX_ROOT/pom.xml" \
      \( -path "$jar_pattern" -o -path "$java_pattern" \) -prune -printf '%p %s %T@\n' \
      -o -newer "$GFX_JAR" -printf 'stale\n' -quit 2>/dev/null || true)"
  GFX_FILES=""
  GFX_STALE=0
  while IFS= read -r line; do
    case "$line" in
      stale) GFX_STALE=1 ;;
      ?*) GFX_FILES+="${GFX_FILES:+$'\n'}$line" ;;
    esac
  done <<< "$out"
  [ -n "$GFX_FILES" ] || GFX_FILES=missing
}

# find -path takes a pattern: sets REPLY to the path $1 with its pattern characters escaped.
gfx_find_pattern() {
  local p="${1//\\/\\\\}"
  p="${p//\*/\\*}"
  p="${p//\?/\\?}"
  REPLY="${p//\[/\\[}"
}

gfx_jar_stale() {
  gfx_inspect
  [ "$GFX_STALE" = 1 ]
}

# Builds the jar now: one line on stderr saying so (and, when Maven has not fetched this project's
# dependencies yet, that it will download them); Maven's own output, which carries raw escape codes
# even in batch mode, goes to target/build.log and is shown, cleaned, only when the build fails.
gfx_build() {
  local note="" log="$GFX_ROOT/target/build.log"
  mkdir -p "$GFX_ROOT/target"
  [ -d "${GFX_MAVEN_REPO:-$HOME/.m2/repository}/io/grpc/grpc-netty-shaded" ] \
    || note="; the first build downloads about 80 MB from Maven Central"
  echo "gfxstats: building $GFX_JAR (Maven, about a minute$note) ..." >&2
  if ! (cd "$GFX_ROOT" && mvn -B -q -DskipTests -pl src/cli -am package) >"$log" 2>&1; then
    sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$log" | grep -v '^[[:space:]]*$' | tail -n 40 >&2
    echo "gfxstats: build failed (the whole log: $log)" >&2
    return 2
  fi
}

# Under a service manager (systemd sets INVOCATION_ID), or when told --no-build, a launcher never
# runs Maven: it runs the jar that scripts/build made, or stops with what to do.
gfx_require_jar() {
  local who="$1"
  gfx_inspect
  if [ ! -f "$GFX_JAR" ]; then
    echo "$who: $GFX_JAR is missing: run scripts/build first" >&2
    exit 2
  fi
  if [ "$GFX_STALE" = 1 ]; then
    echo "$who: $GFX_JAR is older than the sources; running it anyway (run scripts/build first to update it)" >&2
  fi
}

# Several commands may start at once (the demo starts four): one builds, the others wait for it.
gfx_build_if_needed() {
  [ -z "${GFXSTATS_CLASSPATH:-}" ] || return 0
  if [ -n "${INVOCATION_ID:-}" ]; then
    gfx_require_jar "${GFX_LAUNCHER:-gfxstats}"
    return 0
  fi
  gfx_jar_stale || return 0
  mkdir -p "$GFX_ROOT/target"
  (
    flock 9
    if gfx_jar_stale; then
      gfx_build || exit 2
    fi
  ) 9>"$GFX_ROOT/target/.build.lock" || exit 2
  # The jar is new: its size and date as well.
  gfx_inspect
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
# `gfxstats record` runs as long as the renderer feeding it: the optimizing compiler pays for itself
# there (about 2x fewer CPU ns per line than C1 alone, docs/benchmarks.md), so it goes without
# TieredStopAtLevel; so does `gfxstats timeline` (live frame logs, traces of gigabytes).
GFX_RECORD_FLAGS=(
  -XX:+UseSerialGC
  -XX:-UsePerfData
  -Xshare:auto
  -Dio.grpc.netty.shaded.io.netty.jfr.enabled=false
)
# `gfxstats dump` talks HTTP/2 itself (io.gfxstats.dumpclient.h2) and runs for a few tens of milliseconds:
# interpreted only, no compiler threads competing for the CPU; it loads no Netty, so no library path.
# The default collector (G1) on purpose: in JDK 17 only G1 maps the archives' heap objects (interned
# strings, class mirrors, the module graph); with the serial collector the dump took 10 ms longer.
GFX_DUMP_FLAGS=(
  -Xint
  -XX:-UsePerfData
  -Xshare:auto
)
# AppCDS (JDK 17 dynamic archives) of the classes the command line loads, recorded by training runs
# of io.gfxstats.cli.CdsTraining (one for every command) and of io.gfxstats.cli.DumpPathTraining
# (a small one, about 1 MB instead of 21, of the dump path alone), which `gfxstats dump` maps instead (the page faults of the big one cost it
# about 9 ms). Rebuilt when the jar, the JDK or the flags change; when one cannot be built or used
# the command runs without it, silently (GFXSTATS_CDS=0 turns them off).
GFX_CDS_ARCHIVE="$GFX_ROOT/target/gfxstats-cli.jsa"
GFX_CDS_DUMP_ARCHIVE="$GFX_ROOT/target/gfxstats-dump.jsa"
# Netty's native libraries, copied out of the jar by the training run: loaded from here, Netty
# skips extracting them into a temporary file on every start. The JDK's default path follows.
GFX_NATIVE_DIR="$GFX_ROOT/target/native"
GFX_LIBRARY_PATH=(-Djava.library.path="$GFX_NATIVE_DIR:/usr/java/packages/lib:/usr/lib64:/lib64:/lib:/usr/lib")
# CDS warnings go to stdout by default, where they would corrupt `dump --proto`.
GFX_CDS_QUIET=(-Xlog:cds=off -Xlog:cds+dynamic=off)

# What an archive was made for: the JVM validates the jar itself, but a JDK upgraded in place would
# only make it useless, not be noticed. Sets GFX_CDS_IDENTITY for the JVM flags given, from what
# gfx_inspect found (it runs it unless gfx_build_if_needed already did).
gfx_cds_identity() {
  [ -n "${GFX_FILES:-}" ] || gfx_inspect
  GFX_CDS_IDENTITY="$GFX_FILES"$'\n'"flags $*"
}

# gfx_cds_create ARCHIVE IDENTITY JVM-FLAGS... -- TRAINING-CLASS TRAINING-ARGS...
gfx_cds_create() {
  local archive="$1" want="$2" dir tmp
  shift 2
  local flags=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  dir="${archive%/*}"
  [ -w "$dir" ] || return 1
  # One training run at a time: commands started together while one runs go without the archive
  # (a few hundred milliseconds slower once) instead of each training its own for seconds.
  exec 8>>"$archive.lock" || return 1
  if ! flock -n 8; then
    exec 8>&-
    return 1
  fi
  # Another command may have finished one between our look and the lock.
  if [ -f "$archive" ] && [ "$(cat "$archive.stamp" 2>/dev/null)" = "$want" ]; then
    exec 8>&-
    return 0
  fi
  tmp="$archive.$$.tmp"
  rm -f "$tmp"
  # About ten seconds, once after each build: say so instead of pausing silently.
  echo "gfxstats: preparing the start-up archive (once after each build, about 10 s) ..." >&2
  if timeout 120 java "${flags[@]}" "${GFX_CDS_QUIET[@]}" -XX:ArchiveClassesAtExit="$tmp" -cp "$GFX_JAR" \
      "$@" >/dev/null 2>&1 \
      && [ -s "$tmp" ] && mv -f "$tmp" "$archive"; then
    printf '%s\n' "$want" > "$archive.stamp.$$" && mv -f "$archive.stamp.$$" "$archive.stamp"
    exec 8>&-
  else
    rm -f "$tmp"
    # Remember the failure so that every later command does not pay for another training run.
    printf 'failed\n%s\n' "$want" > "$archive.stamp" 2>/dev/null || true
    exec 8>&-
    return 1
  fi
}

# gfx_cds_flags [dump|daemon]: sets GFX_CDS_FLAGS to the archive flags of the command line's archive
# (or, with `dump`, of the dump path's) when a current one exists (made now if needed), else to none.
# `daemon`: the command line's archive, only when it is current, never made here (see scripts/gfxstatsd).
gfx_cds_flags() {
  GFX_CDS_FLAGS=()
  [ "${GFXSTATS_CDS:-1}" = 0 ] && return 0
  # The archives are made for the jar; a GFXSTATS_CLASSPATH run goes without.
  [ -z "${GFXSTATS_CLASSPATH:-}" ] || return 0
  local archive flags training extra make=1
  [ "${1:-}" != daemon ] || make=0
  if [ "${1:-}" = dump ]; then
    archive="$GFX_CDS_DUMP_ARCHIVE"
    flags=("${GFX_BASE_FLAGS[@]}" "${GFX_DUMP_FLAGS[@]}")
    training=(io.gfxstats.cli.DumpPathTraining)
    extra=()
  else
    archive="$GFX_CDS_ARCHIVE"
    # Trained without the module flags: commands started with them still use the archive.
    flags=("${GFX_BASE_FLAGS[@]}" "${GFX_CLI_FLAGS[@]}" "${GFX_LIBRARY_PATH[@]}")
    training=(io.gfxstats.cli.CdsTraining --native-dir "$GFX_NATIVE_DIR")
    extra=("${GFX_LIBRARY_PATH[@]}")
  fi
  local want have="" line
  gfx_cds_identity "${flags[@]}"
  want="$GFX_CDS_IDENTITY"
  if [ -f "$archive.stamp" ]; then
    while IFS= read -r line || [ -n "$line" ]; do have+="${have:+$'\n'}$line"; done < "$archive.stamp"
  fi
  if [ "$have" = "failed"$'\n'"$want" ]; then
    return 0
  fi
  if [ "$have" != "$want" ] || [ ! -f "$archive" ]; then
    [ "$make" = 1 ] || return 0
    gfx_cds_create "$archive" "$want" "${flags[@]}" -- "${training[@]}" || return 0
  fi
  GFX_CDS_FLAGS=(-XX:SharedArchiveFile="$archive" "${GFX_CDS_QUIET[@]}" "${extra[@]}")
}

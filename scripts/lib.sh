# Shared by the launch scripts: locate the project, build the jar when missing or stale,
# and the JVM flags every gfxstats process needs (chronicle-bytes maps buffers through JDK internals).
GFX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# GFXSTATS_CLASSPATH runs the scripts from that classpath instead of the jar, without building
# (tests run scripts/demo against the classpath Maven built for them).
GFX_JAR="${GFXSTATS_CLASSPATH:-$GFX_ROOT/target/gfxstats.jar}"
GFX_JVM_FLAGS=(
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
  --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED
  -Dsystem.properties=/dev/null
)

gfx_build_if_needed() {
  [ -z "${GFXSTATS_CLASSPATH:-}" ] || return 0
  if [ ! -f "$GFX_JAR" ] || [ -n "$(find "$GFX_ROOT/src/main" "$GFX_ROOT/proto" "$GFX_ROOT/pom.xml" -newer "$GFX_JAR" -print -quit 2>/dev/null)" ]; then
    echo "gfxstats: building $GFX_JAR ..." >&2
    (cd "$GFX_ROOT" && mvn -B -q -DskipTests package) >&2 || { echo "gfxstats: build failed" >&2; exit 2; }
  fi
}

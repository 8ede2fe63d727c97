#!/usr/bin/env bash
# The C header from the two other languages docs/native.md names: a C++ program (C++17, two
# windows on std::threads, RAII over the close functions, -Wall -Wextra -Werror -pedantic) and a
# Rust program whose declarations bindgen generates from include/gfxstats.h (Debian's bindgen and
# rustc, no crates, no cargo), each against a real daemon: their dumps equal what the Java client
# (gfxstats record) counts for the same frames.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
RUSTC="${GFXSTATS_RUSTC:-/usr/bin/rustc}"
for p in g++ bindgen "$RUSTC"; do
  command -v "$p" >/dev/null || t_fail "$p is not installed (scripts/ci-deps installs g++, bindgen, libclang1 and rustc)"
done
t_start_daemon
export GFXSTATS_SOCKET="$T_DIR/state/gfxstatsd.sock"

g++ -std=c++17 -Wall -Wextra -Werror -pedantic -I"$NATIVE/include" -o "$T_DIR/example-cpp" "$NATIVE/tests/example.cpp" \
    -L"$OUT/lib" -lgfxstats -Wl,-rpath,"$OUT/lib" -pthread || t_fail "tests/example.cpp does not build"
"$T_DIR/example-cpp" cpp.example 600 "$T_DIR/cpp-frames" >"$T_DIR/cpp.out" 2>&1 \
  || { cat "$T_DIR/cpp.out" >&2; t_fail "the C++ program failed"; }
cat "$T_DIR/cpp-frames0" | gfx record --package java.cpp.example --version-code 7 --pipeline vulkan >/dev/null
cat "$T_DIR/cpp-frames1" | gfx record --package java.cpp.example --version-code 7 --pipeline vulkan >/dev/null

# bindgen parses the header with libclang; gcc's own include directory gives it stddef.h.
bindgen "$NATIVE/include/gfxstats.h" --allowlist-function 'gfxstats_.*' --allowlist-type 'gfxstats_.*' \
    --allowlist-var 'GFXSTATS_.*' -o "$T_DIR/bindings.rs" -- -I"$(gcc -print-file-name=include)" \
    >"$T_DIR/bindgen.out" 2>&1 || { cat "$T_DIR/bindgen.out" >&2; t_fail "bindgen cannot read include/gfxstats.h"; }
GFXSTATS_BINDINGS="$T_DIR/bindings.rs" "$RUSTC" --edition 2021 -O -D warnings -L "$OUT/lib" -l gfxstats \
    -C link-arg=-Wl,-rpath,"$OUT/lib" -o "$T_DIR/example-rs" "$NATIVE/tests/example.rs" \
    || t_fail "tests/example.rs does not build against the generated bindings"
"$T_DIR/example-rs" rs.example 900 "$T_DIR/rs-frames" >"$T_DIR/rs.out" 2>&1 \
  || { cat "$T_DIR/rs.out" >&2; t_fail "the Rust program failed"; }
gfx record --package java.rs.example --version-code 3 --pipeline gl "$T_DIR/rs-frames" >/dev/null

for p in cpp.example rs.example; do
  t_counts "$p" > "$T_DIR/$p.native"
  t_counts "java.$p" > "$T_DIR/$p.java"
  diff "$T_DIR/$p.java" "$T_DIR/$p.native" >&2 || t_fail "$p: native and Java counts differ"
done
[ "$(t_counter cpp.example "Total frames rendered")" = 1200 ] || t_fail "C++: not 1200 frames"
[ "$(t_counter rs.example "Total frames rendered")" = 900 ] || t_fail "Rust: not 900 frames"
[ "$(t_counter cpp.example "Janky frames")" -ge 1 ] || t_fail "C++: no janky frame although every 25th takes 30 ms"
[ "$(t_counter rs.example "Janky frames")" -ge 1 ] || t_fail "Rust: no janky frame although every 30th takes 40 ms"
t_pass "C++ (1200 frames, 2 std::threads, RAII) and Rust through bindgen's bindings (900 frames) count as Java does"

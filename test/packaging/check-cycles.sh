#!/bin/sh
# scripts/check-cycles.py on small scratch trees: an acyclic tree passes; a
# loop of calls between two C files, a loop through an #include, and a loop
# that only a header's inline function closes each fail, naming the files;
# a tree whose C files have no objects fails the 90 % rule.
# Usage: check-cycles.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2
cc=${CC:-cc}
command -v nm >/dev/null || { echo "no nm: skipped"; exit 77; }
check="python3 $src/scripts/check-cycles.py"

# tree NAME: a tree under $work/NAME from the files written by the caller
# into $work/NAME/, compiled with a compile_commands.json like CMake's.
build() {
  t=$work/$1
  mkdir -p "$t/build"
  printf '[' >"$t/build/compile_commands.json"
  sep=
  for f in $(cd "$t" && find src tools -name '*.c' | sort); do
    o=obj/$(echo "$f" | tr / _).o
    mkdir -p "$t/build/obj"
    (cd "$t/build" && $cc -c -I"$t/src" -o "$o" "$t/$f")
    printf '%s\n{"directory": "%s", "command": "cc -I%s/src -o %s -c %s", "file": "%s"}' \
      "$sep" "$t/build" "$t" "$o" "$t/$f" "$t/$f" >>"$t/build/compile_commands.json"
    sep=,
  done
  echo ']' >>"$t/build/compile_commands.json"
}

# expect NAME STATUS [TEXT]: the checker's exit status on tree NAME, and
# TEXT in what it prints
expect() {
  rc=0
  $check --root "$work/$1" "$work/$1/build" >"$work/$1.out" 2>&1 || rc=$?
  if [ "$rc" != "$2" ]; then
    cat "$work/$1.out"
    echo "FAIL: $1: check-cycles exit status $rc, want $2"
    exit 1
  fi
  if [ $# -gt 2 ] && ! grep -qF -- "$3" "$work/$1.out"; then
    cat "$work/$1.out"
    echo "FAIL: $1: check-cycles does not say '$3'"
    exit 1
  fi
}

rm -rf "$work"
mkdir -p "$work"

# a.c -> b.c (call), tools/main.c -> a.c; b.h's inline calls b.c (its own
# .c, which includes it): no loop.
mk() {
  t=$work/$1
  mkdir -p "$t/src/a" "$t/src/b" "$t/tools"
  cat >"$t/src/a/a.c" <<'EOF'
#include "b/b.h"
int a_func(int x);
int a_func(int x) { return b_func(x) + 1; }
EOF
  cat >"$t/src/b/b.h" <<'EOF'
int b_func(int x);
int b_slow(int x);
static inline int b_fast(int x) { return x > 0 ? x : b_slow(x); }
EOF
  cat >"$t/src/b/b.c" <<'EOF'
#include "b/b.h"
int b_slow(int x) { return -x; }
int b_func(int x) { return b_fast(x) * 2; }
EOF
  cat >"$t/tools/main.c" <<'EOF'
int a_func(int x);
int main(void) { return a_func(1); }
EOF
}

mk clean
build clean
expect clean 0 "examined 3 of the 3 C files"

# b.c calls back into a.c: a loop of calls
mk calls
cat >"$work/calls/src/b/b.c" <<'EOF'
#include "b/b.h"
int a_func(int x);
int b_slow(int x) { return -x; }
int b_func(int x) { return x ? a_func(x - 1) : b_fast(x); }
EOF
build calls
expect calls 1 "loop: src/a/a.c src/b/b.c+b.h"

# b.c includes a header of a whose functions a.c defines
mk include
cat >"$work/include/src/a/a.h" <<'EOF'
int a_func(int x);
EOF
cat >>"$work/include/src/b/b.c" <<'EOF'
#include "a/a.h"
EOF
build include
expect include 1 "src/a/a.c+a.h src/b/b.c"

# only an inline function of a header of b, which b.c includes but no
# object uses, calls a.c: the loop a.c -> b.c -> b_util.h -> a.c
mk inline
cat >"$work/inline/src/b/b_util.h" <<'EOF'
int a_func(int x);
static inline int b_twice(int x) { return a_func(a_func(x)); }
EOF
cat >>"$work/inline/src/b/b.c" <<'EOF'
#include "b/b_util.h"
EOF
build inline
expect inline 1 "loop: src/a/a.c src/b/b.c+b.h src/b/b_util.h"

# no objects for most C files: fewer than 90 % examined
mk unbuilt
build unbuilt
rm "$work"/unbuilt/build/obj/src_a_a.c.o "$work"/unbuilt/build/obj/src_b_b.c.o
expect unbuilt 1 "fewer than 90 %"

echo "check-cycles: an acyclic tree passes; loops of calls, includes and header inline calls fail"

#!/bin/sh
# Install kfdsig into a scratch prefix, then build and run a consumer with
# find_package(kfdsig) (shared and static) and with pkg-config, and run the
# installed CLI. Usage: run.sh BUILD_DIR WORK_DIR CMAKE
set -eu
build=$1
work=$2
cmake=$3
src=$(cd "$(dirname "$0")" && pwd)
command -v cc >/dev/null || { echo "no cc: skip"; exit 77; }
command -v pkg-config >/dev/null || { echo "no pkg-config: skip"; exit 77; }

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"

"$cmake" -S "$src" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log"
"$cmake" --build "$work/build" >"$work/build.log"
"$work/build/consumer_shared"
"$work/build/consumer_static"

libdir=$(dirname "$(find "$prefix" -name kfdsig.pc | head -n 1)")/..
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
cc -o "$work/consumer_pc" "$src/main.c" $(pkg-config --cflags --libs kfdsig) -Wl,-rpath,"$libdir"
"$work/consumer_pc"
# shellcheck disable=SC2046
cc -o "$work/consumer_pc_static" "$src/main.c" $(pkg-config --cflags kfdsig) \
  "$libdir/libkfdsig.a" $(pkg-config --static --libs-only-l kfdsig | sed 's/-lkfdsig//')
"$work/consumer_pc_static"

"$prefix/bin/kfdsig" targets gfx90a >/dev/null
echo "install consumer: all passed"

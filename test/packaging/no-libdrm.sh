#!/bin/sh
# KFDSIG_WITH_LIBDRM=OFF: configure and build the library and the CLI without
# libdrm_amdgpu, check that nothing links it, and that the emitters and the
# decoder work. Usage: no-libdrm.sh SOURCE_DIR WORK_DIR CMAKE
set -eu
src=$1
work=$2
cmake=$3
command -v cc >/dev/null || { echo "no cc: skip"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
"$cmake" -S "$src" -B "$work/build" -DKFDSIG_WITH_LIBDRM=OFF -DKFDSIG_BUILD_TESTS=OFF \
  -DKFDSIG_BUILD_BENCH=OFF -DKFDSIG_BUILD_DOCS=OFF -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS=-O0 >"$work/configure.log"
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; exit 1; }
lib=$(find "$work/build" -name 'libkfdsig.so.*.*.*' | head -n 1)
if readelf -d "$lib" | grep -q 'libdrm'; then
  echo "FAIL: $lib needs libdrm without KFDSIG_WITH_LIBDRM"; readelf -d "$lib" | grep NEEDED; exit 1
fi
if grep -q 'libdrm' "$work/build/kfdsig.pc"; then
  echo "FAIL: kfdsig.pc names libdrm"; cat "$work/build/kfdsig.pc"; exit 1
fi
k=$work/build/tools/kfdsig
"$k" emit -t gfx90a -e 5 --signal-page 0x7f0000000000 >"$work/fence.hex"
"$k" decode -t gfx90a --lint --signal-page 0x7f0000000000 "$work/fence.hex" | grep -q RELEASE_MEM
"$k" --emulate gfx90a signal -e 3 --no-time | grep -q COMPLETE
echo "no-libdrm build: emit, decode and the emulated KFD work"

#!/bin/sh
# Install kfdsig into a scratch prefix, then build and run consumers with
# find_package(kfdsig) (shared and static) and with pkg-config, and run the
# installed CLI: one using the emitters only (main.c, libkfdsig: no emulator
# code in its process) and one using the emulated KFD (emu.c,
# libkfdsig-emu). Usage: run.sh BUILD_DIR WORK_DIR CMAKE
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
"$work/build/consumer_emu_shared"
"$work/build/consumer_emu_static"

libdir=$(dirname "$(find "$prefix" -name kfdsig.pc | head -n 1)")/..
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
cc -o "$work/consumer_pc" "$src/main.c" $(pkg-config --cflags --libs kfdsig) -Wl,-rpath,"$libdir"
"$work/consumer_pc"
# shellcheck disable=SC2046
cc -o "$work/consumer_pc_static" "$src/main.c" $(pkg-config --cflags kfdsig) \
  "$libdir/libkfdsig.a" $(pkg-config --static --libs-only-l kfdsig | sed 's/-lkfdsig//')
"$work/consumer_pc_static"
# shellcheck disable=SC2046
cc -o "$work/consumer_emu_pc" "$src/emu.c" $(pkg-config --cflags --libs kfdsig-emu) \
  -Wl,-rpath,"$libdir"
"$work/consumer_emu_pc"
# shellcheck disable=SC2046
cc -o "$work/consumer_emu_pc_static" "$src/emu.c" $(pkg-config --cflags kfdsig-emu) \
  "$libdir/libkfdsig-emu.a" "$libdir/libkfdsig.a" \
  $(pkg-config --static --libs-only-l kfdsig-emu | sed 's/-lkfdsig-emu//; s/-lkfdsig//')
"$work/consumer_emu_pc_static"

# The emulator is libkfdsig-emu's alone, and a program using only the
# emitters carries none of it: libkfdsig-emu is not among its mapped files,
# and nothing it maps (or, static, contains) exports kfdsig_emu_*.
command -v nm >/dev/null || { echo "no nm: skip"; exit 77; }
nm -D --defined-only "$libdir/libkfdsig.so" | grep kfdsig_emu_ &&
  { echo "libkfdsig.so exports emulator functions"; exit 1; }
[ "$(nm -D --defined-only "$libdir/libkfdsig-emu.so" | grep -c ' T kfdsig_emu_')" -gt 0 ] ||
  { echo "libkfdsig-emu.so exports no kfdsig_emu_* function"; exit 1; }
readelf -d "$libdir/libkfdsig-emu.so" | grep -q 'NEEDED.*\[libkfdsig.so.0\]' ||
  { echo "libkfdsig-emu.so does not link libkfdsig.so.0"; exit 1; }
grep -q "^Requires: kfdsig = $(pkg-config --modversion kfdsig)\$" "$libdir/pkgconfig/kfdsig-emu.pc" ||
  { echo "kfdsig-emu.pc: no 'Requires: kfdsig = <its version>'"; exit 1; }
for prog in "$work/consumer_pc" "$work/build/consumer_shared"; do
  "$prog" maps >"$work/maps"
  grep -q '/libkfdsig\.so' "$work/maps" || { echo "$prog: libkfdsig.so not mapped"; exit 1; }
  while IFS= read -r so; do
    if nm -D --defined-only "$so" 2>/dev/null | grep -q kfdsig_emu_; then
      echo "$prog maps $so, which exports kfdsig_emu_*"
      exit 1
    fi
  done <"$work/maps"
done
for prog in "$work/consumer_pc_static" "$work/build/consumer_static"; do
  if nm "$prog" | grep -qE ' [Tt] (kfdsig_emu_|emu_|sq_)'; then
    echo "$prog (static) carries emulator code"
    exit 1
  fi
done

# The installed CLI finds its libraries through its RUNPATH; built without
# one (CMAKE_SKIP_INSTALL_RPATH, as distributions build it), through the
# loader's path.
if ! readelf -d "$prefix/bin/kfdsig" | grep -qE '\((RUNPATH|RPATH)\)'; then
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
"$prefix/bin/kfdsig" targets gfx90a >/dev/null

# libdrm_amdgpu is private: Requires.private in kfdsig.pc, not in the shared
# library's link interface; find_dependency for what the targets do need.
grep -q '^Requires.private: libdrm_amdgpu' "$libdir/pkgconfig/kfdsig.pc" ||
  { echo "kfdsig.pc: libdrm_amdgpu is not Requires.private"; exit 1; }
if grep -q '^Requires:.*libdrm' "$libdir/pkgconfig/kfdsig.pc"; then
  echo "kfdsig.pc: libdrm_amdgpu must not be a public requirement"; exit 1
fi
targets=$(find "$prefix" -name kfdsigTargets.cmake | head -n 1)
sed -n '/add_library(kfdsig::kfdsig SHARED/,/^)/p;/kfdsig::kfdsig PROPERTIES/,/^)/p' "$targets" |
  grep -q DRM_AMDGPU && { echo "kfdsig::kfdsig exports libdrm in its link interface"; exit 1; }
grep -q 'find_dependency(Threads)' "$(dirname "$targets")/kfdsigConfig.cmake" ||
  { echo "kfdsigConfig.cmake: no find_dependency(Threads)"; exit 1; }
[ -f "$prefix/share/doc/kfdsig/LICENSE" ] || { echo "LICENSE not installed"; exit 1; }

# man pages and the completion (when scdoc built them)
if [ -d "$build/man" ]; then
  for p in man1/kfdsig.1 man1/kfdsig-emit.1 man3/kfdsig_pm4.3 man3/kfdsig_pm4_emit_fence.3; do
    [ -f "$prefix/share/man/$p" ] || { echo "$p not installed"; exit 1; }
  done
  if command -v man >/dev/null; then
    for q in kfdsig kfdsig-emit "3 kfdsig_pm4_emit_fence"; do
      # shellcheck disable=SC2086
      MANPAGER=cat man -M "$prefix/share/man" $q 2>/dev/null | grep -q . ||
        { echo "man $q: no page"; exit 1; }
    done
  fi
  c=$prefix/share/bash-completion/completions/kfdsig
  [ -f "$c" ] || { echo "bash completion not installed"; exit 1; }
  bash "$src/../packaging/completion.sh" "$prefix/bin/kfdsig" "$c" >/dev/null ||
    { echo "the installed completion does not complete"; exit 1; }
fi
echo "install consumer: all passed"

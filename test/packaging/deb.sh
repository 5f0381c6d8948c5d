#!/bin/sh
# The Debian packages (debian/): built from a scratch copy of the tree with
# `dpkg-buildpackage -us -uc -b` (its dh_auto_test runs the ctest suite
# with Debian's flags; KFDSIG_DEB_TESTS=quick runs the unit and install
# tests only), unpacked into a scratch root, a consumer built against them
# with pkg-config and run, the installed CLI run, and lintian on the result
# with no error or warning. Also: debian/*.symbols are what debian/gen-symbols
# writes from the version maps, and debian/changelog carries the project's
# version. Exit 77 (skip) without dpkg-dev, debhelper or lintian, or when a
# build dependency is missing.
# Usage: deb.sh SOURCE_DIR WORK_DIR
set -eu
src=$(cd "$1" && pwd)
work=$2
for tool in dpkg-buildpackage dpkg-gensymbols dpkg-checkbuilddeps dh lintian cc pkg-config; do
  command -v "$tool" >/dev/null || { echo "no $tool (dpkg-dev, debhelper, lintian): skip"; exit 77; }
done
start=$(date +%s)
rm -rf "$work"
mkdir -p "$work/src" "$work/root"
work=$(cd "$work" && pwd)

# Up to date with the maps and the version.
version=$(sed -n 's/^#define KFDSIG_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
  "$src/include/kfdsig/common.h" | paste -sd.)
status=0
"$src/debian/gen-symbols" "$src/src/kfdsig.map" libkfdsig.so.0 libkfdsig0 libkfdsig-dev "$version" \
  >"$work/libkfdsig0.symbols"
"$src/debian/gen-symbols" "$src/src/emu/kfdsig-emu.map" libkfdsig-emu.so.0 libkfdsig-emu0 \
  libkfdsig-emu-dev "$version" >"$work/libkfdsig-emu0.symbols"
for f in libkfdsig0.symbols libkfdsig-emu0.symbols; do
  if ! diff -u "$src/debian/$f" "$work/$f"; then
    echo "debian/$f is not what debian/gen-symbols writes from the map (version $version): run it again"
    status=1
  fi
done
deb_version=$(cd "$src" && dpkg-parsechangelog -SVersion)
if [ "$deb_version" != "$version" ]; then
  echo "debian/changelog is at $deb_version, the project at $version (include/kfdsig/common.h)"
  status=1
fi
[ $status -eq 0 ] || exit 1
if ! (cd "$src" && dpkg-checkbuilddeps) >"$work/builddeps" 2>&1; then
  cat "$work/builddeps"
  echo "build dependencies missing: skip"
  exit 77
fi

# A scratch copy of the tree: what git knows (committed or not, ignored
# files left out), or everything but build directories outside git.
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$src" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
    (cd "$src" && tar -c --null -T -) | tar -x -C "$work/src"
else
  tar -c -C "$src" --exclude='./build*' --exclude=./.git . | tar -x -C "$work/src"
fi

echo "dpkg-buildpackage -us -uc -b (tests: ${KFDSIG_DEB_TESTS:-all})"
if ! (cd "$work/src" && DEB_BUILD_OPTIONS="parallel=${KFDSIG_DEB_JOBS:-2}" \
  dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
  tail -n 60 "$work/build.log"
  echo "dpkg-buildpackage failed (log: $work/build.log)"
  exit 1
fi
grep -E '^[0-9]+% tests passed|tests failed out of' "$work/build.log" || true
changes=$(ls "$work"/kfdsig_*.changes)

# Every package, with what it must carry.
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=usr/lib/$multiarch
for want in "libkfdsig0 $lib/libkfdsig.so.0" "libkfdsig-dev $lib/pkgconfig/kfdsig.pc" \
  "libkfdsig-dev usr/include/kfdsig/kfdsig.h" "libkfdsig-dev usr/share/man/man3/kfdsig_pm4.3.gz" \
  "libkfdsig-emu0 $lib/libkfdsig-emu.so.0" "libkfdsig-emu-dev $lib/pkgconfig/kfdsig-emu.pc" \
  "libkfdsig-emu-dev usr/share/man/man3/kfdsig_emu.3.gz" "kfdsig usr/bin/kfdsig" \
  "kfdsig $lib/kfdsig/libkfdsig-preload.so" "kfdsig usr/share/man/man1/kfdsig-emit.1.gz"; do
  set -- $want
  deb=$(ls "$work/$1"_*.deb 2>/dev/null) || { echo "no package $1"; exit 1; }
  dpkg-deb -c "$deb" >"$work/contents"
  grep -qE " \./$2( -> .*)?\$" "$work/contents" || { echo "$1 does not carry /$2"; exit 1; }
done
# The private node asks for libkfdsig0 of exactly libkfdsig-emu0's version.
dpkg-deb -f "$work"/libkfdsig-emu0_*.deb Depends | grep -q "libkfdsig0 (= $deb_version)" ||
  { echo "libkfdsig-emu0 does not depend on libkfdsig0 (= $deb_version)"; exit 1; }
for deb in "$work"/*.deb; do
  dpkg -x "$deb" "$work/root"
done

# A pkg-config consumer of each library, built against the scratch root.
root=$work/root
export PKG_CONFIG_PATH="$root/$lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR=
# shellcheck disable=SC2046
cc -o "$work/consumer" "$src/test/consumer/main.c" $(pkg-config --cflags --libs kfdsig)
# shellcheck disable=SC2046
cc -o "$work/consumer_emu" "$src/test/consumer/emu.c" $(pkg-config --cflags --libs kfdsig-emu)
LD_LIBRARY_PATH="$root/$lib" "$work/consumer"
LD_LIBRARY_PATH="$root/$lib" "$work/consumer_emu"
LD_LIBRARY_PATH="$root/$lib" "$work/consumer" maps | grep -q "$root/$lib/libkfdsig\.so\.0" ||
  { echo "the consumer did not load the packaged libkfdsig.so.0"; exit 1; }
# The installed CLI: its libraries from the root, its interposer beside it.
LD_LIBRARY_PATH="$root/$lib" "$root/usr/bin/kfdsig" --emulate gfx90a signal --event 5
LD_LIBRARY_PATH="$root/$lib" "$root/usr/bin/kfdsig" exec --emulate gfx90a -- true

# lintian: no error, no warning (overrides, each with its reason, in
# debian/*.lintian-overrides).
if ! lintian --fail-on error,warning --tag-display-limit 0 "$changes" >"$work/lintian.log" 2>&1; then
  cat "$work/lintian.log"
  echo "lintian reports an error or a warning"
  exit 1
fi
if grep -E '^[EW]:' "$work/lintian.log"; then
  echo "lintian: errors or warnings"
  exit 1
fi
echo "lintian: no error or warning"
echo "debian packages: built, installed, used and clean in $(($(date +%s) - start)) s"

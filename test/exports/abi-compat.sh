#!/bin/sh
# A program linked against the released ABI of libkfdsig.so.0 still loads
# and runs on the library just built (CONTRIBUTING.md, ABI).
#
# released.map lists every released node and name. From it: a stand-in
# libkfdsig.so.0 whose functions are empty stubs, with those nodes; a
# program referencing every released name (and calling a few) linked
# against the stand-in, so it records a version reference per node, as a
# binary built on an older release does. That program then runs on the real
# library with every symbol bound at load (LD_BIND_NOW): a node or a name
# lost or renamed, or another SONAME, fails.
# Usage: abi-compat.sh CC LIBKFDSIG_SO RELEASED_MAP INCLUDE_DIR WORK_DIR
set -eu
cc=$1
lib=$2
map=$3
inc=$4
work=$5
command -v readelf >/dev/null || { echo "no readelf: skip"; exit 77; }
rm -rf "$work"
mkdir -p "$work/stub" "$work/run"

# The released names (the lines "name;" inside the nodes) and the nodes
# that have one.
perl -0777 -pe 's{/\*.*?\*/}{}gs' "$map" >"$work/released.map"
grep -E '^[[:space:]]*kfdsig_[a-z0-9_]+;' "$work/released.map" | tr -d ' \t;' >"$work/names"
awk '/^KFDSIG_[0-9.]+ *\{/ { node = $1 } /^[[:space:]]*kfdsig_[a-z0-9_]+;/ { print node }' \
  "$work/released.map" | sort -u >"$work/nodes"
[ -s "$work/names" ] || { echo "$map: no names"; exit 1; }

# The stand-in library.
sed 's/.*/void &(void);\nvoid &(void) {}/' "$work/names" >"$work/stub/stub.c"
"$cc" -shared -fPIC -o "$work/stub/libkfdsig.so" "$work/stub/stub.c" \
  -Wl,-soname,libkfdsig.so.0 -Wl,--version-script="$work/released.map"

# The program: every released name referenced (refs.c), a few called with
# their declarations (main.c).
{
  sed 's/.*/extern void &(void);/' "$work/names"
  echo 'void (*const abi_refs[])(void) = {'
  sed 's/.*/\t&,/' "$work/names"
  echo '};'
  echo "const unsigned abi_nrefs = $(wc -l <"$work/names");"
} >"$work/refs.c"
cat >"$work/main.c" <<'PROG'
#include <stdio.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

extern void (*const abi_refs[])(void);
extern const unsigned abi_nrefs;

int main(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	struct kfdsig_fence f = { .slot_va = kfdsig_slot_va(0x100000, 5), .event_id = 5 };
	uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];

	for (unsigned i = 0; i < abi_nrefs; i++)
		if (!abi_refs[i]) {
			printf("released name %u unresolved\n", i);
			return 1;
		}
	if (kfdsig_version() != KFDSIG_VERSION_NUMBER || !t ||
	    kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW) != KFDSIG_PM4_RELEASE_MEM_DW ||
	    kfdsig_smi_event_by_name("vmfault") != KFDSIG_SMI_VMFAULT ||
	    kfdsig_target_by_name("nonesuch") || !strstr(kfdsig_last_error(), "nonesuch")) {
		printf("the library misbehaves: %s\n", kfdsig_last_error());
		return 1;
	}
	printf("old program on kfdsig %s: %u released names bound\n", kfdsig_version_string(),
	       abi_nrefs);
	return 0;
}
PROG
"$cc" -o "$work/consumer" "$work/main.c" "$work/refs.c" -I"$inc" -L"$work/stub" -lkfdsig

# The program needs every node that has a name, from libkfdsig.so.0.
readelf -V "$work/consumer" | sed -n '/\.gnu\.version_r/,$p' >"$work/verneed"
grep -q 'File: libkfdsig.so.0 ' "$work/verneed" ||
  { echo "the program does not need libkfdsig.so.0:"; cat "$work/verneed"; exit 1; }
grep -oE 'Name: KFDSIG_[0-9.]+' "$work/verneed" | sed 's/Name: //' | sort -u >"$work/needed"
if ! diff -u "$work/nodes" "$work/needed" >"$work/diff"; then
  echo "the program's version references differ from the released nodes:"
  cat "$work/diff"
  exit 1
fi

# The real library under the SONAME the program needs.
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" != libkfdsig.so.0 ]; then
  echo "$lib: SONAME is '$soname', not libkfdsig.so.0: programs linked against 0.x no longer load"
  exit 1
fi
cp "$lib" "$work/run/libkfdsig.so.0"
if ! LD_LIBRARY_PATH="$work/run" LD_BIND_NOW=1 "$work/consumer"; then
  echo "a program linked against the released nodes does not run on $lib"
  exit 1
fi

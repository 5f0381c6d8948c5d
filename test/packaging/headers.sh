#!/bin/sh
# Every public header compiles on its own: C11 with -pedantic, C++17, and
# with the compiler builtins of the inline fast paths unavailable
# (__has_builtin answering 0: KFDSIG_EXPECT / KFDSIG_MEMCPY fall back to
# plain C, common.h). Usage: headers.sh INCLUDE_DIR
set -eu
inc=$1
cc=${CC:-cc}
cxx=${CXX:-c++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for h in "$inc"/kfdsig/*.h; do
  name=$(basename "$h")
  printf '#include <kfdsig/%s>\n' "$name" >"$tmp/t.c"
  # a use of the inline fast path, so its body is compiled in every mode
  printf '#include <kfdsig/pm4.h>\nint use(const struct kfdsig_pm4_fence_tmpl *t, uint32_t *b);\nint use(const struct kfdsig_pm4_fence_tmpl *t, uint32_t *b) { return kfdsig_pm4_fence_write(t, b, 8, 5); }\n' >>"$tmp/t.c"
  # the size-carrying struct initialisers, with and without fields
  printf '#include <kfdsig/kfd.h>\nint opts(void);\nint opts(void) { KFDSIG_OPTS(kfdsig_queue_opts, a); KFDSIG_OPTS(kfdsig_queue_opts, b, .ring_size = 4096); return (int)(a.sz + b.ring_size); }\n' >>"$tmp/t.c"
  if ! "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -I"$inc" -fsyntax-only "$tmp/t.c"; then
    echo "FAIL: $name as C11"; status=1
  fi
  if command -v "$cxx" >/dev/null && ! "$cxx" -std=c++17 -Wall -Werror -I"$inc" -x c++ -fsyntax-only "$tmp/t.c"; then
    echo "FAIL: $name as C++17"; status=1
  fi
  # no builtins: redefining __has_builtin draws a warning, nothing else may
  if ! "$cc" -std=c11 -Wall -Werror=implicit-function-declaration -Werror=int-conversion \
      -D'__has_builtin(x)=0' -I"$inc" -fsyntax-only "$tmp/t.c" 2>"$tmp/err"; then
    cat "$tmp/err"; echo "FAIL: $name without __builtin_expect / __builtin_memcpy"; status=1
  fi
done
[ $status = 0 ] && echo "every public header compiles as C11, C++17 and without builtins"
exit $status

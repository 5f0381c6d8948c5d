#!/bin/sh
# The test job: install dependencies, check formatting, build with warnings
# as errors and run every test, then again under ASan + UBSan.
set -eu
cd "$(dirname "$0")/.."
. ./scripts/deps.sh
kfdsig_install_deps

echo "== format check (clang-format, .clang-format)"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find include src tools test bench -name '*.[ch]')
# shellcheck disable=SC2086
clang-format --dry-run --Werror $files

echo "== build and test"
cmake --preset default >/dev/null
cmake --build --preset default
ctest --preset default

echo "== build and test under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset sanitize

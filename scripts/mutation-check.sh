#!/bin/bash
# Mutation check: apply each deliberate fault of test/mutations/faults.txt,
# alone, to a scratch copy of the tree (build/mutation/src, reused between
# runs), build only what the fault's tests need in one scratch build
# directory (build/mutation/build, incremental), run those tests, and fail
# if any fault survives (its tests all pass) or if a fault's anchor no
# longer matches exactly once (the code moved: the check must not skip).
#
#   scripts/mutation-check.sh [-l] [-j N] [NAME...]
#     -l     list the faults and check their anchors, build nothing
#     -j N   N shards at once, each with its own scratch copy and build
#            (build/mutation-K). The shards share the work: shard 0 builds
#            first and the others after it (their compiles are then ccache
#            hits), each runs 1/N of the baseline's tests and reads the
#            others' times, then each takes the next fault of one list,
#            costliest first (the baseline times of its tests), until none
#            is left. Many tests wait more than they compute, so 2 shards
#            on 2 CPUs finish in well under the time of one; the shards'
#            reports follow each other, and the check fails when one does.
#     NAME   only these faults (default: all)
#
# How to add a fault: docs/testing.md.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
faults=$root/test/mutations/faults.txt
# KFDSIG_MUTATION_SHARD=K/N (set by -j): this run is shard K of N, in its
# own scratch directory; KFDSIG_MUTATION_SHARE (set by -j too): the
# directory through which the shards share their baseline and fault list.
shard=${KFDSIG_MUTATION_SHARD:-}
share=${KFDSIG_MUTATION_SHARE:-}
kid=${shard%/*} nshards=${shard#*/}
if [ -n "$shard" ]; then
  if [ ! -f "$share/next" ]; then
    echo "mutation-check: a shard runs under -j only (no shared directory '$share')"
    exit 2
  fi
fi
tmpdir=""
# shellcheck disable=SC2317 # the EXIT trap
on_exit() {
  # whatever way a shard ends before its baseline is done, the others
  # must not wait for it (below)
  [ -z "$shard" ] || [ -e "$share/tested-$kid" ] || : >"$share/failed-$kid"
  [ -z "$tmpdir" ] || [ "$tmpdir" = "$work/tmp" ] || rm -rf "$tmpdir"
}
trap on_exit EXIT
work=$root/build/mutation${shard:+-${shard%/*}}
src=$work/src
bld=$work/build
per_test_timeout=${KFDSIG_MUTATION_TEST_TIMEOUT:-60}
list_only=0
start=$(date +%s)
jobs=1
while [ $# -gt 0 ]; do
  case $1 in
  -l) list_only=1 ;;
  -j)
    jobs=${2:-}
    shift
    ;;
  *) break ;;
  esac
  shift
done
case $jobs in
'' | *[!0-9]* | 0)
  echo "mutation-check: -j wants a number of shards from 1 to 8, not '$jobs'"
  exit 2
  ;;
esac
if [ "$jobs" -gt 8 ]; then
  echo "mutation-check: -j wants a number of shards from 1 to 8, not '$jobs'"
  exit 2
fi
if [ "$jobs" -gt 1 ] && [ "$list_only" = 0 ] && [ -z "${KFDSIG_MUTATION_SHARD:-}" ]; then
  share=$root/build/mutation-share
  rm -rf "$share"
  mkdir -p "$share"
  echo 0 >"$share/next"
  pids=()
  for ((k = 0; k < jobs; k++)); do
    KFDSIG_MUTATION_SHARD=$k/$jobs KFDSIG_MUTATION_SHARE=$share \
      "$root/scripts/mutation-check.sh" "$@" >"$root/build/mutation-$k.log" 2>&1 &
    pids+=($!)
  done
  rc=0
  for ((k = 0; k < jobs; k++)); do
    wait "${pids[k]}" || rc=1
    echo "-- shard $((k + 1)) of $jobs"
    cat "$root/build/mutation-$k.log"
  done
  echo "mutation check: $jobs shards in $(($(date +%s) - start))s"
  [ "$rc" = 0 ] || echo "mutation-check: FAILED (see the shards above)"
  exit "$rc"
fi
want=" $* "

# ---- parse the fault list ------------------------------------------------
names=() files=() finds=() repls=() tests=()
parse_error=0
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
  '' | '#'*) continue ;;
  '['*']')
    names+=("${line:1:${#line}-2}")
    files+=("") finds+=("") repls+=("") tests+=("")
    ;;
  *' = '*)
    key=${line%% = *} val=${line#* = } i=$((${#names[@]} - 1))
    if [ "$i" -lt 0 ]; then
      echo "mutation-check: $faults: '$line' before the first [name]"
      parse_error=1
      continue
    fi
    case $key in
    file) files[i]=$val ;;
    find) finds[i]=$val ;;
    replace) repls[i]=$val ;;
    tests) tests[i]=$val ;;
    *)
      echo "mutation-check: $faults: unknown key '$key' in [${names[i]}]"
      parse_error=1
      ;;
    esac
    ;;
  *)
    echo "mutation-check: $faults: cannot read '$line'"
    parse_error=1
    ;;
  esac
done <"$faults"
for i in "${!names[@]}"; do
  if [ -z "${files[i]}" ] || [ -z "${finds[i]}" ] || [ -z "${repls[i]}" ] || [ -z "${tests[i]}" ]; then
    echo "mutation-check: [${names[i]}] needs file, find, replace and tests"
    parse_error=1
  fi
done
[ "$parse_error" = 0 ] || exit 1

# selected NAME: the fault is asked for (the shards share out the faults
# as they go, below).
selected() {
  [ "$want" = "  " ] || [[ $want == *" $1 "* ]]
}

# Replace the one occurrence of FIND in FILE by REPL (env FIND, REPL; \n \t
# \\ escapes). Exit 3 when FIND does not occur exactly once (file untouched);
# with CHECK=1 only count.
apply() {
  FIND=$2 REPL=$3 CHECK=${4:-0} perl -e '
    my ($path) = @ARGV;
    sub unesc { my $s = shift; $s =~ s/\\(n|t|\\)/$1 eq "n" ? "\n" : $1 eq "t" ? "\t" : "\\"/ge; $s }
    my ($f, $r) = (unesc($ENV{FIND}), unesc($ENV{REPL}));
    open(my $fh, "<", $path) or die "cannot read $path: $!\n";
    local $/; my $s = <$fh>; close $fh;
    my ($n, $pos) = (0, 0);
    while (($pos = index($s, $f, $pos)) >= 0) { $n++; $pos += length $f; }
    if ($n != 1) { print STDERR "anchor found $n times\n"; exit 3; }
    exit 0 if $ENV{CHECK};
    substr($s, index($s, $f), length $f) = $r;
    open($fh, ">", $path) or die "cannot write $path: $!\n";
    print $fh $s; close $fh;' "$1"
}

# ---- every anchor must match the tree as it is -----------------------------
drift=0
for i in "${!names[@]}"; do
  selected "${names[i]}" || continue
  if [ ! -f "$root/${files[i]}" ]; then
    echo "mutation-check: DRIFT [${names[i]}]: ${files[i]} does not exist"
    drift=1
  elif ! msg=$(apply "$root/${files[i]}" "${finds[i]}" "${repls[i]}" 1 2>&1); then
    echo "mutation-check: DRIFT [${names[i]}]: '${finds[i]}' in ${files[i]}: $msg"
    drift=1
  fi
done
if [ "$drift" != 0 ]; then
  echo "mutation-check: FAILED: update the anchors in test/mutations/faults.txt"
  exit 1
fi
if [ "$list_only" = 1 ]; then
  for i in "${!names[@]}"; do
    selected "${names[i]}" && printf '%-28s %-28s %s\n' "${names[i]}" "${files[i]}" "${tests[i]}"
  done
  exit 0
fi

# ---- the scratch copy: only files that changed are copied (mtimes of the
# others stay, so the build is incremental) ------------------------------
mkdir -p "$src" "$work/tmp"
# The tests' TMPDIR: a directory of /dev/shm where it suits them
# (scripts/shm-tmpdir.sh), else $work/tmp.
. "$root/scripts/shm-tmpdir.sh"
tmpdir=$(kfdsig_shm_tmpdir kfdsig-mutation) || tmpdir=$work/tmp
if git rev-parse --git-dir >/dev/null 2>&1; then
  list=$(git ls-files --cached --others --exclude-standard | grep -v '^build/')
else
  list=$(find CMakeLists.txt CMakePresets.json cmake include src tools test bench docs scripts \
    -type f 2>/dev/null)
fi
while IFS= read -r f; do
  [ -f "$f" ] || continue
  if ! cmp -s "$f" "$src/$f"; then
    mkdir -p "$src/$(dirname "$f")"
    cp "$f" "$src/$f"
  fi
done <<<"$list"
# files gone from the tree go from the copy too
(cd "$src" && find . -type f | sed 's|^\./||' | sort) >"$work/copy.list"
sort <<<"$list" >"$work/tree.list"
comm -23 "$work/copy.list" "$work/tree.list" | while IFS= read -r f; do rm -f "$src/$f"; done

# -O1 without debug information: each fault recompiles a file and relinks,
# and the shader unit's largest files build 2.5 times faster so than at
# -O2 -g; the tests' bounds come from the baseline run of this same build.
# (Re)configured each run, so a scratch build of older flags follows.
gen=()
[ -f "$bld/CMakeCache.txt" ] || { command -v ninja >/dev/null && gen=(-G Ninja); }
# ccache (when installed): the file a fault edited is compiled again from
# its restored text before the next fault's build, which the cache answers
# from the baseline's compile (a second compile per fault saved); one
# cache for the shards, paths below the scratch copy hashed as relative.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_DIR=${CCACHE_DIR:-$root/build/mutation-ccache} CCACHE_BASEDIR=$work
  export CCACHE_NOHASHDIR=1
fi
# The forms of the opcode tables (test/CMakeLists.txt, sq-gen-forms.py):
# one cache with the presets' builds, so that a table text seen before (the
# unmutated one, a restored one) is not sent through llvm-mc again.
cmake -S "$src" -B "$bld" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_C_FLAGS="-O1 -DNDEBUG" -DKFDSIG_WERROR=ON -DKFDSIG_BUILD_BENCH=OFF \
  -DKFDSIG_LANE_O3=OFF -DKFDSIG_SQK_FORMS_CACHE="$root/build/sqk-forms-cache" >/dev/null || {
  echo "mutation-check: cannot configure $bld"
  exit 1
}

targets_of() {
  local t out=()
  for t in $1; do
    case $t in
    suite_framework) out+=(test_suite_framework) ;; # a unit test of src/suite
    cli_* | suite_* | bench_plot | tty_output) out+=(kfdsig_cli) ;;
    debug_trap_* | debug_exceptions_*) out+=(kfdsig_cli kfdsig_preload client_trap_queue) ;;
    preload_*) out+=("test_$t" kfdsig_cli kfdsig_preload) ;;
    trace_*) out+=(kfdsig_cli kfdsig_preload test_trace_client) ;;
    # Debian's ROCm clients under kfdsig exec; ours are built by name
    client_hip_host_* | client_hip_unknown_*) out+=(kfdsig_cli kfdsig_preload client_hip_host) ;;
    client_hip_peer_*) out+=(kfdsig_cli kfdsig_preload client_hip_peer) ;;
    client_hip_kernel_*) out+=(kfdsig_cli kfdsig_preload client_hip_kernel) ;;
    client_hip_illegal_*) out+=(kfdsig_cli kfdsig_preload client_hip_illegal) ;;
    client_hip_gfx8_*) out+=(kfdsig_cli kfdsig_preload client_hip_gfx8) ;;
    client_hip_printf_*) out+=(kfdsig_cli kfdsig_preload client_hip_printf) ;;
    client_hip_coop_*) out+=(kfdsig_cli kfdsig_preload client_hip_coop) ;;
    client_hsakmt_queue_*) out+=(kfdsig_cli kfdsig_preload client_hsakmt_queue) ;;
    client_userq_emu | client_userq_emu_*) out+=(kfdsig_cli kfdsig_preload client_userq_emu) ;;
    judge_*) t=${t#judge_}; out+=(kfdsig_cli kfdsig_preload "client_judge_${t%_gfx*}") ;;
    client_*) out+=(kfdsig_cli kfdsig_preload) ;;
    main_job) out+=(kfdsig_cli kfdsig_preload client_hip_kernel client_hip_printf) ;;
    abi_compat | exports*) out+=(kfdsig kfdsig-emu) ;;
    script_*) out+=(kfdsig_obj) ;; # tests of scripts/: nothing to build
    *) out+=("test_$t") ;;
    esac
  done
  echo "${out[@]}"
}

# Each test's time in the baseline run (whole seconds), and the bound of
# its runs under a fault: 4 times that plus 15 s, at most per_test_timeout.
# A fault that makes a wait hang is then killed in seconds, not a minute
# (a run past the bound counts as failing, as a hang does).
declare -A base_time=()

bound_of() {
  local b=${base_time[$1]:-} t
  if [ -z "$b" ]; then
    echo "$per_test_timeout"
    return
  fi
  t=$((4 * b + 15))
  [ "$t" -gt "$per_test_timeout" ] && t=$per_test_timeout
  echo "$t"
}

# Run the tests one by one, each bounded (a fault that makes a wait time
# out must not cost the whole test's own limit); print the first failing
# one and return 1, or return 0 when all pass (exit 77, a skip, passes).
# With a second argument, note each test's time in that file.
run_tests() {
  local t rc t0 to
  : >"$work/test.log"
  for t in $1; do
    t0=$(date +%s)
    to=$(bound_of "$t")
    case $t in
    cli_* | suite_* | bench_plot | tty_output | debug_trap_* | debug_exceptions_* | preload_* | trace_* | client_* | judge_* | abi_compat | \
      exports* | script_* | main_job)
      TMPDIR=$tmpdir timeout -k 5 "$to" ctest --test-dir "$bld" -R "^$t\$" \
        --output-on-failure >>"$work/test.log" 2>&1
      rc=$?
      ;;
    *)
      TMPDIR=$tmpdir timeout -k 5 "$to" "$bld/test/test_$t" >>"$work/test.log" 2>&1
      rc=$?
      ;;
    esac
    [ -n "${2:-}" ] && echo "$t $(($(date +%s) - t0))" >>"$2"
    if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
      [ "$rc" = 124 ] && t="$t (timed out)"
      echo "$t"
      return 1
    fi
  done
  return 0
}

# The unmutated tree must build and pass the selected tests first, or a
# "killed" fault would prove nothing. In a shard: shard 0 builds first, the
# others after it (one cold compile of each file, the rest ccache hits);
# each shard runs the tests j of the sorted list with j % N == K (the
# builds are of the same sources and flags: a test that passes in one
# passes in all) and reads the others' times. Each shard leaves
# $share/built-K, $share/tested-K or $share/failed-K; a shard stops when
# another failed.
shard_note() { [ -z "$shard" ] || : >"$share/$1-$kid"; }
shard_wait() { # shard_wait WHAT K...: wait for $share/WHAT-K of each K
  local what=$1 k w=0
  shift
  for k in "$@"; do
    while [ ! -e "$share/$what-$k" ]; do
      if [ -e "$share/failed-$k" ]; then
        echo "mutation-check: shard $k failed (its report says why)"
        exit 1
      fi
      if [ "$w" -ge 7200 ]; then
        echo "mutation-check: shard $k did not finish its baseline in 2 hours"
        exit 1
      fi
      sleep 1
      w=$((w + 1))
    done
  done
}
all_tests=""
for i in "${!names[@]}"; do
  selected "${names[i]}" && all_tests="$all_tests ${tests[i]}"
done
all_tests=$(tr ' ' '\n' <<<"$all_tests" | sort -u | tr '\n' ' ' | sed 's/^ *//; s/ *$//')
my_tests=$all_tests
if [ -n "$shard" ]; then
  my_tests=$(tr ' ' '\n' <<<"$all_tests" | awk -v k="$kid" -v n="$nshards" '(NR - 1) % n == k' |
    tr '\n' ' ' | sed 's/ *$//')
  [ "$kid" = 0 ] || shard_wait built 0
fi
echo "== mutation check: baseline build ($all_tests)"
# shellcheck disable=SC2046
if ! cmake --build "$bld" -j2 --target $(targets_of "$all_tests") >"$work/build.log" 2>&1; then
  tail -n 30 "$work/build.log"
  echo "mutation-check: the unmutated tree does not build"
  exit 1
fi
shard_note built
echo "== mutation check: baseline tests ($my_tests)"
: >"$work/times"
if failed=$(run_tests "$my_tests" "$work/times"); then
  if [ -n "$shard" ]; then
    cp "$work/times" "$share/times-$kid"
    shard_note tested
    # shellcheck disable=SC2046
    shard_wait tested $(seq 0 $((nshards - 1)))
    cat "$share"/times-* >"$work/times"
  fi
  while read -r t secs; do
    base_time[$t]=$secs
  done <"$work/times"
else
  tail -n 60 "$work/test.log"
  echo "mutation-check: the unmutated tree fails $failed"
  exit 1
fi

# The faults in the order they run: in shards, costliest first (the sum
# of its tests' baseline times), each shard taking the next one left, so
# that the shards end together; alone, in the file's order.
order=()
for i in "${!names[@]}"; do
  selected "${names[i]}" || continue
  if [ -n "$shard" ]; then
    c=0
    for t in ${tests[i]}; do c=$((c + ${base_time[$t]:-0})); done
    order+=("$c $i")
  else
    order+=("0 $i")
  fi
done
if [ -n "$shard" ] && [ ${#order[@]} -gt 0 ]; then
  mapfile -t order < <(printf '%s\n' "${order[@]}" | sort -k1,1nr -k2,2n)
fi
# next_fault: the next position of $order this run takes, or none
next_pos=0
next_fault() {
  local n
  if [ -z "$shard" ]; then
    n=$next_pos
    next_pos=$((next_pos + 1))
  else
    n=$({
      flock 9
      n=$(cat "$share/next")
      echo $((n + 1)) >"$share/next"
      echo "$n"
    } 9>>"$share/lock")
  fi
  [ "$n" -lt "${#order[@]}" ] || return 1
  pos=$n
}

survived=() broken=() killed=0 total=0
while next_fault; do
  i=${order[pos]#* }
  total=$((total + 1))
  name=${names[i]} file=$src/${files[i]} t0=$(date +%s)
  cp "$file" "$work/orig"
  if ! apply "$file" "${finds[i]}" "${repls[i]}"; then
    broken+=("$name (anchor)")
    continue
  fi
  # shellcheck disable=SC2046
  if ! cmake --build "$bld" -j2 --target $(targets_of "${tests[i]}") >"$work/build.log" 2>&1; then
    result="DOES NOT BUILD"
    broken+=("$name")
  elif failed=$(run_tests "${tests[i]}"); then
    result="SURVIVED"
    survived+=("$name")
  else
    result="killed by $failed"
    killed=$((killed + 1))
  fi
  # restore with a new mtime so the next build recompiles the file
  cp "$work/orig" "$file"
  printf '  %-28s %-40s %3ds\n' "$name" "$result" $(($(date +%s) - t0))
done

elapsed=$(($(date +%s) - start))
echo "mutation check: $killed of $total faults killed in ${elapsed}s"
if [ ${#broken[@]} -gt 0 ]; then
  echo "mutation-check: FAILED: faults that do not apply or build: ${broken[*]}"
  exit 1
fi
if [ ${#survived[@]} -gt 0 ]; then
  echo "mutation-check: FAILED: faults no test catches: ${survived[*]}"
  exit 1
fi
exit 0

#!/bin/sh
# Install what kfdsig needs, from Debian's packages, only when something is
# missing. Sourced by run-main.sh (build list only) and run-tests.sh (both).
#   build:  cmake, a C compiler, pkg-config, libdrm-dev (libdrm_amdgpu),
#           scdoc (man pages from docs/man/*.scd)
#   check:  llvm-22 (llvm-mc, llvm-objdump) and lld-22 (ld.lld): the shader
#           stubs' freshness test; clang-format (CI format check), python3 +
#           binutils nm (scripts/check-cycles.py), clang + libclang-rt-14-dev
#           (libFuzzer decoder fuzzing), jq and python3-jsonschema (JSON
#           checks against docs/schema), groff-base (man page lint),
#           librsvg2-bin (rsvg-convert: the bench plot test), libhsakmt-dev
#           and libhsa-runtime-dev (Debian's ROCt thunk and ROCr 5.2.3: the
#           outside KFD clients test/clients/ runs under `kfdsig exec`), hipcc
#           (the HIP programs of test/clients/),
#           rocminfo and libamdhip64-dev (ROCm's rocminfo and HIP 5.2.3 host
#           runtime: the rocminfo and HIP client tests, the main job's ROCm
#           section), rocm-smi (the client_rocm_smi tests), librocprim-dev,
#           librocrand-dev, libhiprand-dev, librocsparse-dev and
#           libhipsparse-dev (AMD's GPU libraries: the library judges
#           test/clients/judge_*.hip, built by hipcc), dpkg-dev, debhelper
#           and lintian (the Debian packages' test, test/packaging/deb.sh),
#           ccache (the mutation check's rebuilds, scripts/mutation-check.sh)
KFDSIG_BUILD_DEBS="cmake gcc make pkg-config libdrm-dev scdoc"
KFDSIG_CHECK_DEBS="llvm-22 lld-22 clang libclang-rt-14-dev clang-format python3 binutils jq python3-jsonschema groff-base librsvg2-bin libhsakmt-dev libhsa-runtime-dev rocminfo libamdhip64-dev hipcc rocm-smi librocprim-dev librocrand-dev libhiprand-dev librocsparse-dev libhipsparse-dev dpkg-dev debhelper lintian ccache"
KFDSIG_DEBS="$KFDSIG_BUILD_DEBS $KFDSIG_CHECK_DEBS"
# The main job also runs Debian's libhsakmt clients under kfdsig exec, and a
# HIP program with kernels built by hipcc (its compiled-kernels section;
# hipcc brings libamdhip64-dev and rocminfo, which its ROCm section runs),
# and the library judges against AMD's GPU libraries.
KFDSIG_MAIN_DEBS="$KFDSIG_BUILD_DEBS libhsakmt-dev hipcc librocprim-dev librocrand-dev libhiprand-dev librocsparse-dev libhipsparse-dev"

kfdsig_missing_debs() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf '%s ' "$p"
  done
}

# kfdsig_install_deps [build|main|all]: the build list, the main job's, or
# everything (default).
# apt's output goes to a log that is shown only when apt fails.
kfdsig_install_deps() {
  case ${1:-all} in
  build) want=$KFDSIG_BUILD_DEBS ;;
  main) want=$KFDSIG_MAIN_DEBS ;;
  *) want=$KFDSIG_DEBS ;;
  esac
  # shellcheck disable=SC2086
  missing=$(kfdsig_missing_debs $want)
  [ -z "$missing" ] && return 0
  echo "kfdsig: installing $missing" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  log=$(mktemp)
  # shellcheck disable=SC2086
  if ! { $sudo apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing; } \
    >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

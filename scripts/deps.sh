#!/bin/sh
# Install what kfdsig needs to build and test, from Debian's packages, only
# when something is missing. Sourced by run-main.sh and run-tests.sh.
#   build:  cmake, a C compiler, pkg-config, libdrm-dev (libdrm_amdgpu)
#   stubs:  llvm-22 (llvm-mc, llvm-objdump) and lld-22 (ld.lld), build time only
#   checks: clang-format (CI format check), clang + libclang-rt-14-dev
#           (libFuzzer decoder fuzzing), jq (JSON checks)
#   clients: libhsakmt-dev and libhsa-runtime-dev (Debian's ROCt thunk and
#           ROCr 5.2.3), the outside KFD clients test/clients/ runs under
#           `kfdsig exec`
KFDSIG_DEBS="cmake gcc make pkg-config libdrm-dev llvm-22 lld-22 clang libclang-rt-14-dev clang-format jq libhsakmt-dev libhsa-runtime-dev"

kfdsig_missing_debs() {
  for p in $KFDSIG_DEBS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf '%s ' "$p"
  done
}

kfdsig_install_deps() {
  missing=$(kfdsig_missing_debs)
  [ -z "$missing" ] && return 0
  echo "kfdsig: installing $missing" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -q >/dev/null || return 1
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
}

#!/bin/sh
# Sourced by run-tests.sh and mutation-check.sh: kfdsig_shm_tmpdir NAME
# makes and prints a directory /dev/shm/NAME-XXXXXX for the tests' TMPDIR
# when /dev/shm is writable, has 1 GiB free and is not mounted noexec
# (some tests build and run programs in TMPDIR); else it fails, printing
# nothing. The emulator writes a sysfs tree of about 110 files per emulator
# into TMPDIR: on ext4 the inodes of many trees made and removed cost a test
# such as kfd_shader_alias 22 s instead of 4 in this RAM file system.
kfdsig_shm_tmpdir() {
  [ -w /dev/shm ] &&
    [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -ge 1048576 ] 2>/dev/null &&
    ! awk '$2 == "/dev/shm" { print $4 }' /proc/mounts 2>/dev/null | grep -q noexec &&
    mktemp -d "/dev/shm/$1-XXXXXX" 2>/dev/null
}

#!/bin/sh
# make check's soak tier (issue 48): selftests/soak.sh for 5 minutes per
# host with seed 1 (RBLK_SOAK_MINUTES and RBLK_SOAK_SEED on the kernel
# command line override them), in the core tier's guest (CORE_TESTS);
# make soak-debug runs it on the debug guest with the Makefile's minutes
# and seed.  make soak runs the hour, with a new seed each time.
# rblk-timeout: 1800
# rblk-lockdep: port-disable
RBLK_SOAK_MINUTES=${RBLK_SOAK_MINUTES:-5} RBLK_SOAK_SEED=${RBLK_SOAK_SEED:-1}
export RBLK_SOAK_MINUTES RBLK_SOAK_SEED
exec /bin/sh "$(dirname "$0")/../soak.sh"

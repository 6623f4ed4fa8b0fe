#!/bin/sh
# Proves the per-test timeout works and kills the whole test, children too:
# sleeps far past its 5 s limit.  Only run when named:
#	make check T=selftest_timeout        must exit non-zero
# rblk-timeout: 5
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

sleep 600 &
log "sleeping past the limit (child $!)"
sleep 600

#!/bin/sh
# Proves a kernel splat fails a test that itself passed: sysrq 'l' makes the
# kernel print stack dumps ("Call Trace:").  Only run when named:
#	make check T=selftest_kernel_splat   must exit non-zero
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

echo l > /proc/sysrq-trigger
sleep 1
exit 0

#!/bin/sh
# Proves the harness fails a test whose shell could not run a command (a
# helper that is not defined), though the test itself exits 0.  Never run
# by default (selftests/meta/ is only searched for tests named explicitly):
#	make check T=selftest_shell_error    must exit non-zero
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_no_such_helper 2>&1
exit 0

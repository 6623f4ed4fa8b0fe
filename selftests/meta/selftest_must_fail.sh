#!/bin/sh
# Proves the harness reports failure: this test always fails.  Never run by
# default (selftests/meta/ is only searched for tests named explicitly):
#	make check T=selftest_must_fail      must exit non-zero
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

fail "deliberate failure (harness self-check)"

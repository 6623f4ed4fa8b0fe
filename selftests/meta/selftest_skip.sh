#!/bin/sh
# Shows how a skip is reported (ok N name # SKIP reason).  Only run when named.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

skip "nothing to test here (harness self-check)"

#!/bin/sh
# First test of `make check-debug`: scans for leaks once and forgets whatever
# the boot and the fabric setup (kernel code, no rblk yet) left behind, so
# kmemleak_scan at the end reports only what the selftests leaked.  The
# objects found here are listed, not judged.  Skips without kmemleak.
# rblk-timeout: 900
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

KML=/sys/kernel/debug/kmemleak
[ -e "$KML" ] || skip "no $KML (kernel without CONFIG_DEBUG_KMEMLEAK)"
must sh -c "echo scan > $KML"
n=$(grep -c '^unreferenced object' "$KML")
log "$n object(s) suspected before the selftests (boot/fabric setup), cleared:"
grep -A 12 '^unreferenced object' "$KML" | head -n 60
must sh -c "echo clear > $KML"
exit 0

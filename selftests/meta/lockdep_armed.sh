#!/bin/sh
# After the selftests of `make check-debug`: lockdep must still be armed.
# Its first report (from rblk or anything else) switches it off for the
# rest of the boot, so a run whose reports were all filtered or missed
# would otherwise pass with lockdep watching nothing.  Also checks that it
# saw locking at all.  Skips on a kernel without lockdep.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

STATS=/proc/lockdep_stats
[ -r "$STATS" ] || skip "no $STATS (kernel without CONFIG_PROVE_LOCKING)"
armed=$(sed -n 's/^ *debug_locks: *//p' "$STATS")
classes=$(sed -n 's/^ *lock-classes: *\([0-9]*\).*/\1/p' "$STATS")
deps=$(sed -n 's/^ *direct dependencies: *\([0-9]*\).*/\1/p' "$STATS")
log "debug_locks $armed, $classes lock classes, $deps direct dependencies"
[ "$armed" = 1 ] || fail "lockdep is off (debug_locks $armed): a report earlier in this boot turned it off"
[ "${deps:-0}" -gt 1000 ] || fail "lockdep recorded only ${deps:-0} dependencies: not watching"
exit 0

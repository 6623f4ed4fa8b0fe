#!/bin/sh
# After the selftests of `make check-debug`: lockdep must still be armed.
# Its first report switches it off for the rest of the boot, so a run whose
# reports were all filtered or missed would otherwise pass with lockdep
# watching nothing.  The one exception is a report selftests/known-splats
# lists (another subsystem's), seen in this boot's kernel log: the tests
# that provoke it run last, so lockdep watched all the others.  Also checks
# that lockdep saw locking at all.  Skips on a kernel without lockdep.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

STATS=/proc/lockdep_stats
ALL=/var/log/dmesg.all
[ -r "$STATS" ] || skip "no $STATS (kernel without CONFIG_PROVE_LOCKING)"
armed=$(sed -n 's/^ *debug_locks: *//p' "$STATS")
deps=$(sed -n 's/^ *direct dependencies: *\([0-9]*\).*/\1/p' "$STATS")
log "debug_locks $armed, $deps direct dependencies"
[ "${deps:-0}" -gt 1000 ] || fail "lockdep recorded only ${deps:-0} dependencies: not watching"
[ "$armed" = 1 ] && exit 0

# Off: only a listed report may have done it, and nothing else may be there.
dmesg >> "$ALL" 2>/dev/null
known=$(splat_filter < "$ALL" | grep 'rblk-known-splat: lockdep')
other=$(splat_filter < "$ALL" | grep -E 'possible circular|possible recursive|inconsistent lock state|suspicious RCU|BUG: ')
[ -n "$other" ] && fail "lockdep is off after a report not listed in known-splats: $other"
[ -n "$known" ] || fail "lockdep is off (debug_locks $armed) with no report in this boot's log"
log "lockdep switched itself off at a listed report: $known"
exit 0

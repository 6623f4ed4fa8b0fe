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
# ... during a test that says it disables a port (run last): had it come
# earlier, lockdep would have watched none of the tests after it.
first=$(splat_filter < "$ALL" | grep -m1 'rblk-known-splat: lockdep')
during=$(splat_filter < "$ALL" | awk -v k="$first" '
	index($0, "rblk-run: === ") == 1 { t = substr($0, 15) }
	index($0, k) { print t; exit }')
[ -n "$during" ] || fail "cannot tell which test the lockdep report came during"
t=$(dirname "$0")/../rblk/$during.sh
grep -q '^# rblk-lockdep: port-disable' "$t" 2>/dev/null ||
	fail "lockdep went off during $during, which does not say it disables a port (# rblk-lockdep: port-disable): the tests after it ran without lockdep"
log "the report came during $during, a port-disable test"
exit 0

#!/bin/sh
# An association that reads no ANA log (issue 44, finding 7), made with
# rblk's no_ana fault (debugfs; the debug kernel): the controller reports
# ANA, but its log buffer "cannot be allocated", so the host goes on
# without ANA while nvmet still answers with ANA statuses.  One path, with
# the default multipath:
#  - the group inaccessible: a write fails with EIO once its retries are
#    spent, within seconds (the path is not marked to wait for a log that
#    nobody reads);
#  - the group optimized again: the path is optimized, a verified write
#    and read pass, and the data is on the target.
# Before the fix the ANA status marked the path pending for ever: the
# first write, and every later one, waited in the head for a path.
# rblk-timeout: 200
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ -f "$RBLK_NVMET_PORT/ana_groups/1/ana_state" ] || skip "nvmet without ANA groups"
rblk_fault_test no_ana
restore() {
	nvmet_ana_set "$RBLK_NVMET_PORT" optimized 2>/dev/null
	rblk_fault_cleanup
}
trap restore EXIT

rblk_fault_arm 1
dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1
[ "$(cat "$F/times")" -eq 0 ] || fail "the fault never fired"
dmesg | grep -q 'ANA log buffer not allocated (injected), going on without ANA' ||
	fail "no 'going on without ANA' message: $(dmesg | tail -n 3)"
p=$(rblk_first_path "$dev") || fail "no path under $dev"
[ "$(cat "/sys/block/$p/ana_state")" = optimized ] ||
	fail "without ANA the path is $(cat "/sys/block/$p/ana_state"), not optimized"

nvmet_ana_set "$RBLK_NVMET_PORT" inaccessible
t0=$(date +%s)
rc=0
timeout 60 dd if=/dev/zero of="$dev" bs=4k count=1 oflag=direct 2>/tmp/ana-unread.err || rc=$?
t=$(($(date +%s) - t0))
[ "$rc" -eq 124 ] && fail "a write on the inaccessible path still waits after 60 s (the path held for a log nobody reads)"
[ "$rc" -ne 0 ] || fail "a write on the inaccessible path succeeded"
grep -q 'Input/output error' /tmp/ana-unread.err || fail "the write failed, but not with EIO: $(cat /tmp/ana-unread.err)"
[ "$t" -le 20 ] || fail "the write took ${t}s to fail"
log "group inaccessible, no ANA log: the write failed with EIO after ${t}s"

nvmet_ana_set "$RBLK_NVMET_PORT" optimized
pattern_file /tmp/ana-unread.pat 1048576
timeout 60 dd if=/tmp/ana-unread.pat of="$dev" bs=4096 count=256 oflag=direct conv=notrunc 2>/tmp/ana-unread.err ||
	fail "the write after the group came back failed: $(cat /tmp/ana-unread.err)"
timeout 60 dd if="$dev" of=/tmp/ana-unread.rd bs=4096 count=256 iflag=direct 2>/dev/null ||
	fail "the read after the group came back failed"
assert_same /tmp/ana-unread.pat /tmp/ana-unread.rd "read back through $dev"
assert_on_target "$dev" "$RBLK_BACKING" 1 "what was written through $dev"
[ "$(cat "/sys/block/$p/ana_state")" = optimized ] || fail "the path is $(cat "/sys/block/$p/ana_state")"
log "group optimized again: written, read back, on the target"
rm -f /tmp/ana-unread.*
exit 0

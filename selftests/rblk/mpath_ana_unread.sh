#!/bin/sh
# An association that reads no ANA log (issue 44, finding 7), made with
# rblk's no_ana fault (debugfs; the debug kernel): the controller reports
# ANA, but its log buffer "cannot be allocated", so the host goes on
# without ANA while nvmet still answers with ANA statuses.
# One path (A, port 1, no log), the default multipath:
#  - the group inaccessible on port 1: a write fails with EIO once its
#    retries are spent, within seconds (the path is not marked to wait for
#    a log that nobody reads);
#  - the group optimized again: the path is optimized, a verified write
#    and read pass.
# A second path (B, port 2, which reads its log), round-robin:
#  - the group inaccessible on port 1 again: a verified writer through the
#    head sees no error: A's ANA statuses fail over to B (A rests a moment
#    after each, RBLK_PATH_REST), and the data is on the target.
# Before the fix the first ANA status marked A pending for ever: the
# first write waited in the head for good (and with B, A's I/O went to B
# but A never came back).  Before the rest, A's ANA status without a log
# was retried on A only and failed with B healthy.
# rblk-timeout: 240
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ -f "$RBLK_NVMET_PORT/ana_groups/1/ana_state" ] || skip "nvmet without ANA groups"
rblk_fault_test no_ana
pid=
restore() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	nvmet_ana_set "$RBLK_NVMET_PORT" optimized 2>/dev/null
	rblk_fault_cleanup
	nvmet_port2_del
	rm -f /tmp/ana-unread.*
}
trap restore EXIT

rblk_fault_arm 1
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
[ "$(cat "$F/times")" -eq 0 ] || fail "the fault never fired"
dmesg | grep -q "$A: ANA log buffer not allocated (injected), going on without ANA" ||
	fail "no 'going on without ANA' message: $(dmesg | tail -n 3)"
pa=$(rblk_first_path "$dev") || fail "no path under $dev"
[ "$(cat "/sys/block/$pa/ana_state")" = optimized ] ||
	fail "without ANA the path is $(cat "/sys/block/$pa/ana_state"), not optimized"

# dd waits in D state if the head holds its bio: no timeout could end it.
nvmet_ana_set "$RBLK_NVMET_PORT" inaccessible
t0=$(date +%s)
dd if=/dev/zero of="$dev" bs=4k count=1 oflag=direct 2>/tmp/ana-unread.err &
pid=$!
wait_until 30 exited "$pid" ||
	fail "a write on the inaccessible path still waits after 30 s (held for a log nobody reads)"
rc=0
wait "$pid" || rc=$?
pid=
t=$(($(date +%s) - t0))
[ "$rc" -ne 0 ] || fail "a write on the inaccessible path succeeded"
grep -q 'Input/output error' /tmp/ana-unread.err ||
	fail "the write failed, but not with EIO: $(cat /tmp/ana-unread.err)"
log "one path, group inaccessible, no ANA log: the write failed with EIO after ${t}s"

nvmet_ana_set "$RBLK_NVMET_PORT" optimized
pattern_file /tmp/ana-unread.pat 1048576
timeout 60 dd if=/tmp/ana-unread.pat of="$dev" bs=4096 count=256 oflag=direct conv=notrunc \
	2>/tmp/ana-unread.err || fail "the write after the group came back failed: $(cat /tmp/ana-unread.err)"
timeout 60 dd if="$dev" of=/tmp/ana-unread.rd bs=4096 count=256 iflag=direct 2>/dev/null ||
	fail "the read after the group came back failed"
assert_same /tmp/ana-unread.pat /tmp/ana-unread.rd "read back through $dev"
[ "$(cat "/sys/block/$pa/ana_state")" = optimized ] || fail "the path is $(cat "/sys/block/$pa/ana_state")"
log "group optimized again: written and read back"

# B reads its log; A still does not.
nvmet_port2_add
B=$(rblk_connect_port_ctrl "$NVMET_SVC2") || exit "$KSFT_FAIL"
h=${dev##*/}
rblk_path_of "$h" "$B" > /dev/null || fail "no path of $h on $B: $(ls "/sys/block/$h/multipath")"
must nvmecfg set-iopolicy "$h" --iopolicy round-robin
fo0=$(cat "/sys/block/$h/rblk/failovers")
nvmet_ana_set "$RBLK_NVMET_PORT" inaccessible
verified_writer "$dev" 8 "port 1's group inaccessible, B healthy"
fo=$(($(cat "/sys/block/$h/rblk/failovers") - fo0))
[ "$fo" -gt 0 ] || fail "no failover counted: the writer never met A's ANA status"
log "two paths, group inaccessible on A (no log): no error, $fo failovers to B"
nvmet_ana_set "$RBLK_NVMET_PORT" optimized
assert_on_target "$dev" "$RBLK_BACKING" 4 "what the writer wrote through $dev"
exit 0

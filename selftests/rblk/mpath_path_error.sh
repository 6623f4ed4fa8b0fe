#!/bin/sh
# Path errors other than ANA's and the host's (issue 44, finding 8), made
# with rblk's path_error fault (debugfs; the debug kernel): every block
# I/O that controller A completes ends with 300h, Internal Path Error,
# without DNR, as from a path that fails while the controller answers.
# Two paths, the default multipath and its numa policy:
#  - a verified writer through the head sees no error: A's path errors
#    fail over to B (A rests a moment after each, RBLK_PATH_REST, so the
#    head does not choose it again at once), failovers are counted, and
#    the data is on the target;
#  - A alone (B disconnected): a write fails with EIO once its retries on A
#    are spent, within seconds, rather than going round for ever;
#  - the fault off: A serves again.
# Before the fix a 300h was retried on A only and the writer failed with
# B healthy (nvme-core fails any path error over, nvme_is_path_error()).
# rblk-timeout: 240
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_fault_test path_error
pid=
restore() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rblk_fault_cleanup
	nvmet_port2_del
	rm -f /tmp/path-error.*
}
trap restore EXIT

nvmet_port2_add
rblk_two_paths
idx=${A#rblk-ctrl}
echo "$idx" > "$F/ctrl_index" || fail "cannot set $F/ctrl_index"
rblk_fault_arm -1
fo0=$(cat "/sys/block/$h/rblk/failovers")
verified_writer "$dev" 8 "path errors on $A, B healthy"
fo=$(($(cat "/sys/block/$h/rblk/failovers") - fo0))
[ "$fo" -gt 0 ] || fail "no failover counted: A's path errors never met"
log "path errors on $A: no error through $h, $fo failovers to $B"

must nvmecfg disconnect "$B"
dd if=/dev/zero of="$dev" bs=4k count=1 oflag=direct 2>/tmp/path-error.err &
pid=$!
wait_until 30 exited "$pid" || fail "a write on A alone still goes round after 30 s"
rc=0
wait "$pid" || rc=$?
pid=
[ "$rc" -ne 0 ] || fail "a write succeeded on A alone, every I/O of which fails"
grep -q 'Input/output error' /tmp/path-error.err ||
	fail "the write failed, but not with EIO: $(cat /tmp/path-error.err)"
log "A alone: the write failed with EIO after its retries"

echo 0 > "$F/probability"
pattern_file /tmp/path-error.pat 1048576
timeout 60 dd if=/tmp/path-error.pat of="$dev" bs=4096 count=256 oflag=direct conv=notrunc \
	2>/tmp/path-error.err || fail "the write after the fault failed: $(cat /tmp/path-error.err)"
assert_on_target "$dev" "$RBLK_BACKING" 1 "what was written through $dev on A"
log "the fault off: A serves again"
exit 0

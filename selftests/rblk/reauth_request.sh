#!/bin/sh
# A target that asks the host to authenticate again: an I/O completing
# with status 191h (Authentication Required) without DNR, injected with
# rblk's auth_required fault (debugfs; the debug kernel: nvmet itself
# always sets DNR).  The controller reconnects (which authenticates every
# queue where the target asks), the command is retried on the new
# association and succeeds: no I/O error, the data on the target.  Always
# failing, every retry is refused: the write fails after its retries, with
# the status named, and the controller is live (no reset loop left).
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_fault_test auth_required

dev=$(rblk_connect "$RBLK_NSID_FILE" -c 1 -l 30) || exit 1
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
pattern_file /tmp/p 1048576
off=$((3 * 1048576))
before=$(rblk_attr "$dev" reconnects)

dmesg -c > /dev/null
rblk_fault_arm 1
dd if=/tmp/p of="$dev" bs=1048576 seek=$((off / 1048576)) oflag=direct \
	conv=notrunc 2> /tmp/dd.err ||
	fail "the write failed across the re-authentication: $(cat /tmp/dd.err)"
[ "$(cat "$F/times")" -eq 0 ] || fail "the fault never fired"
rblk_wait_state "$dev" live 30 || fail "$ctrl not live again: $(rblk_attr "$dev" state)"
dmesg | grep -q "$ctrl: target asks for authentication again: reconnecting" ||
	fail "no re-authentication message: $(dmesg | grep "$ctrl" | tail -n 5)"
[ "$(rblk_attr "$dev" reconnects)" -gt "$before" ] || fail "no reconnect"
dmesg | grep -q 'Authentication Required' &&
	fail "the retried write was logged as failed: $(dmesg | grep 'Authentication Required')"
read_region "$RBLK_BACKING" "$off" 1048576 /tmp/p.store
assert_same /tmp/p /tmp/p.store "the write in the target's backing file"
read_direct "$dev" "$off" 1048576 /tmp/p.dev
assert_same /tmp/p /tmp/p.dev "the write read back through $dev"
log "191h without DNR: reconnected, the write retried and on the target"

# A target that keeps asking: the command fails in the end, named.
rblk_fault_arm -1
if dd if=/tmp/p of="$dev" bs=4096 count=1 oflag=direct conv=notrunc \
	2> /tmp/dd.err; then
	fail "a write the target always refuses succeeded"
fi
echo 0 > "$F/probability"
dmesg | grep -q "${dev#/dev/}: Write(0x1) @ LBA .*Authentication Required" ||
	fail "the failed write's status is not named: $(dmesg | tail -n 5)"
rblk_wait_state "$dev" live 60 || fail "$ctrl not live after the refusals: $(rblk_attr "$dev" state)"
dd if="$dev" of=/dev/null bs=4096 count=16 iflag=direct 2>/dev/null ||
	fail "I/O fails after the injection stopped"
log "a target that keeps asking: the write failed after its retries, $ctrl live"
rblk_disconnect "$dev"
exit 0

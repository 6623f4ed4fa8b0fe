#!/bin/sh
# A target that asks the host to authenticate again: a block I/O
# completing with status 191h (Authentication Required) without DNR,
# injected with rblk's auth_required fault (debugfs; the debug kernel:
# nvmet itself always sets DNR).  This kernel cannot authenticate (the
# debug kernel is 6.1: no NVMe authentication library) and the controller
# holds no host key, so the write fails with the status named (nvme built
# without the library ends it too; with the library and no key it retries
# it), and nothing else happens: no reconnect, the controller
# live, I/O after it fine, the data written before it intact on the
# target.  (With a host key the controller reconnects, authenticating
# every queue, and the command is retried: Documentation/auth.rst,
# Re-authentication; not reachable on this kernel.)
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_fault_test auth_required

dev=$(rblk_connect "$RBLK_NSID_FILE" -c 1 -l 30) || exit 1
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
pattern_file /tmp/p 1048576
off=$((3 * 1048576))
dd if=/tmp/p of="$dev" bs=1048576 seek=$((off / 1048576)) oflag=direct \
	conv=notrunc 2>/dev/null || fail "the first write failed"
before=$(rblk_attr "$dev" reconnects)

dmesg -c > /dev/null
rblk_fault_arm 1
lba=$(( (off + 1048576) / $(cat "/sys/block/${dev#/dev/}/queue/logical_block_size") ))
if dd if=/tmp/p of="$dev" bs=4096 count=1 seek=$(((off + 1048576) / 4096)) \
	oflag=direct conv=notrunc 2> /tmp/dd.err; then
	fail "a write refused with 191h succeeded without a host key"
fi
[ "$(cat "$F/times")" -eq 0 ] || fail "the fault never fired"
echo 0 > "$F/probability"
dmesg | grep -q "${dev#/dev/}: Write(0x1) @ LBA $lba, [0-9]* blocks, Authentication Required (sct 0x1 / sc 0x91)\$" ||
	fail "the failed write's status is not named: $(dmesg | tail -n 5)"
dmesg | grep -q "$ctrl: target asks for authentication again" &&
	fail "a controller without a host key reconnected to authenticate"
[ "$(rblk_attr "$dev" state)" = live ] || fail "$ctrl not live: $(rblk_attr "$dev" state)"
[ "$(rblk_attr "$dev" reconnects)" -eq "$before" ] || fail "the controller reconnected"
read_region "$RBLK_BACKING" "$off" 1048576 /tmp/p.store
assert_same /tmp/p /tmp/p.store "the first write in the target's backing file"
read_direct "$dev" "$off" 1048576 /tmp/p.dev
assert_same /tmp/p /tmp/p.dev "the first write read back through $dev"
log "191h without DNR and no host key: the write failed, named; no reconnect, data intact"
rblk_disconnect "$dev"
exit 0

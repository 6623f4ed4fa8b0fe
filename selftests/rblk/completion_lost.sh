#!/bin/sh
# A request the target answered but whose SEND work completion never
# arrives (issue 28, finding 8), injected with rblk's drop_completion fault
# (debugfs; the debug kernel): its timer is extended once, then it times
# out like any other -- error recovery, a retry on the new association --
# and the write completes and is on the target.  Before, a request with
# its response in was given more time at every timeout while the
# controller was live: the write never ended.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

IO_TMO=3	# rblk io_timeout (s)

rblk_fault_test drop_completion io_timeout=$IO_TMO
dev=$(rblk_connect "$RBLK_NSID_FILE" -c 1 -l 60) || exit 1
rec=$(rblk_attr "$dev" reconnects)
pattern_file /tmp/p 4096
off=$((3 * 1048576))

rblk_fault_arm 1
dmesg -c > /dev/null
start=$(uptime_ms)
timeout 60 dd if=/tmp/p of="$dev" bs=4096 seek=$((off / 4096)) count=1 \
	oflag=direct conv=notrunc 2>/tmp/dd.err ||
	fail "the write whose completion was dropped did not end within 60 s: $(cat /tmp/dd.err)"
took=$(($(uptime_ms) - start))
echo 0 > "$F/probability"
[ "$(cat "$F/times")" -eq 0 ] || fail "the fault never fired (times $(cat "$F/times"))"
log "write ended after $took ms (io_timeout ${IO_TMO} s)"
# One extension, then the timeout: at least two periods.
[ "$took" -ge $((2 * IO_TMO * 1000 - 500)) ] ||
	fail "ended after $took ms: before its timer was extended once"
dmesg | grep -q "timed out" || fail "no timeout reported: $(dmesg | tail -n 5)"
rblk_wait_state "$dev" live 30 || fail "not live after the recovery"
[ "$(rblk_attr "$dev" reconnects)" -gt "$rec" ] || fail "no reconnect after the timeout"
read_direct "$dev" $off 4096 /tmp/p.back
assert_same /tmp/p /tmp/p.back "the write, read back"
read_region "$RBLK_BACKING" $off 4096 /tmp/p.store
assert_same /tmp/p /tmp/p.store "the write, on the target"
[ "$(rblk_attr "$dev" errors)" -eq 0 ] || fail "$(rblk_attr "$dev" errors) I/O errors"
rblk_disconnect "$dev"
exit 0

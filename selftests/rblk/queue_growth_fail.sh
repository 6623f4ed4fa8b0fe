#!/bin/sh
# A reconnect that is granted more I/O queues than any connect before, and
# fails after the tag set grew but before the new queues connected
# (issue 28, finding 1).  The hardware queue the growth adds must then
# hold or fail I/O like any other queue that is not live -- not dispatch
# to a queue that never had a controller (a NULL dereference in
# queue_rq before the fix).
#
# The trigger is deterministic: connected with CPU 1 offline, -i 2 -P 1
# gets one interrupt and one poll queue (queue 2 polls).  With CPU 1
# online again a reset asks for 2 + 1: queue 2 is connected as a poll
# queue under the old layout, the tag set grows to 3 hardware queues, and
# then queue 2 is found to be an interrupt queue in the new layout: the
# attempt fails ("the poll queues moved"), and queue 3's hardware queue
# (the poll map's) exists with nothing connected behind it.  Polled writes
# issued then wait on it.
#  1. The next attempt connects all three: the held polled writes are
#     served, and are read back and found on the target.
#  2. Again, but the controller is disconnected while the polled writes
#     wait: they fail (EIO), the disconnect completes, no kernel splat.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

CPU1=/sys/devices/system/cpu/cpu1/online
command -v fio >/dev/null 2>&1 || fail "fio is not in the guest"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
[ -w "$CPU1" ] || skip "CPU 1 cannot be taken offline"
DEV=
cleanup() {
	echo 1 > "$CPU1" 2>/dev/null
	[ -n "$DEV" ] && [ -e "/sys/block/${DEV##*/}" ] &&
		nvmecfg disconnect --force "${DEV##*/}" >/dev/null 2>&1
	rblk_unload
}
trap cleanup EXIT
rblk_load

# grow ROUND: connect with CPU 1 offline, bring it back, reset, wait for
# the failed attempt after the growth; sets DEV.
grow() {
	echo 0 > "$CPU1" || fail "$1: cannot take CPU 1 offline"
	DEV=$(rblk_connect "$RBLK_NSID_FILE" -i 2 -P 1 -c 20 -l 120) || exit 1
	echo 1 > "$CPU1" || fail "$1: cannot bring CPU 1 back"
	n=$(rblk_attr "$DEV" nr_io_queues)
	p=$(rblk_attr "$DEV" nr_poll_queues)
	if [ "$n" -ne 2 ] || [ "$p" -ne 1 ]; then
		fail "$1: $n I/O queues, $p polled with one CPU; expected 2 and 1"
	fi
	dmesg -c > /dev/null
	echo 1 > "/sys/class/rblk/$(rblk_ctrl_of "$DEV")/reset_controller" ||
		fail "$1: reset_controller refused"
	wait_until 30 dmesg_has "the poll queues moved" ||
		fail "$1: no failed attempt after the queue count grew: $(dmesg | tail -n 5)"
	[ "$(rblk_attr "$DEV" nr_io_queues)" -eq 3 ] ||
		fail "$1: the tag set did not grow to 3 queues"
	[ "$(rblk_attr "$DEV" state)" = connecting ] ||
		fail "$1: state $(rblk_attr "$DEV" state), expected connecting"
}
dmesg_has() { dmesg | grep -q "$1"; }

# polled_write OFFSET: 64 KiB of fio io_uring IOPOLL writes at OFFSET,
# each block with a crc32c header that fio checks on reading back once they
# are done, in the background; sets FIO_PID, fio's output in /tmp/fio.out.
polled_write() {
	fio --name=held --filename="$DEV" --ioengine=io_uring --hipri=1 \
		--direct=1 --rw=write --bs=4k --iodepth=4 --offset="$1" \
		--size=65536 --verify=crc32c --do_verify=1 \
		--allow_file_create=0 --output=/tmp/fio.out > /dev/null 2>&1 &
	FIO_PID=$!
	# Until fio's job has the device open, then time for its writes to
	# be submitted (and held): fio starts slowly under TCG.
	wait_until 30 fio_has_dev || fail "fio did not open $DEV: $(cat /tmp/fio.out)"
	sleep 2
	kill -0 "$FIO_PID" 2>/dev/null ||
		fail "polled writes ended while the controller was connecting: $(cat /tmp/fio.out)"
}
fio_has_dev() {
	for _fd in /proc/[0-9]*/fd/*; do
		[ "$(readlink "$_fd" 2>/dev/null)" = "$DEV" ] && return 0
	done
	return 1
}

# 1: served by the next attempt.
grow 1
off=$((4 * 1048576))
polled_write $off
[ "$(rblk_attr "$DEV" state)" = connecting ] ||
	fail "1: reconnected before the writes were held: make the reconnect delay (-c) longer"
rblk_wait_state "$DEV" live 30 || fail "1: no reconnect (state $(rblk_attr "$DEV" state))"
wait "$FIO_PID" || fail "1: held polled writes failed or did not verify: $(cat /tmp/fio.out)"
[ "$(rblk_attr "$DEV" nr_io_queues)" -eq 3 ] || fail "1: not 3 I/O queues after the reconnect"
read_direct "$DEV" $off 65536 /tmp/p.back
read_region "$RBLK_BACKING" $off 65536 /tmp/p.store
assert_same /tmp/p.back /tmp/p.store "1: held polled writes on the target"
log "1: held polled writes served after the failed growth"
rblk_disconnect "$DEV"

# 2: disconnected while they wait on the new hardware queue.
grow 2
polled_write $((8 * 1048576))
[ "$(rblk_attr "$DEV" state)" = connecting ] ||
	fail "2: reconnected before the writes were held: make the reconnect delay (-c) longer"
rblk_disconnect "$DEV"
DEV=
wait_until 30 sh -c "! kill -0 $FIO_PID 2>/dev/null" ||
	fail "2: polled writes still waiting 30 s after the disconnect"
wait "$FIO_PID" && fail "2: writes to a disconnected controller succeeded: $(cat /tmp/fio.out)"
grep -q "error" /tmp/fio.out || fail "2: fio reported no error: $(cat /tmp/fio.out)"
log "2: held polled writes failed with the disconnect: $(grep -m1 -i 'error' /tmp/fio.out)"
splats=$(dmesg_splats)
[ -z "$splats" ] || fail "kernel splat: $splats"
exit 0

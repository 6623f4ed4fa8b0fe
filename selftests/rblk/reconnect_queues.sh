#!/bin/sh
# The number of I/O queues changes across a reconnect.  nvmet's attr_qid_max
# caps the queues a subsystem grants; a reconnect (6.12's nvmet drops its
# controllers itself when it is written, 6.1's needs a reset through the
# device's reset_controller) makes rblk be granted fewer (2 -> 1), then
# more (1 -> 2),
# while fio writes (with an fsync every 64 writes) and verifies on both
# CPUs.  Requests held for the queue that goes are resubmitted on the one
# that stays (flushes forwarded to it).  fio must see no error and no
# verify failure, the device must follow the count (nr_io_queues,
# outstanding, the blk-mq hardware queues), and afterwards what fio wrote
# must be in the target's backing file.
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

qid_max="$RBLK_NVMET_SUBSYS/attr_qid_max"
[ -w "$qid_max" ] || skip "this nvmet has no attr_qid_max"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs for 2 I/O queues"
orig=$(cat "$qid_max")
trap 'echo "$orig" > "$qid_max"' EXIT
echo 2 > "$qid_max" || fail "cannot set attr_qid_max"

# wait_queues DEV N RECONNECTS: live again after reconnect number
# RECONNECTS, with N I/O queues.
wait_queues() {
	_i=300
	while [ "$_i" -gt 0 ]; do
		if [ "$(rblk_attr "$1" reconnects)" -ge "$3" ] &&
		   [ "$(rblk_attr "$1" state)" = live ]; then
			break
		fi
		usleep 100000
		_i=$((_i - 1))
	done
	[ "$_i" -gt 0 ] || fail "no reconnect $3 within 30 s (state $(rblk_attr "$1" state))"
	_n=$(rblk_attr "$1" nr_io_queues)
	[ "$_n" -eq "$2" ] || fail "reconnect $3: $_n I/O queues, expected $2"
	_o=$(rblk_attr "$1" outstanding) || fail "outstanding unreadable"
	[ "$(echo "$_o" | wc -w)" -eq "$2" ] ||
		fail "outstanding lists '$_o' for $2 queues"
	# The path's blk-mq queues (a multipath head is bio-based).
	_h=$(find "/sys/block/$(rblk_first_path "$1")/mq" -mindepth 1 -maxdepth 1 | wc -l)
	[ "$_h" -eq "$2" ] || fail "reconnect $3: $_h blk-mq hardware queues, expected $2"
	log "reconnect $3: $2 I/O queues"
}

# multipath=N: held requests of a retired queue are resubmitted on the
# queues that stay (with a head they fail over instead).
rblk_load multipath=N
dev=$(rblk_connect "$RBLK_NSID_FILE" -i 2 -k 2 -c 1 -l 60) || exit 1
[ "$(rblk_attr "$dev" nr_io_queues)" -eq 2 ] || fail "connected with $(rblk_attr "$dev" nr_io_queues) I/O queues, not 2"

# One job per CPU, so that both hardware queues hold I/O when they change.
fio --name=qcount --filename="$dev" --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=16 --fsync=64 --numjobs=2 --cpus_allowed=0-1 \
	--cpus_allowed_policy=split --size=16M --offset_increment=16M \
	--loops=4 --verify=crc32c --verify_fatal=1 --do_verify=1 \
	--group_reporting > /tmp/fio.log 2>&1 &
pid=$!
# A sysfs reader walks the tag set while the count changes.
(while kill -0 "$pid" 2>/dev/null; do
	rblk_attr "$dev" outstanding > /dev/null
	usleep 20000
done) &
reader=$!

# requeue_with QID_MAX: reconnect with the target granting QID_MAX I/O
# queues.
requeue_with() {
	nvmet_grant_queues "/sys/class/rblk/$(rblk_ctrl_of "$dev")" "$1"
}

# Both queues busy, so that the reset leaves requests held on queue 2
# (fio starts slowly in the debug guest).
i=600
while [ "$i" -gt 0 ]; do
	# shellcheck disable=SC2046 # one word per queue
	set -- $(rblk_attr "$dev" outstanding)
	[ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && break
	usleep 100000
	i=$((i - 1))
done
[ "$i" -gt 0 ] || fail "fio did not keep both queues busy within 60 s"
requeue_with 1
# Usually still resetting or connecting, where a reset is refused; a
# user's reset reconnects at once, so it may be live again (passthru.sh
# checks the refusal where it is certain: the target gone).
(echo 1 > "/sys/class/rblk/$(rblk_ctrl_of "$dev")/reset_controller") 2>/dev/null &&
	log "note: live again already when the second reset came"
wait_queues "$dev" 1 1
sleep 2
requeue_with 2
wait_queues "$dev" 2 2
kill -0 "$pid" 2>/dev/null || log "note: fio ended before the second change"

wait "$pid"; rc=$?
wait "$reader"
grep -E 'err=|verify' /tmp/fio.log
[ $rc -eq 0 ] || fail "fio failed ($rc) across the queue count changes"
grep -q 'err= 0' /tmp/fio.log || fail "fio saw errors"
dmesg | grep -q "target granted 1 I/O queues, had 2" ||
	fail "no shrink from 2 to 1 queues in the kernel log"
dmesg | grep -q "target granted 2 I/O queues, had 1" ||
	fail "no growth from 1 to 2 queues in the kernel log"
# fio kept both queues busy: the shrink had requests of queue 2 to move.
moved=$(dmesg | grep -o "resubmitted .* of retired queues") ||
	fail "the shrink moved no held request of the retired queue"
log "$moved"

# Each block's last write holds fio's verify header: same bytes on the target.
assert_on_target "$dev" "$RBLK_BACKING" 32 "device vs backing store after the changes"

rblk_disconnect "$dev"
rblk_unload
exit 0

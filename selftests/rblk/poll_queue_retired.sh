#!/bin/sh
# The poll queue goes away across a reconnect under polled I/O.  With
# nvmet's attr_qid_max at 2, nvmecfg connect -i 1 -P 1 gets one
# interrupt-driven and one polled queue; fio io_uring --hipri writes and
# verifies through the poll queue; the target then grants one queue (a
# reset through reset_controller), which is the -i queue: the requests held
# for the poll queue are resubmitted as bios and end on the interrupt-driven
# queue, in softirq.  io_uring allocates polled bios from its per-CPU cache,
# which Linux 6.1's bio_put() must not be handed in interrupt context (it
# warns): the bios leave the poll path whole, and the run must log no
# splat.  Then the target grants two queues again and the poll queue is
# back.  fio must see no error or verify failure, and what it wrote must be
# in the target's backing file.
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

qid_max="$RBLK_NVMET_SUBSYS/attr_qid_max"
[ -w "$qid_max" ] || skip "this nvmet has no attr_qid_max"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs for 2 I/O queues"
command -v fio >/dev/null 2>&1 || fail "fio is not in the guest"
orig=$(cat "$qid_max")
trap 'echo "$orig" > "$qid_max"' EXIT
echo 2 > "$qid_max" || fail "cannot set attr_qid_max"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -i 1 -P 1 -k 2 -c 1 -l 60) || exit 1
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
cd_=/sys/class/rblk/$ctrl
[ "$(cat "$cd_/nr_poll_queues")" = 1 ] ||
	fail "connected with $(cat "$cd_/nr_poll_queues") poll queues, not 1"

# Polled writes only: every request of fio is on the poll queue (queue 2).
fio --name=pollgone --filename="$dev" --direct=1 --ioengine=io_uring \
	--hipri=1 --rw=randwrite --bs=4k --iodepth=16 --size=16M --loops=6 \
	--verify=crc32c --verify_fatal=1 --do_verify=1 > /tmp/fio.log 2>&1 &
pid=$!

# wait_live N RECONNECTS POLL: live after reconnect RECONNECTS with N I/O
# queues, POLL of them polled.
wait_live() {
	_i=300
	while [ "$_i" -gt 0 ]; do
		[ "$(cat "$cd_/reconnects")" -ge "$2" ] &&
			[ "$(cat "$cd_/state")" = live ] && break
		usleep 100000
		_i=$((_i - 1))
	done
	[ "$_i" -gt 0 ] || fail "no reconnect $2 within 30 s (state $(cat "$cd_/state"))"
	[ "$(cat "$cd_/nr_io_queues")" -eq "$1" ] ||
		fail "reconnect $2: $(cat "$cd_/nr_io_queues") I/O queues, expected $1"
	[ "$(cat "$cd_/nr_poll_queues")" -eq "$3" ] ||
		fail "reconnect $2: $(cat "$cd_/nr_poll_queues") poll queues, expected $3"
	log "reconnect $2: $1 I/O queues, $3 polled"
}

# The poll queue busy, so that the reset leaves requests held on it.
i=600
while [ "$i" -gt 0 ]; do
	# shellcheck disable=SC2046 # one word per queue
	set -- $(rblk_attr "$dev" outstanding)
	[ "${2:-0}" -gt 0 ] && break
	usleep 100000
	i=$((i - 1))
done
[ "$i" -gt 0 ] || fail "fio did not keep the poll queue busy within 60 s"
echo 1 > "$qid_max" || fail "cannot set attr_qid_max to 1"
echo 1 > "$cd_/reset_controller" || fail "reset_controller refused"
wait_live 1 1 0
[ "$(cat "/sys/block/${dev##*/}/queue/io_poll")" = 0 ] ||
	fail "io_poll is still on without a poll queue"
sleep 2
echo 2 > "$qid_max" || fail "cannot set attr_qid_max to 2"
echo 1 > "$cd_/reset_controller" || fail "reset_controller refused"
wait_live 2 2 1
kill -0 "$pid" 2>/dev/null || log "note: fio ended before the poll queue came back"

wait "$pid"; rc=$?
grep -E 'err=|verify' /tmp/fio.log
[ $rc -eq 0 ] || fail "fio failed ($rc) across the poll queue's going and coming"
grep -q 'err= 0' /tmp/fio.log || fail "fio saw errors"
moved=$(dmesg | grep -o "resubmitted .* of retired queues") ||
	fail "the reset moved no held request of the poll queue"
log "$moved"

assert_on_target "$dev" "$RBLK_BACKING" 16 "device vs backing store after the changes"

rblk_disconnect "$dev"
rblk_unload
exit 0

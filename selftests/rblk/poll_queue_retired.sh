#!/bin/sh
# The poll queue goes away across a reconnect under polled I/O.  With
# nvmet's attr_qid_max at 2, nvmecfg connect -i 1 -P 1 gets one
# interrupt-driven and one polled queue; fio io_uring --hipri writes and
# verifies through the poll queue; the target then grants one queue, which
# is the -i queue: the requests held for the poll queue are resubmitted as
# bios and end on the interrupt-driven queue, in softirq.  io_uring
# allocates polled bios from its per-CPU cache, which Linux 6.1's
# bio_put() must not be handed in interrupt context (it warns): the bios
# leave the poll path whole, and the run must log no splat.  Then the
# target grants two queues again and the poll queue is back.  What fio
# wrote must be in the target's backing file.
#
# The kernels differ, and the test asserts each one's expectation:
# - Linux 6.1's block layer serves a polled bio on a queue without a poll
#   queue as ordinary I/O: fio must see no error across both changes.
# - Linux 6.12's fails it with BLK_STS_NOTSUPP (EOPNOTSUPP to io_uring) in
#   submit_bio_noacct(), before any driver sees it; nvme-rdma's polled I/O
#   meets the same check.  rblk's held requests are resubmitted off the poll
#   path, so they still complete; fio's new polled writes while io_poll is
#   0 fail with EOPNOTSUPP and nothing else, and once the poll queue is
#   back a polled write-and-verify run must pass whole.
# - 6.12's nvmet drops its controllers itself when attr_qid_max changes,
#   so the host reconnects unasked; 6.1's needs a reset (reset_controller).
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

# multipath=N: a held request of the retired poll queue is resubmitted on
# another queue of its controller (with a head it fails over instead).
rblk_load multipath=N
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

case $(uname -r) in
6.1.*)	polled_fails=0 ;;
*)	polled_fails=1 ;;
esac

# wait_live N RECONNECTS POLL: live again after reconnect RECONNECTS, with
# N I/O queues, POLL of them polled.
wait_live() {
	_i=300
	while [ "$_i" -gt 0 ]; do
		[ "$(cat "$cd_/reconnects")" -ge "$2" ] &&
			[ "$(cat "$cd_/state")" = live ] &&
			[ "$(cat "$cd_/nr_io_queues")" -eq "$1" ] && break
		usleep 100000
		_i=$((_i - 1))
	done
	[ "$_i" -gt 0 ] || fail "not live with $1 I/O queues within 30 s" \
		"(state $(cat "$cd_/state"), $(cat "$cd_/nr_io_queues") queues)"
	[ "$(cat "$cd_/nr_poll_queues")" -eq "$3" ] ||
		fail "$(cat "$cd_/nr_poll_queues") poll queues, expected $3"
	log "live with $1 I/O queues, $3 polled"
}

# The poll queue busy, so that the reconnect leaves requests held on it.
i=600
while [ "$i" -gt 0 ]; do
	# shellcheck disable=SC2046 # one word per queue
	set -- $(rblk_attr "$dev" outstanding)
	[ "${2:-0}" -gt 0 ] && break
	usleep 100000
	i=$((i - 1))
done
[ "$i" -gt 0 ] || fail "fio did not keep the poll queue busy within 60 s"
nvmet_grant_queues "$cd_" 1
wait_live 1 1 0
# (A multipath head's limits follow its path's at the scan after the
# reconnect; a polled bio meanwhile is sent unpolled.)
wait_until 10 sh -c "[ \"\$(cat /sys/block/${dev##*/}/queue/io_poll)\" = 0 ]" ||
	fail "io_poll is still on without a poll queue"
sleep 2
nvmet_grant_queues "$cd_" 2
wait_live 2 2 1

wait "$pid"; rc=$?
grep -E 'err=|verify' /tmp/fio.log
if [ "$polled_fails" = 0 ]; then
	[ $rc -eq 0 ] || fail "fio failed ($rc) across the poll queue's going and coming"
	grep -q 'err= 0' /tmp/fio.log || fail "fio saw errors"
else
	# fio stops at its first error: it must be the block layer's refusal.
	if [ $rc -ne 0 ]; then
		errs=$(grep -o 'err=[ 0-9]*' /tmp/fio.log | tr -d ' ' | sort -u | paste -sd, -)
		[ "$errs" = "err=95" ] ||
			fail "fio failed ($rc) with $errs, expected only EOPNOTSUPP (95)"
		grep -q 'Operation not supported' /tmp/fio.log ||
			fail "fio's error is not 'Operation not supported'"
		log "polled writes without a poll queue failed with EOPNOTSUPP, as the block layer rules"
	else
		log "note: fio ended before the poll queue went"
	fi
	dmesg | grep -q "I/O error, dev ${dev##*/}" &&
		fail "rblk ended requests with an I/O error"
	# The poll queue is back: polled I/O works whole again (a head
	# polls again once the scan after the reconnect restacked it).
	wait_until 10 sh -c "[ \"\$(cat /sys/block/${dev##*/}/queue/io_poll)\" = 1 ]" ||
		fail "io_poll is off with the poll queue back"
	fio --name=pollback --filename="$dev" --direct=1 --ioengine=io_uring \
		--hipri=1 --rw=randwrite --bs=4k --iodepth=16 --size=16M \
		--verify=crc32c --verify_fatal=1 --do_verify=1 > /tmp/fio2.log 2>&1 ||
		{ cat /tmp/fio2.log; fail "polled write and verify failed with the poll queue back"; }
	grep -q 'err= 0' /tmp/fio2.log || fail "fio saw errors with the poll queue back"
fi
moved=$(dmesg | grep -o "resubmitted .* of retired queues") ||
	fail "the reconnect moved no held request of the poll queue"
log "$moved"

assert_on_target "$dev" "$RBLK_BACKING" 16 "device vs backing store after the changes"

rblk_disconnect "$dev"
rblk_unload
exit 0

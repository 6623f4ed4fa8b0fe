#!/bin/sh
# Poll queues: nvmecfg connect -i 1 -P 1 gives one interrupt-driven and one
# polled I/O queue (nr_io_queues 2, nr_poll_queues 1, queue/io_poll 1).
# fio io_uring --hipri (IORING_SETUP_IOPOLL) at queue depth 1 and 8 writes
# with crc32c verification; its requests complete by polling
# (poll_completions grows by at least two per request: the SEND and the
# response), and the data is in the target's backing store.  libaio on the
# same device goes through the interrupt-driven queue: poll_completions does
# not move.  A reset_controller under polled I/O reconnects and the I/O ends
# without errors.  The same connect without -P has no poll queue (io_poll
# 0), and -P out of range is refused by nvmecfg.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NVMECFG=${RBLK_NVMECFG:-nvmecfg}
DEV=

command -v fio >/dev/null 2>&1 || fail "fio is not in the guest"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (one queue of each kind per CPU)"

cleanup() {
	[ -n "$DEV" ] && [ -e "/sys/block/$DEV" ] &&
		"$NVMECFG" disconnect --force "$DEV" >/dev/null 2>&1
	[ -n "$DEV" ] && wait_for_path "/sys/block/$DEV" 15 !
	rmmod rblk 2>/dev/null
}
trap cleanup EXIT

rblk_load

out=$("$NVMECFG" connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" -P 129 2>&1) && fail "-P 129 was accepted: $out"
log "-P 129 refused: $out"

dev=$(rblk_connect "$RBLK_NSID_FILE" -i 1 -P 1) || { echo "$dev"; exit "$KSFT_FAIL"; }
DEV=${dev#/dev/}
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
CD=/sys/class/rblk/$ctrl
ST=/sys/block/$DEV/rblk
cnt() { cat "$CD/$1" || fail "cannot read $CD/$1"; }

[ "$(cnt nr_io_queues)" = 2 ] || fail "nr_io_queues is $(cnt nr_io_queues), expected 2"
[ "$(cnt nr_poll_queues)" = 1 ] || fail "nr_poll_queues is $(cnt nr_poll_queues), expected 1"
[ "$(cat "/sys/block/$DEV/queue/io_poll")" = 1 ] ||
	fail "/sys/block/$DEV/queue/io_poll is $(cat "/sys/block/$DEV/queue/io_poll")"
# The poll queue's Fabrics Connect was polled for: its SEND and response.
[ "$(cnt poll_completions)" = 2 ] ||
	fail "poll_completions is $(cnt poll_completions) after the connect, expected 2 (the Connect)"
log "$ctrl: 2 I/O queues, 1 of them polled"

# run_fio QD OFFSET_MIB ENGINE_ARGS...: 4 MiB of verified 4 KiB writes.
run_fio() {
	_qd=$1 _off=$2
	shift 2
	_out=$(fio --name=poll --filename="$dev" --direct=1 --rw=randwrite \
		--bs=4k --iodepth="$_qd" --offset="${_off}M" --size=4M \
		--verify=crc32c --verify_fatal=1 --do_verify=1 "$@" 2>&1)
	_rc=$?
	printf '%s\n' "$_out" | grep -E 'err=|verify|fio:'
	[ $_rc -eq 0 ] || fail "fio $* exited $_rc"
	printf '%s\n' "$_out" | grep -q 'err= 0' || fail "fio $* reported errors"
}

for qd in 1 8; do
	echo 1 > "$CD/reset_stats" || fail "reset_stats failed"
	run_fio $qd $((qd * 4)) --ioengine=io_uring --hipri=1
	rqs=$(( $(cat "$ST/reads") + $(cat "$ST/writes") ))
	polled=$(cnt poll_completions)
	log "io_uring hipri QD $qd: $rqs requests, $polled polled completions"
	[ "$rqs" -ge 1024 ] || fail "only $rqs requests for 4 MiB of 4 KiB writes and their verify"
	[ "$polled" -ge $((2 * rqs)) ] ||
		fail "io_uring hipri QD $qd: $polled polled completions for $rqs requests"
	[ "$(cat "$ST/poll_completions")" = "$polled" ] ||
		fail "$ST/poll_completions is $(cat "$ST/poll_completions"), the controller's $polled"
done

echo 1 > "$CD/reset_stats" || fail "reset_stats failed"
run_fio 8 40 --ioengine=libaio
[ "$(cnt poll_completions)" = 0 ] ||
	fail "libaio I/O was reaped by polling ($(cnt poll_completions) completions)"
log "libaio QD 8: no polled completions"

assert_on_target "$dev" "$RBLK_BACKING" 44 "device vs backing store after polled I/O"

# A reset under polled I/O: the poll queue is drained, reconnected (its
# Connect polled again) and the held requests finish there.
fio --name=pollreset --filename="$dev" --direct=1 --ioengine=io_uring \
	--hipri=1 --rw=randread --bs=4k --iodepth=8 --size=16M --time_based \
	--runtime=8 >/tmp/poll-reset.fio 2>&1 &
fpid=$!
sleep 3
echo 1 > "$CD/reset_controller" || fail "reset_controller refused"
rblk_wait_state "$dev" live 30 || fail "not live again 30 s after reset_controller"
n=0
while kill -0 $fpid 2>/dev/null; do
	[ $n -lt 60 ] || { kill $fpid; fail "fio did not end 60 s after the reset"; }
	sleep 1
	n=$((n + 1))
done
wait $fpid || fail "polled fio across the reset failed: $(grep -E 'err=|fio:' /tmp/poll-reset.fio)"
grep -q 'err= 0' /tmp/poll-reset.fio || fail "polled fio across the reset reported errors"
[ "$(cnt reconnects)" -ge 1 ] || fail "reset_controller did not reconnect"
[ "$(cnt nr_poll_queues)" = 1 ] || fail "nr_poll_queues is $(cnt nr_poll_queues) after the reset"
log "reset_controller under polled I/O: reconnected, fio ended without errors"
rm -f /tmp/poll-reset.fio

rblk_disconnect "$dev"
DEV=

# Without -P: no poll queue, and the block layer knows.
dev=$(rblk_connect "$RBLK_NSID_FILE" -i 1) || { echo "$dev"; exit "$KSFT_FAIL"; }
DEV=${dev#/dev/}
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
[ "$(cat "/sys/class/rblk/$ctrl/nr_poll_queues")" = 0 ] || fail "nr_poll_queues is not 0 without -P"
[ "$(cat "/sys/block/$DEV/queue/io_poll")" = 0 ] || fail "io_poll is 1 without poll queues"
rblk_disconnect "$dev"
DEV=
rblk_unload
exit 0

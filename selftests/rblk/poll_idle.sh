#!/bin/sh
# A polled read that its submitter does not reap is no timeout.  An
# io_uring IOPOLL submitter (tools/tests/iopoll_idle) sends one 4 KiB read
# to a poll queue and sleeps for three times io_timeout before it asks for
# the completion: the target answered at once, but only a poll can see it.
# The timeout handler reaps the poll queue itself (as nvme-pci's does)
# and finds the read done: no timeout is counted, the controller is not
# reset, and the read returns the bytes of the target's backing store.
# Before, the read was called timed out, the controller reset and the read
# sent again.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NVMECFG=${RBLK_NVMECFG:-nvmecfg}
IO_TMO=2		# rblk io_timeout (s)
OFF=$((3 * 1048576))	# where the read goes
DEV=

command -v iopoll_idle >/dev/null 2>&1 || fail "iopoll_idle is not in the guest"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (one queue of each kind per CPU)"

cleanup() {
	[ -n "$DEV" ] && [ -e "/sys/block/$DEV" ] &&
		"$NVMECFG" disconnect --force "$DEV" >/dev/null 2>&1
	[ -n "$DEV" ] && wait_for_path "/sys/block/$DEV" 15 !
	rm -f /tmp/poll-idle.*
	rmmod rblk 2>/dev/null
}
trap cleanup EXIT

rblk_load io_timeout=$IO_TMO
dev=$(rblk_connect "$RBLK_NSID_FILE" -i 1 -P 1) || { echo "$dev"; exit "$KSFT_FAIL"; }
DEV=${dev#/dev/}
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
CD=/sys/class/rblk/$ctrl
[ "$(cat "$CD/nr_poll_queues")" = 1 ] || fail "no poll queue"

pattern_file /tmp/poll-idle.pat 4096
write_direct /tmp/poll-idle.pat "$dev" $OFF
echo 1 > "$CD/reset_stats" || fail "reset_stats failed"

log "polled read, not reaped for $((3 * IO_TMO)) s (io_timeout $IO_TMO s)"
iopoll_idle "$dev" $OFF $((3 * IO_TMO)) /tmp/poll-idle.out ||
	fail "the unreaped polled read failed (exit $?)"
polled=$(cat "$CD/poll_completions")
log "timeouts $(cat "$CD/timeouts"), reconnects $(cat "$CD/reconnects"), poll_completions $polled"
[ "$(cat "$CD/timeouts")" = 0 ] ||
	fail "an answered read was called timed out ($(cat "$CD/timeouts") timeouts)"
[ "$(cat "$CD/reconnects")" = 0 ] || fail "the controller was reset"
# The read's SEND and response, reaped by a poll (the timeout's).
[ "$polled" -ge 2 ] || fail "poll_completions is $polled, the read was not polled"
assert_same /tmp/poll-idle.out /tmp/poll-idle.pat "unreaped polled read vs the data written"
read_region "$RBLK_BACKING" $OFF 4096 /tmp/poll-idle.store
assert_same /tmp/poll-idle.out /tmp/poll-idle.store "unreaped polled read vs the backing store"

rblk_disconnect "$dev"
DEV=
rblk_unload
exit 0

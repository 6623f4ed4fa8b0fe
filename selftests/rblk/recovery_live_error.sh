#!/bin/sh
# An error right after a reconnect went live (issue 44, finding 5),
# injected with rblk's live_error fault (debugfs; the debug kernel): the
# controller starts error recovery as it goes live, while its namespace
# queues are still quiesced from the revalidation, and the recovery's
# teardown waits 500 ms after its quiesce.  Going live must not unquiesce
# the queues under that teardown (a dispatch beside its cancel could end a
# request twice; the teardown WARNs if a listed queue is not quiesced):
#  - a verifying writer under the reset sees no error; the fault fired;
#  - the controller is live again after two reconnects; no kernel warning;
#  - what was written is on the target.
# Before the fix, going live unquiesced inside the teardown's window.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_fault_test live_error

dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
cd_=/sys/class/rblk/$ctrl
r0=$(cat "$cd_/reconnects")

fio --name=live_error --filename="$dev" --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=16 --size=8M --time_based --runtime=20 \
	--verify=crc32c --verify_fatal=1 --verify_backlog=64 > /tmp/le.fio 2>&1 &
pid=$!
sleep 2
dmesg -c > /dev/null
rblk_fault_arm 1
echo 1 > "$cd_/reset_controller" || fail "reset_controller refused"
is_live() { [ "$(cat "$cd_/state")" = live ] && [ "$(cat "$cd_/reconnects")" -ge $((r0 + 2)) ]; }
wait_until 60 is_live ||
	fail "not live after two reconnects: $(cat "$cd_/state"), $(($(cat "$cd_/reconnects") - r0)) reconnects"
[ "$(cat "$F/times")" -eq 0 ] || fail "the fault never fired"
wait "$pid"; rc=$?
[ "$rc" -eq 0 ] && grep -q 'err= 0' /tmp/le.fio ||
	fail "fio failed ($rc): $(grep -E 'err=|verify|error' /tmp/le.fio | head -5)"
dmesg | grep -E "WARNING:|BUG:" && fail "a kernel warning during the recovery"
log "an error as the reconnect went live: recovered, $(($(cat "$cd_/reconnects") - r0)) reconnects, no error, no warning"
assert_on_target "$dev" "$RBLK_BACKING" 8 "what the writer wrote through $dev"
exit 0

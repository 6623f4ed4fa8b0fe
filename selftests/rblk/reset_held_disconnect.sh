#!/bin/sh
# A disconnect right after a user's reset, before the reset's work ran
# (issue 28, finding 6), injected with rblk's hold_reset fault (debugfs; the
# debug kernel), which leaves the work unqueued: the association is as
# healthy as before the reset.  A write issued meanwhile is held, as during
# any reset; the disconnect must let it go out on that association, as it
# lets out what del_gendisk() writes back, and the data must reach the
# target.  Before the fix the cancelled reset left I/O refused (IO_READY
# cleared) on a controller being deleted: such writes failed with EIO and
# the disk's write-back was lost.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_fault_test hold_reset

dev=$(rblk_connect "$RBLK_NSID_FILE" -c 1 -l 30) || exit 1
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
cd_=/sys/class/rblk/$ctrl
pattern_file /tmp/p 1048576
off=$((7 * 1048576))

rblk_fault_arm 1
echo 1 > "$cd_/reset_controller" || fail "reset_controller refused"
[ "$(cat "$F/times")" -eq 0 ] || fail "the fault never fired"
state=$(cat "$cd_/state")
[ "$state" = resetting ] || fail "state $state after the held reset, expected resetting"

dd if=/tmp/p of="$dev" bs=1048576 seek=$((off / 1048576)) oflag=direct conv=notrunc \
	2> /tmp/dd.err &
pid=$!
# (One write call: any call after the disk has gone would fail.)
sleep 2
running "$pid" || fail "the write during the reset was not held: $(cat /tmp/dd.err)"
log "write held in state $state; disconnecting"

dmesg -c > /dev/null
timeout 120 nvmecfg disconnect "$ctrl" || fail "disconnect failed or hung"
wait_for_path "/sys/block/${dev##*/}" 10 ! || fail "${dev##*/} still present after disconnect"
wait "$pid" || fail "the held write failed at the disconnect: $(cat /tmp/dd.err)"
dmesg | grep -E "I/O error|Buffer I/O" && fail "I/O errors at the disconnect"
read_region "$RBLK_BACKING" $off 1048576 /tmp/p.after
assert_same /tmp/p /tmp/p.after "the held write, on the target after the disconnect"
log "the held 1 MiB write completed at the disconnect and is on the target"
exit 0

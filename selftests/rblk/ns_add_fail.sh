#!/bin/sh
# A namespace whose block device cannot be added (issue 28, finding 7),
# injected with rblk's fail_add_disk fault (debugfs; the debug kernel): the
# scan's error path takes the namespace off the controller's list and frees
# its never-added disk.  Recovery runs meanwhile (resets in a loop), which
# quiesces and unquiesces every listed namespace queue and so queues work
# for it on kblockd; that work must be cancelled before the queue is freed
# (KASAN reports a use after free otherwise), and nothing may hang.  Then,
# with the fault off, the scan of a reset adds every namespace, and data written
# through them is read back and compared with the target's backing file.
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

SECS=${RBLK_NS_ADD_FAIL_SECS:-10}

rblk_fault_test fail_add_disk

rblk_fault_arm -1
dmesg -c > /dev/null
ctrl=$(rblk_connect_all -c 1 -l 60 | head -n 1)
case $ctrl in rblk-ctrl[0-9]*) ;; *) fail "connect failed: $ctrl" ;; esac
cd_=/sys/class/rblk/$ctrl
wait_until 30 sh -c 'dmesg | grep -q "no block device"' ||
	fail "no namespace scan failed: $(dmesg | tail -n 5)"
# Each reset's scan fails the additions again, while the next reset's
# recovery quiesces and unquiesces whatever is listed: a reset is tried
# every 200 ms, so one comes while a scan is adding (100 ms a namespace).
end=$(($(uptime_ms) + SECS * 1000))
while [ "$(uptime_ms)" -lt "$end" ]; do
	echo 1 > "$cd_/reset_controller" 2>/dev/null
	usleep 200000
done
wait_until 60 sh -c "[ \"\$(cat $cd_/state)\" = live ]" || fail "not live: $(cat "$cd_/state")"
resets=$(dmesg | grep -c "resetting the controller")
failed=$(dmesg | grep -c "no block device")
log "$failed namespace additions failed over $resets resets"
[ "$resets" -ge 3 ] || fail "only $resets resets in $SECS s"
[ "$failed" -gt 3 ] || fail "only $failed failed additions"
# Let kblockd run whatever was queued for the freed queues.
sleep 2
for d in /sys/block/rblk[0-9]*; do
	[ -e "$d" ] && fail "${d##*/} was added despite the fault"
done

echo 0 > "$F/probability"
echo 1 > "$cd_/reset_controller" || fail "reset_controller refused"
wait_until 60 sh -c "[ -n \"\$(ls /sys/class/rblk/$ctrl | grep '^rblk[0-9]')\" ]" ||
	fail "no namespace added once the fault is off"
sleep 1
dev=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_FILE") || fail "namespace $RBLK_NSID_FILE not added once the fault is off"
wait_for_path "$dev" 10 -b || fail "$dev did not appear"
pattern_file /tmp/p 65536
off=$((5 * 1048576))
write_direct /tmp/p "$dev" $off
read_direct "$dev" $off 65536 /tmp/p.back
assert_same /tmp/p /tmp/p.back "the write, read back"
read_region "$RBLK_BACKING" $off 65536 /tmp/p.store
assert_same /tmp/p /tmp/p.store "the write, on the target"
exit 0

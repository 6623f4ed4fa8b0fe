#!/bin/sh
# With the default multipath, a head's partition scan whose read gets no
# answer (a namespace on dm-delay, delay 600 s) must not keep a disconnect
# from ending: the read times out at io_timeout, the deleted controller
# stops being a usable path, and the head fails the scan's read instead of
# sending it back to that path for ever (a livelock: the detach waits for
# the partition scan).  The disconnect returns within io_timeout and slack,
# no device and no task in D state is left, and rblk unloads.
# rblk-timeout: 180
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

IO_TMO=3
NSID=9
restore() {
	delay_ns_destroy
	rmmod rblk 2>/dev/null
}
trap restore EXIT
delay_ns_create $NSID 8
must delay_ns_set 600000
rblk_load io_timeout=$IO_TMO
[ "$(cat /sys/module/rblk/parameters/multipath)" = Y ] ||
	fail "rblk.multipath is not Y by default"

out=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" -k 5 -c 1 -l 120 2>&1) || fail "connect failed: $out"
ctrl=$(echo "$out" | head -n 1)
# The head's partition scan runs in a work: the connect returns, and the
# scan's read of the delayed namespace is in the target.
dev=$(rblk_ns_dev "$ctrl" $NSID) || fail "no device for namespace $NSID: $out"
d=${dev#/dev/}
[ -d "/sys/block/$d/multipath" ] || fail "$d is not a multipath head"
usleep 500000

t0=$(uptime_ms)
timeout 60 nvmecfg disconnect "$ctrl" || fail "disconnect during the head's partition scan failed"
ms=$(($(uptime_ms) - t0))
[ "$ms" -le $(((IO_TMO + 15) * 1000)) ] || fail "disconnect took ${ms} ms"
log "disconnect during the head's stuck partition scan: ${ms} ms"
wait_for_path "/sys/class/rblk/$ctrl" 10 ! || fail "$ctrl still there"
wait_for_path "/sys/block/$d" 10 ! || fail "$d still there"
for b in /sys/block/rblk*; do [ -e "$b" ] && fail "$b left behind"; done
# (The target's own workers wait for the delayed bio: not ours.)
hung=$(d_state_tasks | grep -v nvmet)
[ -z "$hung" ] || fail "tasks in D state: $hung"
must delay_ns_set 0
rmmod rblk || fail "rmmod rblk failed after the disconnect"
exit 0

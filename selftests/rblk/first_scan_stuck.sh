#!/bin/sh
# The first connect waits for its namespace scan, and the scan's partition
# read of a namespace on dm-delay gets no answer (delay 600 s).
# (a) Disconnect works meanwhile: it returns within io_timeout and slack,
#     the waiting connect fails with "disconnected while connecting", no
#     device and no task in D state is left.
# (b) The RDMA device goes away meanwhile (rdma link delete): rblk lets go
#     of it within 30 s and the connect keeps waiting, as the controller
#     reconnects; once the device and the port are back (the target prompt
#     again) the scan ends and the connect succeeds with every namespace,
#     whose data verifies.
# rblk-timeout: 240
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# io_timeout of each part's controller (read when it connects): (a) waits
# for one timeout; in (b) the read must not time out before the removal.
IO_TMO_A=3
IO_TMO=8
NSID=9
restore() {
	rdma link show "$RBLK_RDMA_DEV" >/dev/null 2>&1 || {
		rdma link add "$RBLK_RDMA_DEV" type "$RBLK_RDMA_TYPE" netdev "$RBLK_NETDEV"
		nvmet_reenable_port
	}
	delay_ns_destroy
}
trap restore EXIT
delay_ns_create $NSID 8
must delay_ns_set 600000
# A namespace's own device, whose first scan the connect waits for (a
# multipath head scans its partitions in a work: mpath_part_scan_stuck).
rblk_load multipath=N io_timeout=$IO_TMO_A


# --- (a) disconnect while the first scan is stuck ---
delay_ns_connect_bg
t0=$(uptime_ms)
timeout 60 nvmecfg disconnect "$ctrl" || fail "(a) disconnect during the first scan failed"
ms=$(($(uptime_ms) - t0))
# The partition read ends at its timeout, as nothing else can end it.
[ "$ms" -le $(((IO_TMO_A + 15) * 1000)) ] || fail "(a) disconnect took ${ms} ms"
wait_until 10 exited "$cpid" ||
	fail "(a) connect still waiting after the disconnect: $(cat /proc/$cpid/stat) $(cat /proc/$cpid/stack 2>&1)"
wait "$cpid" && fail "(a) the interrupted connect succeeded: $(cat /tmp/connect.log)"
grep -q "disconnected while connecting" /tmp/connect.log ||
	fail "(a) connect error: $(cat /tmp/connect.log)"
log "(a) disconnect took ${ms} ms; connect: $(cat /tmp/connect.log)"
wait_for_path "/sys/class/rblk/$ctrl" 10 ! || fail "(a) $ctrl still there"
for d in /sys/block/rblk*; do [ -e "$d" ] && fail "(a) $d left behind"; done
# (The target's own workers wait for the delayed bio: not ours.)
hung=$(d_state_tasks | grep -v nvmet)
[ -z "$hung" ] || fail "(a) tasks in D state: $hung"

# --- (b) the RDMA device goes away while the first scan is stuck ---
echo $IO_TMO > /sys/module/rblk/parameters/io_timeout || fail "cannot set io_timeout"
must delay_ns_set 600000
delay_ns_connect_bg
t0=$(uptime_ms)
dmesg -c > /dev/null
rdma link delete "$RBLK_RDMA_DEV" &
rpid=$!
# The removal also waits for the target's nvmet-rdma, which cannot free
# its queues before their commands end: the delayed bio.  In this
# one-machine fabric, time rblk's part (it logs when done), then let the
# delayed bio through for the target's part.
wait_until 30 sh -c "dmesg | grep -q 'RDMA device $RBLK_RDMA_DEV released'" ||
	fail "(b) rblk did not release the device within 30 s"
log "(b) rblk released $RBLK_RDMA_DEV after $(($(uptime_ms) - t0)) ms"
st=$(cat "/sys/class/rblk/$ctrl/state")
[ "$st" = connecting ] || [ "$st" = resetting ] || fail "(b) state $st without a device"
must delay_ns_set 0
n=0
while kill -0 "$rpid" 2>/dev/null; do
	n=$((n + 1))
	[ $n -gt 300 ] && fail "(b) the removal did not return within 30 s"
	usleep 100000
done
wait "$rpid" || fail "(b) rdma link delete failed"
log "(b) $RBLK_RDMA_DEV removed in $(($(uptime_ms) - t0)) ms"
sleep 1
running "$cpid" || fail "(b) the connect ended without a device: $(cat /tmp/connect.log)"
# The target comes back, prompt this time.
must rdma link add "$RBLK_RDMA_DEV" type "$RBLK_RDMA_TYPE" netdev "$RBLK_NETDEV"
nvmet_reenable_port
wait_until 60 exited "$cpid" || fail "(b) connect did not end after the target came back"
wait "$cpid" || fail "(b) connect failed: $(cat /tmp/connect.log)"
[ "$(head -n 1 /tmp/connect.log)" = "$ctrl" ] || fail "(b) connect printed $(cat /tmp/connect.log)"
[ "$(cat "/sys/class/rblk/$ctrl/state")" = live ] || fail "(b) $ctrl not live"
dev=$(rblk_ns_dev "$ctrl" $NSID) || fail "(b) no device for namespace $NSID"
file=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_FILE") || fail "(b) no device for namespace $RBLK_NSID_FILE"
assert_on_target "$dev" /tmp/delay.img 8 "(b) namespace $NSID"
pattern_file /tmp/p 65536
write_direct /tmp/p "$file" 1048576
read_region "$RBLK_BACKING" 1048576 65536 /tmp/p.store
assert_same /tmp/p /tmp/p.store "(b) namespace $RBLK_NSID_FILE on the target"
hung=$(d_state_tasks | grep -v nvmet)
[ -z "$hung" ] || fail "(b) tasks in D state: $hung"
must nvmecfg disconnect "$ctrl"
exit 0

#!/bin/sh
# A data-less flush held on a path whose controller is then deleted (found
# by the soak, seed 1 on 7.3: an fsync failed with EIO): path A's ANA group
# inaccessible, path B reconnecting (its port gone, then a reset), a writer
# that fsyncs every write through the head, and `nvmecfg disconnect A`
# while its flushes wait for a path.  A deleting controller cannot hold
# the flush in its queue (its disks' removal waits for it): it is sent on
# A again a moment later, uncharged, while B may come back, and B takes it
# once it serves.  Before, it was sent to the refusing path five times at
# once and the fsync failed with EIO.  Checked: no write or fsync fails,
# the disconnect ends once B serves, what was written is on the target.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

P1=$RBLK_NVMET_PORT
P2=$NVMET_PORT2
pid=''
dpid=''
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	[ -n "$dpid" ] && wait "$dpid"
	[ -e "$P2/subsystems/$RBLK_NQN" ] || ln -s "$RBLK_NVMET_SUBSYS" "$P2/subsystems/$RBLK_NQN" 2>/dev/null
	nvmet_ana_set "$P1" optimized 2>/dev/null
	for c in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$c" ] && nvmecfg disconnect "${c##*/}" > /dev/null 2>&1
	done
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mfd.fio /tmp/mfd.disc
}
trap cleanup EXIT

nvmet_port2_add
[ -d "$P2/ana_groups/1" ] || skip "nvmet without ANA groups on its ports"
rblk_load
rblk_two_paths

fio --name=mfd --filename="$dev" --ioengine=psync --rw=randwrite --bs=4k \
	--offset=8M --size=4M --fsync=1 --time_based --runtime=40 \
	--verify=crc32c --verify_fatal=1 --verify_backlog=16 > /tmp/mfd.fio 2>&1 &
pid=$!
sleep 3
# B reconnecting: its port gone, then reset (the reset's reconnect fails
# until the port is back).
rm -f "$P2/subsystems/$RBLK_NQN"
echo 1 > "/sys/class/rblk/$B/reset_controller" 2>/dev/null
nvmet_ana_set "$P1" inaccessible
sleep 3
state=$(cat "/sys/class/rblk/$B/state")
[ "$state" != live ] || fail "$B is live with its port gone"
# A goes while its flushes wait for a path.
nvmecfg disconnect "$A" > /tmp/mfd.disc 2>&1 &
dpid=$!
sleep 4
ln -s "$RBLK_NVMET_SUBSYS" "$P2/subsystems/$RBLK_NQN" || fail "cannot relink port 2"
b_live() { [ "$(cat "/sys/class/rblk/$B/state")" = live ]; }
wait_until 60 b_live || fail "$B not live again within 60 s of its port's return"
wait_until 60 exited "$dpid" || fail "disconnect of $A still running 60 s after $B came back"
wait "$dpid" || fail "disconnect of $A failed: $(cat /tmp/mfd.disc)"
dpid=
log "disconnect of $A ended once $B served (B was $state)"
wait "$pid"; rc=$?
pid=
[ "$rc" -eq 0 ] || fail "the writer failed ($rc): $(grep -E 'err=|error' /tmp/mfd.fio | head -n 4)"
grep -q 'err= 0' /tmp/mfd.fio || fail "the writer saw errors: $(grep err= /tmp/mfd.fio)"
[ "$(cat "/sys/block/$h/rblk/no_path_errors")" -eq 0 ] || fail "$h failed bios for want of a path"
dd if="$dev" of=/tmp/mfd.dev bs=1M skip=8 count=4 iflag=direct 2>/dev/null ||
	fail "cannot read the writer's region through $dev"
dd if="$RBLK_BACKING" of=/tmp/mfd.store bs=1M skip=8 count=4 2>/dev/null ||
	fail "cannot read the writer's region on the target"
assert_same /tmp/mfd.dev /tmp/mfd.store "the writer's region through $dev and on the target"
rm -f /tmp/mfd.dev /tmp/mfd.store
log "the writer fsynced every write through A's deletion with no error"
exit 0

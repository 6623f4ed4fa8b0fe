#!/bin/sh
# A head's data-less flush (an fsync's, a journal commit's PREFLUSH) that
# meets an ANA status while no other path takes I/O (issue 44, finding 1):
# it waits for a path as the head's bios do, and is sent where a path
# answers it.  Before, with one path, it was sent straight back to the
# refusing path five times and the fsync failed with EIO; nvme-core ends
# such a flush as a success, having flushed nothing.
# rblk.multipath=Y (the default):
#  - one path: two writers that fsync after every write (fio --fsync=1,
#    verifying) while ANA group 1 of the port turns inaccessible and back,
#    8 times, flushes meeting the inaccessible path (traced as
#    rblk_flush_held), and a controller reset while the group is
#    inaccessible; no write or fsync fails, the controller is live again,
#    what was written is on the target;
#  - two paths, an asymmetric failover through "change" on both ports
#    (both groups in change at once, then the other port optimized), in
#    turn: the same writers see no error;
#  - nvme-rdma, one path, the same flips in this boot, as the reference.
# rblk-timeout: 600
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

P1=$RBLK_NVMET_PORT
P2=$NVMET_PORT2
TR=/sys/kernel/tracing
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	[ -d "$TR/events/rblk" ] && echo 0 > "$TR/events/rblk/enable"
	nvmet_ana_set "$P1" optimized 2>/dev/null
	[ -d "$P2/ana_groups/1" ] && nvmet_ana_set "$P2" optimized 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mfh.fio
}
trap cleanup EXIT

[ -f "$P1/ana_groups/1/ana_state" ] || skip "nvmet without ANA groups"
grep -q " $TR tracefs" /proc/mounts || mount -t tracefs tracefs "$TR" || fail "cannot mount tracefs"

# writers DEV SECONDS: two verifying writers, each on its own 2 MiB,
# flushing after every write, in the background ($pid).
writers() {
	fio --name=fhold --filename="$1" --direct=1 --ioengine=psync \
		--rw=randwrite --bs=4k --numjobs=2 --size=2M --offset_increment=2M \
		--fsync=1 --time_based --runtime="$2" --group_reporting \
		--verify=crc32c --verify_fatal=1 --verify_backlog=64 > /tmp/mfh.fio 2>&1 &
	pid=$!
}
writers_ok() {
	wait "$pid"; _rc=$?; pid=
	[ "$_rc" -eq 0 ] && grep -q 'err= 0' /tmp/mfh.fio ||
		fail "$1: fio failed ($_rc): $(grep -E 'err=|verify|error' /tmp/mfh.fio | head -5)"
}
# ctrl_live CTRL: wait up to 30 s for controller CTRL (rblk-ctrlM) to be live.
is_live() { [ "$(cat "/sys/class/rblk/$1/state" 2>/dev/null)" = live ]; }
ctrl_live() { wait_until 30 is_live "$1"; }
held() { grep -c "rblk_flush_held: " "$TR/trace"; }

# --- rblk, one path ---
rblk_load
echo > "$TR/trace"
echo 1 > "$TR/events/rblk/rblk_flush_held/enable" || fail "no tracepoint rblk_flush_held"
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
writers "$dev" 30
sleep 2
i=0
while [ "$i" -lt 8 ]; do
	nvmet_ana_set "$P1" inaccessible
	sleep 1
	if [ "$i" -eq 4 ]; then
		# A reset while flushes may be held in the queue.
		must nvmecfg reset "$A"
		ctrl_live "$A" || fail "$A not live after a reset with the group inaccessible"
	fi
	nvmet_ana_set "$P1" optimized
	sleep 1
	running "$pid" || break
	i=$((i + 1))
done
n=$(held)
running "$pid" || fail "the writers ended early at flip $i: $(grep -E 'err=|error' /tmp/mfh.fio | head -3)"
writers_ok "one path, $i flips"
[ "$n" -gt 0 ] || fail "no flush waited for the inaccessible path in $i flips: not tested"
ctrl_live "$A" || fail "$A not live at the end"
log "one path: $i flips and a reset, $n holds of a flush for a path, no write or fsync failed"
assert_on_target "$dev" "$RBLK_BACKING" 4 "what the writers wrote through $dev"

# --- rblk, two paths, both groups in change during a failover ---
nvmet_port2_add
[ -d "$P2/ana_groups/1" ] || skip "nvmet without ANA groups on a second port"
B=$(rblk_connect_port_ctrl "$NVMET_SVC2") || exit "$KSFT_FAIL"
[ "$(rblk_ns_dev "$B" "$RBLK_NSID_FILE")" = "$dev" ] || fail "$B's namespace is not under $dev"
echo > "$TR/trace"
writers "$dev" 20
sleep 2
nvmet_ana_set "$P2" inaccessible
sleep 1
i=0
while [ "$i" -lt 4 ]; do
	# From "$P1 optimized, $P2 inaccessible" to the other way round.
	from=$P1 to=$P2
	[ $((i % 2)) -eq 1 ] && from=$P2 to=$P1
	nvmet_ana_set "$from" change
	nvmet_ana_set "$to" change
	sleep 1
	nvmet_ana_set "$to" optimized
	nvmet_ana_set "$from" inaccessible
	sleep 2
	running "$pid" || break
	i=$((i + 1))
done
nvmet_ana_set "$P1" optimized
nvmet_ana_set "$P2" optimized
n2=$(held)
running "$pid" || fail "the writers ended early at failover $i: $(grep -E 'err=|error' /tmp/mfh.fio | head -3)"
writers_ok "two paths, $i failovers through change"
log "two paths: $i failovers through change on both, $n2 holds of a flush; no write or fsync failed"
assert_on_target "$dev" "$RBLK_BACKING" 4 "what the writers wrote through $dev"
ctrl_live "$A" && ctrl_live "$B" || fail "a controller not live at the end"
echo 0 > "$TR/events/rblk/rblk_flush_held/enable"
must nvmecfg disconnect-all >/dev/null
rblk_unload

# --- the reference: nvme-rdma, one path, the same flips ---
if nvme_native_mpath; then
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "nvme-rdma did not connect"
	writers "$ndev" 18
	sleep 2
	i=0
	while [ "$i" -lt 6 ]; do
		nvmet_ana_set "$P1" inaccessible
		sleep 1
		nvmet_ana_set "$P1" optimized
		sleep 1
		running "$pid" || break
		i=$((i + 1))
	done
	if wait "$pid" && grep -q 'err= 0' /tmp/mfh.fio; then
		log "nvme-rdma: no error through $i flips"
	else
		log "nvme-rdma: failed through $i flips: $(grep -E 'err=|error' /tmp/mfh.fio | head -3)"
	fi
	pid=
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma
else
	log "nvme_core without native multipath: no reference"
fi
exit 0

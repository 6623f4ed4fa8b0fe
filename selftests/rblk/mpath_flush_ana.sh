#!/bin/sh
# A flush of a flush sequence carries no data and no bio (the block
# layer's flush request for an fsync): when its path fails it with a path
# error, an NVMe Flush on another path stands in for it, and the fsync
# succeeds (nvme-core ends such a flush as a success, flushing nothing;
# rblk waited for the failing path, and the flush failed after its
# retries).
# rblk.multipath=Y, two paths to one subsystem over two nvmet ports,
# round-robin; writers that flush after every write (fio --fsync=1)
# while port 1's, then port 2's ANA group turns inaccessible and back, 20
# times in all (so that each path's flushes go to the other):
#  - no write or fsync fails; what was written is on the target;
#  - flushes that met the inaccessible path were sent on from each path
#    (rblk_failover events of no bytes: the data-less flushes).
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
	[ -d "$TR/events/rblk" ] && echo 0 > "$TR/events/rblk/rblk_failover/enable"
	nvmet_ana_set "$P1" optimized 2>/dev/null
	nvmet_ana_set "$P2" optimized 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mf.fio
}
trap cleanup EXIT

nvmet_port2_add
[ -f "$NVMET_PORT2/ana_groups/1/ana_state" ] || skip "nvmet without ANA groups"

rblk_load multipath=1
rblk_two_paths
must nvmecfg set-iopolicy "$A" --iopolicy round-robin
flushes() { cat "/sys/block/$1/rblk/flushes"; }
f0a=$(flushes "$pa") f0b=$(flushes "$pb")
grep -q " $TR tracefs" /proc/mounts || mount -t tracefs tracefs "$TR" || fail "cannot mount tracefs"
echo > "$TR/trace"
echo 1 > "$TR/events/rblk/rblk_failover/enable" || fail "no tracepoint rblk_failover"

# Four writers, each on its own 2 MiB, so that several flushes are out
# when a flip comes.
fio --name=flush --filename="$dev" --direct=1 --ioengine=psync --rw=randwrite \
	--bs=4k --numjobs=4 --size=2M --offset_increment=2M --fsync=1 \
	--time_based --runtime=50 --group_reporting \
	--verify=crc32c --verify_fatal=1 --verify_backlog=64 > /tmp/mf.fio 2>&1 &
pid=$!
sleep 2
# Port 1, then port 2 in turn: each path's flushes go to the other.
i=0
while [ "$i" -lt 20 ]; do
	p=$P1
	[ $((i % 2)) -eq 1 ] && p=$P2
	nvmet_ana_set "$p" inaccessible
	sleep 1
	nvmet_ana_set "$p" optimized
	sleep 1
	running "$pid" || break
	i=$((i + 1))
done
running "$pid" ||
	fail "the writer ended early at flip $i: $(grep -E 'err=|error' /tmp/mf.fio | head -3)"
wait "$pid"; rc=$?; pid=
[ "$rc" -eq 0 ] && grep -q 'err= 0' /tmp/mf.fio ||
	fail "fio failed ($rc): $(grep -E 'err=|verify|error' /tmp/mf.fio | head -5)"
fa=$(($(flushes "$pa") - f0a)) fb=$(($(flushes "$pb") - f0b))
echo 0 > "$TR/events/rblk/rblk_failover/enable"
fwa=$(grep -c "rblk_failover: .* path=$pa .*bytes=0\$" "$TR/trace")
fwb=$(grep -c "rblk_failover: .* path=$pb .*bytes=0\$" "$TR/trace")
writes=$(grep -c "rblk_failover: .*bytes=4096\$" "$TR/trace")
log "flushes over $pa $fa, over $pb $fb; data-less flushes sent on" \
	"from $pa $fwa, from $pb $fwb; writes failed over $writes; fio: no error"
[ "$fa" -gt 0 ] && [ "$fb" -gt 0 ] || fail "flushes not spread over both paths ($fa, $fb)"
[ "$fwa" -gt 0 ] && [ "$fwb" -gt 0 ] ||
	fail "no flush met an inaccessible path on each side in 20 flips ($fwa, $fwb): not tested"
assert_on_target "$dev" "$RBLK_BACKING" 16 "what was written through $dev"
exit 0

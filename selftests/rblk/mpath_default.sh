#!/bin/sh
# Multipath with the default parameters (issue 44), as a new user of a
# dual-port array meets it, against nvme-rdma in the same boot:
#  - rblk loaded with no parameter, two connects (one per port) with
#    nvmecfg's defaults: one block device per namespace (every namespace
#    of the subsystem, both paths under it, no device node for a path), no
#    hint that multipath is off;
#  - a verifying writer survives port 1's removal and then ANA group 1 of
#    port 2 going inaccessible (the I/O moves to the other path each time);
#  - what it wrote is on the target; disconnect of one path keeps the
#    device, of the other removes it; rmmod;
#  - nvme-rdma, loaded with its defaults, does the same in this boot: one
#    device per namespace and the writer survives the same faults.
# rblk-timeout: 420
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

PORT2=$NVMET_PORT2
SVC2=$NVMET_SVC2

port_unlink() { rm -f "$1/subsystems/$RBLK_NQN"; }
port_relink() {
	[ -e "$1/subsystems/$RBLK_NQN" ] ||
		ln -s "$RBLK_NVMET_SUBSYS" "$1/subsystems/$RBLK_NQN" ||
		fail "cannot relink $1"
}
cleanup() {
	[ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null
	port_relink "$RBLK_NVMET_PORT" 2>/dev/null
	[ -d "$PORT2/ana_groups/1" ] && echo optimized > "$PORT2/ana_groups/1/ana_state" 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	[ -n "${pid:-}" ] && wait_until 10 exited "$pid"
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/md.fio
}
trap cleanup EXIT

nvmet_port2_add
[ -d "$PORT2/ana_groups/1" ] || skip "nvmet without ANA groups on its ports"

# writer DEV: a verifying fio writer in the background ($!).
writer() {
	fio --name=mdef --filename="$1" --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --iodepth=16 --size=16M --loops=3 \
		--verify=crc32c --verify_fatal=1 --do_verify=1 > /tmp/md.fio 2>&1 &
}
writer_ok() {
	wait "$1"; _rc=$?
	[ "$_rc" -eq 0 ] || fail "$2: fio failed ($_rc): $(grep -E 'err=|verify|error' /tmp/md.fio | head -5)"
	grep -q 'err= 0' /tmp/md.fio || fail "$2: fio saw errors: $(grep -E 'err=' /tmp/md.fio)"
}
# faults WHAT DEV: port 1 away and back, then port 2's group inaccessible
# and back, under the writer on DEV; the writer must not see an error.
faults() {
	writer "$2"; pid=$!
	sleep 2
	port_unlink "$RBLK_NVMET_PORT"
	sleep 6
	port_relink "$RBLK_NVMET_PORT"
	sleep 6
	nvmet_ana_set "$PORT2" inaccessible
	sleep 4
	nvmet_ana_set "$PORT2" optimized
	writer_ok "$pid" "$1"
	pid=
}

# --- rblk, no module parameter, nvmecfg's defaults ---
rblk_load
[ "$(cat /sys/module/rblk/parameters/multipath)" = Y ] ||
	fail "rblk.multipath is $(cat /sys/module/rblk/parameters/multipath) by default"
outA=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" 2>&1) ||
	fail "first connect failed: $outA"
outB=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$SVC2" -n "$RBLK_NQN" 2>&1) ||
	fail "second connect failed: $outB"
A=$(echo "$outA" | head -n 1) B=$(echo "$outB" | head -n 1)
echo "$outB" | grep -q "multipath is off" && fail "second connect says multipath is off: $outB"
nr_ns=0
for n in "$RBLK_NVMET_SUBSYS"/namespaces/*; do
	[ "$(cat "$n/enable")" = 1 ] && nr_ns=$((nr_ns + 1))
done
heads=0
for b in /sys/block/rblk*; do
	case ${b##*/} in rblk*c*) ;; *) heads=$((heads + 1)) ;; esac
done
[ "$heads" -eq "$nr_ns" ] ||
	fail "$heads block devices for $nr_ns namespaces over two controllers: $(ls /sys/block)"
for n in /dev/rblk[0-9]*c[0-9]*; do
	[ -e "$n" ] && fail "a path has a device node: $n"
done
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
[ "$(rblk_ns_dev "$B" "$RBLK_NSID_FILE")" = "$dev" ] || fail "$B's namespace is not under $dev"
h=${dev##*/}
set -- "/sys/block/$h/multipath"/*
[ $# -eq 2 ] ||
	fail "$h has paths $(ls "/sys/block/$h/multipath")"
log "defaults: $nr_ns namespaces, $heads devices, $h has 2 paths ($A, $B)"

faults "rblk" "$dev"
rblk_wait_state "$(rblk_path_of "$h" "$A")" live 30 || fail "$A not live again"
[ "$(cat "/sys/block/$h/rblk/no_path_errors")" -eq 0 ] || fail "$h failed bios for want of a path"
log "rblk: the writer carried on through port 1's loss and port 2's inaccessible group ($(cat "/sys/block/$h/rblk/failovers") failovers)"
assert_on_target "$dev" "$RBLK_BACKING" 16 "what the writer wrote through $dev"

must nvmecfg disconnect "$A" >/dev/null
[ -b "$dev" ] || fail "$dev went with one of two paths"
dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null || fail "$dev does not serve over $B"
must nvmecfg disconnect "$B" >/dev/null
wait_for_path "/sys/block/$h" 10 ! || fail "$h still there after both disconnects"
timeout 60 rmmod rblk || fail "rmmod failed or hung"

# --- the reference: nvme-rdma with its defaults, the same faults ---
if nvme_native_mpath; then
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$SVC2" -n "$RBLK_NQN"
	ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "nvme-rdma did not connect"
	faults "nvme-rdma" "$ndev"
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma
	log "nvme-rdma: one device per namespace, the writer carried on through the same faults"
else
	log "nvme_core without native multipath: no reference"
fi
exit 0

#!/bin/sh
# Two subsystems with a namespace of one UUID (issue 44, finding 6): a
# second nvmet subsystem whose namespace 1 has the device_uuid of the test
# subsystem's namespace RBLK_NSID_FILE.  Against nvme-rdma in the same
# boot, which refuses it on fabrics ("ignoring nsid 1 because of duplicate
# IDs", after a "VID:... model:... firmware:..." line):
#  - rblk (default parameters) refuses it with the same messages and
#    serves the test subsystem's namespace (data on the target);
#  - once the test subsystem is disconnected, a rescan of the second one
#    adds it (only live namespaces count);
#  - with multipath=N as well.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NQN2=nqn.2026-12.io.rblk:dup-ids
S2=${RBLK_NVMET_SUBSYS%/*}/$NQN2
IMG2=/tmp/ns_dup_ids_global.img
MSG="ignoring nsid 1 because of duplicate IDs"

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	nvme disconnect -n "$NQN2" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_subsys_del "$NQN2"
	rm -f "$IMG2" /tmp/ndg.pat /tmp/ndg.got
}
trap cleanup EXIT

uuid=$(cat "$RBLK_NVMET_SUBSYS/namespaces/$RBLK_NSID_FILE/device_uuid") ||
	fail "no device_uuid for namespace $RBLK_NSID_FILE"
truncate -s 16M "$IMG2" || fail "cannot create $IMG2"
{ mkdir "$S2" && echo 1 > "$S2/attr_allow_any_host" &&
  mkdir "$S2/namespaces/1" && echo "$IMG2" > "$S2/namespaces/1/device_path" &&
  echo 1 > "$S2/namespaces/1/buffered_io" &&
  echo "$uuid" > "$S2/namespaces/1/device_uuid" &&
  echo 1 > "$S2/namespaces/1/enable" &&
  ln -s "$S2" "$RBLK_NVMET_PORT/subsystems/$NQN2"; } ||
	fail "cannot create nvmet subsystem $NQN2"

mark() { lines=$(dmesg | wc -l); }
since() { dmesg | tail -n +$((lines + 1)); }
# refused CTRL: since the mark, CTRL refused nsid 1 as nvme-core does.
refused() {
	since | grep -q "$1: $MSG" && since | grep -q "$1: VID:[0-9a-f]* model:"
}
# devs_of CTRL: rblk disks of controller CTRL.
devs_of() { ls -d /sys/class/rblk/"$1"/rblk[0-9]* 2>/dev/null; }
connect2() {
	_o=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$NQN2" 2>&1) ||
		fail "connect to $NQN2: $_o"
	echo "$_o" | head -n 1
}

# --- nvme-rdma, the reference ---
if modprobe nvme-rdma 2>/dev/null; then
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE" > /dev/null || fail "nvme-rdma did not connect"
	mark
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$NQN2"
	wait_until 10 sh -c "dmesg | tail -n +$((lines + 1)) | grep -q 'nvme[0-9]*: $MSG'" ||
		fail "nvme-rdma did not refuse $NQN2's nsid 1: $(since | grep nvme | tail -5)"
	! nvme_ns_dev "$NQN2" 1 > /dev/null || fail "nvme-rdma has a device for $NQN2's nsid 1"
	log "nvme-rdma: $(since | grep -m1 'nvme[0-9]*: VID:'); $MSG"
	nvme disconnect -n "$NQN2" > /dev/null
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma 2>/dev/null
else
	log "no nvme-rdma: no reference"
fi

for mp in Y N; do
	rblk_unload
	rblk_load multipath=$mp
	A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
	mark
	C=$(connect2)
	refused "$C" || fail "multipath=$mp: $C did not refuse nsid 1: $(since | grep rblk | tail -5)"
	[ -z "$(devs_of "$C")" ] || fail "multipath=$mp: $C has disks $(devs_of "$C")"
	dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
	wait_for_path "$dev" 10 -b || fail "no device node $dev"
	pattern_file /tmp/ndg.pat 1048576
	write_direct /tmp/ndg.pat "$dev" 7340032
	read_region "$RBLK_BACKING" 7340032 1048576 /tmp/ndg.got
	assert_same /tmp/ndg.pat /tmp/ndg.got "multipath=$mp: written through $dev, on the target"
	log "multipath=$mp: $C: $MSG; $dev serves"

	must nvmecfg disconnect "$A"
	wait_for_path "/sys/class/rblk/$A" 10 ! || fail "$A still there"
	must nvmecfg ns-rescan "$C"
	wait_until 10 sh -c "ls -d /sys/class/rblk/$C/rblk[0-9]* > /dev/null 2>&1" ||
		fail "multipath=$mp: a rescan of $C after $A left did not add nsid 1"
	log "multipath=$mp: $A gone, a rescan of $C added its nsid 1"
	must nvmecfg disconnect "$C"
done
exit 0

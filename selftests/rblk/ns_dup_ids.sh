#!/bin/sh
# Two namespaces of one subsystem with one UUID (issue 44, finding 6):
# nvmet's namespace 4 gets the device_uuid of namespace RBLK_NSID_FILE.
# Against nvme-rdma in the same boot:
#  - nvme-rdma refuses one of them ("duplicate IDs in subsystem for nsid
#    N": whichever its parallel scan takes second) and serves the other;
#  - so does rblk (default parameters), with the same message, on each
#    controller (a second one over another port): the first namespace's
#    head has both paths and serves (data on the target), no device
#    reports nsid 4; a rescan refuses it again; once nvmet gives it a
#    UUID of its own, the namespace-change notice adds it; moved to nsid
#    5 in one change, nsid 5 comes on both controllers (a scan that
#    refused it before removing nsid 4 scans again);
#  - with multipath=N as well: refused on both controllers, the first
#    namespace a device on each.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NS4=$RBLK_NVMET_SUBSYS/namespaces/4
NS5=$RBLK_NVMET_SUBSYS/namespaces/5
IMG4=/tmp/ns_dup_ids.img
MSG="duplicate IDs in subsystem for nsid 4"

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	echo 0 > "$NS5/enable" 2>/dev/null
	rmdir "$NS5" 2>/dev/null
	echo 0 > "$NS4/enable" 2>/dev/null
	rmdir "$NS4" 2>/dev/null
	nvmet_port2_del
	rm -f "$IMG4" /tmp/ndi.pat /tmp/ndi.got
}
trap cleanup EXIT

uuid=$(cat "$RBLK_NVMET_SUBSYS/namespaces/$RBLK_NSID_FILE/device_uuid") ||
	fail "no device_uuid for namespace $RBLK_NSID_FILE"
# ns4_uuid UUID: namespace 4 reports UUID from now on (a change notice).
ns4_uuid() {
	echo 0 > "$NS4/enable" || fail "cannot disable namespace 4"
	echo "$1" > "$NS4/device_uuid" || fail "cannot set namespace 4's UUID"
	echo 1 > "$NS4/enable" || fail "cannot enable namespace 4"
}
truncate -s 16M "$IMG4" || fail "cannot create $IMG4"
{ mkdir "$NS4" && echo "$IMG4" > "$NS4/device_path" &&
  echo 1 > "$NS4/buffered_io" && echo "$uuid" > "$NS4/device_uuid" &&
  echo 1 > "$NS4/enable"; } || fail "cannot create namespace 4"
nvmet_port2_add

# rblk_nsid_devs NSID: the rblk disks (heads or not, paths too) of NSID.
rblk_nsid_devs() {
	for _d in /sys/block/rblk*; do
		[ "$(cat "$_d/nsid" 2>/dev/null)" = "$1" ] && echo "${_d##*/}"
	done
}
# refused CTRL: the kernel log since the mark says CTRL refused nsid 4.
mark() { lines=$(dmesg | wc -l); }
refused() {
	dmesg | tail -n +$((lines + 1)) | grep -q "$1: $MSG"
}

# --- nvme-rdma, the reference ---
if modprobe nvme-rdma 2>/dev/null; then
	mark
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	# nvme-core scans namespaces in parallel: whichever of the two comes
	# second is refused, and the other served.
	nref() {
		dmesg | tail -n +$((lines + 1)) |
			sed -n "s/.*nvme[0-9]*: duplicate IDs in subsystem for nsid \([0-9]*\)$/\1/p" | head -n 1
	}
	nrefused() { [ -n "$(nref)" ]; }
	wait_until 10 nrefused ||
		fail "nvme-rdma refused neither nsid: $(dmesg | tail -n +$((lines + 1)) | grep nvme | tail -5)"
	r=$(nref) k=4
	[ "$r" = 4 ] && k=$RBLK_NSID_FILE
	[ "$r" = 4 ] || [ "$r" = "$RBLK_NSID_FILE" ] || fail "nvme-rdma refused nsid $r"
	nvme_wait_ns_dev "$RBLK_NQN" "$k" > /dev/null || fail "nvme-rdma serves neither nsid"
	! nvme_ns_dev "$RBLK_NQN" "$r" > /dev/null || fail "nvme-rdma has a device for the refused nsid $r"
	log "nvme-rdma: duplicate IDs in subsystem for nsid $r, nsid $k served"
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma 2>/dev/null
else
	log "no nvme-rdma: no reference"
fi

# --- rblk, default parameters ---
rblk_unload
rblk_load
mark
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
refused "$A" || fail "$A did not refuse nsid 4: $(dmesg | grep rblk | tail -5)"
B=$(rblk_connect_port_ctrl "$NVMET_SVC2") || exit "$KSFT_FAIL"
refused "$B" || fail "$B did not refuse nsid 4: $(dmesg | grep rblk | tail -5)"
[ -z "$(rblk_nsid_devs 4)" ] || fail "disks of nsid 4: $(rblk_nsid_devs 4)"
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
h=${dev##*/}
rblk_path_of "$h" "$A" > /dev/null && rblk_path_of "$h" "$B" > /dev/null ||
	fail "paths of $h: $(ls "/sys/block/$h/multipath")"
wait_for_path "$dev" 10 -b || fail "no device node $dev"
pattern_file /tmp/ndi.pat 1048576
write_direct /tmp/ndi.pat "$dev" 5242880
read_region "$RBLK_BACKING" 5242880 1048576 /tmp/ndi.got
assert_same /tmp/ndi.pat /tmp/ndi.got "written through $dev, on the target"
log "$A, $B: $MSG; $h has both paths and serves"

mark
must nvmecfg ns-rescan "$A"
wait_until 10 refused "$A" || fail "a rescan of $A did not refuse nsid 4 again"
[ -z "$(rblk_nsid_devs 4)" ] || fail "disks of nsid 4 after a rescan: $(rblk_nsid_devs 4)"

# A UUID of its own: the change notice adds it on both controllers.
ns4_uuid "$(cat /proc/sys/kernel/random/uuid)"
wait_until 20 sh -c "[ \"\$(ls -d /sys/class/rblk/$A/rblk*/ /sys/class/rblk/$B/rblk*/ 2>/dev/null |
	while read -r d; do cat \"\$d/nsid\"; done | grep -cx 4)\" -eq 2 ]" ||
	fail "nsid 4 with a UUID of its own did not come on both controllers: $(rblk_nsid_devs 4)"
log "nsid 4 with its own UUID: added"

# on_both NSID: a disk of NSID on both controllers.
on_both() {
	[ "$(ls -d /sys/class/rblk/$A/rblk*/ /sys/class/rblk/$B/rblk*/ 2>/dev/null |
		while read -r d; do cat "$d/nsid"; done | grep -cx "$1")" -eq 2 ]
}
# Moved to another NSID in one change: nsid 4 off and nsid 5 on with its
# UUID.  A scan that finds 5 before it removes 4 refuses 5, and scans
# again once 4 is gone.
{ mkdir "$NS5" && echo "$IMG4" > "$NS5/device_path" &&
  echo 1 > "$NS5/buffered_io" && cat "$NS4/device_uuid" > "$NS5/device_uuid"; } ||
	fail "cannot create namespace 5"
echo 0 > "$NS4/enable" && echo 1 > "$NS5/enable" || fail "cannot move nsid 4 to 5"
wait_until 20 on_both 5 ||
	fail "nsid 4 moved to 5: 5 not on both controllers: $(rblk_nsid_devs 5; dmesg | grep rblk | tail -5)"
wait_until 10 sh -c "[ -z \"\$(ls -d /sys/class/rblk/$A/rblk*/ /sys/class/rblk/$B/rblk*/ 2>/dev/null |
	while read -r d; do cat \"\$d/nsid\"; done | grep -x 4)\" ]" ||
	fail "nsid 4 moved to 5: 4 still listed"
log "nsid 4 moved to 5: 5 added on both controllers$(dmesg | tail -n +$((lines + 1)) | grep -q 'for nsid 5' && echo ', after a refusal and a rescan')"
echo 0 > "$NS5/enable"; rmdir "$NS5"
echo 1 > "$NS4/enable" || fail "cannot enable namespace 4 again"
must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"

# --- multipath=N ---
ns4_uuid "$uuid"
rblk_unload
rblk_load multipath=N
mark
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
B=$(rblk_connect_port_ctrl "$NVMET_SVC2") || exit "$KSFT_FAIL"
refused "$A" && refused "$B" ||
	fail "multipath=N: nsid 4 not refused on both: $(dmesg | grep rblk | tail -5)"
[ -z "$(rblk_nsid_devs 4)" ] || fail "multipath=N: disks of nsid 4: $(rblk_nsid_devs 4)"
da=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") && db=$(rblk_ns_dev "$B" "$RBLK_NSID_FILE") ||
	fail "multipath=N: nsid $RBLK_NSID_FILE not on both controllers"
read_direct "$db" 5242880 1048576 /tmp/ndi.got
assert_same /tmp/ndi.pat /tmp/ndi.got "multipath=N: read through $db"
log "multipath=N: $MSG on $A and $B; $da, $db serve"
must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"
exit 0

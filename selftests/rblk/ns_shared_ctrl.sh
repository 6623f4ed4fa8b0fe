#!/bin/sh
# One connect to the three-namespace test subsystem: one controller, three
# block devices (rblk-ctrlM/rblkN in sysfs) that share its queue pairs: as
# many QPs as a connect that exposes one namespace (-N).  Each device has
# the target's size, block size and identifiers, and the same wwid as the
# kernel's nvme-rdma host shows for that namespace in this boot.  fio then
# drives all three at once, with verify on the two that store data, and
# the data is compared with the backing stores.
# rblk-timeout: 420
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v fio >/dev/null || fail "fio missing from the guest"

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
}
trap cleanup EXIT

# rblk_qps: connected (RC) queue pairs on the RDMA device.  Only rblk and
# the target's side of rblk's connections have any while nvme-rdma is not
# connected: twice rblk's count, halved.
rblk_qps() {
	echo $(( $(rdma resource show qp | grep -c 'type RC') / 2 ))
}

rblk_load

# --- the -N filter: one namespace, the reference QP count ---
dev=$(rblk_connect_all -N "$RBLK_NSID_FILE" -i 2) || { echo "$dev"; exit "$KSFT_FAIL"; }
printf '%s\n' "$dev"
[ "$(echo "$dev" | wc -l)" -eq 2 ] || fail "-N $RBLK_NSID_FILE exposed more than one namespace"
rdma resource show qp
one=$(rblk_qps)
[ "$one" -eq 3 ] || fail "$one rblk QPs for one namespace with 2 I/O queues, want 3"
rblk_disconnect "$(echo "$dev" | tail -n 1)"

# --- everything: one controller, three devices ---
all=$(rblk_connect_all -i 2) || { echo "$all"; exit "$KSFT_FAIL"; }
printf '%s\n' "$all"
ctrl=$(echo "$all" | head -n 1)
[ "$(echo "$all" | tail -n +2 | wc -l)" -eq 3 ] || fail "want 3 namespace devices"
[ "$(ls -d /sys/class/rblk/rblk-ctrl* | wc -l)" -eq 1 ] || fail "more than one controller"
three=$(rblk_qps)
[ "$three" -eq "$one" ] || fail "$three QPs for three namespaces, $one for one"
log "3 namespaces over $three queue pairs"

d1=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_NULL") || fail "no device for nsid $RBLK_NSID_NULL"
d2=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_FILE") || fail "no device for nsid $RBLK_NSID_FILE"
d3=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_512") || fail "no device for nsid $RBLK_NSID_512"
for d in $d1 $d2 $d3; do
	[ "$(rblk_ctrl_of "$d")" = "$ctrl" ] || fail "$d is not on $ctrl"
	[ "$(rblk_attr "$d" state)" = live ] || fail "$d: state not live"
done
sz() { echo $(( $(cat "/sys/block/${1##*/}/size") * 512 )); }
lbs() { cat "/sys/block/${1##*/}/queue/logical_block_size"; }
[ "$(sz "$d1")" -eq "$RBLK_NULL_SIZE" ] || fail "$d1 size $(sz "$d1")"
[ "$(sz "$d2")" -eq "$RBLK_BACKING_SIZE" ] || fail "$d2 size $(sz "$d2")"
[ "$(sz "$d3")" -eq "$(stat -c %s "$RBLK_BACKING_512")" ] || fail "$d3 size $(sz "$d3")"
[ "$(lbs "$d3")" -eq 512 ] || fail "$d3 block size $(lbs "$d3"), want 512"
[ "$(lbs "$d1")" -eq "$(cat /sys/block/nullb0/queue/logical_block_size)" ] ||
	fail "$d1 block size differs from nullb0's"

# --- identifiers: the target's, and what nvme-rdma shows ---
must modprobe nvme-rdma
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
for nsid in "$RBLK_NSID_NULL" "$RBLK_NSID_FILE" "$RBLK_NSID_512"; do
	r=$(rblk_ns_dev "$ctrl" "$nsid")
	n=$(nvme_wait_ns_dev "$RBLK_NQN" "$nsid") ||
		fail "nvme-rdma shows no device for nsid $nsid"
	[ "$(rblk_attr "$r" nsid)" = "$nsid" ] || fail "$r: nsid $(rblk_attr "$r" nsid)"
	for a in wwid nguid uuid; do
		want=$(cat "/sys/block/${n#/dev/}/$a" 2>/dev/null) || continue
		got=$(rblk_attr "$r" "$a") || fail "$r has no $a, $n has $want"
		[ "$got" = "$want" ] || fail "$r $a '$got', nvme-rdma $n '$want'"
	done
	want=$(cat "$RBLK_NVMET_SUBSYS/namespaces/$nsid/device_uuid")
	[ "$(rblk_attr "$r" uuid)" = "$want" ] || fail "$r uuid is not the target's $want"
	log "nsid $nsid: $r $(rblk_attr "$r" wwid) = $n"
done
nvme disconnect -n "$RBLK_NQN" >/dev/null || fail "nvme disconnect failed"

# --- all three at once: verify where data is stored ---
fio --name=ns2 --filename="$d2" --direct=1 --ioengine=libaio --rw=randwrite \
	--bsrange=4k-256k --iodepth=16 --numjobs=2 --size=32M --offset_increment=32M \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --group_reporting \
	> /tmp/ns2.fio 2>&1 &
p2=$!
fio --name=ns3 --filename="$d3" --direct=1 --ioengine=libaio --rw=randwrite \
	--bsrange=512-64k --iodepth=16 --size=48M --verify=crc32c --verify_fatal=1 \
	--do_verify=1 > /tmp/ns3.fio 2>&1 &
p3=$!
fio --name=ns1 --filename="$d1" --direct=1 --ioengine=libaio --rw=randrw \
	--bs=64k --iodepth=16 --size=256M --time_based --runtime=10 \
	> /tmp/ns1.fio 2>&1 &
p1=$!
rc=0
wait $p2 || rc=2
wait $p3 || rc=$((rc + 3))
wait $p1 || rc=$((rc + 10))
for f in ns1 ns2 ns3; do
	grep -E 'err=|verify|fio:' /tmp/$f.fio | sed "s/^/$f: /"
done
[ $rc -eq 0 ] || { cat /tmp/ns2.fio /tmp/ns3.fio; fail "fio failed (code $rc)"; }
for f in ns1 ns2 ns3; do
	grep -q 'err= 0' /tmp/$f.fio || fail "fio on $f reported errors"
done
rm -f /tmp/ns1.fio /tmp/ns2.fio /tmp/ns3.fio
assert_on_target "$d2" "$RBLK_BACKING" 64 "$d2 vs its backing file after fio"
assert_on_target "$d3" "$RBLK_BACKING_512" 48 "$d3 vs its backing file after fio"
[ "$(rblk_attr "$d1" errors)" -eq 0 ] || fail "$d1 counted errors"
[ "$(rblk_attr "$d2" writes)" -gt 0 ] && [ "$(rblk_attr "$d3" writes)" -gt 0 ] ||
	fail "per-namespace write counters did not move"

# Disconnect by a namespace device takes the controller and all three.
rblk_disconnect "$d3"
for d in $d1 $d2; do
	wait_for_path "/sys/block/${d##*/}" 10 ! || fail "$d survived the disconnect"
done
[ -e "/sys/class/rblk/$ctrl" ] && fail "$ctrl survived the disconnect"
rblk_unload
exit 0

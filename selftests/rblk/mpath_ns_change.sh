#!/bin/sh
# Namespaces that change on the target under multipath heads (issue 27),
# rblk.multipath=Y, two controllers over two nvmet ports, next to
# nvme-rdma's native multipath connected the same way, while a verifying
# writer runs on another head:
#  - a namespace added on the target is one new head with two paths,
#    holding what the target's file holds (nvme-rdma: one new device);
#  - one grown on the target grows its head (both paths tell it), as
#    nvme-rdma's head grows;
#  - one removed: its head goes once both paths are gone, I/O running on
#    it fails with EIO, and nvme-rdma's head goes too;
#  - one removed and added again with other identifiers (a new UUID and
#    NGUID): a head of the new identity, not the old one reused;
#  - the writer on the other head sees no error; its data is on the
#    target.
# rblk-timeout: 400
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NEW_NSID=7
IMG=/tmp/mn.img
NS_DIR=$RBLK_NVMET_SUBSYS/namespaces/$NEW_NSID
pid=

cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	if [ -d "$NS_DIR" ]; then
		echo 0 > "$NS_DIR/enable"
		rmdir "$NS_DIR"
	fi
	nvmet_port2_del
	rm -f "$IMG" /tmp/mn.fio /tmp/mn.pat /tmp/mn.got /tmp/mn.dd
}
trap cleanup EXIT

bytes_of() { echo $(( $(cat "/sys/block/${1##*/}/size" 2>/dev/null || echo 0) * 512 )); }
size_is() { [ "$(bytes_of "$1")" -eq "$2" ]; }
gone() { [ ! -e "/sys/block/${1##*/}" ]; }
npaths() { set -- "/sys/block/${1##*/}/multipath"/*; [ -e "$1" ] && echo $# || echo 0; }
# head_of NSID: the head of that namespace on controller A, if any.
head_of() { rblk_ns_dev "$A" "$1"; }
two_paths() { _h=$(head_of "$1") && [ "$(npaths "$_h")" -eq 2 ]; }
no_head() { ! head_of "$1" > /dev/null && ! rblk_ns_dev "$B" "$1" > /dev/null; }
nvme_has() { nvme_ns_dev "$RBLK_NQN" "$1" > /dev/null; }
nvme_hasnt() { ! nvme_has "$1"; }
ns_enable() {
	{ echo "$IMG" > "$NS_DIR/device_path" && echo 1 > "$NS_DIR/buffered_io" &&
	  echo 1 > "$NS_DIR/enable"; } || fail "cannot enable nvmet namespace $NEW_NSID"
}

nvmet_port2_add
rblk_load multipath=1
rblk_two_paths
ref=
nvme_two_paths && ref=1

fio --name=mn --filename="$dev" --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=8 --size=16M --time_based --runtime=60 \
	--verify=crc32c --verify_fatal=1 --verify_backlog=256 > /tmp/mn.fio 2>&1 &
pid=$!

# --- add ---
pattern_file "$IMG" $((16 * 1024 * 1024))
mkdir "$NS_DIR" || fail "cannot create nvmet namespace $NEW_NSID"
ns_enable
wait_until 15 two_paths "$NEW_NSID" ||
	fail "namespace $NEW_NSID: head $(head_of "$NEW_NSID") with $(npaths "$(head_of "$NEW_NSID")") paths after 15 s"
d=$(head_of "$NEW_NSID")
[ "$(rblk_ns_dev "$B" "$NEW_NSID")" = "$d" ] || fail "$B's namespace $NEW_NSID is not under $d"
wait_for_path "$d" 10 -b || fail "$d is no block device"
# Usable at once: its ANA group's state, though the log predates it.
for p in /sys/block/"${d##*/}"/multipath/*; do
	[ "$(cat "$p/ana_state")" = optimized ] || fail "${p##*/} of the new $d is $(cat "$p/ana_state")"
done
timeout 60 dd if="$d" of=/dev/null bs=1M count=1 iflag=direct 2>/dev/null ||
	fail "a read of the new $d did not complete within 60 s"
assert_on_target "$d" "$IMG" 16 "new head $d vs its file"
[ -z "$ref" ] || wait_until 10 nvme_has "$NEW_NSID" || fail "nvme-rdma did not see namespace $NEW_NSID"
log "added: $d with two paths, its data the file's"

# --- grow ---
truncate -s 32M "$IMG" || fail "cannot grow $IMG"
echo 1 > "$NS_DIR/revalidate_size" || fail "revalidate_size failed"
wait_until 15 size_is "$d" $((32 * 1024 * 1024)) ||
	fail "$d is $(bytes_of "$d") bytes 15 s after growing to 32 MiB"
if [ -n "$ref" ]; then
	n=$(nvme_ns_dev "$RBLK_NQN" "$NEW_NSID")
	wait_until 10 size_is "$n" $((32 * 1024 * 1024)) || fail "nvme-rdma's $n did not grow (rblk's did)"
fi
pattern_file /tmp/mn.pat 1048576
write_direct /tmp/mn.pat "$d" $((24 * 1024 * 1024))
read_region "$IMG" $((24 * 1024 * 1024)) 1048576 /tmp/mn.got
assert_same /tmp/mn.pat /tmp/mn.got "write beyond the old end of $d"
log "grown: $d is 32 MiB, written beyond the old end, on the target"

# --- remove, with I/O on it ---
# Writes until one fails (faster hardware would reach the end first).
sh -c "while dd if=/dev/zero of=$d bs=4096 count=8192 oflag=direct conv=notrunc 2> /tmp/mn.dd; do :; done; exit 1" &
ddpid=$!
sleep 1
kill -0 "$ddpid" 2>/dev/null || fail "dd on $d ended early: $(cat /tmp/mn.dd)"
echo 0 > "$NS_DIR/enable" || fail "cannot disable nvmet namespace $NEW_NSID"
wait_until 15 no_head "$NEW_NSID" ||
	fail "namespace $NEW_NSID still has a path 15 s after its removal: $(dmesg | grep rblk | tail -20)"
wait_until 15 gone "$d" || fail "$d still present 15 s after the namespace was removed: $(dmesg | grep rblk | tail -20)"
wait_until 20 exited "$ddpid" ||
	fail "dd on the removed $d does not end: $(cat /proc/"$ddpid"/stack 2>/dev/null) $(dmesg | grep -v rdma_rxe | tail -40)"
rc=0
wait "$ddpid" || rc=$?
[ "$rc" -ne 0 ] || fail "dd on the removed namespace succeeded"
# EIO, or the device already gone when the next write opened it.
grep -qE 'Input/output error|No such device' /tmp/mn.dd || fail "I/O on the removed namespace: $(cat /tmp/mn.dd)"
[ -z "$ref" ] || wait_until 10 nvme_hasnt "$NEW_NSID" || fail "nvme-rdma still shows namespace $NEW_NSID"
log "removed: $d gone, I/O on it failed with EIO"

# --- back with another identity ---
uuid=$(cat "$NS_DIR/device_uuid")
nuuid=$(cat /proc/sys/kernel/random/uuid)
echo "$nuuid" > "$NS_DIR/device_uuid" || fail "cannot set the namespace's UUID"
echo "$nuuid" > "$NS_DIR/device_nguid" || fail "cannot set the namespace's NGUID"
ns_enable
wait_until 15 two_paths "$NEW_NSID" || fail "namespace $NEW_NSID did not come back with two paths"
d=$(head_of "$NEW_NSID")
[ "$(cat "/sys/block/${d##*/}/uuid" 2>/dev/null)" = "$nuuid" ] ||
	fail "$d has uuid $(cat "/sys/block/${d##*/}/uuid" 2>/dev/null), the target's is $nuuid (was $uuid)"
assert_on_target "$d" "$IMG" 16 "the namespace back as $d"
log "back with UUID $nuuid (was $uuid): $d, two paths"

running "$pid" || fail "the writer ended early: $(grep -E 'err=|error' /tmp/mn.fio | head -3)"
wait "$pid"; rc=$?; pid=
[ "$rc" -eq 0 ] && grep -q 'err= 0' /tmp/mn.fio ||
	fail "fio on $dev failed ($rc): $(grep -E 'err=|verify|error' /tmp/mn.fio | head -5)"
assert_on_target "$dev" "$RBLK_BACKING" 16 "what was written through $dev"
log "the writer on $dev: no error"

nvme disconnect -n "$RBLK_NQN" > /dev/null 2>&1
echo 0 > "$NS_DIR/enable"
wait_until 15 no_head "$NEW_NSID" || fail "namespace $NEW_NSID not removed at the end"
rmdir "$NS_DIR"
must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"
exit 0

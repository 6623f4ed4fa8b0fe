#!/bin/sh
# The in-guest target works, seen through the kernel's own nvme-rdma host: an
# O_DIRECT pattern written to the file-backed namespace reads back intact and
# is in the backing file at the same offset.  If this fails, the fabric (not
# rblk) is broken.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

OFFSET=$((8 * 1024 * 1024 + 4096))	# unaligned to MiB, aligned to blocks
BYTES=$((4 * 1024 * 1024))
PAT=/tmp/ref.pat
GOT=/tmp/ref.got
BAK=/tmp/ref.bak

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rm -f "$PAT" "$GOT" "$BAK"
}
trap cleanup EXIT

must modprobe nvme-rdma
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"

dev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") ||
	fail "no block device for nsid $RBLK_NSID_FILE after connect"
wait_for_path "$dev" 10 -b || fail "$dev is not a block device"
log "nsid $RBLK_NSID_FILE is $dev"

size=$(( $(cat "/sys/block/${dev#/dev/}/size") * 512 ))
[ "$size" -eq "$RBLK_BACKING_SIZE" ] || fail "$dev has $size bytes, backing file $RBLK_BACKING_SIZE"

pattern_file "$PAT" "$BYTES"
write_direct "$PAT" "$dev" "$OFFSET"
read_direct "$dev" "$OFFSET" "$BYTES" "$GOT"
assert_same "$PAT" "$GOT" "read back through $dev"

# buffered_io=1: the target writes through the page cache; the file is on
# tmpfs, so reading it sees the data.
read_region "$RBLK_BACKING" "$OFFSET" "$BYTES" "$BAK"
assert_same "$PAT" "$BAK" "backing file region"
log "4 MiB pattern at offset $OFFSET: device and backing file agree"

must nvme disconnect -n "$RBLK_NQN"
wait_for_path "$dev" 10 ! || fail "$dev still present after disconnect"
log "disconnected, $dev gone"
exit 0

#!/bin/sh
# O_DIRECT patterns from one logical block to 1 MiB at random offsets: read
# back through /dev/rblkN and compared with the target's backing store.
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load

# check_ns NSID BACKING: every size that is a multiple of the LBA size.
check_ns() {
	dev=$(rblk_connect "$1") || exit 1
	lbs=$(cat "/sys/block/${dev##*/}/queue/logical_block_size")
	size=$(($(cat "/sys/block/${dev##*/}/size") * 512))
	n=0
	for bytes in 512 1024 4096 8192 12288 65536 131072 262144 524288 1048576; do
		[ $((bytes % lbs)) -eq 0 ] || continue
		for round in 1 2 3; do
			blocks=$(((size - bytes) / bytes))
			off=$(($(rand_below "$blocks") * bytes))
			dd if=/dev/urandom of=/tmp/pat bs="$bytes" count=1 2>/dev/null
			dd if=/tmp/pat of="$dev" bs="$bytes" seek=$((off / bytes)) \
				count=1 oflag=direct conv=notrunc 2>/dev/null ||
				fail "write of $bytes bytes at $off failed"
			dd if="$dev" of=/tmp/back bs="$bytes" skip=$((off / bytes)) \
				count=1 iflag=direct 2>/dev/null ||
				fail "read of $bytes bytes at $off failed"
			assert_same /tmp/pat /tmp/back "nsid $1: $bytes bytes at $off read back"
			dd if="$2" of=/tmp/store bs="$bytes" skip=$((off / bytes)) \
				count=1 2>/dev/null
			assert_same /tmp/pat /tmp/store "nsid $1: $bytes bytes at $off in the backing store"
			n=$((n + 1))
		done
	done
	log "nsid $1 (LBA $lbs bytes): $n patterns verified"
	[ "$n" -gt 0 ] || fail "no pattern size fits LBA size $lbs"
	rblk_disconnect "$dev"
}

check_ns "$RBLK_NSID_FILE" "$RBLK_BACKING"
if [ -n "$RBLK_NSID_512" ]; then
	check_ns "$RBLK_NSID_512" "$RBLK_BACKING_512"
fi
rblk_unload
exit 0

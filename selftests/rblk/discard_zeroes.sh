#!/bin/sh
# Discard (DSM deallocate) and write-zeroes read back as zeroes, on the
# device and in the backing store, and leave neighbouring data alone.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1
q=/sys/block/${dev##*/}/queue
[ "$(cat $q/discard_max_bytes)" -gt 0 ] || fail "discard not enabled"
[ "$(cat $q/write_zeroes_max_bytes)" -gt 0 ] || fail "write zeroes not enabled"
head -c 1048576 /dev/zero > /tmp/zero

# zero_check OP OFFSET_MB: 3 MiB of data, OP on the middle MiB.
zero_check() {
	pattern_file /tmp/pat 3145728
	write_direct /tmp/pat "$dev" $(($2 * 1048576))
	case $1 in
	discard)	must blkdiscard -o $((($2 + 1) * 1048576)) -l 1048576 "$dev" ;;
	zeroout)	must blkdiscard -z -o $((($2 + 1) * 1048576)) -l 1048576 "$dev" ;;
	esac
	read_direct "$dev" $((($2 + 1) * 1048576)) 1048576 /tmp/mid
	assert_same /tmp/zero /tmp/mid "$1: device range"
	read_region "$RBLK_BACKING" $((($2 + 1) * 1048576)) 1048576 /tmp/mid
	assert_same /tmp/zero /tmp/mid "$1: backing store range"
	# The megabytes around it keep their data.
	read_direct "$dev" $(($2 * 1048576)) 1048576 /tmp/head
	dd if=/tmp/pat of=/tmp/phead bs=1M count=1 2>/dev/null
	assert_same /tmp/phead /tmp/head "$1: data before the range"
	read_direct "$dev" $((($2 + 2) * 1048576)) 1048576 /tmp/tail
	dd if=/tmp/pat of=/tmp/ptail bs=1M skip=2 count=1 2>/dev/null
	assert_same /tmp/ptail /tmp/tail "$1: data after the range"
	log "$1 ok"
}

before=$(rblk_attr "$dev" discards)
zero_check discard 20
zero_check zeroout 40
after=$(rblk_attr "$dev" discards)
[ "$after" -gt "$before" ] || fail "discards counter did not move ($before -> $after)"

rblk_disconnect "$dev"
rblk_unload
exit 0

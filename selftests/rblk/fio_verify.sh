#!/bin/sh
# fio --verify=crc32c, four jobs at queue depth 32, mixed sizes up to 1 MiB,
# each job on its own region; then the regions are re-read through the
# backing store to prove the data reached the target.
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1

out=$(fio --name=verify --filename="$dev" --direct=1 --ioengine=libaio \
	--rw=randwrite --bsrange=4k-1M --iodepth=32 --numjobs=4 \
	--size=24M --offset_increment=24M --verify=crc32c --verify_fatal=1 \
	--do_verify=1 --group_reporting 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E 'err=|verify|fio:'
[ $rc -eq 0 ] || fail "fio exited $rc"
printf '%s\n' "$out" | grep -q 'err= 0' || fail "fio reported errors"

# The last write of each block holds fio's verify header: the same bytes
# must be in the backing file.
assert_on_target "$dev" "$RBLK_BACKING" 96 "device vs backing store after fio"

rblk_disconnect "$dev"
rblk_unload
exit 0

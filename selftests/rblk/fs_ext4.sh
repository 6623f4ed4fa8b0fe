#!/bin/sh
# A file system on rblk: mkfs.ext4, mount, write files, unmount, mount again
# (after a disconnect and reconnect), check every file.
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v mkfs.ext4 >/dev/null || fail "mkfs.ext4 missing from the guest"
modprobe ext4 2>/dev/null
rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1

must mkfs.ext4 -q -F "$dev"
mkdir -p /mnt/rblk
must mount -t ext4 "$dev" /mnt/rblk
for i in 1 2 3 4 5 6 7 8; do
	dd if=/dev/urandom of="/mnt/rblk/file$i" bs=64k count=$((i * 4)) 2>/dev/null ||
		fail "writing file$i failed"
done
mkdir -p /mnt/rblk/dir/sub
cp /mnt/rblk/file3 /mnt/rblk/dir/sub/copy
(cd /mnt/rblk && md5sum file* dir/sub/copy) > /tmp/sums
must umount /mnt/rblk

# Through a fresh connection: nothing may live only in host memory.
rblk_disconnect "$dev"
dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1
must e2fsck -fn "$dev"
must mount -t ext4 "$dev" /mnt/rblk
(cd /mnt/rblk && md5sum -c /tmp/sums) || fail "file contents changed across remount"
must umount /mnt/rblk
rblk_disconnect "$dev"
rblk_unload
exit 0

#!/bin/sh
# Smoke test of the guest image: every real tool the tests rely on starts
# (its shared libraries are all there) and does a small real job.  Only run
# when named:  make check T=selftest_guest_tools
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

img=/tmp/tools-ext4.img
mnt=/tmp/tools-mnt
trap 'umount "$mnt" 2>/dev/null; rm -rf "$img" "$mnt" /tmp/tools-fio.dat' EXIT

must ip -V
must rdma dev show "$RBLK_RDMA_DEV"
must nvme version
must fio --version
must jq --version
must modinfo -F depends "$RBLK_KO"

# ext4 end to end on a loop device over a tmpfs file.
must truncate -s 64M "$img"
must mkfs.ext4 -q -F "$img"
must e2fsck -fn "$img"
must modprobe ext4
must modprobe loop
mkdir -p "$mnt"
must mount -o loop "$img" "$mnt"
echo hello > "$mnt/f" || fail "cannot write to ext4"
[ "$(cat "$mnt/f")" = hello ] || fail "ext4 read back differs"
must umount "$mnt"

must fio --name=smoke --filename=/tmp/tools-fio.dat --size=4M --rw=randwrite \
	--bs=4k --ioengine=psync --output-format=terse
exit 0

#!/bin/sh
# 50 connect/disconnect cycles and 10 module load/unload cycles: the device
# is rblk0 every time (no leaked index or minor) and slab memory does not
# grow with the cycle count.
# rblk-timeout: 900
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

slab_kb() { awk '/^Slab:/ {print $2}' /proc/meminfo; }

rblk_load
cycle() {
	dev=$(rblk_connect "$RBLK_NSID_NULL" -i 1 -Q 32) || exit 1
	[ "$dev" = /dev/rblk0 ] || fail "cycle $1: got $dev, expected /dev/rblk0 (leaked index?)"
	rblk_disconnect "$dev"
}
for i in 1 2 3 4 5; do cycle "$i"; done
echo 3 > /proc/sys/vm/drop_caches
base=$(slab_kb)
i=6
while [ $i -le 50 ]; do cycle $i; i=$((i + 1)); done
echo 3 > /proc/sys/vm/drop_caches
grow=$(($(slab_kb) - base))
log "slab after 45 more cycles: ${grow} KiB"
# On the debug kernel (make check-debug) KASAN's quarantine holds freed
# objects and kmemleak adds its own: slab grows anyway, and kmemleak_scan
# checks for leaks exactly instead.
if [ -e /sys/kernel/debug/kmemleak ]; then
	log "kmemleak present: slab growth not judged (kmemleak_scan does it)"
else
	[ "$grow" -lt 2048 ] || fail "slab grew by ${grow} KiB over 45 cycles"
fi

for i in 1 2 3 4 5 6 7 8 9 10; do
	rblk_unload
	rblk_load
done
dev=$(rblk_connect "$RBLK_NSID_NULL" -i 1) || exit 1
[ "$dev" = /dev/rblk0 ] || fail "after reload: got $dev"
rblk_disconnect "$dev"
rblk_unload
exit 0

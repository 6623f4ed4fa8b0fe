#!/bin/sh
# Harness: reset_fabric (run after every test) removes a delayed namespace
# (lib.sh delay_ns_create) that a killed test left behind, with a write
# stuck in it, and disconnects its controller promptly.
. "$(dirname "$0")/../lib.sh"
delay_ns_create 9 8
rblk_load io_timeout=2
all=$(rblk_connect_all -k 5 -c 1 -l 60) || exit 1
ctrl=$(echo "$all" | head -n 1)
dev=$(rblk_ns_dev "$ctrl" 9) || fail "no ns 9"
must delay_ns_set 600000
dd if=/dev/zero of="$dev" bs=4k count=1 oflag=direct 2>/dev/null &
sleep 1
t0=$(uptime_ms)
reset_fabric
ms=$(($(uptime_ms) - t0))
log "reset_fabric took $ms ms"
[ "$ms" -le 20000 ] || fail "reset_fabric took $ms ms"
[ -d "$RBLK_NVMET_SUBSYS/namespaces/9" ] && fail "namespace 9 left"
dmsetup table "$RBLK_DM" >/dev/null 2>&1 && fail "dm device left"
[ -n "$(losetup -j /tmp/delay.img)" ] && fail "loop left: $(losetup -j /tmp/delay.img)"
for c in /sys/class/rblk/rblk-ctrl*; do [ -e "$c" ] && fail "$c left"; done
exit 0

#!/bin/sh
# rblk.ko loads and unloads cleanly, repeatedly, without kernel splats.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ -f "$RBLK_KO" ] || fail "rblk.ko missing from the guest ($RBLK_KO)"
rblk_loaded && fail "rblk already loaded before the test"

for round in 1 2 3; do
	rblk_load
	[ -d /sys/module/rblk ] || fail "round $round: /sys/module/rblk missing after load"
	rblk_unload
	[ -e /sys/module/rblk ] && fail "round $round: /sys/module/rblk still there after rmmod"
	log "round $round: load/unload ok"
done

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

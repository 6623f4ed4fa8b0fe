#!/bin/sh
# rblk.ko loads and unloads cleanly, repeatedly, without kernel splats;
# nvmecfg version names the loaded module's version (the module's own
# /sys/module/rblk/version, the release nvmecfg is of), and says when
# none is loaded.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ -f "$RBLK_KO" ] || fail "rblk.ko missing from the guest ($RBLK_KO)"
rblk_loaded && fail "rblk already loaded before the test"

for round in 1 2 3; do
	rblk_load
	[ -d /sys/module/rblk ] || fail "round $round: /sys/module/rblk missing after load"
	if [ "$round" -eq 1 ]; then
		kver=$(cat /sys/module/rblk/version) || fail "no /sys/module/rblk/version"
		out=$(nvmecfg version 2>&1) || fail "nvmecfg version: $out"
		[ "$(printf '%s\n' "$out" | sed -n 2p)" = "rblk module version $kver" ] ||
			fail "nvmecfg version does not name module version $kver: $out"
		printf '%s\n' "$out" | grep -q "^nvmecfg version $kver (" ||
			fail "nvmecfg and the module are of different releases: $out"
	fi
	rblk_unload
	[ -e /sys/module/rblk ] && fail "round $round: /sys/module/rblk still there after rmmod"
	[ "$(nvmecfg version | sed -n 2p)" = "rblk module not loaded" ] ||
		fail "round $round: nvmecfg version after rmmod: $(nvmecfg version)"
	log "round $round: load/unload ok"
done

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

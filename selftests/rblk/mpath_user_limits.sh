#!/bin/sh
# What the user set in a multipath head's queue/ survives each restack of
# its limits (issue 44, finding 9), rblk.multipath=Y, two controllers
# over two nvmet ports:
#  - max_sectors_kb and read_ahead_kb set below their defaults on the
#    head of one path stay as a second path joins, across a reset of a
#    path, as a path leaves and as it joins again (a join or a leave
#    restacks the head's limits, a reset only if the controller's limits
#    changed), and 1 MiB written through the head after each reads back
#    and is on the target;
#  - the defaults written back stay the defaults across a restack.
# Before the fix 6.1 applied the stacked limits whole and then
# disk_update_readahead(), so that both values were back to their
# defaults once the second path joined; 6.12 kept max_sectors_kb
# (max_user_sectors) but its commit raised read_ahead_kb to the default.
# nvme-rdma's head is logged for reference, not asserted: it keeps a
# lowered max_sectors_kb on both kernels, and loses read_ahead_kb when a
# path joins (6.1 resets it, 6.12 raises a lowered one).
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mul.pat /tmp/mul.got
}
trap cleanup EXIT

# paths DEV: the names of a head's paths (rblk's or nvme's), one a line.
paths() {
	for _p in /sys/block/"${1##*/}"/multipath/*; do
		[ -e "$_p" ] && echo "${_p##*/}"
	done
}
# has_paths DEV N: the head has N paths.
has_paths() { [ "$(paths "$1" | grep -c .)" -eq "$2" ]; }

# kept WHAT MS RA: the head's max_sectors_kb is MS and read_ahead_kb RA
# after WHAT.
kept() {
	_ms=$(cat "$Q/max_sectors_kb")
	_ra=$(cat "$Q/read_ahead_kb")
	if [ "$_ms" != "$2" ] || [ "$_ra" != "$3" ]; then
		fail "after $1: $h's max_sectors_kb $_ms, read_ahead_kb $_ra, not $2, $3 (defaults $def_ms, $def_ra; max_hw_sectors_kb $(cat "$Q/max_hw_sectors_kb"))"
	fi
}

# verified_io WHAT MIB: 1 MiB written through the head at MIB MiB reads
# back the same, and is on the target.
verified_io() {
	_at=$(($2 * 1048576))
	pattern_file /tmp/mul.pat 1048576
	write_direct /tmp/mul.pat "$dev" "$_at"
	read_direct "$dev" "$_at" 1048576 /tmp/mul.got
	assert_same /tmp/mul.pat /tmp/mul.got "after $1: 1 MiB written through $h and read back"
	read_region "$RBLK_BACKING" "$_at" 1048576 /tmp/mul.got
	assert_same /tmp/mul.pat /tmp/mul.got "after $1: 1 MiB written through $h, on the target"
}

nvmet_port2_add
rblk_load multipath=1

# --- one path, the user's settings ---
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
h=${dev##*/}
wait_for_path "$dev" 10 -b || fail "no device node $dev"
pa=$(rblk_path_of "$h" "$A") || fail "$h has no path on $A: $(paths "$h")"
Q=/sys/block/$h/queue
def_ms=$(cat "$Q/max_sectors_kb")
def_ra=$(cat "$Q/read_ahead_kb")
# Half the default, in whole 4 KiB (any logical block size, a page).
ms=$((def_ms / 2 - def_ms / 2 % 4))
[ "$ms" -ge 4 ] || fail "$h's max_sectors_kb is $def_ms: no smaller value to set"
# Below the default: 6.12's commit keeps a raised read_ahead_kb anyway.
ra=32
[ "$def_ra" != "$ra" ] || ra=64
echo "$ms" > "$Q/max_sectors_kb" || fail "cannot set $h's max_sectors_kb to $ms"
echo "$ra" > "$Q/read_ahead_kb" || fail "cannot set $h's read_ahead_kb to $ra"
kept "setting them" "$ms" "$ra"
verified_io "setting them" 1
log "$h over $A: max_sectors_kb $def_ms -> $ms, read_ahead_kb $def_ra -> $ra"

# --- restacks ---
B=$(rblk_connect_port_ctrl "$NVMET_SVC2") || exit "$KSFT_FAIL"
pb=$(wait_until 10 rblk_path_of "$h" "$B") || fail "$B's path did not join $h: $(paths "$h")"
has_paths "$h" 2 || fail "$h has paths $(paths "$h" | tr '\n' ' ')after $B joined"
kept "$B joined" "$ms" "$ra"
verified_io "$B joined" 2

echo 1 > "/sys/class/rblk/$A/reset_controller" || fail "reset_controller refused"
# Out of live first, or the wait below could see the state before the
# reset.  (A reset restacks only if the controller's limits changed: this
# step guards the reconnect's path, not the restack.)
wait_until 10 sh -c "[ \"\$(cat /sys/class/rblk/$A/state)\" != live ]" ||
	log "$A seen live throughout its reset (too quick to see)"
rblk_wait_state "$pa" live 30 || fail "$A not live 30 s after its reset"
kept "a reset of $A" "$ms" "$ra"
verified_io "a reset of $A" 3

must nvmecfg disconnect "$A"
wait_until 10 sh -c "[ ! -e /sys/class/rblk/$A ]" || fail "$A still there"
[ "$(paths "$h")" = "$pb" ] || fail "$h has paths $(paths "$h" | tr '\n' ' ')after $A left"
kept "$A left" "$ms" "$ra"
verified_io "$A left" 4

A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
wait_until 10 rblk_path_of "$h" "$A" > /dev/null || fail "$A's path did not join $h again: $(paths "$h")"
kept "$A joined again" "$ms" "$ra"
verified_io "$A joined again" 5
log "kept as $B joined, across a reset of $A, as $A left and joined again"

# --- the defaults written back ---
echo "$def_ms" > "$Q/max_sectors_kb" || fail "cannot set $h's max_sectors_kb back to $def_ms"
echo "$def_ra" > "$Q/read_ahead_kb" || fail "cannot set $h's read_ahead_kb back to $def_ra"
must nvmecfg disconnect "$B"
wait_until 10 sh -c "[ ! -e /sys/class/rblk/$B ]" || fail "$B still there"
kept "the defaults written back and $B left" "$def_ms" "$def_ra"
verified_io "the defaults written back and $B left" 6
must nvmecfg disconnect "$A"
wait_for_path "/sys/block/$h" 10 ! || fail "$h still there after its last path left"
log "the defaults written back stayed the defaults as $B left"

# --- nvme-rdma's head, for reference ---
if nvme_native_mpath; then
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	n=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "nvme-rdma did not connect"
	NQ=/sys/block/${n##*/}/queue
	{ echo "$ms" > "$NQ/max_sectors_kb" && echo "$ra" > "$NQ/read_ahead_kb"; } ||
		fail "cannot set ${n##*/}'s max_sectors_kb and read_ahead_kb"
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$NVMET_SVC2" -n "$RBLK_NQN"
	# The head nvmeXnY's paths are nvmeXcZnY (no multipath/ directory
	# before 6.15).
	nh=${n##*/}
	npaths="/sys/block/${nh%n*}c*n${nh##*n}"
	wait_until 10 sh -c "[ \$(ls -d $npaths 2>/dev/null | wc -l) -eq 2 ]" ||
		fail "nvme-rdma's $nh has not two paths: $(ls -d $npaths 2>&1)"
	log "nvme-rdma (not asserted): ${n##*/} set to $ms, $ra; after a second path max_sectors_kb $(cat "$NQ/max_sectors_kb"), read_ahead_kb $(cat "$NQ/read_ahead_kb")"
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma
else
	log "nvme_core without native multipath: no reference"
fi
exit 0

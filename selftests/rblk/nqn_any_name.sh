#!/bin/sh
# Subsystem names are the target's business: rblk connects, as nvme-rdma
# does, to a subsystem named without the "nqn." prefix (blktests'
# blktests-subsystem-1) and to one whose name is the longest the Linux host
# takes (222 bytes).  Data written through rblk is what nvme-rdma reads on
# the same namespace and what the backing file holds, and the other way
# round.  One byte more (223, which nvmet can serve) both hosts refuse:
# nvmecfg as a usage error (exit 2), before any connection is made.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

SHORT=blktests-subsystem-1
LONG=$(printf 'x%.0s' $(seq 1 222))
MIB=16

cleanup() {
	nvme disconnect -n "$SHORT" >/dev/null 2>&1
	nvme disconnect -n "$LONG" >/dev/null 2>&1
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	nvmet_subsys_del "$SHORT"
	nvmet_subsys_del "$LONG"
	nvmet_subsys_del "${LONG}y"
	rm -f /tmp/nqn-short.img /tmp/nqn-long.img /tmp/nqn-*.pat /tmp/nqn-*.out
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload
}
trap cleanup EXIT

[ "${#LONG}" -eq 222 ] || fail "test NQN is ${#LONG} bytes"
must modprobe nvme-rdma
rblk_load

# cross_check NQN FILE: connect both hosts, write through each, compare.
cross_check() {
	_nqn=$1 _file=$2
	_out=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$_nqn" 2>&1) ||
		fail "rblk refused subsystem '$_nqn': $_out"
	_ctrl=$(echo "$_out" | head -n 1)
	_r=/dev/$(echo "$_out" | sed -n 2p)
	wait_for_path "$_r" 10 -b || fail "$_r did not appear for '$_nqn'"
	[ "$(cat "/sys/class/rblk/$_ctrl/subsysnqn")" = "$_nqn" ] ||
		fail "$_ctrl subsysnqn is '$(cat "/sys/class/rblk/$_ctrl/subsysnqn")'"
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$_nqn"
	_n=$(nvme_wait_ns_dev "$_nqn" 1) || fail "nvme-rdma shows no namespace of '$_nqn'"

	pattern_file /tmp/nqn-a.pat $((1024 * 1024))
	pattern_file /tmp/nqn-b.pat $((1024 * 1024))
	# rblk writes at 1 MiB, nvme-rdma at 5 MiB; each reads the other's.
	write_direct /tmp/nqn-a.pat "$_r" $((1024 * 1024))
	write_direct /tmp/nqn-b.pat "$_n" $((5 * 1024 * 1024))
	read_direct "$_n" $((1024 * 1024)) $((1024 * 1024)) /tmp/nqn-a.out
	assert_same /tmp/nqn-a.pat /tmp/nqn-a.out "rblk's write read by nvme-rdma ($_nqn)"
	read_direct "$_r" $((5 * 1024 * 1024)) $((1024 * 1024)) /tmp/nqn-b.out
	assert_same /tmp/nqn-b.pat /tmp/nqn-b.out "nvme-rdma's write read by rblk ($_nqn)"
	read_region "$_file" $((1024 * 1024)) $((1024 * 1024)) /tmp/nqn-a.out
	assert_same /tmp/nqn-a.pat /tmp/nqn-a.out "rblk's write in the backing file ($_nqn)"
	assert_on_target "$_r" "$_file" "$MIB" "whole namespace of '$_nqn'"
	log "'$(echo "$_nqn" | cut -c1-32)' (${#_nqn} bytes): $_r and $_n agree"
	must nvme disconnect -n "$_nqn"
	rblk_disconnect "$_r"
}

nvmet_subsys_add "$SHORT" /tmp/nqn-short.img "$MIB"
cross_check "$SHORT" /tmp/nqn-short.img

nvmet_subsys_add "$LONG" /tmp/nqn-long.img "$MIB"
cross_check "$LONG" /tmp/nqn-long.img

# 223 bytes: nvmet serves it, both hosts refuse it, nvmecfg as usage error.
nvmet_subsys_add "${LONG}y" /tmp/nqn-long.img "$MIB"
nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "${LONG}y" >/dev/null 2>&1 &&
	fail "nvme-rdma took a 223-byte NQN: the Linux host's rule changed, follow it"
rc=0
out=$(nvmecfg connect -a "$RBLK_TRADDR" -n "${LONG}y" 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "223-byte NQN: nvmecfg exit $rc, want 2 ($out)"
printf '%s\n' "$out" | grep -q "longer than 222" || fail "223-byte NQN: message '$out'"
# (the kernel's own check of the length is nlraw's, in nl_bad_input).
ls /sys/class/rblk/ | grep -q rblk-ctrl && fail "a refused connect left a controller"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

#!/bin/sh
# The target's discovery service, asked by nvme-cli, lists our subsystem.
# rblk-timeout: 120
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

trap 'modprobe -r nvme-rdma 2>/dev/null' EXIT

must modprobe nvme-rdma
out=$(nvme discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" 2>&1) ||
	{ printf '%s\n' "$out"; fail "nvme discover failed"; }
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q "subnqn: *$RBLK_NQN\$" ||
	fail "discovery log does not list $RBLK_NQN"
printf '%s\n' "$out" | grep -q "traddr: *$RBLK_TRADDR\$" ||
	fail "discovery log does not list traddr $RBLK_TRADDR"
exit 0

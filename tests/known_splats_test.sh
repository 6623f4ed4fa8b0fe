#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftests/known-splats.awk, the filter between a kernel log and the
# harness's splat check: the reports selftests/known-splats lists shrink to
# one "rblk-known-splat:" line, and everything else -- another lock pair or
# function, a report with a rblk frame or a KASAN line -- passes through
# whole, so that it still fails the run.  KTAP.
cd "$(dirname "$0")/.." || exit 1

T=$(mktemp -d /tmp/rblk-splats.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

filter() {
	awk -v known=selftests/known-splats -f selftests/known-splats.awk "$1"
}

# expect DESC FILE known|kept: the report in FILE is reduced to one known
# line, or kept whole (the "cut here" line and the trace included).
expect() {
	local out
	out=$(filter "$2")
	case $3 in
	known)
		if [ "$(printf '%s\n' "$out" | grep -c 'rblk-known-splat:')" -eq 1 ] &&
		   ! printf '%s\n' "$out" | grep -qE 'WARNING:|Call Trace|cut here'; then
			ok "$1"
		else
			not_ok "$1" "$out"
		fi ;;
	kept)
		if [ "$out" = "$(cat "$2")" ]; then
			ok "$1"
		else
			not_ok "$1" "$(diff "$2" <(printf '%s\n' "$out"))"
		fi ;;
	esac
}

# The nvme-rdma warning as Linux 6.1.192 logged it in make bench.
nvme_warn() {
	cat <<EOF
[ 2007.765593] nvme nvme0: starting error recovery
[ 2018.363697] ------------[ cut here ]------------
[ 2018.365110] WARNING: CPU: 1 PID: 21 at block/bio.c:744 bio_put+0x8f/0xe0
[ 2018.367207] Modules linked in: nvme_rdma nvme_fabrics nvme_core rblk(OE) nvmet_rdma
[ 2018.369392] RIP: 0010:bio_put+0x8f/0xe0
[ 2018.384466] Call Trace:
[ 2018.385316]  <TASK>
[ 2018.385816]  blk_update_request+0x110/0x410
[ 2018.387186]  ? nvme_rdma_unmap_data.isra.0+0x3e/0x80 [nvme_rdma]
[ 2018.389739]  blk_mq_end_request+0x18/0x30
[ 2018.390760]  $1+0x14c/0x290 [$2]
[ 2018.394576] nvme nvme0: Successfully reconnected (1 attempts)
[ 2018.391215]  __ib_process_cq+0x7b/0x180 [ib_core]
[ 2018.395928]  </TASK>
[ 2018.396180] ---[ end trace 0000000000000000 ]---
[ 2018.400000] after
EOF
}

# The nvmet-rdma lockdep report, shortened to what the filter reads.
lockdep() {
	cat <<EOF
[   50.000000] ======================================================
[   50.000001] WARNING: possible circular locking dependency detected
[   50.000002] 6.1.0 #1 Not tainted
[   50.000003] ------------------------------------------------------
[   50.000004] kworker/1:1/60 is trying to acquire lock:
[   50.000005] ffff888003a1c0d8 (&id_priv->handler_mutex){+.+.}-{3:3}, at: rdma_destroy_id+0x17/0x20 [rdma_cm]
[   50.000006] but task is already holding lock:
[   50.000007] ffffffffc0a0e0b0 ($1){++++}-{3:3}, at: nvmet_port_del+0x20/0x40 [nvmet]
$2[   50.000008] Call Trace:
[   50.000009]  <TASK>
[   50.000010]  </TASK>
[   50.000011] after
EOF
}

echo "KTAP version 1"
echo "1..7"

nvme_warn nvme_rdma_recv_done nvme_rdma > "$T/warn"
expect "nvme-rdma's bio_put warning is named, not counted" "$T/warn" known
if filter "$T/warn" | grep -q '^\[ 2007.765593\] nvme nvme0: starting' &&
   filter "$T/warn" | grep -q '^\[ 2018.400000\] after$'; then
	ok "the lines around it stay"
else
	not_ok "the lines around it stay" "$(filter "$T/warn")"
fi
nvme_warn rblk_complete_rq rblk > "$T/warn-rblk"
expect "the same warning with a rblk frame is kept whole" "$T/warn-rblk" kept
nvme_warn nvme_rdma_recv_done nvme_rdma | sed 's/bio_put+0x8f/bio_endio+0x8f/' > "$T/warn-other"
expect "a warning in another function is kept whole" "$T/warn-other" kept
nvme_warn nvme_rdma_recv_done nvme_rdma |
	sed 's/^\[ 2018.385316\]  <TASK>$/[ 2018.385316] BUG: KASAN: use-after-free in bio_put/' > "$T/warn-kasan"
expect "a listed warning with a KASAN line is kept whole" "$T/warn-kasan" kept
lockdep nvmet_config_sem "" > "$T/lockdep"
expect "nvmet-rdma's lock pair is named, not counted" "$T/lockdep" known
lockdep "&ctrl->lock" "" > "$T/lockdep-other"
expect "another lock pair is kept whole" "$T/lockdep-other" kept
exit $failed

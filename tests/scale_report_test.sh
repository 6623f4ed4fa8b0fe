#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/scale-report.py, the host side of make bench-scale, on a made-up
# guest log whose numbers are known: the medians, the kernel memory of the
# meminfo deltas, the ratios, the slopes per namespace (fit and steps), the
# memory per controller and per I/O queue; and its refusals of a failed or
# cut-off run.  KTAP.
cd "$(dirname "$0")/.." || exit 1

T=$(mktemp -d /tmp/rblk-scale.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

# mem HOST KIND X RUN PHASE KB: a SCALE-MEM line whose kernel memory is KB:
# -(MemFree + PcpFree + Buffers + Cached + AnonPages) with the page cache
# down 100 kB, 40 kB more on the per-CPU lists and a little user and buffer
# memory up, so that every term counts.
mem() {
	echo "# SCALE-MEM $1 $2 $3 $4 $5 MemFree=$((-$6 - 4 + 100 - 8 - 40)) PcpFree=40 MemAvailable=0" \
		"Buffers=4 Cached=-100 AnonPages=8 Shmem=0 Slab=$(($6 / 2)) SReclaimable=0" \
		"SUnreclaim=$(($6 / 2)) KernelStack=0 PageTables=0 VmallocUsed=0 Percpu=0"
}

# run HOST KIND X RUN CONNECT_MS DISCONNECT_MS QUEUES KB: one measured run.
run() {
	local devs=$3
	[ "$2" = q ] && devs=1
	echo "# SCALE-TIME $1 $2 $3 $4 $5 $6 $7 $devs $(($5 + 30)) $(($6 - 5))"
	mem "$1" "$2" "$3" "$4" connected "$8"
	mem "$1" "$2" "$3" "$4" after 12
	echo "# SCALE-SLAB $1 $2 $3 $4 kmalloc-1k $(($8 / 4)) $3"
}

# rblk: kernel kB 510, 660, 1188 at N 1, 16, 64 (steps of 10 and 11 kB
# per namespace); connect 100 + 3N ms, each count's two runs 10 ms either
# side; disconnect 50 + N ms.  nvme-rdma: 800 + 20N kB, 200 + 4N ms,
# 100 + 2N ms.
log() {
	local n r rk
	echo "KTAP version 1"
	echo "# SCALE-INFO kernel=test counts=1,16,64 rounds=1 nq=2 qsize=128"
	mem none null 0 1 connected 20
	mem none null 0 2 connected -36
	for n in 1 16 64; do
		case $n in 1) rk=510 ;; 16) rk=660 ;; 64) rk=1188 ;; esac
		run rblk ns $n 1 $((100 + 3 * n - 10)) $((50 + n)) 2 "$rk"
		run nvme ns $n 1 $((200 + 4 * n)) $((100 + 2 * n)) 2 $((800 + 20 * n - 6))
		run nvme ns $n 2 $((200 + 4 * n)) $((100 + 2 * n)) 2 $((800 + 20 * n + 6))
		run rblk ns $n 2 $((100 + 3 * n + 10)) $((50 + n)) 2 "$rk"
	done
	for r in 1 2; do
		run rblk q lo $r 100 50 1 1000
		run nvme q lo $r 100 50 1 1200
		run rblk q hi $r 100 50 6 1500
		run nvme q hi $r 100 50 6 2450
	done
	echo "# SCALE-DONE"
}

# near JQ_EXPR VALUE DESC: the report's JSON has VALUE (to 0.001) there.
near() {
	local got
	got=$(jq -r "$1" "$T/out/scale.json" 2>&1)
	if awk -v g="$got" -v w="$2" 'BEGIN { d = g - w; exit !(g != "" && g != "null" && d < 0.001 && d > -0.001) }'; then
		ok "$3"
	else
		not_ok "$3" "$1: got $got, want $2"
	fi
}

echo "KTAP version 1"
echo "1..21"

log > "$T/log"
if out=$(python3 scripts/scale-report.py "$T/log" "$T/out" 2>&1) &&
   [ -s "$T/out/scale.md" ] && [ -s "$T/out/scale.json" ]; then
	ok "a complete log gives scale.md and scale.json"
else
	not_ok "a complete log gives scale.md and scale.json" "$out"
fi
near '.rows | length' 3 "one row per namespace count"
near '.rows[1].rblk.connect_ms' 148 "connect time: the median of the runs"
near '.rows[1].connect_ratio' "$(awk 'BEGIN { print 148 / 264 }')" "connect ratio rblk/nvme"
near '.rows[2].disconnect_ratio' "$(awk 'BEGIN { print 114 / 228 }')" "disconnect ratio rblk/nvme"
near '.rows[1].nvme.disconnect_cmd_ms' 127 "disconnect time until the command returned"
near '.rows[0].rblk.kernel_kb' 510 "kernel kB from MemFree, PcpFree, Buffers, Cached, AnonPages"
near '.rows[2].nvme.kernel_kb' 2080 "kernel kB: the median of the runs"
near '.rows[1].kernel_kb_ratio' "$(awk 'BEGIN { print 660 / 1120 }')" "kernel kB ratio rblk/nvme"
near '.rows[0].rblk.retained_kb' 12 "kernel kB after the disconnect"
# Least squares through (1,510) (16,660) (64,1188): 23436 / 2166.
near '.growth.rblk.kernel_kb_per_ns' "$(awk 'BEGIN { print 23436 / 2166 }')" "kernel kB per namespace: the fitted slope"
near '.growth.rblk.steps[1].kernel_kb_per_ns' 11 "kernel kB per namespace: the slope of a step"
near '.growth.nvme.kernel_kb_per_ctrl' 800 "kernel kB per controller: the line at N = 0"
near '.growth.connect_ms_per_ns_ratio' 0.75 "connect ms per namespace, rblk/nvme"
near '.queues.rblk.kb_per_queue' 100 "kernel kB per I/O queue"
near '.queues.kb_per_queue_ratio' 0.4 "kB per queue, rblk/nvme"
near '.queues.rblk.Slab_kb_per_queue' 50 "slab kB per I/O queue"
near '.queues.nvme.other_kb_per_queue' 125 "the rest of the kB per I/O queue"
near '.noise_kb_max' 36 "the noise floor: the largest null delta"

{ log | grep -v SCALE-DONE; } > "$T/cut"
if python3 scripts/scale-report.py "$T/cut" "$T/out2" > /dev/null 2>&1; then
	not_ok "a log without SCALE-DONE is refused"
else
	ok "a log without SCALE-DONE is refused"
fi
{ log; echo "# SCALE-FAIL nvme connect: refused"; } > "$T/failed"
if python3 scripts/scale-report.py "$T/failed" "$T/out3" > /dev/null 2>&1; then
	not_ok "a log with SCALE-FAIL is refused"
else
	ok "a log with SCALE-FAIL is refused"
fi
exit $failed

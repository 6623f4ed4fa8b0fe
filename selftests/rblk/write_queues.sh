#!/bin/sh
# -W/--nr-write-queues, as nvme-cli's: nvmecfg connect -i 1 -W 1 gives one
# queue for writes (and everything but reads) and one for reads, laid out
# as nvme-rdma lays out the same options on the same target in this boot
# (blk-mq's hctx types in debugfs: default, then read).  Writes go out on
# the write queue and reads on the read queue (the rblk_setup_cmd
# tracepoint's qid), and the data written is read back and is in the
# target's backing file.  Without -W reads and writes share the queues.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

TR=/sys/kernel/tracing
EV=$TR/events/rblk/rblk_setup_cmd
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (one queue of each kind per CPU)"

cleanup() {
	[ -f "$EV/enable" ] && echo 0 > "$EV/enable"
	echo > "$TR/trace" 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	modprobe -r nvme-rdma 2>/dev/null
	[ -n "${old_qmax:-}" ] && echo "$old_qmax" > "$RBLK_NVMET_SUBSYS/attr_qid_max"
	rm -f /tmp/wq.pat /tmp/wq.out
}
trap cleanup EXIT

grep -q " $TR " /proc/mounts || mount -t tracefs nodev "$TR" || fail "cannot mount tracefs"
grep -q " /sys/kernel/debug " /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug || fail "cannot mount debugfs"
# types DISK: the hctx types of a disk, in hctx order, one line (of a
# multipath head: of its path, rblk_first_path).
types() {
	for _h in /sys/kernel/debug/block/"$1"/hctx*; do
		cat "$_h/type"
	done | tr '\n' ' '
}
# nvme_types /dev/nvmeXnY: the same for nvme-rdma's namespace.  With
# native multipath nvmeXnY is the head; its path disk (nvmeXcYnZ) has the
# hardware queues.
nvme_types() {
	_nd=${1#/dev/}
	for _d in /sys/kernel/debug/block/nvme*; do
		[ -d "$_d/hctx0" ] || continue
		case ${_d##*/} in "$_nd"|"${_nd%n*}"c*n"${_nd##*n}") _nd=${_d##*/}; break ;; esac
	done
	types "$_nd"
}

rblk_load
all=$(rblk_connect_all -i 1 -W 1) || { echo "$all"; exit "$KSFT_FAIL"; }
ctrl=$(echo "$all" | head -n 1)
dev=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_FILE") || fail "no device for nsid $RBLK_NSID_FILE"
[ "$(cat "/sys/class/rblk/$ctrl/nr_io_queues")" = 2 ] || fail "nr_io_queues $(cat "/sys/class/rblk/$ctrl/nr_io_queues"), want 2"
[ "$(cat "/sys/class/rblk/$ctrl/nr_write_queues")" = 1 ] || fail "nr_write_queues $(cat "/sys/class/rblk/$ctrl/nr_write_queues"), want 1"
ours=$(types "$(rblk_first_path "$dev")")
log "rblk -i 1 -W 1: hctx types: $ours"

must modprobe nvme-rdma
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" -i 1 -W 1
ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "nvme-rdma shows no device"
theirs=$(nvme_types "$ndev")
log "nvme-rdma -i 1 -W 1: hctx types: $theirs"
[ "$ours" = "$theirs" ] || fail "queue layout '$ours', nvme-rdma's '$theirs'"
case $ours in "default read "*) ;; *) fail "layout '$ours' is not default, read" ;; esac
must nvme disconnect -n "$RBLK_NQN"

# Which queue each goes out on.
echo > "$TR/trace"
echo "disk == \"${dev#/dev/}\"" > "$EV/filter"
echo 1 > "$EV/enable"
pattern_file /tmp/wq.pat $((256 * 1024))
write_direct /tmp/wq.pat "$dev" $((4 * 1024 * 1024))
read_direct "$dev" $((4 * 1024 * 1024)) $((256 * 1024)) /tmp/wq.out
echo 0 > "$EV/enable"
echo 0 > "$EV/filter"
assert_same /tmp/wq.pat /tmp/wq.out "read back through $dev"
read_region "$RBLK_BACKING" $((4 * 1024 * 1024)) $((256 * 1024)) /tmp/wq.out
assert_same /tmp/wq.pat /tmp/wq.out "on the target"
w1=$(grep -c 'rblk_setup_cmd:.* qid=1 .*opcode=0x1 ' "$TR/trace")
r2=$(grep -c 'rblk_setup_cmd:.* qid=2 .*opcode=0x2 ' "$TR/trace")
wx=$(grep -c 'rblk_setup_cmd:.* qid=2 .*opcode=0x1 ' "$TR/trace")
rx=$(grep -c 'rblk_setup_cmd:.* qid=1 .*opcode=0x2 ' "$TR/trace")
log "writes on the write queue $w1 (elsewhere $wx), reads on the read queue $r2 (elsewhere $rx)"
[ "$w1" -ge 1 ] && [ "$r2" -ge 1 ] || fail "no traced writes on qid 1 or reads on qid 2"
[ "$wx" -eq 0 ] && [ "$rx" -eq 0 ] || fail "writes or reads on the other kind of queue"
must nvmecfg disconnect "$ctrl"

# A target granting one queue: the -i queue first, as for nvme-rdma.
QMAX=$RBLK_NVMET_SUBSYS/attr_qid_max
old_qmax=$(cat "$QMAX")
echo 1 > "$QMAX" || fail "cannot cap the target's queues"
all=$(rblk_connect_all -i 1 -W 1) || { echo "$all"; exit "$KSFT_FAIL"; }
ctrl=$(echo "$all" | head -n 1)
dev=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_FILE") || fail "no device for nsid $RBLK_NSID_FILE"
capped=$(cat "/sys/class/rblk/$ctrl/nr_io_queues")/$(cat "/sys/class/rblk/$ctrl/nr_write_queues")
ours=$(types "$(rblk_first_path "$dev")")
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" -i 1 -W 1
ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "nvme-rdma shows no device"
theirs=$(nvme_types "$ndev")
must nvme disconnect -n "$RBLK_NQN"
must nvmecfg disconnect "$ctrl"
echo "$old_qmax" > "$QMAX"
log "one queue granted: rblk queues/write queues $capped, hctx '$ours', nvme-rdma '$theirs'"
[ "$capped" = 1/0 ] || fail "one queue granted: $capped, want 1 I/O queue and no write queue"
[ "$ours" = "$theirs" ] || fail "one queue granted: layout '$ours', nvme-rdma's '$theirs'"

# Without -W: shared (both maps on the same queues).
all=$(rblk_connect_all -i 2) || { echo "$all"; exit "$KSFT_FAIL"; }
ctrl=$(echo "$all" | head -n 1)
[ "$(cat "/sys/class/rblk/$ctrl/nr_write_queues")" = 0 ] || fail "nr_write_queues set without -W"
must nvmecfg disconnect "$ctrl"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

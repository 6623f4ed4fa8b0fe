#!/bin/sh
# A failed I/O is logged, as nvme-core's nvme_log_error() logs it: the
# device, the command by name and opcode, the namespace LBA and the number
# of logical blocks, the status by name with its type and code, More and
# DNR.  nvmet answers Internal Error with More (an error log entry) and DNR
# when the block device behind a namespace fails a bio (here a dm "error"
# table; 4 KiB logical blocks, so that an LBA is not a sector).  Checked:
#  - a failed read and a failed write end with EIO, each logged exactly
#    once (DNR: no retries) with the expected line;
#  - the failed write changed nothing on the target; once the device
#    heals, I/O works and reads what was there;
#  - nvme-rdma in the same boot logs the same opcode, LBA, blocks, status
#    type and code and DNR for the same failed read (its names are those
#    of Debian's kernel, built without CONFIG_NVME_VERBOSE_ERRORS).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NSID=9
cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	delay_ns_destroy
	rblk_unload
	rm -f /tmp/iel.pat /tmp/iel.got /tmp/iel.orig
}
trap cleanup EXIT

delay_ns_create "$NSID" 8 4096
rblk_load
dev=$(rblk_connect "$NSID") || exit 1
d=${dev##*/}
lbs=$(cat "/sys/block/$d/queue/logical_block_size")
[ "$lbs" -eq 4096 ] || fail "$d has $lbs-byte blocks, the namespace 4096"
pattern_file /tmp/iel.pat 4096
write_direct /tmp/iel.pat "$dev" 0

# Reads 4 KiB at 8 KiB, writes 4 KiB at 16 KiB: the log counts in LBAs.
lba_r=$((8192 / lbs)) lba_w=$((16384 / lbs)) nb=$((4096 / lbs))
st="Internal Error (sct 0x0 / sc 0x6) MORE DNR"
# Logged by the disk that sent it: a multipath head's path (rblkNcM), as
# nvme logs nvmeXcYnZ.
d=$(rblk_first_path "$dev") || fail "no path for $dev"
exp_r="rblk: $d: Read(0x2) @ LBA $lba_r, $nb blocks, $st"
exp_w="rblk: $d: Write(0x1) @ LBA $lba_w, $nb blocks, $st"

# newlog: the kernel log since the last mark (not cleared: the runner
# checks the whole test's log for splats).
mark() { n0=$(dmesg | wc -l); }
newlog() { dmesg | tail -n +$((n0 + 1)); }

delay_ns_error || fail "cannot make the namespace's device fail"
mark
out=$(dd if="$dev" of=/dev/null bs=4k count=1 skip=2 iflag=direct 2>&1) &&
	fail "a read succeeded on a failing device"
echo "$out" | grep -q "Input/output error" || fail "read: not EIO: $out"
out=$(dd if=/tmp/iel.pat of="$dev" bs=4k count=1 seek=4 oflag=direct conv=notrunc 2>&1) &&
	fail "a write succeeded on a failing device"
echo "$out" | grep -q "Input/output error" || fail "write: not EIO: $out"
klog=$(newlog)
n=$(printf '%s\n' "$klog" | grep -cF "$exp_r")
[ "$n" -eq 1 ] || fail "'$exp_r' logged $n times: $(printf '%s\n' "$klog" | grep "rblk: $d" | head -5)"
n=$(printf '%s\n' "$klog" | grep -cF "$exp_w")
[ "$n" -eq 1 ] || fail "'$exp_w' logged $n times: $(printf '%s\n' "$klog" | grep "rblk: $d" | head -5)"
[ "$(printf '%s\n' "$klog" | grep -c "rblk: $d: .* @ LBA ")" -eq 2 ] ||
	fail "more failed I/O logged than the two: $(printf '%s\n' "$klog" | grep "rblk: $d: " | head -5)"
log "failed read and write: EIO, logged once each ($exp_r)"

# Healed: what was written is there, the failed write left the target's
# 4 KiB as they were.
delay_ns_set 0 || fail "cannot heal the namespace's device"
read_direct "$dev" 0 4096 /tmp/iel.got
assert_same /tmp/iel.pat /tmp/iel.got "data written before the failures, through $d"
dd if=/tmp/delay-orig.img of=/tmp/iel.orig bs=4k count=1 skip=4 2>/dev/null
read_region /tmp/delay.img 16384 4096 /tmp/iel.got
assert_same /tmp/iel.orig /tmp/iel.got "the target's block the failed write aimed at"
log "healed: data intact, the failed write changed nothing on the target"

# The reference: nvme-rdma logs the same failed read.
if modprobe nvme-rdma 2>/dev/null; then
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$NSID") || fail "nvme-rdma did not connect"
	delay_ns_error || fail "cannot make the namespace's device fail"
	mark
	dd if="$ndev" of=/dev/null bs=4k count=1 skip=2 iflag=direct 2>/dev/null &&
		fail "nvme-rdma: a read succeeded on a failing device"
	nline=$(newlog | grep -E "nvme[0-9]+(c[0-9]+)?n[0-9]+: .*\(0x2\) @ LBA $lba_r, $nb blocks, .*\(sct 0x0 / sc 0x6\) MORE DNR" | head -n 1)
	[ -n "$nline" ] || fail "nvme-rdma logged no such line: $(newlog | grep nvme | tail -n 5)"
	delay_ns_set 0
	log "nvme-rdma logs it alike: ${nline#*] }"
fi

#!/bin/sh
# /sys/block/rblk0/rblk/ statistics count exactly the I/O that was done:
# reset_stats zeroes them; 100 O_DIRECT 4 KiB reads, 50 8 KiB writes, 4 KiB
# (in-capsule) writes, one flush and one discard each move their counters by
# exactly that much; the latency histogram sums to the completions; the block
# layer's own stat agrees; `nvmecfg stats -o json` reports the same numbers.
# (A synchronous O_DIRECT dd waits for each read before issuing the next, so
# the block layer has nothing to merge it with: one dd block, one request.)
# rblk-timeout: 240
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NVMECFG=${RBLK_NVMECFG:-nvmecfg}
DEV=
COUNTERS="reads writes flushes discards read_bytes write_bytes discard_bytes
	  inline_writes timeouts reconnects reconnect_attempts errors_generic
	  errors_cmd_specific errors_media errors_path errors_vendor"

command -v "$NVMECFG" >/dev/null 2>&1 || fail "nvmecfg is not in the guest"

cleanup() {
	[ -n "$DEV" ] && [ -e "$SYS" ] && "$NVMECFG" disconnect --force "$DEV" >/dev/null 2>&1
	[ -n "$DEV" ] && wait_for_path "$SYS" 15 !
	rmmod rblk 2>/dev/null
	rm -f /tmp/stats.json
}
trap cleanup EXIT

st() { cat "$ST/$1" || fail "cannot read $ST/$1"; }

# expect NAME VALUE: the file NAME reads VALUE.
expect() {
	_v=$(st "$1")
	[ "$_v" = "$2" ] || fail "$1 is $_v, expected $2"
}

# expect_all_zero: every counter and histogram bucket is 0.
expect_all_zero() {
	for _c in $COUNTERS; do
		expect "$_c" 0
	done
	for _b in $(st latency_hist); do
		[ "$_b" = 0 ] || fail "latency_hist not zero after reset: $(st latency_hist)"
	done
}

hist_sum() {
	_s=0
	for _b in $(st latency_hist); do _s=$((_s + _b)); done
	echo "$_s"
}

# The block layer's requests of the disk whose queue rblk counts: a
# multipath head's path (the head counts bios, before the path merges).
blk_reads() { awk '{ print $1 }' "$PSYS/stat"; }
blk_writes() { awk '{ print $5 }' "$PSYS/stat"; }

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -i 2) || { echo "$dev"; exit "$KSFT_FAIL"; }
DEV=${dev#/dev/}
SYS=/sys/block/$DEV
ST=$SYS/rblk
PSYS=/sys/block/$(rblk_first_path "$DEV")
expect state live
nq=$(rblk_attr "$dev" nr_io_queues)
lbs=$(cat "$SYS/queue/logical_block_size")
[ "$lbs" -le 4096 ] || skip "logical block size $lbs > 4096"

# The target's in-capsule data size: nvmet shows the value in effect once
# the port is enabled (4096 unless the harness changed it).
inline_max=$(cat "$RBLK_NVMET_PORT/param_inline_data_size" 2>/dev/null)
case $inline_max in ''|-*) inline_max=4096 ;; esac
log "$nq I/O queues, logical block $lbs, target inline data $inline_max bytes"

# --- reset ---
echo 1 > "$ST/reset_stats" || fail "writing 1 to reset_stats failed"
expect_all_zero
[ "$(st latency_hist | wc -w)" -eq 24 ] || fail "latency_hist has not 24 fields: $(st latency_hist)"
[ "$(rblk_attr "$dev" outstanding | wc -w)" -eq "$nq" ] || fail "outstanding has not $nq fields: $(rblk_attr "$dev" outstanding)"
for n in $(rblk_attr "$dev" outstanding); do
	[ "$n" = 0 ] || fail "idle device has outstanding requests: $(rblk_attr "$dev" outstanding)"
done

# --- 100 reads of 4 KiB ---
b0=$(blk_reads)
dd if="/dev/$DEV" of=/dev/null bs=4k count=100 iflag=direct 2>/dev/null ||
	fail "O_DIRECT read failed"
expect reads 100
expect read_bytes 409600
expect writes 0
b1=$(blk_reads)
[ $((b1 - b0)) -eq 100 ] || fail "/sys/block/$DEV/stat read ios moved by $((b1 - b0)), expected 100"
log "100 x 4 KiB reads: reads=100 read_bytes=409600, block layer +100"

# --- 50 writes of 8 KiB, 1 MiB into the device ---
w0=$(blk_writes)
dd if=/dev/zero of="/dev/$DEV" bs=8k count=50 seek=128 oflag=direct conv=notrunc 2>/dev/null ||
	fail "O_DIRECT 8 KiB writes failed"
expect writes 50
expect write_bytes 409600
exp_inline=0
[ 8192 -le "$inline_max" ] && exp_inline=50
expect inline_writes "$exp_inline"
w1=$(blk_writes)
[ $((w1 - w0)) -eq 50 ] || fail "/sys/block/$DEV/stat write ios moved by $((w1 - w0)), expected 50"
log "50 x 8 KiB writes: writes=50 write_bytes=409600 inline_writes=$exp_inline"

# --- 30 writes of 4 KiB: in-capsule when 4096 <= the target's inline size ---
dd if=/dev/zero of="/dev/$DEV" bs=4k count=30 seek=1024 oflag=direct conv=notrunc 2>/dev/null ||
	fail "O_DIRECT 4 KiB writes failed"
expect writes 80
expect write_bytes $((409600 + 30 * 4096))
[ 4096 -le "$inline_max" ] && exp_inline=$((exp_inline + 30))
expect inline_writes "$exp_inline"
log "30 x 4 KiB writes: writes=80 inline_writes=$exp_inline"

# --- one flush: fdatasync of the block device, if it has a volatile cache ---
sync -d "/dev/$DEV" || fail "fdatasync of /dev/$DEV failed"
exp_flush=0
[ "$(cat "$SYS/queue/write_cache")" = "write back" ] && exp_flush=1
expect flushes "$exp_flush"
log "fdatasync: flushes=$exp_flush ($(cat "$SYS/queue/write_cache"))"

# --- one discard of 1 MiB (busybox or util-linux blkdiscard) ---
exp_disc=0
if ! command -v blkdiscard >/dev/null 2>&1; then
	log "no blkdiscard in the guest: discard not tested"
elif [ "$(cat "$SYS/queue/discard_max_bytes")" = 0 ]; then
	log "device does not support discard: discard not tested"
else
	blkdiscard -o 2097152 -l 1048576 "/dev/$DEV" || fail "blkdiscard failed"
	exp_disc=1
	expect discards 1
	expect discard_bytes 1048576
	expect writes 80
	# A DSM range is not a write, whatever carries it to the target.
	expect inline_writes "$exp_inline"
	log "blkdiscard 1 MiB: discards=1 discard_bytes=1048576"
fi
# util-linux blkdiscard first probes the device for signatures (buffered
# reads through libblkid); busybox's does not.  Count what it read.
reads=$(st reads)
[ "$reads" -ge 100 ] || fail "reads went down to $reads"
[ $((reads - 100)) -eq $(($(blk_reads) - b1)) ] ||
	fail "reads moved by $((reads - 100)) since the dd, the block layer by $(($(blk_reads) - b1))"

# --- consistency ---
for c in timeouts reconnects reconnect_attempts errors_generic \
	 errors_cmd_specific errors_media errors_path errors_vendor; do
	expect "$c" 0
done
total=$((reads + 80 + exp_flush + exp_disc))
[ "$(hist_sum)" -eq "$total" ] ||
	fail "latency_hist sums to $(hist_sum), expected reads+writes+flushes+discards = $total"
log "latency_hist: $(st latency_hist)"

# --- nvmecfg stats reports the same numbers ---
"$NVMECFG" stats "$DEV" -o json > /tmp/stats.json || fail "nvmecfg stats -o json failed"
jq -e . /tmp/stats.json >/dev/null || fail "nvmecfg stats -o json is not JSON: $(cat /tmp/stats.json)"
json() { jq -r ".$1" /tmp/stats.json; }
[ "$(json name)" = "$DEV" ] || fail "nvmecfg stats name is $(json name)"
# A multipath head's are its paths' together: nr_paths, no controller.
if [ -d "$SYS/multipath" ]; then
	[ "$(json nr_paths)" = 1 ] || fail "nvmecfg stats nr_paths is $(json nr_paths), the head has one path"
else
	[ "$(json controller)" = "$(rblk_ctrl_of "$DEV")" ] || fail "nvmecfg stats controller is $(json controller)"
fi
for c in $COUNTERS errors; do
	[ "$(json "$c")" = "$(st "$c")" ] ||
		fail "nvmecfg stats $c is $(json "$c"), sysfs says $(st "$c")"
done
[ "$(json errors)" = 0 ] || fail "nvmecfg stats errors is $(json errors)"
[ "$(json reads)" = "$reads" ] || fail "nvmecfg stats reads is $(json reads), expected $reads"
jhist=$(jq -r '.latency_hist_us | map(tostring) | join(" ")' /tmp/stats.json)
[ "$jhist" = "$(st latency_hist)" ] ||
	fail "nvmecfg latency_hist_us [$jhist] differs from sysfs [$(st latency_hist)]"
log "nvmecfg stats -o json agrees with sysfs"

# --- reset semantics ---
echo 0 > "$ST/reset_stats" || fail "writing 0 to reset_stats failed"
expect reads "$reads"
if (echo bogus > "$ST/reset_stats") 2>/dev/null; then
	fail "writing 'bogus' to reset_stats succeeded"
fi
expect reads "$reads"
# Write-only: no show method, so even root cannot open it for reading.
cat "$ST/reset_stats" >/dev/null 2>&1 && fail "reset_stats is readable"

"$NVMECFG" stats "$DEV" --reset >/dev/null || fail "nvmecfg stats --reset failed"
expect_all_zero
# Counting starts again from the new baseline.
dd if="/dev/$DEV" of=/dev/null bs=4k count=7 iflag=direct 2>/dev/null ||
	fail "O_DIRECT read after reset failed"
expect reads 7
expect read_bytes 28672
[ "$(hist_sum)" -eq 7 ] || fail "latency_hist sums to $(hist_sum) after 7 reads"
echo y > "$ST/reset_stats" || fail "writing y to reset_stats failed"
expect_all_zero
log "reset_stats (1, y) and nvmecfg stats --reset zero everything; 0 does not; bogus is refused"

rblk_disconnect "$DEV"
exit 0

#!/bin/sh
# `make demo`: rblk end to end, as a person would try it.  Loads rblk, connects
# /dev/rblk0 to the file-backed namespace with nvmecfg, writes and reads data
# with O_DIRECT, shows the device, its attributes and statistics, disconnects.
# rblk-timeout: 300
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DEV=rblk0
SYS=/sys/block/$DEV
BYTES=$((4 * 1024 * 1024))
OFFSET=$((16 * 1024 * 1024))
NVMECFG=${RBLK_NVMECFG:-nvmecfg}

step() { echo; echo "### $*"; }
show() { echo "\$ $*"; "$@"; }

command -v "$NVMECFG" >/dev/null 2>&1 ||
	fail "nvmecfg is not in the guest (tools/nvmecfg not built: run 'make tools')"

cleanup() {
	[ -e "$SYS" ] && "$NVMECFG" disconnect "$DEV" >/dev/null 2>&1
	rm -f /tmp/demo.pat /tmp/demo.got /tmp/demo.bak
}
trap cleanup EXIT

step "load rblk"
rblk_load
show cat /sys/module/rblk/parameters/hostnqn 2>/dev/null

step "connect to $RBLK_NQN (namespace $RBLK_NSID_FILE, file-backed) at $RBLK_TRADDR:$RBLK_TRSVCID"
show "$NVMECFG" connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" \
	--nsid "$RBLK_NSID_FILE" || fail "nvmecfg connect failed"
wait_for_path /dev/$DEV 15 -b || fail "/dev/$DEV did not appear"

step "the block device"
sectors=$(cat "$SYS/size")
nq=0
for q in "$SYS"/mq/*; do [ -d "$q" ] && nq=$((nq + 1)); done
printf '%-7s %-8s %-12s %-5s %-5s %-3s %s\n' NAME MAJ:MIN SIZE LBS PBS RO HWQUEUES
printf '%-7s %-8s %-12s %-5s %-5s %-3s %s\n' "$DEV" "$(cat "$SYS/dev")" "$((sectors * 512))" \
	"$(cat "$SYS/queue/logical_block_size")" "$(cat "$SYS/queue/physical_block_size")" \
	"$(cat "$SYS/ro")" "$nq"
echo "($((sectors * 512 / 1048576)) MiB; max_sectors_kb $(cat "$SYS/queue/max_sectors_kb"), nr_requests $(cat "$SYS/queue/nr_requests"))"

step "write $BYTES bytes of random data at offset $OFFSET with O_DIRECT, read back, compare"
pattern_file /tmp/demo.pat "$BYTES"
show dd if=/tmp/demo.pat of=/dev/$DEV bs=1M seek=$((OFFSET / 1048576)) oflag=direct conv=notrunc ||
	fail "write failed"
show dd if=/dev/$DEV of=/tmp/demo.got bs=1M skip=$((OFFSET / 1048576)) count=$((BYTES / 1048576)) iflag=direct ||
	fail "read failed"
show cmp /tmp/demo.pat /tmp/demo.got || fail "data read back differs"
echo "read back: identical"
read_region "$RBLK_BACKING" "$OFFSET" "$BYTES" /tmp/demo.bak
show cmp /tmp/demo.pat /tmp/demo.bak || fail "target's backing file differs"
echo "target's backing file ($RBLK_BACKING): identical"

step "device attributes ($SYS/rblk/)"
for a in "$SYS"/rblk/*; do
	[ -f "$a" ] && printf '%-20s %s\n' "${a##*/}" "$(cat "$a" 2>/dev/null)"
done

step "statistics"
show "$NVMECFG" stats "$DEV" || fail "nvmecfg stats failed"

step "disconnect"
show "$NVMECFG" disconnect "$DEV" || fail "nvmecfg disconnect failed"
wait_for_path "$SYS" 15 ! || fail "$DEV still present after disconnect"
rblk_unload
echo "demo: done"
exit 0

#!/bin/sh
# `make demo`: rblk end to end, as a person would try it.  Loads rblk, connects
# one controller to the test subsystem with nvmecfg (a /dev/rblkN for each of
# its three namespaces, over the same queue pairs), writes and reads data with
# O_DIRECT on the file-backed one, shows the devices, the controller's and the
# namespace's attributes and statistics, disconnects.
# rblk-timeout: 300
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DEV=
SYS=/nonexistent
BYTES=$((4 * 1024 * 1024))
OFFSET=$((16 * 1024 * 1024))
NVMECFG=${RBLK_NVMECFG:-nvmecfg}

step() { echo; echo "### $*"; }
show() { echo "\$ $*"; "$@"; }

command -v "$NVMECFG" >/dev/null 2>&1 ||
	fail "nvmecfg is not in the guest (tools/nvmecfg not built: run 'make tools')"

cleanup() {
	[ -n "$DEV" ] && [ -e "$SYS" ] && "$NVMECFG" disconnect --force "$DEV" >/dev/null 2>&1
	rm -f /tmp/demo.pat /tmp/demo.got /tmp/demo.bak
}
trap cleanup EXIT

step "load rblk"
rblk_load
show cat /sys/module/rblk/parameters/hostnqn 2>/dev/null

step "connect to $RBLK_NQN at $RBLK_TRADDR:$RBLK_TRSVCID"
show "$NVMECFG" connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" ||
	fail "nvmecfg connect failed"
CTRL=$(ls /sys/class/rblk | head -n 1)
DEV=$(rblk_ns_dev "$CTRL" "$RBLK_NSID_FILE") || fail "no device for namespace $RBLK_NSID_FILE"
DEV=${DEV#/dev/}
SYS=/sys/block/$DEV
wait_for_path /dev/$DEV 15 -b || fail "/dev/$DEV did not appear"
show "$NVMECFG" list
echo "queue pairs: $(rdma resource show qp | grep -c 'type RC') RC QPs on the RDMA device (rblk's and the target's side)"

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

step "controller attributes (/sys/class/rblk/$CTRL/)"
for a in /sys/class/rblk/"$CTRL"/*; do
	# Not uevent, nor the write-only triggers (reset_*).
	[ -f "$a" ] && [ "${a##*/}" != uevent ] && [ "$(stat -c %a "$a")" != 200 ] &&
		printf '%-20s %s\n' "${a##*/}" "$(cat "$a" 2>/dev/null)"
done

step "namespace identifiers ($SYS/)"
for a in nsid wwid nguid uuid eui; do
	[ -f "$SYS/$a" ] && printf '%-20s %s\n' "$a" "$(cat "$SYS/$a")"
done

step "namespace statistics ($SYS/rblk/)"
for a in "$SYS"/rblk/*; do
	[ -f "$a" ] && [ "$(stat -c %a "$a")" != 200 ] && printf '%-20s %s\n' "${a##*/}" "$(cat "$a" 2>/dev/null)"
done

step "statistics"
show "$NVMECFG" stats "$DEV" || fail "nvmecfg stats failed"

step "disconnect (the controller and all its namespaces)"
show "$NVMECFG" disconnect "$CTRL" || fail "nvmecfg disconnect failed"
wait_for_path "$SYS" 15 ! || fail "$DEV still present after disconnect"
rblk_unload
echo "demo: done"
exit 0

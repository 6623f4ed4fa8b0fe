#!/bin/sh
# dm-multipath over two rblk controllers of one subsystem, reached through
# two nvmet ports (issue 28, finding 4).  dm-multipath sends its clones
# with REQ_FAILFAST_TRANSPORT: a path whose controller is reconnecting must
# fail them at once with a path error (as nvme's
# nvmf_fail_nonready_command() and nvme_decide_disposition() do), so that
# dm-multipath retries them on the other path; holding them for
# ctrl_loss_tmo (60 s here) blocks the writer instead.  Without
# queue_if_no_path, a write to the multipath device must complete, on the
# surviving path, within seconds:
#  1. path A's port is gone before the writes start (held requests);
#  2. path A's port goes away while the writes run (requests in flight
#     cancelled by recovery).
# Each round's data is read back through the multipath device and through
# each rblk device, and compared with the target's backing file.  I/O on
# the rblk device itself, without failfast, is still held and served once
# the port is back.
# rblk-lockdep: port-disable
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

MP=rblk-mp
PORT2=${RBLK_NVMET_PORT%/*}/2
TRSVCID2=$((RBLK_TRSVCID + 1))
export DM_DISABLE_UDEV=1
command -v dmsetup >/dev/null || skip "no dmsetup in the guest"
for m in dm-multipath dm-round-robin; do
	modprobe "$m" 2>/dev/null || skip "no $m in the guest kernel"
done

cleanup() {
	dmsetup remove "$MP" 2>/dev/null
	nvmet_relink
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_d" ] && timeout 60 nvmecfg disconnect "${_d##*/}" >/dev/null 2>&1
	done
	rm -f "$PORT2/subsystems/$RBLK_NQN" 2>/dev/null
	rmdir "$PORT2" 2>/dev/null
	rblk_unload
}
trap cleanup EXIT

mkdir "$PORT2" || fail "cannot create nvmet port 2"
if ! { echo rdma > "$PORT2/addr_trtype" && echo ipv4 > "$PORT2/addr_adrfam" &&
       echo "$RBLK_TRADDR" > "$PORT2/addr_traddr" &&
       echo "$TRSVCID2" > "$PORT2/addr_trsvcid" &&
       ln -s "$RBLK_NVMET_SUBSYS" "$PORT2/subsystems/$RBLK_NQN"; }; then
	fail "cannot set up nvmet port 2 on $RBLK_TRADDR:$TRSVCID2"
fi

rblk_load multipath=N
# Path A through port 1 (the one nvmet_unlink takes away), path B port 2.
devA=$(rblk_connect "$RBLK_NSID_FILE" -c 1 -l 60) || exit 1
out=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$TRSVCID2" -n "$RBLK_NQN" \
	-c 1 -l 60 2>&1) || fail "second path: nvmecfg connect failed: $out"
ctrlB=$(echo "$out" | head -n 1)
wait_until 10 rblk_ns_dev "$ctrlB" "$RBLK_NSID_FILE" > /dev/null ||
	fail "no device for namespace $RBLK_NSID_FILE on $ctrlB: $out"
devB=$(rblk_ns_dev "$ctrlB" "$RBLK_NSID_FILE")
# Without multipath the second controller says what it means, once.
ctrlA=$(rblk_ctrl_of "${devA##*/}")
dmesg | grep -q "$ctrlB: another controller of .*options rblk multipath=Y.* in /etc/modprobe.d" ||
	fail "no multipath=N note for the second controller $ctrlB: $(dmesg | grep "$ctrlB" | tail -n 5)"
echo "$out" | grep -q "nvmecfg: connect: $ctrlB is a second controller of $RBLK_NQN, and multipath is off" ||
	fail "nvmecfg connect did not say that multipath is off: $out"
echo "$out" | grep -q 'options rblk multipath=Y' ||
	fail "nvmecfg connect did not say how to turn multipath on: $out"
! dmesg | grep -q "$ctrlA: another controller of" ||
	fail "the first controller $ctrlA had the second-controller note"
[ "$devA" != "$devB" ] || fail "one device for two controllers: $devA"
mmA=$(cat "/sys/block/${devA##*/}/dev") mmB=$(cat "/sys/block/${devB##*/}/dev")
sz=$(cat "/sys/block/${devA##*/}/size")
# No queue_if_no_path: with both paths down a write would fail, not wait.
must dmsetup create "$MP" --table \
	"0 $sz multipath 0 0 1 1 round-robin 0 2 1 $mmA 1 $mmB 1" > /dev/null
wait_for_path "/dev/mapper/$MP" 5 -b || fail "/dev/mapper/$MP did not appear"
log "$MP over $devA ($mmA, port $RBLK_TRSVCID) and $devB ($mmB, port $TRSVCID2)"

# check ROUND OFFSET: the pattern at OFFSET through the multipath device,
# both rblk devices and on the target.
check() {
	read_direct "/dev/mapper/$MP" "$2" 4194304 /tmp/mp.back
	assert_same /tmp/p /tmp/mp.back "$1: through $MP"
	read_direct "$devA" "$2" 4194304 /tmp/mp.back
	assert_same /tmp/p /tmp/mp.back "$1: through $devA"
	read_direct "$devB" "$2" 4194304 /tmp/mp.back
	assert_same /tmp/p /tmp/mp.back "$1: through $devB"
	read_region "$RBLK_BACKING" "$2" 4194304 /tmp/mp.back
	assert_same /tmp/p /tmp/mp.back "$1: on the target"
}

# path_failed MM: dm-multipath marked the path failed ("F" in its status).
path_failed() {
	dmsetup status "$MP" | grep -q "$1 F"
}

# mp_write ROUND OFFSET: 4 MiB of the pattern through the multipath device,
# which must complete within 20 s (ctrl_loss_tmo is 60 s).
mp_write() {
	start=$(uptime_ms)
	timeout 20 dd if=/tmp/p of="/dev/mapper/$MP" bs=65536 \
		seek=$(($2 / 65536)) oflag=direct conv=notrunc 2>/tmp/dd.err ||
		fail "$1: write through $MP failed or blocked with a path down: $(cat /tmp/dd.err)"
	log "$1: 4 MiB through $MP in $(($(uptime_ms) - start)) ms"
}

back_up() {
	nvmet_relink
	rblk_wait_state "$devA" live 30 || fail "$1: path A did not reconnect"
	must dmsetup message "$MP" 0 reinstate_path "$mmA" > /dev/null
}

pattern_file /tmp/p 4194304

# 1: path A down before the writes.
nvmet_unlink
rblk_wait_state "$devA" connecting 10 || fail "1: path A is $(rblk_attr "$devA" state), expected connecting"
mp_write 1 0
path_failed "$mmA" || fail "1: dm-multipath did not fail path A: $(dmsetup status "$MP")"
path_failed "$mmB" && fail "1: path B failed: $(dmsetup status "$MP")"
# Without failfast, I/O on path A's own device waits for the port.
dd if=/tmp/p of="$devA" bs=65536 seek=$((16 * 1048576 / 65536)) count=16 \
	oflag=direct conv=notrunc 2>/tmp/dd.held &
held=$!
sleep 2
kill -0 "$held" 2>/dev/null || fail "1: a plain write on $devA did not wait for the reconnect: $(cat /tmp/dd.held)"
back_up 1
wait "$held" || fail "1: a plain write held on $devA failed: $(cat /tmp/dd.held)"
read_region "$RBLK_BACKING" $((16 * 1048576)) 1048576 /tmp/held.store
dd if=/tmp/p of=/tmp/held.exp bs=1048576 count=1 2>/dev/null
assert_same /tmp/held.exp /tmp/held.store "1: held plain write on the target"
check 1 0

# 2: path A goes while the writes run.
pattern_file /tmp/p 4194304
off=$((4 * 1048576))
timeout 20 dd if=/tmp/p of="/dev/mapper/$MP" bs=65536 seek=$((off / 65536)) \
	oflag=direct conv=notrunc 2>/tmp/dd.err &
writer=$!
usleep 200000
nvmet_unlink
wait "$writer" || fail "2: write through $MP failed or blocked as path A went: $(cat /tmp/dd.err)"
rblk_wait_state "$devA" connecting 10 || rblk_wait_state "$devA" resetting 1 ||
	fail "2: path A is $(rblk_attr "$devA" state), expected it reconnecting"
back_up 2
check 2 "$off"
log "errors on path A: $(rblk_attr "$devA" errors), on path B: $(rblk_attr "$devB" errors)"
[ "$(rblk_attr "$devB" errors)" -eq 0 ] || fail "I/O errors on path B"
must dmsetup remove "$MP"
exit 0

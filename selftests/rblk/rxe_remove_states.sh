#!/bin/sh
# The RDMA device goes away while the controller is (a) live under fio with
# verify (rmmod rdma_rxe), (b) reconnecting to a target port that is down,
# with a write held (rdma link delete), (c) in the middle of reconnects
# (rdma link delete at a random point of a reset, so that it often lands
# in the setup of the new association).  Each time the removal returns
# within 30 s, held I/O stays held (ctrl_loss_tmo is long), nothing hangs,
# and once the device and the target port are back the controller is live
# again and the data verifies; (d) a disconnect has freed all on the device
# but its PD when the removal starts.  Every time, rblk's ib_dealloc_pd()
# on the device comes before rblk's remove callback returns (kprobes).
# rblk keeps its controllers across a device removal
# (Documentation/design.rst); nvme-rdma deletes them.
# rblk-timeout: 400
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -k 2 -c 1 -l 300) || exit 1
reset_attr=/sys/class/rblk/$(rblk_ctrl_of "$dev")/reset_controller

# Whatever failed, the device comes back and the port listens on it.
restore_rxe() {
	modprobe "$RBLK_RDMA_MODULE" 2>/dev/null
	rdma link show "$RBLK_RDMA_DEV" >/dev/null 2>&1 ||
		rdma link add "$RBLK_RDMA_DEV" type "$RBLK_RDMA_TYPE" netdev "$RBLK_NETDEV"
	nvmet_reenable_port
}
# kprobes on rblk's PD frees and the return of its ib_client remove
# callback; without kprobe events, the order is not checked.
TR=/sys/kernel/tracing
KP="$TR/kprobe_events"
probes_off() {
	[ -n "$probes" ] || return 0
	probes=
	echo 0 > "$TR/events/kprobes/rblk_pd_free/enable"
	echo 0 > "$TR/events/kprobes/rblk_removed/enable"
	echo -:rblk_pd_free >> "$KP"
	echo -:rblk_removed >> "$KP"
	echo > "$TR/trace"
}
probes=
grep -q " $TR tracefs" /proc/mounts || mount -t tracefs tracefs "$TR" 2>/dev/null
# shellcheck disable=SC2016 # $stack0 is the kernel's to expand
if echo 'p:rblk_pd_free ib_dealloc_pd_user caller=$stack0:symbol' >> "$KP" 2>/dev/null &&
   echo 'r:rblk_removed rblk:rblk_ib_remove_one' >> "$KP" 2>/dev/null; then
	probes=1
	echo > "$TR/trace"
	echo 1 > "$TR/events/kprobes/rblk_pd_free/enable"
	echo 1 > "$TR/events/kprobes/rblk_removed/enable"
	echo 1 > "$TR/tracing_on"
else
	echo -:rblk_pd_free >> "$KP" 2>/dev/null
	log "no kprobe events: the order of PD free and removal is not checked"
fi

# pd_freed_first WHAT [pd]: since the last check, no ib_dealloc_pd() of
# rblk's came after its remove callback returned (finding 5: the RDMA core
# frees the device then); with "pd", one came before.
pd_freed_first() {
	[ -n "$probes" ] || return 0
	sleep 1		# a late free would come now
	awk -v need="$2" '
		/ rblk_removed: / { rm = NR }
		/ rblk_pd_free: .*caller=rblk_/ { pd = NR; n++ }
		END {
			if (!rm) { print "the remove callback never returned"; exit 1 }
			if (pd > rm) { print "a PD was freed after the remove callback returned"; exit 1 }
			if (need && !n) { print "no PD of rblk was freed"; exit 1 }
		}' "$TR/trace" > /tmp/pd.err ||
		fail "$1: $(cat /tmp/pd.err): $(grep -E 'rblk_(pd_free|removed):' "$TR/trace" | tail -n 5)"
	echo > "$TR/trace"
}
trap 'probes_off; restore_rxe' EXIT

# remove_dev rmmod|link: remove the RDMA device within 30 s; ms=its time.
# (In the background: a removal that hangs is in D state, unkillable.)
remove_dev() {
	_t0=$(uptime_ms)
	case $1 in
	rmmod)	rmmod "$RBLK_RDMA_MODULE" & ;;
	link)	rdma link delete "$RBLK_RDMA_DEV" & ;;
	esac
	_p=$! _n=0
	while kill -0 "$_p" 2>/dev/null; do
		_n=$((_n + 1))
		[ $_n -gt 300 ] && fail "$1: the removal did not return within 30 s"
		usleep 100000
	done
	wait "$_p" || fail "$1: the removal failed"
	ms=$(($(uptime_ms) - _t0))
	[ ! -e "/sys/class/infiniband/$RBLK_RDMA_DEV" ] || fail "$1: $RBLK_RDMA_DEV still there"
}

# device_back: the RDMA device is back, and the port listens on it
# (6.1's nvmet-rdma does not by itself: the target's admin re-enables it).
device_back() {
	modprobe "$RBLK_RDMA_MODULE" || fail "cannot load $RBLK_RDMA_MODULE"
	must rdma link add "$RBLK_RDMA_DEV" type "$RBLK_RDMA_TYPE" netdev "$RBLK_NETDEV"
	nvmet_reenable_port
	[ -e "$RBLK_NVMET_PORT/subsystems/$RBLK_NQN" ] || fail "the nvmet port is not linked"
}

not_hung() {
	_h=$(d_state_tasks)
	[ -z "$_h" ] || fail "$1: tasks in D state: $_h"
}

# --- (a) live, under fio with verify: rmmod rdma_rxe ---
fio --name=rm --filename="$dev" --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=16 --size=8M --loops=2 \
	--verify=crc32c --verify_fatal=1 --do_verify=1 > /tmp/fio.log 2>&1 &
pid=$!
ios() { awk '{ print $1 + $5 }' "/sys/block/${dev##*/}/stat"; }
base=$(ios) n=0
while [ "$(ios)" -lt $((base + 64)) ]; do
	n=$((n + 1))
	[ "$n" -gt 300 ] && fail "fio did no I/O within 30 s"
	usleep 100000
done
remove_dev rmmod
log "(a) live: $RBLK_RDMA_MODULE removed in ${ms} ms"
pd_freed_first "(a)" pd
sleep 1
kill -0 "$pid" 2>/dev/null || fail "(a) fio ended while the device was gone: $(cat /tmp/fio.log)"
st=$(rblk_attr "$dev" state)
[ "$st" = connecting ] || fail "(a) state $st without a device, expected connecting"
device_back
rblk_wait_state "$dev" live 60 || fail "(a) no reconnect within 60 s of the device's return"
wait "$pid"; rc=$?
[ $rc -eq 0 ] || fail "(a) fio failed ($rc) across the removal: $(grep -E 'err=|verify' /tmp/fio.log)"
grep -q 'err= 0' /tmp/fio.log || fail "(a) fio saw errors"
not_hung "(a)"

# --- (b) reconnecting, a write held: rdma link delete ---
nvmet_unlink
rblk_wait_state "$dev" connecting 10 || fail "(b) state $(rblk_attr "$dev" state), expected connecting"
pattern_file /tmp/held 65536
dd if=/tmp/held of="$dev" bs=4096 seek=1024 count=16 oflag=direct conv=notrunc \
	> /tmp/dd.log 2>&1 &
pid=$!
sleep 1
remove_dev link
log "(b) reconnecting: $RBLK_RDMA_DEV removed in ${ms} ms"
pd_freed_first "(b)"
sleep 2
kill -0 "$pid" 2>/dev/null || fail "(b) the held write ended without a device: $(cat /tmp/dd.log)"
st=$(rblk_attr "$dev" state)
[ "$st" = connecting ] || fail "(b) state $st, expected connecting"
device_back
rblk_wait_state "$dev" live 60 || fail "(b) no reconnect within 60 s of the device's return"
wait "$pid" || fail "(b) the held write failed: $(cat /tmp/dd.log)"
read_direct "$dev" 4194304 65536 /tmp/held.back
assert_same /tmp/held /tmp/held.back "(b) held write, read back"
read_region "$RBLK_BACKING" 4194304 65536 /tmp/held.store
assert_same /tmp/held /tmp/held.store "(b) held write, on the target"
not_hung "(b)"

# --- (c) removal during the setup of a reconnect ---
# reconnect_attempts counts when a reconnect starts its setup: remove the
# device a random 0-150 ms after that, while the new queues come up.
attempts=/sys/class/rblk/$(rblk_ctrl_of "$dev")/reconnect_attempts
i=0
while [ $i -lt 3 ]; do
	i=$((i + 1))
	read -r a0 < "$attempts"
	echo 1 > "$reset_attr" || fail "(c) reset_controller refused"
	n=0
	while read -r a < "$attempts" && [ "$a" -eq "$a0" ]; do
		n=$((n + 1))
		[ $n -gt 2000 ] && fail "(c) $i: no reconnect attempt within 10 s of a reset"
		usleep 5000
	done
	at=$(rand_below 151)
	usleep $((at * 1000))
	remove_dev link
	log "(c) $i: removed ${at} ms into a reconnect, in ${ms} ms, state $(rblk_attr "$dev" state)"
	pd_freed_first "(c) $i" pd
	device_back
	rblk_wait_state "$dev" live 60 || fail "(c) $i: no reconnect within 60 s of the device's return"
	pattern_file /tmp/c 65536
	write_direct /tmp/c "$dev" $((8388608 + i * 65536))
	read_direct "$dev" $((8388608 + i * 65536)) 65536 /tmp/c.back
	assert_same /tmp/c /tmp/c.back "(c) $i: I/O after the reconnect"
	not_hung "(c) $i"
done
assert_on_target "$dev" "$RBLK_BACKING" 16 "device and target after the removals"

# --- (d) a disconnect's last release racing the removal ---
# Remove the device once the disconnect has let go of all on it but its
# PD (the PD has no users left, or is gone), as close as a script gets
# to the release that frees the PD.
rblk_pd_busy() {
	rdma -j resource show pd 2>/dev/null |
		jq -e '[.[] | select((.comm // "") | test("rblk")) |
			select(.users > 0)] | length > 0' >/dev/null
}
nvmecfg disconnect --force "${dev##*/}" > /tmp/disc.log 2>&1 &
pid=$!
n=0
while rblk_pd_busy; do
	n=$((n + 1))
	[ $n -gt 1000 ] && fail "(d) rblk's PD still in use 10 s into a disconnect"
	usleep 10000
done
remove_dev link
log "(d) disconnecting: $RBLK_RDMA_DEV removed in ${ms} ms"
wait "$pid" || fail "(d) disconnect failed: $(cat /tmp/disc.log)"
wait_for_path "/sys/block/${dev##*/}" 10 ! || fail "(d) ${dev##*/} still there"
pd_freed_first "(d)" pd
not_hung "(d)"
device_back
probes_off
rblk_unload
exit 0

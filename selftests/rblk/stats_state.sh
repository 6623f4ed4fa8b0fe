#!/bin/sh
# /sys/block/rblk0/rblk/ reports the connection as asked for and follows the
# controller state machine:
#  - after connect (-i 1 -Q 64 -k 1 -c 1, not the defaults) state is "live"
#    and every parameter file shows what was asked (nvmecfg show agrees);
#  - unlinking the subsystem from the nvmet port makes the state leave "live"
#    within seconds and I/O is held; relinking brings it back to "live" with
#    reconnects == 1, and the held read completes;
#  - with ctrl_loss_tmo 2 a lost target makes the device "dead": I/O fails
#    at once with EIO and no more reconnects are attempted, even when the
#    target is back;
#  - after disconnect /sys/block/rblkN is gone.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NVMECFG=${RBLK_NVMECFG:-nvmecfg}
LINK=$RBLK_NVMET_PORT/subsystems/$RBLK_NQN
DEV=
ddpid=

command -v "$NVMECFG" >/dev/null 2>&1 || fail "nvmecfg is not in the guest"
[ -L "$LINK" ] || fail "nvmet port link $LINK missing before the test"

cleanup() {
	[ -n "$ddpid" ] && kill "$ddpid" 2>/dev/null
	[ -L "$LINK" ] || ln -s "$RBLK_NVMET_SUBSYS" "$LINK"
	[ -n "$DEV" ] && [ -e "$SYS" ] && "$NVMECFG" disconnect --force "$DEV" >/dev/null 2>&1
	[ -n "$DEV" ] && wait_for_path "$SYS" 30 !
	rmmod rblk 2>/dev/null
	rm -f /tmp/state.json /tmp/state.dd
}
trap cleanup EXIT

st() { rblk_attr "$DEV" "$1" || fail "cannot read attribute $1 of $DEV"; }

expect() {
	_v=$(st "$1")
	[ "$_v" = "$2" ] || fail "$1 is '$_v', expected '$2'"
}

# wait_state SECS STATE...: until the state is one of STATEs; 1 on timeout.
wait_state() {
	_n=$(($1 * 10)); shift
	while [ "$_n" -gt 0 ]; do
		_s=$(cat "$ST/state" 2>/dev/null)
		for _want in "$@"; do
			[ "$_s" = "$_want" ] && return 0
		done
		usleep 100000
		_n=$((_n - 1))
	done
	return 1
}

# wait_value SECS FILE MIN: until counter FILE is at least MIN.
wait_value() {
	_n=$(($1 * 10))
	while [ "$_n" -gt 0 ]; do
		[ "$(cat "$ST/$2" 2>/dev/null)" -ge "$3" ] 2>/dev/null && return 0
		usleep 100000
		_n=$((_n - 1))
	done
	return 1
}

# connect OPTIONS...: the file-backed namespace; sets DEV, SYS, ST.
connect() {
	_dev=$(rblk_connect "$RBLK_NSID_FILE" "$@") || { echo "$_dev"; exit "$KSFT_FAIL"; }
	DEV=${_dev#/dev/}
	SYS=/sys/block/$DEV
	ST=$SYS/rblk
}

disconnect() {
	rblk_disconnect "$DEV"
	[ -e "/dev/$DEV" ] && fail "/dev/$DEV still there after disconnect"
	DEV=
}

rblk_load

# --- 1. parameters as asked ---
connect -i 1 -Q 64 -k 1 -c 1
expect state live
expect transport rdma
expect traddr "$RBLK_TRADDR"
expect trsvcid "$RBLK_TRSVCID"
expect subsysnqn "$RBLK_NQN"
expect nsid "$RBLK_NSID_FILE"
expect nr_io_queues 1
expect queue_size 64
expect kato 1
expect reconnect_delay 1
expect ctrl_loss_tmo 600
expect fast_io_fail_tmo -1
# nvmecfg takes /etc/nvme/hostnqn (init writes it), as nvme-cli does.
expect hostnqn "$(cat /etc/nvme/hostnqn)"
expect hostid "$(cat /etc/nvme/hostid)"
st hostid | grep -qxE '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' ||
	fail "hostid '$(st hostid)' is not a lower-case UUID"
cntlid=$(st cntlid)
[ "$cntlid" -ge 1 ] 2>/dev/null || fail "cntlid '$cntlid' is not a controller id"
# Identify Controller strings, as nvmet fills them in.
expect model "$(cat "$RBLK_NVMET_SUBSYS/attr_model")"
expect serial "$(cat "$RBLK_NVMET_SUBSYS/attr_serial")"
expect firmware_rev "$(uname -r | cut -c1-8 | sed 's/ *$//')"
[ "$(st outstanding | wc -w)" -eq 1 ] || fail "outstanding '$(st outstanding)' has not 1 field"
# The blk-mq queues are the path's (a multipath head is bio-based).
MQ=/sys/block/$(rblk_first_path "$DEV")/mq
nhw=$(for q in "$MQ"/*; do [ -d "$q" ] && echo "$q"; done | wc -l)
[ "$nhw" -eq 1 ] || fail "$MQ has $nhw hardware queues, expected 1"
[ $(($(cat "$SYS/size") * 512)) -eq "$RBLK_BACKING_SIZE" ] ||
	fail "size $(($(cat "$SYS/size") * 512)) != backing file $RBLK_BACKING_SIZE"
expect reconnects 0
expect reconnect_attempts 0

"$NVMECFG" show "$DEV" -o json > /tmp/state.json || fail "nvmecfg show -o json failed"
json() { jq -r ".$1" /tmp/state.json; }
for a in state transport traddr trsvcid subsysnqn hostnqn hostid cntlid \
	 model serial nr_io_queues queue_size kato reconnect_delay \
	 ctrl_loss_tmo fast_io_fail_tmo; do
	[ "$(json "$a")" = "$(st "$a")" ] ||
		fail "nvmecfg show $a is '$(json "$a")', sysfs says '$(st "$a")'"
done
[ "$(json firmware)" = "$(st firmware_rev)" ] || fail "nvmecfg show firmware differs"
[ "$(jq -r --arg d "$DEV" '.namespaces[] | select(.name == $d) | .nsid' /tmp/state.json)" = "$(st nsid)" ] ||
	fail "nvmecfg show lists no namespace $DEV with nsid $(st nsid)"
log "connected: cntlid $cntlid, 1 I/O queue of 64, kato 1, reconnect_delay 1; nvmecfg show agrees"

# --- 2. target gone and back: resetting/connecting, then live again ---
nvmet_unlink
wait_state 10 resetting connecting ||
	fail "state still '$(st state)' 10 s after the subsystem left the port"
log "subsystem unlinked: state $(st state)"
wait_value 15 reconnect_attempts 1 || fail "no reconnect attempt within 15 s"
wait_state 5 connecting || fail "state '$(st state)' while the target is away, expected connecting"
expect reconnects 0

# I/O is held while reconnecting (fast_io_fail_tmo -1), not failed.
dd if="/dev/$DEV" of=/tmp/state.dd bs=4k count=1 iflag=direct 2>/dev/null &
ddpid=$!
sleep 2
kill -0 "$ddpid" 2>/dev/null || fail "a read ended while reconnecting (it should be held)"
attempts=$(st reconnect_attempts)
log "holding a read; $attempts reconnect attempts so far"

nvmet_relink
wait_state 30 live || fail "state '$(st state)' 30 s after relinking, expected live"
expect reconnects 1
[ "$(st reconnect_attempts)" -gt "$attempts" ] ||
	fail "reconnect_attempts $(st reconnect_attempts) did not grow past $attempts"
wait "$ddpid"
rc=$?
ddpid=
[ "$rc" -eq 0 ] || fail "the read held across the reconnect failed (dd exit $rc)"
[ "$(stat -c %s /tmp/state.dd)" -eq 4096 ] || fail "held read returned $(stat -c %s /tmp/state.dd) bytes"
dd if="/dev/$DEV" of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null ||
	fail "read after reconnect failed"
expect nr_io_queues 1
expect queue_size 64
for c in errors_generic errors_cmd_specific errors_media errors_path errors_vendor; do
	expect "$c" 0
done
log "relinked: live again, reconnects 1, reconnect_attempts $(st reconnect_attempts), held read completed"
disconnect
log "disconnected: $SYS and /dev/${SYS##*/} gone"

# --- 3. ctrl_loss_tmo expires: dead ---
connect -i 1 -k 1 -c 1 -l 2
expect ctrl_loss_tmo 2
nvmet_unlink
wait_state 30 dead || fail "state '$(st state)' 30 s after losing the target with ctrl_loss_tmo 2"
attempts=$(st reconnect_attempts)
[ "$attempts" -ge 1 ] || fail "dead without a reconnect attempt"
expect reconnects 0
log "target lost: dead after $attempts reconnect attempt(s)"
# Dead: I/O fails at once, with EIO.
if timeout 10 dd if="/dev/$DEV" of=/dev/null bs=4k count=1 iflag=direct 2>/tmp/state.dd; then
	fail "read from a dead device succeeded"
fi
grep -q "Input/output error" /tmp/state.dd || fail "read from a dead device: $(cat /tmp/state.dd)"
nvmet_relink
sleep 3
expect state dead
expect reconnect_attempts "$attempts"
log "dead stays dead with the target back; I/O fails with EIO"
disconnect
log "disconnected the dead device"
exit 0

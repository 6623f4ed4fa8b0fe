#!/bin/sh
# No rblk request holds generic netlink's cb_lock while it waits: a connect
# whose first namespace scan gets no answer (a namespace on dm-delay,
# 600 s) neither stalls a genl family registration (modprobe team) nor,
# behind it, other genl requests (nvmecfg list); nvmecfg connect still
# waits for the scan itself.  A disconnect returns once the controller is
# gone, and meanwhile genl requests and family (un)registration go on.
# Also: --wait-timeout ends a connect's wait and leaves no controller;
# -N with a namespace the target lacks fails and leaves no controller; a
# normal connect prints its devices, whose data reads back.
# rblk-timeout: 240
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

IO_TMO=3
NSID=9
GENL_MOD=team
restore() {
	delay_ns_destroy
	modprobe -r "$GENL_MOD" 2>/dev/null
}
trap restore EXIT

modprobe -n "$GENL_MOD" 2>/dev/null ||
	skip "no $GENL_MOD module (a genl family to register) in the guest"
modprobe -r "$GENL_MOD" 2>/dev/null
delay_ns_create $NSID 8
must delay_ns_set 600000
# multipath=N: the connect waits for the scan of a namespace's own disk
# (a head scans its partitions in a work).
rblk_load multipath=N io_timeout=$IO_TMO

no_ctrl() { ! ls -d /sys/class/rblk/rblk-ctrl* >/dev/null 2>&1; }

# genl_answers WHAT: a genl family (un)registration and an nvmecfg request
# both finish within 5 s.  (A task queued on cb_lock cannot be killed: it
# is left behind, and the trap's restore lets it through.)
genl_answers() {
	if [ -d "/sys/module/$GENL_MOD" ]; then
		modprobe -r "$GENL_MOD" &
	else
		modprobe "$GENL_MOD" &
	fi
	_mpid=$!
	usleep 200000
	_t0=$(uptime_ms)
	nvmecfg list > /tmp/list.log 2>&1 &
	_lpid=$!
	wait_until 5 exited "$_lpid" ||
		fail "$1: nvmecfg list did not answer within 5 s: $(cat "/proc/$_lpid/stack" 2>&1)"
	wait "$_lpid" || fail "$1: nvmecfg list failed: $(cat /tmp/list.log)"
	log "$1: nvmecfg list answered in $(($(uptime_ms) - _t0)) ms"
	wait_until 5 exited "$_mpid" ||
		fail "$1: (un)registering a genl family took over 5 s: $(cat "/proc/$_mpid/stack" 2>&1)"
	wait "$_mpid" || fail "$1: modprobe $GENL_MOD failed"
}

# --- a connect whose first scan is stuck ---
delay_ns_connect_bg
genl_answers "first scan pending"
grep -q "$ctrl" /tmp/list.log || fail "nvmecfg list lacks $ctrl: $(cat /tmp/list.log)"
running "$cpid" || fail "connect ended during its scan: $(cat /tmp/connect.log)"

# --- disconnect: prompt, and genl goes on during the teardown ---
t0=$(uptime_ms)
timeout 60 nvmecfg disconnect "$ctrl" > /tmp/disc.log 2>&1 &
dpid=$!
usleep 300000
genl_answers "teardown"
wait "$dpid" || fail "disconnect failed: $(cat /tmp/disc.log)"
ms=$(($(uptime_ms) - t0))
# The stuck partition read ends at its timeout, as nothing else can end it.
[ "$ms" -le $(((IO_TMO + 15) * 1000)) ] || fail "disconnect took ${ms} ms"
[ -e "/sys/class/rblk/$ctrl" ] && fail "$ctrl still there after the disconnect returned"
wait_until 10 exited "$cpid" || fail "connect still waiting after the disconnect"
wait "$cpid" && fail "the interrupted connect succeeded: $(cat /tmp/connect.log)"
grep -q "disconnected while connecting" /tmp/connect.log ||
	fail "connect error: $(cat /tmp/connect.log)"
log "disconnect took ${ms} ms; connect: $(cat /tmp/connect.log)"

# --- --wait-timeout ends the wait for a stuck scan, no controller left ---
t0=$(uptime_ms)
timeout 60 nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" --wait-timeout 2 > /tmp/connect.log 2>&1 &&
	fail "connect with a stuck scan and --wait-timeout 2 succeeded"
ms=$(($(uptime_ms) - t0))
grep -q "wait-timeout" /tmp/connect.log || fail "--wait-timeout: $(cat /tmp/connect.log)"
no_ctrl || fail "--wait-timeout left a controller: $(ls /sys/class/rblk)"
[ "$ms" -le $(((IO_TMO + 20) * 1000)) ] || fail "--wait-timeout 2 took ${ms} ms"
log "--wait-timeout 2: ${ms} ms, $(cat /tmp/connect.log)"

# --- a namespace the target lacks: the connect fails, nothing is left ---
must delay_ns_set 0
nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" -N 77 > /tmp/connect.log 2>&1 &&
	fail "connect -N 77 succeeded: $(cat /tmp/connect.log)"
grep -q "namespace not found" /tmp/connect.log || fail "-N 77: $(cat /tmp/connect.log)"
no_ctrl || fail "-N 77 left a controller: $(ls /sys/class/rblk)"

# --- a normal connect: devices printed, data reads back ---
dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1
ctrl=$(rblk_ctrl_of "$dev")
pattern_file /tmp/p 65536
write_direct /tmp/p "$dev" 1048576
read_region "$RBLK_BACKING" 1048576 65536 /tmp/p.store
assert_same /tmp/p /tmp/p.store "namespace $RBLK_NSID_FILE on the target"
read_direct "$dev" 1048576 65536 /tmp/p.back
assert_same /tmp/p /tmp/p.back "namespace $RBLK_NSID_FILE read back"
must nvmecfg disconnect "$ctrl"
[ -e "/sys/class/rblk/$ctrl" ] && fail "$ctrl still there after the disconnect returned"
[ -e "/sys/block/${dev##*/}" ] && fail "$dev still there after the disconnect returned"
exit 0

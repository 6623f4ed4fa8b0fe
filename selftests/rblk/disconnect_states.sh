#!/bin/sh
# Teardown from every state: disconnect while reconnecting with I/O held
# (the held I/O fails with EIO, the device goes, nothing hangs), disconnect
# of a dead controller, and rmmod with devices still connected.
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
trap 'nvmet_relink' EXIT

# --- while reconnecting, with a read held ---
dev=$(rblk_connect "$RBLK_NSID_FILE" -k 1 -c 1 -l 120) || exit 1
nvmet_unlink
rblk_wait_state "$dev" connecting 10 || fail "state $(rblk_attr "$dev" state), expected connecting"
dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>/tmp/dd.err &
ddpid=$!
sleep 2
kill -0 "$ddpid" 2>/dev/null || fail "read was not held while reconnecting"
timeout 60 nvmecfg disconnect --force "${dev##*/}" || fail "disconnect while reconnecting failed"
wait_for_path "/sys/block/${dev##*/}" 10 ! || fail "device still present"
wait "$ddpid" && fail "held read succeeded after disconnect"
grep -qE "Input/output error|I/O error" /tmp/dd.err || fail "held read: $(cat /tmp/dd.err)"
log "disconnect while reconnecting: held read failed with EIO, device gone"
nvmet_relink

# --- a dead controller ---
dev=$(rblk_connect "$RBLK_NSID_FILE" -k 1 -c 1 -l 2) || exit 1
nvmet_unlink
rblk_wait_state "$dev" dead 20 || fail "state $(rblk_attr "$dev" state), expected dead"
timeout 60 nvmecfg disconnect --force "${dev##*/}" || fail "disconnect of a dead controller failed"
wait_for_path "/sys/block/${dev##*/}" 10 ! || fail "dead device still present"
log "disconnect of a dead controller: ok"
nvmet_relink

# --- rmmod with two controllers and their namespaces connected ---
a=$(rblk_connect "$RBLK_NSID_NULL") || exit 1
out=$(rblk_connect_all -N "$RBLK_NSID_512" --duplicate-connect) || exit 1
b=$(echo "$out" | tail -n 1) cb=$(echo "$out" | head -n 1)
[ -b "$b" ] || fail "second controller has no device: $b"
[ "$a" != "$b" ] || fail "two connections got the same device"
# (With multipath the first controller is a path of b's head too.)
[ "$(rblk_ctrl_of "$a")" != "$cb" ] || fail "--duplicate-connect shared a controller"
timeout 60 rmmod rblk || fail "rmmod with devices connected failed"
wait_for_path /sys/module/rblk 10 ! || fail "module still loaded"
[ -e "/sys/block/${a##*/}" ] && fail "$a survived rmmod"
hung=$(d_state_tasks)
[ -z "$hung" ] || fail "tasks in D state: $hung"
exit 0

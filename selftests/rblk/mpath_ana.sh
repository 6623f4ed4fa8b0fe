#!/bin/sh
# ANA states of multipath paths (issue 27, step 8), rblk.multipath=Y, two
# controllers to one subsystem over two nvmet ports (ANA group 1 on each),
# next to nvme-rdma's native multipath connected the same way:
#  - each path shows its group and state in ana_grpid and ana_state (nvme's
#    names), following the target's changes within seconds (the ANA change
#    notice), as nvme-rdma's paths do;
#  - under a verifying writer: I/O stays off an inaccessible path, prefers
#    an optimized path to a non-optimized one, uses a non-optimized one
#    when it is the only usable one; no I/O error;
#  - both paths inaccessible: a write is held, and completes once one turns
#    optimized; both in persistent loss: I/O fails at once (rblk does not
#    wait for a final state);
#  - nvmecfg show gives each controller's namespace its path, group and
#    state, and monitor an ana-changed event for a change (netlink);
#  - what was written is on the target;
#  - disconnect naming the head is refused while it has two paths (naming
#    both; by the kernel with --force), and, with --force only, removes
#    the last path's controller.
# rblk-timeout: 600
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

P1=$RBLK_NVMET_PORT
P2=$NVMET_PORT2
SVC2=$NVMET_SVC2

pid=
mon=
cleanup() {
	for _p in $pid $mon; do kill "$_p" 2>/dev/null && wait "$_p"; done
	nvmet_ana_set "$P1" optimized 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/ma.fio /tmp/ma.dd /tmp/ma.pat /tmp/ma.got /tmp/ma.mon /tmp/ma.mon.err
}
trap cleanup EXIT

nvmet_port2_add
[ -f "$P2/ana_groups/1/ana_state" ] || skip "nvmet without ANA groups"

rblk_load multipath=1
rblk_two_paths
st() { cat "/sys/block/$1/ana_state"; }
io() { rblk_path_ios "$1"; }
[ "$(st "$pa")" = optimized ] && [ "$(st "$pb")" = optimized ] ||
	fail "initial states $pa $(st "$pa"), $pb $(st "$pb")"
[ "$(cat "/sys/block/$pa/ana_grpid")" = 1 ] || fail "$pa ana_grpid $(cat "/sys/block/$pa/ana_grpid")"
[ ! -e "/sys/block/$h/ana_state" ] || fail "the head $h has an ana_state"

# ctrl_paths_state CTRL STATE: every rblk path of controller CTRL is in STATE.
ctrl_paths_state() {
	for _p in /sys/class/rblk/"$1"/rblk*c*; do
		[ "$(cat "$_p/ana_state")" = "$2" ] || return 1
	done
}

# wait_state PATH STATE: within 5 s.
wait_state() {
	_n=50
	while [ "$(st "$1")" != "$2" ]; do
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || fail "$1 is $(st "$1"), expected $2 within 5 s"
		usleep 100000
	done
}
# uses PATH: I/O over PATH grows in 2 s; unused PATH: it does not.
uses() { _0=$(io "$1"); sleep 2; [ "$(io "$1")" -gt "$_0" ] || fail "$3: no I/O over $1 ($2)"; }
unused() { _0=$(io "$1"); sleep 2; [ "$(io "$1")" -eq "$_0" ] || fail "$3: I/O over $1 ($2)"; }

# Netlink: each controller's namespace is a path of $h, with its group
# and state (nvmecfg show); a change is an ana-changed event naming it.
# nspath CTRL FIELD: FIELD of namespace RBLK_NSID_FILE in show's JSON.
nspath() {
	nvmecfg show "$1" -o json |
		jq -r --argjson n "$RBLK_NSID_FILE" ".namespaces[] | select(.nsid == \$n) | .$2"
}
[ "$(nspath "$A" name)" = "$h" ] && [ "$(nspath "$A" path)" = "$pa" ] &&
	[ "$(nspath "$B" path)" = "$pb" ] || fail "show: $(nvmecfg show "$A" -o json)"
[ "$(nspath "$A" ana_state)" = optimized ] && [ "$(nspath "$A" ana_grpid)" = 1 ] ||
	fail "show $A: ana_state $(nspath "$A" ana_state), ana_grpid $(nspath "$A" ana_grpid)"
nvmecfg monitor -o json --timeout 20 > /tmp/ma.mon 2> /tmp/ma.mon.err &
mon=$!
sleep 1

fio --name=ana --filename="$dev" --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=16 --size=16M --time_based --runtime=30 \
	--verify=crc32c --verify_fatal=1 --verify_backlog=256 > /tmp/ma.fio 2>&1 &
pid=$!
sleep 1
uses "$pa" "first optimized path" "both optimized"
nvmet_ana_set "$P1" inaccessible
wait_state "$pa" inaccessible
[ "$(nspath "$A" ana_state)" = inaccessible ] || fail "show $A: ana_state $(nspath "$A" ana_state)"
sleep 1
kill "$mon" 2>/dev/null; wait "$mon"; mon=
jq -se --arg p "$pa" 'any(.[]; .event == "ana-changed" and .namespace.path == $p and
	.namespace.ana_state == "inaccessible")' /tmp/ma.mon > /dev/null ||
	fail "no ana-changed event for $pa: $(cat /tmp/ma.mon /tmp/ma.mon.err)"
log "nvmecfg show: $pa of $h, optimized then inaccessible; monitor: ana-changed"
unused "$pa" inaccessible "port 1 inaccessible"
uses "$pb" optimized "port 1 inaccessible"
nvmet_ana_set "$P1" non-optimized
wait_state "$pa" non-optimized
unused "$pa" non-optimized "port 1 non-optimized, port 2 optimized"
nvmet_ana_set "$P2" inaccessible
wait_state "$pb" inaccessible
uses "$pa" non-optimized "port 1 non-optimized, port 2 inaccessible"
nvmet_ana_set "$P1" optimized
nvmet_ana_set "$P2" optimized
wait_state "$pa" optimized
wait_state "$pb" optimized
running "$pid" || fail "the writer ended early: $(grep -E 'err=|error' /tmp/ma.fio | head -3)"
wait "$pid"; rc=$?
[ "$rc" -eq 0 ] && grep -q 'err= 0' /tmp/ma.fio ||
	fail "fio failed ($rc): $(grep -E 'err=|verify|error' /tmp/ma.fio | head -5)"
log "inaccessible avoided, optimized preferred, non-optimized used alone; fio: no error"

# Both inaccessible: held; port 2 optimized: done.
pattern_file /tmp/ma.pat 1048576
nvmet_ana_set "$P1" inaccessible
nvmet_ana_set "$P2" inaccessible
wait_state "$pa" inaccessible
wait_state "$pb" inaccessible
dd if=/tmp/ma.pat of="$dev" bs=64k seek=320 oflag=direct conv=notrunc > /tmp/ma.dd 2>&1 &
dpid=$!
sleep 3
running "$dpid" || fail "the write ended with both paths inaccessible: $(cat /tmp/ma.dd)"
nvmet_ana_set "$P2" optimized
wait_until 20 exited "$dpid" || fail "the held write did not complete once $pb was optimized"
wait "$dpid" || fail "the held write failed: $(cat /tmp/ma.dd)"
read_region "$RBLK_BACKING" 20971520 1048576 /tmp/ma.got
assert_same /tmp/ma.pat /tmp/ma.got "held while inaccessible, then written, on the target"
log "both inaccessible: the write was held 3 s and completed over $pb"

# nvme_ctrl_paths_state SVC STATE: nvme-rdma's paths through port SVC.
nvme_ctrl_paths_state() {
	for _c in /sys/class/nvme/nvme*; do
		grep -q "trsvcid=$1" "$_c/address" 2>/dev/null || continue
		_n=${_c##*/}
		for _p in /sys/block/"${_n%%[0-9]*}"*c"${_n#nvme}"n*; do
			[ -e "$_p" ] || return 1
			[ "$(cat "$_p/ana_state")" = "$2" ] || return 1
		done
		return 0
	done
	return 1
}
# The same states under nvme-rdma, side by side.
if nvme_two_paths; then
	wait_until 10 nvme_ctrl_paths_state "$RBLK_TRSVCID" inaccessible ||
		fail "nvme-rdma's paths on port 1 are not inaccessible"
	wait_until 10 nvme_ctrl_paths_state "$SVC2" optimized ||
		fail "nvme-rdma's paths on port 2 are not optimized"
	ctrl_paths_state "$A" inaccessible || fail "rblk's paths on $A are not all inaccessible"
	ctrl_paths_state "$B" optimized || fail "rblk's paths on $B are not all optimized"
	nvmet_ana_set "$P1" non-optimized
	wait_until 10 nvme_ctrl_paths_state "$RBLK_TRSVCID" non-optimized ||
		fail "nvme-rdma's paths on port 1 did not turn non-optimized"
	wait_until 10 ctrl_paths_state "$A" non-optimized || fail "rblk's paths on $A did not turn non-optimized"
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma
	log "nvme-rdma's paths show the same states"
else
	nvmet_ana_set "$P1" non-optimized
	wait_until 10 ctrl_paths_state "$A" non-optimized || fail "rblk's paths on $A did not turn non-optimized"
	log "nvme_core without native multipath: no reference"
fi

# Persistent loss on both: no waiting.
nvmet_ana_set "$P1" persistent-loss
nvmet_ana_set "$P2" persistent-loss
wait_state "$pa" persistent-loss
wait_state "$pb" persistent-loss
t0=$(uptime_ms)
out=$(dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>&1) &&
	fail "read succeeded with both paths in persistent loss"
ms=$(($(uptime_ms) - t0))
echo "$out" | grep -qE "Input/output error|I/O error" || fail "expected EIO, got: $out"
[ "$ms" -le 3000 ] || fail "persistent loss failed I/O after ${ms} ms"
nvmet_ana_set "$P1" optimized
nvmet_ana_set "$P2" optimized
wait_state "$pa" optimized
wait_until 10 sh -c "dd if=$dev of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null" ||
	fail "$dev did not serve again once optimized"
log "persistent loss on both: EIO after ${ms} ms; optimized again: served"

assert_on_target "$dev" "$RBLK_BACKING" 22 "what was written through $dev"
# The head's name stands for both paths: disconnect wants a controller,
# nvmecfg's refusal names both, and --force does not make the kernel
# guess either.
rc=0
out=$(nvmecfg disconnect "$h" 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "disconnect $h with two paths: exit $rc, want 2: $out"
echo "$out" | grep -qE "^nvmecfg: disconnect: $h is a namespace with several paths \(controllers\), ($A and $B|$B and $A); " ||
	fail "disconnect $h: $out"
out=$(nvmecfg disconnect --force "$h" 2>&1) && fail "disconnect --force $h with two paths succeeded"
echo "$out" | grep -q "several paths" || fail "disconnect --force $h: $out"
must nvmecfg disconnect "$A"
# One path left: the head's name names its controller.
[ "$(nvmecfg show "$h" -o json | jq -r .name)" = "$B" ] ||
	fail "show $h names $(nvmecfg show "$h" -o json | jq -r .name), expected $B"

out=$(nvmecfg disconnect "$h" 2>&1) && fail "disconnect $h without --force succeeded"
echo "$out" | grep -q "^nvmecfg: disconnect: $h is a namespace of $B; disconnect $B " ||
	fail "disconnect $h (one path): $out"
must nvmecfg disconnect --force "$h"
wait_until 20 sh -c "[ ! -e /sys/class/rblk/$B ]" || fail "disconnect $h did not remove $B"
log "disconnect $h: refused with two paths (--force too); with one, refused naming $B, and with --force removed $B"
exit 0

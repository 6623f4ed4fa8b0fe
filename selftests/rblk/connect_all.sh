#!/bin/sh
# nvmecfg connect-all reads the discovery log and connects every NVM
# subsystem it lists, as nvme connect-all does: targets from the command
# line, or from /etc/nvme/discovery.conf (nvme-cli's file: one line of
# discover arguments per discovery controller, # comments), which get the
# command line's options (-i, -P, -W).  Running it again connects nothing
# new and is no error.  disconnect -n NQN removes every controller of that
# subsystem and only those; disconnect-all the rest.  Data written through
# the devices is on the target.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

SECOND=blktests-subsystem-1
CONF=/etc/nvme/discovery.conf

cleanup() {
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	rm -f "$CONF"
	[ -f "$CONF.saved" ] && mv "$CONF.saved" "$CONF"
	nvmet_subsys_del "$SECOND"
	rm -f /tmp/ca.img /tmp/ca.pat /tmp/ca.out
	rblk_unload
}
trap cleanup EXIT

# ctrls_of NQN: how many rblk controllers serve subsystem NQN.
ctrls_of() {
	_c=0
	for _f in /sys/class/rblk/rblk-ctrl*/subsysnqn; do
		[ -f "$_f" ] && [ "$(cat "$_f")" = "$1" ] && _c=$((_c + 1))
	done
	echo "$_c"
}
nctrls() { ls -d /sys/class/rblk/rblk-ctrl* 2>/dev/null | wc -l; }
# check_data NQN NSID BACKING: write through that namespace, compare.
check_data() {
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ "$(cat "$_d/subsysnqn")" = "$1" ] || continue
		_r=$(rblk_ns_dev "${_d##*/}" "$2") || fail "$1 has no namespace $2"
		wait_for_path "$_r" 10 -b || fail "$_r did not appear"
		pattern_file /tmp/ca.pat $((1024 * 1024))
		write_direct /tmp/ca.pat "$_r" $((3 * 1024 * 1024))
		read_region "$3" $((3 * 1024 * 1024)) $((1024 * 1024)) /tmp/ca.out
		assert_same /tmp/ca.pat /tmp/ca.out "$1 nsid $2 via $_r"
		return 0
	done
	fail "no controller of $1"
}

nvmet_subsys_add "$SECOND" /tmp/ca.img 16
rblk_load

# --- targets on the command line ---
must nvmecfg connect-all -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID"
[ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] || fail "connect-all: $(ctrls_of "$RBLK_NQN") controllers of $RBLK_NQN"
[ "$(ctrls_of "$SECOND")" -eq 1 ] || fail "connect-all: $(ctrls_of "$SECOND") controllers of $SECOND"
[ "$(nctrls)" -eq 2 ] || fail "connect-all made $(nctrls) controllers, want 2 (no discovery one)"
check_data "$RBLK_NQN" "$RBLK_NSID_FILE" "$RBLK_BACKING"
check_data "$SECOND" 1 /tmp/ca.img
# Again: everything is connected already, which is not an error.
must nvmecfg connect-all -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID"
[ "$(nctrls)" -eq 2 ] || fail "a second connect-all made $(nctrls) controllers"
log "connect-all from the command line: 2 controllers, idempotent"

# --- disconnect -n: that subsystem's controllers only ---
must nvmecfg disconnect -n "$SECOND"
[ "$(ctrls_of "$SECOND")" -eq 0 ] || fail "disconnect -n left a controller of $SECOND"
[ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] || fail "disconnect -n $SECOND removed $RBLK_NQN's"
# Nothing left to do is no error, as with nvme disconnect -n.
out=$(nvmecfg disconnect -n "$SECOND" 2>&1) || fail "disconnect -n with nothing to do: $out"
printf '%s\n' "$out" | grep -q "disconnected 0 controller" ||
	fail "disconnect -n with nothing to do said '$out'"
must nvmecfg disconnect-all
[ "$(nctrls)" -eq 0 ] || fail "disconnect-all left $(nctrls) controllers"
must nvmecfg disconnect-all

# --- targets from /etc/nvme/discovery.conf ---
[ -f "$CONF" ] && mv "$CONF" "$CONF.saved"
mkdir -p /etc/nvme
cat > "$CONF" <<CONF
# rblk selftest: the in-guest target
   # an indented comment

--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$RBLK_TRSVCID
CONF
must nvmecfg connect-all
[ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] && [ "$(ctrls_of "$SECOND")" -eq 1 ] ||
	fail "connect-all from $CONF: $(nctrls) controllers"
check_data "$SECOND" 1 /tmp/ca.img
must nvmecfg disconnect-all
log "connect-all from $CONF"

# The command line's options reach the file's targets, values and all.
must nvmecfg connect-all -i 1 -P 1 -W 1
[ "$(nctrls)" -eq 2 ] || fail "connect-all -P -W from $CONF: $(nctrls) controllers"
for d in /sys/class/rblk/rblk-ctrl*; do
	q="$(cat "$d/nr_io_queues") $(cat "$d/nr_poll_queues") $(cat "$d/nr_write_queues")"
	[ "$q" = "3 1 1" ] ||
		fail "connect-all -i 1 -P 1 -W 1 from $CONF: ${d##*/} has io/poll/write queues $q, want 3 1 1"
done
must nvmecfg disconnect-all
log "connect-all -i 1 -P 1 -W 1 from $CONF: 3 I/O queues, 1 poll, 1 write"

# A line the tool cannot parse is an error naming the file and line.
printf '%s\n' "-t rdma --frob" > "$CONF"
rc=0
out=$(nvmecfg connect-all 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "bad $CONF line: exit $rc, want 2: $out"
printf '%s\n' "$out" | grep -q "discovery.conf" || fail "bad $CONF line: message does not name the file: $out"
[ "$(nctrls)" -eq 0 ] || fail "a bad $CONF connected something"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

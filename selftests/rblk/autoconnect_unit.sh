#!/bin/sh
# rblk-autoconnect.service's commands, as systemd runs them: the guest has
# no systemd, so its ExecStartPre=, ExecStart=, ExecReload= and ExecStop=
# lines are read from the unit file scripts/mkinitramfs.sh generated (as
# make install does) and run by hand, in order, against the guest's
# target, its RuntimeDirectory= made as systemd would:
#  - with the second subsystem connected by hand first, ExecStartPre loads
#    rblk; ExecStart connects the other subsystem of
#    /etc/rblk/discovery.conf (the unit's file) and skips the hand-made
#    one; the namespaces appear, and data written through them is in the
#    target's backing files;
#  - ExecStart again (the unit restarted) exits 0 and connects nothing new;
#  - ExecStop disconnects what ExecStart connected and leaves the
#    hand-made controller; again it is no error and still leaves it;
#  - a discovery controller that is not reachable yet fails ExecStart with
#    an exit status the unit retries (not in RestartPreventExitStatus=),
#    after connecting what is reachable; retries connect no duplicate, and
#    the first after the target appears connects it; ExecStop then
#    disconnects all 3 (every try recorded what it connected);
#  - ExecReload after an entry is added to the file connects that entry's
#    subsystems, exit 0, and ExecStop disconnects them too.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

UNIT=/usr/lib/systemd/system/rblk-autoconnect.service
CONF=/etc/rblk/discovery.conf
SECOND=nqn.2026-12.io.rblk:autoconnect

cleanup() {
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	rm -f "$CONF"
	[ -f "$CONF.saved" ] && mv "$CONF.saved" "$CONF"
	nvmet_subsys_del "$SECOND"
	nvmet_port2_del
	rm -f /tmp/au.img /tmp/au.pat /tmp/au.out /tmp/au.log
	rblk_unload
}
trap cleanup EXIT

[ -f "$UNIT" ] || fail "$UNIT not in the guest (scripts/mkinitramfs.sh should generate it)"
# systemd makes RuntimeDirectory= (/run/rblk, the record's) before a start.
RUNDIR=$(sed -n 's/^RuntimeDirectory=//p' "$UNIT")
[ -n "$RUNDIR" ] || fail "no RuntimeDirectory= in $UNIT"
mkdir -p "/run/$RUNDIR"

# run_unit KEY: run the unit's KEY= command lines in order, as systemd
# would (no shell: words split at blanks), stopping at the first failure;
# rc is its exit status, their output is in /tmp/au.log.
run_unit() {
	_cmds=$(sed -n "s/^$1=//p" "$UNIT")
	[ -n "$_cmds" ] || fail "no $1= in $UNIT"
	rc=0
	: > /tmp/au.log
	while IFS= read -r _c; do
		# What systemd would do differently from a plain run.
		case $_c in
		[-@:+!]*) fail "$1=$_c: a command prefix this test does not run as systemd does" ;;
		*%*|*\$*|*\"*|*\'*|*\\*) fail "$1=$_c: specifiers, variables or quoting this test does not expand" ;;
		esac
		set -f
		# shellcheck disable=SC2086 # the unit's words, unquoted as systemd splits them
		$_c < /dev/null >> /tmp/au.log 2>&1 || rc=$?
		set +f
		[ "$rc" -eq 0 ] || break
	done <<CMDS
$_cmds
CMDS
	sed "s/^/$1: /" /tmp/au.log
}

# The unit runs with this discovery.conf: one of its
# ConditionPathExists=| paths is there.
unit_would_run() {
	sed -n 's/^ConditionPathExists=|//p' "$UNIT" > /tmp/au.out
	while IFS= read -r _p; do
		[ -e "$_p" ] && return 0
	done < /tmp/au.out
	return 1
}

# ctrls_of NQN: how many rblk controllers serve subsystem NQN.
ctrls_of() {
	_n=0
	for _f in /sys/class/rblk/rblk-ctrl*/subsysnqn; do
		[ -f "$_f" ] && [ "$(cat "$_f")" = "$1" ] && _n=$((_n + 1))
	done
	echo "$_n"
}
# ctrls: the controllers' names; nctrls: how many.
ctrls() {
	_l=
	for _c in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_c" ] && _l="$_l ${_c##*/}"
	done
	echo "${_l# }"
}
# shellcheck disable=SC2046 # one word per controller
nctrls() { set -- $(ctrls); echo "$#"; }

# check_data NQN NSID BACKING: a pattern written through that namespace is
# in the target's backing file.
check_data() {
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ "$(cat "$_d/subsysnqn")" = "$1" ] || continue
		_r=$(rblk_ns_dev "${_d##*/}" "$2") || fail "$1 has no namespace $2"
		wait_for_path "$_r" 10 -b || fail "$_r did not appear"
		pattern_file /tmp/au.pat $((1024 * 1024))
		write_direct /tmp/au.pat "$_r" $((2 * 1024 * 1024))
		read_region "$3" $((2 * 1024 * 1024)) $((1024 * 1024)) /tmp/au.out
		assert_same /tmp/au.pat /tmp/au.out "$1 nsid $2 via $_r"
		return 0
	done
	fail "no controller of $1"
}

nvmet_subsys_add "$SECOND" /tmp/au.img 16
rblk_unload
[ -f "$CONF" ] && mv "$CONF" "$CONF.saved"
mkdir -p /etc/rblk
printf '%s\n' "--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$RBLK_TRSVCID" > "$CONF"
unit_would_run || fail "the unit's ConditionPathExists= do not hold with $CONF"

# --- start: both subsystems of the discovery log, one made by hand ---
run_unit ExecStartPre
[ "$rc" -eq 0 ] || fail "ExecStartPre exited $rc"
rblk_loaded || fail "ExecStartPre did not load rblk"
nvmecfg connect -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$SECOND" > /tmp/au.out 2>&1 ||
	fail "connecting $SECOND by hand: $(cat /tmp/au.out)"
hand=$(ctrls)
[ "$(ctrls_of "$SECOND")" -eq 1 ] || fail "by hand: controllers $hand, want one of $SECOND"
run_unit ExecStart
[ "$rc" -eq 0 ] || fail "ExecStart exited $rc"
{ [ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] && [ "$(ctrls_of "$SECOND")" -eq 1 ] &&
	[ "$(nctrls)" -eq 2 ]; } || fail "ExecStart: controllers $(ctrls), want one of $RBLK_NQN and $SECOND"
# Every namespace of both controllers has its device.
for c in /sys/class/rblk/rblk-ctrl*; do
	set -- "$c"/rblk[0-9]*
	[ -e "$1" ] || fail "ExecStart: ${c##*/} has no namespace"
	for ns; do
		ns=${ns##*/}
		wait_for_path "/dev/${ns%c*}" 10 -b || fail "ExecStart: /dev/${ns%c*} did not appear"
	done
done
check_data "$RBLK_NQN" "$RBLK_NSID_FILE" "$RBLK_BACKING"
check_data "$SECOND" 1 /tmp/au.img
before=$(ctrls)
log "ExecStartPre and ExecStart: rblk loaded, $before connected, data on the target"

# --- started again: nothing new, no error ---
run_unit ExecStartPre
[ "$rc" -eq 0 ] || fail "ExecStartPre again exited $rc"
run_unit ExecStart
[ "$rc" -eq 0 ] || fail "ExecStart again (all connected) exited $rc"
[ "$(ctrls)" = "$before" ] || fail "ExecStart again: controllers $(ctrls), were $before"
log "ExecStart again: exit 0, the same controllers"

# --- stop: what ExecStart connected gone, the hand-made one kept ---
run_unit ExecStop
[ "$rc" -eq 0 ] || fail "ExecStop exited $rc"
[ "$(ctrls)" = "$hand" ] || fail "ExecStop left $(ctrls), want only $hand (made by hand)"
run_unit ExecStop
[ "$rc" -eq 0 ] || fail "ExecStop again exited $rc"
[ "$(ctrls)" = "$hand" ] || fail "ExecStop again left $(ctrls), want only $hand (made by hand)"
log "ExecStop: $RBLK_NQN disconnected, $hand (made by hand) kept; again: exit 0, $hand kept"
nvmecfg disconnect "$hand" > /dev/null || fail "disconnecting $hand by hand"
[ "$(nctrls)" -eq 0 ] || fail "left after disconnecting $hand: $(ctrls)"
for b in /sys/block/rblk*; do
	[ -e "$b" ] && fail "left ${b##*/}"
done

# --- a target not reachable yet: a failure the unit retries ---
printf '%s\n' "--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$NVMET_SVC2" >> "$CONF"
prevent=$(sed -n 's/^RestartPreventExitStatus=//p' "$UNIT")
for try in 1 2; do
	run_unit ExecStart
	[ "$rc" -ne 0 ] || fail "ExecStart with port $NVMET_SVC2 unreachable (try $try) exited 0"
	for s in $prevent; do
		[ "$rc" -ne "$s" ] || fail "ExecStart with port $NVMET_SVC2 unreachable (try $try) exited $rc, which the unit does not retry"
	done
	[ "$(nctrls)" -eq 2 ] ||
		fail "ExecStart with port $NVMET_SVC2 unreachable (try $try): controllers $(ctrls), want the 2 of port $RBLK_TRSVCID"
done
log "port $NVMET_SVC2 unreachable: ExecStart exits $rc (retried), connects port $RBLK_TRSVCID's, no duplicates"
nvmet_port2_add
run_unit ExecStart
[ "$rc" -eq 0 ] || fail "ExecStart once port $NVMET_SVC2 is there exited $rc"
{ [ "$(ctrls_of "$RBLK_NQN")" -eq 2 ] && [ "$(nctrls)" -eq 3 ]; } ||
	fail "ExecStart once port $NVMET_SVC2 is there: controllers $(ctrls), want $RBLK_NQN on both ports and $SECOND"
run_unit ExecStart
{ [ "$rc" -eq 0 ] && [ "$(nctrls)" -eq 3 ]; } || fail "ExecStart again: exit $rc, controllers $(ctrls)"
run_unit ExecStop
{ [ "$rc" -eq 0 ] && [ "$(nctrls)" -eq 0 ]; } || fail "ExecStop: exit $rc, left $(ctrls)"
log "port $NVMET_SVC2 up: the retry connects it; ExecStop disconnects all 3"

# --- reload: an entry added to the file is connected, and recorded ---
printf '%s\n' "--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$RBLK_TRSVCID" > "$CONF"
run_unit ExecStart
{ [ "$rc" -eq 0 ] && [ "$(nctrls)" -eq 2 ]; } || fail "ExecStart of port $RBLK_TRSVCID only: exit $rc, controllers $(ctrls)"
printf '%s\n' "--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$NVMET_SVC2" >> "$CONF"
run_unit ExecReload
[ "$rc" -eq 0 ] || fail "ExecReload with port $NVMET_SVC2 added exited $rc"
{ [ "$(ctrls_of "$RBLK_NQN")" -eq 2 ] && [ "$(nctrls)" -eq 3 ]; } ||
	fail "ExecReload with port $NVMET_SVC2 added: controllers $(ctrls), want $RBLK_NQN on both ports and $SECOND"
run_unit ExecStop
{ [ "$rc" -eq 0 ] && [ "$(nctrls)" -eq 0 ]; } || fail "ExecStop after ExecReload: exit $rc, left $(ctrls)"
log "ExecReload: port $NVMET_SVC2's entry connected; ExecStop disconnects it too"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

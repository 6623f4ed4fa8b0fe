#!/bin/sh
# The ANA log page (issue 27, multipath step 2: read and logged, no
# behaviour change yet), against nvmet's port ANA group 1 and the kernel's
# nvme-rdma host connected to the same port in the same boot:
#  - at connect rblk reads the log: group 1 optimized, listing every
#    namespace of the subsystem (as the target's configfs has them);
#  - each change of the group's state on the target raises one ANA Change
#    Notice, after which rblk reads the log once (one "ANA log" line) with
#    the new state and a higher change count, within 10 s, and nvme-rdma's
#    path shows the same state; data written in each accessible state is
#    on the target;
#  - a reset reads the log again;
#  - a disconnect, and rmmod with a controller connected, while the state flips continuously: no hang
#    (bounded by timeouts), no splat; kmemleak in the debug runs.
# The log lines are rblk's debug messages: kernels with dynamic debug
# (Debian's); a skip elsewhere.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

DDC=/sys/kernel/debug/dynamic_debug/control
ANA=$RBLK_NVMET_PORT/ana_groups/1/ana_state
flipper=

cleanup() {
	[ -n "$flipper" ] && kill "$flipper" 2>/dev/null && wait "$flipper"
	echo optimized > "$ANA" 2>/dev/null
	[ -w "$DDC" ] && echo 'module rblk -p' > "$DDC" 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rm -f /tmp/ana.pat /tmp/ana.got /tmp/ana.dmesg
}
trap cleanup EXIT

[ -w "$DDC" ] || skip "kernel without dynamic debug (the log lines are rblk's debug messages)"
[ -w "$ANA" ] || skip "nvmet without ANA groups on its port"
echo optimized > "$ANA" || fail "cannot set $ANA"

rblk_load
echo 'module rblk +p' > "$DDC" || fail "cannot enable rblk's debug messages"
dmesg -c >> /var/log/dmesg.all
dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"

# What the target lists in group 1: every enabled namespace of the
# subsystem (nvmet puts them all in group 1 unless told otherwise).
nr_ns=0
for n in "$RBLK_NVMET_SUBSYS"/namespaces/*; do
	[ "$(cat "$n/enable")" = 1 ] || continue
	[ "$(cat "$n/ana_grpid" 2>/dev/null || echo 1)" = 1 ] && nr_ns=$((nr_ns + 1))
done

# group_line STATE: the dmesg lines since the last dmesg -c that show
# group 1 in STATE on this controller.
group_line() {
	dmesg > /tmp/ana.dmesg
	grep "$ctrl: ANA group 1: $1, " /tmp/ana.dmesg
}
log_reads() { dmesg | grep -c "$ctrl: ANA log: change count"; }
chgcnt() { dmesg | grep "$ctrl: ANA log: change count" | tail -n 1 |
	   sed 's/.*change count \([0-9]*\),.*/\1/'; }

l=$(group_line optimized) || fail "no ANA log read at connect: $(grep "$ctrl" /tmp/ana.dmesg)"
echo "$l" | grep -q ", $nr_ns namespaces," ||
	fail "group 1 at connect: '$l', the target lists $nr_ns namespaces"
[ "$(log_reads)" -eq 1 ] || fail "$(log_reads) ANA log reads at connect, expected 1"
cnt=$(chgcnt)
log "connect: group 1 optimized, $nr_ns namespaces, change count $cnt"

must modprobe nvme-rdma
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE" >/dev/null ||
	fail "nvme-rdma did not connect"
npath=
for c in /sys/class/nvme/nvme*; do
	[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$RBLK_NQN" ] || continue
	[ "$(cat "$c/transport")" = rdma ] || continue
	for p in "$c"/nvme*c*n*/ana_state; do
		[ -f "$p" ] && { npath=$p; break; }
	done
done
# The reference needs nvme-core's native multipath (Debian's default).
if [ -z "$npath" ]; then
	[ "$(cat /sys/module/nvme_core/parameters/multipath 2>/dev/null)" = N ] ||
		fail "no ANA state on nvme-rdma's paths"
	log "nvme_core.multipath=N: no nvme-rdma reference"
fi
nvme_state_is() { [ -z "$npath" ] || [ "$(cat "$npath")" = "$1" ]; }

pattern_file /tmp/ana.pat 1048576
off=0
for st in non-optimized inaccessible change persistent-loss optimized; do
	dmesg -c >> /var/log/dmesg.all
	echo "$st" > "$ANA" || fail "cannot set group 1 to $st"
	wait_until 10 group_line "$st" > /dev/null ||
		fail "rblk did not read group 1 as $st within 10 s: $(grep "$ctrl" /tmp/ana.dmesg)"
	wait_until 10 nvme_state_is "$st" ||
		fail "nvme-rdma's path shows $(cat "$npath"), expected $st"
	# Every notice is read once: a second read would mean the notice
	# was not re-armed by the first, or came twice.
	sleep 3
	[ "$(log_reads)" -eq 1 ] || fail "$(log_reads) ANA log reads after one change to $st"
	new=$(chgcnt)
	[ "$new" -gt "$cnt" ] || fail "change count $new after $st, was $cnt"
	cnt=$new
	case $st in
	optimized|non-optimized)
		off=$((off + 1048576))
		write_direct /tmp/ana.pat "$dev" "$off"
		read_region "$RBLK_BACKING" "$off" 1048576 /tmp/ana.got
		assert_same /tmp/ana.pat /tmp/ana.got "write while $st, on the target"
		;;
	esac
	log "$st: read once, change count $cnt; nvme-rdma agrees"
done

# A reset reads the log again on the new association.
dmesg -c >> /var/log/dmesg.all
echo 1 > "/sys/class/rblk/$ctrl/reset_controller" || fail "reset_controller refused"
wait_until 30 group_line optimized > /dev/null ||
	fail "no ANA log read after the reset: $(grep "$ctrl" /tmp/ana.dmesg)"
rblk_wait_state "$dev" live 30 || fail "not live after the reset"
log "reset: log read again, change count $(chgcnt)"

# Teardown while notices keep coming.
flip() {
	while :; do
		echo inaccessible > "$ANA"
		echo optimized > "$ANA"
	done
}
flip &
flipper=$!
sleep 3
timeout 60 nvmecfg disconnect "$ctrl" > /dev/null ||
	fail "disconnect failed or hung while the ANA state flipped"
wait_for_path "/sys/block/${dev##*/}" 10 ! || fail "${dev##*/} still present after disconnect"
# The controller's own teardown (shutdown, the ANA work) comes after the disk.
wait_for_path "/sys/class/rblk/$ctrl" 30 ! || fail "$ctrl still present 30 s after its disk went"
dev=$(rblk_connect "$RBLK_NSID_FILE") || exit 1
sleep 3
# rmmod takes the connected controller down itself.
timeout 60 rmmod rblk || fail "rmmod failed or hung while the ANA state flipped"
kill "$flipper" && wait "$flipper"
flipper=
echo optimized > "$ANA"
nvme_state_is optimized || wait_until 10 nvme_state_is optimized ||
	fail "nvme-rdma's path did not come back to optimized"
log "disconnect and rmmod while the state flipped: done"
exit 0

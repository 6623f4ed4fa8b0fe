#!/bin/sh
# One nvmet subsystem reached with two host NQNs (issue 44, finding 6),
# one over each of two ports (nvme-cli's libnvme takes a second connect to
# the same port for a duplicate whatever the host NQN), with the default
# module parameters, against nvme-rdma through
# /dev/nvme-fabrics (nvme-cli) connected the same way in the same boot:
#  - nvme-rdma makes one nvme-subsystem with two controllers and one block
#    device per namespace;
#  - so does rblk: one rblk-subsysK linking both controllers, one
#    /dev/rblkN per namespace, with a path on each controller; data
#    written through it is on the target's backing file;
#  - nvmecfg list-subsys lists the subsystem under each host NQN, each
#    with its own path, as nvme-cli does;
#  - a writer through the head survives the removal of one path (its
#    controller disconnected under it): its data is on the target;
#  - with multipath=N the second controller is a second path of the same
#    subsystem too: nvmecfg connect says so on stderr, with the way out.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

HOSTID2=7c1e5a40-2b9d-4e0a-9d6f-3a8b44c1e602
HOSTNQN2=nqn.2014-08.org.nvmexpress:uuid:$HOSTID2
SC=/sys/class/rblk-subsystem

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/shn.pat /tmp/shn.got
}
trap cleanup EXIT
nvmet_port2_add

# count PATTERN...: how many of the glob's matches exist.
count() {
	_n=0
	for _f in "$@"; do [ -e "$_f" ] && _n=$((_n + 1)); done
	echo "$_n"
}
# subsys_of CTRL: the rblk-subsysK that links controller CTRL; 1 if none.
subsys_of() {
	for _s in "$SC"/rblk-subsys*; do
		[ -L "$_s/$1" ] && { echo "${_s##*/}"; return 0; }
	done
	return 1
}
# rblk_devs NSID: how many rblk block devices users see for NSID.
rblk_devs() {
	_n=0
	for _d in /sys/block/rblk*; do
		case ${_d##*/} in *c*) continue ;; esac
		[ "$(cat "$_d/nsid" 2>/dev/null)" = "$1" ] && _n=$((_n + 1))
	done
	echo "$_n"
}
# nvme_devs NSID: the same for nvme-rdma's namespaces of the test subsystem.
nvme_devs() {
	_n=0
	for _d in /sys/block/nvme*n*; do
		case ${_d##*/} in *c*) continue ;; esac
		[ "$(cat "$_d/nsid" 2>/dev/null)" = "$1" ] || continue
		[ "$(cat "$_d/device/subsysnqn" 2>/dev/null)" = "$RBLK_NQN" ] &&
			_n=$((_n + 1))
	done
	echo "$_n"
}

# --- nvme-rdma, the reference ---
if nvme_native_mpath; then
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$NVMET_SVC2" -n "$RBLK_NQN" \
		--hostnqn="$HOSTNQN2" --hostid="$HOSTID2"
	nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE" > /dev/null || fail "nvme-rdma did not connect"
	ns=
	nsubs=0
	for s in /sys/class/nvme-subsystem/nvme-subsys*; do
		[ "$(cat "$s/subsysnqn" 2>/dev/null)" = "$RBLK_NQN" ] || continue
		ns=$s
		nsubs=$((nsubs + 1))
	done
	[ "$nsubs" -eq 1 ] || fail "nvme-rdma: $nsubs subsystems for $RBLK_NQN"
	nc=0
	for c in "$ns"/nvme[0-9]*; do
		case ${c##*/} in *n[0-9]*) ;; *) [ -e "$c" ] && nc=$((nc + 1)) ;; esac
	done
	[ "$nc" -eq 2 ] || fail "nvme-rdma: ${ns##*/} has $nc controllers"
	[ "$(nvme_devs "$RBLK_NSID_FILE")" -eq 1 ] ||
		fail "nvme-rdma: $(nvme_devs "$RBLK_NSID_FILE") block devices for nsid $RBLK_NSID_FILE"
	log "nvme-rdma: ${ns##*/}, 2 controllers (two host NQNs), one block device for nsid $RBLK_NSID_FILE"
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma 2>/dev/null
else
	log "nvme_core without native multipath: no reference"
fi

# --- rblk, default parameters ---
rblk_unload
rblk_load
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
out=$(rblk_connect_port "$NVMET_SVC2" -q "$HOSTNQN2" -I "$HOSTID2") || exit "$KSFT_FAIL"
B=$(echo "$out" | head -n 1)
[ "$A" != "$B" ] || fail "the second host NQN gave the same controller $A"
[ "$(cat "/sys/class/rblk/$B/hostnqn")" = "$HOSTNQN2" ] ||
	fail "$B hostnqn is $(cat "/sys/class/rblk/$B/hostnqn")"

S=$(subsys_of "$A") || fail "$A is in no subsystem: $(ls "$SC")"
SB=$(subsys_of "$B") || fail "$B is in no subsystem: $(ls "$SC")"
[ "$SB" = "$S" ] || fail "$A (host $RBLK_HOSTNQN) is in $S, $B (host $HOSTNQN2) in $SB"
[ "$(count "$SC"/rblk-subsys*)" -eq 1 ] || fail "$(count "$SC"/rblk-subsys*) subsystems: $(ls "$SC")"
[ "$(count "$SC/$S"/rblk-ctrl*)" -eq 2 ] || fail "$S links $(count "$SC/$S"/rblk-ctrl*) controllers"
[ ! -e "$SC/$S/hostnqn" ] || fail "$S still has a hostnqn file"

for nsid in $RBLK_NSID_NULL $RBLK_NSID_FILE $RBLK_NSID_512; do
	[ "$(rblk_devs "$nsid")" -eq 1 ] ||
		fail "$(rblk_devs "$nsid") block devices for nsid $nsid"
done
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
h=${dev##*/}
[ "$(rblk_ns_dev "$B" "$RBLK_NSID_FILE")" = "$dev" ] ||
	fail "nsid $RBLK_NSID_FILE: $dev on $A, $(rblk_ns_dev "$B" "$RBLK_NSID_FILE") on $B"
pa=$(rblk_path_of "$h" "$A") && pb=$(rblk_path_of "$h" "$B") ||
	fail "paths of $h: $(ls "/sys/block/$h/multipath")"
echo "$out" | grep -qx "$h" || fail "the second connect printed '$out', not $h"
log "$A and $B (two host NQNs) are paths $pa, $pb of $h in $S"

wait_for_path "$dev" 10 -b || fail "no device node $dev"
pattern_file /tmp/shn.pat 1048576
write_direct /tmp/shn.pat "$dev" 2097152
read_region "$RBLK_BACKING" 2097152 1048576 /tmp/shn.got
assert_same /tmp/shn.pat /tmp/shn.got "written through $dev, on the target"

# list-subsys: the subsystem under each host NQN, each with its path.
out=$(nvmecfg list-subsys) || fail "nvmecfg list-subsys failed: $out"
[ "$(echo "$out" | grep -cx "$S - NQN=$RBLK_NQN")" -eq 2 ] ||
	fail "list-subsys does not list $S once per host: $out"
for hp in "$RBLK_HOSTNQN:$A" "$HOSTNQN2:$B"; do
	echo "$out" | grep -A3 "hostnqn=${hp%:*}\$" | grep -q " +- ${hp##*:} " ||
		fail "list-subsys: no ${hp##*:} under host ${hp%:*}: $out"
done
json=$(nvmecfg list-subsys -o json | tr -d '\n ') || fail "list-subsys -o json failed"
for hn in "$RBLK_HOSTNQN" "$HOSTNQN2"; do
	echo "$json" | grep -q "\"HostNQN\":\"$hn\"" || fail "list-subsys -o json: no host $hn: $json"
done
# With the device, over netlink: the head's paths, each under the host
# NQN its controller connected with (the path nests carry it), with its
# ANA state; show-topology alike.
out=$(nvmecfg list-subsys "$dev") || fail "nvmecfg list-subsys $dev failed: $out"
[ "$(echo "$out" | grep -cx "$S - NQN=$RBLK_NQN")" -eq 2 ] ||
	fail "list-subsys $dev does not list $S once per host: $out"
topo=$(nvmecfg show-topology) || fail "nvmecfg show-topology failed: $topo"
for c in "$A" "$B"; do
	if [ "$c" = "$A" ]; then
		hn=$RBLK_HOSTNQN other=$B
	else
		hn=$HOSTNQN2 other=$A
	fi
	sect=$(echo "$out" | grep -A4 "hostnqn=$hn\$")
	echo "$sect" | grep -Eq "^ \+- $c rdma .* live [a-z-]+\$" ||
		fail "list-subsys $dev: no path $c with its ANA state under host $hn: $out"
	echo "$sect" | grep -q " +- $other " &&
		fail "list-subsys $dev: $other under host $hn: $out"
	echo "$topo" | grep -A6 "hostnqn=$hn\$" | grep -Eq "^  \+- $c rdma .* live [a-z-]+\$" ||
		fail "show-topology: no path $c under host $hn: $topo"
done
json=$(nvmecfg list-subsys -o json "$dev" | tr -d '\n ') || fail "list-subsys -o json $dev failed"
echo "$json" | grep -q "\"HostNQN\":\"$HOSTNQN2\",\"HostID\":\"$HOSTID2\",\"Subsystems\":\[{\"Name\":\"$S\",\"NQN\":\"$RBLK_NQN\",\"Paths\":\[{\"Name\":\"$B\"" ||
	fail "list-subsys -o json $dev: no host $HOSTNQN2 with $B alone: $json"
log "list-subsys $dev and show-topology: $A under $RBLK_HOSTNQN, $B under $HOSTNQN2"

# A writer through the head while one path's controller is disconnected.
pattern_file /tmp/shn.pat 8388608
dd if=/tmp/shn.pat of="$dev" bs=64k seek=64 oflag=direct conv=notrunc 2>/dev/null &
w=$!
usleep 300000
must nvmecfg disconnect "$A"
wait "$w" || fail "the writer through $dev failed when $A was disconnected"
wait_for_path "/sys/block/$h/multipath/$pa" 10 ! || fail "$pa still a path of $h"
[ -e "/sys/block/$h/multipath/$pb" ] || fail "$h lost its path $pb"
read_region "$RBLK_BACKING" 4194304 8388608 /tmp/shn.got
assert_same /tmp/shn.pat /tmp/shn.got "written through $dev across $A's removal, on the target"
read_direct "$dev" 4194304 8388608 /tmp/shn.got
assert_same /tmp/shn.pat /tmp/shn.got "read back through $dev on $pb alone"
log "$A disconnected under a writer: $h went on over $pb"
must nvmecfg disconnect "$B"
wait_for_path "/sys/block/$h" 10 ! || fail "$h still there after its last path left"

# multipath=N: two paths of one subsystem all the same; connect says so.
rblk_unload
rblk_load multipath=N
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
out=$(rblk_connect_port "$NVMET_SVC2" -q "$HOSTNQN2" -I "$HOSTID2") || exit "$KSFT_FAIL"
B=$(echo "$out" | head -n 1)
[ "$(subsys_of "$A")" = "$(subsys_of "$B")" ] ||
	fail "multipath=N: $A in $(subsys_of "$A"), $B in $(subsys_of "$B")"
echo "$out" | grep -q "is a second controller of $RBLK_NQN, and multipath is off" ||
	fail "multipath=N: the second connect did not say it is a second path: $out"
dmesg | grep -q "$B: another controller of $RBLK_NQN is connected" ||
	fail "multipath=N: no kernel message for $B"
log "multipath=N: $A and $B in one subsystem, the connect says so"
must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"
exit 0

#!/bin/sh
# nvme-cli's connect options that choose how the connection is made:
# -w/--host-traddr binds the source address and -T/--tos sets the type of
# service, both seen by the RDMA CM on every queue's connect request
# (tracepoint rdma_cma:cm_send_req), as for nvme-rdma with the same
# options; a source address this host does not have is refused with the
# cause.  IPv6 targets, global and link-local with a scope (fe80::X%dev),
# connect and serve the data the backing file holds.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NVMET=${RBLK_NVMET_SUBSYS%/subsystems/*}
SRC=10.99.0.2
V6=fd00:99::1
TRACE=/sys/kernel/tracing
EV=$TRACE/events/rdma_cma/cm_send_req

cleanup() {
	[ -f "$EV/enable" ] && echo 0 > "$EV/enable"
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	for p in 2 3; do
		rm -f "$NVMET/ports/$p/subsystems/$RBLK_NQN" 2>/dev/null
		rmdir "$NVMET/ports/$p" 2>/dev/null
	done
	ip addr del "$SRC/24" dev "$RBLK_NETDEV" 2>/dev/null
	ip addr del "$V6/64" dev "$RBLK_NETDEV" 2>/dev/null
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload
}
trap cleanup EXIT

grep -q " $TRACE " /proc/mounts || mount -t tracefs nodev "$TRACE" ||
	fail "cannot mount tracefs"
[ -f "$EV/enable" ] || fail "no rdma_cma:cm_send_req tracepoint"
must ip addr add "$SRC/24" dev "$RBLK_NETDEV"
must modprobe nvme-rdma
rblk_load

# connect ARGS...: nvmecfg connect to the test subsystem, output in $out,
# exit status in $rc.
connect() {
	rc=0
	out=$(nvmecfg connect -t rdma -s "$RBLK_TRSVCID" -n "$RBLK_NQN" "$@" 2>&1) || rc=$?
}
ctrl_attr() { cat "/sys/class/rblk/$(echo "$out" | head -n 1)/$1"; }
# sent_reqs: the connect requests traced since the last call, one per line.
sent_reqs() {
	cat "$TRACE/trace" | grep 'cm_send_req:'
	echo > "$TRACE/trace"
}

echo > "$TRACE/trace"
echo 1 > "$EV/enable"

# --- -w and -T on every queue, as nvme-rdma does ---
connect -a "$RBLK_TRADDR" -i 2 -w "$SRC" -T 32
[ "$rc" -eq 0 ] || fail "connect -w $SRC -T 32: $out"
[ "$(ctrl_attr host_traddr)" = "$SRC" ] || fail "host_traddr '$(ctrl_attr host_traddr)'"
[ "$(ctrl_attr tos)" = 32 ] || fail "tos '$(ctrl_attr tos)'"
reqs=$(sent_reqs)
printf '%s\n' "$reqs"
want=$((1 + $(ctrl_attr nr_io_queues)))
[ "$(printf '%s\n' "$reqs" | grep -c "src=$SRC:[0-9]* dst=$RBLK_TRADDR:$RBLK_TRSVCID tos=32")" -eq "$want" ] ||
	fail "want $want connect requests from $SRC with tos=32"
r=/dev/$(echo "$out" | sed -n 3p)
wait_for_path "$r" 10 -b || fail "$r did not appear"
[ "$(rblk_attr "$r" nsid)" = "$RBLK_NSID_FILE" ] || fail "$r is not nsid $RBLK_NSID_FILE"
pattern_file /tmp/co.pat $((1024 * 1024))
write_direct /tmp/co.pat "$r" 0
assert_on_target "$r" "$RBLK_BACKING" 1 "connected from $SRC"
# A different source address is not a duplicate (nvme-cli compares it too).
connect -a "$RBLK_TRADDR" -i 1
[ "$rc" -eq 0 ] || fail "connect without -w next to one with -w: $out"
[ -z "$(ctrl_attr host_traddr)" ] || fail "host_traddr set without -w"
[ "$(ctrl_attr tos)" = -1 ] || fail "tos '$(ctrl_attr tos)' without -T"
sent_reqs | grep -q "tos=0" || fail "without -T the CM's default tos 0 is not used"
for d in /sys/class/rblk/rblk-ctrl*; do must nvmecfg disconnect "${d##*/}"; done

must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" -i 2 -w "$SRC" -T 32
nreqs=$(sent_reqs | grep -c "src=$SRC:[0-9]* dst=$RBLK_TRADDR:$RBLK_TRSVCID tos=32")
log "nvme-rdma with -w $SRC -T 32: $nreqs such connect requests, rblk $want"
[ "$nreqs" -ge 2 ] || fail "nvme-rdma's requests do not carry -w/-T either: test is wrong"
must nvme disconnect -n "$RBLK_NQN"

# --- a source address this host does not have ---
connect -a "$RBLK_TRADDR" -w 10.99.0.77
[ "$rc" -eq 1 ] || fail "connect -w 10.99.0.77: exit $rc, want 1: $out"
printf '%s\n' "$out" | grep -q "not an address of this host" || fail "-w 10.99.0.77: message '$out'"
connect -a "$RBLK_TRADDR" -w "$V6"
[ "$rc" -ne 0 ] || fail "connect -w an IPv6 address to an IPv4 target succeeded"
printf '%s\n' "$out" | grep -q "address family" || fail "-w IPv6 to IPv4: message '$out'"
ls /sys/class/rblk | grep -q rblk-ctrl && fail "a refused connect left a controller"

# --- IPv6: a global address, then link-local with a scope ---
must ip addr add "$V6/64" dev "$RBLK_NETDEV" nodad
LL=$(ip -6 addr show dev "$RBLK_NETDEV" scope link | sed -n 's/.*inet6 \(fe80[^/]*\)\/.*/\1/p' | head -n 1)
[ -n "$LL" ] || fail "no link-local address on $RBLK_NETDEV"
# The RDMA device learns the new GIDs asynchronously.
wait_until 10 sh -c "rdma link show >/dev/null; grep -qi '${V6%%::*}' /sys/class/infiniband/$RBLK_RDMA_DEV/ports/1/gids/* 2>/dev/null" ||
	log "GID for $V6 not visible in sysfs; trying anyway"
port() {
	_p=$NVMET/ports/$1
	mkdir "$_p" && echo rdma > "$_p/addr_trtype" && echo ipv6 > "$_p/addr_adrfam" &&
	echo "$2" > "$_p/addr_traddr" && echo "$RBLK_TRSVCID" > "$_p/addr_trsvcid" &&
	ln -s "$RBLK_NVMET_SUBSYS" "$_p/subsystems/$RBLK_NQN" || fail "cannot create nvmet port $1 at $2"
}
port 2 "$V6"
port 3 "$LL%$RBLK_NETDEV"

for a in "$V6" "$LL%$RBLK_NETDEV"; do
	connect -a "$a" -i 1
	[ "$rc" -eq 0 ] || fail "connect -a $a: $out"
	c=$(echo "$out" | head -n 1)
	case $a in
	*%*) # canonical: the scope as the interface index
		want=${LL}%$(cat "/sys/class/net/$RBLK_NETDEV/ifindex") ;;
	*) want=$a ;;
	esac
	[ "$(ctrl_attr traddr)" = "$want" ] || fail "$c traddr '$(ctrl_attr traddr)', want $want"
	[ "$(ctrl_attr state)" = live ] || fail "$c over $a is not live"
	r=/dev/$(echo "$out" | sed -n 3p)
	wait_for_path "$r" 10 -b || fail "$r did not appear"
	pattern_file /tmp/co.pat $((1024 * 1024))
	write_direct /tmp/co.pat "$r" $((2 * 1024 * 1024))
	read_region "$RBLK_BACKING" $((2 * 1024 * 1024)) $((1024 * 1024)) /tmp/co.out
	assert_same /tmp/co.pat /tmp/co.out "written over $a"
	log "$a: $c live, data on the target"
	must nvmecfg disconnect "$c"
done
# A scope that names no interface is refused before anything is sent.
connect -a "$LL%rblk-nosuchdev"
[ "$rc" -ne 0 ] || fail "connect to an unknown scope succeeded"
printf '%s\n' "$out" | grep -q "traddr" || fail "unknown scope: message '$out'"
rm -f /tmp/co.pat /tmp/co.out

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

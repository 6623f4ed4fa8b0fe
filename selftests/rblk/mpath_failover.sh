#!/bin/sh
# Multipath failover (issue 27, step 7), rblk.multipath=Y, two controllers
# to one subsystem over two nvmet ports, against nvme-rdma's native
# multipath doing the same in the same boot:
#  - port 1 taken away under a verifying writer: no I/O error, the data
#    verifies, and the writes go on over path 2 while path 1 is down (its
#    counters grow); path 1 reconnects when the port returns;
#  - both ports away: I/O is held by the head (queue_if_no_path), and
#    completes once port 2 returns within ctrl_loss_tmo;
#  - both away with fast_io_fail_tmo 2: I/O fails with EIO in time, no
#    task hangs, and the device serves again when a port returns;
#  - what fio wrote is on the target; rmmod.
# rblk-timeout: 600
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

PORT2=$NVMET_PORT2
SVC2=$NVMET_SVC2

port_unlink() { rm -f "$1/subsystems/$RBLK_NQN"; }
port_relink() {
	[ -e "$1/subsystems/$RBLK_NQN" ] ||
		ln -s "$RBLK_NVMET_SUBSYS" "$1/subsystems/$RBLK_NQN" ||
		fail "cannot relink $1"
}
cleanup() {
	# A writer left by a failure holds the head open: rmmod would fail.
	for _p in ${pid:-} ${dpid:-}; do
		kill -9 "$_p" 2>/dev/null
	done
	port_relink "$RBLK_NVMET_PORT" 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	for _p in ${pid:-} ${dpid:-}; do
		_n=100
		while running "$_p" && [ "$_n" -gt 0 ]; do
			usleep 100000
			_n=$((_n - 1))
		done
	done
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mf.fio /tmp/mf.dd /tmp/mf.pat /tmp/mf.got
}
trap cleanup EXIT

nvmet_port2_add

# writer DEV: a verifying fio writer in the background ($!).
writer() {
	fio --name=mpath --filename="$1" --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --iodepth=16 --size=16M --loops=2 \
		--verify=crc32c --verify_fatal=1 --do_verify=1 > /tmp/mf.fio 2>&1 &
}
# writer_ok PID WHAT: the writer ended without an error.
writer_ok() {
	wait "$1"; _rc=$?
	[ "$_rc" -eq 0 ] || fail "$2: fio failed ($_rc): $(grep -E 'err=|verify|error' /tmp/mf.fio | head -5)"
	grep -q 'err= 0' /tmp/mf.fio || fail "$2: fio saw errors: $(grep -E 'err=' /tmp/mf.fio)"
}

# --- rblk ---
rblk_load multipath=1
# connect_svc SVC [OPTIONS]: the controller; the target's loss seen in 2 s.
connect_svc() { rblk_connect_port_ctrl "$@" -k 2 -c 1 -l 60; }
A=$(connect_svc "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
B=$(connect_svc "$SVC2") || exit "$KSFT_FAIL"
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
[ "$(rblk_ns_dev "$B" "$RBLK_NSID_FILE")" = "$dev" ] || fail "$B's path is not under $dev"
h=${dev##*/}
pa=$(rblk_path_of "$h" "$A") && pb=$(rblk_path_of "$h" "$B") ||
	fail "paths of $h: $(ls "/sys/block/$h/multipath")"
# I/O over a path (fio may be in a verify pass: reads).
wr() { rblk_path_ios "$1"; }
# hc HEAD COUNTER: a head's own counter (/sys/block/rblkN/rblk/).
hc() { cat "/sys/block/$1/rblk/$2"; }
[ "$(hc "$h" failovers) $(hc "$h" no_path_requeues) $(hc "$h" no_path_errors)" = "0 0 0" ] ||
	fail "a new head's counters: $(grep . /sys/block/"$h"/rblk/*)"

# The path tracepoints, through port 1's loss and the no-path hold.
TR=/sys/kernel/tracing
grep -q " $TR tracefs" /proc/mounts || mount -t tracefs tracefs "$TR" || fail "cannot mount tracefs"
echo > "$TR/trace"
echo 1 > "$TR/events/rblk/rblk_failover/enable" && echo 1 > "$TR/events/rblk/rblk_no_path/enable" ||
	fail "cannot enable the rblk_failover and rblk_no_path tracepoints"

# Port 1 away under the writer.
writer "$dev"; pid=$!
sleep 2
port_unlink "$RBLK_NVMET_PORT"
rblk_wait_state "$pa" connecting 10 || fail "$A still $(rblk_attr "$pa" state) after port 1 left"
b0=$(wr "$pb"); a0=$(wr "$pa")
sleep 3
b1=$(wr "$pb"); a1=$(wr "$pa")
if [ "$b1" -le "$b0" ]; then
	for d in "$h" "$pa" "$pb"; do echo "DBG $d inflight $(cat /sys/block/$d/inflight) state $(cat /sys/block/$d/rblk/state 2>/dev/null) outstanding $(cat /sys/block/$d/rblk/outstanding 2>/dev/null)"; done
	echo w > /proc/sysrq-trigger; sleep 1; dmesg | tail -80
	fail "no I/O over $B while $A was down ($b0 -> $b1)"
fi
[ "$a1" -eq "$a0" ] || fail "I/O over $A while it was down ($a0 -> $a1)"
port_relink "$RBLK_NVMET_PORT"
rblk_wait_state "$pa" live 30 || fail "$A did not reconnect after port 1 returned"
writer_ok "$pid" "rblk, port 1 away"
# Requests in flight on port 1 then fail over (none may be, in a verify
# pass): counted, and traced (checked below).
log "port 1 away: no error, $((b1 - b0)) I/Os over $B meanwhile, $(hc "$h" failovers) failovers, $A reconnected"

# Both ports away: held, then port 2 returns.
pattern_file /tmp/mf.pat 1048576
port_unlink "$RBLK_NVMET_PORT"
port_unlink "$PORT2"
rblk_wait_state "$pa" connecting 10 || fail "$A still live with port 1 gone"
rblk_wait_state "$pb" connecting 10 || fail "$B still live with port 2 gone"
dd if=/tmp/mf.pat of="$dev" bs=64k seek=64 oflag=direct conv=notrunc > /tmp/mf.dd 2>&1 &
dpid=$!
sleep 3
running "$dpid" || fail "the write ended with no path: $(cat /tmp/mf.dd)"
port_relink "$PORT2"
if ! wait_until 30 exited "$dpid"; then
	# What holds it: the tasks in D state and each path's state.
	for p in /sys/block/"$h"/multipath/*; do
		echo "${p##*/}: $(cat "$p/rblk/state" 2>/dev/null)"
	done
	echo w > /proc/sysrq-trigger
	sleep 1
	dmesg | grep -A30 " state:D " | grep -v "^\[ *[0-9.]*\]  ? " | head -150
	fail "the held write did not complete after port 2 returned"
fi
wait "$dpid" || fail "the held write failed: $(cat /tmp/mf.dd)"
read_region "$RBLK_BACKING" 4194304 1048576 /tmp/mf.got
assert_same /tmp/mf.pat /tmp/mf.got "held with no path, completed over $B, on the target"
port_relink "$RBLK_NVMET_PORT"
rblk_wait_state "$pa" live 30 || fail "$A did not reconnect"
[ "$(hc "$h" no_path_requeues)" -gt 0 ] || fail "$h counted no held bio"
[ "$(hc "$h" no_path_errors)" -eq 0 ] || fail "$h counted $(hc "$h" no_path_errors) failed bios with a path coming back"
echo 0 > "$TR/events/rblk/rblk_failover/enable"; echo 0 > "$TR/events/rblk/rblk_no_path/enable"
# The counter and the tracepoint agree.
fo=$(hc "$h" failovers)
[ "$(grep -c "rblk_failover: rblk-ctrl[0-9]* path=${h}c[0-9]* nsid=$RBLK_NSID_FILE status=0x" "$TR/trace")" -eq "$fo" ] ||
	fail "$fo failovers counted, $(grep -c "rblk_failover: " "$TR/trace") rblk_failover events: $(grep -m2 rblk_failover "$TR/trace")"
grep -q "rblk_no_path: $h sector=[0-9]* bytes=[0-9]* held" "$TR/trace" ||
	fail "no rblk_no_path 'held' event for $h: $(grep -m2 rblk_no_path "$TR/trace")"
log "no path for 3 s: the write was held ($(hc "$h" no_path_requeues) holds) and completed once port 2 returned"

# Both away past fast_io_fail_tmo: EIO, in time.
must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"
wait_for_path "/sys/block/$h" 10 ! || fail "$h still there after both disconnects"
A=$(connect_svc "$RBLK_TRSVCID" --fast_io_fail_tmo 2) || exit "$KSFT_FAIL"
B=$(connect_svc "$SVC2" --fast_io_fail_tmo 2) || exit "$KSFT_FAIL"
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
pa=$(ls "/sys/block/${dev##*/}/multipath" | head -n 1)
port_unlink "$RBLK_NVMET_PORT"
port_unlink "$PORT2"
for p in /sys/block/"${dev##*/}"/multipath/*; do
	rblk_wait_state "${p##*/}" connecting 10 || fail "${p##*/} still $(rblk_attr "${p##*/}" state) with both ports gone"
done
t0=$(uptime_ms)
out=$(dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>&1) &&
	fail "read succeeded with both ports gone"
ms=$(($(uptime_ms) - t0))
echo "$out" | grep -qE "Input/output error|I/O error" || fail "expected EIO, got: $out"
[ "$ms" -le 15000 ] || fail "no path failed I/O after ${ms} ms (kato 2, fast_io_fail_tmo 2)"
hung=$(d_state_tasks)
[ -z "$hung" ] || fail "tasks in D state: $hung"
[ "$(hc "${dev##*/}" no_path_errors)" -gt 0 ] || fail "${dev##*/} counted no bio failed for want of a path"
port_relink "$RBLK_NVMET_PORT"
port_relink "$PORT2"
wait_until 30 sh -c "dd if=$dev of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null" ||
	fail "$dev did not serve again after the ports returned"
log "no path past fast_io_fail_tmo: EIO after ${ms} ms, then served again"

assert_on_target "$dev" "$RBLK_BACKING" 16 "what the writers wrote through $dev"
timeout 60 rmmod rblk || fail "rmmod failed or hung"
log "on the target; rmmod: done"

# --- the reference: nvme-rdma's native multipath, port 1 away ---
# Last: nvme-rdma's teardown after a port flap is not rblk's to recover from.
if nvme_native_mpath; then
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" -k 2 -c 1 -l 60
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$SVC2" -n "$RBLK_NQN" -k 2 -c 1 -l 60
	ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "nvme-rdma did not connect"
	writer "$ndev"; pid=$!
	sleep 2
	port_unlink "$RBLK_NVMET_PORT"
	sleep 6
	port_relink "$RBLK_NVMET_PORT"
	writer_ok "$pid" "nvme-rdma, port 1 away"
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma
	log "nvme-rdma: the writer carried on while port 1 was away"
else
	log "nvme_core without native multipath: no reference"
fi

exit 0

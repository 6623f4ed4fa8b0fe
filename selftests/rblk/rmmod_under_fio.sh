#!/bin/sh
# rmmod while fio runs on the device is refused (the device is open) and
# does no harm; disconnect under fio removes the device, fio sees errors,
# nothing hangs; afterwards the module unloads.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_NULL") || exit 1

# Wait until fio has the device open and I/O going (a fixed sleep is too
# short on the slow debug kernel of make check-debug).
ios() { awk '{ print $1 + $5 }' "/sys/block/${dev##*/}/stat"; }
wait_fio_io() {
	_base=$(ios) _n=0
	while [ "$(ios)" -lt $((_base + 64)) ]; do
		_n=$((_n + 1))
		[ "$_n" -gt 300 ] && fail "fio did no I/O on $dev within 30 s"
		usleep 100000
	done
}

fio --name=bg --filename="$dev" --direct=1 --ioengine=libaio --rw=randrw \
	--bs=4k --iodepth=32 --numjobs=2 --size=64M --time_based --runtime=60 \
	> /tmp/fio1.log 2>&1 &
pid=$!
wait_fio_io
rmmod rblk 2>/dev/null && fail "rmmod succeeded while the device was open"
rblk_loaded || fail "rblk vanished"
[ "$(rblk_attr "$dev" state)" = live ] || fail "device not live after refused rmmod"
kill "$pid"; wait "$pid" 2>/dev/null

# Disconnect with I/O in flight: in-flight requests complete first.
fio --name=bg --filename="$dev" --direct=1 --ioengine=libaio --rw=randrw \
	--bs=4k --iodepth=32 --numjobs=2 --size=64M --time_based --runtime=60 \
	> /tmp/fio2.log 2>&1 &
pid=$!
wait_fio_io
timeout 60 nvmecfg disconnect --force "${dev##*/}" || fail "disconnect under fio failed"
wait_for_path "/sys/block/${dev##*/}" 10 ! || fail "device still present"
t=0
while kill -0 "$pid" 2>/dev/null; do
	t=$((t + 1))
	[ $t -gt 30 ] && fail "fio did not end after the device went away"
	sleep 1
done
wait "$pid"
log "fio after disconnect: $(grep -o 'err=[^:]*' /tmp/fio2.log | head -n 1)"
hung=$(d_state_tasks)
[ -z "$hung" ] || fail "tasks in D state: $hung"
rblk_unload
exit 0

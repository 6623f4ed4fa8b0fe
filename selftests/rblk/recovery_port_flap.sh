#!/bin/sh
# Target failover: the nvmet port drops the subsystem for five seconds while
# fio writes and verifies. I/O is held, not failed: fio finishes with no
# error and no verify failure, the controller reconnects, and the recovery
# time after the target returns is reported.
# rblk-timeout: 600
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -k 2 -c 1 -l 60) || exit 1
trap 'nvmet_relink' EXIT

fio --name=flap --filename="$dev" --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=16 --size=32M --loops=3 \
	--verify=crc32c --verify_fatal=1 --do_verify=1 > /tmp/fio.log 2>&1 &
pid=$!
sleep 2
nvmet_unlink
rblk_wait_state "$dev" live 1 && sleep 1
st=$(rblk_attr "$dev" state)
[ "$st" != live ] || fail "still live 1s after the target went away"
sleep 5
nvmet_relink
t0=$(uptime_ms)
rblk_wait_state "$dev" live 30 || fail "no reconnect within 30s of the target's return"
log "recovery time after the target returned: $(($(uptime_ms) - t0)) ms (reconnect_delay 1 s)"

wait "$pid"; rc=$?
grep -E 'err=|verify' /tmp/fio.log
[ $rc -eq 0 ] || fail "fio failed ($rc) across the failover"
grep -q 'err= 0' /tmp/fio.log || fail "fio saw errors"
[ "$(rblk_attr "$dev" reconnects)" -ge 1 ] || fail "reconnects counter did not move"
rblk_disconnect "$dev"
rblk_unload
exit 0

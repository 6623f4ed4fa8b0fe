#!/bin/sh
# The RDMA device itself goes away (rdma link delete) under fio with verify
# and comes back: rblk releases everything on the old device, reconnects on
# the new one, and fio completes with no error.
# rblk-timeout: 600
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -k 2 -c 1 -l 120) || exit 1
# Whatever failed, the device comes back and the port listens on it.
restore_rxe() {
	rdma link show "$RBLK_RDMA_DEV" >/dev/null 2>&1 && return 0
	rdma link add "$RBLK_RDMA_DEV" type "$RBLK_RDMA_TYPE" netdev "$RBLK_NETDEV"
	nvmet_reenable_port
}
trap restore_rxe EXIT

fio --name=rxe --filename="$dev" --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=16 --size=32M --loops=2 \
	--verify=crc32c --verify_fatal=1 --do_verify=1 > /tmp/fio.log 2>&1 &
pid=$!
sleep 2
must rdma link delete "$RBLK_RDMA_DEV"
sleep 3
must rdma link add "$RBLK_RDMA_DEV" type "$RBLK_RDMA_TYPE" netdev "$RBLK_NETDEV"
# nvmet-rdma (6.1) does not listen again on a new device by itself: the
# target's admin re-enables the port, as after any target-side restart.
nvmet_unlink
nvmet_relink
rblk_wait_state "$dev" live 60 || fail "no reconnect within 60s of the device's return"
wait "$pid"; rc=$?
grep -E 'err=|verify' /tmp/fio.log
[ $rc -eq 0 ] || fail "fio failed ($rc) across the device removal"
grep -q 'err= 0' /tmp/fio.log || fail "fio saw errors"
rblk_disconnect "$dev"
rblk_unload
exit 0

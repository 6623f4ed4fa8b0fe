#!/bin/sh
# A reconnect that lands on another kind of RDMA device, whose memory
# registrations map fewer pages (issue 28, finding 2): Soft-RoCE maps 256
# pages per request here, Soft-iWARP 255.  The controller's limits must
# follow the device of each connect: the namespace's max_hw_sectors_kb
# shrinks, writes held across the change (built for the old, larger
# limits) are split again and served, and full-size writes on the new
# device succeed -- rather than failing with EIO ("cannot map request
# data") for the controller's whole life.  Then back to Soft-RoCE: the
# limits grow again.  Every write is read back and compared with the
# target's backing file.  Needs both rdma_rxe and siw (the debug kernel;
# Debian's kernels build no siw), and runs on the Soft-RoCE fabric.
# rblk-lockdep: port-disable
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ "$RBLK_RDMA_TYPE" = rxe ] || skip "runs on the Soft-RoCE fabric (this one is $RBLK_RDMA_TYPE)"
modprobe siw 2>/dev/null || skip "no siw module in the guest kernel"
SIW=siw0

to_type() {
	# to_type TYPE NAME: the fabric's netdev on a device of TYPE named NAME.
	for _l in $(rdma link show 2>/dev/null | awk '{ print $2 }'); do
		must rdma link delete "${_l%%/*}" > /dev/null
	done
	must rdma link add "$2" type "$1" netdev "$RBLK_NETDEV" > /dev/null
	nvmet_reenable_port
}
restore() {
	to_type rxe "$RBLK_RDMA_DEV" > /dev/null 2>&1
	nvmet_reenable_port
}
trap restore EXIT

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -c 1 -l 120) || exit 1
q=/sys/block/${dev##*/}/queue
kb_rxe=$(cat "$q/max_hw_sectors_kb")
log "on $RBLK_RDMA_DEV (rxe): max_hw_sectors_kb $kb_rxe, max_segments $(cat "$q/max_segments")"

# write_full ROUND SLOT KB: 4 writes of KB KiB each (one request each, as
# large as the limits allow) at SLOT * KB KiB; compared on the target.
write_full() {
	pattern_file /tmp/big $(($3 * 4 * 1024))
	dd if=/tmp/big of="$dev" bs="$3"k seek="$2" count=4 \
		oflag=direct conv=notrunc 2>/tmp/dd.err ||
		fail "$1: ${3} KiB writes failed: $(cat /tmp/dd.err)"
	read_region "$RBLK_BACKING" $(($2 * $3 * 1024)) $(($3 * 4 * 1024)) /tmp/big.store
	assert_same /tmp/big /tmp/big.store "$1: ${3} KiB writes on the target"
}

write_full "rxe" 0 "$kb_rxe"

# Writes built for the Soft-RoCE limits, held while no device is there.
pattern_file /tmp/held $((kb_rxe * 4 * 1024))
off=$((kb_rxe * 1024 * 8))
must rdma link delete "$RBLK_RDMA_DEV" > /dev/null
rblk_wait_state "$dev" connecting 30 || fail "state $(rblk_attr "$dev" state) with the device gone"
dd if=/tmp/held of="$dev" bs="$kb_rxe"k seek=8 count=4 oflag=direct conv=notrunc \
	2>/tmp/dd.held &
held=$!
sleep 2
kill -0 "$held" 2>/dev/null || fail "held writes ended with no device: $(cat /tmp/dd.held)"
to_type siw "$SIW"
rblk_wait_state "$dev" live 60 || fail "no reconnect over $SIW (state $(rblk_attr "$dev" state))"
wait "$held" || fail "writes held across the device change failed: $(cat /tmp/dd.held)"
read_region "$RBLK_BACKING" "$off" $((kb_rxe * 4 * 1024)) /tmp/held.store
assert_same /tmp/held /tmp/held.store "writes held across the device change, on the target"
kb_siw=$(cat "$q/max_hw_sectors_kb")
log "on $SIW (siw): max_hw_sectors_kb $kb_siw, max_segments $(cat "$q/max_segments")"
[ "$kb_siw" -lt "$kb_rxe" ] ||
	fail "max_hw_sectors_kb $kb_siw on $SIW, expected below Soft-RoCE's $kb_rxe"
write_full "siw" 16 "$kb_siw"
# A full Soft-RoCE-sized write is split now, not refused.
write_full "siw, rxe-sized" 24 "$kb_rxe"

to_type rxe "$RBLK_RDMA_DEV"
rblk_wait_state "$dev" live 60 || fail "no reconnect over $RBLK_RDMA_DEV"
[ "$(cat "$q/max_hw_sectors_kb")" -eq "$kb_rxe" ] ||
	fail "max_hw_sectors_kb $(cat "$q/max_hw_sectors_kb") back on rxe, expected $kb_rxe"
write_full "rxe again" 32 "$kb_rxe"
[ "$(rblk_attr "$dev" errors)" -eq 0 ] || fail "$(rblk_attr "$dev" errors) I/O errors"
rblk_disconnect "$dev"
rblk_unload
exit 0

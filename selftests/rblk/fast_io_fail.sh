#!/bin/sh
# fast_io_fail_tmo: while the controller reconnects, held I/O fails with EIO
# once the fast-fail timer expires, long before ctrl_loss_tmo; reconnecting
# goes on, and after the target returns I/O works again.
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
trap 'nvmet_relink' EXIT
dev=$(rblk_connect "$RBLK_NSID_FILE" -k 1 -c 1 -l 120 --fast_io_fail_tmo 2) || exit 1
[ "$(rblk_attr "$dev" fast_io_fail_tmo)" = 2 ] || fail "fast_io_fail_tmo not applied"
nvmet_unlink
rblk_wait_state "$dev" connecting 10 || fail "state $(rblk_attr "$dev" state), expected connecting"
t0=$(uptime_ms)
out=$(dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>&1) &&
	fail "read succeeded with the target gone"
ms=$(($(uptime_ms) - t0))
echo "$out" | grep -qE "Input/output error|I/O error" || fail "expected EIO, got: $out"
[ "$ms" -le 8000 ] || fail "fast fail took ${ms} ms (fast_io_fail_tmo 2 s)"
st=$(rblk_attr "$dev" state)
[ "$st" = connecting ] || fail "state $st after fast fail, expected still connecting"
log "held read failed after ${ms} ms, controller still $st"
nvmet_relink
rblk_wait_state "$dev" live 30 || fail "no reconnect after the target returned"
pattern_file /tmp/pat 65536
write_direct /tmp/pat "$dev" 1048576
read_direct "$dev" 1048576 65536 /tmp/back
assert_same /tmp/pat /tmp/back "I/O after reconnect"
rblk_disconnect "$dev"
rblk_unload
exit 0

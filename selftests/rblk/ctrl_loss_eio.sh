#!/bin/sh
# Target gone for longer than ctrl_loss_tmo: held and new I/O fail with EIO
# within the bound, nothing is stuck in D state, the device stays removable.
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -k 1 -c 1 -l 4) || exit 1
trap 'nvmet_relink' EXIT

nvmet_unlink
start=$(date +%s)
# Issued while reconnecting: held first, then failed when the loss timer ends.
out=$(dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>&1) &&
	fail "read succeeded with the target gone"
took=$(($(date +%s) - start))
log "held read failed after ${took}s: $out"
echo "$out" | grep -qE "Input/output error|I/O error" || fail "expected EIO, got: $out"
[ "$took" -le 15 ] || fail "failing took ${took}s, bound is ctrl_loss_tmo 4s + slack"
rblk_wait_state "$dev" dead 5 || fail "state is $(rblk_attr "$dev" state), not dead"
out=$(dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>&1) &&
	fail "read on a dead controller succeeded"
echo "$out" | grep -qE "Input/output error|I/O error" || fail "new I/O: expected EIO, got: $out"
# I/O failed before it reached the target is counted too.
# (A multipath head fails them itself, with no path left: its errors_path
# counts them, and its no_path_errors.)
errs=$(rblk_attr "$dev" errors_path)
[ "$errs" -ge 2 ] || fail "errors_path is $errs after two failed reads"
if [ -d "/sys/block/${dev##*/}/multipath" ]; then
	[ "$(rblk_attr "$dev" no_path_errors)" -ge 2 ] ||
		fail "no_path_errors is $(rblk_attr "$dev" no_path_errors) after two failed reads"
fi
hung=$(d_state_tasks)
[ -z "$hung" ] || fail "tasks in D state: $hung"
rblk_disconnect "$dev"
rblk_unload
exit 0

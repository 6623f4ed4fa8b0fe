#!/bin/sh
# Doorbell batching: the capsules blk-mq dispatches as one batch go to the
# target with one ib_post_send().  After a controller reset_stats, 100
# synchronous O_DIRECT reads (one request per dispatch) cost exactly 100
# doorbells for 100 commands (commands_per_doorbell 1.00); fio with io_uring
# submitting 16 requests at a time (iodepth 32) posts at least every command
# (every request the namespace completed, after the block layer's merges),
# with at least 2 commands per doorbell on average, and its writes
# verify (fio crc32c) and are in the target's backing store.  The
# namespace's copies of the counters are the controller's.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NVMECFG=${RBLK_NVMECFG:-nvmecfg}
DEV=

command -v fio >/dev/null 2>&1 || fail "fio is not in the guest"

cleanup() {
	[ -n "$DEV" ] && [ -e "/sys/block/$DEV" ] &&
		"$NVMECFG" disconnect --force "$DEV" >/dev/null 2>&1
	[ -n "$DEV" ] && wait_for_path "/sys/block/$DEV" 15 !
	rmmod rblk 2>/dev/null
}
trap cleanup EXIT

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -i 2) || { echo "$dev"; exit "$KSFT_FAIL"; }
DEV=${dev#/dev/}
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
CD=/sys/class/rblk/$ctrl
# A namespace's copies: its path's, under a multipath head.
ST=/sys/block/$(rblk_first_path "$dev")/rblk

cnt() { cat "$CD/$1" || fail "cannot read $CD/$1"; }

reset_ctrl_stats() {
	echo 1 > "$CD/reset_stats" || fail "writing 1 to $CD/reset_stats failed"
	for _c in doorbells commands_posted; do
		[ "$(cnt $_c)" = 0 ] || fail "$_c is $(cnt $_c) after reset_stats"
	done
	[ "$(cnt commands_per_doorbell)" = 0.00 ] ||
		fail "commands_per_doorbell is $(cnt commands_per_doorbell) after reset_stats"
}

# --- one request per dispatch: one doorbell per command ---
reset_ctrl_stats
dd if="$dev" of=/dev/null bs=4k count=100 iflag=direct 2>/dev/null ||
	fail "O_DIRECT reads failed"
[ "$(cnt commands_posted)" = 100 ] ||
	fail "100 synchronous reads posted $(cnt commands_posted) commands"
[ "$(cnt doorbells)" = 100 ] ||
	fail "100 synchronous reads rang $(cnt doorbells) doorbells"
[ "$(cnt commands_per_doorbell)" = 1.00 ] ||
	fail "commands_per_doorbell is $(cnt commands_per_doorbell), expected 1.00"
log "100 synchronous 4 KiB reads: 100 commands, 100 doorbells"

# --- io_uring batches of 16 ---
reset_ctrl_stats
echo 1 > "$ST/reset_stats" || fail "writing 1 to $ST/reset_stats failed"
out=$(fio --name=batch --filename="$dev" --direct=1 --ioengine=io_uring \
	--rw=randwrite --bs=4k --iodepth=32 --iodepth_batch_submit=16 \
	--iodepth_batch_complete_min=16 --size=16M --verify=crc32c \
	--verify_fatal=1 --do_verify=1 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E 'err=|verify|fio:|issued'
[ $rc -eq 0 ] || fail "fio exited $rc"
printf '%s\n' "$out" | grep -q 'err= 0' || fail "fio reported errors"

# fio's own count: 4096 writes of 4 KiB, and its verify reads.
ios=$(printf '%s\n' "$out" | sed -n 's/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p' |
	awk '{ n += $1 + $2 } END { print n + 0 }')
[ "$ios" -ge 4096 ] || fail "fio issued $ios I/Os, expected at least 4096"
posted=$(cnt commands_posted)
bells=$(cnt doorbells)
ratio=$(cnt commands_per_doorbell)
rqs=$(( $(cat "$ST/reads") + $(cat "$ST/writes") ))
log "fio io_uring batch 16: $ios I/Os in $rqs requests, $posted commands in $bells doorbells ($ratio per doorbell)"
if [ "$rqs" -le 0 ] || [ "$rqs" -gt "$ios" ]; then
	fail "the namespace completed $rqs requests for fio's $ios I/Os"
fi
[ "$posted" = "$rqs" ] ||
	fail "$posted commands posted for the $rqs requests the namespace completed"
[ "$bells" -gt 0 ] || fail "no doorbells"
[ $((posted)) -ge $((2 * bells)) ] ||
	fail "commands per doorbell $ratio ($posted / $bells): batches were not posted together"
for a in doorbells commands_posted commands_per_doorbell; do
	[ "$(cat "$ST/$a")" = "$(cnt $a)" ] ||
		fail "$ST/$a is $(cat "$ST/$a"), the controller's $(cnt $a)"
done
json=$("$NVMECFG" stats "$ctrl" -o json) || fail "nvmecfg stats $ctrl failed"
echo "$json" | jq -e ".doorbells == $bells and .commands_posted == $posted and
	.commands_per_doorbell == $ratio" >/dev/null ||
	fail "nvmecfg stats does not report $posted commands in $bells doorbells ($ratio): $json"

# fio wrote the first 16 MiB; the target has the same bytes.
assert_on_target "$dev" "$RBLK_BACKING" 16 "device vs backing store after fio"

rblk_disconnect "$dev"
DEV=
rblk_unload
exit 0

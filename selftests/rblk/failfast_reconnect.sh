#!/bin/sh
# fast_io_fail_tmo around a reconnect: the target comes back close to the
# moment the fast-fail timer of a reset expires (a little before or
# after, at random), and right after the reconnect the controller is reset
# again with the target present.  I/O issued during that second reset is
# held and served, never failed: a fast-fail expiry of the first reset
# (pending or running as the controller went live) must not carry over.
# Also: a keep-alive cancelled by those resets is no failure to report.
# rblk-timeout: 180
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

FIO=4	# fast_io_fail_tmo (s): well above a reset (~1.3 s here)
rblk_load
trap 'nvmet_relink' EXIT
dev=$(rblk_connect "$RBLK_NSID_FILE" -k 1 -c 1 -l 60 --fast_io_fail_tmo $FIO) || exit 1
reset_attr=/sys/class/rblk/$(rblk_ctrl_of "$dev")/reset_controller
dmesg -c > /dev/null
pattern_file /tmp/p 65536
i=0
while [ $i -lt 2 ]; do
	i=$((i + 1))
	nvmet_unlink
	rblk_wait_state "$dev" connecting 10 || fail "$i: state $(rblk_attr "$dev" state), expected connecting"
	# Back between 0.6 s before and 0.6 s after the fast-fail expiry; the
	# reconnect delay (1 s) comes on top.
	usleep $(((FIO * 1000 - 1600 + $(rand_below 1201)) * 1000))
	nvmet_relink
	rblk_wait_state "$dev" live 30 || fail "$i: no reconnect after the target returned"
	echo 1 > "$reset_attr" || fail "$i: reset_controller refused"
	# Issued at once: held through the reset (well within fast_io_fail_tmo).
	off=$((1048576 * i))
	dd if=/tmp/p of="$dev" bs=4096 seek=$((off / 4096)) count=16 oflag=direct \
		conv=notrunc 2>/tmp/dd.err || fail "$i: write during a reset failed: $(cat /tmp/dd.err)"
	rblk_wait_state "$dev" live 30 || fail "$i: not live after the reset"
	read_direct "$dev" "$off" 65536 /tmp/p.back
	assert_same /tmp/p /tmp/p.back "$i: write during the reset"
	read_region "$RBLK_BACKING" "$off" 65536 /tmp/p.store
	assert_same /tmp/p /tmp/p.store "$i: on the target"
done
errs=$(rblk_attr "$dev" errors)
log "$i rounds, $(rblk_attr "$dev" reconnects) reconnects, errors $errs"
[ "$errs" -eq 0 ] || fail "$errs I/O errors, expected none (the target was there for every write)"
if dmesg | grep -q "keep-alive failed"; then
	dmesg | grep "keep-alive failed"
	fail "a keep-alive cancelled by a reset was reported as failed"
fi
rblk_disconnect "$dev"
rblk_unload
exit 0

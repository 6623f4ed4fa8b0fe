#!/bin/sh
# A target that answers with an error status.  fail_make_request (debug
# kernel only; skips on Debian's) fails every bio nvmet sends to the loop
# device behind namespace 3, so nvmet completes rblk's reads and writes
# with Internal Error and DNR.  rblk must fail exactly those I/Os with EIO,
# at once (DNR: no retries), count each under errors_generic, stay live (a
# command error is no transport error: no reconnect), and lose no data:
# the block the failed write aimed at still holds what it held before,
# through rblk and in the backing file; once the target heals, I/O works.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

FMR=/sys/kernel/debug/fail_make_request
LOOP=${RBLK_LOOP_DEV##*/}
MIF=/sys/block/$LOOP/make-it-fail
[ -d "$FMR" ] || skip "no $FMR (kernel without CONFIG_FAIL_MAKE_REQUEST)"
[ -e "$MIF" ] || skip "no $MIF"

set_fmr() { echo "$2" > "$FMR/$1" || fail "cannot set fail_make_request/$1 = $2"; }
cleanup() {
	echo 0 > "$MIF" 2>/dev/null
	echo 0 > "$FMR/probability" 2>/dev/null
	[ -n "${dev:-}" ] && nvmecfg disconnect --force "${dev##*/}" >/dev/null 2>&1
	rblk_unload
}
trap cleanup EXIT

rblk_load
dev=$(rblk_connect "$RBLK_NSID_512") || exit 1

# Known data in the first 64 KiB, then a different pattern to try over it.
pattern_file /tmp/te.a 65536
pattern_file /tmp/te.b 4096
write_direct /tmp/te.a "$dev" 0

# Every bio to the loop device fails, silently (verbose 0: no stack dump).
set_fmr verbose 0
set_fmr task-filter N
set_fmr interval 1
set_fmr space 0
set_fmr times -1
set_fmr probability 100
err0=$(rblk_attr "$dev" errors_generic)
rc0=$(rblk_attr "$dev" reconnects)
echo 1 > "$MIF" || fail "cannot set $MIF"

t0=$(uptime_ms)
dd if=/tmp/te.b of="$dev" bs=4096 seek=3 count=1 oflag=direct conv=notrunc \
	2> /tmp/te.werr && fail "a write succeeded while the target fails every write"
grep -q 'Input/output error' /tmp/te.werr || fail "write: not EIO: $(cat /tmp/te.werr)"
dd if="$dev" of=/dev/null bs=4096 skip=5 count=1 iflag=direct 2> /tmp/te.rerr &&
	fail "a read succeeded while the target fails every read"
grep -q 'Input/output error' /tmp/te.rerr || fail "read: not EIO: $(cat /tmp/te.rerr)"
ms=$(($(uptime_ms) - t0))
log "write and read failed with EIO in $ms ms"
# DNR forbids retries; retrying would take RBLK_MAX_RETRIES round trips,
# waiting out a timeout far longer.
[ "$ms" -lt 20000 ] || fail "errors took $ms ms: retried or timed out instead of failing"

err=$(($(rblk_attr "$dev" errors_generic) - err0))
[ "$err" -eq 2 ] || fail "errors_generic moved by $err, expected 2 (one write, one read)"
st=$(rblk_attr "$dev" state)
[ "$st" = live ] || fail "state $st after command errors, expected live"
[ "$(rblk_attr "$dev" reconnects)" -eq "$rc0" ] ||
	fail "command errors made the controller reconnect"

echo 0 > "$MIF" || fail "cannot clear $MIF"
set_fmr probability 0

# Nothing of the failed write reached the target.
read_direct "$dev" 0 65536 /tmp/te.back
assert_same /tmp/te.a /tmp/te.back "after the failed write, through rblk"
read_region "$RBLK_BACKING_512" 0 65536 /tmp/te.file
assert_same /tmp/te.a /tmp/te.file "after the failed write, backing file"

# The target healed: the same write now lands.
write_direct /tmp/te.b "$dev" 12288
read_direct "$dev" 12288 4096 /tmp/te.back
assert_same /tmp/te.b /tmp/te.back "write after the target healed"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

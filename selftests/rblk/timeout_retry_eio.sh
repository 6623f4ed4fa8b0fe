#!/bin/sh
# A command the target never answers: its namespace sits on dm-delay whose
# delay is raised far above io_timeout.  Each timeout resets the controller
# and spends one retry; after RBLK_MAX_RETRIES retries the command ends
# with EIO (not a reset loop forever), within a bound computed from the
# timeouts.  Meanwhile another namespace's I/O is only held (aborted by the
# resets, not failed: no retry spent); the controller is live afterwards.
# Once the delayed writes are let through they land where they were sent
# and nowhere else (the target cannot abort them: they arrive late, as with
# nvme-rdma), and what rblk reads is what the backing store holds.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

IO_TMO=1		# rblk io_timeout (s)
RETRIES=5		# RBLK_MAX_RETRIES (kmod/rblk.h)
DELAY=1		# reconnect_delay (s)
NSID=9
MIB=8

IMG=/tmp/delay.img
trap delay_ns_destroy EXIT
delay_ns_create $NSID $MIB

# multipath=N: a namespace's own device spends a retry per timeout.  With
# a head (the default) a timed-out command fails over and comes back as a
# new request, as in nvme-core: retries do not cross a failover, and only
# ctrl_loss_tmo bounds it (Documentation/multipath.rst, "When a path
# fails").
rblk_load multipath=N io_timeout=$IO_TMO
all=$(rblk_connect_all -k 5 -c $DELAY -l 120) || { echo "$all"; exit 1; }
ctrl=$(echo "$all" | head -n 1)
dev=$(rblk_ns_dev "$ctrl" $NSID) || fail "no device for namespace $NSID: $all"
other=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_FILE") || fail "no device for namespace $RBLK_NSID_FILE"

# Undelayed, the namespace works.
pattern_file /tmp/b 65536
write_direct /tmp/b "$dev" 1048576
read_direct "$dev" 1048576 65536 /tmp/b.back
assert_same /tmp/b /tmp/b.back "write before the delay"
pattern_file /tmp/o 1048576
write_direct /tmp/o "$other" 0

must delay_ns_set 600000
to0=$(rblk_attr "$dev" timeouts)
ep0=$(rblk_attr "$dev" errors_path)
re0=$(rblk_attr "$dev" reconnects)

# The other namespace keeps verifying its data while the resets go on.
(
	i=0
	while [ ! -e /tmp/delay.done ] && [ $i -lt 5000 ]; do
		pattern_file /tmp/o2 65536
		dd if=/tmp/o2 of="$other" bs=4096 seek=512 count=16 oflag=direct \
			conv=notrunc 2>/dev/null || { echo "write $i failed"; exit 1; }
		dd if="$other" of=/tmp/o2.back bs=4096 skip=512 count=16 \
			iflag=direct 2>/dev/null || { echo "read $i failed"; exit 1; }
		cmp -s /tmp/o2 /tmp/o2.back || { echo "data $i differs"; exit 1; }
		i=$((i + 1))
	done
	echo "$i rounds"
) > /tmp/other.log 2>&1 &
opid=$!

pattern_file /tmp/c 4096
rm -f /tmp/delay.done
t0=$(uptime_ms)
out=$(timeout 150 dd if=/tmp/c of="$dev" bs=4096 seek=1024 count=1 oflag=direct \
	conv=notrunc 2>&1) && fail "a write the target never answers succeeded"
ms=$(($(uptime_ms) - t0))
: > /tmp/delay.done
echo "$out" | grep -qE "Input/output error|I/O error" || fail "expected EIO, got: $out"
to=$(($(rblk_attr "$dev" timeouts) - to0))
re=$(($(rblk_attr "$dev" reconnects) - re0))
log "write failed after ${ms} ms, $to timeouts, $re reconnects"
# Each try waits io_timeout (blk-mq rounds its timer up to the next second),
# then a reset; the reconnect delay and the reconnect itself come between
# tries.  10 s of slack per try for a loaded TCG guest.
min=$(((RETRIES + 1) * IO_TMO * 1000))
max=$(((RETRIES + 1) * (IO_TMO + 1 + DELAY + 10) * 1000))
[ "$ms" -ge "$min" ] || fail "failed after ${ms} ms: fewer than $((RETRIES + 1)) tries of ${IO_TMO} s"
[ "$ms" -le "$max" ] || fail "failing took ${ms} ms, bound ${max} ms"
[ "$to" -eq $((RETRIES + 1)) ] || fail "$to timeouts of the write, expected $((RETRIES + 1))"
ep=$(($(rblk_attr "$dev" errors_path) - ep0))
[ "$ep" -eq 1 ] || fail "errors_path grew by $ep, expected 1 (the write, Host Aborted Command)"
dmesg | grep -q "failed after $RETRIES retries" || fail "no 'failed after $RETRIES retries' message"
# Each try went out with its own command id: the same tag (low 12 bits),
# another generation (the timeout message names the id that was sent).
cids=$(dmesg | sed -n "s/.*: command \(0x[0-9a-f]*\) (opcode 0x1, ${dev##*/}) timed out.*/\1/p")
[ "$(echo "$cids" | sort -u | wc -l)" -eq $((RETRIES + 1)) ] ||
	fail "timed-out command ids not one per try: $cids"
[ "$(for c in $cids; do echo $((c & 0xfff)); done | sort -u | wc -l)" -eq 1 ] ||
	fail "timed-out command ids of different tags: $cids"

wait "$opid" || fail "I/O on namespace $RBLK_NSID_FILE failed during the resets: $(cat /tmp/other.log)"
log "namespace $RBLK_NSID_FILE during the resets: $(cat /tmp/other.log)"
rblk_wait_state "$dev" live 30 || fail "controller $(rblk_attr "$dev" state), not live again"

# Let the delayed writes through: they land at their own LBA, nowhere else.
must delay_ns_set 0
cp /tmp/delay-orig.img /tmp/delay-want.img
dd if=/tmp/b of=/tmp/delay-want.img bs=4096 seek=256 conv=notrunc 2>/dev/null
dd if=/tmp/c of=/tmp/delay-want.img bs=4096 seek=1024 conv=notrunc 2>/dev/null
assert_same "$IMG" /tmp/delay-want.img "backing store after the late writes"
assert_on_target "$dev" "$IMG" $MIB "namespace $NSID after recovery"
read_direct "$other" 0 1048576 /tmp/o.back
cmp -s /tmp/o /tmp/o.back || fail "namespace $RBLK_NSID_FILE data changed"
# And new I/O works again.
write_direct /tmp/b "$dev" 2097152
read_direct "$dev" 2097152 65536 /tmp/b.back
assert_same /tmp/b /tmp/b.back "I/O after recovery"
rm -f /tmp/delay-want.img /tmp/delay.done
exit 0

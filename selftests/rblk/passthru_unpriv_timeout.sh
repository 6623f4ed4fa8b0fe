#!/bin/sh
# A reader's passthrough timeout resets no one (issue 44, finding 3).  A
# user with read access only to /dev/rblkN and /dev/rblk-ctrlM, without
# CAP_SYS_ADMIN, sends commands with timeout_ms 1 to a namespace that
# answers in 30 ms (dm-delay).  nvme-core would take the 1 ms, and each
# timeout would reset the controller for every user of it; rblk ignores an
# unprivileged caller's timeout (the command has io_timeout, admin_timeout
# for admin commands):
#  - 1000 Reads through NVME_IOCTL_IO_CMD and IO64_CMD on the block
#    device, with 250 Identify Namespace through ADMIN_CMD and
#    ADMIN64_CMD, 100 Reads through the controller's character device and
#    10 "nvme io-passthru --timeout=1": all succeed, with the backing
#    store's data; timeouts, reconnect_attempts and reconnects unchanged,
#    still live;
#  - control: the same Read from root, 1 ms, the namespace answering in
#    3 s, still has its short timeout: EINTR (recovery cancelled it), one
#    reconnect.  This also shows that a 1 ms timeout does reset the
#    controller here, so the first part can fail.
# Without that rule the first part fails within a second or two: blk-mq's
# timeout timer fires on whole seconds, a Read of the loop is in flight
# nearly all the time, its 1 ms deadline long past: a timeout, a reset,
# and the Read ends with EINTR.
# 1000 Reads at 30 ms take about 35 s of a slow TCG guest because one
# process sends them (passthru_fuzz --read-loop): an nvme-cli per Read
# would cost the guest more than the Read, hence only 10 of those.
# rblk-timeout: 240
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

USER_NAME=rblkto
USER_UID=4244
NSID=9
MIB=8
DELAY_MS=30	# the namespace's answer: far above 1 ms, far below io_timeout
READS=1000
SLBA=2048	# 1 MiB in (512-byte blocks)
NB=8		# 4 KiB per Read
T=/tmp/passthru_unpriv

cleanup() {
	delay_ns_destroy
	rblk_unload 2>/dev/null
	sed -i "/^$USER_NAME:/d" /etc/passwd /etc/group 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
command -v su > /dev/null || fail "no su in the guest to drop privileges"
command -v nvme > /dev/null || fail "no nvme-cli in the guest"
command -v passthru_fuzz > /dev/null || fail "passthru_fuzz missing from the guest"
mkdir -p "$T" && chmod 777 "$T"

delay_ns_create $NSID $MIB
rblk_load
all=$(rblk_connect_all -c 1 -l 60) || { echo "$all"; exit 1; }
ctrl=$(echo "$all" | head -n 1)
dev=$(rblk_ns_dev "$ctrl" $NSID) || fail "no device for namespace $NSID: $all"
cdev=/dev/$ctrl
CD=/sys/class/rblk/$ctrl
wait_for_path "$cdev" 10 -c || fail "$cdev is no character device"
read_region /tmp/delay.img $((SLBA * 512)) $((NB * 512)) "$T/want"

grep -q "^$USER_NAME:" /etc/passwd ||
	echo "$USER_NAME:x:$USER_UID:$USER_UID::/tmp:/bin/sh" >> /etc/passwd
grep -q "^$USER_NAME:" /etc/group || echo "$USER_NAME:x:$USER_UID:" >> /etc/group
# as_user CMD ARGS...: CMD as the reader, its output in $T/u.  "--": su
# must not take CMD's options for its own.
as_user() {
	# shellcheck disable=SC2016 # expanded by the user's shell
	su -p -s /bin/sh -c 'exec "$0" "$@"' -- "$USER_NAME" "$@" > "$T/u" 2>&1
}
as_user id -u
[ "$(cat "$T/u")" = "$USER_UID" ] || fail "cannot run commands as uid $USER_UID: $(cat "$T/u")"
# Read access only.
chmod 604 "$dev" "$cdev"
# shellcheck disable=SC2016 # expanded by the user's shell
as_user sh -c ': >> "$0"' "$dev" && fail "the reader may open $dev for writing"

counters() {
	echo "timeouts $(cat "$CD/timeouts") reconnect_attempts" \
		"$(cat "$CD/reconnect_attempts") reconnects $(cat "$CD/reconnects")"
}

must delay_ns_set $DELAY_MS
# The namespace answers slower than 1 ms: ten reads take 10 * DELAY_MS.
t0=$(uptime_ms)
for i in 1 2 3 4 5 6 7 8 9 10; do
	read_direct "$dev" $((SLBA * 512)) 4096 "$T/g"
done
ms=$(($(uptime_ms) - t0))
[ "$ms" -ge $((10 * DELAY_MS)) ] || fail "ten reads took $ms ms: the namespace is not delayed by $DELAY_MS ms"
before=$(counters)

# --- the reader: 1 ms asked, the default given ---
t0=$(uptime_ms)
as_user timeout 150 passthru_fuzz --read-loop "$dev" $NSID $READS 1 $SLBA $NB 512 "$T/loop" ||
	fail "the reader's 1 ms Reads on $dev: $(cat "$T/u"); $(counters), was $before"
ms=$(($(uptime_ms) - t0))
grep -qx "reads $READS identifies $((READS / 4))" "$T/u" || fail "read loop on $dev: $(cat "$T/u")"
# dm-delay's timer may fire up to a tick early: 2 ms of slack a Read.
[ "$ms" -ge $((READS * (DELAY_MS - 2))) ] ||
	fail "$READS Reads took $ms ms: not each delayed by $DELAY_MS ms"
assert_same "$T/want" "$T/loop" "the reader's Read on $dev, against the backing store"
log "$dev: $(cat "$T/u") with timeout_ms 1 in $ms ms"

as_user timeout 60 passthru_fuzz --read-loop "$cdev" $NSID 100 1 $SLBA $NB 512 "$T/cloop" ||
	fail "the reader's 1 ms Reads on $cdev: $(cat "$T/u"); $(counters), was $before"
assert_same "$T/want" "$T/cloop" "the reader's Read on $cdev, against the backing store"
log "$cdev: $(cat "$T/u") with timeout_ms 1"

i=0
while [ $i -lt 10 ]; do
	rm -f "$T/n"
	as_user timeout 60 nvme io-passthru "$dev" --opcode=0x02 --namespace-id=$NSID \
		--cdw10=$SLBA --cdw12=$((NB - 1)) --data-len=$((NB * 512)) --timeout=1 \
		-r -i "$T/n" ||
		fail "the reader's nvme io-passthru --timeout=1 ($i): $(cat "$T/u"); $(counters), was $before"
	assert_same "$T/want" "$T/n" "the reader's nvme io-passthru read $i"
	i=$((i + 1))
done
log "nvme io-passthru --timeout=1: 10 Reads"

after=$(counters)
[ "$after" = "$before" ] ||
	fail "after the reader's 1 ms commands: $after, was $before: $(dmesg | grep 'timed out' | head -n 3)"
[ "$(cat "$CD/state")" = live ] || fail "state $(cat "$CD/state") after the reader's commands"
log "no timeout, no reset: $after"

# --- control: root's 1 ms is honoured, and resets the controller ---
must delay_ns_set 3000
re0=$(cat "$CD/reconnects")
t0=$(uptime_ms)
timeout 60 passthru_fuzz --read-loop "$dev" $NSID 1 1 $SLBA $NB 512 "$T/root" > "$T/r" 2>&1 &&
	fail "root's Read with timeout_ms 1 succeeded after $(($(uptime_ms) - t0)) ms: its timeout was not honoured"
ms=$(($(uptime_ms) - t0))
grep -q "read 0: Interrupted system call" "$T/r" ||
	fail "root's 1 ms Read: $(cat "$T/r"); expected EINTR (the recovery its timeout started cancelled it)"
rblk_wait_state "$dev" live 30 || fail "not live again after root's timeout: $(cat "$CD/state")"
# LIVE is set a moment before the count goes up.
wait_until 10 sh -c "[ \$(cat $CD/reconnects) -gt $re0 ]" ||
	fail "reconnects $(cat "$CD/reconnects") after root's timeout, was $re0"
[ "$(cat "$CD/reconnects")" -eq $((re0 + 1)) ] ||
	fail "reconnects $(cat "$CD/reconnects") after root's timeout, was $re0"
log "root's 1 ms Read: EINTR after $ms ms, one reconnect"

must delay_ns_set 0
passthru_fuzz --read-loop "$dev" $NSID 4 0 $SLBA $NB 512 "$T/root" > "$T/r" 2>&1 ||
	fail "Reads after root's timeout: $(cat "$T/r")"
assert_same "$T/want" "$T/root" "Read after root's timeout"
exit 0

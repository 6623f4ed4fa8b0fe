#!/bin/sh
# A namespace whose LBA format changes while the controller is away: nvmet
# namespace 8 is backed by a 512-byte null_blk; the port goes down, writes
# are queued on the device (one 512-byte write that the new format cannot
# hold, one 4 KiB write), the namespace is switched to a 4096-byte
# null_blk, and the port comes back.  After the reconnect the device has
# 4096-byte blocks, the 512-byte write failed instead of landing on the
# wrong block, the 4 KiB write is at its byte offset on the new device,
# and nothing else was written there.  Then, across another outage, the
# namespace is deleted and re-created (same nsid, new identity): the old
# device goes and a new one comes with the new uuid.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NSID=8
NS_DIR=$RBLK_NVMET_SUBSYS/namespaces/$NSID
NULLB_CFS=/sys/kernel/config/nullb
pids=

cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	nvmet_relink
	if [ -d "$NS_DIR" ]; then
		echo 0 > "$NS_DIR/enable"
		rmdir "$NS_DIR"
	fi
	for n in fmt512 fmt4k; do
		[ -d "$NULLB_CFS/$n" ] || continue
		echo 0 > "$NULLB_CFS/$n/power"
		rmdir "$NULLB_CFS/$n"
	done
	rm -f /tmp/fmt.*
}
trap cleanup EXIT

# mk_nullb NAME BS: a memory-backed 64 MiB null_blk; prints /dev/NAME.
mk_nullb() {
	mkdir "$NULLB_CFS/$1" || fail "cannot create null_blk $1"
	echo "$2" > "$NULLB_CFS/$1/blocksize" &&
	echo 64 > "$NULLB_CFS/$1/size" &&
	echo 1 > "$NULLB_CFS/$1/memory_backed" &&
	echo 1 > "$NULLB_CFS/$1/power" || fail "cannot configure null_blk $1"
	# null_blk names a configfs device after its directory.
	_d=/dev/$1
	wait_for_path "$_d" 10 -b || fail "$_d did not appear"
	echo "$_d"
}

[ -d "$NULLB_CFS" ] || skip "null_blk has no configfs interface"
n512=$(mk_nullb fmt512 512) || { echo "$n512"; exit "$KSFT_FAIL"; }
n4k=$(mk_nullb fmt4k 4096) || { echo "$n4k"; exit "$KSFT_FAIL"; }
mkdir "$NS_DIR" && echo "$n512" > "$NS_DIR/device_path" &&
	echo 1 > "$NS_DIR/enable" || fail "cannot create nvmet namespace $NSID"

rblk_load
dev=$(rblk_connect "$NSID" -k 1 -c 1 -l 60) || { echo "$dev"; exit "$KSFT_FAIL"; }
lbs() { cat "/sys/block/${dev##*/}/queue/logical_block_size"; }
[ "$(lbs)" -eq 512 ] || fail "$dev has $(lbs)-byte blocks, want 512"
uuid=$(rblk_attr "$dev" uuid)

# Works in the old format, at its byte offsets.
pattern_file /tmp/fmt.a 8192
write_direct /tmp/fmt.a "$dev" 1048576
read_region "$n512" 1048576 8192 /tmp/fmt.got
assert_same /tmp/fmt.a /tmp/fmt.got "512-byte format write vs $n512"

# --- the port goes away; writes queue up on the device ---
nvmet_unlink
rblk_wait_state "$dev" connecting 15 || fail "state $(rblk_attr "$dev" state), expected connecting"
dd if=/dev/urandom of=/tmp/fmt.small bs=512 count=1 2>/dev/null
dd if=/tmp/fmt.small of="$dev" bs=512 seek=1 count=1 oflag=direct conv=notrunc \
	> /tmp/fmt.small.out 2>&1 &
psmall=$!
pattern_file /tmp/fmt.big 4096
dd if=/tmp/fmt.big of="$dev" bs=4096 seek=512 count=1 oflag=direct conv=notrunc \
	> /tmp/fmt.big.out 2>&1 &
pbig=$!
pids="$psmall $pbig"
sleep 2
kill -0 "$psmall" 2>/dev/null && kill -0 "$pbig" 2>/dev/null ||
	fail "writes completed while the controller was away"

# --- the namespace gets a 4096-byte format, same identity ---
echo 0 > "$NS_DIR/enable" && echo "$n4k" > "$NS_DIR/device_path" &&
	echo 1 > "$NS_DIR/enable" || fail "cannot switch namespace $NSID to $n4k"
nvmet_relink
rblk_wait_state "$dev" live 30 || fail "state $(rblk_attr "$dev" state) 30 s after the port came back"

rc_small=0; wait "$psmall" || rc_small=$?
rc_big=0; wait "$pbig" || rc_big=$?
pids=
cat /tmp/fmt.small.out /tmp/fmt.big.out
[ "$(lbs)" -eq 4096 ] || fail "$dev still has $(lbs)-byte blocks"
[ "$(rblk_attr "$dev" uuid)" = "$uuid" ] || fail "$dev changed identity"
[ "$rc_small" -ne 0 ] || fail "a 512-byte write succeeded on a 4096-byte namespace"
[ "$rc_big" -eq 0 ] || fail "the 4 KiB write held across the reconnect failed"

# The held 4 KiB write is at byte 2 MiB of the new device; nothing else in
# the first 4 MiB was written (the 512-byte one must not have landed at
# LBA 1, byte 4096).
read_region "$n4k" 2097152 4096 /tmp/fmt.got
assert_same /tmp/fmt.big /tmp/fmt.got "held 4 KiB write vs $n4k"
dd if=/dev/zero of=/tmp/fmt.zero bs=4096 count=512 2>/dev/null
read_region "$n4k" 0 2097152 /tmp/fmt.got
assert_same /tmp/fmt.zero /tmp/fmt.got "first 2 MiB of $n4k (stray old-format write?)"

# And new I/O uses the new format.
pattern_file /tmp/fmt.c 65536
write_direct /tmp/fmt.c "$dev" 3145728
read_region "$n4k" 3145728 65536 /tmp/fmt.got
assert_same /tmp/fmt.c /tmp/fmt.got "4096-byte format write vs $n4k"
read_direct "$dev" 3145728 65536 /tmp/fmt.got
assert_same /tmp/fmt.c /tmp/fmt.got "read back through $dev"

# --- across another outage the namespace is replaced: new identity ---
ctrl=$(rblk_ctrl_of "$dev")
nvmet_unlink
rblk_wait_state "$dev" connecting 15 || fail "state $(rblk_attr "$dev" state), expected connecting"
echo 0 > "$NS_DIR/enable" && rmdir "$NS_DIR" && mkdir "$NS_DIR" &&
	echo "$n4k" > "$NS_DIR/device_path" && echo 1 > "$NS_DIR/enable" ||
	fail "cannot re-create namespace $NSID"
new_uuid=$(cat "$NS_DIR/device_uuid")
[ "$new_uuid" != "$uuid" ] || fail "nvmet kept the uuid of the re-created namespace"
nvmet_relink
rblk_wait_state "$dev" live 30 2>/dev/null
i=0
new=
while [ $i -lt 300 ]; do
	new=$(rblk_ns_dev "$ctrl" "$NSID") && [ "$(rblk_attr "$new" uuid 2>/dev/null)" = "$new_uuid" ] && break
	new=
	usleep 100000
	i=$((i + 1))
done
[ -n "$new" ] || fail "no device with the new identity of namespace $NSID"
# The name may come back (the index is free again): the old disk must have
# been deleted, not kept with a new uuid.
dmesg | grep -q "${dev##*/}: namespace $NSID removed" ||
	fail "$dev of the old identity was not removed"
log "namespace $NSID with a new identity: $dev removed, $new added"
read_direct "$new" 3145728 65536 /tmp/fmt.got
assert_same /tmp/fmt.c /tmp/fmt.got "$new reads the data on $n4k"
dev=$new

rblk_disconnect "$dev"
rblk_unload
exit 0

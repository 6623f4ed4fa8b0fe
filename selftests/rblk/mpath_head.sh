#!/bin/sh
# Namespace heads (issue 27, multipath steps 5 and 6, before failover),
# with rblk.multipath=Y against nvme-rdma's native multipath in the same
# boot:
#  - one controller: the namespace is /dev/rblkN, a bio-based head whose
#    only path is the hidden rblkNcM under the controller (no device
#    node); the head has the path's identifiers, block sizes and transfer
#    limits, sits under its rblk-subsysK and links the path in multipath/;
#    data written through it is read back and is on the target, also
#    1 MiB I/O split to the path's limits and across a controller reset;
#    it counts its own I/O statistics; nvme-cli's id-ns and read work on
#    it through the path;
#  - a second controller over another port joins the same heads: still
#    one /dev/rblkN per namespace (nvme-rdma: one nvmeXnY), two links;
#    the data stays the same through either path alone, the head staying
#    while one path is disconnected and going with the last;
#  - rmmod with a head of two paths connected.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

SVC2=$NVMET_SVC2

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mh.pat /tmp/mh.pat2 /tmp/mh.blk /tmp/mh.got
}
trap cleanup EXIT

nvmet_port2_add

rblk_load multipath=1
[ "$(cat /sys/module/rblk/parameters/multipath)" = Y ] ||
	fail "multipath parameter reads '$(cat /sys/module/rblk/parameters/multipath)'"

# paths DEV: the names of the head's paths, sorted.
paths() { ls "/sys/block/${1##*/}/multipath" 2>/dev/null | sort | tr '\n' ' '; }
# heads: the rblk block devices users see.
# disks ERE: the names in /sys/block that match, one a line, sorted.
disks() { for _d in /sys/block/*; do echo "${_d##*/}"; done | grep -E "$1" | sort; }
heads() { disks '^rblk[0-9]+$' | tr '\n' ' '; }

out=$(rblk_connect_port "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
A=$(echo "$out" | head -n 1)
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A: $out"
h=${dev##*/}
wait_for_path "$dev" 10 -b || fail "no device node $dev"
echo "$out" | grep -qx "$h" || fail "connect printed '$out', not $h"
p=$(paths "$h")
set -- $p
[ "$#" -eq 1 ] || fail "$h has paths '$p', expected one"
pa=$1
case $pa in "${h}c"[0-9]*) ;; *) fail "path of $h is named $pa" ;; esac
[ "$(readlink -f "/sys/block/$h/multipath/$pa")" = "$(readlink -f "/sys/class/rblk/$A/$pa")" ] ||
	fail "$h/multipath/$pa does not lead to $A's $pa"
[ ! -e "/dev/$pa" ] || fail "hidden path $pa has a device node"
S=$(readlink "/sys/block/$h/device") || fail "$h has no parent device"
case ${S##*/} in rblk-subsys[0-9]*) ;; *) fail "$h's device is $S, not a subsystem" ;; esac
[ -L "/sys/class/rblk-subsystem/${S##*/}/$A" ] || fail "${S##*/} does not link $A"
for f in nsid wwid uuid nguid; do
	[ -f "/sys/block/$pa/$f" ] || continue
	[ "$(cat "/sys/block/$h/$f")" = "$(cat "/sys/block/$pa/$f")" ] ||
		fail "$f: head $(cat "/sys/block/$h/$f"), path $(cat "/sys/block/$pa/$f")"
done
[ "$(cat "/sys/block/$h/nsid")" = "$RBLK_NSID_FILE" ] || fail "$h nsid $(cat "/sys/block/$h/nsid")"
for f in logical_block_size physical_block_size max_hw_sectors_kb max_segments \
	 discard_max_hw_bytes write_cache; do
	[ "$(cat "/sys/block/$h/queue/$f")" = "$(cat "/sys/block/$pa/queue/$f")" ] ||
		fail "queue/$f: head $(cat "/sys/block/$h/queue/$f"), path $(cat "/sys/block/$pa/queue/$f")"
done
[ "$(cat "/sys/block/$h/size")" = "$(cat "/sys/block/$pa/size")" ] ||
	fail "size: head $(cat "/sys/block/$h/size"), path $(cat "/sys/block/$pa/size")"
[ "$(cat "/sys/block/$h/size")" -gt 0 ] || fail "$h has no capacity"
log "$A: $h, one path $pa under ${S##*/}, the path's identifiers and limits"

# Data: 4 KiB and 1 MiB I/O (split to the path's max_hw_sectors), on the
# target too.
pattern_file /tmp/mh.pat 4194304
dd if=/tmp/mh.pat of="$dev" bs=1M seek=1 oflag=direct conv=notrunc 2>/dev/null ||
	fail "1 MiB writes through $h failed"
dd if="$dev" of=/tmp/mh.got bs=1M skip=1 count=4 iflag=direct 2>/dev/null ||
	fail "1 MiB reads through $h failed"
assert_same /tmp/mh.pat /tmp/mh.got "4 MiB written through $h and read back"
read_region "$RBLK_BACKING" 1048576 4194304 /tmp/mh.got
assert_same /tmp/mh.pat /tmp/mh.got "written through $h, on the target"
w0=$(cat "/sys/block/$pa/rblk/writes" 2>/dev/null || echo 0)
dd if=/dev/urandom of=/tmp/mh.pat2 bs=4096 count=1 2>/dev/null
dd if=/tmp/mh.pat2 of="$dev" bs=4096 seek=7 oflag=direct conv=notrunc 2>/dev/null ||
	fail "4 KiB write through $h failed"
read_direct "$dev" 28672 4096 /tmp/mh.got
assert_same /tmp/mh.pat2 /tmp/mh.got "4 KiB written through $h"
[ "$(cat "/sys/block/$pa/rblk/writes")" -gt "$w0" ] ||
	fail "$pa counted no write for the head's"

# The head's own I/O statistics (iostat), as nvme's head counts them.
# shellcheck disable=SC2046 # the stat fields, one an argument
set -- $(cat "/sys/block/$h/stat")
[ "$1" -gt 0 ] && [ "$5" -gt 0 ] || fail "$h stat counts reads $1, writes $5 after I/O"
[ "$9" -eq 0 ] || fail "$h stat has $9 I/O in flight when idle"
# Passthrough on the head goes through a path (nvme-cli's id-ns, io).
[ "$(nvme id-ns "$dev" | md5sum)" = "$(nvme id-ns "/dev/$A" -n "$RBLK_NSID_FILE" | md5sum)" ] ||
	fail "nvme id-ns $dev differs from /dev/$A -n $RBLK_NSID_FILE"
lbs=$(cat "/sys/block/$h/queue/logical_block_size")
nvme read "$dev" -s $((28672 / lbs)) -c 0 -z "$lbs" -d /tmp/mh.got > /dev/null 2>&1 ||
	fail "nvme read through $h failed"
dd if=/tmp/mh.pat2 of=/tmp/mh.blk bs="$lbs" count=1 2>/dev/null
cmp -s /tmp/mh.got /tmp/mh.blk || fail "nvme read at byte 28672 through $h is not what was written"

# A reset: I/O written meanwhile is held by the path and lands.
echo 1 > "/sys/class/rblk/$A/reset_controller" || fail "reset_controller refused"
write_direct /tmp/mh.pat "$dev" 8388608 &
wpid=$!
if ! wait_until 60 exited "$wpid"; then
	for d in "$h" "$pa"; do echo "DBG $d inflight $(cat /sys/block/$d/inflight) state $(cat /sys/block/$d/rblk/state 2>/dev/null) outstanding $(cat /sys/block/$d/rblk/outstanding 2>/dev/null)"; done
	echo w > /proc/sysrq-trigger; sleep 1; dmesg | tail -60
	fail "a write across the reset did not complete in 60 s"
fi
wait "$wpid" || fail "a write across the reset failed"
rblk_wait_state "$pa" live 30 || fail "$A not live after the reset"
read_region "$RBLK_BACKING" 8388608 4194304 /tmp/mh.got
assert_same /tmp/mh.pat /tmp/mh.got "written through $h across a reset, on the target"
log "data through $h: read back, on the target, across a reset"

# A second path: the same heads.
heads0=$(heads)
out=$(rblk_connect_port "$SVC2") || exit "$KSFT_FAIL"
B=$(echo "$out" | head -n 1)
[ "$B" != "$A" ] || fail "port 2 gave $A again"
echo "$out" | grep -qx "$h" || fail "connect over port 2 printed '$out', not $h"
p=$(paths "$h")
set -- $p
[ "$#" -eq 2 ] || fail "$h has paths '$p' after a second connect"
pb=
for x in "$@"; do [ "$x" != "$pa" ] && pb=$x; done
[ -e "/sys/class/rblk/$B/$pb" ] || fail "path $pb is not $B's"
[ "$(heads)" = "$heads0" ] || fail "block devices '$(heads)' after a second path, were '$heads0'"
[ "$(readlink "/sys/block/$h/device")" = "$S" ] || fail "$h moved to $(readlink "/sys/block/$h/device")"

if nvme_native_mpath; then
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$SVC2" -n "$RBLK_NQN"
	nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE" > /dev/null || fail "nvme-rdma did not connect"
	# nvme-rdma adds its namespaces one by one: wait for the counts to agree.
	nr=$(disks '^rblk[0-9]+$' | grep -c .)
	rp=$(disks '^rblk[0-9]+c[0-9]+$' | grep -c .)
	same_counts() {
		nn=$(disks '^nvme[0-9]+n[0-9]+$' | grep -c .)
		np=$(disks '^nvme[0-9]+c[0-9]+n[0-9]+$' | grep -c .)
		[ "$nn" = "$nr" ] && [ "$np" = "$rp" ]
	}
	wait_until 10 same_counts ||
		fail "nvme-rdma shows $nn namespace devices over $np paths, rblk $nr over $rp"
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma
	log "$B joined $h: paths $p; nvme-rdma: $nn namespace devices over $np paths, as rblk"
else
	log "$B joined $h: paths $p (nvme_core without native multipath: no reference)"
fi

# One path left, then the other: the head and its data stay.
must nvmecfg disconnect "$A"
wait_until 10 sh -c "[ ! -e /sys/class/rblk/$A ]" || fail "$A still there"
[ -b "$dev" ] || fail "$dev went with $A, $B still serves it"
[ "$(paths "$h")" = "$pb " ] || fail "$h paths '$(paths "$h")' after $A left"
read_direct "$dev" 1048576 4194304 /tmp/mh.got
assert_same /tmp/mh.pat /tmp/mh.got "read through $h over $B alone"
write_direct /tmp/mh.pat "$dev" 16777216
read_region "$RBLK_BACKING" 16777216 4194304 /tmp/mh.got
assert_same /tmp/mh.pat /tmp/mh.got "written through $h over $B alone, on the target"
out=$(rblk_connect_port "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
A=$(echo "$out" | head -n 1)
must nvmecfg disconnect "$B"
wait_until 10 sh -c "[ ! -e /sys/class/rblk/$B ]" || fail "$B still there"
[ -b "$dev" ] || fail "$dev went with $B, $A serves it again"
read_direct "$dev" 16777216 4194304 /tmp/mh.got
assert_same /tmp/mh.pat /tmp/mh.got "read through $h over the new $A"
must nvmecfg disconnect "$A"
wait_for_path "/sys/block/$h" 10 ! || fail "$h still there after its last path left"
[ -z "$(heads)" ] || fail "block devices left: $(heads)"
log "one path at a time kept $h and its data; the last disconnect removed it"

# rmmod with a two-path head.
rblk_connect_port "$RBLK_TRSVCID" > /dev/null || exit "$KSFT_FAIL"
rblk_connect_port "$SVC2" > /dev/null || exit "$KSFT_FAIL"
[ "$(echo "$(heads)" | wc -w)" -eq "$(echo "$heads0" | wc -w)" ] ||
	fail "block devices '$(heads)' after connecting two paths again, were '$heads0'"
timeout 60 rmmod rblk || fail "rmmod with a two-path head failed or hung"
[ -z "$(heads)" ] || fail "block devices left after rmmod: $(heads)"
log "rmmod with two paths connected: done"
exit 0

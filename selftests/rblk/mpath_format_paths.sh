#!/bin/sh
# A Format NVM through one path of a multipath head (issue 44, finding 2):
# the command changes the namespace for every path of the subsystem, so
# rblk holds the I/O of the subsystem's other paths while it runs and scans
# every controller again after it (nvme-core freezes and rescans only the
# issuing controller).  nvmet refuses Format NVM (Invalid Opcode), but the
# freeze and the scans run all the same, as for an accepted one; traced
# (kmod/trace.h) with two paths and round-robin I/O through the head:
#  - between the Format's submission on A and its completion, no I/O
#    command is sent on either path;
#  - after it, both A and B send Identify commands (their scans), before
#    the ioctl returns;
#  - a verifying writer through the head sees no error across three
#    Formats, and what it wrote is on the target.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

TR=/sys/kernel/tracing
OUT=/tmp/mfp.trace

cleanup() {
	[ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null
	[ -d "$TR/events/rblk" ] && echo 0 > "$TR/events/rblk/enable"
	echo > "$TR/trace" 2>/dev/null
	echo 1 > "$TR/tracing_on" 2>/dev/null
	echo 1408 > "$TR/buffer_size_kb" 2>/dev/null
	for c in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$c" ] && nvmecfg disconnect "${c##*/}" > /dev/null 2>&1
	done
	[ -n "${pid:-}" ] && wait_until 10 exited "$pid"
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f "$OUT" /tmp/mfp.f /tmp/mfp.fio
}
trap cleanup EXIT

grep -q " $TR tracefs" /proc/mounts || mount -t tracefs tracefs "$TR" ||
	fail "cannot mount tracefs"
nvmet_port2_add
rblk_load
rblk_two_paths
[ -d "$TR/events/rblk" ] || fail "no rblk events in $TR/events"
ia=${A#rblk-ctrl} ib=${B#rblk-ctrl}
must nvmecfg set-iopolicy "$A" --iopolicy round-robin > /dev/null

fio --name=mfp --filename="$dev" --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=8 --size=8M --time_based --runtime=40 \
	--verify=crc32c --verify_fatal=1 --verify_backlog=64 > /tmp/mfp.fio 2>&1 &
pid=$!
sleep 3
if [ "$(rblk_path_ios "$pa")" -eq 0 ] || [ "$(rblk_path_ios "$pb")" -eq 0 ]; then
	fail "round-robin did not use both paths: $pa $(rblk_path_ios "$pa"), $pb $(rblk_path_ios "$pb")"
fi

for round in 1 2 3; do
	echo 0 > "$TR/tracing_on"
	echo 4096 > "$TR/buffer_size_kb"
	echo > "$TR/trace"
	echo 1 > "$TR/events/rblk/rblk_setup_cmd/enable"
	echo 1 > "$TR/events/rblk/rblk_complete_rq/enable"
	echo 1 > "$TR/tracing_on"
	nvme format "/dev/$A" -n "$RBLK_NSID_FILE" -l 0 --force > /tmp/mfp.f 2>&1 &&
		fail "nvmet took Format NVM: $(cat /tmp/mfp.f)"
	grep -q "NVMe status" /tmp/mfp.f || fail "format failed without an NVMe status: $(cat /tmp/mfp.f)"
	echo 0 > "$TR/tracing_on"
	grep -v '^#' "$TR/trace" > "$OUT"
	grep -q LOST "$OUT" && fail "round $round: the trace lost events"
	# The Format: its submission on A's admin queue, and its completion.
	fl=$(grep -n ": rblk_setup_cmd: rblk-ctrl$ia .*qid=0 .*opcode=0x80 " "$OUT" | head -n 1)
	[ -n "$fl" ] || fail "round $round: no Format NVM traced on $A: $(head -n 5 "$OUT")"
	fstart=${fl%%:*}
	cid=$(echo "$fl" | sed -n 's/.* cmdid=\(0x[0-9a-f]*\) .*/\1/p')
	fend=$(grep -n ": rblk_complete_rq: rblk-ctrl$ia .*qid=0 cmdid=$cid " "$OUT" | head -n 1 | cut -d: -f1)
	[ -n "$fend" ] || fail "round $round: no completion of the Format (cmdid $cid) traced"
	# No I/O command on any path while it ran.
	io=$(sed -n "$fstart,${fend}p" "$OUT" | grep -E ": rblk_setup_cmd: rblk-ctrl($ia|$ib) .*qid=[1-9]" | head -n 3)
	[ -z "$io" ] || fail "round $round: I/O sent while the Format ran: $io"
	# Both controllers scanned after it (Identify on their admin queues).
	for i in "$ia" "$ib"; do
		sed -n "$fend,\$p" "$OUT" | grep -qE ": rblk_setup_cmd: rblk-ctrl$i .*qid=0 .*opcode=0x6 " ||
			fail "round $round: rblk-ctrl$i did not scan its namespaces after the Format"
	done
	log "round $round: Format on $A refused; no I/O on $A or $B while it ran; both scanned after it"
	sleep 2
done

wait "$pid"; rc=$?
pid=
[ "$rc" -eq 0 ] || fail "the writer failed ($rc): $(grep -E 'err=|verify|error' /tmp/mfp.fio | head -n 5)"
grep -q 'err= 0' /tmp/mfp.fio || fail "the writer saw errors: $(grep err= /tmp/mfp.fio)"
assert_on_target "$dev" "$RBLK_BACKING" 8 "what the writer wrote through $dev"
log "the writer through $h saw no error; its data is on the target"
exit 0

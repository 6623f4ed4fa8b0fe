#!/bin/sh
# Limits the block layer is told match what one memory registration and the
# CPUs can serve: 1 MiB O_DIRECT from buffers that are only 512-byte aligned
# (one page more than the length) go through with verify and without any
# error recovery, and asking for more I/O queues than CPUs gives one per CPU.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

rblk_load
ncpu=$(grep -c ^processor /proc/cpuinfo)
dev=$(rblk_connect "$RBLK_NSID_512" -i $((ncpu + 2))) || exit 1
nq=$(rblk_attr "$dev" nr_io_queues)
[ "$nq" -eq "$ncpu" ] || fail "nr_io_queues is $nq with $ncpu CPUs (asked $((ncpu + 2)))"
log "asked $((ncpu + 2)) I/O queues on $ncpu CPUs: got $nq"

out=$(fio --name=unaligned --filename="$dev" --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=1M --iomem_align=512 --iodepth=4 --size=16M \
	--verify=crc32c --verify_fatal=1 --do_verify=1 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E 'err=|verify'
[ $rc -eq 0 ] || fail "fio with 512-byte aligned 1 MiB buffers failed ($rc)"
dmesg | grep -q "error recovery" && fail "unaligned I/O triggered error recovery"
[ "$(rblk_attr "$dev" reconnect_attempts)" -eq 0 ] || fail "reconnects happened"
log "max_hw_sectors_kb $(cat "/sys/block/${dev##*/}/queue/max_hw_sectors_kb")"
rblk_disconnect "$dev"
rblk_unload
exit 0

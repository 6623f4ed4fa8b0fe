#!/bin/sh
# Guest side of `make bench`: the same fio jobs on rblk, on the in-kernel
# nvme-rdma host and on the null_blk device behind both, in one boot.
#
# Both hosts connect to the same nvmet-rdma namespace (nsid 1, null_blk).
# Each job runs on rblk and nvme-rdma twice, in alternating order, so slow
# drift of the TCG guest cancels out. Results are printed as
#   BENCH <device> <job> <round> <fio JSON on one line>
# and turned into a table by scripts/bench-report.py on the host.
# rblk-timeout: 1800
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

RUNTIME=${RBLK_BENCH_RUNTIME:-4}
NQ=2

bench_fail() {
	echo "BENCH-FAIL $*"
	exit 1
}

rblk_load
nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" -N "$RBLK_NSID_NULL" -i $NQ >/dev/null ||
	bench_fail "nvmecfg connect"
wait_for_path /dev/rblk0 10 -b || bench_fail "/dev/rblk0 did not appear"

modprobe nvme-rdma || bench_fail "modprobe nvme-rdma"
nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" \
	-i $NQ >/dev/null || bench_fail "nvme connect"
NVME=
for i in $(seq 50); do
	NVME=$(nvme_ns_dev "$RBLK_NQN" "$RBLK_NSID_NULL") && [ -b "$NVME" ] && break
	sleep 0.2
done
[ -b "$NVME" ] || bench_fail "nvme-rdma namespace did not appear"
echo "BENCH-INFO rblk=/dev/rblk0 nvme=$NVME ceiling=$RBLK_NULL_DEV queues=$NQ runtime=${RUNTIME}s"

# run_fio DEVICE_LABEL DEVICE JOB ROUND fio-args...
run_fio() {
	label=$1 dev=$2 job=$3 round=$4
	shift 4
	out=$(fio --name="$job" --filename="$dev" --direct=1 \
		--ioengine=libaio --time_based --runtime="$RUNTIME" \
		--ramp_time=1 --group_reporting --size=512M \
		--output-format=json "$@" 2>/dev/null | tr -d '\n') ||
		bench_fail "fio $job on $dev"
	echo "BENCH $label $job $round $out"
}

# job name, then its fio arguments
JOBS="randread_4k_qd1:--rw=randread,--bs=4k,--iodepth=1,--numjobs=1
randwrite_4k_qd1:--rw=randwrite,--bs=4k,--iodepth=1,--numjobs=1
randread_4k_qd32:--rw=randread,--bs=4k,--iodepth=32,--numjobs=$NQ
randwrite_4k_qd32:--rw=randwrite,--bs=4k,--iodepth=32,--numjobs=$NQ
read_128k:--rw=read,--bs=128k,--iodepth=16,--numjobs=1
write_128k:--rw=write,--bs=128k,--iodepth=16,--numjobs=1"
for qd in 1 4 16 32 64; do
	JOBS="$JOBS
sweep_qd$qd:--rw=randread,--bs=4k,--iodepth=$qd,--numjobs=1"
done

echo "$JOBS" | while IFS=: read -r job args; do
	# shellcheck disable=SC2086 # args are comma-separated on purpose
	set -- $(echo "$args" | tr ',' ' ')
	run_fio rblk /dev/rblk0 "$job" 1 "$@"
	run_fio nvme "$NVME" "$job" 1 "$@"
	run_fio nvme "$NVME" "$job" 2 "$@"
	run_fio rblk /dev/rblk0 "$job" 2 "$@"
	case $job in
	sweep_*) ;;
	*) run_fio nullb "$RBLK_NULL_DEV" "$job" 1 "$@" ;;
	esac
done

nvme disconnect -n "$RBLK_NQN" >/dev/null
nvmecfg disconnect rblk0 >/dev/null
echo "BENCH-DONE"

#!/bin/sh
# Guest side of `make bench`: the same fio jobs on rblk, on the in-kernel
# nvme-rdma host and on the null_blk device behind both, in one boot.
#
# Both hosts connect to the same nvmet-rdma subsystem; the single-device
# jobs use namespace 1 (null_blk), the *_2ns job drives namespaces 1 and 3
# at once (fio's filename list), over each host's one controller.
# Each job runs in RBLK_BENCH_ROUNDS rounds of rblk, nvme, nvme, rblk, so slow
# drift of the TCG guest cancels out; runs are numbered 1..2*ROUNDS per
# device, and the rblk and nvme runs of the same number ran back to back (a
# pair).  Results are printed as
#   BENCH <device> <job> <run> <fio JSON on one line>
# and turned into a table by scripts/bench-report.py on the host; after
# each rblk run also
#   BENCH-CPD <job> <run> <commands posted> <doorbells>
# Both hosts connect with NPOLL poll queues besides the NQ I/O queues: the
# *_hipri jobs (io_uring, --hipri) run on them, the others never do.
#
# Knobs (environment; on the kernel command line NAME=VALUE words without a
# dot reach /init's environment, which is how `make bench` passes them):
#   RBLK_BENCH_ROUNDS   ABBA rounds per job (default 2)
#   RBLK_BENCH_RUNTIME  seconds per fio run, after 1 s of ramp (default 4)
#   RBLK_BENCH_JOBS     only these jobs (space or comma separated names)
#   RBLK_BENCH_PERF=1   for the table jobs, more runs under `perf record -a
#                       -g -e cpu-clock`, after the measured ones: rblk, nvme,
#                       nvme, rblk per profiling round; the report comes as
#                       BENCH-PERF <device> <job> <run> <line> lines
#   RBLK_BENCH_PERF_ROUNDS   profiling rounds per job (default 1)
#   RBLK_BENCH_PERF_RUNTIME  seconds of a profiled run (default twice
#                       RBLK_BENCH_RUNTIME)
# rblk-timeout: 14400
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

RUNTIME=${RBLK_BENCH_RUNTIME:-4}
ROUNDS=${RBLK_BENCH_ROUNDS:-2}
SELECT=$(echo "${RBLK_BENCH_JOBS:-}" | tr ',' ' ')
PERF=${RBLK_BENCH_PERF:-0}
# A profiled run is longer than a measured one: the drivers' own code is
# about 1 % of the samples, and their count bounds the precision.
PERF_RUNTIME=${RBLK_BENCH_PERF_RUNTIME:-$((RUNTIME * 2))}
PERF_ROUNDS=${RBLK_BENCH_PERF_ROUNDS:-1}
# Jobs profiled with RBLK_BENCH_PERF=1, and the sampling frequency (Hz per
# CPU: TCG has no PMU, cpu-clock is an hrtimer; low enough not to swamp it).
PERF_JOBS="randread_4k_qd1 randwrite_4k_qd1 randread_4k_qd32 randwrite_4k_qd32
	randread_4k_qd32_batch16 randwrite_4k_qd32_batch16
	randread_4k_qd1_hipri randread_4k_qd8_hipri read_128k write_128k"
PERF_FREQ=999
PERF_TOP=25
PERF_DATA=/tmp/bench-perf.data
PERF_KALLSYMS=/tmp/bench-perf.kallsyms
NQ=2
NPOLL=1

# shellcheck source=bench-common.inc
. "$(dirname "$0")/bench-common.inc"

is_count "$ROUNDS" || bench_fail "RBLK_BENCH_ROUNDS=$ROUNDS: want a positive integer"
is_count "$RUNTIME" || bench_fail "RBLK_BENCH_RUNTIME=$RUNTIME: want a positive integer"
is_count "$PERF_RUNTIME" ||
	bench_fail "RBLK_BENCH_PERF_RUNTIME=$PERF_RUNTIME: want a positive integer"
is_count "$PERF_ROUNDS" ||
	bench_fail "RBLK_BENCH_PERF_ROUNDS=$PERF_ROUNDS: want a positive integer"
case $PERF in 0 | 1) ;; *) bench_fail "RBLK_BENCH_PERF=$PERF: want 0 or 1" ;; esac

check_selection

if [ "$PERF" = 1 ]; then
	command -v perf >/dev/null ||
		bench_fail "RBLK_BENCH_PERF=1 but no perf in the guest (install linux-perf on the host, rebuild the initramfs)"
	# Kernel symbols from /proc/kallsyms: addresses must not read as 0.
	echo 0 > /proc/sys/kernel/kptr_restrict
	echo -1 > /proc/sys/kernel/perf_event_paranoid
fi

bench_connect
echo "BENCH-INFO rblk=$RBLK,$RBLK2 nvme=$NVME,$NVME2 ceiling=$RBLK_NULL_DEV queues=$NQ+${NPOLL}poll" \
	"runtime=${RUNTIME}s rounds=$ROUNDS jobs=$(echo "${SELECT:-all}" | tr ' ' ',') perf=$PERF"

# rblk's commands per doorbell over one run: the controller's counters,
# restarted before it (nothing else runs on the controller meanwhile).
cpd_reset() {
	rblk_reset_counters
}
cpd_print() {
	echo "BENCH-CPD $1 $2 $(rblk_counter commands_posted) $(rblk_counter doorbells)"
}

# Every fio argument but the job's own (a job's own come later and win,
# e.g. --ioengine=io_uring): no value holds a space.
FIO_COMMON="--direct=1 --ioengine=libaio --time_based --runtime=$RUNTIME
	--ramp_time=1 --group_reporting --size=512M --output-format=json"

# run_fio DEVICE_LABEL DEVICE JOB RUN fio-args...
run_fio() {
	label=$1 dev=$2 job=$3 run=$4
	shift 4
	# shellcheck disable=SC2086 # FIO_COMMON is a word list
	out=$(fio --name="$job" --filename="$dev" $FIO_COMMON "$@" \
		</dev/null 2>/dev/null | tr -d '\n') ||
		bench_fail "fio $job on $dev"
	echo "BENCH $label $job $run $out"
}

# perf_report perf-report-args...: report on the last profile, to stdout.
perf_report() {
	perf report -i "$PERF_DATA" --kallsyms="$PERF_KALLSYMS" --no-children \
		--stdio "$@"
}

# perf_fio DEVICE_LABEL DEVICE JOB RUN fio-args...: one more run of the job,
# system-wide under perf, and the top of the profile by symbol.
perf_fio() {
	label=$1 dev=$2 job=$3 run=$4
	shift 4
	rm -f "$PERF_DATA"
	# -D: sampling starts 2 s after fio does, past its start-up (dynamic
	# linking and library constructors are slow under TCG) and most of the
	# 1 s ramp.  -N: no build-id cache in ~/.debug (copies kallsyms: slow).
	# shellcheck disable=SC2086 # FIO_COMMON is a word list
	perf record -q -N -a -g -e cpu-clock -F $PERF_FREQ -D 2000 -o "$PERF_DATA" -- \
		fio --name="$job" --filename="$dev" $FIO_COMMON \
		--runtime="$PERF_RUNTIME" "$@" </dev/null >/tmp/bench-perf.fio 2>/tmp/bench-perf.err || {
		sed "s/^/BENCH-PERF $label $job $run /" /tmp/bench-perf.err
		bench_fail "perf record of fio $job on $dev"
	}
	# A copy of kallsyms: given /proc/kallsyms, perf reads the kernel from
	# /proc/kcore beside it and files every module under "/proc/kcore".
	cat /proc/kallsyms > "$PERF_KALLSYMS"
	{
		iops=$(tr -d '\n' < /tmp/bench-perf.fio | jq -r '.jobs[0] |
			if .read.io_bytes > 0 then .read else .write end | .iops | floor' \
			2>/dev/null)
		echo "# fio $job on $dev under perf: ${iops:-?} IOPS (${PERF_RUNTIME}s)"
		echo "# perf record -a -g -e cpu-clock -F $PERF_FREQ -D 2000;" \
			"perf report --no-children --sort sym"
		# Flat profile: the symbols, without their call chains.
		perf_report --sort sym -g none 2>/tmp/bench-perf.err |
			grep -v -E '^$|^# *$|^# (To display|Total Lost|Overhead|\.\.\.\.)' |
			head -n $((PERF_TOP + 2))
		[ -s /tmp/bench-perf.err ] &&
			echo "# perf report said: $(tr -s '\n' ' ' < /tmp/bench-perf.err)"
		# The same samples by module, with their counts: the host
		# drivers' own share, and with the CPUs and the IOPS their CPU
		# time per I/O.
		echo "# by module (--sort dso -n), $(nproc) CPUs:"
		perf_report --sort dso -g none -n 2>/dev/null |
			grep -v -e '^$' -e '^#' | head -n 40
		# Where the host drivers' own time goes, symbol by symbol.
		echo "# host driver symbols (--sort dso,sym -n):"
		perf_report --sort dso,sym -g none -n \
			--dsos "[rblk],[nvme_rdma],[nvme_core],[nvme_fabrics]" 2>/dev/null |
			grep -v -e '^$' -e '^#' | head -n 40
		# And within them, the hottest places (symbol+offset: objdump
		# of the module on the host tells the instructions).
		echo "# host driver hot spots (samples symbol+offset):"
		perf script -i "$PERF_DATA" --kallsyms="$PERF_KALLSYMS" -G \
			-F ip,sym,symoff \
			--dsos "[rblk],[nvme_rdma],[nvme_core],[nvme_fabrics]" 2>/dev/null |
			awk '{ print $2 }' | sort | uniq -c | sort -rn | head -n 40
		# Who calls the hottest symbols (3 % or more), callee first.
		echo "# call chains of symbols >= 3 %:"
		perf_report --sort sym --percent-limit 3 -g graph,1,callee 2>/dev/null |
			grep -v -e '^$' -e '^#' | head -n 120
	} | sed "s/^/BENCH-PERF $label $job $run /"
	rm -f "$PERF_DATA" "$PERF_KALLSYMS" /tmp/bench-perf.fio /tmp/bench-perf.err
}

# bench_job JOB RBLK-DEVICE NVME-DEVICE FIO-ARGS...: its rounds, ceiling
# and profiles.
bench_job() {
	job=$1 rdev=$2 ndev=$3
	shift 3
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		cpd_reset
		run_fio rblk "$rdev" "$job" $((2 * r - 1)) "$@"
		cpd_print "$job" $((2 * r - 1))
		run_fio nvme "$ndev" "$job" $((2 * r - 1)) "$@"
		run_fio nvme "$ndev" "$job" $((2 * r)) "$@"
		cpd_reset
		run_fio rblk "$rdev" "$job" $((2 * r)) "$@"
		cpd_print "$job" $((2 * r))
		r=$((r + 1))
	done
	case $job in
	# null_blk has no poll queues here: no ceiling for the polled jobs.
	sweep_* | *_2ns | *_2path | *_hipri) ;;
	*) run_fio nullb "$RBLK_NULL_DEV" "$job" 1 "$@" ;;
	esac
	# shellcheck disable=SC2086 # PERF_JOBS is a word list
	if [ "$PERF" = 1 ] && echo "" $PERF_JOBS "" | grep -q " $job "; then
		r=1
		while [ "$r" -le "$PERF_ROUNDS" ]; do
			perf_fio rblk "$RBLK" "$job" $((2 * r - 1)) "$@"
			perf_fio nvme "$ndev" "$job" $((2 * r - 1)) "$@"
			perf_fio nvme "$ndev" "$job" $((2 * r)) "$@"
			perf_fio rblk "$RBLK" "$job" $((2 * r)) "$@"
			r=$((r + 1))
		done
	fi
}

# Not `echo | while`: bench_fail must end the script, not a subshell.
for_each_job bench_job

bench_disconnect
echo "BENCH-DONE"

#!/bin/sh
# Guest side of `make bench-insn`: the instructions the guest executes per
# I/O on rblk and on the in-kernel nvme-rdma host, counted by the rblk-insn
# TCG plugin (tools/insn/insn.c), same target, same fio jobs, one boot.
#
# Each job runs twice per host, with IOS and with 3 * IOS I/Os (fio's
# --number_ios per fio job), each run between two marks (rblk-insn-mark):
# the plugin writes the counts of every interval, and the host divides the
# difference of the two intervals by the difference of their I/Os, which
# cancels what does not grow with the I/Os (fio's start and exit, the mark).
# The shell does the same between the marks of both runs.  Printed:
#   INSN-MARK <seq> <host> <job> <rep> <start|short|long> [<posted> <doorbells>]
#                   after each mark; rblk's counters of commands posted and
#                   doorbells rung with it
#   INSN-FIO <host> <job> <rep> <short|long> <I/Os fio completed>
#   INSN-KSYM <addr> <name> <[module]>  text symbols of the modules, and
#                                       _stext/_etext as [vmlinux]
# and scripts/insn-report.py makes build/bench/insn.{md,json} of them.
#
# Knobs (NAME=VALUE words on the kernel command line):
#   RBLK_INSN_IOS   I/Os of the short run of a 4k job (default 1000; the 128k
#                   jobs run a quarter of it)
#   RBLK_INSN_REPEAT  times each job runs on each host (default 1; the
#                   report says how close the repeats agree)
#   RBLK_BENCH_JOBS only these jobs (comma separated)
#   RBLK_INSN_MODPARAMS  rblk.ko's parameters, comma separated (e.g.
#                   multipath=Y: the head on the way of every I/O)
# rblk-timeout: 14400
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

MARK=/usr/bin/rblk-insn-mark
IOS=${RBLK_INSN_IOS:-1000}
REPEAT=${RBLK_INSN_REPEAT:-1}
SELECT=$(echo "${RBLK_BENCH_JOBS:-}" | tr ',' ' ')
NQ=2
NPOLL=1
# Module symbols are read at the end: rblk.ko stays loaded as it is.
BENCH_RELOAD=0
# The jobs counted: the sweep is for the wall-clock bench only.
INSN_JOBS="randread_4k_qd1 randwrite_4k_qd1 randread_4k_qd32 randwrite_4k_qd32
	randread_4k_qd32_batch16 randwrite_4k_qd32_batch16
	randread_4k_qd1_hipri randread_4k_qd8_hipri read_128k write_128k
	randread_4k_qd32_2ns"
# shellcheck source=bench-common.inc
. "$(dirname "$0")/bench-common.inc"

is_count "$IOS" || bench_fail "RBLK_INSN_IOS=$IOS: want a positive integer"
is_count "$REPEAT" || bench_fail "RBLK_INSN_REPEAT=$REPEAT: want a positive integer"
[ -x "$MARK" ] || bench_fail "no $MARK in the guest (make bench-insn builds it)"
check_selection
[ -z "$SELECT" ] && SELECT=$INSN_JOBS

# shellcheck disable=SC2046 # one word a parameter
bench_connect $(echo "${RBLK_INSN_MODPARAMS:-}" | tr ',' ' ')
echo "INSN-INFO rblk=$RBLK,$RBLK2 nvme=$NVME,$NVME2 queues=$NQ+${NPOLL}poll ios=$IOS repeat=$REPEAT rblk.ko:${RBLK_INSN_MODPARAMS:-defaults}"

SEQ=0
# mark HOST JOB REP PHASE: for rblk with its commands posted and doorbells
# (read after the mark: each interval holds one read).
mark() {
	"$MARK" || bench_fail "$MARK failed"
	SEQ=$((SEQ + 1))
	if [ "$1" = rblk ]; then
		echo "INSN-MARK $SEQ $* $(rblk_counter commands_posted)" \
			"$(rblk_counter doorbells)"
	else
		echo "INSN-MARK $SEQ $*"
	fi
}

# fio_n DEVICE JOB IOS fio-args...: one run; the I/Os it completed.
fio_n() {
	dev=$1 job=$2 n=$3
	shift 3
	fio --name="$job" --filename="$dev" --direct=1 --ioengine=libaio \
		--group_reporting --size=512M --number_ios="$n" --randrepeat=1 \
		--output-format=json "$@" </dev/null 2>/dev/null |
		jq -e '[.jobs[] | .read.total_ios + .write.total_ios + .trim.total_ios] | add'
}

# count HOST DEVICE JOB REP IOS fio-args...: the short and the long run.
count() {
	host=$1 dev=$2 job=$3 rep=$4 n=$5
	shift 5
	mark "$host" "$job" "$rep" start
	short=$(fio_n "$dev" "$job" "$n" "$@") || bench_fail "fio $job on $dev"
	mark "$host" "$job" "$rep" short
	long=$(fio_n "$dev" "$job" $((3 * n)) "$@") || bench_fail "fio $job on $dev"
	mark "$host" "$job" "$rep" long
	echo "INSN-FIO $host $job $rep short $short"
	echo "INSN-FIO $host $job $rep long $long"
}

# insn_job JOB RBLK-DEVICE NVME-DEVICE FIO-ARGS...: its repeats, each host
# in turn.
insn_job() {
	job=$1 rdev=$2 ndev=$3
	shift 3
	n=$IOS
	case $job in *_128k) n=$(((IOS + 3) / 4)) ;; esac
	rep=1
	while [ "$rep" -le "$REPEAT" ]; do
		count rblk "$rdev" "$job" "$rep" "$n" "$@"
		count nvme "$ndev" "$job" "$rep" "$n" "$@"
		rep=$((rep + 1))
	done
}
for_each_job insn_job

bench_disconnect

# Where each module's functions are (kptr_restrict: root sees addresses).
echo 0 > /proc/sys/kernel/kptr_restrict
awk '$2 ~ /^[tT]$/ && $4 ~ /^\[/ { print "INSN-KSYM", $1, $3, $4 }
	$3 == "_stext" || $3 == "_etext" { print "INSN-KSYM", $1, $3, "[vmlinux]" }' /proc/kallsyms
echo "INSN-DONE $SEQ"

#!/bin/sh
# Guest side of `make bench-scale`: what a controller with N namespaces
# costs, rblk next to the in-kernel nvme-rdma host, in one boot.
#
# One nvmet subsystem of its own ($SCALE_NQN, on the test port) gets
# namespaces 1..N, each on a sparse file on tmpfs (buffered I/O: nothing
# is stored, a read of a hole allocates nothing).  For each count N of
# RBLK_SCALE_COUNTS (ascending), each host in turn, never both at once:
#   settle, read /proc/meminfo and /proc/slabinfo; connect (-i NQ -Q 128);
#   the time until all N block devices exist (and until the command
#   returned); settle, read again; disconnect; the time until all of them
#   are gone (and until the command returned); settle, read again.
# "settle" is sync, drop_caches, every slab cache shrunk (/sys/kernel/slab/
# */shrink: the CPU slabs flushed, empty slabs freed) and 1 s of rest, then
# the median of three reads of /proc/meminfo 300 ms apart (with the free
# pages on the per-CPU lists from /proc/zoneinfo: PcpFree).
# Hosts run in rounds of rblk, nvme, nvme, rblk (RBLK_SCALE_ROUNDS), so slow
# drift of the guest cancels out.  Then the same for the memory of I/O queues:
# one namespace, connected with one I/O queue (-i 1), then with QHI queues
# (-i 2 -W 2 -P 2: nvme-rdma caps each of the three at the online CPUs, 2
# here).  And "null" runs: the same reads with no connect in between, only
# some memory allocated and freed: the noise floor of a delta.
#
# Output, for scripts/scale-report.py:
#   SCALE-INFO key=value...
#   SCALE-TIME <host> <kind> <x> <run> <connect_ms> <disconnect_ms> <queues>
#              <devices> <connect_cmd_ms> <disconnect_cmd_ms>
#   SCALE-MEM <host> <kind> <x> <run> <phase> <field>=<delta kB>...
#   SCALE-SLAB <host> <kind> <x> <run> <cache> <delta kB> <delta objects>
#   SCALE-DONE
# host: rblk or nvme (or "none" for the null runs); kind: ns (x = N), q (x =
# lo or hi) or null; phase: connected (after the connect against before it)
# or after (after the disconnect against before the connect).  A failure
# prints SCALE-FAIL and ends the run.
#
# Knobs (environment; NAME=VALUE words on the kernel command line):
#   RBLK_SCALE_COUNTS   namespace counts, comma separated (default 1,16,64,256)
#   RBLK_SCALE_ROUNDS   rblk,nvme,nvme,rblk rounds per count (default 1)
#   RBLK_SCALE_QUEUES=0 skip the I/O queue runs
# rblk-timeout: 14400
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

COUNTS=$(echo "${RBLK_SCALE_COUNTS:-1,16,64,256}" | tr ',' ' ')
ROUNDS=${RBLK_SCALE_ROUNDS:-1}
QUEUES=${RBLK_SCALE_QUEUES:-1}
SCALE_NQN=nqn.2026-12.io.rblk:scale
SCALE_DIR=/tmp/scale
SCALE_SUBSYS=${RBLK_NVMET_SUBSYS%/*}/$SCALE_NQN
# I/O queues of the namespace-count runs, and of the two queue runs.
NQ=2
QLO="-i 1"
QHI="-i 2 -W 2 -P 2"
QSIZE=128
# Meminfo fields reported (deltas, kB).
FIELDS="MemFree PcpFree MemAvailable Buffers Cached AnonPages Shmem Slab SReclaimable
	SUnreclaim KernelStack PageTables VmallocUsed Percpu"
# Slab caches reported per run: the largest deltas.
SLAB_TOP=15
# Longest wait for the devices of one connect, or for their removal, in s.
WAIT_S=600

# On stderr: a failure inside a $(...) or a run sent to /dev/null shows too.
scale_fail() {
	echo "SCALE-FAIL $*" >&2
	exit 1
}

is_count() {
	case $1 in '' | *[!0-9]* | 0*) return 1 ;; esac
}
is_count "$ROUNDS" || scale_fail "RBLK_SCALE_ROUNDS=$ROUNDS: want a positive integer"
case $QUEUES in 0 | 1) ;; *) scale_fail "RBLK_SCALE_QUEUES=$QUEUES: want 0 or 1" ;; esac
for c in $COUNTS; do
	is_count "$c" || scale_fail "RBLK_SCALE_COUNTS: $c is not a positive integer"
	[ "$c" -le 1024 ] || scale_fail "RBLK_SCALE_COUNTS: $c above nvmet's 1024 namespaces"
done
COUNTS=$(echo "$COUNTS" | tr ' ' '\n' | sort -n -u | tr '\n' ' ')
[ -n "$COUNTS" ] || scale_fail "RBLK_SCALE_COUNTS is empty"

# --- the subsystem ---
nvmet_ns_add() {
	_f=$SCALE_DIR/ns$1.img
	{ truncate -s 16M "$_f" && mkdir "$SCALE_SUBSYS/namespaces/$1" &&
	  printf '%s' "$_f" > "$SCALE_SUBSYS/namespaces/$1/device_path" &&
	  echo 1 > "$SCALE_SUBSYS/namespaces/$1/buffered_io" &&
	  echo 1 > "$SCALE_SUBSYS/namespaces/$1/enable"; } ||
		scale_fail "cannot create namespace $1 on $_f"
}
# scale_ns_upto N: the subsystem has namespaces 1..N (counts ascend, and
# no host is connected when it grows).
NS_NOW=0
scale_ns_upto() {
	while [ "$NS_NOW" -lt "$1" ]; do
		NS_NOW=$((NS_NOW + 1))
		nvmet_ns_add "$NS_NOW"
	done
}
mkdir -p "$SCALE_DIR"
{ mkdir "$SCALE_SUBSYS" && echo 1 > "$SCALE_SUBSYS/attr_allow_any_host"; } ||
	scale_fail "cannot create nvmet subsystem $SCALE_NQN"
scale_ns_upto 1
ln -s "$SCALE_SUBSYS" "$RBLK_NVMET_PORT/subsystems/$SCALE_NQN" ||
	scale_fail "cannot link $SCALE_NQN to the port"

# --- time and memory ---
# now_ms: milliseconds since boot (10 ms resolution).
now_ms() { uptime_ms; }

# ndevs HOST: the block devices of HOST in /dev (the subsystem's only: no
# other controller is connected meanwhile).  nvme-rdma's hidden per-path
# disks (nvmeXcYnZ) have no node.
# digits WORD: WORD is one or more digits.
digits() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
}
ndevs() {
	_c=0
	for _d in /dev/"$1"*; do
		_r=${_d#/dev/"$1"}
		case $1 in
		rblk) digits "$_r" || continue ;;
		nvme) case $_r in *n*) ;; *) continue ;; esac
			{ digits "${_r%%n*}" && digits "${_r#*n}"; } || continue ;;
		esac
		[ -b "$_d" ] && _c=$((_c + 1))
	done
	echo "$_c"
}

# settle: what the kernel can give back now, given back.
settle() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for _s in /sys/kernel/slab/*; do
		# Aliases of merged caches are links to the real ones.
		[ -L "$_s" ] && continue
		echo 1 > "$_s/shrink" 2>/dev/null
	done
	sleep 1
}

# snap FILE: settle, then FILE gets the median of three reads of each
# meminfo field ("Field kB" lines) and each slab cache's "slab:NAME kB
# objects" (from one read).
snap() {
	settle
	: > /tmp/scale.mi
	for _i in 1 2 3; do
		# The vmstat counters' per-CPU parts folded in first; the free
		# pages on the per-CPU lists (PcpFree: not in MemFree, and
		# megabytes of them come and go with every burst of frees).
		echo 1 > /proc/sys/vm/stat_refresh 2>/dev/null
		{ cat /proc/meminfo
		  awk '$1 == "count:" { s += $2 } END { print "PcpFree:", s * 4, "kB" }' /proc/zoneinfo
		} >> /tmp/scale.mi
		[ "$_i" = 3 ] || usleep 300000
	done
	awk '{ k = $1; sub(/:$/, "", k); x = $2 + 0; n[k]++; s[k] += x
		if (n[k] == 1 || x < lo[k]) lo[k] = x
		if (n[k] == 1 || x > hi[k]) hi[k] = x }
	     END { for (k in n) print k, (n[k] == 3 ? s[k] - lo[k] - hi[k] : int(s[k] / n[k])) }' \
		/tmp/scale.mi > "$1"
	# slabinfo 2.1: name active_objs num_objs objsize objperslab
	# pagesperslab : tunables l b s : slabdata active_slabs num_slabs shared
	awk 'NR > 2 { print "slab:" $1, $15 * $6 * 4, $2 }' /proc/slabinfo >> "$1"
}

# report_mem HOST KIND X RUN PHASE BEFORE AFTER: the deltas of two snaps.
report_mem() {
	awk -v fields="$FIELDS" -v head="SCALE-MEM $1 $2 $3 $4 $5" '
		FNR == NR { b[$1] = $2; next }
		{ a[$1] = $2 }
		END {
			n = split(fields, f, /[ \t\n]+/)
			line = head
			for (i = 1; i <= n; i++)
				if (f[i] != "")
					line = line " " f[i] "=" (a[f[i]] - b[f[i]])
			print line
		}' "$6" "$7"
}

# report_slab HOST KIND X RUN BEFORE AFTER: the SLAB_TOP caches whose
# memory changed most between two snaps.
report_slab() {
	awk -v head="SCALE-SLAB $1 $2 $3 $4" '
		$1 !~ /^slab:/ { next }
		FNR == NR { bk[$1] = $2; bo[$1] = $3; next }
		{ d = $2 - bk[$1]; o = $3 - bo[$1]
		  if (d != 0 || o != 0) print (d < 0 ? -d : d), head, substr($1, 6), d, o }' \
		"$5" "$6" | sort -rn | head -n "$SLAB_TOP" | cut -d' ' -f2-
}

# --- the hosts ---
# timed HOST N CMD...: run CMD in the background (its output in
# /tmp/scale.cmd) and poll, every 20 ms, until it has returned and HOST
# has N block devices; T_DEV and T_CMD are the milliseconds from the start
# until each.  CMD failing fails the run.
timed() {
	_th=$1 _tn=$2
	shift 2
	T_DEV='' T_CMD=''
	_ts=$(now_ms)
	"$@" > /tmp/scale.cmd 2>&1 &
	_tp=$!
	_n=$((WAIT_S * 50))
	while :; do
		if [ -z "$T_DEV" ] && [ "$(ndevs "$_th")" -eq "$_tn" ]; then
			T_DEV=$(($(now_ms) - _ts))
		fi
		# (Reaped already, it has no /proc entry left to read.)
		if [ -z "$T_CMD" ] && { exited "$_tp"; } 2>/dev/null; then
			T_CMD=$(($(now_ms) - _ts))
			wait "$_tp" || scale_fail "$*: $(cat /tmp/scale.cmd)"
		fi
		[ -n "$T_DEV" ] && [ -n "$T_CMD" ] && return 0
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] ||
			scale_fail "$*: $(ndevs "$_th") of $_tn devices after ${WAIT_S}s"
		usleep 20000
	done
}

# host_connect HOST N OPTIONS...: connect HOST to the scale subsystem, and
# wait for its N devices; CTRL is its controller.
CTRL=
host_connect() {
	_h=$1 _hn=$2
	shift 2
	case $_h in
	rblk)
		# shellcheck disable=SC2068 # OPTIONS are words
		timed rblk "$_hn" nvmecfg connect -t rdma -a "$RBLK_TRADDR" \
			-s "$RBLK_TRSVCID" -n "$SCALE_NQN" -Q $QSIZE $@
		CTRL=$(head -n 1 /tmp/scale.cmd)
		[ -e "/sys/class/rblk/$CTRL" ] ||
			scale_fail "nvmecfg connect made no controller: $(cat /tmp/scale.cmd)"
		;;
	nvme)
		# shellcheck disable=SC2068 # OPTIONS are words
		timed nvme "$_hn" nvme connect -t rdma -a "$RBLK_TRADDR" \
			-s "$RBLK_TRSVCID" -n "$SCALE_NQN" -Q $QSIZE $@
		CTRL=
		for _c in /sys/class/nvme/nvme*; do
			[ "$(cat "$_c/subsysnqn" 2>/dev/null)" = "$SCALE_NQN" ] &&
				CTRL=${_c##*/}
		done
		[ -n "$CTRL" ] || scale_fail "nvme connect made no controller: $(cat /tmp/scale.cmd)"
		;;
	esac
}

# host_queues HOST: I/O queues of the connected controller.
host_queues() {
	case $1 in
	rblk) cat "/sys/class/rblk/$CTRL/nr_io_queues" ;;
	nvme) echo $(($(cat "/sys/class/nvme/$CTRL/queue_count") - 1)) ;;
	esac
}

# host_disconnect HOST: disconnect it, and wait until no device is left.
host_disconnect() {
	case $1 in
	rblk) timed rblk 0 nvmecfg disconnect "$CTRL" ;;
	nvme) timed nvme 0 nvme disconnect -n "$SCALE_NQN" ;;
	esac
}

# measure HOST KIND X RUN N OPTIONS...: one connect of HOST with N
# namespaces, and its disconnect.
measure() {
	_host=$1 _kind=$2 _x=$3 _run=$4 _nns=$5
	shift 5
	[ "$(ndevs "$_host")" -eq 0 ] || scale_fail "$_host has devices before its connect"
	snap /tmp/scale.before
	host_connect "$_host" "$_nns" "$@"
	_cdev=$T_DEV _ccmd=$T_CMD
	_q=$(host_queues "$_host")
	snap /tmp/scale.connected
	host_disconnect "$_host"
	snap /tmp/scale.after
	echo "SCALE-TIME $_host $_kind $_x $_run $_cdev $T_DEV $_q $_nns $_ccmd $T_CMD"
	report_mem "$_host" "$_kind" "$_x" "$_run" connected /tmp/scale.before /tmp/scale.connected
	report_mem "$_host" "$_kind" "$_x" "$_run" after /tmp/scale.before /tmp/scale.after
	report_slab "$_host" "$_kind" "$_x" "$_run" /tmp/scale.before /tmp/scale.connected
}

# null RUN: two snaps with no connect between them, only 16 MiB of page
# cache and of process memory allocated and freed (the noise of a delta).
null_run() {
	snap /tmp/scale.before
	dd if=/dev/zero of=/tmp/scale.junk bs=1M count=16 2>/dev/null
	rm -f /tmp/scale.junk
	dd if=/dev/zero of=/dev/null bs=16M count=1 2>/dev/null
	snap /tmp/scale.connected
	report_mem none null 0 "$1" connected /tmp/scale.before /tmp/scale.connected
	report_slab none null 0 "$1" /tmp/scale.before /tmp/scale.connected
}

# rounds KIND X N OPTIONS...: ROUNDS rounds of rblk, nvme, nvme, rblk.
rounds() {
	_k=$1 _xx=$2 _nn=$3
	shift 3
	_r=1
	while [ "$_r" -le "$ROUNDS" ]; do
		measure rblk "$_k" "$_xx" $((2 * _r - 1)) "$_nn" "$@"
		measure nvme "$_k" "$_xx" $((2 * _r - 1)) "$_nn" "$@"
		measure nvme "$_k" "$_xx" $((2 * _r)) "$_nn" "$@"
		measure rblk "$_k" "$_xx" $((2 * _r)) "$_nn" "$@"
		_r=$((_r + 1))
	done
}

rblk_load
modprobe nvme-rdma || scale_fail "modprobe nvme-rdma"
echo "SCALE-INFO kernel=$(uname -r) counts=$(echo "$COUNTS" | tr -s ' ' ',' | sed 's/,$//')" \
	"rounds=$ROUNDS nq=$NQ qsize=$QSIZE qlo=$(echo "$QLO" | tr ' ' '_')" \
	"qhi=$(echo "$QHI" | tr ' ' '_') cpus=$(grep -c ^processor /proc/cpuinfo)" \
	"memtotal_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)" \
	"nvme_multipath=$(cat /sys/module/nvme_core/parameters/multipath 2>/dev/null)" \
	"rblk_multipath=$(cat /sys/module/rblk/parameters/multipath 2>/dev/null)" \
	"backing=file-on-tmpfs"

# A first connect of each host, not measured: the first use of a slab
# cache or a workqueue allocates what every later one reuses.
measure rblk warmup 1 1 1 -i $NQ > /dev/null
measure nvme warmup 1 1 1 -i $NQ > /dev/null

r=1
while [ "$r" -le "$ROUNDS" ]; do
	null_run $((2 * r - 1))
	null_run $((2 * r))
	r=$((r + 1))
done

for c in $COUNTS; do
	scale_ns_upto "$c"
	rounds ns "$c" "$c" -i $NQ
done

if [ "$QUEUES" = 1 ]; then
	# One namespace again: a new subsystem state would cost time; the
	# namespaces beyond 1 are disabled instead.
	i=2
	while [ "$i" -le "$NS_NOW" ]; do
		echo 0 > "$SCALE_SUBSYS/namespaces/$i/enable" ||
			scale_fail "cannot disable namespace $i"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # QLO and QHI are option words
	rounds q lo 1 $QLO
	# shellcheck disable=SC2086
	rounds q hi 1 $QHI
fi

rm -f "$RBLK_NVMET_PORT/subsystems/$SCALE_NQN"
echo "SCALE-DONE"

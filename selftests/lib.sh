#!/bin/sh
# Shared helpers for rblk selftests.  The guest's /bin/sh is dash (POSIX sh);
# busybox provides the small utilities, the real iproute2, kmod, nvme-cli,
# fio, e2fsprogs, coreutils timeout/env and util-linux setsid are there too.
# Source this first:
#	. "$(dirname "$0")/../lib.sh"
# Exit codes follow kselftest: 0 pass, 4 skip, anything else fail.

# shellcheck disable=SC2034 # for the tests that source this
KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

# The fabric /init built (RBLK_TRADDR, RBLK_NQN, RBLK_KO, ...).
if [ -f /etc/rblk-test.env ]; then
	set -a
	# shellcheck disable=SC1091
	. /etc/rblk-test.env
	set +a
fi

# Kernel log patterns that fail a test whatever it printed (scripts/vm-run.sh
# scans the console with the same list).  The runner clears the kernel log
# before each test: `dmesg` in a test shows only that test's messages.
RBLK_SPLAT_RE='BUG:|Oops|WARNING:|Call Trace|Kernel panic|general protection fault|INFO: task .* blocked|UBSAN:|list_add corruption|list_del corruption|refcount_t:'

TEST_NAME=$(basename "$0" .sh)

log()  { echo "$TEST_NAME: $*"; }
fail() { echo "FAIL: $TEST_NAME: $*"; exit "$KSFT_FAIL"; }
skip() { echo "SKIP: $TEST_NAME: $*"; exit "$KSFT_SKIP"; }

# Run a command, failing the test with its output if it fails.
must() {
	_out=$("$@" 2>&1) || { printf '%s\n' "$_out"; fail "command failed: $*"; }
	[ -n "$_out" ] && printf '%s\n' "$_out"
	return 0
}

# wait_for_path PATH [SECS] [-e|-b|-d|!]: wait until PATH exists (test -e, or
# the given test flag), or with '!' until it is gone.  1 on timeout.
wait_for_path() {
	_p=$1 _t=${2:-10} _op=${3:--e}
	_n=$((_t * 10))
	while [ "$_n" -gt 0 ]; do
		if [ "$_op" = "!" ]; then
			[ -e "$_p" ] || return 0
		else
			test "$_op" "$_p" && return 0
		fi
		usleep 100000
		_n=$((_n - 1))
	done
	return 1
}

# pattern_file FILE BYTES: FILE gets BYTES of random data (BYTES a multiple
# of 4096).  Random, so a stale or shifted block never compares equal.
pattern_file() {
	dd if=/dev/urandom of="$1" bs=4096 count=$(($2 / 4096)) 2>/dev/null ||
		fail "cannot write pattern file $1"
	[ "$(stat -c %s "$1")" -eq "$2" ] || fail "pattern file $1 has wrong size"
}

# write_direct FILE DEV OFFSET_BYTES: FILE onto DEV at offset, O_DIRECT.
write_direct() {
	_bytes=$(stat -c %s "$1")
	dd if="$1" of="$2" bs=4096 seek=$(($3 / 4096)) count=$((_bytes / 4096)) \
		oflag=direct conv=notrunc 2>/dev/null || fail "O_DIRECT write of $1 to $2 failed"
}

# read_direct DEV OFFSET_BYTES BYTES OUT: read a region of DEV, O_DIRECT.
read_direct() {
	dd if="$1" of="$4" bs=4096 skip=$(($2 / 4096)) count=$(($3 / 4096)) \
		iflag=direct 2>/dev/null || fail "O_DIRECT read of $1 failed"
}

# read_region FILE OFFSET_BYTES BYTES OUT: buffered read (e.g. the backing file).
read_region() {
	dd if="$1" of="$4" bs=4096 skip=$(($2 / 4096)) count=$(($3 / 4096)) \
		2>/dev/null || fail "read of $1 failed"
}

# verified_writer DEV SECS WHAT: a verifying random writer (fio, 4 KiB at
# queue depth 8 over DEV's first 4 MiB, crc32c, stops at the first bad
# block) for SECS seconds; fails the test, naming WHAT, on any error.
verified_writer() {
	fio --name=verified_writer --filename="$1" --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --iodepth=8 --size=4M --time_based --runtime="$2" \
		--verify=crc32c --verify_fatal=1 --verify_backlog=64 > /tmp/verified-writer.fio 2>&1 ||
		fail "$3: the writer failed: $(grep -E 'err=|verify|error' /tmp/verified-writer.fio | head -n 5)"
	grep -q 'err= 0' /tmp/verified-writer.fio ||
		fail "$3: fio reported an error: $(grep -m3 err= /tmp/verified-writer.fio)"
	rm -f /tmp/verified-writer.fio
}

# assert_same A B WHAT: byte-compare two files, fail with the first difference.
assert_same() {
	_d=$(cmp "$1" "$2" 2>&1) || fail "$3: data differs: $_d"
}

# assert_on_target DEV BACKING MIB WHAT: the first MIB MiB read through DEV
# (O_DIRECT) are the same bytes as in the target's backing file BACKING.
assert_on_target() {
	dd if="$1" of=/tmp/rblk-dev.img bs=1M count="$3" iflag=direct 2>/dev/null ||
		fail "$4: read back through $1 failed"
	dd if="$2" of=/tmp/rblk-store.img bs=1M count="$3" 2>/dev/null ||
		fail "$4: read of $2 failed"
	assert_same /tmp/rblk-dev.img /tmp/rblk-store.img "$4"
	rm -f /tmp/rblk-dev.img /tmp/rblk-store.img
}

# --- rblk module ---
rblk_loaded() { [ -d /sys/module/rblk ]; }

# rblk_load [PARAM=VALUE...]: load rblk.ko with these parameters (its
# dependencies first: insmod does not resolve them).
rblk_load() {
	# nvmecfg may have autoloaded it already, without the parameters.
	if rblk_loaded; then
		[ "$#" -eq 0 ] && return 0
		rblk_unload
	fi
	[ -f "$RBLK_KO" ] || fail "rblk.ko not in the guest ($RBLK_KO): was 'make modules' run?"
	for _dep in $(modinfo -F depends "$RBLK_KO" | tr ',' ' '); do
		modprobe "$_dep" || fail "cannot load rblk dependency $_dep"
	done
	insmod "$RBLK_KO" "$@" || fail "insmod $RBLK_KO failed"
	rblk_loaded || fail "/sys/module/rblk missing after insmod"
}

rblk_unload() {
	rblk_loaded || return 0
	rmmod rblk || fail "rmmod rblk failed"
	wait_for_path /sys/module/rblk 10 ! || fail "/sys/module/rblk still present after rmmod"
}

# --- kernel log ---
# splat_filter: a kernel log on stdin, with the reports listed in
# selftests/known-splats (reports of other subsystems) reduced to one
# "rblk-known-splat:" line each.
_RBLK_LIB_DIR=$(cd "$(dirname "$0")" && while [ ! -f lib.sh ] && [ "$PWD" != / ]; do cd ..; done && pwd)
splat_filter() {
	awk -v known="$_RBLK_LIB_DIR/known-splats" -f "$_RBLK_LIB_DIR/known-splats.awk"
}

# Print kernel log lines that look like a splat; 0 if there were any.
dmesg_splats() {
	dmesg | splat_filter | grep -E "$RBLK_SPLAT_RE"
}

# --- in-kernel nvme-rdma reference host ---
# nvme_ns_dev NQN NSID: print /dev/nvmeXnY of that namespace, if connected.
# (With native multipath, /sys/block also lists the hidden per-path disks
# nvmeXcYnZ, which have no device node: skip those.)
nvme_ns_dev() {
	for _ns in /sys/block/nvme*n*; do
		case ${_ns##*/} in *c*) continue ;; esac
		[ "$(cat "$_ns/nsid" 2>/dev/null)" = "$2" ] || continue
		# device: the nvme-subsystem (multipath head) or the controller.
		[ "$(cat "$_ns/device/subsysnqn" 2>/dev/null)" = "$1" ] || continue
		echo "/dev/${_ns##*/}"
		return 0
	done
	return 1
}

# running PID: the process has not exited (a zombie has); exited PID: it has.
running() {
	read -r _l 2>/dev/null < "/proc/$1/stat" || return 1
	case ${_l##*") "} in Z*) return 1 ;; esac
	return 0
}
exited() { ! running "$1"; }

# wait_until SECS CMD...: poll CMD every 100 ms until it succeeds; 1 after
# SECS seconds.
wait_until() {
	_wu=$(($1 * 10)); shift
	while [ "$_wu" -gt 0 ]; do
		"$@" && return 0
		usleep 100000
		_wu=$((_wu - 1))
	done
	return 1
}

# nvme_wait_ns_dev NQN NSID [SECS]: print /dev/nvmeXnY of that namespace once
# nvme-rdma shows it; 1 after SECS (default 10) seconds.
nvme_wait_ns_dev() {
	wait_until "${3:-10}" nvme_ns_dev "$1" "$2"
}

# --- rblk devices (through nvmecfg, the real control plane) ---
# rblk_connect NSID [nvmecfg connect options...]: connect one controller to
# the test subsystem, with every namespace on it (so that each test runs
# with several namespaces sharing the queues), wait for the block devices
# and print the path of namespace NSID's (/dev/rblkN).
rblk_connect() {
	_nsid=$1; shift
	_all=$(rblk_connect_all "$@") || { echo "$_all"; exit "$KSFT_FAIL"; }
	_ctrl=$(echo "$_all" | head -n 1)
	rblk_ns_dev "$_ctrl" "$_nsid" ||
		fail "no device for namespace $_nsid on $_ctrl: $_all"
}

# rblk_disconnect DEV: disconnect DEV's controller (by DEV's name: --force)
# and wait for the device to go.
rblk_disconnect() {
	_n=${1##*/}
	must nvmecfg disconnect --force "$_n" >/dev/null
	wait_for_path "/sys/block/$_n" 10 ! || fail "/sys/block/$_n still present after disconnect"
}

# rblk_first_path DEV: the disk that carries DEV's I/O: a multipath head's
# first path (rblkNcM, rblk.multipath=Y, the default), else DEV itself.
rblk_first_path() {
	_n=${1##*/}
	if [ -d "/sys/block/$_n/multipath" ]; then
		for _p in "/sys/block/$_n/multipath/${_n}c"*; do
			[ -L "$_p" ] && { echo "${_p##*/}"; return 0; }
		done
		return 1
	fi
	echo "$_n"
}

# rblk_attr DEV NAME: one attribute of a namespace device: its statistics
# and state in /sys/block/rblkN/rblk/, its identifiers in /sys/block/rblkN/,
# or one of its controller's (/sys/block/rblkN/device/ is rblk-ctrlM).  A
# multipath head's own first (its rblk/ sums its paths), then its first
# path's.
rblk_attr() {
	_p=$(rblk_first_path "$1") || _p=${1##*/}
	for _f in "/sys/block/${1##*/}/rblk/$2" "/sys/block/${1##*/}/$2" \
		  "/sys/block/$_p/rblk/$2" "/sys/block/$_p/$2" \
		  "/sys/block/$_p/device/$2"; do
		[ -f "$_f" ] && { cat "$_f"; return; }
	done
	echo "rblk_attr: no attribute $2 for ${1##*/}" >&2
	return 1
}

# rblk_ctrl_of DEV: the controller name (rblk-ctrlM) of a namespace device
# (of a multipath head: its first path's).
rblk_ctrl_of() {
	_p=$(rblk_first_path "$1") || return 1
	_l=$(readlink "/sys/block/$_p/device") ||
		_l=$(readlink -f "/sys/block/$_p/multipath/$_p" 2>/dev/null) || return 1
	echo "${_l##*/}"
}

# rblk_connect_all [nvmecfg connect options...]: connect to every namespace
# of the test subsystem over one controller; print the controller name,
# then one /dev/rblkN per namespace, in nsid order.
rblk_connect_all() {
	_out=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
		-n "$RBLK_NQN" "$@" 2>&1) ||
		fail "nvmecfg connect failed: $_out"
	_ctrl=$(echo "$_out" | head -n 1)
	case $_ctrl in rblk-ctrl[0-9]*) ;; *) fail "connect printed no controller: $_out" ;; esac
	echo "$_ctrl"
	for _name in $(echo "$_out" | tail -n +2); do
		wait_for_path "/dev/$_name" 10 -b || fail "/dev/$_name did not appear"
		echo "/dev/$_name"
	done
}

# nvme_native_mpath: nvme_core (loaded here) does native multipath, as
# Debian's kernels do; the debug kernel does not (CONFIG_NVME_MULTIPATH).
nvme_native_mpath() {
	modprobe nvme-rdma 2>/dev/null || return 1
	[ "$(cat /sys/module/nvme_core/parameters/multipath 2>/dev/null)" = Y ]
}

# rblk_ns_dev CTRL NSID: /dev/rblkN of that namespace on controller CTRL
# (with multipath, of the head whose path rblkNcM the controller has);
# 1 if there is none.
rblk_ns_dev() {
	for _d in /sys/class/rblk/"$1"/rblk[0-9]*; do
		[ -e "$_d" ] || continue
		[ "$(cat "$_d/nsid" 2>/dev/null)" = "$2" ] || continue
		_d=${_d##*/}
		echo "/dev/${_d%c*}"
		return 0
	done
	return 1
}

# rblk_wait_state DEV STATE SECS: wait for the controller state; 1 on timeout.
rblk_wait_state() {
	_n=$(($3 * 10))
	while [ "$_n" -gt 0 ]; do
		[ "$(rblk_attr "$1" state 2>/dev/null)" = "$2" ] && return 0
		usleep 100000
		_n=$((_n - 1))
	done
	return 1
}

# rblk_fault_test NAME [MODULE_PARAMS...]: a test of rblk's injected fault
# NAME (debugfs; kernels with CONFIG_FAULT_INJECTION_DEBUG_FS, a skip on
# others): loads rblk, sets F to the fault's directory, and on exit
# disarms it, disconnects every controller and unloads.
rblk_fault_test() {
	F=/sys/kernel/debug/rblk/$1
	shift
	trap rblk_fault_cleanup EXIT
	rblk_load "$@"
	[ -d "$F" ] || skip "no $F (kernel without CONFIG_FAULT_INJECTION_DEBUG_FS)"
}

rblk_fault_cleanup() {
	echo 0 > "$F/probability" 2>/dev/null
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_d" ] && timeout 60 nvmecfg disconnect "${_d##*/}" >/dev/null 2>&1
	done
	rblk_unload
}

# rblk_fault_arm TIMES: F fires at each try, TIMES times (-1: always).  No
# stack dump per injected fault: the runner would take it for a splat.
rblk_fault_arm() {
	{ echo 0 > "$F/verbose" && echo 1 > "$F/interval" &&
	  echo "$1" > "$F/times" && echo 100 > "$F/probability"; } ||
		fail "cannot arm $F"
}

# nvmet_grant_queues CTRL_SYSFS_DIR N: the target grants N I/O queues from
# now on (attr_qid_max), and the controller reconnects to get them.  6.12's
# nvmet drops its controllers itself when attr_qid_max changes; 6.1's does
# not, and a reset does it (refused as busy if the target dropped the
# controller meanwhile after all).
nvmet_grant_queues() {
	_before=$(cat "$1/reconnects")
	echo "$2" > "$RBLK_NVMET_SUBSYS/attr_qid_max" || fail "cannot set attr_qid_max to $2"
	_i=20
	while [ "$_i" -gt 0 ] && [ "$(cat "$1/state")" = live ] &&
	      [ "$(cat "$1/reconnects")" = "$_before" ]; do
		usleep 100000
		_i=$((_i - 1))
	done
	if [ "$_i" -gt 0 ]; then
		log "attr_qid_max $2: the target dropped the controller itself"
	elif echo 1 > "$1/reset_controller" 2>/dev/null; then
		log "attr_qid_max $2: reset the controller"
	elif [ "$(cat "$1/state")" != live ]; then
		log "attr_qid_max $2: the target dropped the controller itself, late"
	else
		fail "reset_controller refused on a live controller"
	fi
}

# nvmet_unlink / nvmet_relink: take the subsystem off the port and back, as a
# target failover or a dead target looks to the host.
nvmet_unlink() {
	rm "$RBLK_NVMET_PORT/subsystems/$RBLK_NQN" || fail "cannot unlink the nvmet port"
}
nvmet_relink() {
	[ -e "$RBLK_NVMET_PORT/subsystems/$RBLK_NQN" ] ||
		ln -s "$RBLK_NVMET_SUBSYS" "$RBLK_NVMET_PORT/subsystems/$RBLK_NQN" ||
		fail "cannot relink the nvmet port"
}

NVMET_PORT2=${RBLK_NVMET_PORT%/*}/2
NVMET_SVC2=$((${RBLK_TRSVCID:-4420} + 1))
# nvmet_port2_add: a second nvmet port, "$NVMET_PORT2" on the test address
# and trsvcid "$NVMET_SVC2", with the test subsystem on it: a second path.
# nvmet_port2_del undoes it (for cleanup: never fails).
nvmet_port2_add() {
	{ mkdir "$NVMET_PORT2" && echo rdma > "$NVMET_PORT2/addr_trtype" &&
	  echo ipv4 > "$NVMET_PORT2/addr_adrfam" &&
	  echo "$RBLK_TRADDR" > "$NVMET_PORT2/addr_traddr" &&
	  echo "$NVMET_SVC2" > "$NVMET_PORT2/addr_trsvcid" &&
	  ln -s "$RBLK_NVMET_SUBSYS" "$NVMET_PORT2/subsystems/$RBLK_NQN"; } ||
		fail "cannot create nvmet port 2"
}
nvmet_port2_del() {
	rm -f "$NVMET_PORT2/subsystems/$RBLK_NQN" 2>/dev/null
	rmdir "$NVMET_PORT2" 2>/dev/null
	return 0
}

# nvmet_ana_set PORT STATE: the state of ANA group 1 on an nvmet port (its
# configfs directory), as the target reports it to hosts from then on.
nvmet_ana_set() {
	echo "$2" > "$1/ana_groups/1/ana_state" || fail "cannot set $1's ANA group 1 to $2"
}

# rblk_connect_port SVC [OPTIONS...]: nvmecfg connect to the test subsystem
# on port SVC; print its output (the controller, then the namespaces'
# devices).  A failure is said on stderr (stdout is the caller's $(...)),
# status 1.  rblk_connect_port_ctrl prints the controller only.
rblk_connect_port() {
	_svc=$1; shift
	_o=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$_svc" -n "$RBLK_NQN" "$@" 2>&1) ||
		{ echo "FAIL: $TEST_NAME: connect to port $_svc $*: $_o" >&2; return 1; }
	echo "$_o"
}
rblk_connect_port_ctrl() {
	_o=$(rblk_connect_port "$@") || return 1
	echo "$_o" | head -n 1
}

# rblk_path_of HEAD CTRL: the path rblkNcM of multipath head HEAD (rblkN)
# on controller CTRL; 1 if it has none there.
rblk_path_of() {
	for _p in /sys/block/"$1"/multipath/*; do
		_c=$(readlink -f "$_p"); _c=${_c%/*}
		[ "${_c##*/}" = "$2" ] && { echo "${_p##*/}"; return 0; }
	done
	return 1
}

# rblk_two_paths: controllers to the test subsystem through the test port
# (A) and the second one (B, nvmet_port2_add); sets A, B, dev (the head of
# namespace RBLK_NSID_FILE), h (its name) and pa, pb (its paths on A, B).
rblk_two_paths() {
	A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
	B=$(rblk_connect_port_ctrl "$NVMET_SVC2") || exit "$KSFT_FAIL"
	dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
	h=${dev##*/}
	pa=$(rblk_path_of "$h" "$A") && pb=$(rblk_path_of "$h" "$B") ||
		fail "paths of $h: $(ls "/sys/block/$h/multipath")"
}

# nvme_two_paths: nvme-rdma connected the same way, its namespace there;
# 1 (nothing done) if nvme_core has no native multipath.
nvme_two_paths() {
	nvme_native_mpath || return 1
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
	must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$NVMET_SVC2" -n "$RBLK_NQN"
	nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE" > /dev/null || fail "nvme-rdma did not connect"
}

# rblk_path_ios PATH: reads and writes completed over a path (rblkNcM).
rblk_path_ios() {
	echo $(($(cat "/sys/block/$1/rblk/reads") + $(cat "/sys/block/$1/rblk/writes")))
}

# nvmet_subsys_add NQN FILE MIB: an nvmet subsystem named NQN with one
# namespace (nsid 1) on a new file FILE of MIB MiB, open to any host and on
# the test port.
nvmet_subsys_add() {
	_s=${RBLK_NVMET_SUBSYS%/*}/$1
	truncate -s "${3}M" "$2" || fail "cannot create $2"
	{ mkdir "$_s" && echo 1 > "$_s/attr_allow_any_host" &&
	  mkdir "$_s/namespaces/1" && echo "$2" > "$_s/namespaces/1/device_path" &&
	  echo 1 > "$_s/namespaces/1/buffered_io" &&
	  echo 1 > "$_s/namespaces/1/enable" &&
	  ln -s "$_s" "$RBLK_NVMET_PORT/subsystems/$1"; } ||
		fail "cannot create nvmet subsystem $1"
}

# nvmet_subsys_del NQN: undo nvmet_subsys_add and any allowed_hosts links.
# Never fails: for cleanups.
nvmet_subsys_del() {
	_s=${RBLK_NVMET_SUBSYS%/*}/$1
	rm -f "$RBLK_NVMET_PORT/subsystems/$1" 2>/dev/null
	[ -d "$_s" ] || return 0
	for _h in "$_s"/allowed_hosts/*; do
		[ -L "$_h" ] && rm -f "$_h"
	done
	echo 0 > "$_s/namespaces/1/enable" 2>/dev/null
	rmdir "$_s/namespaces/1" "$_s" 2>/dev/null
	return 0
}

# --- DH-HMAC-CHAP (selftests/rblk/auth_*.sh) ---
# A subsystem of its own, AUTH_NQN (namespace 1 on AUTH_FILE, AUTH_MB MiB),
# open only to the guest's host NQN (/etc/nvme/hostnqn, which nvmecfg and
# nvme-cli use), whose nvmet host entry holds the keys.
AUTH_NQN=nqn.2026-12.io.rblk:auth
AUTH_FILE=/tmp/auth.img
AUTH_MB=64
NVMET_ROOT=${RBLK_NVMET_PORT%/ports/*}
AUTH_HOST=$NVMET_ROOT/hosts/$RBLK_HOSTNQN
AUTH_SUBSYS=$NVMET_ROOT/subsystems/$AUTH_NQN

# auth_key LEN NQN [HMAC]: a new DH-HMAC-CHAP key of LEN bytes (32, 48,
# 64), as nvme-cli makes them.  HMAC (default 0: none) is the key's
# transform, 1, 2, 3 for SHA-256, -384, -512 (LEN 32, 48, 64): both sides
# then hash the key with NQN first, the host's for a host key, the
# subsystem's for a controller key, so a wrong NQN there is refused.  For
# $(...): a failure is said on stderr, status 1.
auth_key() {
	nvme gen-dhchap-key -l "$1" -m "${3:-0}" -n "$2" 2>/dev/null ||
		{ echo "FAIL: $TEST_NAME: nvme gen-dhchap-key -l $1 -m ${3:-0} failed" >&2; return 1; }
}

# auth_target_setup: the host entry and the subsystem; skips where nvmet
# cannot authenticate (no hosts/*/dhchap_key: 6.1's
# CONFIG_NVME_TARGET_AUTH is off) or rblk cannot (no nvme-auth.ko).
auth_target_setup() {
	command -v nvme >/dev/null || fail "nvme-cli missing from the guest"
	modinfo nvme-auth >/dev/null 2>&1 ||
		skip "kernel without the NVMe authentication library (auth_refused_61)"
	[ -d "$AUTH_HOST" ] || mkdir "$AUTH_HOST" || fail "cannot create $AUTH_HOST"
	[ -e "$AUTH_HOST/dhchap_key" ] || {
		rmdir "$AUTH_HOST"
		skip "nvmet cannot authenticate (no hosts/*/dhchap_key)"
	}
	truncate -s "${AUTH_MB}M" "$AUTH_FILE" || fail "cannot create $AUTH_FILE"
	{ mkdir "$AUTH_SUBSYS" && echo 0 > "$AUTH_SUBSYS/attr_allow_any_host" &&
	  ln -s "$AUTH_HOST" "$AUTH_SUBSYS/allowed_hosts/$RBLK_HOSTNQN" &&
	  mkdir "$AUTH_SUBSYS/namespaces/1" &&
	  echo "$AUTH_FILE" > "$AUTH_SUBSYS/namespaces/1/device_path" &&
	  echo 1 > "$AUTH_SUBSYS/namespaces/1/buffered_io" &&
	  echo 1 > "$AUTH_SUBSYS/namespaces/1/enable" &&
	  ln -s "$AUTH_SUBSYS" "$RBLK_NVMET_PORT/subsystems/$AUTH_NQN"; } ||
		fail "cannot create nvmet subsystem $AUTH_NQN"
}

# auth_target_cleanup: undo auth_target_setup.  Never fails: for traps.
auth_target_cleanup() {
	nvmet_subsys_del "$AUTH_NQN"
	[ -d "$AUTH_HOST" ] && rmdir "$AUTH_HOST" 2>/dev/null
	rm -f "$AUTH_FILE"
	return 0
}

# auth_cleanup: the auth tests' trap: every rblk controller and nvme-rdma's
# to AUTH_NQN disconnected, rblk unloaded, auth_target_setup undone.
auth_cleanup() {
	auth_cleanup_rblk
	nvme disconnect -n "$AUTH_NQN" >/dev/null 2>&1
	auth_target_cleanup
}
# auth_cleanup_rblk: rblk's part of it: every controller disconnected,
# the module unloaded.
auth_cleanup_rblk() {
	for _c in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_c" ] && nvmecfg disconnect "${_c##*/}" >/dev/null 2>&1
	done
	rblk_unload
}

# nvmet_host_auth KEY [CTRLKEY [HASH [GROUP]]]: what nvmet asks of the
# host from the next connect on.  An empty CTRLKEY leaves the controller
# key as it is (nvmet takes no empty key from echo): none in a fresh host
# entry (auth_target_setup).
nvmet_host_auth() {
	{ echo "$1" > "$AUTH_HOST/dhchap_key" &&
	  { [ -z "${2:-}" ] || echo "$2" > "$AUTH_HOST/dhchap_ctrl_key"; } &&
	  echo "${3:-hmac(sha256)}" > "$AUTH_HOST/dhchap_hash" &&
	  echo "${4:-null}" > "$AUTH_HOST/dhchap_dhgroup"; } ||
		fail "cannot set nvmet's DH-HMAC-CHAP settings (${3:-} ${4:-})"
}

# auth_connect [OPTIONS...]: nvmecfg connect to AUTH_NQN; prints its
# output (controller, then devices).  For $(...): a refusal is said on
# stderr, status 1.
auth_connect() {
	_o=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
		-n "$AUTH_NQN" "$@" 2>&1) ||
		{ echo "FAIL: $TEST_NAME: connect to $AUTH_NQN refused: $_o" >&2; return 1; }
	echo "$_o"
}

# auth_refused RC PATTERN [OPTIONS...]: nvmecfg connect to AUTH_NQN exits
# RC, saying PATTERN (extended regex); nothing is left.  Prints the answer.
# For $(...): a failure is said on stderr, status 1.
auth_refused() {
	_rc=$1 _pat=$2; shift 2
	_got=0
	_o=$(timeout 300 nvmecfg connect -t rdma -a "$RBLK_TRADDR" \
		-s "$RBLK_TRSVCID" -n "$AUTH_NQN" "$@" 2>&1) || _got=$?
	_err=
	if [ "$_got" -ne "$_rc" ]; then
		_err="connect exited $_got, want $_rc: $_o"
	elif ! printf '%s\n' "$_o" | grep -qE -- "$_pat"; then
		_err="'$_o' lacks '$_pat'"
	fi
	for _d in /sys/block/rblk* /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_d" ] && _err="$_d left after a refused connect"
	done
	[ -z "$_err" ] || { echo "FAIL: $TEST_NAME: $_err" >&2; return 1; }
	echo "$_o"
}

# auth_refused_racy RC PATTERN [OPTIONS...]: auth_refused where the target
# refuses with FAILURE1: nvmet then tears the association down at once
# (fatal error), and the teardown may overtake the message (under TCG,
# four tries in five; 17 in a row seen on 7.3), so that the host never
# reads it.  Such a try is not final (a connect is tried again, up to 150
# times in all, a fraction of a second each), and it must end when the
# association breaks, not at the admin timeout (10 s): the host ends the
# command it waits for at the disconnect.  Prints the answer.
auth_refused_racy() {
	_n=0
	while :; do
		_n=$((_n + 1))
		_t0=$(date +%s)
		_r=$(auth_refused "$@" 2>/tmp/auth-refused.err) && { echo "$_r"; return 0; }
		_t=$(($(date +%s) - _t0))
		if [ "$_n" -lt 150 ] && grep -q 'an authentication command did not complete' /tmp/auth-refused.err; then
			if [ "$_t" -ge 8 ]; then
				echo "FAIL: $TEST_NAME: try $_n: the broken association was waited out (${_t}s): $(dmesg | tail -n 4)" >&2
				return 1
			fi
			log "try $_n: the target's teardown overtook its FAILURE1 (${_t}s); again" >&2
			continue
		fi
		cat /tmp/auth-refused.err >&2
		return 1
	done
}

# auth_key_slices KEY: every 16 characters in a row of the secret's
# base64 (KEY without "DHHC-1:NN:" and the last ':'), one a line, for
# grep -F -f: a key "not even in part" has none of them anywhere.
auth_key_slices() {
	_s=${1#DHHC-1:??:}; _s=${_s%:}
	printf '%s\n' "$_s" | awk '{
		for (i = 1; i + 15 <= length($0); i++) print substr($0, i, 16)
	}'
}

# auth_no_leak KEY...: no key's secret part, nor 16 characters of it in a
# row (auth_key_slices), in the kernel log, the trace buffer, nvmecfg's
# list and show (JSON and text) or rblk's sysfs files.
auth_no_leak() {
	_dump=/tmp/auth-leak.txt
	{ dmesg
	  cat /sys/kernel/tracing/trace 2>/dev/null
	  nvmecfg list -o json; nvmecfg list -v
	  for _c in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_c" ] || continue
		nvmecfg show "${_c##*/}" -o json; nvmecfg show "${_c##*/}"
		for _f in "$_c"/*; do
			[ -f "$_f" ] && [ -r "$_f" ] && cat "$_f" 2>/dev/null
		done
	  done; } > "$_dump" 2>&1
	for _k in "$@"; do
		[ -n "$_k" ] || continue
		_s=${_k#DHHC-1:??:}; _s=${_s%:}
		grep -qF -- "$_s" "$_dump" && fail "a key's secret is readable (kernel log, trace, nvmecfg or sysfs)"
		auth_key_slices "$_k" > "$_dump.slices"
		grep -qF -f "$_dump.slices" "$_dump" && fail "16 characters of a key's secret are readable (kernel log, trace, nvmecfg or sysfs)"
		rm -f "$_dump.slices"
	done
	rm -f "$_dump"
	log "no key in the kernel log, trace buffer, nvmecfg output or sysfs"
}

# auth_io DEV: a short fio verify on DEV, then its data in AUTH_FILE.
auth_io() {
	_out=$(fio --name=auth --filename="$1" --direct=1 --ioengine=libaio \
		--rw=randwrite --bsrange=4k-256k --iodepth=16 --numjobs=2 \
		--size=8M --offset_increment=8M --verify=crc32c --verify_fatal=1 \
		--do_verify=1 --group_reporting 2>&1) ||
		fail "fio on $1 failed: $(printf '%s\n' "$_out" | grep -E 'err=|verify|fio:')"
	printf '%s\n' "$_out" | grep -q 'err= 0' || fail "fio reported errors on $1"
	assert_on_target "$1" "$AUTH_FILE" 16 "$1 vs $AUTH_FILE after fio"
}

# d_state_tasks: tasks in uninterruptible sleep in three looks over 0.6 s,
# as "PID (COMM)" lines: a hang in the making (a worker's short wait, e.g.
# for an RDMA CM event, is D for a moment and is not one).
d_state_tasks() {
	_d1=$(_d_state_now)
	[ -n "$_d1" ] || return 0
	usleep 300000
	_d2=$(_d_state_now)
	usleep 300000
	_d3=$(_d_state_now)
	printf '%s\n' "$_d1" | while IFS= read -r _t; do
		printf '%s\n' "$_d2" | grep -qxF "$_t" &&
			printf '%s\n' "$_d3" | grep -qxF "$_t" && echo "$_t"
	done
}
_d_state_now() {
	for _s in /proc/[0-9]*/stat; do
		read -r _l 2>/dev/null < "$_s" || continue
		# state is the field after the parenthesised command name
		_st=${_l##*") "}
		case $_st in D*) echo "${_l%%") "*})" ;; esac
	done
}

# jq_true WHAT JSON EXPR [jq args]: fail unless EXPR holds for JSON.
jq_true() {
	_what=$1 _json=$2 _expr=$3
	shift 3
	printf '%s\n' "$_json" | jq -e "$@" "$_expr" >/dev/null ||
		{ printf '%s\n' "$_json"; fail "$_what: $_expr"; }
}

# rand_below N: a random number in [0, N).
rand_below() {
	echo $(( $(od -An -N4 -tu4 /dev/urandom) % $1 ))
}

# uptime_ms: milliseconds since boot (10 ms resolution), for timing.
uptime_ms() {
	read -r _up _ < /proc/uptime
	_s=${_up%.*} _c=${_up#*.}
	echo $((_s * 1000 + ${_c#0} * 10))
}

# reset_fabric: put the guest back as /init left it, whatever a test did or
# left behind (run.sh calls it after every test): no rblk or nvme-rdma
# devices, rblk unloaded, the RDMA device and the nvmet port as set up.
reset_fabric() {
	# A delayed namespace of a test that was killed: no delay first.
	command -v dmsetup >/dev/null && dmsetup table "$RBLK_DM" >/dev/null 2>&1 &&
		DM_DISABLE_UDEV=1 dmsetup suspend "$RBLK_DM" 2>/dev/null &&
		DM_DISABLE_UDEV=1 dmsetup reload "$RBLK_DM" --table \
			"$(dmsetup table "$RBLK_DM" | awk '{ $NF = 0; print }')" 2>/dev/null
	command -v dmsetup >/dev/null && DM_DISABLE_UDEV=1 dmsetup resume "$RBLK_DM" 2>/dev/null
	for _d in /sys/class/rblk/rblk-ctrl* /sys/block/rblk*; do
		[ -e "$_d" ] && timeout 60 nvmecfg disconnect --force "${_d##*/}" >/dev/null 2>&1
	done
	rblk_loaded && rmmod rblk 2>/dev/null
	command -v nvme >/dev/null && nvme disconnect-all >/dev/null 2>&1
	if [ ! -e "/sys/class/infiniband/$RBLK_RDMA_DEV" ]; then
		rdma link add "$RBLK_RDMA_DEV" type "$RBLK_RDMA_TYPE" netdev "$RBLK_NETDEV" 2>/dev/null
		nvmet_reenable_port
	fi
	# Only when a test left it unlinked: every port disable records the
	# target's own lockdep chain (see Documentation/testing.rst).
	[ -e "$RBLK_NVMET_PORT/subsystems/$RBLK_NQN" ] ||
		ln -s "$RBLK_NVMET_SUBSYS" "$RBLK_NVMET_PORT/subsystems/$RBLK_NQN" 2>/dev/null
	for _n in "$RBLK_NVMET_SUBSYS"/namespaces/*; do
		case $(cat "$_n/device_path" 2>/dev/null) in /dev/dm-*) ;; *) continue ;; esac
		echo 0 > "$_n/enable" 2>/dev/null
		rmdir "$_n" 2>/dev/null
	done
	if command -v dmsetup >/dev/null && dmsetup table "$RBLK_DM" >/dev/null 2>&1; then
		DM_DISABLE_UDEV=1 dmsetup remove "$RBLK_DM" 2>/dev/null
		for _l in $(losetup -j /tmp/delay.img 2>/dev/null | cut -d: -f1); do
			losetup -d "$_l" 2>/dev/null
		done
	fi
	return 0
}

# nvmet_reenable_port: disable and re-enable the nvmet port, which makes it
# listen on the current RDMA device (6.1's nvmet-rdma does not re-listen on
# a re-created device by itself).  Never fails: for cleanup paths.
nvmet_reenable_port() {
	rm -f "$RBLK_NVMET_PORT/subsystems/$RBLK_NQN" 2>/dev/null
	ln -s "$RBLK_NVMET_SUBSYS" "$RBLK_NVMET_PORT/subsystems/$RBLK_NQN" 2>/dev/null
	return 0
}

# --- a namespace on dm-delay (a target as slow as a test wants) ---
# delay_ns_create NSID MIB [LBS]: namespace NSID of the test subsystem on a
# dm-delay device over a loop device over /tmp/delay.img (MIB MiB of random
# data, a copy in /tmp/delay-orig.img; logical blocks of LBS bytes, default
# 512), no delay yet.  Skips the test
# without dm-delay or dmsetup.  delay_ns_destroy undoes it (trap it).
RBLK_DM=rblk-delay
delay_ns_create() {
	modprobe dm-delay 2>/dev/null || skip "no dm-delay module in the guest kernel"
	command -v dmsetup >/dev/null || skip "no dmsetup in the guest"
	# No udev in the guest: libdevmapper makes its nodes itself.
	export DM_DISABLE_UDEV=1
	RBLK_DELAY_NS=$RBLK_NVMET_SUBSYS/namespaces/$1
	RBLK_DELAY_SECTORS=$(($2 * 2048))
	pattern_file /tmp/delay.img $(($2 * 1048576))
	cp /tmp/delay.img /tmp/delay-orig.img
	RBLK_DELAY_LOOP=$(losetup -f --show -b "${3:-512}" /tmp/delay.img) ||
		fail "no loop device for /tmp/delay.img"
	must dmsetup create "$RBLK_DM" --table "0 $RBLK_DELAY_SECTORS delay $RBLK_DELAY_LOOP 0 0"
	_minor=$(dmsetup info -c --noheadings -o minor "$RBLK_DM") || fail "no minor of $RBLK_DM"
	wait_for_path "/dev/dm-$((_minor))" 5 -b || fail "/dev/dm-$((_minor)) did not appear"
	mkdir "$RBLK_DELAY_NS" || fail "cannot create nvmet namespace $1"
	printf '%s' "/dev/dm-$((_minor))" > "$RBLK_DELAY_NS/device_path" ||
		fail "device_path /dev/dm-$((_minor)) refused"
	echo 1 > "$RBLK_DELAY_NS/enable" || fail "cannot enable namespace $1"
}

# delay_ns_connect_bg: start a connect that stays in its first scan (on
# the delayed namespace); ctrl= its controller, cpid= the nvmecfg process.
# --wait-timeout: it waits for the scan longer than connect's default
# (30 s, then it would return with the controller kept).
delay_ns_connect_bg() {
	nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
		-n "$RBLK_NQN" -k 5 -c 1 -l 120 --wait-timeout 600 \
		> /tmp/connect.log 2>&1 &
	cpid=$!
	ctrl=
	wait_until 20 sh -c '[ -e /sys/class/rblk/rblk-ctrl* ]' 2>/dev/null ||
		fail "no controller appeared: $(cat /tmp/connect.log)"
	for _c in /sys/class/rblk/rblk-ctrl*; do ctrl=${_c##*/}; done
	wait_until 20 sh -c "[ \"\$(cat /sys/class/rblk/$ctrl/state)\" = live ]" ||
		fail "controller $ctrl not live"
	# The partition read of the delayed namespace is in the target now.
	sleep 2
	running "$cpid" || fail "connect did not wait for its scan: $(cat /tmp/connect.log)"
}

# delay_ns_set MS: delay reads and writes of the namespace by MS ms.  Any
# change (suspending dm-delay) first lets every delayed bio through.
delay_ns_set() {
	dmsetup suspend "$RBLK_DM" &&
	dmsetup reload "$RBLK_DM" --table "0 $RBLK_DELAY_SECTORS delay $RBLK_DELAY_LOOP 0 $1" &&
	dmsetup resume "$RBLK_DM"
}

# delay_ns_error: the namespace's device fails every bio (a dm error table):
# nvmet completes its commands with Internal Error and DNR.  delay_ns_set
# heals it.
delay_ns_error() {
	dmsetup suspend "$RBLK_DM" &&
	dmsetup reload "$RBLK_DM" --table "0 $RBLK_DELAY_SECTORS error" &&
	dmsetup resume "$RBLK_DM"
}

# delay_ns_destroy: no delay, rblk disconnected, the namespace and its
# devices gone.  Never fails: for traps.
delay_ns_destroy() {
	[ -n "$RBLK_DELAY_LOOP" ] || return 0
	delay_ns_set 0 2>/dev/null
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_d" ] && timeout 60 nvmecfg disconnect "${_d##*/}" >/dev/null 2>&1
	done
	if [ -d "$RBLK_DELAY_NS" ]; then
		echo 0 > "$RBLK_DELAY_NS/enable" 2>/dev/null
		rmdir "$RBLK_DELAY_NS" 2>/dev/null
	fi
	dmsetup remove "$RBLK_DM" 2>/dev/null
	losetup -d "$RBLK_DELAY_LOOP" 2>/dev/null
	RBLK_DELAY_LOOP=
	rm -f /tmp/delay.img /tmp/delay-orig.img
	return 0
}

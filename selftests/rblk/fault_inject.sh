#!/bin/sh
# Fault injection (debug kernel only; skips on Debian's kernel, which has no
# failslab): failslab, aimed at `nvmecfg connect` alone through task-filter
# and /proc/self/make-it-fail, fails one slab allocation at a time at points
# swept across the connect path.  Every injected failure must give a clean
# error (non-zero exit, no device left behind, no kernel splat), and a
# connect afterwards must still work.  Then fail_make_request on /dev/rblkN
# (/sys/block/rblkN/make-it-fail): I/O gets errors, no splat, and works again
# once the injection stops.
# rblk-timeout: 1800
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

FS=/sys/kernel/debug/failslab
FMR=/sys/kernel/debug/fail_make_request
[ -d "$FS" ] || skip "no $FS (kernel without CONFIG_FAILSLAB and FAULT_INJECTION_DEBUG_FS)"
[ -d "$FMR" ] || skip "no $FMR (kernel without CONFIG_FAIL_MAKE_REQUEST)"
[ -e /proc/self/make-it-fail ] || skip "no /proc/self/make-it-fail"
# How many failure points the sweep tries (one connect each).
SWEEP=${RBLK_FAULT_SWEEP:-32}

set_attr() { echo "$3" > "$1/$2" || fail "cannot set ${1##*/}/$2 = $3"; }

# failslab's verbose dumps stay off the console (vm-run.sh would count their
# "Call Trace"); this test checks the kernel log itself meanwhile.
LOGLEVEL=$(cut -f1 /proc/sys/kernel/printk)
cleanup() {
	echo "$LOGLEVEL" > /proc/sys/kernel/printk 2>/dev/null
	echo 0 > "$FS/probability" 2>/dev/null
	echo 0 > "$FMR/probability" 2>/dev/null
	for d in /sys/block/rblk*; do
		[ -e "$d" ] || continue
		echo 0 > "$d/make-it-fail" 2>/dev/null
		nvmecfg disconnect --force "${d##*/}" >/dev/null 2>&1
	done
	rblk_unload
}
trap cleanup EXIT

no_devices() {
	for d in /sys/block/rblk*; do [ -e "$d" ] && return 1; done
	return 0
}

# connect_faulty SPACE: one `nvmecfg connect` whose slab allocations after
# the first SPACE bytes fail once.  Sets rc, hit (1 if the fault fired), out,
# and leaves the kernel log of the attempt in $KLOG (the kernel log itself is
# cleared: failslab's verbose dump has a "Call Trace" the runner would take
# for a splat).
KLOG=/tmp/fi.dmesg
connect_faulty() {
	faulty "$1" connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
		-n "$RBLK_NQN" -N "$RBLK_NSID_FILE"
}
# faulty SPACE NVMECFG-ARGS...: the same for any nvmecfg command.
faulty() {
	_space=$1; shift
	dmesg -c >> /var/log/dmesg.all 2>/dev/null
	set_attr "$FS" space "$_space"
	set_attr "$FS" times 1
	out=$(sh -c 'echo 1 > /proc/self/make-it-fail && exec timeout 120 nvmecfg "$@"' sh "$@" 2>&1)
	rc=$?
	dmesg -c > "$KLOG" 2>/dev/null
	hit=0
	[ "$(cat "$FS/times")" = 0 ] && hit=1
	set_attr "$FS" times 0
	return 0
}

# Where the injected failure was: the stack of failslab's dump in $KLOG.
fault_site() {
	sed -n '/FAULT_INJECTION: forcing a failure/,/<\/TASK>/p' "$KLOG" |
		grep -E '^\[ *[0-9.]+\]  [a-z_]' | grep -vE ' \? |dump_stack|should_fail|should_failslab|slab_pre_alloc|kmem_cache_alloc|kmalloc|__kasan|fail_dump' |
		head -n 8 | sed 's/^\[ *[0-9.]*\]  *//' | paste -sd' ' -
}

# After a connect: the device, if it succeeded, is disconnected; a failed
# connect must have left nothing.  No splat either way.
judge() {
	if [ "$rc" -eq 0 ]; then
		name=$(echo "$out" | grep -o 'rblk[0-9][0-9]*' | head -n 1)
		[ -n "$name" ] || fail "$1: connect succeeded but named no device: $out"
		wait_for_path "/dev/$name" 10 -b || fail "$1: /dev/$name did not appear"
		must nvmecfg disconnect --force "$name" >/dev/null
		wait_for_path "/sys/block/$name" 30 ! || fail "$1: $name still there after disconnect"
	else
		[ "$rc" -eq 124 ] && fail "$1: connect hung (timeout): $out"
		sleep 1
		if ! no_devices; then
			# The connect can have succeeded and only its answer been
			# lost (netlink's ack or reply skb): nothing rblk can undo.
			# A failure inside rblk must not leave a device.
			site=$(fault_site)
			log "$1: failed connect (rc $rc: $out) left $(ls -d /sys/block/rblk*); fault at: $site"
			case $site in
			*"[rblk]"*) fail "$1: a failure inside rblk left a device behind" ;;
			esac
			lost=$((lost + 1))
			for d in /sys/block/rblk*; do must nvmecfg disconnect --force "${d##*/}" >/dev/null; done
			wait_for_path /sys/block/rblk0 30 ! || fail "$1: rblk0 still there after disconnect"
		fi
	fi
	dmesg -c >> "$KLOG" 2>/dev/null
	# Real splats only: the fault dump's own "Call Trace" does not count.
	s=$(grep -E "$RBLK_SPLAT_RE" "$KLOG" | grep -v 'Call Trace') &&
		{ printf '%s\n' "$s"; fail "$1: kernel splat"; }
	cat "$KLOG" >> /var/log/dmesg.all
	return 0
}
lost=0

rblk_load
no_devices || fail "rblk devices exist before the test"
set_attr "$FS" probability 0
set_attr "$FS" task-filter Y
set_attr "$FS" ignore-gfp-wait N
set_attr "$FS" interval 1
set_attr "$FS" verbose 2
echo 1 > /proc/sys/kernel/printk || fail "cannot lower the console log level"
set_attr "$FS" times 0
set_attr "$FS" probability 100

# --- where the connect path is, in bytes of slab the task allocates ---
# hi: smallest SPACE at which the fault no longer fires (the whole run's
# allocations); a fault far past exec and socket setup lands in rblk's code.
lo=0 hi=1
while :; do
	connect_faulty "$hi"; judge "calibrate space=$hi"
	[ "$hit" -eq 0 ] && break
	lo=$hi hi=$((hi * 2))
	[ "$hi" -gt 67108864 ] && fail "calibration: a fault fires even after 64 MiB"
done
while [ $((hi - lo)) -gt 64 ]; do
	mid=$(((lo + hi) / 2))
	connect_faulty "$mid"; judge "calibrate space=$mid"
	if [ "$hit" -eq 1 ]; then lo=$mid; else hi=$mid; fi
done
total=$hi
log "connect allocates ~$total bytes of slab in its own context"
# base: the same for `nvmecfg list` (exec, libraries, netlink socket, one
# request): the connect's own allocations lie between base and total.
lo=0 hi=$total
while [ $((hi - lo)) -gt 64 ]; do
	mid=$(((lo + hi) / 2))
	faulty "$mid" list
	grep -E "$RBLK_SPLAT_RE" "$KLOG" | grep -v 'Call Trace' && fail "list space=$mid: kernel splat"
	cat "$KLOG" >> /var/log/dmesg.all
	if [ "$hit" -eq 1 ]; then lo=$mid; else hi=$mid; fi
done
base=$((hi > 4096 ? hi - 4096 : 0))
[ "$base" -lt "$total" ] || base=0
log "nvmecfg list allocates ~$hi bytes: sweeping [$base, $total)"

# --- the sweep: SWEEP points, most of them in the connect's own part ---
failed=0 tolerated=0
i=0
while [ "$i" -lt "$SWEEP" ]; do
	# The first quarter spread over [0, base), the rest over [base, total).
	q=$((SWEEP / 4))
	if [ "$i" -lt "$q" ]; then
		space=$((base * i / q))
	else
		space=$((base + (total - base) * (i - q) / (SWEEP - q)))
	fi
	connect_faulty "$space"
	judge "fault at space=$space"
	[ "$hit" -eq 1 ] && log "space=$space: fault at: $(fault_site)"
	if [ "$hit" -eq 1 ]; then
		if [ "$rc" -ne 0 ]; then
			failed=$((failed + 1))
			log "space=$space: clean error (rc $rc): $(echo "$out" | tail -n 1)"
		else
			tolerated=$((tolerated + 1))
			log "space=$space: fault absorbed, connect succeeded"
		fi
	fi
	i=$((i + 1))
done
set_attr "$FS" probability 0
echo "$LOGLEVEL" > /proc/sys/kernel/printk
log "failslab: $failed injected failures gave clean errors, $tolerated were absorbed, $lost lost only the answer of a connect that succeeded"
[ "$failed" -gt 0 ] || fail "no injected failure made connect fail: the sweep missed the connect path"

# --- a connect afterwards works, and moves data ---
dev=$(rblk_connect "$RBLK_NSID_FILE")
pattern_file /tmp/fi.pat 65536
write_direct /tmp/fi.pat "$dev" 0
read_direct "$dev" 0 65536 /tmp/fi.out
assert_same /tmp/fi.pat /tmp/fi.out "after the failslab sweep"
log "connect after the sweep: $dev works"

# --- fail_make_request: I/O errors, cleanly ---
set_attr "$FMR" task-filter N
set_attr "$FMR" interval 1
set_attr "$FMR" verbose 0
set_attr "$FMR" times -1
set_attr "$FMR" probability 100
set_attr "/sys/block/${dev##*/}" make-it-fail 1
if dd if="$dev" of=/dev/null bs=4096 count=4 iflag=direct 2>/dev/null; then
	fail "O_DIRECT read succeeded with fail_make_request on"
fi
if dd if=/tmp/fi.pat of="$dev" bs=4096 count=4 oflag=direct conv=notrunc 2>/dev/null; then
	fail "O_DIRECT write succeeded with fail_make_request on"
fi
set_attr "/sys/block/${dev##*/}" make-it-fail 0
set_attr "$FMR" probability 0
[ "$(rblk_attr "$dev" state)" = live ] || fail "controller not live after I/O errors: $(rblk_attr "$dev" state)"
read_direct "$dev" 0 65536 /tmp/fi.out
assert_same /tmp/fi.pat /tmp/fi.out "after fail_make_request"
log "fail_make_request: reads and writes failed cleanly; I/O works again after"
rblk_disconnect "$dev"
s=$(dmesg_splats) && { printf '%s\n' "$s"; fail "kernel splat"; }
rm -f /tmp/fi.pat /tmp/fi.out
exit 0

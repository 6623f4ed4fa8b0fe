#!/bin/bash
# `make check` after setup: the host unit tests of the tools and the
# install/DKMS tests (make host-check), then the selftests in a guest of
# each kernel, the guests side by side, and the build canary (make canary)
# meanwhile; prints the summaries and, last, the total.  Exits non-zero if
# any part failed (or a guest run was judged bad).
#
# usage: scripts/check.sh "TESTS"   (empty: all; only guest tests are named)
# env:   CHECK_KABIS (the kernels, by Debian ABI), CHECK_CORE_KABIS (those
#        that run the core tier), BUILD (see the Makefile);
#        RBLK_CHECK_JOBS (guests at a time, 0: all), RBLK_CHECK_CANARY=0
#        (no canary)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/}
CHECK_KABIS=${CHECK_KABIS:-$(sed -n 's/^KABIS := //p' Makefile)}
tests=${1:-}

# summary LOG: "passed failed skipped" from a runner's closing line.
summary() {
	local line
	line=$(grep -E '^[a-z]*:? ?[0-9]+ passed, [0-9]+ failed' "$1" | tail -n1)
	[ -n "$line" ] || { echo "0 1 0"; return; }
	echo "$line" | sed -E 's/^[a-z]*:? ?([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped| \(([0-9]+) skipped\))?.*/\1 \2 \4\5/' |
		awk '{ print $1, $2, ($3 == "" ? 0 : $3) }'
}

t_start=$(date +%s)
host_rc=0
if [ -z "$tests" ]; then
	echo "== host unit tests (tools/)"
	make --no-print-directory -C tools test 2>&1 | tee "${BUILD}host-tests.log"
	host_rc=${PIPESTATUS[0]}
	read -r hp hf hs < <(summary "${BUILD}host-tests.log")
	[ "$host_rc" -ne 0 ] && [ "$hf" -eq 0 ] && hf=1
	echo "== host install and DKMS tests"
	make --no-print-directory host-check KABI="${CHECK_KABIS%% *}" CHECK_KABIS="$CHECK_KABIS" 2>&1 | tee "${BUILD}host-install-tests.log"
	rc=${PIPESTATUS[0]}
	read -r xp xf xs < <(summary "${BUILD}host-install-tests.log")
	[ "$rc" -ne 0 ] && [ "$xf" -eq 0 ] && xf=1
	[ "$rc" -ne 0 ] && host_rc=$rc
	hp=$((hp + xp)) hf=$((hf + xf)) hs=$((hs + xs))
else
	hp=0 hf=0 hs=0
fi

t_host=$(($(date +%s) - t_start))

# Each kernel in its own guest.  The images are built one after another
# (kbuild and the initramfs keep both cores busy), then the guests run
# side by side, RBLK_CHECK_JOBS at a time (default: all): a TCG guest keeps
# about one core of two busy on average, as much of a selftest waits
# (timeouts, reconnect delays, keep-alive expiry; measured: 36 CPU-minutes
# in 40 wall-clock minutes for two guests run one after another).  Each
# guest's output goes to its own log, printed whole when all have ended.
# A kernel of CHECK_CORE_KABIS runs the core tier (TESTS=core) unless
# tests are named.
gp=0 gf=0 gs=0 vm_rc=0 per_kernel=
declare -A dir_of rc_of secs_of
for k in $CHECK_KABIS; do
	dir=$(make --no-print-directory -s guest-dir KABI="$k")
	# (A fresh tree has no such directory before the image is built.)
	mkdir -p "$dir" && rm -f "${dir}guest-tests.log"
	dir_of[$k]=$dir
	echo "== guest image for $k-amd64"
	if ! make --no-print-directory guest-build KABI="$k" > "${dir}guest-build.log" 2>&1; then
		cat "${dir}guest-build.log"
		echo "check: the guest image for $k did not build" >&2
		rc_of[$k]=2
	fi
done

jobs_max=${RBLK_CHECK_JOBS:-0}
running=0
start_guest() {
	local k=$1 t=$tests
	[ -z "$t" ] && [[ " ${CHECK_CORE_KABIS:-} " == *" $k "* ]] && t=core
	echo "== guest selftests on $k-amd64 (QEMU): started ($(date +%T)${t:+, TESTS=$t})"
	( s=$(date +%s)
	  make --no-print-directory guest-run KABI="$k" TESTS="$t" > "${dir_of[$k]}guest-tests.log" 2>&1
	  r=$?
	  echo "$r $(($(date +%s) - s))" > "${dir_of[$k]}guest-tests.rc"
	  exit "$r" ) &
	running=$((running + 1))
}
for k in $CHECK_KABIS; do
	[ -n "${rc_of[$k]:-}" ] && continue
	rm -f "${dir_of[$k]}guest-tests.rc"
	if [ "$jobs_max" -gt 0 ] && [ "$running" -ge "$jobs_max" ]; then
		wait -n
		running=$((running - 1))
	fi
	start_guest "$k"
done
# The build canary (sid's newest kernel, W=1, sparse, never booted) on
# the host while the guests run.
canary_rc=
if [ -z "$tests" ] && [ "${RBLK_CHECK_CANARY:-1}" = 1 ]; then
	echo "== build canary (make canary), beside the guests"
	make --no-print-directory canary > "${BUILD}canary.log" 2>&1
	canary_rc=$?
fi
wait
for k in $CHECK_KABIS; do
	[ -n "${rc_of[$k]:-}" ] && continue
	rcf="${dir_of[$k]}guest-tests.rc"
	if [ -f "$rcf" ]; then
		read -r r t < "$rcf"
		rc_of[$k]=$r secs_of[$k]=$t
	else
		rc_of[$k]=2
	fi
done

if [ -n "$canary_rc" ]; then
	echo "== build canary (make canary)"
	if [ "$canary_rc" -eq 0 ]; then
		grep -E '^canary:' "${BUILD}canary.log"
		echo "canary: $(grep -o 'linux-headers-[^ ]*-amd64' "${BUILD}canary.log" | tail -n 1): W=1, sparse and checkpatch clean"
		hp=$((hp + 1))
	else
		cat "${BUILD}canary.log"
		echo "canary: FAILED (exit $canary_rc)"
		hf=$((hf + 1)) host_rc=$canary_rc
	fi
fi

for k in $CHECK_KABIS; do
	dir=${dir_of[$k]}
	rc=${rc_of[$k]}
	echo "== guest selftests on $k-amd64 (QEMU)${secs_of[$k]:+, ${secs_of[$k]}s wall-clock}"
	[ -f "${dir}guest-tests.log" ] && cat "${dir}guest-tests.log"
	if [ -f "${dir}guest-tests.log" ]; then
		read -r p f s < <(summary "${dir}guest-tests.log")
	else
		p=0 f=1 s=0
	fi
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	[ "$rc" -ne 0 ] && vm_rc=$rc
	gp=$((gp + p)) gf=$((gf + f)) gs=$((gs + s))
	per_kernel="$per_kernel; $k: $p passed, $f failed, $s skipped${secs_of[$k]:+ (${secs_of[$k]}s)}"
done
[ -n "$CHECK_KABIS" ] || { echo "check: no kernel to run (CHECK_KABIS)" >&2; gf=1 vm_rc=2; }

echo "check: $(($(date +%s) - t_start)) s wall-clock (host tests ${t_host} s, then the guests side by side)"
echo "host: $hp passed, $hf failed, $hs skipped; guest: $gp passed, $gf failed, $gs skipped$per_kernel"
echo "total: $((hp + gp)) passed, $((hf + gf)) failed, $((hs + gs)) skipped"
[ "$host_rc" -eq 0 ] && [ "$vm_rc" -eq 0 ] && [ $((hf + gf)) -eq 0 ]

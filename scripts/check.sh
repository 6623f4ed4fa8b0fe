#!/bin/bash
# `make check` after setup: the host unit tests of the tools and the
# install/DKMS tests (make host-check), then every selftest in a guest of
# each kernel (make guest-check); prints the summaries and, last, the total.
# Exits non-zero if any part failed (or a guest run was judged bad).
#
# usage: scripts/check.sh "TESTS"   (empty: all; only guest tests are named)
# env:   CHECK_KABIS (the kernels, by Debian ABI), BUILD (see the Makefile)
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

# Each kernel in its own guest, one after another: each guest keeps both
# cores busy.
gp=0 gf=0 gs=0 vm_rc=0 per_kernel=
for k in $CHECK_KABIS; do
	echo "== guest selftests on $k-amd64 (QEMU)"
	dir=$(make --no-print-directory -s guest-dir KABI="$k")
	# (A fresh tree has no such directory before the image is built.)
	mkdir -p "$dir" && rm -f "${dir}guest-tests.log"
	make --no-print-directory guest-check KABI="$k" TESTS="$tests" 2>&1 |
		tee "${dir}guest-tests.log"
	rc=${PIPESTATUS[0]}
	if [ -f "${dir}guest-tests.log" ]; then
		read -r p f s < <(summary "${dir}guest-tests.log")
	else
		p=0 f=1 s=0
	fi
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	[ "$rc" -ne 0 ] && vm_rc=$rc
	gp=$((gp + p)) gf=$((gf + f)) gs=$((gs + s))
	per_kernel="$per_kernel; $k: $p passed, $f failed, $s skipped"
done
[ -n "$CHECK_KABIS" ] || { echo "check: no kernel to run (CHECK_KABIS)" >&2; gf=1 vm_rc=2; }

echo "host: $hp passed, $hf failed, $hs skipped; guest: $gp passed, $gf failed, $gs skipped$per_kernel"
echo "total: $((hp + gp)) passed, $((hf + gf)) failed, $((hs + gs)) skipped"
[ "$host_rc" -eq 0 ] && [ "$vm_rc" -eq 0 ] && [ $((hf + gf)) -eq 0 ]

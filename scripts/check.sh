#!/bin/bash
# `make check` after the build: the host unit tests of the tools and the
# install/DKMS tests (make host-check), then every selftest in the guest; prints both summaries and, last, the total.
# Exits non-zero if either part failed (or the guest run was judged bad).
#
# usage: scripts/check.sh "TESTS"   (empty: all; only guest tests are named)
# env:   KVER, BUILD, VM_TIMEOUT (see the Makefile)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/}
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
	make --no-print-directory host-check 2>&1 | tee "${BUILD}host-install-tests.log"
	rc=${PIPESTATUS[0]}
	read -r xp xf xs < <(summary "${BUILD}host-install-tests.log")
	[ "$rc" -ne 0 ] && [ "$xf" -eq 0 ] && xf=1
	[ "$rc" -ne 0 ] && host_rc=$rc
	hp=$((hp + xp)) hf=$((hf + xf)) hs=$((hs + xs))
else
	hp=0 hf=0 hs=0
fi

echo "== guest selftests (QEMU)"
scripts/vm-run.sh --timeout "${VM_TIMEOUT:-600}" --mode check --tests "$tests" 2>&1 |
	tee "${BUILD}guest-tests.log"
vm_rc=${PIPESTATUS[0]}
read -r gp gf gs < <(summary "${BUILD}guest-tests.log")
[ "$vm_rc" -ne 0 ] && [ "$gf" -eq 0 ] && gf=1

echo "host: $hp passed, $hf failed, $hs skipped; guest: $gp passed, $gf failed, $gs skipped"
echo "total: $((hp + gp)) passed, $((hf + gf)) failed, $((hs + gs)) skipped"
[ "$host_rc" -eq 0 ] && [ "$vm_rc" -eq 0 ] && [ $((hf + gf)) -eq 0 ]

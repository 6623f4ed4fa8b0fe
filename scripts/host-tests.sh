#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of what an administrator installs (make host-check, and the
# host part of make check): tests/install_test.sh and tests/dkms_test.sh,
# each KTAP; prints them, then "N passed, N failed".
#
# env: KVER, KDIR (see the Makefile)
cd "$(dirname "$0")/.." || exit 1

pass=0 fail=0 skip=0
for t in tests/install_test.sh tests/dkms_test.sh; do
	out=$(bash "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | grep -E '^ok [0-9]+' | grep -vc '# SKIP')
	s=$(printf '%s\n' "$out" | grep -E '^ok [0-9]+' | grep -c '# SKIP')
	f=$(printf '%s\n' "$out" | grep -cE '^not ok [0-9]+')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "# $t exited with $rc without a failing case"
		f=1
	fi
	pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + f))
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

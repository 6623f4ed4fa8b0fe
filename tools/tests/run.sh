#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs nvmecfg's host unit tests (make -C tools test). Each test program
# prints KTAP; this prints them all, then "N passed, N failed", and fails if
# anything failed or a program died without saying so.
cd "$(dirname "$0")" || exit 1

pass=0 fail=0 skip=0
for t in ./opts_test ./output_test ./nl_test ./decode_test ./host_test \
	 ./json_test.sh \
	./cli_test.sh; do
	out=$("$t" 2>&1)
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

if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed ($skip skipped)"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]

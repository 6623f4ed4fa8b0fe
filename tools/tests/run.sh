#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs nvmecfg's host unit tests (make -C tools test). Each test program
# prints KTAP; this prints them all, then "N passed, N failed", and fails if
# anything failed or a program died without saying so.
cd "$(dirname "$0")" || exit 1

# shellcheck source=ktap-run.sh
. ./ktap-run.sh
pass=0 fail=0 skip=0
ktap_run ./opts_test ./output_test ./nl_test ./decode_test ./host_test \
	./conf_test ./json_test.sh ./cli_test.sh

if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed ($skip skipped)"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]

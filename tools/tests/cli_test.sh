#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# nvmecfg as a program: help, usage errors and their exit codes, and the
# "module not loaded" path against the host kernel (which never has rblk).
# Prints KTAP.
cd "$(dirname "$0")" || exit 1
NVMECFG=../nvmecfg
OUT=${TMPDIR:-/tmp}/nvmecfg-cli.$$
trap 'rm -f "$OUT".*' EXIT

n=0
# expect NAME RC PATTERN CMD...: CMD exits RC, and stdout+stderr match the
# extended regex PATTERN.
expect() {
	_name=$1 _rc=$2 _pat=$3
	shift 3
	n=$((n + 1))
	"$@" > "$OUT.out" 2>&1
	_got=$?
	if [ "$_got" -eq "$_rc" ] && grep -qE -- "$_pat" "$OUT.out"; then
		echo "ok $n $_name"
	else
		echo "# $*: exit $_got (want $_rc), output:"
		sed 's/^/# /' "$OUT.out"
		echo "# wanted: $_pat"
		echo "not ok $n $_name"
	fi
}

NQN=nqn.2026-12.io.rblk:test
LONG_NQN=nqn.$(printf '%0220d' 0)

echo "KTAP version 1"
echo "# suite: cli"
echo "1..30"

expect help 0 'Exit status: 0 success' $NVMECFG --help
expect help_command 0 '^Usage: nvmecfg connect ' $NVMECFG help connect
expect help_unknown 2 "unknown command 'bogus'" $NVMECFG help bogus
expect help_duplicate_connect 0 '^  -D, --duplicate-connect ' \
	$NVMECFG connect --help
expect help_names 0 '^Usage: nvmecfg show \{NAME \| -d NAME \| --index N\}' \
	$NVMECFG show --help
for c in connect disconnect list show stats discover monitor; do
	expect "${c}_help" 0 "^Usage: nvmecfg $c" $NVMECFG $c --help
done
expect no_command 2 '^Usage: nvmecfg COMMAND' $NVMECFG
expect unknown_command 2 "unknown command 'frob'" $NVMECFG frob
expect connect_no_traddr 2 'connect: missing required option --traddr' \
	$NVMECFG connect -n $NQN
expect connect_no_nqn 2 'connect: missing required option --nqn' \
	$NVMECFG connect -a 10.99.0.1
expect connect_bad_queues 2 '0 is out of range 1-128' \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -i 0
expect connect_bad_number 2 "'1k' is not a number" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -Q 1k
expect connect_tcp 2 "'tcp' is not supported, only rdma" \
	$NVMECFG connect -t tcp -a 10.99.0.1 -n $NQN
expect connect_long_nqn 2 'longer than 223 characters' \
	$NVMECFG connect -a 10.99.0.1 -n "$LONG_NQN"
expect connect_unknown_option 2 "unknown option '--frob'" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN --frob
expect usage_hint 2 "Try 'nvmecfg connect --help'" \
	$NVMECFG connect -a 10.99.0.1
expect disconnect_no_device 2 'no device given' $NVMECFG disconnect
expect list_extra_argument 2 "unexpected argument 'rblk0'" \
	$NVMECFG list rblk0
expect show_two_devices 2 'more than one device' \
	$NVMECFG show rblk0 --index 1
expect disconnect_ctrl_and_ns 2 'more than one device' \
	$NVMECFG disconnect rblk-ctrl0 rblk0
expect stats_duplicate_connect 2 "unknown option '-D'" \
	$NVMECFG stats rblk-ctrl0 -D

# Beyond the command line: the host kernel has no rblk family.
if [ -d /sys/module/rblk ]; then
	n=$((n + 1)); echo "ok $n module_missing # SKIP rblk loaded on the host"
	n=$((n + 1)); echo "ok $n module_missing_json # SKIP rblk loaded"
	n=$((n + 1)); echo "ok $n module_missing_ctrl # SKIP rblk loaded"
else
	expect module_missing 3 'rblk module not loaded' $NVMECFG list
	expect module_missing_json 3 'rblk module not loaded' \
		$NVMECFG connect -a 10.99.0.1 -n $NQN -D -o json
	expect module_missing_ctrl 3 'rblk module not loaded' \
		$NVMECFG show rblk-ctrl0
fi

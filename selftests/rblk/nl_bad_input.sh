#!/bin/sh
# Every class of bad connect input is refused with the documented exit code
# and a reason: 2 (usage) for what nvmecfg catches itself and for what the
# kernel's checks refuse naming the attribute (with its extack message), 1
# for well-formed requests the target or the network turns down.  No
# device is ever created.
# Then nlraw sends what nvmecfg never would (wrong attribute types, lying
# lengths, over-long strings, missing attributes, stray flags) and checks
# each errno; the runner fails the test on any kernel splat.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v nvmecfg >/dev/null || fail "nvmecfg missing from the guest"
command -v nlraw >/dev/null || fail "nlraw missing from the guest (tools/tests/nlraw)"
# multipath=N: nlraw's "set iopolicy without multipath" wants that refusal
# (the rest does not depend on it; nl_fuzz runs with the default).
rblk_load multipath=N
trap 'rblk_unload' EXIT

NQN=$RBLK_NQN
LONG_NQN=nqn.$(printf '%0220d' 0)
nfail=0

no_devices() {
	for _d in /sys/block/rblk* /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_d" ] && return 1
	done
	return 0
}

# check WHAT RC PATTERN ARGS...: nvmecfg ARGS exits RC, says PATTERN (an
# extended regex) and leaves no device behind.
check() {
	_what=$1 _rc=$2 _pat=$3
	shift 3
	_got=0
	_out=$(timeout 120 nvmecfg "$@" 2>&1) || _got=$?
	if [ "$_got" -ne "$_rc" ]; then
		log "FAIL $_what: exit $_got, want $_rc: $_out"
		nfail=$((nfail + 1))
	elif ! printf '%s\n' "$_out" | grep -qE -- "$_pat"; then
		log "FAIL $_what: '$_out' lacks '$_pat'"
		nfail=$((nfail + 1))
	elif ! no_devices; then
		log "FAIL $_what: a device was created"
		nfail=$((nfail + 1))
	else
		log "ok $_what: $_out"
	fi
}

# check_connect WHAT RC PATTERN ARGS...: check of a connect to the test port.
check_connect() {
	_w=$1 _r=$2 _p=$3
	shift 3
	check "$_w" "$_r" "$_p" connect -t rdma -s "$RBLK_TRSVCID" "$@"
}

# nvmecfg's own checks: usage errors.
check_connect "too-long NQN" 2 'connect: --nqn \(-n\): longer than 222 characters' \
	-a "$RBLK_TRADDR" -n "$LONG_NQN"
check_connect "too-long host NQN" 2 'longer than 222 characters' \
	-a "$RBLK_TRADDR" -n "$NQN" -q "$LONG_NQN"
check_connect "-i 0" 2 '--nr-io-queues \(-i\): 0 is out of range 1-128' \
	-a "$RBLK_TRADDR" -n "$NQN" -i 0
check_connect "-i 1000" 2 '1000 is out of range 1-128' \
	-a "$RBLK_TRADDR" -n "$NQN" -i 1000
check_connect "-Q 1" 2 '--queue-size \(-Q\): 1 is out of range 16-1024' \
	-a "$RBLK_TRADDR" -n "$NQN" -Q 1
check_connect "-k 4000" 2 'out of range 0-3600' -a "$RBLK_TRADDR" -n "$NQN" -k 4000
check_connect "-l -5" 2 'out of range -1-' -a "$RBLK_TRADDR" -n "$NQN" -l -5
check_connect "-N 0" 2 'out of range 1-' -a "$RBLK_TRADDR" -n "$NQN" -N 0
check_connect "-i x" 2 "'x' is not a number" -a "$RBLK_TRADDR" -n "$NQN" -i x
# -s: a port number (the kernel's own check of one: nlraw, below).
check "port 0" 2 'connect: --trsvcid \(-s\): 0 is out of range 1-65535' \
	connect -a "$RBLK_TRADDR" -s 0 -n "$NQN"
check "port 65536" 2 '65536 is out of range 1-65535' \
	connect -a "$RBLK_TRADDR" -s 65536 -n "$NQN"
check "port abc" 2 "--trsvcid \(-s\): 'abc' is not a number" \
	connect -a "$RBLK_TRADDR" -s abc -n "$NQN"
check "-t tcp" 2 "'tcp' is not supported, only rdma" \
	connect -t tcp -a "$RBLK_TRADDR" -n "$NQN"
check_connect "missing -a" 2 'missing required option --traddr \(-a\)' -n "$NQN"
check_connect "missing -n" 2 'missing required option --nqn \(-n\)' \
	-a "$RBLK_TRADDR"
check_connect "bad --hostid" 2 'is not a UUID' \
	-a "$RBLK_TRADDR" -n "$NQN" -I 1234
check_connect "unknown option" 2 "unknown option '--frob'" \
	-a "$RBLK_TRADDR" -n "$NQN" --frob

check_connect "empty host NQN" 2 'empty value' \
	-a "$RBLK_TRADDR" -n "$NQN" -q ''

# The kernel's checks: usage errors too, with the option it blames and
# the extack reason.
check_connect "bad traddr" 2 'connect: --traddr \(-a\): .*traddr is not an IPv4/IPv6 address' \
	-a 10.99.0 -n "$NQN"
check_connect "hostname traddr" 2 'traddr is not an IPv4/IPv6 address' \
	-a localhost -n "$NQN"
check_connect "scope on a global address" 2 'traddr is not an IPv4/IPv6 address' \
	-a "fd00::1%lo" -n "$NQN"
check_connect "hostname host_traddr" 2 '--host-traddr \(-w\): .*host_traddr is not an IPv4/IPv6 address' \
	-a "$RBLK_TRADDR" -n "$NQN" -w localhost
# The discovery NQN is no bad input: a persistent discovery controller
# (persistent_discovery).
# Keys of the right form that the kernel's library refuses, a secret of
# a wrong length (35 bytes) or a wrong CRC (KEY's, last bit flipped): a
# usage error naming the option that holds it.  Where the library is.
KEY='DHHC-1:00:AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAl7OaH:'
BAD_LEN='DHHC-1:00:AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiO2vT9G:'
BAD_CRC='DHHC-1:00:AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAk7OaH:'
if modinfo nvme-auth >/dev/null 2>&1; then
	check_connect "host key of a wrong length" 2 \
		'--dhchap-secret \(-S\): .*malformed DH-HMAC-CHAP host key' \
		-a "$RBLK_TRADDR" -n "$NQN" -S "$BAD_LEN" -C "$KEY"
	check_connect "host key of a wrong CRC" 2 \
		'--dhchap-secret \(-S\): .*malformed DH-HMAC-CHAP host key' \
		-a "$RBLK_TRADDR" -n "$NQN" -S "$BAD_CRC"
	check_connect "controller key of a wrong length" 2 \
		'--dhchap-ctrl-secret \(-C\): .*malformed DH-HMAC-CHAP controller key' \
		-a "$RBLK_TRADDR" -n "$NQN" -S "$KEY" -C "$BAD_LEN"
	check_connect "controller key of a wrong CRC" 2 \
		'--dhchap-ctrl-secret \(-C\): .*malformed DH-HMAC-CHAP controller key' \
		-a "$RBLK_TRADDR" -n "$NQN" -S "$KEY" -C "$BAD_CRC"
fi

# Well-formed requests the target (or the network) turns down.
check_connect "unknown subsystem" 1 '^nvmecfg: connect: .*subsystem' \
	-a "$RBLK_TRADDR" -n nqn.2026-12.io.rblk:nonexistent
# Any name is an NQN (as for the Linux host): the target judges it.
check_connect "NQN without nqn. prefix" 1 '^nvmecfg: connect: .*subsystem' \
	-a "$RBLK_TRADDR" -n iqn.2026-12.io.rblk:test
check_connect "unknown namespace" 1 '^nvmecfg: connect: ' \
	-a "$RBLK_TRADDR" -n "$NQN" -N 99
check "dead port" 1 '^nvmecfg: connect: ' \
	connect -a "$RBLK_TRADDR" -s $((RBLK_TRSVCID + 1)) -n "$NQN"

# Naming devices that are not there.
check "disconnect rblk9" 1 'disconnect: No such device' disconnect rblk9
check "disconnect --index 9" 1 'No such device' disconnect --index 9
check "show rblk9" 1 'show: No such device' show rblk9
check "disconnect rblk-ctrl9" 1 'disconnect: No such device' disconnect rblk-ctrl9
check "show rblk-ctrl9" 1 'show: No such device' show rblk-ctrl9
check "stats rblk9" 1 'stats: No such device' stats rblk9

[ "$nfail" -eq 0 ] || fail "$nfail nvmecfg check(s) failed"

# Below nvmecfg: raw malformed requests.
must nlraw

# The family still answers sanely.
out=$(nvmecfg list -o json) || fail "nvmecfg list failed after nlraw"
[ "$out" = '{
  "Devices": [],
  "controllers": []
}' ] || fail "unexpected list after nlraw: $out"
no_devices || fail "a device was created"
exit 0

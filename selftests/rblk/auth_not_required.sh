#!/bin/sh
# A target that does not authenticate (the test subsystem, open to any
# host): a host key alone connects, unauthenticated, with one info line (as
# nvme); a controller key is refused (-EKEYREJECTED): the user asked for
# the controller to be proven, and it cannot be.  6.12 (skips elsewhere).
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v nvme >/dev/null || fail "nvme-cli missing from the guest"
modinfo nvme-auth >/dev/null 2>&1 ||
	skip "kernel without the NVMe authentication library (auth_refused_61)"
rblk_load
trap 'rblk_unload' EXIT

KEY=$(auth_key 32 "$RBLK_HOSTNQN") || exit "$KSFT_FAIL"
CKEY=$(auth_key 32 "$RBLK_NQN") || exit "$KSFT_FAIL"

dev=$(rblk_connect "$RBLK_NSID_FILE" -S "$KEY") || exit 1
ctrl=$(rblk_ctrl_of "$dev")
dmesg | grep -q "$ctrl: target does not require authentication: connecting unauthenticated" ||
	fail "no info line for the unneeded key"
dmesg | grep -q "$ctrl: authenticated:" && fail "$ctrl says it authenticated"
[ "$(rblk_attr "$dev" state)" = live ] || fail "$ctrl not live"
rblk_disconnect "$dev"
log "-S to a target without keys: connected unauthenticated"

rc=0
out=$(timeout 120 nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" -S "$KEY" -C "$CKEY" 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "-C to a target without keys: exit $rc: $out"
printf '%s\n' "$out" | grep -q 'Key was rejected by service: DH-HMAC-CHAP: the target does not authenticate, so the controller key cannot be checked' ||
	fail "-C: '$out' lacks the reason"
for d in /sys/block/rblk* /sys/class/rblk/rblk-ctrl*; do
	[ -e "$d" ] && fail "$d left after the refused connect"
done
log "-C to a target without keys: refused: $out"
auth_no_leak "$KEY" "$CKEY"
exit 0

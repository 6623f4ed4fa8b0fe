#!/bin/sh
# A target that requires DH-HMAC-CHAP (nvmet with a host key) and a connect
# without -S: refused at once with -ENOKEY ("Required key not available")
# and the reason, in the answer and the kernel log; nothing is left.  With
# the key it connects.  nvme-rdma without the key does not connect either
# (same boot).  6.12 (skips elsewhere).
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

auth_target_setup
trap auth_cleanup EXIT
rblk_load

KEY=$(auth_key 48 "$RBLK_HOSTNQN") || exit "$KSFT_FAIL"
nvmet_host_auth "$KEY" "" "hmac(sha384)" null

out=$(auth_refused 1 'Required key not available: target requires DH-HMAC-CHAP authentication, and no host key was given \(-S\)') || exit "$KSFT_FAIL"
log "refused: $out"
dmesg | grep -q 'queue 0: target requires DH-HMAC-CHAP authentication; no host key (-S)' ||
	fail "no reason in the kernel log: $(dmesg | tail -n 5)"

out=$(auth_connect -S "$KEY") || exit "$KSFT_FAIL"
ctrl=$(echo "$out" | head -n 1)
log "with the key: $ctrl"
must nvmecfg disconnect "$ctrl"

must modprobe nvme-rdma
if nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$AUTH_NQN" \
	>/dev/null 2>&1 && nvme_wait_ns_dev "$AUTH_NQN" 1 >/dev/null; then
	fail "nvme-rdma connected without a key"
fi
log "nvme-rdma without a key: not connected either"
auth_no_leak "$KEY"
exit 0

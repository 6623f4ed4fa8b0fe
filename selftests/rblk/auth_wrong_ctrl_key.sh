#!/bin/sh
# -C with a key the controller does not hold: the controller's response
# does not match, rblk refuses it (-EKEYREJECTED, after telling the target
# with AUTH_Failure2) and leaves nothing.  nvme-rdma refuses the same
# keys in the same boot.  6.12 (skips elsewhere).
# nvme-rdma was seen stuck in nvme_auth_wait() (D state) on the wrong
# controller key here: its connect is given 90 s, after which there is no
# reference and the stuck controller is left alone; and this test runs
# last, so that no other test meets what it leaves.
# rblk-timeout: 300
# rblk-order: last
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

nvme_stuck=
cleanup() {
	if [ -n "$nvme_stuck" ]; then
		auth_cleanup_rblk
	else
		auth_cleanup
	fi
}
auth_target_setup
trap cleanup EXIT
rblk_load

KEY=$(auth_key 32 "$RBLK_HOSTNQN") || exit "$KSFT_FAIL"
CKEY=$(auth_key 32 "$AUTH_NQN") || exit "$KSFT_FAIL"
WRONG=$(auth_key 32 "$AUTH_NQN") || exit "$KSFT_FAIL"
# The target holds no controller key (a fresh host entry): it cannot
# answer the challenge (nvmet then fails the exchange itself, FAILURE1,
# or answers without a response); refused either way.
nvmet_host_auth "$KEY" "" "hmac(sha256)" null
out=$(auth_refused_racy 1 'Key was rejected by service: DH-HMAC-CHAP: the (controller did not prove the controller key|target refused the host key, or has no controller key)' \
	-S "$KEY" -C "$CKEY") || exit "$KSFT_FAIL"
log "no controller key on the target: refused: $out"

nvmet_host_auth "$KEY" "$CKEY" "hmac(sha256)" ffdhe2048

out=$(auth_refused 1 "Key was rejected by service: DH-HMAC-CHAP: the controller's response does not match the controller key" \
	-S "$KEY" -C "$WRONG") || exit "$KSFT_FAIL"
log "refused: $out"
dmesg | grep -q 'queue 0: controller authentication failed: its response does not match the controller key' ||
	fail "no reason in the kernel log: $(dmesg | tail -n 5)"

must modprobe nvme-rdma
nvmet_host_auth "$KEY" "$CKEY" "hmac(sha256)" ffdhe2048
nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$AUTH_NQN" \
	-S "$KEY" -C "$WRONG" >/dev/null 2>&1 &
npid=$!
if ! wait_until 90 exited "$npid"; then
	nvme_stuck=1
	log "nvme-rdma's connect did not return in 90 s (stuck in its own authentication): no reference"
	auth_no_leak "$KEY" "$CKEY" "$WRONG"
	exit 0
fi
if wait "$npid"; then
	nvme_wait_ns_dev "$AUTH_NQN" 1 >/dev/null &&
		fail "nvme-rdma connected with the wrong controller key"
	log "nvme-rdma: connect returned 0 but no namespace appeared"
else
	log "nvme-rdma refused the wrong controller key too"
fi
auth_no_leak "$KEY" "$CKEY" "$WRONG"
exit 0

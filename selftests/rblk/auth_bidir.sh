#!/bin/sh
# DH-HMAC-CHAP both ways (-S and -C; nvmet with dhchap_key and
# dhchap_ctrl_key): the controller proves the controller key on every
# queue it authenticates (6.12's nvmet: each; 7.3's: the admin queue, and
# the I/O queues of that association go without, as nvme's host takes
# them), for the null group and plain keys, and for ffdhe3072 and keys
# transformed (host key: SHA-256 with the host NQN; controller key:
# SHA-384 with the subsystem NQN), and again after a reset; verified
# I/O.  nvme-rdma connects with the plain keys in the same boot.
# 6.12 and later (skips on 6.1).
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

auth_target_setup
trap auth_cleanup EXIT
rblk_load

KEY=$(auth_key 32 "$RBLK_HOSTNQN") || exit "$KSFT_FAIL"
CKEY=$(auth_key 48 "$AUTH_NQN") || exit "$KSFT_FAIL"
TKEY=$(auth_key 32 "$RBLK_HOSTNQN" 1) || exit "$KSFT_FAIL"
TCKEY=$(auth_key 48 "$AUTH_NQN" 2) || exit "$KSFT_FAIL"

for setting in "hmac(sha256) null $KEY $CKEY" \
	       "hmac(sha512) ffdhe3072 $TKEY $TCKEY"; do
	# shellcheck disable=SC2086 # four words: hash, group, keys
	set -- $setting
	nvmet_host_auth "$3" "$4" "$1" "$2"
	out=$(auth_connect -S "$3" -C "$4") || exit "$KSFT_FAIL"
	ctrl=$(echo "$out" | head -n 1)
	dev=/dev/$(echo "$out" | sed -n 2p)
	wait_for_path "$dev" 10 -b || fail "$dev did not appear"
	dmesg | grep -q "$ctrl: authenticated: $1, $2, bidirectional" ||
		fail "no 'authenticated: $1, $2, bidirectional' for $ctrl"
	auth_io "$dev"
	n=$(dmesg | grep -c "$ctrl: authenticated: $1, $2, bidirectional")
	must nvmecfg reset "$ctrl"
	[ "$(dmesg | grep -c "$ctrl: authenticated: $1, $2, bidirectional")" -eq $((n + 1)) ] ||
		fail "the reset did not authenticate both ways again"
	auth_io "$dev"
	log "$1 $2: bidirectional, reset too, I/O verified"
	auth_no_leak "$KEY" "$CKEY" "$TKEY" "$TCKEY"
	must nvmecfg disconnect "$ctrl"
	wait_for_path "$dev" 10 ! || fail "$dev still present after disconnect"
done

must modprobe nvme-rdma
nvmet_host_auth "$KEY" "$CKEY" "hmac(sha512)" ffdhe3072
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$AUTH_NQN" \
	-S "$KEY" -C "$CKEY"
ndev=$(nvme_wait_ns_dev "$AUTH_NQN" 1) || fail "nvme-rdma did not connect with the keys"
dd if="$ndev" of=/dev/null bs=1M count=4 iflag=direct 2>/dev/null ||
	fail "nvme-rdma: read of $ndev failed"
must nvme disconnect -n "$AUTH_NQN"
log "nvme-rdma connected both ways with the same keys"
auth_no_leak "$KEY" "$CKEY" "$TKEY" "$TCKEY"
exit 0

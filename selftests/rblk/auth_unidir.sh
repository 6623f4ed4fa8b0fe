#!/bin/sh
# DH-HMAC-CHAP, the host authenticated by the target (nvmet with a host
# key): for a hash with the null group, and two hashes with a DH group
# (ffdhe2048; ffdhe8192 once, the largest values, in the 4 KiB buffer),
# with a plain key, then keys transformed by SHA-384 and SHA-512 with the
# host NQN (a key hashed with another NQN would be refused),
# the connect authenticates the admin queue and every I/O queue (nvmet
# fails any command on a queue that did not: the data through every queue
# proves them), short verified I/O lands in the target's file, and a reset
# authenticates them all again.  nvme-rdma connects with the same key in
# the same boot.  No key is readable anywhere.  6.12 (skips elsewhere).
# rblk-timeout: 900
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

auth_target_setup
trap auth_cleanup EXIT
rblk_load

KEY=$(auth_key 32 "$RBLK_HOSTNQN") || exit "$KSFT_FAIL"
KEY48=$(auth_key 48 "$RBLK_HOSTNQN" 2) || exit "$KSFT_FAIL"
KEY64=$(auth_key 64 "$RBLK_HOSTNQN" 3) || exit "$KSFT_FAIL"

# authenticated_count: "authenticated:" lines rblk logged so far.
authenticated_count() { dmesg | grep -c 'rblk-ctrl[0-9]*: authenticated: '; }

# one KEY HASH GROUP [OPTIONS...]
one() {
	_key=$1 _hash=$2 _group=$3; shift 3
	nvmet_host_auth "$_key" "" "$_hash" "$_group"
	_before=$(authenticated_count)
	_out=$(auth_connect -S "$_key" "$@") || exit "$KSFT_FAIL"
	_ctrl=$(echo "$_out" | head -n 1)
	_dev=/dev/$(echo "$_out" | sed -n 2p)
	wait_for_path "$_dev" 10 -b || fail "$_dev did not appear: $_out"
	dmesg | grep -q "$_ctrl: authenticated: $_hash, $_group, unidirectional" ||
		fail "no 'authenticated: $_hash, $_group' for $_ctrl: $(dmesg | grep "$_ctrl" | tail -n 5)"
	[ "$(authenticated_count)" -eq $((_before + 1)) ] ||
		fail "not one 'authenticated' line (admin queue) for the connect"
	_ioq=$(cat "/sys/class/rblk/$_ctrl/nr_io_queues" 2>/dev/null || echo "?")
	log "$_hash $_group: $_ctrl authenticated, $_ioq I/O queues"
	auth_io "$_dev"

	# Every queue again on the reconnect.
	must nvmecfg reset "$_ctrl"
	[ "$(rblk_attr "$_dev" state)" = live ] || fail "$_ctrl not live after reset"
	[ "$(authenticated_count)" -eq $((_before + 2)) ] ||
		fail "the reset did not authenticate again"
	auth_io "$_dev"
	log "$_hash $_group: reset authenticated again, I/O verified"
	auth_no_leak "$KEY" "$KEY48" "$KEY64"
	must nvmecfg disconnect "$_ctrl"
	wait_for_path "$_dev" 10 ! || fail "$_dev still present after disconnect"
}

one "$KEY" "hmac(sha256)" null
one "$KEY48" "hmac(sha384)" ffdhe2048
one "$KEY64" "hmac(sha512)" ffdhe8192 -i 1

# The reference: the kernel's own host, same key, same target.
must modprobe nvme-rdma
nvmet_host_auth "$KEY" "" "hmac(sha256)" ffdhe2048
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$AUTH_NQN" \
	-S "$KEY"
dev=$(nvme_wait_ns_dev "$AUTH_NQN" 1) || fail "nvme-rdma did not connect with the key"
dd if="$dev" of=/dev/null bs=1M count=4 iflag=direct 2>/dev/null ||
	fail "nvme-rdma: read of $dev failed"
must nvme disconnect -n "$AUTH_NQN"
log "nvme-rdma connected and read with the same key"

auth_no_leak "$KEY" "$KEY48" "$KEY64"
exit 0

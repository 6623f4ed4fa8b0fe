#!/bin/sh
# A host key the target does not hold: the first connect is refused with
# -EKEYREJECTED and the target's reason (Failed), nothing left.  Then a
# controller connected with the right key whose key the target changes:
# I/O goes on (nothing re-authenticates a live queue), but the reconnect
# after a reset is refused once and is final: no second attempt, the
# controller DEAD at once (not after ctrl_loss_tmo), its I/O failing, and
# it disconnects cleanly.  6.12 (skips elsewhere).
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

auth_target_setup
cleanup() {
	for _c in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_c" ] && nvmecfg disconnect "${_c##*/}" >/dev/null 2>&1
	done
	rblk_unload
	auth_target_cleanup
}
trap cleanup EXIT
rblk_load

KEY=$(auth_key 32 "$RBLK_HOSTNQN") || exit "$KSFT_FAIL"
OTHER=$(auth_key 32 "$RBLK_HOSTNQN") || exit "$KSFT_FAIL"
nvmet_host_auth "$KEY" "" "hmac(sha256)" ffdhe2048

out=$(auth_refused 1 'Key was rejected by service: DH-HMAC-CHAP: the target refused the host key' -S "$OTHER") || exit "$KSFT_FAIL"
log "wrong key refused: $out"
dmesg | grep -q 'queue 0: authentication failed: target refused the host key (Failed)' ||
	fail "no reason in the kernel log: $(dmesg | tail -n 5)"

# Connected with the right key; the target's key changes under it.
out=$(auth_connect -S "$KEY" -l 600 -c 2) || exit "$KSFT_FAIL"
ctrl=$(echo "$out" | head -n 1)
dev=/dev/$(echo "$out" | sed -n 2p)
wait_for_path "$dev" 10 -b || fail "$dev did not appear"
nvmet_host_auth "$OTHER" "" "hmac(sha256)" ffdhe2048
auth_io "$dev"
log "key changed on the target: I/O on the live queues goes on"

attempts=$(rblk_attr "$dev" reconnect_attempts)
nvmecfg reset "$ctrl" >/dev/null 2>&1
rblk_wait_state "$dev" dead 30 ||
	fail "$ctrl not dead after the refused reconnect: $(rblk_attr "$dev" state)"
sleep 5
[ "$(rblk_attr "$dev" state)" = dead ] || fail "$ctrl left the dead state"
got=$(rblk_attr "$dev" reconnect_attempts)
[ "$got" -eq $((attempts + 1)) ] ||
	fail "$((got - attempts)) reconnect attempts, want 1: the refusal was not final"
dmesg | grep -q "$ctrl: authentication failed, not reconnecting, failing all I/O until disconnect" ||
	fail "no final message: $(dmesg | grep "$ctrl" | tail -n 5)"
dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null &&
	fail "I/O on the dead controller succeeded"
log "reconnect refused once, $ctrl dead at once, I/O fails"

must nvmecfg disconnect "$ctrl"
wait_for_path "$dev" 10 ! || fail "$dev still present after disconnect"
auth_no_leak "$KEY" "$OTHER"
exit 0

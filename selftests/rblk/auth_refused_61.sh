#!/bin/sh
# On a kernel without the NVMe authentication library (Debian 12's 6.1:
# no CONFIG_NVME_AUTH, no nvme-auth.ko), a DH-HMAC-CHAP key is refused
# with the message naming the missing library, on connect and discover,
# -S or -C alone: nothing is created, and the key appears neither in
# nvmecfg's answer nor in the kernel log.  The default key of
# /etc/nvme/hostkey (RBLK_ATTR_DHCHAP_KEY_DEFAULT) is dropped instead:
# connect, discover and connect-all reach the target as without it.
# Skips where the library is.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

modinfo nvme-auth >/dev/null 2>&1 &&
	skip "this kernel has the NVMe authentication library (auth_* tests)"
command -v nvme >/dev/null || fail "nvme-cli missing from the guest"
rblk_load
HOSTKEY=/etc/nvme/hostkey
[ -f "$HOSTKEY" ] && mv "$HOSTKEY" "$HOSTKEY.saved"
cleanup() {
	for _c in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_c" ] && nvmecfg disconnect "${_c##*/}" >/dev/null 2>&1
	done
	rm -f "$HOSTKEY" /tmp/auth61.out
	[ -f "$HOSTKEY.saved" ] && mv "$HOSTKEY.saved" "$HOSTKEY"
	rblk_unload
}
trap cleanup EXIT

MSG="DH-HMAC-CHAP needs the kernel's NVMe authentication library (CONFIG_NVME_AUTH), which this kernel lacks"
KEY=$(nvme gen-dhchap-key -l 32 -m 0 -n "$RBLK_HOSTNQN" 2>/dev/null) ||
	fail "nvme gen-dhchap-key failed"
CKEY=$(nvme gen-dhchap-key -l 48 -m 0 -n "$RBLK_NQN" 2>/dev/null) ||
	fail "nvme gen-dhchap-key failed"
# The key's secret part, as it would show if anything printed it.
secret() { _s=${1#DHHC-1:??:}; echo "${_s%:}"; }

no_devices() {
	for _d in /sys/block/rblk* /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_d" ] && return 1
	done
	return 0
}

# refused WHAT ARGS...: nvmecfg ARGS fails with the message.
refused() {
	_what=$1; shift
	_rc=0
	_out=$(timeout 120 nvmecfg "$@" 2>&1) || _rc=$?
	[ "$_rc" -ne 0 ] || fail "$_what: accepted"
	printf '%s\n' "$_out" | grep -qF "$MSG" || fail "$_what: '$_out' lacks the message"
	for _k in "$KEY" "$CKEY"; do
		printf '%s\n' "$_out" | grep -qF "$(secret "$_k")" && fail "$_what: the key is in the answer"
	done
	no_devices || fail "$_what: a device was created"
	log "ok $_what (exit $_rc): $_out"
}

refused "connect -S" connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" -S "$KEY"
refused "connect -S -C" connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" -S "$KEY" -C "$CKEY"
refused "connect -C alone" connect -t rdma -a "$RBLK_TRADDR" \
	-s "$RBLK_TRSVCID" -n "$RBLK_NQN" -C "$CKEY"
refused "discover -S" discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-S "$KEY"

# Without a key the same target connects as ever.
dev=$(rblk_connect "$RBLK_NSID_FILE") || fail "connect without a key failed"
rblk_disconnect "$dev"

# The default key: dropped here, not refused.
printf '%s\n' "$KEY" > "$HOSTKEY"
chmod 600 "$HOSTKEY"
dev=$(rblk_connect "$RBLK_NSID_FILE") || fail "connect with $HOSTKEY refused"
rblk_disconnect "$dev"
nvmecfg discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" > /tmp/auth61.out 2>&1 ||
	{ cat /tmp/auth61.out; fail "discover with $HOSTKEY refused"; }
grep -qF "$RBLK_NQN" /tmp/auth61.out || fail "discover with $HOSTKEY: no $RBLK_NQN"
nvmecfg connect-all -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" >> /tmp/auth61.out 2>&1 ||
	{ cat /tmp/auth61.out; fail "connect-all with $HOSTKEY refused"; }
grep -q "^rblk-ctrl[0-9]* $RBLK_NQN " /tmp/auth61.out ||
	{ cat /tmp/auth61.out; fail "connect-all with $HOSTKEY did not connect $RBLK_NQN"; }
grep -qF "$(secret "$KEY")" /tmp/auth61.out && fail "the default key is in nvmecfg's answer"
must nvmecfg disconnect-all
rm -f "$HOSTKEY"
log "ok $HOSTKEY dropped: connect, discover and connect-all as without it"

for _k in "$KEY" "$CKEY"; do
	dmesg | grep -qF "$(secret "$_k")" && fail "a key is in the kernel log"
done
log "no key in the kernel log"
exit 0

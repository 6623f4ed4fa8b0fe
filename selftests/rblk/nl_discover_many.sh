#!/bin/sh
# Large discovery logs, made of referrals on the nvmet port.  The kernel
# reads the log in chunks and nvmecfg takes it as a netlink dump, over as
# many messages as it needs: 256 records (what one reply message held
# before) and then more come through intact, every record, in text and
# JSON, the same set nvme-cli reads through the kernel's own host, with no
# warning and the target's record count.
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v jq >/dev/null || skip "no jq in the guest"
MAX=256
REFDIR=$RBLK_NVMET_PORT/referrals

cleanup() {
	for r in "$REFDIR"/rblk-ref*; do
		[ -d "$r" ] || continue
		echo 0 > "$r/enable" 2>/dev/null
		rmdir "$r" 2>/dev/null
	done
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload
}
trap cleanup EXIT

# add_referrals FROM TO: referrals to addresses nobody serves (the log
# lists them, nobody dials them), 10.99.X.Y, portid 1000 + N.
add_referrals() {
	_i=$1
	while [ "$_i" -le "$2" ]; do
		_r=$REFDIR/rblk-ref$_i
		mkdir "$_r" || fail "cannot create referral $_i"
		{ echo rdma > "$_r/addr_trtype" && echo ipv4 > "$_r/addr_adrfam" &&
		  echo "10.99.$((1 + _i / 250)).$((_i % 250 + 1))" > "$_r/addr_traddr" &&
		  echo 4420 > "$_r/addr_trsvcid" && echo $((1000 + _i)) > "$_r/addr_portid" &&
		  echo 1 > "$_r/enable"; } || fail "cannot configure referral $_i"
		_i=$((_i + 1))
	done
}

# discover: JSON to /tmp/dm.json, stderr to /tmp/dm.err, text to /tmp/dm.txt.
discover() {
	nvmecfg discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -o json \
		> /tmp/dm.json 2> /tmp/dm.err || { cat /tmp/dm.err; fail "nvmecfg discover failed"; }
	nvmecfg discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
		> /tmp/dm.txt 2>&1 || fail "nvmecfg discover (text) failed"
	jq -e . /tmp/dm.json > /dev/null || fail "discover JSON does not parse"
}

# reference: what the kernel's own host (nvme-cli) reads, as sorted addresses.
reference() {
	nvme discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -o json > /tmp/dm.ref 2>&1 ||
		{ head -n 20 /tmp/dm.ref; fail "nvme discover (reference) failed"; }
	jq -c '[.records[] | .traddr + ":" + .trsvcid + ":" + (.portid | tostring)] | sort' /tmp/dm.ref
}
ours() {
	jq -c '[.records[] | .traddr + ":" + .trsvcid + ":" + (.portid | tostring)] | sort' /tmp/dm.json
}
modprobe nvme-rdma || skip "no nvme-rdma for the reference"

rblk_load
discover
base=$(jq '.records | length' /tmp/dm.json)
log "$base records without referrals"

# --- a full log: exactly MAX records ---
add_referrals 1 $((MAX - base))
discover
n=$(jq '.records | length' /tmp/dm.json)
[ "$n" -eq "$MAX" ] || fail "$n records, expected $MAX"
[ "$(jq .numrec /tmp/dm.json)" -eq "$MAX" ] || fail "numrec $(jq .numrec /tmp/dm.json), expected $MAX"
[ -s /tmp/dm.err ] && fail "nvmecfg warned on a complete log: $(cat /tmp/dm.err)"
[ "$(grep -c '^traddr:' /tmp/dm.txt)" -eq "$MAX" ] || fail "text output does not show $MAX records"
grep -q "^Discovery Log Number of Records $MAX, Generation counter [0-9]*\$" /tmp/dm.txt ||
	fail "text record count is not $MAX"
jq -e --arg nqn "$RBLK_NQN" '[.records[] | select(.subnqn == $nqn)] | length == 1' \
	/tmp/dm.json >/dev/null || fail "the subsystem record is missing among the referrals"
[ "$(reference)" = "$(ours)" ] || fail "nvme-cli and nvmecfg list different records"
log "$MAX records through netlink, the same as nvme-cli's"

# --- a longer log: no longer cut at 256 ---
extra=44
add_referrals $((MAX - base + 1)) $((MAX - base + extra))
discover
n=$(jq '.records | length' /tmp/dm.json)
[ "$n" -eq $((MAX + extra)) ] || fail "$n records of a $((MAX + extra))-record log"
[ "$(jq .numrec /tmp/dm.json)" -eq $((MAX + extra)) ] ||
	fail "numrec $(jq .numrec /tmp/dm.json), expected $((MAX + extra))"
[ -s /tmp/dm.err ] && fail "nvmecfg warned on a complete log: $(cat /tmp/dm.err)"
[ "$(grep -c '^traddr:' /tmp/dm.txt)" -eq $((MAX + extra)) ] ||
	fail "text output does not show $((MAX + extra)) records"
dmesg | grep -q "discovery log has .* records, reporting" && fail "the kernel cut the log"
[ "$(reference)" = "$(ours)" ] || fail "nvme-cli and nvmecfg list different records"
log "a $((MAX + extra))-record log: every record, as nvme-cli reads it"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

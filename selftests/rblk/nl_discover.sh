#!/bin/sh
# nvmecfg discover, through rblk's own discovery controller, lists the test
# subsystem at the test port, in text and JSON, agreeing with nvme-cli (the
# JSON carries nvme-cli's keys and values, the text is nvme-cli's line for
# line); a port nobody serves is refused; discovery leaves no device
# behind.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v nvmecfg >/dev/null || fail "nvmecfg missing from the guest"
rblk_load
trap 'modprobe -r nvme-rdma 2>/dev/null; rblk_unload' EXIT

out=$(nvmecfg discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" 2>&1) ||
	{ printf '%s\n' "$out"; fail "nvmecfg discover failed"; }
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q "^subnqn: *$RBLK_NQN\$" ||
	fail "discovery log does not list $RBLK_NQN"
printf '%s\n' "$out" | grep -q "^traddr: *$RBLK_TRADDR\$" ||
	fail "discovery log does not list traddr $RBLK_TRADDR"
printf '%s\n' "$out" | grep -q "^trsvcid: *$RBLK_TRSVCID\$" ||
	fail "discovery log does not list trsvcid $RBLK_TRSVCID"
printf '%s\n' "$out" | grep -q "^trtype: *rdma\$" ||
	fail "discovery log has no rdma record"

json=$(nvmecfg discover -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -o json 2>&1) ||
	{ printf '%s\n' "$json"; fail "nvmecfg discover -o json failed"; }
if command -v jq >/dev/null; then
	printf '%s\n' "$json" | jq -e --arg nqn "$RBLK_NQN" \
		--arg addr "$RBLK_TRADDR" --arg port "$RBLK_TRSVCID" '
		[.records[] | select(.subnqn == $nqn)] |
		length == 1 and .[0].traddr == $addr and
		.[0].trsvcid == $port and .[0].trtype == "rdma" and
		.[0].adrfam == "ipv4" and .[0].subtype == "nvme subsystem" and
		(.[0].portid | type) == "number"' >/dev/null ||
		{ printf '%s\n' "$json"; fail "discover JSON lacks the subsystem record"; }
	nrec=$(printf '%s\n' "$json" | jq '.records | length')
else
	printf '%s\n' "$json" | grep -q "\"subnqn\": \"$RBLK_NQN\"" ||
		{ printf '%s\n' "$json"; fail "discover JSON lacks $RBLK_NQN"; }
	nrec=$(printf '%s\n' "$json" | grep -c '"subnqn"')
fi
[ "$(printf '%s\n' "$out" | sed -n 's/^Discovery Log Number of Records \([0-9]*\), Generation counter [0-9]*$/\1/p')" = "$nrec" ] ||
	fail "text and JSON disagree on the number of records"
log "$nrec records"

# The same log, read by the kernel's own host through nvme-cli.
if command -v nvme >/dev/null && command -v jq >/dev/null &&
   modprobe nvme-rdma 2>/dev/null; then
	ref=$(nvme discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -o json 2>&1) ||
		{ printf '%s\n' "$ref"; fail "nvme discover (reference) failed"; }
	want=$(printf '%s\n' "$ref" | jq -c '[.records[] | .subnqn] | sort')
	got=$(printf '%s\n' "$json" | jq -c '[.records[] | .subnqn] | sort')
	[ "$want" = "$got" ] || fail "nvme-cli sees $want, nvmecfg $got"
	# Scripts written for nvme-cli's JSON work on ours: the same keys
	# with the same values, header and records alike.
	keys='["trtype","adrfam","subtype","treq","portid","trsvcid","subnqn","traddr","eflags","rdma_prtype","rdma_qptype","rdma_cms"]'
	pick="{genctr, records: [.records[] | with_entries(select(.key as \$k | $keys | index(\$k)))] | sort_by(.subnqn)}"
	want=$(printf '%s\n' "$ref" | jq -S -c "$pick")
	got=$(printf '%s\n' "$json" | jq -S -c "$pick")
	printf '%s\n' "$want" | jq -e --argjson k "$keys" '.records[0] | keys | length == ($k | length)' >/dev/null ||
		fail "nvme-cli's records lack some of $keys: $want"
	[ "$want" = "$got" ] || fail "JSON differs from nvme-cli's: nvme-cli $want, nvmecfg $got"
	printf '%s\n' "$json" | jq -e '.numrec == (.records | length)' >/dev/null ||
		fail "numrec is not the number of records"
	# The text, line for line: rdma_pkey too against nvme-cli 2.0 to 2.8
	# (Debian 12's 2.3), whose "0x%04x" nvmecfg prints (2.9 on: "%#04x").
	nvme discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" > /tmp/disc.ref 2>/dev/null ||
		fail "nvme discover (reference, text) failed"
	nvmecfg discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" > /tmp/disc.txt 2>/dev/null ||
		fail "nvmecfg discover (text) failed"
	ver=$(nvme version | sed -n 's/^nvme version \([0-9][0-9.]*\).*/\1/p')
	cmp_text() {
		case $ver in
		2.[0-8]|2.[0-8].*) cat "$1" ;;
		*) grep -v '^rdma_pkey:' "$1" ;;
		esac
	}
	cmp_text /tmp/disc.ref > /tmp/disc.ref.cmp
	cmp_text /tmp/disc.txt > /tmp/disc.txt.cmp
	diff -u /tmp/disc.ref.cmp /tmp/disc.txt.cmp > /tmp/disc.diff ||
		fail "discover text differs from nvme-cli $ver's: $(cat /tmp/disc.diff)"
	modprobe -r nvme-rdma 2>/dev/null
	log "nvme-cli $ver agrees, key for key: $got, and line for line"
fi

# Nobody listens on the next port: refused, not hung, kernel reason shown.
rc=0
out=$(timeout 120 nvmecfg discover -a "$RBLK_TRADDR" -s $((RBLK_TRSVCID + 1)) 2>&1) || rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 1 ] || fail "discover on a dead port: exit $rc, want 1"
printf '%s\n' "$out" | grep -q '^nvmecfg: discover: ' ||
	fail "discover on a dead port: no error message"

# A discovery controller is not a device.
for d in /sys/block/rblk*; do
	[ -e "$d" ] && fail "discovery left a block device: $d"
done
[ -z "$(nvmecfg list)" ] || fail "nvmecfg list is not empty after discovery"
exit 0

#!/bin/sh
# nvmecfg's DH-HMAC-CHAP keys from its files, against nvmet: connect-all
# from a discovery.conf line with -S; from /etc/nvme/config.json with a
# port's dhchap_key; connect and connect-all with the key only in
# /etc/nvme/hostkey (the default key); connect-all -J with a host's
# dhchap_key and a port's dhchap_ctrl_key (bidirectional).  Each
# authenticates (the kernel's 'authenticated:' line; show and its JSON
# name hash, group and direction), verified I/O lands in the target's
# file, and no key is anywhere: nvmecfg's output and messages, the kernel
# log, the trace buffer, sysfs.  The plain test subsystem, in the same
# discovery logs, connects with a key given that its target does not ask
# for (show: 'none (target does not authenticate)'), and without one.  A
# malformed hostkey file stops connect-all (exit 2), naming the file; one
# the kernel refuses (a wrong CRC) is blamed by name, in hostkey and in
# discovery.conf (its line).
# 6.12 (skips elsewhere).
# rblk-timeout: 900
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

CONF=/etc/nvme/discovery.conf
JSON=/etc/nvme/config.json
HOSTKEY=/etc/nvme/hostkey
OUT=/tmp/auth-discover.out
ERR=/tmp/auth-discover.err
JFILE=/tmp/auth-discover.json

auth_target_setup
cleanup() {
	auth_cleanup
	for _f in "$CONF" "$JSON" "$HOSTKEY"; do
		rm -f "$_f"
		[ -f "$_f.saved" ] && mv "$_f.saved" "$_f"
	done
	rm -f "$OUT" "$ERR" "$JFILE" "$OUT.slices"
}
trap cleanup EXIT
for f in "$CONF" "$JSON" "$HOSTKEY"; do
	[ -f "$f" ] && mv "$f" "$f.saved"
done
rblk_load

KEY=$(auth_key 32 "$RBLK_HOSTNQN") || exit "$KSFT_FAIL"
KEY48=$(auth_key 48 "$RBLK_HOSTNQN" 2) || exit "$KSFT_FAIL"
HKEY=$(auth_key 64 "$RBLK_HOSTNQN" 3) || exit "$KSFT_FAIL"
CKEY=$(auth_key 48 "$AUTH_NQN") || exit "$KSFT_FAIL"

# no_leak: no key's secret in nvmecfg's last output and messages, not
# even in part (auth_key_slices), nor (auth_no_leak) anywhere else.
no_leak() {
	for _k in "$KEY" "$KEY48" "$HKEY" "$CKEY"; do
		auth_key_slices "$_k" > "$OUT.slices"
		grep -qF -f "$OUT.slices" "$OUT" "$ERR" && fail "a key, or 16 characters of one, is in nvmecfg's output"
		rm -f "$OUT.slices"
	done
	auth_no_leak "$KEY" "$KEY48" "$HKEY" "$CKEY"
}

# connect_all [ARGS...]: nvmecfg connect-all, which must succeed; its
# output in $OUT, its messages in $ERR.
connect_all() {
	_mark=$(dmesg | wc -l)
	_rc=0
	nvmecfg connect-all "$@" > "$OUT" 2> "$ERR" || _rc=$?
	[ "$_rc" -eq 0 ] || { cat "$OUT" "$ERR"; fail "connect-all $*: exit $_rc"; }
}

# field_of NQN N: field N of connect-all's line of subsystem NQN
# (1: controller, 5: first namespace).  For $(...): a failure is said on
# stderr, status 1.
field_of() {
	_v=$(awk -v n="$1" -v f="$2" '$2 == n { print $f; exit }' "$OUT")
	[ -n "$_v" ] || {
		echo "FAIL: $TEST_NAME: connect-all did not connect $1: $(cat "$OUT" "$ERR")" >&2
		return 1
	}
	echo "$_v"
}

# authenticated CTRL HASH GROUP DIRECTION: the kernel logged it since the
# last connect, show and show -o json say it.
authenticated() {
	dmesg | tail -n +$((_mark + 1)) |
		grep -qF "$1: authenticated: $2, $3, $4" ||
		fail "no '$1: authenticated: $2, $3, $4': $(dmesg | tail -n +$((_mark + 1)) | grep -F "$1:")"
	_got=$(nvmecfg show "$1" | sed -n 's/^  dhchap  *//p')
	[ "$_got" = "$2 $3 $4" ] || fail "show $1: dhchap '$_got', want '$2 $3 $4'"
	_bi=false
	[ "$4" = bidirectional ] && _bi=true
	jq_true "show $1 -o json" "$(nvmecfg show "$1" -o json)" \
		".dhchap_hash == \"$2\" and .dhchap_dhgroup == \"$3\" and .dhchap_bidirectional == $_bi"
}

# not_asked CTRL: a host key held, the target did not authenticate.
not_asked() {
	_got=$(nvmecfg show "$1" | sed -n 's/^  dhchap  *//p')
	[ "$_got" = "none (target does not authenticate)" ] ||
		fail "show $1: dhchap '$_got', want none"
	jq_true "show $1 -o json" "$(nvmecfg show "$1" -o json)" 'has("dhchap_hash") | not'
}

# verified_io: fio through the first namespace of connect-all's
# controller of AUTH_NQN, checked in AUTH_FILE.
verified_io() {
	_dev=/dev/$(field_of "$AUTH_NQN" 5) || exit "$KSFT_FAIL"
	wait_for_path "$_dev" 10 -b || fail "$_dev did not appear"
	auth_io "$_dev"
}

disconnect_all() {
	must nvmecfg disconnect-all
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_d" ] && fail "${_d##*/} left after disconnect-all"
	done
	return 0
}

# 1. A discovery.conf line with a key: its key goes to every subsystem the
# log lists: AUTH_NQN authenticates, the plain one is not asked.
# A 48-byte key, its base64 padded with "==", given with '=' as well.
nvmet_host_auth "$KEY48" "" "hmac(sha384)" null
echo "-t rdma -a $RBLK_TRADDR -s $RBLK_TRSVCID --dhchap-secret=$KEY48" > "$CONF"
connect_all
ctrl=$(field_of "$AUTH_NQN" 1) || exit "$KSFT_FAIL"
authenticated "$ctrl" "hmac(sha384)" null unidirectional
verified_io
plain=$(field_of "$RBLK_NQN" 1) || exit "$KSFT_FAIL"
not_asked "$plain"
no_leak
disconnect_all
rm -f "$CONF"
log "discovery.conf --dhchap-secret= (48 bytes): $AUTH_NQN authenticated, I/O verified; $RBLK_NQN not asked"

# 2. config.json's port dhchap_key: that subsystem's; the plain one,
# without a port in the file, gets none.
nvmet_host_auth "$KEY48" "" "hmac(sha384)" ffdhe2048
cat > "$JSON" <<EOF_JSON
[{"hostnqn": "$RBLK_HOSTNQN",
  "subsystems": [{"nqn": "$AUTH_NQN",
    "ports": [{"transport": "rdma", "traddr": "$RBLK_TRADDR",
      "trsvcid": "$RBLK_TRSVCID", "dhchap_key": "$KEY48"}]}]}]
EOF_JSON
chmod 600 "$JSON"
connect_all
ctrl=$(field_of "$AUTH_NQN" 1) || exit "$KSFT_FAIL"
authenticated "$ctrl" "hmac(sha384)" ffdhe2048 unidirectional
verified_io
plain=$(field_of "$RBLK_NQN" 1) || exit "$KSFT_FAIL"
nvmecfg show "$plain" | grep -q dhchap && fail "show $plain: a dhchap line without a key"
no_leak
disconnect_all
rm -f "$JSON"
log "config.json dhchap_key: $AUTH_NQN authenticated, I/O verified; $RBLK_NQN without a key"

# 3. /etc/nvme/hostkey only: connect uses it; connect-all too, for what
# the target asks and what it does not.
nvmet_host_auth "$HKEY" "" "hmac(sha512)" ffdhe3072
printf '%s\n' "$HKEY" > "$HOSTKEY"
chmod 600 "$HOSTKEY"
_mark=$(dmesg | wc -l)
nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$AUTH_NQN" \
	> "$OUT" 2> "$ERR" || { cat "$OUT" "$ERR"; fail "connect with $HOSTKEY refused"; }
ctrl=$(head -n 1 "$OUT")
authenticated "$ctrl" "hmac(sha512)" ffdhe3072 unidirectional
dev=/dev/$(sed -n 2p "$OUT")
wait_for_path "$dev" 10 -b || fail "$dev did not appear"
auth_io "$dev"
no_leak
must nvmecfg disconnect "$ctrl"
connect_all -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID"
ctrl=$(field_of "$AUTH_NQN" 1) || exit "$KSFT_FAIL"
authenticated "$ctrl" "hmac(sha512)" ffdhe3072 unidirectional
verified_io
plain=$(field_of "$RBLK_NQN" 1) || exit "$KSFT_FAIL"
not_asked "$plain"
no_leak
disconnect_all
log "$HOSTKEY: connect and connect-all authenticated, I/O verified"

# A malformed one: a usage error naming the file, nothing connected.
echo "DHHC-1:07:SeKrEtSeKrEt:" > "$HOSTKEY"
rc=0
nvmecfg connect-all -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" > "$OUT" 2> "$ERR" || rc=$?
[ "$rc" -eq 2 ] || { cat "$OUT" "$ERR"; fail "connect-all with a malformed $HOSTKEY: exit $rc, want 2"; }
grep -qF "$HOSTKEY: not a DH-HMAC-CHAP key" "$ERR" || { cat "$ERR"; fail "no message naming $HOSTKEY"; }
grep -q SeKrEt "$OUT" "$ERR" && fail "the malformed key was printed"
[ -z "$(ls -d /sys/class/rblk/rblk-ctrl* 2>/dev/null)" ] || fail "connected with a malformed $HOSTKEY"
# Of the right form, but its CRC wrong: the kernel refuses it, and the
# file is blamed (a usage error, exit 2).
BAD=$(printf '%s\n' "$KEY" | awk '{ c = substr($0, 21, 1)
	print substr($0, 1, 20) (c == "A" ? "B" : "A") substr($0, 22) }')
printf '%s\n' "$BAD" > "$HOSTKEY"
rc=0
nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$AUTH_NQN" \
	> "$OUT" 2> "$ERR" || rc=$?
[ "$rc" -eq 2 ] || { cat "$OUT" "$ERR"; fail "connect with a bad CRC in $HOSTKEY: exit $rc, want 2"; }
grep -q "^nvmecfg: connect: $HOSTKEY: .*malformed DH-HMAC-CHAP host key" "$ERR" ||
	{ cat "$ERR"; fail "the refused default key does not blame $HOSTKEY"; }
_s=${BAD#DHHC-1:??:}
grep -qF -- "${_s%:}" "$OUT" "$ERR" && fail "the refused key was printed"
[ -z "$(ls -d /sys/class/rblk/rblk-ctrl* 2>/dev/null)" ] || fail "connected with a bad $HOSTKEY"
rm -f "$HOSTKEY"
log "a malformed $HOSTKEY: exit 2, named, not printed; one the kernel refuses: the file blamed"
# The same key on a discovery.conf line: the kernel refuses it, and the
# line is blamed, not -S.
printf '%s\n' "-t rdma -a $RBLK_TRADDR -s $RBLK_TRSVCID -S $BAD" > "$CONF"
rc=0
nvmecfg connect-all > "$OUT" 2> "$ERR" || rc=$?
[ "$rc" -eq 2 ] || { cat "$OUT" "$ERR"; fail "connect-all with a bad CRC in $CONF: exit $rc, want 2"; }
grep -q "^nvmecfg: connect-all: .*: $CONF:1: .*malformed DH-HMAC-CHAP host key" "$ERR" ||
	{ cat "$ERR"; fail "the refused key of $CONF does not blame $CONF:1"; }
grep -q -- "--dhchap-secret" "$ERR" && { cat "$ERR"; fail "the refused key of $CONF blames -S"; }
grep -qF -- "${_s%:}" "$OUT" "$ERR" && fail "the refused key was printed"
[ -z "$(ls -d /sys/class/rblk/rblk-ctrl* 2>/dev/null)" ] || fail "connected with a bad key in $CONF"
rm -f "$CONF"
log "a key of $CONF the kernel refuses: $CONF:1 blamed"

# 4. Both ways: the host's dhchap_key, the port's dhchap_ctrl_key (-J).
nvmet_host_auth "$KEY" "$CKEY" "hmac(sha256)" ffdhe2048
cat > "$JFILE" <<EOF_JSON
[{"hostnqn": "$RBLK_HOSTNQN", "dhchap_key": "$KEY",
  "subsystems": [{"nqn": "$AUTH_NQN",
    "ports": [{"transport": "rdma", "traddr": "$RBLK_TRADDR",
      "trsvcid": "$RBLK_TRSVCID", "dhchap_ctrl_key": "$CKEY"}]}]}]
EOF_JSON
connect_all -J "$JFILE"
ctrl=$(field_of "$AUTH_NQN" 1) || exit "$KSFT_FAIL"
authenticated "$ctrl" "hmac(sha256)" ffdhe2048 bidirectional
verified_io
no_leak
disconnect_all
log "config.json host dhchap_key, port dhchap_ctrl_key: bidirectional, I/O verified"
exit 0

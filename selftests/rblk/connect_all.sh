#!/bin/sh
# nvmecfg connect-all reads the discovery log and connects every NVM
# subsystem it lists, as nvme connect-all does: targets from the command
# line, or from /etc/nvme/discovery.conf (nvme-cli's file: one line of
# discover arguments per discovery controller, # comments), which get the
# command line's options (-i, -P, -W).  Running it again connects nothing
# new and is no error.  disconnect -n NQN removes every controller of that
# subsystem and only those; disconnect-all the rest.  Data written through
# the devices is on the target.
# nvme-cli's options rblk has not (--host-iface, -g, ...) are ignored with
# a warning naming each and the line; a bad line is skipped and fails the
# run, the others connect; a DH-HMAC-CHAP key anywhere but after -S or -C,
# or a controller key of a host, is refused so (a line, a host), never
# printed (auth_discover connects with keys).
# /etc/nvme/config.json (or -J FILE), nvme-cli's JSON: each RDMA port is
# a discovery controller, its options go to its own subsystem, as its host
# NQN; ignored keys warn; what is connected is not connected again (with
# -D too).  A loop of referrals (port 1 to port 2 and back) is followed
# once around and ends.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

SECOND=blktests-subsystem-1
CONF=/etc/nvme/discovery.conf

JSON=/etc/nvme/config.json
REF1=$RBLK_NVMET_PORT/referrals/rblk-ca-loop
REF2=$NVMET_PORT2/referrals/rblk-ca-loop
# The host of the config.json: not this machine's default one.
JHOSTID=0f0e0d0c-0b0a-0908-0706-050403020100
JHOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$JHOSTID

cleanup() {
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	rm -f "$CONF" "$JSON"
	[ -f "$CONF.saved" ] && mv "$CONF.saved" "$CONF"
	[ -f "$JSON.saved" ] && mv "$JSON.saved" "$JSON"
	for r in "$REF1" "$REF2"; do
		[ -d "$r" ] || continue
		echo 0 > "$r/enable" 2>/dev/null
		rmdir "$r" 2>/dev/null
	done
	nvmet_port2_del
	nvmet_subsys_del "$SECOND"
	rm -f /tmp/ca.img /tmp/ca.pat /tmp/ca.out /tmp/ca.err /tmp/ca.json \
		/tmp/ca-key.json
	rblk_unload
}
trap cleanup EXIT

# ctrls_of NQN: how many rblk controllers serve subsystem NQN.
ctrls_of() {
	_c=0
	for _f in /sys/class/rblk/rblk-ctrl*/subsysnqn; do
		[ -f "$_f" ] && [ "$(cat "$_f")" = "$1" ] && _c=$((_c + 1))
	done
	echo "$_c"
}
nctrls() { ls -d /sys/class/rblk/rblk-ctrl* 2>/dev/null | wc -l; }
# ctrl_attr NQN ATTR: that attribute of the one controller of NQN.
ctrl_attr() {
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ "$(cat "$_d/subsysnqn" 2>/dev/null)" = "$1" ] && { cat "$_d/$2"; return; }
	done
	echo "no controller of $1"
}
# warned TEXT: connect-all's stderr (/tmp/ca.err) has that line part.
warned() {
	grep -qF -- "$1" /tmp/ca.err || { cat /tmp/ca.err; fail "no message '$1'"; }
}
# check_data NQN NSID BACKING: write through that namespace, compare.
check_data() {
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ "$(cat "$_d/subsysnqn")" = "$1" ] || continue
		_r=$(rblk_ns_dev "${_d##*/}" "$2") || fail "$1 has no namespace $2"
		wait_for_path "$_r" 10 -b || fail "$_r did not appear"
		pattern_file /tmp/ca.pat $((1024 * 1024))
		write_direct /tmp/ca.pat "$_r" $((3 * 1024 * 1024))
		read_region "$3" $((3 * 1024 * 1024)) $((1024 * 1024)) /tmp/ca.out
		assert_same /tmp/ca.pat /tmp/ca.out "$1 nsid $2 via $_r"
		return 0
	done
	fail "no controller of $1"
}

nvmet_subsys_add "$SECOND" /tmp/ca.img 16
rblk_load

# --- targets on the command line ---
must nvmecfg connect-all -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID"
[ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] || fail "connect-all: $(ctrls_of "$RBLK_NQN") controllers of $RBLK_NQN"
[ "$(ctrls_of "$SECOND")" -eq 1 ] || fail "connect-all: $(ctrls_of "$SECOND") controllers of $SECOND"
[ "$(nctrls)" -eq 2 ] || fail "connect-all made $(nctrls) controllers, want 2 (no discovery one)"
check_data "$RBLK_NQN" "$RBLK_NSID_FILE" "$RBLK_BACKING"
check_data "$SECOND" 1 /tmp/ca.img
# Again: everything is connected already, which is not an error.
must nvmecfg connect-all -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID"
[ "$(nctrls)" -eq 2 ] || fail "a second connect-all made $(nctrls) controllers"
log "connect-all from the command line: 2 controllers, idempotent"

# --- disconnect -n: that subsystem's controllers only ---
must nvmecfg disconnect -n "$SECOND"
[ "$(ctrls_of "$SECOND")" -eq 0 ] || fail "disconnect -n left a controller of $SECOND"
[ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] || fail "disconnect -n $SECOND removed $RBLK_NQN's"
# Nothing left to do is no error, as with nvme disconnect -n.
out=$(nvmecfg disconnect -n "$SECOND" 2>&1) || fail "disconnect -n with nothing to do: $out"
printf '%s\n' "$out" | grep -q "disconnected 0 controller" ||
	fail "disconnect -n with nothing to do said '$out'"
must nvmecfg disconnect-all
[ "$(nctrls)" -eq 0 ] || fail "disconnect-all left $(nctrls) controllers"
must nvmecfg disconnect-all

# --- targets from /etc/nvme/discovery.conf ---
[ -f "$CONF" ] && mv "$CONF" "$CONF.saved"
mkdir -p /etc/nvme
cat > "$CONF" <<CONF
# rblk selftest: the in-guest target
   # an indented comment

--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$RBLK_TRSVCID
CONF
must nvmecfg connect-all
[ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] && [ "$(ctrls_of "$SECOND")" -eq 1 ] ||
	fail "connect-all from $CONF: $(nctrls) controllers"
check_data "$SECOND" 1 /tmp/ca.img
must nvmecfg disconnect-all
log "connect-all from $CONF"

# The command line's options reach the file's targets, values and all.
must nvmecfg connect-all -i 1 -P 1 -W 1
[ "$(nctrls)" -eq 2 ] || fail "connect-all -P -W from $CONF: $(nctrls) controllers"
for d in /sys/class/rblk/rblk-ctrl*; do
	q="$(cat "$d/nr_io_queues") $(cat "$d/nr_poll_queues") $(cat "$d/nr_write_queues")"
	[ "$q" = "3 1 1" ] ||
		fail "connect-all -i 1 -P 1 -W 1 from $CONF: ${d##*/} has io/poll/write queues $q, want 3 1 1"
done
must nvmecfg disconnect-all
log "connect-all -i 1 -P 1 -W 1 from $CONF: 3 I/O queues, 1 poll, 1 write"

# nvme-cli's options rblk has not: ignored, a warning each; another
# transport skipped; a bad line skipped and exit 2, after the good line
# connected with its options.  A DH-HMAC-CHAP key but as the value of -S
# or -C makes a bad line (not connected without it), never printed.
SECRET=DHHC-1:00:c2VrcmV0c2VrcmV0c2VrcmV0c2VrcmV0c2VrcmV0c2VrcmV0:
cat > "$CONF" <<CONF
# as nvme-cli's users write it
--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$RBLK_TRSVCID --host-iface=$RBLK_NETDEV -g --force -i 1
-t tcp -a $RBLK_TRADDR -s $RBLK_TRSVCID
-t rdma -a $RBLK_TRADDR --frob
-t rdma -a $RBLK_TRADDR -s $RBLK_TRSVCID -q $SECRET
CONF
rc=0
nvmecfg connect-all > /tmp/ca.out 2> /tmp/ca.err || rc=$?
[ "$rc" -eq 2 ] || { cat /tmp/ca.err; fail "connect-all with a bad line: exit $rc, want 2"; }
warned "$CONF:2: warning: ignoring --host-iface (-f): "
warned "$CONF:2: warning: ignoring --hdr-digest (-g): "
warned "$CONF:2: warning: ignoring --force: "
warned "$CONF:3: warning: skipping transport tcp (only rdma)"
warned "$CONF:4: unknown option '--frob'; line skipped"
warned "$CONF:5: a DH-HMAC-CHAP key not given with -S or -C; line skipped"
grep -q c2VrcmV0 /tmp/ca.err /tmp/ca.out && fail "the DH-HMAC-CHAP secret was printed"
{ [ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] && [ "$(ctrls_of "$SECOND")" -eq 1 ]; } ||
	fail "connect-all with nvme-cli options: $(nctrls) controllers: $(cat /tmp/ca.err)"
[ "$(ctrl_attr "$SECOND" nr_io_queues)" = 1 ] ||
	fail "the line's -i 1 did not reach $SECOND: nr_io_queues $(ctrl_attr "$SECOND" nr_io_queues)"
check_data "$RBLK_NQN" "$RBLK_NSID_FILE" "$RBLK_BACKING"
check_data "$SECOND" 1 /tmp/ca.img
must nvmecfg disconnect-all
rm -f "$CONF"
log "discovery.conf with nvme-cli's options: warned, ignored, connected; a key refused"

# --- /etc/nvme/config.json (nvme-cli's JSON), -J FILE ---
[ -f "$JSON" ] && mv "$JSON" "$JSON.saved"
# A host with a DH-HMAC-CHAP controller key (a port's only): refused,
# nothing connected, exit 2.
cat > /tmp/ca-key.json <<JSONDOC
[{"hostnqn": "$JHOSTNQN", "dhchap_ctrl_key": "$SECRET",
  "subsystems": [{"nqn": "$SECOND", "ports": [{"transport": "rdma",
    "traddr": "$RBLK_TRADDR", "trsvcid": "$RBLK_TRSVCID"}]}]}]
JSONDOC
rc=0
nvmecfg connect-all -J /tmp/ca-key.json > /tmp/ca.out 2> /tmp/ca.err || rc=$?
[ "$rc" -eq 2 ] || { cat /tmp/ca.err; fail "connect-all -J with a key: exit $rc, want 2"; }
warned "/tmp/ca-key.json:1: \"dhchap_ctrl_key\": a port's key only (where libnvme reads it); host skipped"
grep -q c2VrcmV0 /tmp/ca.err /tmp/ca.out && fail "the DH-HMAC-CHAP secret was printed"
[ "$(nctrls)" -eq 0 ] || fail "a host with a key was connected without it: $(nctrls) controllers"
rm -f /tmp/ca-key.json
log "config.json with a host's controller key: refused, nothing connected"
cat > /tmp/ca.json <<JSONDOC
[
  {
    "hostnqn": "$JHOSTNQN",
    "hostid": "$JHOSTID",
    "subsystems": [
      {
        "nqn": "$SECOND",
        "ports": [
          {
            "transport": "rdma",
            "traddr": "$RBLK_TRADDR",
            "trsvcid": "$RBLK_TRSVCID",
            "host_iface": "$RBLK_NETDEV",
            "nr_io_queues": 1,
            "queue_size": 64,
            "hdr_digest": false,
            "frob": true
          },
          { "transport": "tcp", "traddr": "$RBLK_TRADDR", "trsvcid": "$RBLK_TRSVCID" }
        ]
      }
    ]
  }
]
JSONDOC
nvmecfg connect-all -J /tmp/ca.json > /tmp/ca.out 2> /tmp/ca.err ||
	{ cat /tmp/ca.err; fail "connect-all -J failed"; }
warned "/tmp/ca.json:13: warning: ignoring \"host_iface\": "
warned "/tmp/ca.json:17: warning: ignoring unknown key \"frob\""
warned "/tmp/ca.json:19: warning: skipping transport tcp (only rdma)"
grep -qE "hdr_digest|c2VrcmV0" /tmp/ca.err && fail "said too much: $(cat /tmp/ca.err)"
# The port is a discovery controller: both subsystems there, as its host.
{ [ "$(ctrls_of "$RBLK_NQN")" -eq 1 ] && [ "$(ctrls_of "$SECOND")" -eq 1 ] &&
  [ "$(nctrls)" -eq 2 ]; } ||
	fail "connect-all -J: $(nctrls) controllers: $(cat /tmp/ca.out /tmp/ca.err)"
for n in "$RBLK_NQN" "$SECOND"; do
	[ "$(ctrl_attr "$n" hostnqn)" = "$JHOSTNQN" ] ||
		fail "$n connected as $(ctrl_attr "$n" hostnqn), not the file's host"
	[ "$(ctrl_attr "$n" hostid)" = "$JHOSTID" ] ||
		fail "$n has host id $(ctrl_attr "$n" hostid), not the file's"
done
# The port's options: its own subsystem's, not the other's.
[ "$(ctrl_attr "$SECOND" nr_io_queues) $(ctrl_attr "$SECOND" queue_size)" = "1 64" ] ||
	fail "$SECOND: nr_io_queues/queue_size $(ctrl_attr "$SECOND" nr_io_queues) $(ctrl_attr "$SECOND" queue_size), want 1 64"
[ "$(ctrl_attr "$RBLK_NQN" queue_size)" = 128 ] ||
	fail "$RBLK_NQN got queue_size $(ctrl_attr "$RBLK_NQN" queue_size) of $SECOND's port"
check_data "$RBLK_NQN" "$RBLK_NSID_FILE" "$RBLK_BACKING"
check_data "$SECOND" 1 /tmp/ca.img
# Again, and with -D: what is connected is not connected again.
for dup in "" -D; do
	# shellcheck disable=SC2086 # $dup: no word or one
	nvmecfg connect-all -J /tmp/ca.json $dup > /tmp/ca.out 2> /tmp/ca.err ||
		{ cat /tmp/ca.err; fail "connect-all -J $dup again failed"; }
	[ "$(nctrls)" -eq 2 ] || fail "connect-all -J $dup again: $(nctrls) controllers"
	warned "$SECOND at $RBLK_TRADDR port $RBLK_TRSVCID: already connected (rblk-ctrl"
	[ -s /tmp/ca.out ] && fail "connect-all -J $dup again printed a new controller: $(cat /tmp/ca.out)"
done
must nvmecfg disconnect-all
# /etc/nvme/config.json without -J, no discovery.conf; a bad port fails
# the run (exit 2), the good one still connects.
# ("64" would be taken: libnvme's json_object_get_int() coerces it.)
sed 's/"trsvcid": "'"$RBLK_TRSVCID"'" }/"trsvcid": "'"$RBLK_TRSVCID"'", "queue_size": "abc" }/; s/"transport": "tcp"/"transport": "rdma"/' \
	/tmp/ca.json > "$JSON"
rc=0
nvmecfg connect-all > /tmp/ca.out 2> /tmp/ca.err || rc=$?
[ "$rc" -eq 2 ] || { cat /tmp/ca.err; fail "config.json with a bad port: exit $rc, want 2"; }
warned "$JSON:19: \"queue_size\": 'abc' is not a whole number; port skipped"
[ "$(nctrls)" -eq 2 ] || fail "$JSON with a bad port: $(nctrls) controllers, want 2"
must nvmecfg disconnect-all
rm -f "$JSON"
log "config.json: the file's host, its port's options, warnings, nothing twice"

# --- a loop of referrals: port 1 refers to port 2, which refers back ---
nvmet_port2_add
# REF:TRSVCID:PORTID
for r in "$REF1:$NVMET_SVC2:2" "$REF2:$RBLK_TRSVCID:1"; do
	d=${r%%:*} svc=${r#*:}
	{ mkdir "$d" && echo rdma > "$d/addr_trtype" && echo ipv4 > "$d/addr_adrfam" &&
	  echo "$RBLK_TRADDR" > "$d/addr_traddr" && echo "${svc%:*}" > "$d/addr_trsvcid" &&
	  echo "${svc#*:}" > "$d/addr_portid" && echo 1 > "$d/enable"; } ||
		fail "cannot create referral $d"
done
rc=0
timeout 240 nvmecfg connect-all -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	> /tmp/ca.out 2> /tmp/ca.err || rc=$?
[ "$rc" -eq 0 ] || { cat /tmp/ca.out /tmp/ca.err; fail "connect-all with a referral loop: exit $rc"; }
warned "following the referral to $RBLK_TRADDR port $NVMET_SVC2 (referral from $RBLK_TRADDR port $RBLK_TRSVCID)"
[ "$(grep -c "following the referral" /tmp/ca.err)" -eq 1 ] ||
	fail "the referral loop was followed more than once around: $(cat /tmp/ca.err)"
# Port 1: both subsystems; port 2, by the referral: the test subsystem.
{ [ "$(ctrls_of "$RBLK_NQN")" -eq 2 ] && [ "$(ctrls_of "$SECOND")" -eq 1 ]; } ||
	fail "referral loop: $(nctrls) controllers: $(cat /tmp/ca.out)"
grep -q "^rblk-ctrl[0-9]* $RBLK_NQN $RBLK_TRADDR $NVMET_SVC2 rblk" /tmp/ca.out ||
	fail "no controller to port 2 printed: $(cat /tmp/ca.out)"
must nvmecfg disconnect-all
log "a loop of referrals: followed once around, 3 controllers"

# A line the tool cannot parse is an error naming the file and line.
printf '%s\n' "-t rdma --frob" > "$CONF"
rc=0
out=$(nvmecfg connect-all 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "bad $CONF line: exit $rc, want 2: $out"
printf '%s\n' "$out" | grep -q "discovery.conf" || fail "bad $CONF line: message does not name the file: $out"
[ "$(nctrls)" -eq 0 ] || fail "a bad $CONF connected something"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

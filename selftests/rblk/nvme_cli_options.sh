#!/bin/sh
# nvme-cli 2.x's options of connect, connect-all and disconnect against a
# real target (issue 46): disconnect -d A,B removes both controllers and
# their devices, and a namespace's name in the list without --force
# removes nothing (exit 2); disconnect -n with a list of NQNs;
# --dump-config (-O) prints config.json that connect-all -J reads back,
# connecting the same controller; connect-all -o json prints what it
# connected; LIBNVME_HOSTNQN is the host NQN the target sees.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

cleanup() {
	nvmecfg disconnect-all >/dev/null 2>&1
	rm -f /tmp/dump.json /tmp/ca.json
	rblk_unload
}
trap cleanup EXIT
rblk_load

ctrls() { ls -d /sys/class/rblk/rblk-ctrl* 2>/dev/null | wc -l; }

# --- disconnect -d A,B ---
a=$(rblk_connect_all | head -n 1)
b=$(rblk_connect_all -D | head -n 1)
[ "$a" != "$b" ] || fail "one controller for two connects"
ns=$(cat "/sys/class/rblk/$b/"rblk*/dev 2>/dev/null | head -n 1)
nsname=$(ls -d "/sys/class/rblk/$b/"rblk[0-9]* 2>/dev/null | head -n 1)
nsname=${nsname##*/}
# A multipath path rblkNcM: its namespace is the head rblkN.
nsname=${nsname%c*}
if [ -n "$nsname" ]; then
	rc=0
	nvmecfg disconnect -d "$a,$nsname" > /tmp/d.log 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || fail "disconnect -d $a,$nsname without --force: exit $rc: $(cat /tmp/d.log)"
	[ "$(ctrls)" -eq 2 ] || fail "a refused list removed a controller"
fi
must nvmecfg disconnect -d "/dev/$a,$b"
[ "$(ctrls)" -eq 0 ] || fail "disconnect -d $a,$b left $(ls /sys/class/rblk)"
log "disconnect -d A,B: both gone ($ns)"

# --- disconnect -n NQN,NQN ---
rblk_connect_all > /dev/null
out=$(nvmecfg disconnect -n "nqn.2014-08.org.example:none,$RBLK_NQN") ||
	fail "disconnect -n list: $out"
[ "$out" = "NQN:nqn.2014-08.org.example:none,$RBLK_NQN disconnected 1 controller(s)" ] ||
	fail "disconnect -n list printed: $out"
[ "$(ctrls)" -eq 0 ] || fail "disconnect -n list left a controller"

# --- --dump-config, read back by connect-all -J ---
nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" \
	-i 1 -O > /tmp/dump.out 2>&1 || fail "connect -O: $(cat /tmp/dump.out)"
sed -n '/^\[/,$p' /tmp/dump.out > /tmp/dump.json
jq -e ".[0].subsystems[0].nqn == \"$RBLK_NQN\" and .[0].subsystems[0].ports[0].nr_io_queues == 1" \
	/tmp/dump.json > /dev/null || fail "--dump-config: $(cat /tmp/dump.out)"
grep -q DHHC /tmp/dump.json && fail "--dump-config printed a key"
must nvmecfg disconnect-all
# The discovery controller at the port lists the subsystem: connected again.
nvmecfg connect-all -J /tmp/dump.json -o json > /tmp/ca.json 2>/tmp/ca.err ||
	fail "connect-all -J of the dump: $(cat /tmp/ca.err)"
jq -e ".connected[0].subsysnqn == \"$RBLK_NQN\"" /tmp/ca.json > /dev/null ||
	fail "connect-all -o json: $(cat /tmp/ca.json)"
[ "$(ctrls)" -ge 1 ] || fail "connect-all -J connected nothing"
must nvmecfg disconnect-all

# --- LIBNVME_HOSTNQN is the host NQN sent ---
HN=nqn.2014-08.org.nvmexpress:uuid:0f0e0d0c-0b0a-0908-0706-050403020100
c=$(LIBNVME_HOSTNQN=$HN rblk_connect_all | head -n 1)
[ "$(nvmecfg show "$c" -o json | jq -r .hostnqn)" = "$HN" ] ||
	fail "LIBNVME_HOSTNQN not sent: $(nvmecfg show "$c")"
must nvmecfg disconnect "$c"
exit 0

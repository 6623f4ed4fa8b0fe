#!/bin/sh
# The netlink control plane end to end: nvmecfg connect creates controller
# rblk-ctrl0 with the parameters asked for and a /dev/rblkN per namespace
# (-N: only that one), list/show/stats report what sysfs and the block
# layer say, a second connect to the same subsystem is refused with
# EALREADY unless --duplicate-connect, controllers list in index order with
# their namespaces, disconnect (by controller; by namespace, -d, --index
# only with --force, else refused naming the controller) removes a
# controller and all its devices, and the "events" group reports each
# step.
# rblk-timeout: 240
# shellcheck disable=SC2016 # $names in single quotes are jq variables
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v nvmecfg >/dev/null || fail "nvmecfg missing from the guest"
command -v jq >/dev/null || fail "jq missing from the guest"
EVENTS=/tmp/nl_events.json
mon=

cleanup() {
	[ -n "$mon" ] && kill "$mon" 2>/dev/null
	for d in /sys/class/rblk/rblk-ctrl* /sys/block/rblk*; do
		[ -e "$d" ] && nvmecfg disconnect --force "${d##*/}"
	done
	rblk_unload
	rm -f "$EVENTS"
}
trap cleanup EXIT

# multipath=N: list -v and show as for a namespace of one controller (a
# head's layout: mpath_iopolicy's).
rblk_load multipath=N
for d in /sys/block/rblk*; do
	[ -e "$d" ] && fail "rblk devices exist before the test: $d"
done

# Listen first: the events of everything below are checked at the end.
nvmecfg monitor -o json --timeout 200 > "$EVENTS" &
mon=$!
sleep 2
kill -0 "$mon" 2>/dev/null || fail "nvmecfg monitor exited early"

# --- connect, with every tunable set to a non-default value ---
out=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$RBLK_NQN" -N "$RBLK_NSID_FILE" -i 2 -Q 64 -k 7 -c 3 -l 30 --fast_io_fail_tmo 20 2>&1) ||
	{ printf '%s\n' "$out"; fail "nvmecfg connect failed"; }
[ "$out" = "rblk-ctrl0
rblk0" ] || fail "connect printed '$out', want rblk-ctrl0 and rblk0"
wait_for_path /dev/rblk0 10 -b || fail "/dev/rblk0 did not appear"
[ "$(rblk_ctrl_of rblk0)" = rblk-ctrl0 ] || fail "rblk0 is not on rblk-ctrl0"
log "connected: rblk-ctrl0 with /dev/rblk0"

json=$(nvmecfg list -o json) || fail "nvmecfg list -o json failed"
printf '%s\n' "$json"
jq_true "list" "$json" '.controllers | length == 1'
bytes=$(( $(cat /sys/block/rblk0/size) * 512 ))
lbs=$(cat /sys/block/rblk0/queue/logical_block_size)
jq_true "list" "$json" '.controllers[0] |
	.index == 0 and .name == "rblk-ctrl0" and .state == "live" and
	.transport == "rdma" and .adrfam == "ipv4" and
	.traddr == $addr and .trsvcid == $port and .subsysnqn == $nqn and
	.nsid == ($nsid | tonumber) and .queue_size == 64 and .kato == 7 and
	.reconnect_delay == 3 and .ctrl_loss_tmo == 30 and
	.fast_io_fail_tmo == 20 and .nr_io_queues >= 1 and
	.nr_io_queues <= 2 and .cntlid > 0 and (.hostnqn | startswith("nqn.")) and
	(.namespaces | length) == 1 and
	.namespaces[0].index == 0 and .namespaces[0].name == "rblk0" and
	.namespaces[0].nsid == ($nsid | tonumber) and
	.namespaces[0].size == ($bytes | tonumber) and
	.namespaces[0].size == ($backing | tonumber) and
	.namespaces[0].block_size == ($lbs | tonumber) and
	(.namespaces[0].wwid | length) > 4' \
	--arg addr "$RBLK_TRADDR" --arg port "$RBLK_TRSVCID" \
	--arg nqn "$RBLK_NQN" --arg nsid "$RBLK_NSID_FILE" \
	--arg bytes "$bytes" --arg backing "$RBLK_BACKING_SIZE" --arg lbs "$lbs"

# What netlink says is what sysfs says.
for f in cntlid nr_io_queues hostnqn hostid serial model; do
	want=$(cat "/sys/class/rblk/rblk-ctrl0/$f") || fail "no sysfs attribute $f"
	got=$(printf '%s\n' "$json" | jq -r ".controllers[0].$f")
	[ "$got" = "$want" ] || fail "$f: netlink '$got', sysfs '$want'"
done
[ "$(printf '%s\n' "$json" | jq -r '.controllers[0].firmware')" = "$(cat /sys/class/rblk/rblk-ctrl0/firmware_rev)" ] ||
	fail "firmware: netlink and sysfs disagree"
[ "$(printf '%s\n' "$json" | jq -r '.controllers[0].namespaces[0].wwid')" = "$(cat /sys/block/rblk0/wwid)" ] ||
	fail "wwid: netlink and sysfs disagree"

# nvme-cli 2.x's nvme list -o json beside it: a device per namespace.
jq_true "list Devices" "$json" '.Devices == [{"NameSpace": ($nsid | tonumber),
	"DevicePath": "/dev/rblk0", "Firmware": .controllers[0].firmware,
	"ModelNumber": .controllers[0].model,
	"SerialNumber": .controllers[0].serial,
	"MaximumLBA": (($bytes | tonumber) / ($lbs | tonumber)),
	"PhysicalSize": ($bytes | tonumber), "SectorSize": ($lbs | tonumber),
	"Index": 0, "WWID": .controllers[0].namespaces[0].wwid} +
	(.Devices[0] | with_entries(select(.key | IN("NGUID", "EUI64", "UUID"))))]' \
	--arg nsid "$RBLK_NSID_FILE" --arg bytes "$bytes" --arg lbs "$lbs"
# And nvme list -v's tree, the subsystem named as sysfs names it.
json=$(nvmecfg list -v -o json) || fail "nvmecfg list -v -o json failed"
printf '%s\n' "$json"
subsys=
for s in /sys/class/rblk-subsystem/*; do
	[ -e "$s/rblk-ctrl0" ] && subsys=${s##*/}
done
[ -n "$subsys" ] || fail "rblk-ctrl0 is in no /sys/class/rblk-subsystem/*"
jq_true "list -v" "$json" '(.Devices | length) == 1 and
	.Devices[0].HostNQN == $hostnqn and .Devices[0].HostID == $hostid and
	.Devices[0].Subsystems == [{"Subsystem": $subsys, "SubsystemNQN": $nqn,
		"Controllers": [{"Controller": "rblk-ctrl0",
			"SerialNumber": $serial, "ModelNumber": $model,
			"Firmware": $fw, "Transport": "rdma",
			"Address": $addr, "State": "live",
			"Namespaces": .Devices[0].Subsystems[0].Controllers[0].Namespaces}],
		"Namespaces": []}] and
	(.Devices[0].Subsystems[0].Controllers[0].Namespaces | map(.NameSpace)) == ["rblk0"]' \
	--arg hostnqn "$(cat /sys/class/rblk/rblk-ctrl0/hostnqn)" \
	--arg hostid "$(cat /sys/class/rblk/rblk-ctrl0/hostid)" \
	--arg subsys "$subsys" --arg nqn "$RBLK_NQN" \
	--arg serial "$(cat /sys/class/rblk/rblk-ctrl0/serial)" \
	--arg model "$(cat /sys/class/rblk/rblk-ctrl0/model)" \
	--arg fw "$(cat /sys/class/rblk/rblk-ctrl0/firmware_rev)" \
	--arg addr "$(cat /sys/class/rblk/rblk-ctrl0/address)"
out=$(nvmecfg list -v) || fail "nvmecfg list -v failed"
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q "^$subsys  *$RBLK_NQN  *rblk-ctrl0\$" ||
	fail "list -v: no subsystem line"
printf '%s\n' "$out" | grep -q '^/dev/rblk0 ' || fail "list -v: no /dev/rblk0 line"

# --- show, by every way of naming the controller ---
out=$(nvmecfg show rblk-ctrl0) || fail "nvmecfg show rblk-ctrl0 failed"
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q '^rblk-ctrl0: live$' || fail "show: no 'rblk-ctrl0: live' line"
printf '%s\n' "$out" | grep -q "^  traddr  *$RBLK_TRADDR\$" || fail "show: no traddr line"
printf '%s\n' "$out" | grep -q '^  rblk0:$' || fail "show: no rblk0 namespace"
for sel in "rblk-ctrl0" "rblk0" "/dev/rblk0" "-d rblk0" "--index 0"; do
	# shellcheck disable=SC2086 # $sel is two words on purpose
	j=$(nvmecfg show $sel -o json) || fail "nvmecfg show $sel failed"
	jq_true "show $sel" "$j" '.name == "rblk-ctrl0" and
		.namespaces[0].nsid == ($n | tonumber)' --arg n "$RBLK_NSID_FILE"
done

# --- stats count real I/O ---
dd if=/dev/urandom of=/tmp/nl.pat bs=4096 count=256 2>/dev/null
must nvmecfg stats rblk0 --reset
write_direct /tmp/nl.pat /dev/rblk0 0
read_direct /dev/rblk0 0 1048576 /tmp/nl.got
assert_same /tmp/nl.pat /tmp/nl.got "rblk0 read back"
read_region "$RBLK_BACKING" 0 1048576 /tmp/nl.got
assert_same /tmp/nl.pat /tmp/nl.got "rblk0 vs the backing file"
rm -f /tmp/nl.pat /tmp/nl.got
st=$(nvmecfg stats rblk0 -o json) || fail "nvmecfg stats failed"
printf '%s\n' "$st"
jq_true "stats" "$st" '.name == "rblk0" and .controller == "rblk-ctrl0" and
	.writes >= 1 and
	.write_bytes >= 1048576 and .reads >= 1 and .read_bytes >= 1048576 and
	.errors == 0 and .timeouts == 0 and (.latency_hist_us | length) == 24 and
	(.latency_hist_us | add) >= .reads + .writes'
[ "$(printf '%s\n' "$st" | jq .writes)" -eq "$(cat /sys/block/rblk0/rblk/writes)" ] ||
	fail "stats: netlink and sysfs writes disagree"
nvmecfg stats rblk0 | grep -q '^  write_bytes  *[0-9]' || fail "stats: no write_bytes line"
cst=$(nvmecfg stats rblk-ctrl0 -o json) || fail "nvmecfg stats rblk-ctrl0 failed"
jq_true "controller stats" "$cst" '.controller == "rblk-ctrl0" and
	.writes == $w' --argjson w "$(printf '%s\n' "$st" | jq .writes)"
must nvmecfg stats --index 0 --reset
st=$(nvmecfg stats rblk0 -o json) || fail "nvmecfg stats failed"
jq_true "stats after reset" "$st" '.reads == 0 and .writes == 0 and
	.read_bytes == 0 and .write_bytes == 0 and (.latency_hist_us | add) == 0'

# --- the same subsystem again: refused, nothing created ---
rc=0
out=$(nvmecfg connect -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" 2>&1) || rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 1 ] || fail "duplicate connect: exit $rc, want 1"
printf '%s\n' "$out" | grep -q '^nvmecfg: connect: .*already' ||
	fail "duplicate connect: no EALREADY message"
[ -e /sys/class/rblk/rblk-ctrl1 ] && fail "duplicate connect created rblk-ctrl1"
[ -e /sys/block/rblk1 ] && fail "duplicate connect created rblk1"

# --- a second controller with every namespace; the dump lists both ---
out=$(nvmecfg connect -a "$RBLK_TRADDR" -n "$RBLK_NQN" --duplicate-connect -o json) ||
	fail "connect --duplicate-connect failed"
printf '%s\n' "$out"
jq_true "connect -o json" "$out" '.device == "rblk-ctrl1" and
	.index == 1 and .name == "rblk-ctrl1" and
	(.namespaces | length) == 3 and
	([.namespaces[].nsid] == [($a | tonumber), ($b | tonumber), ($c | tonumber)])' \
	--arg a "$RBLK_NSID_NULL" --arg b "$RBLK_NSID_FILE" --arg c "$RBLK_NSID_512"
for n in $(printf '%s\n' "$out" | jq -r '.namespaces[].name'); do
	wait_for_path "/dev/$n" 10 -b || fail "/dev/$n did not appear"
	[ "$(rblk_ctrl_of "$n")" = rblk-ctrl1 ] || fail "$n is not on rblk-ctrl1"
done
null=$(printf '%s\n' "$out" | jq -r --argjson n "$RBLK_NSID_NULL" '.namespaces[] | select(.nsid == $n) | .name')
json=$(nvmecfg list -o json) || fail "nvmecfg list failed"
jq_true "list of two" "$json" '[.controllers[].name] == ["rblk-ctrl0", "rblk-ctrl1"] and
	(.controllers[1].namespaces | length) == 3 and
	(.controllers[1] | has("nsid") | not) and
	.controllers[1].kato == 5 and .controllers[1].queue_size == 128 and
	.controllers[1].ctrl_loss_tmo == 600 and
	(.controllers[1].namespaces[] | select(.name == $null) | .size) == ($size | tonumber) and
	(.Devices | map(.DevicePath)) == ([.controllers[].namespaces[].name] | map("/dev/" + .)) and
	(.Devices[] | select(.DevicePath == "/dev/" + $null) | .PhysicalSize) == ($size | tonumber)' \
	--arg null "$null" --arg size "$RBLK_NULL_SIZE"
[ "$(nvmecfg list | grep -c '^rblk-ctrl[01] ')" -eq 2 ] || fail "text list lacks a controller"
[ "$(nvmecfg list | grep -c '^  rblk[0-9]')" -eq 4 ] || fail "text list lacks a namespace"

# --- disconnect by a namespace: refused, it would take the other two
# namespaces of its controller; with --force it does; then --index ---
rc=0
msg=$(nvmecfg disconnect -d "$null" 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "disconnect -d $null without --force: exit $rc, want 2: $msg"
printf '%s\n' "$msg" | grep -qx "nvmecfg: disconnect: $null is a namespace of rblk-ctrl1; disconnect rblk-ctrl1 to remove the controller and all its namespaces" ||
	fail "disconnect -d $null: $msg"
rc=0
msg=$(nvmecfg disconnect --index 0 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "disconnect --index 0 without --force: exit $rc, want 2: $msg"
printf '%s\n' "$msg" | grep -q "^nvmecfg: disconnect: rblk0 is a namespace of rblk-ctrl0; " ||
	fail "disconnect --index 0: $msg"
[ -e /sys/class/rblk/rblk-ctrl0 ] && [ -e /sys/class/rblk/rblk-ctrl1 ] ||
	fail "a refused disconnect removed a controller"
must nvmecfg disconnect --force -d "$null"
for n in $(printf '%s\n' "$out" | jq -r '.namespaces[].name'); do
	wait_for_path "/sys/block/$n" 10 ! || fail "$n still there after disconnect"
done
wait_for_path /sys/class/rblk/rblk-ctrl1 10 ! || fail "rblk-ctrl1 still there"
[ -e /sys/block/rblk0 ] || fail "disconnecting rblk-ctrl1 removed rblk0"
must nvmecfg disconnect --index 0 --force
wait_for_path /sys/block/rblk0 10 ! || fail "rblk0 still there after disconnect"
[ -e /dev/rblk0 ] && fail "/dev/rblk0 still exists"
jq_true "list after disconnect" "$(nvmecfg list -o json)" '. == {"Devices": [], "controllers": []}'

# Gone means gone: a second disconnect is refused.
rc=0
out=$(nvmecfg disconnect rblk-ctrl0 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "disconnect of a removed controller: exit $rc, want 1"
printf '%s\n' "$out" | grep -q 'No such device' || fail "no ENODEV message: $out"

# --- the events seen meanwhile ---
i=0
while ! grep -q '"event":"removed","index":0' "$EVENTS" && [ $i -lt 50 ]; do
	usleep 100000
	i=$((i + 1))
done
kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null
mon=
cat "$EVENTS"
ev=$(jq -s -c '[.[] | select(.name == "rblk-ctrl0") | .event + ":" + .state]' "$EVENTS") ||
	fail "monitor output is not JSON lines"
case $ev in
*'"added:'*'"ns-added:live"'*'"ns-removed:deleting"'*'"removed:deleting"'*) ;;
*) fail "rblk-ctrl0 events $ev: want added ... ns-added:live ... ns-removed:deleting ... removed:deleting" ;;
esac
printf '%s\n' "$ev" | grep -q '"state:live"' || fail "no state event to live for rblk-ctrl0"
[ "$(jq -s '[.[] | select(.name == "rblk-ctrl1" and .event == "ns-added")] | length' "$EVENTS")" -eq 3 ] ||
	fail "want 3 ns-added events for rblk-ctrl1"
grep -q '"event":"removed","index":1,"name":"rblk-ctrl1"' "$EVENTS" || fail "no removed event for rblk-ctrl1"
exit 0

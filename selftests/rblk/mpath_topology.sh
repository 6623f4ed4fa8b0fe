#!/bin/sh
# What an administrator sees of multipath (issue 44), rblk.multipath=Y,
# two controllers to one subsystem over two nvmet ports, ANA group 1 made
# inaccessible on port 1 and non-optimized on port 2, next to nvme-rdma's
# native multipath connected the same way in the same boot:
#  - nvmecfg list-subsys lists both controllers; with the head
#    (list-subsys /dev/rblkN) each path ends with its ANA state, as
#    nvme-cli's "live inaccessible"; -v adds the subsystem's identity;
#  - show-topology: the subsystem, the namespace, its two paths with their
#    ANA states (-r ctrl: by controller), its I/O policy;
#  - JSON: every path of list-subsys DEVICE and show-topology carries
#    ANAState, the target's state; every key is one nvme-cli's JSON has
#    for nvme-rdma's paths; nvme-cli's lines for nvme-rdma end with the
#    same ANA words;
#  - netlink events: ana-changed for the path that changed, and
#    iopolicy-changed for set-iopolicy and for sysfs's iopolicy;
#  - nothing of it reads sysfs: the commands work with
#    /sys/class/rblk-subsystem hidden;
#  - dumps while paths and subsystems come and go (a reader looping over
#    show-topology and list-subsys while the second path is disconnected
#    and connected again, and the first path's subsystem removed with the
#    last controller): every answer is well-formed, no splat.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

P1=$RBLK_NVMET_PORT
P2=$NVMET_PORT2
SVC2=$NVMET_SVC2
A1="traddr=$RBLK_TRADDR,trsvcid=$RBLK_TRSVCID"
A2="traddr=$RBLK_TRADDR,trsvcid=$SVC2"

mon=
rd=
cleanup() {
	[ -n "$rd" ] && kill "$rd" 2>/dev/null && wait "$rd"
	[ -n "$mon" ] && kill "$mon" 2>/dev/null && wait "$mon"
	umount /sys/class/rblk-subsystem 2>/dev/null
	nvmet_ana_set "$P1" optimized 2>/dev/null
	nvmet_ana_set "$P2" optimized 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mt.*
}
trap cleanup EXIT

command -v jq >/dev/null || fail "jq missing from the guest"
nvmet_port2_add
[ -f "$P2/ana_groups/1/ana_state" ] || skip "nvmet without ANA groups"

rblk_load multipath=1
rblk_two_paths
st() { cat "/sys/block/$1/ana_state"; }
S=$(nvmecfg list-subsys -o json |
	jq -r --arg n "$RBLK_NQN" '.[].Subsystems[] | select(.NQN == $n) | .Name')
[ -n "$S" ] && [ -d "/sys/class/rblk-subsystem/$S" ] ||
	fail "list-subsys: no subsystem for $RBLK_NQN: $(nvmecfg list-subsys -o json)"

nvmecfg monitor -o json --timeout 60 > /tmp/mt.mon 2> /tmp/mt.mon.err &
mon=$!
sleep 1
nvmet_ana_set "$P1" inaccessible
nvmet_ana_set "$P2" non-optimized
wait_until 10 sh -c "[ \"\$(cat /sys/block/$pa/ana_state)\" = inaccessible ] &&
	[ \"\$(cat /sys/block/$pb/ana_state)\" = non-optimized ]" ||
	fail "paths $pa $(st "$pa"), $pb $(st "$pb"): not the target's states"

# Netlink only: with the subsystem class hidden, the same answers.
mount -t tmpfs none /sys/class/rblk-subsystem ||
	fail "cannot hide /sys/class/rblk-subsystem"

# list-subsys: controllers without a device, the head's paths with one.
out=$(nvmecfg list-subsys) || fail "list-subsys: $out"
echo "$out" | grep -qx "$S - NQN=$RBLK_NQN" || fail "list-subsys: no '$S - NQN=' line: $out"
echo "$out" | grep -qx " +- $A rdma $A1 live" && echo "$out" | grep -qx " +- $B rdma $A2 live" ||
	fail "list-subsys: controller lines: $out"
out=$(nvmecfg list-subsys "/dev/$h") || fail "list-subsys /dev/$h: $out"
echo "$out" | grep -qx " +- $A rdma $A1 live inaccessible" &&
	echo "$out" | grep -qx " +- $B rdma $A2 live non-optimized" ||
	fail "list-subsys /dev/$h: path lines: $out"
echo "$out" | grep -qx " *iopolicy=numa" || fail "list-subsys /dev/$h: no iopolicy=numa: $out"
[ "$(echo "$out" | grep -c ' +- ')" -eq 2 ] || fail "list-subsys /dev/$h: not 2 paths: $out"
out=$(nvmecfg list-subsys -v "$h") || fail "list-subsys -v $h: $out"
echo "$out" | grep -qx " *model=.*" && echo "$out" | grep -qx " *firmware=.*" ||
	fail "list-subsys -v: no model=, firmware=: $out"
log "list-subsys: controllers; with $h its paths inaccessible, non-optimized"

# show-topology, by namespace and by controller.
out=$(nvmecfg show-topology) || fail "show-topology: $out"
echo "$out" | grep -qx " +- ns $RBLK_NSID_FILE" &&
	echo "$out" | grep -qx "  +- $A rdma $A1 live inaccessible" &&
	echo "$out" | grep -qx "  +- $B rdma $A2 live non-optimized" &&
	echo "$out" | grep -qx " *iopolicy=numa" || fail "show-topology: $out"
out=$(nvmecfg show-topology -r ctrl) || fail "show-topology -r ctrl: $out"
echo "$out" | grep -qx " +- $A rdma $A1" &&
	echo "$out" | grep -qx "  +- ns $RBLK_NSID_FILE live inaccessible" &&
	echo "$out" | grep -qx "  +- ns $RBLK_NSID_FILE live non-optimized" ||
	fail "show-topology -r ctrl: $out"
log "show-topology: ns $RBLK_NSID_FILE, its paths and states, both orders"

# JSON: ANAState on every path, the target's.
nvmecfg list-subsys -o json "$h" > /tmp/mt.ls || fail "list-subsys -o json $h"
nvmecfg show-topology -o json > /tmp/mt.topo || fail "show-topology -o json"
nvmecfg list-subsys -o json -v > /tmp/mt.lsv || fail "list-subsys -o json -v"
jq -e '[.[].Subsystems[].Paths[] | has("ANAState")] | length == 2 and all' /tmp/mt.ls > /dev/null ||
	fail "list-subsys -o json $h: a path without ANAState: $(cat /tmp/mt.ls)"
jq -e '[.[].Subsystems[].Namespaces[].Paths[] | has("ANAState")] | length > 0 and all' \
	/tmp/mt.topo > /dev/null || fail "show-topology -o json: a path without ANAState: $(cat /tmp/mt.topo)"
ana_of() {
	jq -r --arg n "$RBLK_NQN" --argjson i "$RBLK_NSID_FILE" --arg c "$2" \
		'.[].Subsystems[] | select(.NQN == $n) | .Namespaces[] |
		 select(.NSID == $i) | .Paths[] | select(.Name == $c) | .ANAState' "$1"
}
[ "$(ana_of /tmp/mt.topo "$A")" = inaccessible ] && [ "$(ana_of /tmp/mt.topo "$B")" = non-optimized ] ||
	fail "show-topology -o json: states $(ana_of /tmp/mt.topo "$A"), $(ana_of /tmp/mt.topo "$B")"
jq -e --arg a "$A" '[.[].Subsystems[].Paths[] | select(.Name == $a) | .ANAState] == ["inaccessible"]' \
	/tmp/mt.ls > /dev/null || fail "list-subsys -o json $h: $(cat /tmp/mt.ls)"
jq -e '[.[].Subsystems[] | has("IOPolicy") and has("Model")] | all' /tmp/mt.lsv > /dev/null ||
	fail "list-subsys -o json -v: no IOPolicy, Model: $(cat /tmp/mt.lsv)"
log "JSON: ANAState on every path, the target's states"
umount /sys/class/rblk-subsystem

# Events: the ANA change above; an iopolicy change by netlink and by sysfs.
must nvmecfg set-iopolicy "$A" --iopolicy round-robin
nvmecfg show-topology | grep -qx " *iopolicy=round-robin" || fail "show-topology: no iopolicy=round-robin"
echo queue-depth > "/sys/class/rblk-subsystem/$S/iopolicy" || fail "cannot write $S's iopolicy"
ev_seen() { jq -se "$1" /tmp/mt.mon > /dev/null 2>&1; }
wait_until 10 ev_seen "any(.[]; .event == \"iopolicy-changed\" and .subsystem == \"$S\" and
	.iopolicy == \"queue-depth\")" ||
	fail "no iopolicy-changed to queue-depth: $(cat /tmp/mt.mon /tmp/mt.mon.err)"
kill "$mon" 2>/dev/null; wait "$mon"; mon=
jq -se --arg s "$S" 'any(.[]; .event == "iopolicy-changed" and .subsystem == $s and
	.iopolicy == "round-robin")' /tmp/mt.mon > /dev/null ||
	fail "no iopolicy-changed to round-robin: $(cat /tmp/mt.mon)"
jq -se --arg p "$pa" 'any(.[]; .event == "ana-changed" and .namespace.path == $p and
	.namespace.ana_state == "inaccessible")' /tmp/mt.mon > /dev/null ||
	fail "no ana-changed event for $pa: $(cat /tmp/mt.mon)"
jq -se --arg p "$pb" 'any(.[]; .event == "ana-changed" and .namespace.path == $p and
	.namespace.ana_state == "non-optimized")' /tmp/mt.mon > /dev/null ||
	fail "no ana-changed event for $pb: $(cat /tmp/mt.mon)"
log "monitor: ana-changed for $pa and $pb, iopolicy-changed (netlink, sysfs)"

# The head of a path name, a controller, nothing: refused or empty.
out=$(nvmecfg list-subsys "$A" 2>&1) && fail "list-subsys $A (a controller) accepted: $out"
out=$(nvmecfg list-subsys rblk9999 2>&1) && fail "list-subsys rblk9999 accepted: $out"
out=$(nvmecfg show-topology -r frob 2>&1) && fail "show-topology -r frob accepted: $out"

# Dumps across the objects' lifetimes: a reader while paths come and go.
# reader: show-topology and list-subsys until killed; an answer that is
# not JSON, or a failure other than the device's going, ends it with 1.
reader() {
	while :; do
		nvmecfg show-topology -o json | jq -e 'type == "array"' > /dev/null || exit 1
		nvmecfg list-subsys -o json | jq -e 'type == "array"' > /dev/null || exit 1
		nvmecfg show-topology -r ctrl > /dev/null || exit 1
	done
}
reader &
rd=$!
gone_b() { ! rblk_path_of "$h" "$B" > /dev/null; }
for i in 1 2 3 4; do
	must nvmecfg disconnect "$B"
	wait_until 10 gone_b || fail "round $i: $B is still a path of $h"
	B=$(rblk_connect_port_ctrl "$SVC2") || exit "$KSFT_FAIL"
done
# The subsystem itself goes with its last controller, and comes back.
must nvmecfg disconnect-all
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
B=$(rblk_connect_port_ctrl "$SVC2") || exit "$KSFT_FAIL"
running "$rd" || fail "the reader failed while paths came and went"
kill "$rd"; wait "$rd"; rd=
[ "$(nvmecfg show-topology -o json | jq --arg n "$RBLK_NQN" \
	'[.[].Subsystems[] | select(.NQN == $n) | .Namespaces[].Paths[]] | length')" -ge 2 ] ||
	fail "show-topology after the churn: $(nvmecfg show-topology)"
log "dumps while paths and the subsystem came and went: well-formed"

# nvme-rdma, the same target states: its keys, its words.
keys() { grep -o '"[A-Za-z]*" *:' | tr -d ' :"' | sort -u; }
if nvme_two_paths; then
	nd=$(nvme_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "no nvme-rdma namespace"
	wait_until 10 sh -c "nvme list-subsys $nd | grep -q 'trsvcid=$RBLK_TRSVCID live inaccessible'" ||
		fail "nvme list-subsys $nd: $(nvme list-subsys "$nd")"
	nout=$(nvme list-subsys "$nd")
	echo "$nout" | grep -q "trsvcid=$SVC2 live non-optimized\$" ||
		fail "nvme list-subsys $nd: port 2 not 'live non-optimized': $nout"
	nkeys=$( (nvme list-subsys -o json "$nd"; nvme show-topology -o json) | keys)
	for f in /tmp/mt.ls /tmp/mt.topo; do
		for k in $(keys < "$f"); do
			echo "$nkeys" | grep -qx "$k" ||
				fail "${f#/tmp/mt.}: key $k is not nvme-cli's: $(echo "$nkeys" | tr '\n' ' ')"
		done
	done
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	log "nvme-rdma: 'live inaccessible', 'live non-optimized'; rblk's JSON keys are nvme-cli's"
else
	log "nvme_core without native multipath: no nvme-rdma reference"
fi
exit 0

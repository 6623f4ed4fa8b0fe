#!/bin/sh
# Subsystems (issue 27, multipath step 4: the object only, the block
# devices are unchanged), against nvme-rdma connected the same way in the
# same boot:
#  - two controllers to one nvmet subsystem over two ports are two paths of
#    one /sys/class/rblk-subsystem/rblk-subsysK: its subsysnqn, serial,
#    model and firmware_rev are the controllers', it links both,
#    and nvme-rdma shows one nvme-subsystem with two controllers and the
#    same identity; the two devices of a namespace are the same storage
#    (written through one, read through the other and on the target);
#  - another subsystem gets a subsystem of its own; the same subsystem
#    under another host NQN is a third path of the first (as nvme-core,
#    which keys a subsystem by its NQN alone);
#  - a reset keeps the controller a path; a disconnect takes its link
#    away; the last disconnect removes the subsystem, and rmmod with
#    controllers connected leaves none;
#  - nvmecfg list-subsys DEVICE shows the device's controller alone and
#    show-topology each controller's namespaces, JSON in nvme-cli's keys;
#  - the files of the directory are those of
#    Documentation/ABI/testing/sysfs-class-rblk-subsystem (without
#    multipath: but iopolicy).
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

SVC2=$NVMET_SVC2
NQN2=nqn.2026-12.io.rblk:subsys-paths
IMG2=/tmp/subsys_paths.img
HOSTNQN2=nqn.2014-08.org.nvmexpress:uuid:5b0a0b6e-6a7c-4d36-8d7e-2f7f3c0f0a01
SC=/sys/class/rblk-subsystem

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	nvmet_subsys_del "$NQN2"
	rm -f "$IMG2" /tmp/sp.pat /tmp/sp.got
}
trap cleanup EXIT

doc=
for d in "${RBLK_ABI_DIR:-}" /usr/share/doc/rblk \
	 "${RBLK_SELFTESTS:-/selftests}/../Documentation/ABI/testing"; do
	[ -n "$d" ] && [ -f "$d/sysfs-class-rblk-subsystem" ] &&
		{ doc=$d/sysfs-class-rblk-subsystem; break; }
done
[ -n "$doc" ] || fail "sysfs-class-rblk-subsystem is not in the guest"

nvmet_port2_add

# multipath=N: the subsystem object with the namespace's two own devices
# (the heads' side: mpath_head, mpath_iopolicy).
rblk_load multipath=N
[ -d "$SC" ] || fail "$SC missing"

# subsys_of CTRL: the rblk-subsysK that links controller CTRL; 1 if none.
subsys_of() {
	for _s in "$SC"/rblk-subsys*; do
		[ -L "$_s/$1" ] && { echo "${_s##*/}"; return 0; }
	done
	return 1
}
# count PATTERN...: how many of the glob's matches exist.
count() {
	_n=0
	for _f in "$@"; do [ -e "$_f" ] && _n=$((_n + 1)); done
	echo "$_n"
}
nr_subsys() { count "$SC"/rblk-subsys*; }
nr_links() { count "$SC/$1"/rblk-ctrl*; }

A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
B=$(rblk_connect_port_ctrl "$SVC2") || exit "$KSFT_FAIL"
[ "$A" != "$B" ] || fail "the second port gave the same controller $A"

S=$(subsys_of "$A") || fail "$A is in no subsystem: $(ls "$SC")"
[ "$(subsys_of "$B")" = "$S" ] || fail "$B is in $(subsys_of "$B"), $A in $S"
[ "$(nr_subsys)" -eq 1 ] || fail "$(nr_subsys) subsystems for one nvmet subsystem"
[ "$(nr_links "$S")" -eq 2 ] || fail "$S links $(nr_links "$S") controllers, expected 2"
[ "$(readlink -f "$SC/$S/$A")" = "$(readlink -f "/sys/class/rblk/$A")" ] ||
	fail "$SC/$S/$A does not lead to $A's directory"
[ "$(cat "/sys/class/rblk/$A/cntlid")" != "$(cat "/sys/class/rblk/$B/cntlid")" ] ||
	fail "$A and $B have the same cntlid"
[ "$(cat "$SC/$S/subsysnqn")" = "$RBLK_NQN" ] ||
	fail "$S subsysnqn '$(cat "$SC/$S/subsysnqn")', expected $RBLK_NQN"
for f in serial model firmware_rev; do
	[ "$(cat "$SC/$S/$f")" = "$(cat "/sys/class/rblk/$A/$f")" ] ||
		fail "$S $f '$(cat "$SC/$S/$f")', $A's is '$(cat "/sys/class/rblk/$A/$f")'"
done
[ "$(cat "$SC/$S/serial")" = "$(cat "$RBLK_NVMET_SUBSYS/attr_serial")" ] ||
	fail "$S serial is not the target's $(cat "$RBLK_NVMET_SUBSYS/attr_serial")"
log "$A and $B are paths of $S ($RBLK_NQN)"

# The files, against the ABI document (the driver core's and the links
# aside), read-only and one line each.
present=$(cd "$SC/$S" && for f in *; do
	# (rblk<N>: the heads' disks, children of the subsystem with multipath)
	case $f in uevent|subsystem|power|rblk-ctrl*|rblk[0-9]*) ;; *) echo "$f" ;; esac
done | sort)
# iopolicy exists only with multipath (mpath_iopolicy tests it), as nvme's.
if [ "$(cat /sys/module/rblk/parameters/multipath)" = Y ]; then
	nompath=nothing
else
	nompath=iopolicy
fi
documented=$(sed -n 's|^What:[[:space:]]*/sys/class/rblk-subsystem/rblk-subsys<K>/||p' "$doc" |
	grep . | grep -vx "$nompath" | sort)
[ "$present" = "$documented" ] ||
	fail "$S has: $(echo "$present" | tr '\n' ' '); $doc documents: $(echo "$documented" | tr '\n' ' ')"
for f in $present; do
	[ "$(stat -c %a "$SC/$S/$f")" = 444 ] || fail "$S/$f mode $(stat -c %a "$SC/$S/$f"), documented 0444"
	[ "$(wc -l < "$SC/$S/$f")" -eq 1 ] || fail "$S/$f is not one line"
done

# One namespace, two devices (step 4 keeps them): the same storage.
da=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no nsid $RBLK_NSID_FILE on $A"
db=$(rblk_ns_dev "$B" "$RBLK_NSID_FILE") || fail "no nsid $RBLK_NSID_FILE on $B"
wait_for_path "$da" 10 -b || fail "no device node $da"
wait_for_path "$db" 10 -b || fail "no device node $db"
pattern_file /tmp/sp.pat 1048576
write_direct /tmp/sp.pat "$da" 3145728
read_direct "$db" 3145728 1048576 /tmp/sp.got
assert_same /tmp/sp.pat /tmp/sp.got "written through $da, read through $db"
read_region "$RBLK_BACKING" 3145728 1048576 /tmp/sp.got
assert_same /tmp/sp.pat /tmp/sp.got "written through $da, on the target"

# nvme-rdma, the same two connects: one subsystem, two controllers.
must modprobe nvme-rdma
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$SVC2" -n "$RBLK_NQN"
nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE" > /dev/null || fail "nvme-rdma did not connect"
ns=
for s in /sys/class/nvme-subsystem/nvme-subsys*; do
	[ "$(cat "$s/subsysnqn")" = "$RBLK_NQN" ] && { ns=$s; break; }
done
[ -n "$ns" ] || fail "nvme-rdma shows no subsystem for $RBLK_NQN"
nc=0
for c in "$ns"/nvme[0-9]*; do
	case ${c##*/} in *n[0-9]*) ;; *) [ -e "$c" ] && nc=$((nc + 1)) ;; esac
done
[ "$nc" -eq 2 ] || fail "nvme-rdma's ${ns##*/} has $nc controllers, rblk's $S has 2"
# (nvme-subsystem shows the fields space-padded, rblk trimmed.)
for f in serial model firmware_rev; do
	[ "$(sed 's/ *$//' "$ns/$f")" = "$(cat "$SC/$S/$f")" ] ||
		fail "$f: nvme-rdma '$(cat "$ns/$f")', rblk '$(cat "$SC/$S/$f")'"
done
# nvmecfg list-subsys: both paths, and JSON keys that nvme-cli's
# list-subsys uses too (rblk has no IOPolicy yet).
out=$(nvmecfg list-subsys) || fail "nvmecfg list-subsys failed: $out"
echo "$out" | grep -qx "$S - NQN=$RBLK_NQN" || fail "list-subsys: no '$S - NQN=$RBLK_NQN' line: $out"
for p in "$A:$RBLK_TRSVCID" "$B:$SVC2"; do
	echo "$out" | grep -qx " +- ${p%:*} rdma traddr=$RBLK_TRADDR,trsvcid=${p#*:} live" ||
		fail "list-subsys: no line for ${p%:*} (port ${p#*:}): $out"
done
keys() { grep -o '"[A-Za-z]*" *:' | tr -d ' :"' | sort -u; }
rkeys=$(nvmecfg list-subsys -o json | keys)
nkeys=$(nvme list-subsys -o json | keys)
[ -n "$rkeys" ] || fail "nvmecfg list-subsys -o json printed no keys"
for k in $rkeys; do
	echo "$nkeys" | grep -qx "$k" || fail "list-subsys -o json key $k is not nvme-cli's: $(echo "$nkeys" | tr '\n' ' ')"
done
# Without multipath a namespace device is its controller's: list-subsys
# DEVICE shows that controller alone, without an ANA state, and
# show-topology each controller's namespaces (nvme-cli's shape for a
# subsystem without native multipath, JSON "Controller").
out=$(nvmecfg list-subsys "$da") || fail "list-subsys $da: $out"
[ "$(echo "$out" | grep -c ' +- ')" -eq 1 ] &&
	echo "$out" | grep -qx " +- $A rdma traddr=$RBLK_TRADDR,trsvcid=$RBLK_TRSVCID live" ||
	fail "list-subsys $da: not $A alone: $out"
out=$(nvmecfg show-topology) || fail "show-topology: $out"
for p in "$A:$RBLK_TRSVCID" "$B:$SVC2"; do
	echo "$out" | grep -qx "  +- ${p%:*} rdma traddr=$RBLK_TRADDR,trsvcid=${p#*:} live" ||
		fail "show-topology: no path line for ${p%:*}: $out"
done
echo "$out" | grep -qx " +- ns $RBLK_NSID_FILE" || fail "show-topology: no ns $RBLK_NSID_FILE: $out"
nvmecfg show-topology -o json | jq -e --arg a "$A" --argjson i "$RBLK_NSID_FILE" \
	'any(.[].Subsystems[].Namespaces[] | select(.NSID == $i) | .Controller[].Name; . == $a) and
	 ([.[].Subsystems[].Namespaces[] | has("Paths")] | any | not)' > /dev/null ||
	fail "show-topology -o json: $(nvmecfg show-topology -o json)"
tkeys=$(nvmecfg show-topology -o json | keys)
nkeys=$(nvme show-topology -o json | keys)
# (nvme-cli prints "Controller" for a subsystem without native
# multipath, which nvme_core here may not give nvme-rdma's.)
nvme_native_mpath && nkeys=$(printf '%s\nController\n' "$nkeys")
for k in $tkeys; do
	echo "$nkeys" | grep -qx "$k" || fail "show-topology -o json key $k is not nvme-cli's: $(echo "$nkeys" | tr '\n' ' ')"
done
nvme disconnect -n "$RBLK_NQN" > /dev/null
log "nvme-rdma agrees: ${ns##*/}, 2 controllers, same identity; list-subsys, show-topology in nvme-cli's keys"

# Another subsystem: a subsystem of its own; another host identity: a
# path of the same.
nvmet_subsys_add "$NQN2" "$IMG2" 16
c_out=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$NQN2" 2>&1) ||
	fail "connect to $NQN2: $c_out"
C=$(echo "$c_out" | head -n 1)
D=$(rblk_connect_port_ctrl "$RBLK_TRSVCID" -q "$HOSTNQN2") || exit "$KSFT_FAIL"
SC2=$(subsys_of "$C") || fail "$C is in no subsystem"
SD=$(subsys_of "$D") || fail "$D is in no subsystem"
if [ "$SC2" = "$S" ] || [ "$SD" != "$S" ]; then
	fail "subsystems: $A,$B in $S, $C ($NQN2) in $SC2, $D (other host) in $SD"
fi
[ "$(cat "$SC/$SC2/subsysnqn")" = "$NQN2" ] || fail "$SC2 subsysnqn $(cat "$SC/$SC2/subsysnqn")"
[ "$(cat "/sys/class/rblk/$D/hostnqn")" = "$HOSTNQN2" ] || fail "$D hostnqn $(cat "/sys/class/rblk/$D/hostnqn")"
[ "$(nr_subsys)" -eq 2 ] || fail "$(nr_subsys) subsystems, expected 2"
[ "$(nr_links "$S")" -eq 3 ] || fail "$S links $(nr_links "$S") controllers, expected 3"
log "$NQN2 in $SC2, host $HOSTNQN2 a third path of $S"
must nvmecfg disconnect "$C"
must nvmecfg disconnect "$D"
gone() { [ ! -e "$SC/$1" ]; }
wait_until 10 gone "$SC2" || fail "$SC2 still there after its only controller left"
wait_until 10 sh -c "[ ! -e $SC/$S/$D ]" || fail "$S still links $D after it left"

# A reset keeps the path; a disconnect removes it.
echo 1 > "/sys/class/rblk/$A/reset_controller" || fail "reset_controller refused"
rblk_wait_state "$da" live 30 || fail "$A not live after the reset"
[ "$(subsys_of "$A")" = "$S" ] || fail "$A left $S at its reset"
[ "$(nr_links "$S")" -eq 2 ] || fail "$S links $(nr_links "$S") controllers after the reset"
must nvmecfg disconnect "$A"
wait_until 10 sh -c "[ ! -e /sys/class/rblk/$A ]" || fail "$A still there"
[ "$(nr_links "$S")" -eq 1 ] || fail "$S links $(nr_links "$S") controllers after $A left"
[ "$(subsys_of "$B")" = "$S" ] || fail "$B left $S when $A did"
read_direct "$db" 3145728 1048576 /tmp/sp.got
assert_same /tmp/sp.pat /tmp/sp.got "read through $db after $A left"
must nvmecfg disconnect "$B"
wait_until 10 gone "$S" || fail "$S still there after its last controller left"
log "reset kept $A in $S; disconnects removed the links, then $S"

# rmmod with two paths connected.
rblk_connect_port_ctrl "$RBLK_TRSVCID" > /dev/null || exit "$KSFT_FAIL"
rblk_connect_port_ctrl "$SVC2" > /dev/null || exit "$KSFT_FAIL"
[ "$(nr_subsys)" -eq 1 ] || fail "$(nr_subsys) subsystems after connecting again"
timeout 60 rmmod rblk || fail "rmmod with two paths failed or hung"
[ ! -e "$SC" ] || fail "$SC still there after rmmod"
log "rmmod with two paths connected: done"
exit 0

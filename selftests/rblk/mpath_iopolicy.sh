#!/bin/sh
# I/O policies of multipath heads (issue 27, step 9), rblk.multipath=Y, two
# controllers to one subsystem over two nvmet ports, next to nvme-rdma's
# native multipath connected the same way:
#  - without multipath there is no iopolicy, and nvmecfg set-iopolicy is
#    refused (exit 1, "multipath is off");
#  - the subsystem's iopolicy is numa by default (the module parameter
#    iopolicy sets new subsystems'), as nvme's; a bad name is refused and
#    changes nothing; nvmecfg set-iopolicy sets it, show, list and
#    list-subsys (nvme-cli's iopolicy=/IOPolicy) print it;
#  - numa (one node here): all I/O over one path;
#  - round-robin: synchronous reads alternate between the paths, and a
#    verifying writer uses both; with one path non-optimized, only the
#    optimized one is used; numa after round-robin takes its own choice,
#    not round-robin's last path;
#  - nvmecfg stats of the head adds its paths up (JSON "paths", no
#    controller); --reset zeroes every path's counters;
#  - queue-depth: synchronous reads (never two in flight) all take the
#    first path; 32 in flight use both;
#  - nvme-rdma's round-robin uses both of its paths too;
#  - no I/O error; what was written is on the target.
# rblk-timeout: 400
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

P2=$NVMET_PORT2
PARAM=/sys/module/rblk/parameters/iopolicy

cleanup() {
	echo optimized > "$P2/ana_groups/1/ana_state" 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mi.fio /tmp/mi.pat /tmp/mi.got
}
trap cleanup EXIT

nvmet_port2_add

# subsys_of CTRL: the rblk-subsysK directory CTRL is a path of.
subsys_of() {
	for _s in /sys/class/rblk-subsystem/*; do
		[ -e "$_s/$1" ] && { echo "$_s"; return 0; }
	done
	return 1
}
io() { rblk_path_ios "$1"; }

# connect_both: controllers A and B, head h with paths pa and pb, the
# subsystem's directory S.
connect_both() {
	rblk_two_paths
	S=$(subsys_of "$A") || fail "$A has no subsystem"
	[ "$(subsys_of "$B")" = "$S" ] || fail "$A and $B are not paths of one subsystem"
}

# sync_reads N: N synchronous 4 KiB direct reads of the head, one at a time
# (dd's reads of one block device are never in flight together); sets
# da/db to the requests each path served meanwhile.
sync_reads() {
	_a=$(io "$pa"); _b=$(io "$pb")
	dd if="$dev" of=/dev/null bs=4k count="$1" iflag=direct 2>/dev/null ||
		fail "$1 reads of $dev failed"
	da=$(($(io "$pa") - _a)); db=$(($(io "$pb") - _b))
}

# load SEC JOBS DEPTH: fio randread over the head; sets da/db likewise.
load() {
	_a=$(io "$pa"); _b=$(io "$pb")
	fio --name=mi --filename="$dev" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth="$3" --numjobs="$2" --size=16M --time_based \
		--runtime="$1" --group_reporting > /tmp/mi.fio 2>&1 ||
		fail "fio failed: $(grep -E 'err=|error' /tmp/mi.fio | head -3)"
	da=$(($(io "$pa") - _a)); db=$(($(io "$pb") - _b))
}

# Without multipath: no policy to set or show.
rblk_load multipath=N
A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
S=$(subsys_of "$A") || fail "$A has no subsystem"
[ ! -e "$S/iopolicy" ] || fail "$S/iopolicy exists without multipath"
out=$(nvmecfg set-iopolicy "$A" --iopolicy round-robin 2>&1) &&
	fail "set-iopolicy without multipath succeeded: $out"
rc=$?
[ "$rc" -eq 1 ] && echo "$out" | grep -q "multipath is off" ||
	fail "set-iopolicy without multipath: exit $rc, $out"
nvmecfg show "$A" -o json | jq -e 'has("iopolicy") | not' > /dev/null ||
	fail "show has an iopolicy without multipath: $(nvmecfg show "$A" -o json)"
must nvmecfg disconnect "$A"
log "without multipath: no iopolicy file, set-iopolicy refused ($out)"

rblk_load multipath=1
[ "$(cat "$PARAM")" = numa ] || fail "module parameter iopolicy is $(cat "$PARAM"), expected numa"
connect_both
pol() { cat "$S/iopolicy"; }
[ "$(pol)" = numa ] || fail "$S/iopolicy is $(pol), expected numa"
if echo bogus > "$S/iopolicy" 2>/dev/null; then
	fail "$S/iopolicy took 'bogus'"
fi
[ "$(pol)" = numa ] || fail "a refused write changed iopolicy to $(pol)"
[ "$(stat -c %a "$S/iopolicy")" = 644 ] || fail "$S/iopolicy mode $(stat -c %a "$S/iopolicy"), expected 644"
doc=/usr/share/doc/rblk/sysfs-class-rblk-subsystem
grep -q "^What:.*/rblk-subsys<K>/iopolicy$" "$doc" ||
	fail "iopolicy is not in $doc"
log "$S: iopolicy numa by default; 'bogus' refused"

# numa: one node, so one path (the first of equals).
load 3 2 16
[ "$da" -gt 0 ] && [ "$db" -eq 0 ] || fail "numa: $pa served $da, $pb $db; expected all over $pa"
log "numa: all $da requests over $pa"

# round-robin: alternate.
echo round-robin > "$S/iopolicy" || fail "cannot set round-robin"
[ "$(pol)" = round-robin ] || fail "iopolicy reads $(pol) after round-robin was set"
sync_reads 200
[ $((da + db)) -eq 200 ] || fail "round-robin: $pa $da + $pb $db requests for 200 reads"
[ "$da" -ge 90 ] && [ "$db" -ge 90 ] || fail "round-robin: $pa served $da, $pb $db of 200 reads"
rr="$da + $db"
pattern_file /tmp/mi.pat 4194304
_a=$(io "$pa"); _b=$(io "$pb")
fio --name=rr --filename="$dev" --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=16 --size=16M --offset=8M --time_based --runtime=4 \
	--verify=crc32c --verify_fatal=1 --verify_backlog=256 > /tmp/mi.fio 2>&1 ||
	fail "round-robin: fio verify failed: $(grep -E 'err=|verify|error' /tmp/mi.fio | head -5)"
da=$(($(io "$pa") - _a)); db=$(($(io "$pb") - _b))
[ "$da" -gt $(((da + db) / 4)) ] && [ "$db" -gt $(((da + db) / 4)) ] ||
	fail "round-robin writer: $pa served $da, $pb $db"
log "round-robin: 200 reads as $rr; verifying writer $da + $db, no error"

# The head's statistics add its paths up; --reset zeroes every path's.
n=$(($(io "$pa") + $(io "$pb")))
hs=$(nvmecfg stats "$h" -o json) || fail "nvmecfg stats $h: $hs"
jq_true "stats of the head $h" "$hs" \
	'.nr_paths == 2 and (has("controller") | not) and .name == $h and .reads + .writes == $n' \
	--arg h "$h" --argjson n "$n"
out=$(nvmecfg stats "$h") || fail "nvmecfg stats $h: $out"
echo "$out" | grep -qx "  paths  *2" || fail "stats of $h: no paths line: $out"
# Its controllers' counters too (idle now: only I/O queues count).
sa=$(nvmecfg stats "$A" -o json) && sb=$(nvmecfg stats "$B" -o json) ||
	fail "nvmecfg stats of $A, $B"
for k in doorbells commands_posted; do
	jq_true "$k of $h" "$hs" ".$k == (\$a.$k + \$b.$k) and .$k > 0" \
		--argjson a "$sa" --argjson b "$sb"
done
must nvmecfg stats "$h" --reset
[ "$(io "$pa") $(io "$pb")" = "0 0" ] || fail "stats --reset of $h left $pa $(io "$pa"), $pb $(io "$pb")"
hs=$(nvmecfg stats "$h" -o json) || fail "nvmecfg stats $h: $hs"
jq_true "stats of $h after --reset" "$hs" '.reads + .writes + .read_bytes + .write_bytes == 0'
log "stats of $h: the sum of its 2 paths ($n I/Os); --reset zeroed both"

# round-robin keeps to the optimized paths.
nvmet_ana_set "$P2" non-optimized
wait_until 10 sh -c "[ \"\$(cat /sys/block/$pb/ana_state)\" = non-optimized ]" ||
	fail "$pb did not turn non-optimized"
sync_reads 100
[ "$da" -eq 100 ] && [ "$db" -eq 0 ] || fail "round-robin, $pb non-optimized: $pa served $da, $pb $db"
nvmet_ana_set "$P2" optimized
wait_until 10 sh -c "[ \"\$(cat /sys/block/$pb/ana_state)\" = optimized ]" ||
	fail "$pb did not turn optimized again"
log "round-robin with $pb non-optimized: all 100 reads over $pa"

# Back to numa: round-robin's last path is no numa choice.  Leave
# round-robin on $pb, then numa must take the first of equals again.
for _ in 1 2 3 4; do
	sync_reads 1
	[ "$db" -eq 1 ] && break
done
[ "$db" -eq 1 ] || fail "round-robin: four single reads, none over $pb"
echo numa > "$S/iopolicy" || fail "cannot set numa"
sync_reads 50
[ "$da" -eq 50 ] && [ "$db" -eq 0 ] ||
	fail "numa after round-robin (last over $pb): $pa served $da, $pb $db of 50"
echo round-robin > "$S/iopolicy" || fail "cannot set round-robin again"
log "numa after round-robin: all 50 reads over $pa again"

# queue-depth: the least busy path; idle ones tie, the first wins.  Set
# through netlink, naming the head; shown by show, list and list-subsys.
must nvmecfg set-iopolicy "$h" --iopolicy queue-depth
[ "$(pol)" = queue-depth ] || fail "set-iopolicy queue-depth: iopolicy reads $(pol)"
for c in "$A" "$B"; do
	[ "$(nvmecfg show "$c" -o json | jq -r .iopolicy)" = queue-depth ] ||
		fail "show $c: iopolicy $(nvmecfg show "$c" -o json | jq -r .iopolicy)"
done
[ "$(nvmecfg list -o json | jq -r '[.. | .iopolicy? // empty] | unique | join(",")')" = queue-depth ] ||
	fail "list -o json iopolicy: $(nvmecfg list -o json)"
# nvme-cli's shapes: a head is one device, however many paths; list -v
# has the heads in their subsystem's Namespaces, the policy beside.
json=$(nvmecfg list -o json)
# shellcheck disable=SC2016 # $names in single quotes are jq variables
jq_true "list -o json Devices" "$json" '(.Devices | map(.DevicePath)) ==
	([.controllers[].namespaces[].name] | unique | map("/dev/" + .)) and
	any(.Devices[]; .DevicePath == "/dev/" + $h)' --arg h "$h"
json=$(nvmecfg list -v -o json)
# shellcheck disable=SC2016 # likewise
jq_true "list -v -o json" "$json" '[.Devices[].Subsystems[] |
	select(.Subsystem == $s)] as $m | ($m | length) == 1 and
	$m[0].IOPolicy == "queue-depth" and
	($m[0].Controllers | map(.Controller) | sort) == ([$a, $b] | sort) and
	([$m[0].Controllers[].Namespaces[]] | length) == 0 and
	any($m[0].Namespaces[]; .NameSpace == $h)' \
	--arg s "${S##*/}" --arg a "$A" --arg b "$B" --arg h "$h"
nvmecfg list-subsys | grep -q "iopolicy=queue-depth" ||
	fail "list-subsys: $(nvmecfg list-subsys)"
# (IOPolicy in JSON with -v only, as nvme-cli's.)
[ "$(nvmecfg list-subsys -v -o json | jq -r '[.. | .IOPolicy? // empty] | join(",")')" = queue-depth ] ||
	fail "list-subsys -v -o json: $(nvmecfg list-subsys -v -o json)"
out=$(nvmecfg set-iopolicy "$h" --iopolicy fastest 2>&1) && fail "set-iopolicy took 'fastest'"
[ "$(pol)" = queue-depth ] || fail "a refused set-iopolicy changed it to $(pol)"
log "nvmecfg set-iopolicy: queue-depth; show, list, list-subsys print it; 'fastest' refused"
sync_reads 100
[ "$da" -eq 100 ] && [ "$db" -eq 0 ] || fail "queue-depth, one at a time: $pa served $da, $pb $db"
load 3 2 16
[ "$da" -gt 0 ] && [ "$db" -gt 0 ] || fail "queue-depth, 32 in flight: $pa served $da, $pb $db"
log "queue-depth: one at a time all over $pa; 32 in flight as $da + $db"

# Data written under the policies, on the target.
dd if=/tmp/mi.pat of="$dev" bs=64k seek=512 oflag=direct conv=notrunc 2>/dev/null ||
	fail "write of the pattern under queue-depth failed"
echo round-robin > "$S/iopolicy"
dd if="$dev" of=/tmp/mi.got bs=64k skip=512 count=64 iflag=direct 2>/dev/null ||
	fail "read-back under round-robin failed"
assert_same /tmp/mi.pat /tmp/mi.got "written under queue-depth, read under round-robin"
read_region "$RBLK_BACKING" 33554432 4194304 /tmp/mi.got
assert_same /tmp/mi.pat /tmp/mi.got "the pattern on the target"

# The module parameter: new subsystems' policy.
must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"
wait_until 20 sh -c "! ls -d /sys/class/rblk-subsystem/rblk-subsys* >/dev/null 2>&1" ||
	fail "the subsystem stayed after both paths left"
if echo bogus > "$PARAM" 2>/dev/null; then
	fail "module parameter iopolicy took 'bogus'"
fi
echo round-robin > "$PARAM" || fail "cannot set the module parameter"
connect_both
[ "$(pol)" = round-robin ] || fail "new subsystem's iopolicy $(pol), the parameter round-robin"
log "module parameter round-robin: the new subsystem has it"
echo numa > "$PARAM"

# nvme-rdma's native multipath, round-robin: both paths serve too.
if nvme_two_paths; then
	ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "nvme-rdma's namespace is gone"
	nsub=$(readlink -f "/sys/block/${ndev##*/}/device")
	[ "$(cat "$nsub/iopolicy")" = numa ] || fail "nvme's default iopolicy $(cat "$nsub/iopolicy")"
	echo round-robin > "$nsub/iopolicy" || fail "nvme refused round-robin"
	# The head nvmeXnY's paths are nvmeXcZnY.
	nh=${ndev##*/}
	npaths="/sys/block/${nh%n*}c*n${nh##*n}"
	# shellcheck disable=SC2086
	wait_until 10 sh -c "[ \$(ls -d $npaths | wc -l) -eq 2 ]" ||
		fail "nvme-rdma's $nh has not two paths: $(ls -d $npaths)"
	# npath_ios: reads + writes of each path, in order.
	npath_ios() {
		for _p in $npaths; do
			# shellcheck disable=SC2046
			set -- $(cat "$_p/stat")
			printf '%s ' "$(($1 + $5))"
		done
	}
	# shellcheck disable=SC2046
	set -- $(npath_ios)
	dd if="$ndev" of=/dev/null bs=4k count=200 iflag=direct 2>/dev/null || fail "nvme-rdma reads failed"
	# shellcheck disable=SC2046
	set -- $(($(npath_ios | cut -d' ' -f1) - $1)) $(($(npath_ios | cut -d' ' -f2) - $2))
	[ "$1" -ge 90 ] && [ "$2" -ge 90 ] || fail "nvme-rdma round-robin: its paths served $1 and $2 of 200 reads"
	log "nvme-rdma round-robin: 200 reads as $1 + $2, as rblk's"
	nvme disconnect -n "$RBLK_NQN" > /dev/null
	modprobe -r nvme-rdma
else
	log "nvme_core without native multipath: no reference"
fi

must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"
exit 0

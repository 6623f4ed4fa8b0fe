#!/bin/sh
# A second path whose namespace reports other identifiers than its head
# (issue 27), injected with rblk's flip_ns_ids fault (debugfs; the debug
# kernel), rblk.multipath=Y, two controllers over two nvmet ports:
#  - the namespace is refused on the second controller with nvme-core's
#    message ("IDs don't match for shared namespace N"); its head keeps
#    the first path alone, no second head appears for the NSID, and the
#    other namespaces join as usual;
#  - the head still serves (data written through it is on the target);
#  - once the identifiers match again, a rescan of the second controller
#    adds the path.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

SVC2=$NVMET_SVC2

rblk_fault_test flip_ns_ids multipath=1
cleanup() {
	rblk_fault_cleanup
	nvmet_port2_del
	rm -f /tmp/mm.pat /tmp/mm.got
}
trap cleanup EXIT
nvmet_port2_add

heads() { for _d in /sys/block/rblk*; do case ${_d##*/} in *c*) ;; *) echo "${_d##*/}" ;; esac; done; }
npaths() { set -- "/sys/block/$1/multipath"/*; [ -e "$1" ] && echo $# || echo 0; }

A=$(rblk_connect_port_ctrl "$RBLK_TRSVCID") || exit "$KSFT_FAIL"
before=$(heads | tr '\n' ' ')
[ -n "$before" ] || fail "no heads after connecting $A"

lines=$(dmesg | wc -l)
rblk_fault_arm 1
B=$(rblk_connect_port_ctrl "$SVC2") || exit "$KSFT_FAIL"
[ "$(cat "$F/times")" -eq 0 ] || fail "the fault never fired"
# The scan of B is over once connect returned (rblk_connect_port waits).
msg=$(dmesg | tail -n +$((lines + 1)) | grep "IDs don't match for shared namespace") ||
	fail "no refusal in the kernel log: $(dmesg | grep rblk | tail -5)"
nsid=${msg##* }
log "$B: $msg"

[ "$(heads | tr '\n' ' ')" = "$before" ] || fail "heads were $before, now $(heads | tr '\n' ' ')"
for h in $before; do
	n=$(npaths "$h")
	if [ "$(cat "/sys/block/$h/nsid")" = "$nsid" ]; then
		[ "$n" -eq 1 ] || fail "$h (nsid $nsid, refused on $B) has $n paths"
		rblk_path_of "$h" "$A" > /dev/null || fail "$h lost its path on $A"
		refused=$h
	else
		[ "$n" -eq 2 ] || fail "$h has $n paths, expected 2"
	fi
done
[ -n "${refused:-}" ] || fail "no head has nsid $nsid"
log "$refused (nsid $nsid) kept its one path on $A; the other heads have two"

# The heads serve; what is written through the test namespace's head is on
# the target whichever paths it has.
dev=$(rblk_ns_dev "$A" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $A"
pattern_file /tmp/mm.pat 1048576
dd if=/tmp/mm.pat of="$dev" bs=64k seek=96 oflag=direct conv=notrunc 2>/dev/null ||
	fail "write through $dev failed"
read_region "$RBLK_BACKING" 6291456 1048576 /tmp/mm.got
assert_same /tmp/mm.pat /tmp/mm.got "written through $dev, on the target"
dd if="/dev/$refused" of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null ||
	fail "read through $refused failed"

# The fault spent: a rescan of B finds the same identifiers and adds the path.
must nvmecfg ns-rescan "$B"
wait_until 20 sh -c "set -- /sys/block/$refused/multipath/*; [ \$# -eq 2 ]" ||
	fail "$refused has $(npaths "$refused") paths after a rescan of $B"
[ "$(heads | tr '\n' ' ')" = "$before" ] || fail "heads after the rescan: $(heads | tr '\n' ' ')"
log "rescan of $B: $refused has two paths"

must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"
exit 0

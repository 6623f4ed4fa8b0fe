#!/bin/sh
# The ANA transition time (issue 27, step 8), rblk.multipath=Y, two
# controllers over two nvmet ports, next to nvme-rdma's native multipath:
#  - port 1's group in ANA change state past twice ANATT (nvmet: 10 s):
#    rblk resets controller 1 ("ANATT timeout, resetting controller."),
#    as nvme-rdma resets its controller through that port; meanwhile a
#    verifying writer carries on over port 2 without an error, and no I/O
#    goes over the changing path;
#  - a change that ends within ANATT: no reset.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

P1=$RBLK_NVMET_PORT
P2=$NVMET_PORT2
MSG="ANATT timeout, resetting controller"
pid=

cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	nvmet_ana_set "$P1" optimized 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	nvmet_port2_del
	rm -f /tmp/mt.fio
}
trap cleanup EXIT

nvmet_port2_add
[ -f "$P2/ana_groups/1/ana_state" ] || skip "nvmet without ANA groups"

rblk_load multipath=1
rblk_two_paths
reconnects() { cat "/sys/class/rblk/$1/reconnects"; }
st() { cat "/sys/block/$1/ana_state"; }
nvme_ref=
nvme_two_paths && nvme_ref=1

# A change that ends within ANATT: no reset.
r0=$(reconnects "$A")
lines=$(dmesg | wc -l)
nvmet_ana_set "$P1" change
wait_until 10 sh -c "[ \"\$(cat /sys/block/$pa/ana_state)\" = change ]" ||
	fail "$pa is $(st "$pa"), expected change"
sleep 5
nvmet_ana_set "$P1" optimized
wait_until 10 sh -c "[ \"\$(cat /sys/block/$pa/ana_state)\" = optimized ]" ||
	fail "$pa is $(st "$pa"), expected optimized"
sleep 20
[ "$(reconnects "$A")" = "$r0" ] || fail "$A reconnected after a change of 5 s"
dmesg | tail -n +$((lines + 1)) | grep -q "rblk.*$MSG" && fail "rblk reset $A after a change of 5 s"
log "change for 5 s (< ANATT): no reset"

# A change that lasts: reset after twice ANATT, I/O on port 2 meanwhile.
fio --name=anatt --filename="$dev" --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=8 --size=16M --time_based --runtime=40 \
	--verify=crc32c --verify_fatal=1 --verify_backlog=256 > /tmp/mt.fio 2>&1 &
pid=$!
lines=$(dmesg | wc -l)
t0=$(uptime_ms)
nvmet_ana_set "$P1" change
wait_until 10 sh -c "[ \"\$(cat /sys/block/$pa/ana_state)\" = change ]" ||
	fail "$pa is $(st "$pa"), expected change"
# What the path took before the change may still complete: counted once
# none is in flight.
wait_until 5 sh -c "[ \$(awk '{ print \$1 + \$2 }' /sys/block/$pa/inflight) -eq 0 ]" ||
	fail "$pa keeps requests in flight in change state: $(cat "/sys/block/$pa/inflight")"
io_a=$(rblk_path_ios "$pa")
wait_until 40 sh -c "[ \$(cat /sys/class/rblk/$A/reconnects) -gt $r0 ]" ||
	fail "$A did not reset within 40 s of ANA change ($(dmesg | tail -n +$((lines + 1)) | grep rblk | tail -3))"
ms=$(($(uptime_ms) - t0))
[ "$ms" -ge 19000 ] || fail "$A reset after ${ms} ms, before twice ANATT (20 s)"
[ "$(rblk_path_ios "$pa")" -eq "$io_a" ] ||
	fail "$pa in change state served $(($(rblk_path_ios "$pa") - io_a)) requests"
dmesg | tail -n +$((lines + 1)) | grep -q "rblk.*$A.*$MSG" ||
	fail "no '$MSG' for $A: $(dmesg | tail -n +$((lines + 1)) | grep rblk | tail -5)"
log "$A: ANA change for ${ms} ms: '$MSG', reconnected"
if [ -n "$nvme_ref" ]; then
	wait_until 20 sh -c "dmesg | tail -n +$((lines + 1)) | grep -q 'nvme.*$MSG'" ||
		fail "nvme-rdma did not reset on ANATT: $(dmesg | tail -n +$((lines + 1)) | grep nvme | tail -5)"
	log "nvme-rdma: '$(dmesg | tail -n +$((lines + 1)) | grep "nvme.*$MSG" | head -1)'"
fi
nvmet_ana_set "$P1" optimized
wait_until 20 sh -c "[ \"\$(cat /sys/block/$pa/ana_state)\" = optimized ]" ||
	fail "$pa is $(st "$pa") after the group turned optimized"
wait "$pid"; rc=$?; pid=
[ "$rc" -eq 0 ] && grep -q 'err= 0' /tmp/mt.fio ||
	fail "fio failed ($rc): $(grep -E 'err=|verify|error' /tmp/mt.fio | head -5)"
log "the verifying writer carried on over $pb: no error"

assert_on_target "$dev" "$RBLK_BACKING" 16 "what was written through $dev"
nvme disconnect -n "$RBLK_NQN" > /dev/null 2>&1
must nvmecfg disconnect "$A"
must nvmecfg disconnect "$B"
exit 0

#!/bin/sh
# The reference for persistent_discovery: what nvme-rdma and nvme-cli do
# with "nvme connect-all --persistent" and a subsystem the target adds.
# Logged, not judged, but for the basics: the discovery controller stays
# (nvme-core keeps it), the target's change is a uevent with NVME_AEN on
# it, and disconnect works.  Whether the new subsystem gets connected is
# up to nvme-cli's udev rule (70-nvmf-autoconnect.rules), which needs
# udevd: the log says whether it did here.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NEW=rblk-pdisc-ref
IMG=/tmp/pdisc-ref.img
DISC_NQN=nqn.2014-08.org.nvmexpress.discovery
UEV=

cleanup() {
	[ -n "$UEV" ] && kill "$UEV" 2>/dev/null
	nvme disconnect -n "$NEW" >/dev/null 2>&1
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	nvme disconnect -n "$DISC_NQN" >/dev/null 2>&1
	nvmet_subsys_del "$NEW"
	modprobe -r nvme-rdma 2>/dev/null
	rm -f "$IMG" /tmp/pdisc-ref.uev
}
trap cleanup EXIT

# nvme_ctrls NQN: nvme-core's controllers of subsystem NQN.
nvme_ctrls() {
	for _f in /sys/class/nvme/nvme*/subsysnqn; do
		[ -f "$_f" ] && [ "$(cat "$_f")" = "$1" ] &&
			{ _d=${_f%/subsysnqn}; echo "${_d##*/}"; }
	done
}

must modprobe nvme-rdma
must nvme connect-all -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" --persistent
D=$(nvme_ctrls "$DISC_NQN")
[ -n "$D" ] || fail "nvme connect-all --persistent left no discovery controller"
log "nvme connect-all --persistent: discovery controller $D ($(cat "/sys/class/nvme/$D/state")), kato $(cat "/sys/class/nvme/$D/kato" 2>/dev/null || echo ?)"

udevadm monitor --kernel --property --subsystem-match=nvme > /tmp/pdisc-ref.uev 2>&1 &
UEV=$!
sleep 2
nvmet_subsys_add "$NEW" "$IMG" 16
wait_until 10 grep -q "^NVME_AEN=" /tmp/pdisc-ref.uev ||
	fail "no NVME_AEN uevent on $D: $(cat /tmp/pdisc-ref.uev)"
log "uevent: $(grep "^NVME_AEN=" /tmp/pdisc-ref.uev | head -n 1) on $D"
sleep 5
if [ -n "$(nvme_ctrls "$NEW")" ]; then
	log "$NEW was connected by nvme-cli's side"
else
	log "$NEW not connected: nothing reacts to the uevent without udevd and nvme-cli's rule"
fi
[ "$(cat "/sys/class/nvme/$D/state")" = live ] || fail "$D not live after the change"
must nvme disconnect -n "$DISC_NQN"
[ -z "$(nvme_ctrls "$DISC_NQN")" ] || fail "discovery controller still there after disconnect"
exit 0

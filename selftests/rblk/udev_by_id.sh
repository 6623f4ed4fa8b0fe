#!/bin/sh
# udev names rblk namespaces persistently (udev/60-rblk.rules, with Debian's
# udevd): each /dev/rblkN gets /dev/disk/by-id/rblk-<wwid>,
# rblk-<model>_<serial>_<nsid> and rblk-<subsysnqn>-ns<nsid>, pointing at
# the right device; the wwid is the one nvme-rdma reports for the same
# namespace in the same boot (its by-id/nvme-<wwid> link, from Debian's
# rules), and so is the model_serial_nsid name (its
# by-id/nvme-<model>_<serial>_<nsid>); data written through the
# by-id link reads back through /dev/rblkN and is in the backing file; the
# rules set the scheduler to none (blk-mq alone picks mq-deadline for one
# hardware queue, hence -i 1); a filesystem made on one gets by-uuid and
# by-label links; disconnect removes the links.
# With two paths (multipath, the default; issue 44): a second controller
# through another nvmet port adds no link, every rblk link still points at
# a head /dev/rblkN, none at a hidden path disk rblkNcM (which has no
# node), and the links stay when that path leaves.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

UDEVD=/usr/lib/systemd/systemd-udevd
BYID=/dev/disk/by-id
OFFSET=$((3 * 1024 * 1024))
BYTES=$((1024 * 1024))
PAT=/tmp/udev.pat
GOT=/tmp/udev.got
BAK=/tmp/udev.bak
udevd_pid=
ctrl2=

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	[ -n "$ctrl2" ] && nvmecfg disconnect "$ctrl2" >/dev/null 2>&1
	nvmet_port2_del
	[ -n "$udevd_pid" ] && kill "$udevd_pid" 2>/dev/null && wait "$udevd_pid"
	# The guest has no udev otherwise: leave no links or database behind.
	rm -rf /dev/disk /run/udev
	rm -f "$PAT" "$GOT" "$BAK"
}
trap cleanup EXIT

[ -x "$UDEVD" ] || fail "no $UDEVD in the guest (scripts/mkinitramfs.sh)"
[ -f /usr/lib/udev/rules.d/60-rblk.rules ] || fail "60-rblk.rules not in the guest"

# In the foreground of our own process group: the runner's kill takes it
# along even if the trap does not run.
"$UDEVD" --resolve-names=never > /tmp/udevd.log 2>&1 &
udevd_pid=$!
wait_until 10 udevadm control --ping 2>/dev/null || fail "udevd did not start: $(cat /tmp/udevd.log)"

settle() {
	udevadm settle --timeout=30 || fail "udevadm settle timed out"
}

# udev_name STRING: STRING as a link name of udev's string_escape=replace
# in an ENV{} assignment (blanks, "/" and what else it does not keep as
# "_"), for ASCII.
udev_name() {
	printf '%s\n' "$1" | sed 's|[^0-9A-Za-z#+.:=@_-]|_|g'
}

# link_to LINK DEV: LINK exists and resolves to DEV.
link_to() {
	wait_for_path "$1" 10 || fail "no link $1 (links: $(ls "$BYID" 2>/dev/null | tr '\n' ' '))"
	_t=$(readlink -f "$1")
	[ "$_t" = "$2" ] || fail "$1 points at $_t, not $2"
}

rblk_load
all=$(rblk_connect_all -i 1) || exit 1
ctrl=$(echo "$all" | head -n 1)
devs=$(echo "$all" | tail -n +2)
settle

links=
for dev in $devs; do
	n=${dev#/dev/}
	wwid=$(cat "/sys/block/$n/wwid") || fail "no wwid for $n"
	nsid=$(cat "/sys/block/$n/nsid") || fail "no nsid for $n"
	[ -n "$wwid" ] || fail "$n has an empty wwid"
	model=$(cat "/sys/block/$n/device/model") || fail "no model for $n"
	serial=$(cat "/sys/block/$n/device/serial") || fail "no serial for $n"
	sid=$(udev_name "${model}_${serial}_$nsid")
	link_to "$BYID/rblk-$wwid" "$dev"
	link_to "$BYID/rblk-$sid" "$dev"
	link_to "$BYID/rblk-$RBLK_NQN-ns$nsid" "$dev"
	links="$links $BYID/rblk-$wwid $BYID/rblk-$sid $BYID/rblk-$RBLK_NQN-ns$nsid"
	# (A multipath head is bio-based: "none" on 6.1, no file on 6.12;
	# the rules set its path's.)
	sched=$(cat "/sys/block/$(rblk_first_path "$n")/queue/scheduler")
	case $sched in *"[none]"*) ;; *) fail "$n: scheduler is '$sched', the rules set none" ;; esac
	log "$n (nsid $nsid): by-id/rblk-$wwid, by-id/rblk-$sid, by-id/rblk-$RBLK_NQN-ns$nsid, scheduler none"
done
[ "$(echo "$devs" | wc -w)" -ge 3 ] || fail "expected 3 namespaces on $ctrl, got: $devs"

# rblk_links: the rblk links of by-id, "name -> target" sorted.
rblk_links() {
	for _l in "$BYID"/rblk-*; do
		[ -L "$_l" ] && echo "${_l##*/} -> $(readlink -f "$_l")"
	done | sort
}
# Heads only: a second path to each namespace adds no link; none points
# at a hidden path disk, each at a block device node.
one=$(rblk_links)
nvmet_port2_add
ctrl2=$(rblk_connect_port_ctrl "$NVMET_SVC2") || exit 1
for dev in $devs; do
	wait_until 10 rblk_path_of "${dev#/dev/}" "$ctrl2" > /dev/null ||
		fail "${dev#/dev/} has no path on $ctrl2"
done
settle
two=$(rblk_links)
log "two paths, by-id: $(ls "$BYID" | tr '\n' ' ')"
[ "$two" = "$one" ] || fail "a second path changed the rblk links: $(echo "$two" | tr '\n' ' '), one path: $(echo "$one" | tr '\n' ' ')"
for l in "$BYID"/*; do
	t=$(readlink -f "$l")
	case ${t##*/} in rblk*c*) fail "$l points at the hidden path ${t##*/}" ;; esac
	[ -b "$t" ] || fail "$l points at $t, no block device"
done
for n in /dev/rblk[0-9]*c[0-9]*; do
	[ -e "$n" ] && fail "a hidden path disk has a node: $n"
done
must nvmecfg disconnect "$ctrl2"
ctrl2=
settle
[ "$(rblk_links)" = "$one" ] || fail "the second path's removal changed the rblk links: $(rblk_links | tr '\n' ' ')"
nvmet_port2_del
log "two paths: the same $(echo "$one" | wc -l) rblk links, all to heads; kept when the path left"

# The same namespace through nvme-rdma: same wwid and model_serial_nsid,
# its own links.
rdev=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_FILE") || fail "no rblk device for nsid $RBLK_NSID_FILE"
rwwid=$(cat "/sys/block/${rdev#/dev/}/wwid")
rsid=$(udev_name "$(cat "/sys/block/${rdev#/dev/}/device/model")_$(cat "/sys/block/${rdev#/dev/}/device/serial")_$RBLK_NSID_FILE")
must modprobe nvme-rdma
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") ||
	fail "nvme-rdma shows no device for nsid $RBLK_NSID_FILE"
settle
nwwid=$(cat "/sys/block/${ndev#/dev/}/wwid")
[ "$nwwid" = "$rwwid" ] || fail "wwid of nsid $RBLK_NSID_FILE: rblk '$rwwid', nvme-rdma '$nwwid'"
link_to "$BYID/nvme-$nwwid" "$ndev"
# nvme's rules name it <model>_<serial>_<nsid> as ours do.
link_to "$BYID/nvme-$rsid" "$ndev"
link_to "$BYID/rblk-$rsid" "$rdev"
log "nsid $RBLK_NSID_FILE: wwid $rwwid and by-id nvme-/rblk-$rsid on both $rdev and $ndev"

# Data through the by-id link, back through /dev/rblkN, nvme-rdma and the
# backing file.
pattern_file "$PAT" "$BYTES"
write_direct "$PAT" "$BYID/rblk-$rwwid" "$OFFSET"
read_direct "$rdev" "$OFFSET" "$BYTES" "$GOT"
assert_same "$PAT" "$GOT" "written via by-id/rblk-$rwwid, read via $rdev"
read_direct "$ndev" "$OFFSET" "$BYTES" "$GOT"
assert_same "$PAT" "$GOT" "written via by-id/rblk-$rwwid, read via nvme-rdma $ndev"
read_region "$RBLK_BACKING" "$OFFSET" "$BYTES" "$BAK"
assert_same "$PAT" "$BAK" "backing file region"
log "1 MiB written via by-id/rblk-$rwwid: $rdev, $ndev and the backing file agree"

must nvme disconnect -n "$RBLK_NQN"

# A filesystem gets its by-uuid and by-label names (the rules probe rblk
# devices with blkid, which 60-persistent-storage.rules does not), after
# the write that made it (the rules watch the device).
fdev=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_512") || fail "no rblk device for nsid $RBLK_NSID_512"
fsuuid=$(cat /proc/sys/kernel/random/uuid)
must mkfs.ext4 -q -F -U "$fsuuid" -L rblk-udev "$fdev"
wait_until 10 test -L "/dev/disk/by-uuid/$fsuuid" ||
	fail "no /dev/disk/by-uuid/$fsuuid after mkfs on $fdev"
link_to "/dev/disk/by-uuid/$fsuuid" "$fdev"
link_to /dev/disk/by-label/rblk-udev "$fdev"
links="$links /dev/disk/by-uuid/$fsuuid /dev/disk/by-label/rblk-udev"
log "ext4 on $fdev: by-uuid/$fsuuid, by-label/rblk-udev"

must nvmecfg disconnect "$ctrl"
for dev in $devs; do
	wait_for_path "/sys/block/${dev#/dev/}" 10 ! || fail "$dev still there after disconnect"
done
settle
for l in $links "$BYID/nvme-$nwwid" "$BYID/nvme-$rsid"; do
	[ -e "$l" ] || [ -L "$l" ] && fail "$l still there after disconnect"
done
log "disconnect removed every link"
rblk_unload
exit 0

#!/bin/sh
# Namespaces that change on the target while the controller is connected,
# announced by Asynchronous Events, checked against the kernel's nvme-rdma
# host connected to the same subsystem in the same boot:
#  - a namespace added on the target appears as a new device within 10 s,
#    holding what the target's file holds;
#  - one grown on the target (truncate + revalidate_size) changes size
#    within 10 s, as nvme-rdma's device does;
#  - one removed disappears within 10 s; I/O running on it fails with EIO,
#    the other namespaces keep their data and keep working;
#  - nvmecfg monitor reports ns-added, ns-resized and ns-removed.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NEW_NSID=7
IMG=/tmp/ns_live.img
EVENTS=/tmp/ns_live.events
NS_DIR=$RBLK_NVMET_SUBSYS/namespaces/$NEW_NSID
mon=

cleanup() {
	[ -n "$mon" ] && kill "$mon" 2>/dev/null
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	if [ -d "$NS_DIR" ]; then
		echo 0 > "$NS_DIR/enable"
		rmdir "$NS_DIR"
	fi
	rm -f "$IMG" "$EVENTS" /tmp/ns_live.pat /tmp/ns_live.got /tmp/ns_live.dd
}
trap cleanup EXIT

bytes_of() { echo $(( $(cat "/sys/block/${1##*/}/size" 2>/dev/null || echo 0) * 512 )); }
size_is() { [ "$(bytes_of "$1")" -eq "$2" ]; }
gone() { [ ! -e "/sys/block/${1##*/}" ]; }
has_rblk_ns() { rblk_ns_dev "$ctrl" "$NEW_NSID" >/dev/null; }
has_nvme_ns() { nvme_ns_dev "$RBLK_NQN" "$NEW_NSID" >/dev/null; }
no_nvme_ns() { ! has_nvme_ns; }

rblk_load
must modprobe nvme-rdma
nvmecfg monitor -o json --timeout 250 > "$EVENTS" &
mon=$!
sleep 1
all=$(rblk_connect_all) || { echo "$all"; exit "$KSFT_FAIL"; }
ctrl=$(echo "$all" | head -n 1)
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE" >/dev/null ||
	fail "nvme-rdma did not connect"
d2=$(rblk_ns_dev "$ctrl" "$RBLK_NSID_FILE") || fail "no device for nsid $RBLK_NSID_FILE"

# --- add ---
pattern_file "$IMG" $((16 * 1024 * 1024))
mkdir "$NS_DIR" || fail "cannot create nvmet namespace $NEW_NSID"
echo "$IMG" > "$NS_DIR/device_path" && echo 1 > "$NS_DIR/buffered_io" &&
	echo 1 > "$NS_DIR/enable" || fail "cannot enable nvmet namespace $NEW_NSID"
t0=$(uptime_ms)
wait_until 10 has_rblk_ns || fail "namespace $NEW_NSID did not appear on $ctrl within 10 s"
log "namespace $NEW_NSID appeared after $(($(uptime_ms) - t0)) ms"
wait_until 10 has_nvme_ns || fail "nvme-rdma did not see namespace $NEW_NSID either"
d=$(rblk_ns_dev "$ctrl" "$NEW_NSID")
wait_for_path "$d" 10 -b || fail "$d is no block device"
assert_on_target "$d" "$IMG" 16 "new namespace $d vs its file"
pattern_file /tmp/ns_live.pat 1048576
write_direct /tmp/ns_live.pat "$d" 4194304
read_region "$IMG" 4194304 1048576 /tmp/ns_live.got
assert_same /tmp/ns_live.pat /tmp/ns_live.got "write to $d vs the target's file"

# --- grow ---
truncate -s 32M "$IMG" || fail "cannot grow $IMG"
echo 1 > "$NS_DIR/revalidate_size" || fail "revalidate_size failed"
t0=$(uptime_ms)
wait_until 10 size_is "$d" $((32 * 1024 * 1024)) ||
	fail "$d is $(bytes_of "$d") bytes 10 s after growing to 32 MiB"
log "$d grew after $(($(uptime_ms) - t0)) ms"
n=$(nvme_ns_dev "$RBLK_NQN" "$NEW_NSID")
wait_until 10 size_is "$n" $((32 * 1024 * 1024)) ||
	fail "nvme-rdma's $n did not grow (rblk did)"
blockdev --rereadpt "$d" 2>/dev/null
dd if=/dev/urandom of=/tmp/ns_live.pat bs=4096 count=256 2>/dev/null
write_direct /tmp/ns_live.pat "$d" $((24 * 1024 * 1024))
read_region "$IMG" $((24 * 1024 * 1024)) 1048576 /tmp/ns_live.got
assert_same /tmp/ns_live.pat /tmp/ns_live.got "write beyond the old end of $d"

# --- remove, with I/O running on it ---
dd if=/dev/zero of="$d" bs=4096 count=1000000 oflag=direct conv=notrunc \
	> /tmp/ns_live.dd 2>&1 &
ddpid=$!
sleep 1
kill -0 "$ddpid" 2>/dev/null || { cat /tmp/ns_live.dd; fail "dd on $d ended early"; }
echo 0 > "$NS_DIR/enable" || fail "cannot disable nvmet namespace $NEW_NSID"
t0=$(uptime_ms)
wait_until 10 gone "$d" || fail "$d still present 10 s after the namespace was removed"
log "$d removed after $(($(uptime_ms) - t0)) ms"
rc=0
wait "$ddpid" || rc=$?
cat /tmp/ns_live.dd
[ "$rc" -ne 0 ] || fail "dd on the removed namespace succeeded"
grep -q 'Input/output error' /tmp/ns_live.dd || fail "I/O on the removed namespace did not fail with EIO"
wait_until 10 no_nvme_ns || fail "nvme-rdma still shows namespace $NEW_NSID"
rmdir "$NS_DIR" || fail "cannot remove nvmet namespace $NEW_NSID"

# The others are untouched.
[ "$(rblk_attr "$d2" state)" = live ] || fail "controller not live after the removal"
dd if=/dev/urandom of=/tmp/ns_live.pat bs=4096 count=256 2>/dev/null
write_direct /tmp/ns_live.pat "$d2" 8388608
read_direct "$d2" 8388608 1048576 /tmp/ns_live.got
assert_same /tmp/ns_live.pat /tmp/ns_live.got "$d2 after another namespace left"
read_region "$RBLK_BACKING" 8388608 1048576 /tmp/ns_live.got
assert_same /tmp/ns_live.pat /tmp/ns_live.got "$d2 vs its backing file"
[ "$(echo "$all" | tail -n +2 | wc -l)" -eq "$(ls -d /sys/class/rblk/"$ctrl"/rblk* | wc -l)" ] ||
	fail "the other namespaces are not all there"

# --- events ---
sleep 1
kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null
mon=
ev=$(jq -s -c --arg c "$ctrl" --argjson n "$NEW_NSID" \
	'[.[] | select(.name == $c and .namespace.nsid == $n) | .event]' "$EVENTS") ||
	fail "monitor output is not JSON lines"
log "events for nsid $NEW_NSID: $ev"
case $ev in
*'"ns-added"'*'"ns-resized"'*'"ns-removed"'*) ;;
*) cat "$EVENTS"; fail "events $ev: want ns-added, ns-resized, ns-removed" ;;
esac

nvme disconnect -n "$RBLK_NQN" >/dev/null
rblk_disconnect "$d2"
rblk_unload
exit 0

#!/bin/sh
# dm-multipath as multipath-tools sets it up, over rblk devices (rblk
# loaded with multipath=N), with the configuration that
# Documentation/multipath.rst gives (Documentation/examples/multipath.conf,
# /usr/share/rblk/multipath.conf in the guest), under udevd:
#  - with multipath-tools' built-in configuration, no map: its blacklist
#    takes rblk devices (what the example's exception is for);
#  - with the example: one map of both controllers' devices of the
#    namespace, named by its WWID, both paths active and ready (the
#    directio checker; tur needs SG_IO, which rblk has not; the default
#    failover grouping: one group of two), no configuration warning;
#  - multipathd running, both paths in one group (a multipaths entry): a
#    verifying writer through the map while port 1 goes away and comes
#    back: no error; the path fails and the daemon reinstates it; what
#    was written is on the target.
# rblk-timeout: 420
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

CONF=/usr/share/rblk/multipath.conf
UDEVD=/usr/lib/systemd/systemd-udevd
export DM_DISABLE_UDEV=1
command -v multipath >/dev/null && command -v multipathd >/dev/null ||
	skip "no multipath-tools in the guest"
[ -f "$CONF" ] || fail "no $CONF in the guest"
for m in dm-multipath dm-round-robin dm-service-time; do
	modprobe "$m" 2>/dev/null || skip "no $m in the guest kernel"
done

udevd_pid= mpd_pid= pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	if [ -n "$mpd_pid" ]; then
		kill "$mpd_pid" 2>/dev/null
		wait_until 10 exited "$mpd_pid" || kill -9 "$mpd_pid" 2>/dev/null
	fi
	timeout 30 multipath -F >/dev/null 2>&1 || timeout 30 dmsetup remove_all --force >/dev/null 2>&1
	nvmet_relink
	for _d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$_d" ] && timeout 60 nvmecfg disconnect "${_d##*/}" >/dev/null 2>&1
	done
	[ -n "$udevd_pid" ] && kill "$udevd_pid" 2>/dev/null && wait "$udevd_pid"
	rm -f /etc/multipath.conf
	rm -rf /etc/multipath
	nvmet_port2_del
	rblk_unload
}
trap cleanup EXIT

mkdir -p /run/udev /etc/multipath
"$UDEVD" --resolve-names=never > /tmp/udevd.log 2>&1 &
udevd_pid=$!
wait_until 10 udevadm control --ping 2>/dev/null || fail "udevd did not start: $(cat /tmp/udevd.log)"

nvmet_port2_add
rblk_load multipath=N
devA=$(rblk_connect "$RBLK_NSID_FILE" -l 60) || exit 1
outB=$(rblk_connect_port "$NVMET_SVC2" -l 60) || exit "$KSFT_FAIL"
ctrlB=$(echo "$outB" | head -n 1)
devB=$(rblk_ns_dev "$ctrlB" "$RBLK_NSID_FILE") || fail "no namespace $RBLK_NSID_FILE on $ctrlB"
udevadm settle --timeout=30 || fail "udevadm settle timed out"
wwid=$(udevadm info --query=property --name="$devA" | sed -n 's/^ID_WWN=//p')
[ -n "$wwid" ] || fail "udev gave $devA no ID_WWN"
[ "$(udevadm info --query=property --name="$devB" | sed -n 's/^ID_WWN=//p')" = "$wwid" ] ||
	fail "$devA and $devB have different ID_WWN"

# multipath-tools' own configuration: nothing for rblk.
rm -f /etc/multipath.conf
multipath -v2 > /tmp/mp.out 2>&1
multipath -ll 2>/dev/null | grep -q "$wwid" &&
	fail "a map for $wwid without the example configuration: $(multipath -ll)"
log "without a configuration: no map (blacklisted: $(multipath -v3 -d 2>&1 | grep -c "${devA#/dev/}.*blacklisted") lines say so)"

cp "$CONF" /etc/multipath.conf
multipath -t > /tmp/mp.conf.out 2> /tmp/mp.conf.err ||
	fail "multipath -t refused the example: $(cat /tmp/mp.conf.err)"
[ -s /tmp/mp.conf.err ] && fail "multipath -t warns about the example: $(head -n 5 /tmp/mp.conf.err)"
grep -q 'uid_attrs.*rblk:ID_WWN' /tmp/mp.conf.out ||
	fail "multipath -t does not show the example's uid_attrs"
grep -q 'path_checker.*directio' /tmp/mp.conf.out ||
	fail "multipath -t does not show the example's path_checker"
# multipath-tools' find_multipaths "strict": a map only for a WWID the
# administrator named once.
must multipath -a "$devA" > /dev/null
# Both paths in one group (the doc's "per map in a multipaths section"),
# so that the writer's I/O goes through the port that goes away.
printf 'multipaths {\n\tmultipath {\n\t\twwid "%s"\n\t\tpath_grouping_policy multibus\n\t}\n}\n' \
	"$wwid" >> /etc/multipath.conf
multipathd -d -s > /tmp/mpd.log 2>&1 &
mpd_pid=$!
# ready N: the map of the namespace has N paths that device-mapper takes
# as active (A in its status); cheap, unlike multipath -ll, which probes
# every path.
ready() {
	[ "$(dmsetup status "$wwid" 2>/dev/null | grep -oE '[0-9]+:[0-9]+ A' | wc -l)" -eq "$1" ]
}
wait_until 30 ready 2 ||
	fail "no map with two ready paths: $(multipath -ll 2>&1; tail -n 20 /tmp/mpd.log; multipath -v3 -d 2>&1 | grep -E "${devA#/dev/}|${devB#/dev/}" | tail -n 20)"
# No udev rules for device-mapper in the guest: its nodes by hand.
dmsetup mknodes "$wwid" >/dev/null 2>&1
map=/dev/mapper/$wwid
[ -b "$map" ] || fail "no $map: $(ls /dev/mapper)"
log "map $wwid over ${devA#/dev/} and ${devB#/dev/}, both ready"

fio --name=dmconf --filename="$map" --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=16 --size=8M --time_based --runtime=60 \
	--verify=crc32c --verify_fatal=1 --verify_backlog=64 > /tmp/dmc.fio 2>&1 &
pid=$!
sleep 3
nvmet_unlink
wait_until 30 ready 1 ||
	fail "multipathd did not fail the path of the removed port: $(multipath -ll 2>&1)"
sleep 3
nvmet_relink
wait_until 60 ready 2 ||
	fail "multipathd did not reinstate the path: $(multipath -ll 2>&1; tail -n 20 /tmp/mpd.log)"
wait "$pid"; rc=$?; pid=
[ "$rc" -eq 0 ] && grep -q 'err= 0' /tmp/dmc.fio ||
	fail "fio failed ($rc): $(grep -E 'err=|verify|error' /tmp/dmc.fio | head -5)"
log "a port away and back under the writer: failed and reinstated by multipathd, no error"
assert_on_target "$map" "$RBLK_BACKING" 8 "what the writer wrote through $map"
exit 0

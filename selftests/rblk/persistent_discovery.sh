#!/bin/sh
# connect-all --persistent keeps a discovery controller connected (listed,
# live, with keep-alive) besides connecting what its log lists; running
# it again adds no second one.  A subsystem the target then adds to the
# port makes nvmet send a Discovery Log Page Change notice, which rblk
# reports as a "disc-changed" event; nvmecfg monitor --autoconnect (run
# as rblk-monitor.service's ExecStart= line) runs
# connect-all against that discovery controller's address, which
# connects the new subsystem: its device appears within seconds and
# serves data.  Removing it from the port is another notice, and no
# error.  Each notice is also a uevent with NVME_AEN, as nvme's.  After
# a reconnect (a reset) the discovery controller asks for rediscovery
# (disc-changed, uevent NVME_EVENT=rediscover).  A --persistent line of
# discovery.conf keeps one as -p does.  Disconnect
# of the discovery controller works.  discover -p and connect -n of the
# discovery NQN keep one too (with keep-alive, even with -k 0).
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NEW=rblk-pdisc-new
IMG=/tmp/pdisc.img
DISC_NQN=nqn.2014-08.org.nvmexpress.discovery
MON=
UEV=

cleanup() {
	[ -n "$MON" ] && kill "$MON" 2>/dev/null
	[ -n "$UEV" ] && kill "$UEV" 2>/dev/null
	nvmet_relink
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	nvmet_subsys_del "$NEW"
	rm -rf "$IMG" /tmp/pdisc.pat /tmp/pdisc.out /tmp/pdisc.mon /tmp/pdisc.uev /tmp/pdisc.d
	rblk_unload
}
trap cleanup EXIT

# ctrls_of NQN: the rblk controllers of subsystem NQN, by name.
ctrls_of() {
	for _f in /sys/class/rblk/rblk-ctrl*/subsysnqn; do
		[ -f "$_f" ] && [ "$(cat "$_f")" = "$1" ] &&
			{ _d=${_f%/subsysnqn}; echo "${_d##*/}"; }
	done
}
nof() { ctrls_of "$1" | wc -l; }
has_new() { [ "$(nof "$NEW")" -eq 1 ]; }
no_disc() { [ "$(nof "$DISC_NQN")" -eq 0 ]; }
# changes: the disc-changed events the monitor printed.
changes() { grep -c "disc-changed" /tmp/pdisc.mon; }
two_changes() { [ "$(changes)" -ge 2 ]; }
more_changes() { [ "$(changes)" -gt "$1" ]; }
disc_live() { [ "$(cat "/sys/class/rblk/$DISC/state")" = live ]; }
disc_down() { ! disc_live; }

rblk_load

must nvmecfg connect-all -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	--persistent -k 2 -c 1 -l 60
[ "$(nof "$DISC_NQN")" -eq 1 ] ||
	fail "connect-all -p: $(nof "$DISC_NQN") discovery controllers, want 1"
DISC=$(ctrls_of "$DISC_NQN")
[ "$(nof "$RBLK_NQN")" -eq 1 ] || fail "connect-all -p did not connect $RBLK_NQN"
[ "$(cat "/sys/class/rblk/$DISC/state")" = live ] ||
	fail "$DISC is $(cat "/sys/class/rblk/$DISC/state"), not live"
nvmecfg list | grep -q "$DISC" || fail "nvmecfg list does not show $DISC"
# Again: the one there is kept, nothing new.
must nvmecfg connect-all -p -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" --quiet
[ "$(nof "$DISC_NQN")" -eq 1 ] || fail "a second connect-all -p made another discovery controller"
# Keep-alive holds it: still live after a few keep-alive periods.
sleep 8
[ "$(cat "/sys/class/rblk/$DISC/state")" = live ] || fail "$DISC left live while idle"
log "connect-all -p: $DISC kept, live, kato $(cat "/sys/class/rblk/$DISC/kato")"

# As rblk-monitor.service runs it: the guest has no systemd, so its
# ExecStart= line (scripts/mkinitramfs.sh generates the unit as make
# install does), words split at blanks as systemd splits them.
MUNIT=/usr/lib/systemd/system/rblk-monitor.service
[ -f "$MUNIT" ] || fail "$MUNIT not in the guest"
mcmd=$(sed -n 's/^ExecStart=//p' "$MUNIT")
[ -n "$mcmd" ] || fail "no ExecStart= in $MUNIT"
# shellcheck disable=SC2086
$mcmd > /tmp/pdisc.mon 2>&1 &
MON=$!
# The kernel's uevents themselves, without udevd.
udevadm monitor --kernel --property --subsystem-match=rblk > /tmp/pdisc.uev 2>&1 &
UEV=$!
# Subscribed before the change.
sleep 2
running "$MON" || fail "monitor --autoconnect exited: $(cat /tmp/pdisc.mon)"
t0=$(uptime_ms)
nvmet_subsys_add "$NEW" "$IMG" 16
wait_until 30 has_new || {
	cat /tmp/pdisc.mon; dmesg | tail -20
	fail "$NEW not connected within 30 s of its addition"
}
log "$NEW connected $(($(uptime_ms) - t0)) ms after it was added"
grep -q "^$DISC: disc-changed" /tmp/pdisc.mon ||
	fail "monitor printed no disc-changed of $DISC: $(cat /tmp/pdisc.mon)"
grep -q "^NVME_AEN=0x70f002" /tmp/pdisc.uev ||
	fail "no NVME_AEN=0x70f002 uevent: $(cat /tmp/pdisc.uev)"
C=$(ctrls_of "$NEW")
wait_until 10 rblk_ns_dev "$C" 1 >/dev/null || fail "$C has no namespace 1"
R=$(rblk_ns_dev "$C" 1)
wait_for_path "$R" 10 -b || fail "$R did not appear"
pattern_file /tmp/pdisc.pat $((1024 * 1024))
write_direct /tmp/pdisc.pat "$R" $((2 * 1024 * 1024))
read_region "$IMG" $((2 * 1024 * 1024)) $((1024 * 1024)) /tmp/pdisc.out
assert_same /tmp/pdisc.pat /tmp/pdisc.out "$NEW via $R"
log "data through $R is on the target"

# Off the port: another notice; its controller is ours to disconnect.
rm -f "$RBLK_NVMET_PORT/subsystems/$NEW" || fail "cannot unlink $NEW"
wait_until 20 two_changes || fail "no disc-changed after $NEW left the port: $(cat /tmp/pdisc.mon)"
must timeout 60 nvmecfg disconnect "$C"
running "$MON" || fail "monitor --autoconnect died: $(cat /tmp/pdisc.mon)"
grep -qi "fail" /tmp/pdisc.mon && fail "monitor: $(cat /tmp/pdisc.mon)"
[ "$(cat "/sys/class/rblk/$DISC/state")" = live ] || fail "$DISC not live after the changes"
log "removal noticed"

# A reconnect (a reset: losing the port by unlinking its last subsystem
# oopses Debian 6.1's nvmet-rdma, whose discovery log read races the
# port's removal, in nvmet_rdma_disc_port_addr()).
n=$(changes)
t0=$(uptime_ms)
echo 1 > "/sys/class/rblk/$DISC/reset_controller" || fail "cannot reset $DISC"
wait_until 30 disc_live || fail "$DISC did not reconnect within 30 s"
log "$DISC reconnected $(($(uptime_ms) - t0)) ms after its reset"
wait_until 10 more_changes "$n" || fail "no disc-changed after the reconnect: $(cat /tmp/pdisc.mon)"
wait_until 5 grep -q "^NVME_EVENT=rediscover" /tmp/pdisc.uev ||
	fail "no NVME_EVENT=rediscover uevent: $(cat /tmp/pdisc.uev)"
[ "$(nof "$RBLK_NQN")" -eq 1 ] || fail "$(nof "$RBLK_NQN") controllers of $RBLK_NQN after the reconnect"

must timeout 60 nvmecfg disconnect "$DISC"
wait_until 10 no_disc ||
	fail "$DISC still there after its disconnect"
kill "$MON" "$UEV"
MON='' UEV=''
log "both disconnected"

# A discovery.conf line with --persistent keeps one too (the boot unit's
# files), as -p on the command line does.
mkdir -p /tmp/pdisc.d
echo "-t rdma -a $RBLK_TRADDR -s $RBLK_TRSVCID --persistent" > /tmp/pdisc.d/discovery.conf
must nvmecfg connect-all --conf-dir /tmp/pdisc.d --quiet
[ "$(nof "$DISC_NQN")" -eq 1 ] ||
	fail "a --persistent line of discovery.conf: $(nof "$DISC_NQN") discovery controllers, want 1"
must nvmecfg disconnect "$(ctrls_of "$DISC_NQN")"
wait_until 10 no_disc || fail "the file's discovery controller still there after its disconnect"
log "a --persistent line of discovery.conf keeps its discovery controller"

# discover -p keeps one too; so does a connect to the discovery NQN,
# with keep-alive whatever -k says.
must nvmecfg discover -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -p >/dev/null
[ "$(nof "$DISC_NQN")" -eq 1 ] || fail "discover -p: $(nof "$DISC_NQN") discovery controllers"
k=$(cat "/sys/class/rblk/$(ctrls_of "$DISC_NQN")/kato")
[ "$k" = 30 ] || fail "discover -p: kato $k, want nvme-cli's 30"
must nvmecfg disconnect "$(ctrls_of "$DISC_NQN")"
wait_until 10 no_disc || fail "discover -p's controller still there after its disconnect"
out=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" \
	-n "$DISC_NQN" -k 0 2>&1) || fail "connect -n $DISC_NQN: $out"
D=$(ctrls_of "$DISC_NQN")
k=$(cat "/sys/class/rblk/$D/kato")
[ "$k" -gt 0 ] || fail "connect -n $DISC_NQN -k 0: '$D' has kato '$k'; it said: $out"
[ "$(cat "/sys/class/rblk/$D/state")" = live ] || fail "$D not live"
must nvmecfg disconnect "$D"
log "discover -p and connect -n $DISC_NQN keep one as well"

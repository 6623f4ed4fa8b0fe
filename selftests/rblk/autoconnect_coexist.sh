#!/bin/sh
# rblk-autoconnect.service next to nvme-cli's nvmf-autoconnect.service, both
# enabled, as Debian enables nvme-cli's (Documentation/install.rst,
# "Sharing the host with nvme-cli's unit"): each unit's ExecStartPre= and
# ExecStart= lines, read from the unit files as installed (nvme-cli's from
# its package, rblk's as make install generates it), run as systemd would
# at boot, in both orders, and again (a restart):
#  - rblk's subsystem is listed in /etc/rblk/discovery.conf (port 1's
#    discovery controller), nvme-cli's in /etc/nvme/discovery.conf (a
#    third port's, which exports only it);
#  - each subsystem ends up connected once, by its own host: one rblk
#    controller and no nvme one for rblk's, one nvme controller and no
#    rblk one for nvme-cli's, whichever unit starts first, and after both
#    start again;
#  - data written through rblk's device and nvme-rdma's is in each
#    subsystem's backing file.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

RUNIT=/usr/lib/systemd/system/rblk-autoconnect.service
NUNIT=/usr/lib/systemd/system/nvmf-autoconnect.service
NQN_N=nqn.2026-12.io.rblk:coexist
PORT3=${RBLK_NVMET_PORT%/*}/3
SVC3=$((RBLK_TRSVCID + 2))

cleanup() {
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	nvme disconnect-all >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	for f in /etc/rblk/discovery.conf /etc/nvme/discovery.conf; do
		rm -f "$f"
		[ -f "$f.saved" ] && mv "$f.saved" "$f"
	done
	rm -f "$PORT3/subsystems/$NQN_N" 2>/dev/null
	rmdir "$PORT3" 2>/dev/null
	nvmet_subsys_del "$NQN_N"
	rm -f /tmp/co.img /tmp/co.pat /tmp/co.out /tmp/co.log
	rblk_unload
}
trap cleanup EXIT

[ -f "$RUNIT" ] || fail "$RUNIT not in the guest (scripts/mkinitramfs.sh should generate it)"
[ -f "$NUNIT" ] || skip "no nvme-cli unit in the guest ($NUNIT: nvme-cli without systemd files on the host)"
mkdir -p "/run/$(sed -n 's/^RuntimeDirectory=//p' "$RUNIT")"

# run_unit UNIT KEY: UNIT's KEY= lines in order, as systemd runs them (words
# split at blanks, no shell); a command given by a path this guest lacks
# (/sbin/modprobe) runs by its name.  Fails the test on a non-zero status.
run_unit() {
	_cmds=$(sed -n "s/^$2=//p" "$1")
	[ -n "$_cmds" ] || return 0
	while IFS= read -r _c; do
		case $_c in
		[-@:+!]*|*%*|*\$*|*\"*|*\'*|*\\*)
			fail "${1##*/}: $2=$_c: prefixes, specifiers or quoting this test does not run as systemd" ;;
		esac
		set -f
		# shellcheck disable=SC2086 # the unit's words, as systemd splits them
		set -- $_c
		set +f
		_b=$1; shift
		[ -x "$_b" ] || _b=${_b##*/}
		"$_b" "$@" < /dev/null > /tmp/co.log 2>&1 ||
			fail "${NUNIT##*/}/${RUNIT##*/}: $_c exited $?: $(tail -n 5 /tmp/co.log)"
	done <<CMDS
$_cmds
CMDS
}
start_rblk() { run_unit "$RUNIT" ExecStartPre; run_unit "$RUNIT" ExecStart; }
start_nvme() { run_unit "$NUNIT" ExecStartPre; run_unit "$NUNIT" ExecStart; }

# count NQN: "R N", its rblk controllers and its nvme ones.
count() {
	_r=0 _n=0
	for _f in /sys/class/rblk/rblk-ctrl*/subsysnqn; do
		[ -f "$_f" ] && [ "$(cat "$_f")" = "$1" ] && _r=$((_r + 1))
	done
	for _f in /sys/class/nvme/nvme*/subsysnqn; do
		[ -f "$_f" ] && [ "$(cat "$_f")" = "$1" ] && _n=$((_n + 1))
	done
	echo "$_r $_n"
}
# once WHAT: each subsystem connected once, by its own host.
once() {
	[ "$(count "$RBLK_NQN")" = "1 0" ] ||
		fail "$1: $RBLK_NQN has rblk and nvme controllers $(count "$RBLK_NQN"), want 1 0"
	[ "$(count "$NQN_N")" = "0 1" ] ||
		fail "$1: $NQN_N has rblk and nvme controllers $(count "$NQN_N"), want 0 1"
}
# data: a pattern through each host's device reaches its backing file.
data() {
	c=$(for d in /sys/class/rblk/rblk-ctrl*; do echo "${d##*/}"; done | head -n 1)
	r=$(rblk_ns_dev "$c" "$RBLK_NSID_FILE") || fail "no rblk device for namespace $RBLK_NSID_FILE"
	wait_for_path "$r" 10 -b || fail "$r did not appear"
	pattern_file /tmp/co.pat $((1024 * 1024))
	write_direct /tmp/co.pat "$r" $((3 * 1024 * 1024))
	read_region "$RBLK_BACKING" $((3 * 1024 * 1024)) $((1024 * 1024)) /tmp/co.out
	assert_same /tmp/co.pat /tmp/co.out "$1: $RBLK_NQN through $r"
	n=$(nvme_wait_ns_dev "$NQN_N" 1) || fail "$1: no nvme device for $NQN_N"
	pattern_file /tmp/co.pat $((1024 * 1024))
	write_direct /tmp/co.pat "$n" $((1024 * 1024))
	read_region /tmp/co.img $((1024 * 1024)) $((1024 * 1024)) /tmp/co.out
	assert_same /tmp/co.pat /tmp/co.out "$1: $NQN_N through $n"
}
stop_all() {
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && must nvmecfg disconnect "${d##*/}" > /dev/null
	done
	nvme disconnect-all > /dev/null 2>&1
	rblk_unload
	modprobe -r nvme-rdma nvme-fabrics 2>/dev/null
	return 0
}

# nvme-cli's subsystem: on a third port of its own (on port 1 too, it
# would be in rblk's discovery log as well).
nvmet_subsys_add "$NQN_N" /tmp/co.img 16
rm -f "$RBLK_NVMET_PORT/subsystems/$NQN_N"
{ mkdir "$PORT3" && echo rdma > "$PORT3/addr_trtype" && echo ipv4 > "$PORT3/addr_adrfam" &&
  echo "$RBLK_TRADDR" > "$PORT3/addr_traddr" && echo "$SVC3" > "$PORT3/addr_trsvcid" &&
  ln -s "${RBLK_NVMET_SUBSYS%/*}/$NQN_N" "$PORT3/subsystems/$NQN_N"; } ||
	fail "cannot create nvmet port 3"
for f in /etc/rblk/discovery.conf /etc/nvme/discovery.conf; do
	[ -f "$f" ] && mv "$f" "$f.saved"
done
mkdir -p /etc/rblk /etc/nvme
echo "--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$RBLK_TRSVCID" > /etc/rblk/discovery.conf
echo "--transport=rdma --traddr=$RBLK_TRADDR --trsvcid=$SVC3" > /etc/nvme/discovery.conf
rblk_unload

start_nvme
start_rblk
once "nvme-cli's unit, then rblk's"
data "nvme-cli's unit, then rblk's"
start_rblk
start_nvme
once "both started again"
log "nvme-cli's unit first: each subsystem connected once, by its host"

stop_all
start_rblk
start_nvme
once "rblk's unit, then nvme-cli's"
data "rblk's unit, then nvme-cli's"
log "rblk's unit first: the same"
exit 0

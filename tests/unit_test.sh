#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rblk-autoconnect.service as make install writes it: systemd-analyze
# verify finds nothing to say about it, it runs the installed nvmecfg on
# its own files, /etc/rblk (connect-all --record at start and at reload,
# disconnect-all --record at stop, so RemainAfterExit=yes: only what it
# connected), so that it can run beside nvme-cli's nvmf-autoconnect.service
# (no Conflicts=; that one reads /etc/nvme),
# orders as Documentation/install.rst says (after the network and the RDMA
# device, before remote-fs-pre.target, so that _netdev mounts come after
# the connect and go before the disconnect), retries a failed connect but
# not a bad configuration, and enables without rdma-core's rdma-hw.target.
# Its commands run in the guest: selftests/rblk/autoconnect_unit.sh.  And
# rblk-monitor.service (nvmecfg monitor --autoconnect as a service, whose
# ExecStart= selftests/rblk/persistent_discovery.sh runs).  KTAP;
# the cases that need systemd-analyze or systemctl skip without them.
# shellcheck disable=SC2317 # the functions run through check
cd "$(dirname "$0")/.." || exit 1

T=$(mktemp -d /tmp/rblk-unit.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }

echo "KTAP version 1"
echo "1..18"

D=$T/root
check "make install-tools DESTDIR PREFIX=/usr" \
	make --no-print-directory -s install-tools DESTDIR="$D" PREFIX=/usr
U=$D/lib/systemd/system/rblk-autoconnect.service
# key NAME: the unit's values of NAME, one a line, in order.
key() { sed -n "s/^$1=//p" "$U" 2>/dev/null; }
# has NAME VALUE: one of NAME='s values (a line of blank-separated words)
# holds VALUE.
has() { key "$1" | tr ' ' '\n' | grep -qxF "$2"; }

# systemd-analyze looks for the commands on this machine: show it the
# staged tool where the unit names it.  It warns about what it ignores
# (an unknown key, a bad value) but exits 0: any word about the unit fails.
# verify UNIT_FILE WHAT: systemd-analyze verify says nothing about it.
verify() {
	local name=${1##*/} out rc
	if ! command -v systemd-analyze > /dev/null; then
		skip "$2systemd-analyze verify: no error, no warning" "no systemd-analyze"
		return
	fi
	sed "s|=/usr/sbin/nvmecfg|=$D/usr/sbin/nvmecfg|" "$1" > "$T/$name"
	out=$(systemd-analyze verify --man=no "$T/$name" 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && ! printf '%s\n' "$out" | grep -q "${name%.service}"; then
		ok "$2systemd-analyze verify: no error, no warning"
	else
		not_ok "$2systemd-analyze verify: no error, no warning (exit $rc)" "$out"
	fi
}
verify "$U" ""

REC=/run/rblk/autoconnect
CA="/usr/sbin/nvmecfg connect-all --conf-dir /etc/rblk --record $REC"
check "start: modprobe rblk, then the installed nvmecfg connect-all of /etc/rblk, recorded" test \
	"$(key ExecStartPre) $(key ExecStart)" = "/sbin/modprobe rblk $CA"
check "reload: the same connect-all (new entries, recorded)" test "$(key ExecReload)" = "$CA"
check "stop: disconnect-all of the record only, run since a oneshot stays active" test \
	"$(key ExecStop) $(key Type) $(key RemainAfterExit)" = "/usr/sbin/nvmecfg disconnect-all --record $REC oneshot yes"
# The record's directory: systemd's, kept after a failed start.
check "/run/rblk is its RuntimeDirectory=, preserved" test \
	"$(key RuntimeDirectory) $(key RuntimeDirectoryPreserve)" = "rblk yes"
# Runs beside nvme-cli's unit, on files of its own: nvme-cli's reads
# /etc/nvme (its ConditionPathExists=, its connect-all).
own_files() {
	! grep -q '^Conflicts=' "$U" && ! grep -v '^#' "$U" | grep -q /etc/nvme &&
		[ "$(key ConditionPathExists | tr '\n' ' ')" = "|/etc/rblk/discovery.conf |/etc/rblk/config.json " ]
}
check "no Conflicts=, no /etc/nvme: runs only on /etc/rblk's files" own_files
online() { has After network-online.target && has Wants network-online.target; }
check "after network-online.target, which it wants" online
# rdma-core's target: After= only (no Requires=, Requisite=, BindsTo=,
# which fail where it does not exist), and wanted by it (hotplug).
rdma() {
	has After rdma-hw.target && has WantedBy rdma-hw.target &&
		! grep -E '^(Requires|Requisite|BindsTo)=.*rdma-hw' "$U"
}
check "after rdma-hw.target, without requiring it; wanted by it" rdma
# Started before remote-fs-pre.target, so stopped after it at shutdown:
# after every _netdev mount (after remote-fs-pre.target) is unmounted.
check "before remote-fs-pre.target (stops after the _netdev mounts)" \
	has Before remote-fs-pre.target
# nvmecfg's exit status 1 is a failed discovery or connect (nvmecfg(8),
# EXIT STATUS): retried; 2 (usage, a bad discovery.conf line) and 4 (no
# privilege) would fail again.  Several tries, a while apart.
retries() {
	[ "$(key Restart)" = on-failure ] && [ -n "$(key RestartSec)" ] &&
		has RestartPreventExitStatus 2 && has RestartPreventExitStatus 4 &&
		! has RestartPreventExitStatus 1 && [ "$(key StartLimitBurst)" -ge 5 ]
}
check "retries exit status 1, not 2 or 4, several times" retries

if command -v systemctl > /dev/null; then
	out=$(systemctl --root="$D" enable rblk-autoconnect.service 2>&1)
	rc=$?
	W=$D/etc/systemd/system
	if [ "$rc" -eq 0 ] && [ -L "$W/default.target.wants/rblk-autoconnect.service" ] &&
	   [ -L "$W/rdma-hw.target.wants/rblk-autoconnect.service" ]; then
		ok "systemctl enable: wanted by default.target and rdma-hw.target, without rdma-core"
	else
		not_ok "systemctl enable: wanted by default.target and rdma-hw.target, without rdma-core (exit $rc)" \
			"$out" "$(find "$D/etc" 2>&1)"
	fi
else
	skip "systemctl enable: wanted by default.target and rdma-hw.target, without rdma-core" "no systemctl"
fi

# rblk-monitor.service: nvmecfg monitor --autoconnect as a service, for
# the persistent discovery controllers (selftests/rblk/persistent_discovery.sh
# runs its ExecStart= in the guest).
M=$D/lib/systemd/system/rblk-monitor.service
mkey() { sed -n "s/^$1=//p" "$M" 2>/dev/null; }
verify "$M" "rblk-monitor.service: "
check "rblk-monitor.service: modprobe rblk, then the installed nvmecfg monitor --autoconnect, a simple service" test \
	"$(mkey ExecStartPre) $(mkey ExecStart) $(mkey Type)" = "/sbin/modprobe rblk /usr/sbin/nvmecfg monitor --autoconnect simple"
check "rblk-monitor.service: restarted on failure, after rblk-autoconnect.service" test \
	"$(mkey Restart) $(mkey After)" = "on-failure rblk-autoconnect.service"
if command -v systemctl > /dev/null; then
	out=$(systemctl --root="$D" enable rblk-monitor.service 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ -L "$D/etc/systemd/system/multi-user.target.wants/rblk-monitor.service" ]; then
		ok "rblk-monitor.service: systemctl enable: wanted by multi-user.target"
	else
		not_ok "rblk-monitor.service: systemctl enable: wanted by multi-user.target (exit $rc)" "$out"
	fi
else
	skip "rblk-monitor.service: systemctl enable: wanted by multi-user.target" "no systemctl"
fi

# What install.rst says nvme-cli's files do beside rblk's, checked against
# the files this host's nvme-cli installed (not assumed): its unit runs a
# plain `nvme connect-all` of /etc/nvme and never reads /etc/rblk; its udev
# rules act on the in-kernel host's (class nvme) and FC events only, never
# on rblk's (class rblk).  selftests/rblk/autoconnect_coexist.sh runs both
# units' commands together in the guest.
NU=/usr/lib/systemd/system/nvmf-autoconnect.service
NR=/usr/lib/udev/rules.d/70-nvmf-autoconnect.rules
if [ -f "$NU" ]; then
	nu_ok() {
		[ "$(sed -n 's/^ExecStart=//p' "$NU")" = /usr/sbin/nvme\ connect-all ] &&
			! grep -q /etc/rblk "$NU"
	}
	check "nvme-cli's nvmf-autoconnect.service: a plain nvme connect-all, no /etc/rblk" nu_ok
else
	skip "nvme-cli's nvmf-autoconnect.service: a plain nvme connect-all, no /etc/rblk" "no $NU"
fi
if [ -f "$NR" ]; then
	nr_ok() {
		# Every rule line that runs something matches class nvme or fc.
		! grep -q rblk "$NR" &&
			awk '/^[^#]/ { rule = rule $0 } /\\$/ { next }
			     { if (rule ~ /RUN\+=/ && rule !~ /SUBSYSTEM=="(nvme|fc)"/) bad = 1; rule = "" }
			     END { exit bad }' "$NR"
	}
	check "nvme-cli's 70-nvmf-autoconnect.rules: acts on class nvme and fc only, never rblk" nr_ok
else
	skip "nvme-cli's 70-nvmf-autoconnect.rules: acts on class nvme and fc only, never rblk" "no $NR"
fi

exit $failed

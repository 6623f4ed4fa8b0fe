#!/bin/sh
# The same machine is the same host to a target under nvme-cli and nvmecfg.
# A subsystem admits only the host NQN in /etc/nvme/hostnqn (allowed_hosts):
# nvmecfg connects without -q, with /etc/nvme/hostnqn and /etc/nvme/hostid
# as its identity, and so does nvme-cli, on the same namespace, seeing the
# same data; another host NQN is refused with the target's reason.
# Without /etc/nvme the machine's: the NQN nvme-cli derives from the DMI
# product UUID, the same across module loads.  Without that too the
# module's identity applies: the hostnqn module parameter (its UUID becomes
# the host ID), or a generated nqn.2014-08.org.nvmexpress:uuid:<hostid>
# that stays for the module's life.
# rblk-timeout: 300
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

ACL=nqn.2026-12.io.rblk:acl
NVMET=${RBLK_NVMET_SUBSYS%/subsystems/*}
HN=$(cat /etc/nvme/hostnqn) || fail "no /etc/nvme/hostnqn in the guest"
HI=$(cat /etc/nvme/hostid) || fail "no /etc/nvme/hostid in the guest"
OTHER=nqn.2026-12.io.rblk:intruder

cleanup() {
	nvme disconnect -n "$ACL" >/dev/null 2>&1
	for d in /sys/class/rblk/rblk-ctrl*; do
		[ -e "$d" ] && nvmecfg disconnect "${d##*/}" >/dev/null 2>&1
	done
	[ -d /etc/nvme.saved ] && { rm -rf /etc/nvme; mv /etc/nvme.saved /etc/nvme; }
	nvmet_subsys_del "$ACL"
	rmdir "$NVMET/hosts/$HN" 2>/dev/null
	rm -rf /tmp/acl.img /tmp/acl-*.pat /tmp/acl-*.out /tmp/hi-nodmi
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload
}
trap cleanup EXIT

case $HN in nqn.2014-08.org.nvmexpress:uuid:"$HI") ;;
	*) fail "guest hostnqn $HN does not carry its hostid $HI" ;; esac

# The subsystem admits $HN only.
nvmet_subsys_add "$ACL" /tmp/acl.img 16
echo 0 > "${RBLK_NVMET_SUBSYS%/*}/$ACL/attr_allow_any_host" || fail "cannot restrict $ACL"
mkdir -p "$NVMET/hosts/$HN" || fail "cannot create nvmet host $HN"
ln -s "$NVMET/hosts/$HN" "${RBLK_NVMET_SUBSYS%/*}/$ACL/allowed_hosts/$HN" ||
	fail "cannot allow $HN on $ACL"

# connect ARGS...: nvmecfg connect to $ACL; prints the output, sets $rc.
# connect ARGS...: out is what it printed (the controller, the devices),
# err its messages.
connect() {
	rc=0
	out=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$ACL" "$@" 2>/tmp/hi.err) || rc=$?
	err=$(cat /tmp/hi.err)
}
# refused WHAT ARGS...: the connect fails as permission denied (exit 4,
# EACCES: the target's ACL), names the target's NVMe status once, leaves
# nothing.
refused() {
	_what=$1; shift
	connect "$@"
	[ "$rc" -eq 4 ] || fail "$_what: exit $rc, want 4: $out $err"
	printf '%s\n' "$err" | grep -qx 'nvmecfg: connect: target refused: Connect Invalid Host (0x184)' ||
		fail "$_what: message does not name the NVMe status: $err"
	[ "$(printf '%s\n' "$err" | grep -c 'refused\|not allow')" -eq 1 ] ||
		fail "$_what: the refusal is said more than once: $err"
	ls /sys/class/rblk | grep -q rblk-ctrl && fail "$_what: a controller was left behind"
	log "ok: $_what refused: $(printf '%s\n' "$err" | tail -n 1)"
}
ctrl_attr() { cat "/sys/class/rblk/$(echo "$out" | head -n 1)/$1"; }

must modprobe nvme-rdma
rblk_load
# The module's own identity, fixed at load: UUID form, its UUID the host ID.
mod_hn=$(cat /sys/module/rblk/parameters/hostnqn)
mod_hi=$(cat /sys/module/rblk/parameters/hostid)
[ "$mod_hn" = "nqn.2014-08.org.nvmexpress:uuid:$mod_hi" ] ||
	fail "module hostnqn $mod_hn does not carry its hostid $mod_hi"

# --- /etc/nvme: nvmecfg and nvme-cli are the same host ---
# nvmecfg show: what a connect will use, and where it comes from.
show=$(nvmecfg show -o json) || fail "nvmecfg show failed: $show"
printf '%s\n' "$show" | jq -e --arg hn "$HN" --arg hi "$HI" \
	'.hostnqn == $hn and .hostnqn_source == "file" and .hostid == $hi and .hostid_source == "file"' \
	>/dev/null || fail "nvmecfg show does not report /etc/nvme's identity: $show"
connect
[ "$rc" -eq 0 ] || fail "connect as $HN (from /etc/nvme/hostnqn) refused: $out"
[ "$(ctrl_attr hostnqn)" = "$HN" ] || fail "controller hostnqn $(ctrl_attr hostnqn), want $HN"
[ "$(ctrl_attr hostid)" = "$HI" ] || fail "controller hostid $(ctrl_attr hostid), want $HI"
r=/dev/$(echo "$out" | sed -n 2p)
wait_for_path "$r" 10 -b || fail "$r did not appear"
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$ACL"
n=$(nvme_wait_ns_dev "$ACL" 1) || fail "nvme-rdma shows no namespace of $ACL"
nctrl=$(basename "$(readlink -f "/sys/block/${n#/dev/}/device")")
for f in /sys/class/nvme/*/subsysnqn; do
	[ "$(cat "$f")" = "$ACL" ] || continue
	[ "$(cat "${f%/*}/hostnqn")" = "$HN" ] || fail "nvme-rdma hostnqn $(cat "${f%/*}/hostnqn")"
	[ "$(cat "${f%/*}/hostid")" = "$HI" ] || fail "nvme-rdma hostid $(cat "${f%/*}/hostid")"
done
pattern_file /tmp/acl-a.pat $((512 * 1024))
write_direct /tmp/acl-a.pat "$r" $((2 * 1024 * 1024))
read_direct "$n" $((2 * 1024 * 1024)) $((512 * 1024)) /tmp/acl-a.out
assert_same /tmp/acl-a.pat /tmp/acl-a.out "rblk's write, read by nvme-rdma"
assert_on_target "$r" /tmp/acl.img 16 "$ACL through rblk"
log "rblk and nvme-rdma ($nctrl) both $HN / $HI on $ACL"
must nvme disconnect -n "$ACL"
rblk_disconnect "$r"

# An explicit identity wins over /etc/nvme, and the target judges it.
refused "-q $OTHER" -q "$OTHER"
refused "--hostnqn=$OTHER" --hostnqn="$OTHER"

# /etc/nvme/hostid is used as is, even when the host NQN carries another.
HI2=$(cat /proc/sys/kernel/random/uuid)
cp -a /etc/nvme /etc/nvme.saved
echo "$HI2" > /etc/nvme/hostid
connect
[ "$rc" -eq 0 ] || fail "connect with /etc/nvme/hostid $HI2 refused: $out"
[ "$(ctrl_attr hostid)" = "$HI2" ] || fail "hostid $(ctrl_attr hostid), want /etc/nvme/hostid's $HI2"
rblk_disconnect "/dev/$(echo "$out" | sed -n 2p)"
# Without the file: the UUID of a UUID-form host NQN, as nvme-cli takes it.
rm /etc/nvme/hostid
connect
[ "$rc" -eq 0 ] || fail "connect without /etc/nvme/hostid refused: $out"
[ "$(ctrl_attr hostid)" = "$HI" ] || fail "hostid $(ctrl_attr hostid), want $HI from $HN"
rblk_disconnect "/dev/$(echo "$out" | sed -n 2p)"

# --- no /etc/nvme: the machine's identity (SMBIOS UUID; vm-run.sh's -uuid) ---
rm -rf /etc/nvme
dmi=$(cat /sys/class/dmi/id/product_uuid) || fail "the guest has no DMI product UUID"
dmi_hn=nqn.2014-08.org.nvmexpress:uuid:$dmi
show=$(nvmecfg show -o json) || fail "nvmecfg show failed: $show"
printf '%s\n' "$show" | jq -e --arg hn "$dmi_hn" --arg hi "$dmi" \
	'.hostnqn == $hn and .hostnqn_source == "dmi" and .hostid == $hi' > /dev/null ||
	fail "nvmecfg show without /etc/nvme does not report the DMI identity $dmi_hn: $show"
[ "$(nvmecfg gen-hostnqn)" = "$dmi_hn" ] || fail "gen-hostnqn $(nvmecfg gen-hostnqn), want $dmi_hn"
# The same host across two module loads: connect to the open test subsystem.
same_host() {
	_o=$(nvmecfg connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" 2>/tmp/hi.err) ||
		fail "connect without /etc/nvme ($1): $_o $(cat /tmp/hi.err)"
	grep -q "not persistent" /tmp/hi.err && fail "a DMI identity is called not persistent: $(cat /tmp/hi.err)"
	_c=$(echo "$_o" | head -n 1)
	[ "$(cat "/sys/class/rblk/$_c/hostnqn")" = "$dmi_hn" ] &&
		[ "$(cat "/sys/class/rblk/$_c/hostid")" = "$dmi" ] ||
		fail "$1: $_c is $(cat "/sys/class/rblk/$_c/hostnqn") / $(cat "/sys/class/rblk/$_c/hostid"), want $dmi_hn / $dmi"
	must nvmecfg disconnect "$_c"
}
same_host "first load"
rblk_unload
rblk_load
same_host "second load"
log "without /etc/nvme: $dmi_hn (DMI) on both module loads"
mod_hn=$(cat /sys/module/rblk/parameters/hostnqn)

# --- neither /etc/nvme nor a machine UUID (nvmecfg's test root, an empty
# directory, stands for such a machine): the module's identity ---
# (The module's parameters stay where they are; messages name the root's
# paths.)
mkdir -p /tmp/hi-nodmi/sys && ln -sf /sys/module /tmp/hi-nodmi/sys/module &&
	ln -sf /proc /tmp/hi-nodmi/proc || fail "cannot make /tmp/hi-nodmi"
export NVMECFG_TEST_ROOT=/tmp/hi-nodmi
show=$(nvmecfg show -o json) || fail "nvmecfg show failed: $show"
printf '%s\n' "$show" | jq -e --arg hn "$mod_hn" \
	'.hostnqn == $hn and .hostnqn_source == "module"' >/dev/null ||
	fail "nvmecfg show without /etc/nvme does not report the module's identity: $show"
refused "the module's generated host NQN"
# Said once, on stderr: the identity will not survive a reload.
printf '%s\n' "$err" | grep -q "not persistent" ||
	fail "no warning that the module's host NQN is not persistent: $err"
printf '%s\n' "$err" | grep -q "nvmecfg gen-hostnqn > \(/tmp/hi-nodmi\)\?/etc/nvme/hostnqn" ||
	fail "the warning does not say how to persist an identity: $err"
connect -q "$HN"
[ "$rc" -eq 0 ] || fail "connect -q $HN without /etc/nvme refused: $out"
[ "$(ctrl_attr hostid)" = "$HI" ] || fail "-q $HN: hostid $(ctrl_attr hostid), want its UUID $HI"
rblk_disconnect "/dev/$(echo "$out" | sed -n 2p)"
[ "$(cat /sys/module/rblk/parameters/hostnqn)" = "$mod_hn" ] || fail "module hostnqn changed"

# The hostnqn module parameter: its UUID is the module's host ID.
rblk_unload
rblk_load hostnqn="$HN"
[ "$(cat /sys/module/rblk/parameters/hostid)" = "$HI" ] ||
	fail "hostnqn=$HN: module hostid $(cat /sys/module/rblk/parameters/hostid), want $HI"
connect
[ "$rc" -eq 0 ] || fail "connect with the hostnqn module parameter refused: $out"
[ "$(ctrl_attr hostnqn)" = "$HN" ] || fail "hostnqn $(ctrl_attr hostnqn), want the parameter's"
rblk_disconnect "/dev/$(echo "$out" | sed -n 2p)"
unset NVMECFG_TEST_ROOT
# A malformed parameter fails the load, naming it.
rblk_unload
insmod "$RBLK_KO" hostid=not-a-uuid 2>/dev/null && fail "insmod hostid=not-a-uuid succeeded"
dmesg | grep -q "hostid=not-a-uuid is not a UUID" || fail "no message for a bad hostid parameter"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

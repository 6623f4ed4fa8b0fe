#!/bin/sh
# Installed, rblk is loaded by the first nvmecfg command (the family's
# module alias).  When it cannot be loaded (here: the kernel's modprobe
# helper made to fail, as on a machine without it installed), nvmecfg says
# so and how to load it, exits 3, whatever the command, and prints nothing
# on stdout; usage errors are still found first (exit 2).  Loading the
# module makes the same commands work, in the initial network namespace:
# in another one nvmecfg says why the family is missing.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v nvmecfg >/dev/null || fail "nvmecfg missing from the guest"
MODPROBE=$(cat /proc/sys/kernel/modprobe)
trap 'echo "$MODPROBE" > /proc/sys/kernel/modprobe' EXIT
rblk_unload
[ -d /sys/module/rblk ] && fail "rblk still loaded"

# --- installed: the family lookup loads it ---
modinfo rblk >/dev/null 2>&1 || fail "rblk is not installed in the guest's module tree"
out=$(nvmecfg list 2>&1) || fail "nvmecfg list did not load rblk: $out"
[ -d /sys/module/rblk ] || fail "nvmecfg list worked but rblk is not loaded"
log "nvmecfg list loaded rblk"
rblk_unload

# --- not loadable ---
echo /bin/false > /proc/sys/kernel/modprobe

# missing ARGS...: nvmecfg ARGS exits 3 with the message, stdout empty.
missing() {
	_rc=0
	_err=$(nvmecfg "$@" 2>&1 >/tmp/nl_missing.out) || _rc=$?
	[ "$_rc" -eq 3 ] || fail "nvmecfg $*: exit $_rc, want 3 ($_err)"
	printf '%s\n' "$_err" | grep -q '^nvmecfg: rblk module not loaded' ||
		fail "nvmecfg $*: message '$_err'"
	printf '%s\n' "$_err" | grep -q 'modprobe rblk' ||
		fail "nvmecfg $*: message does not say how to load rblk: '$_err'"
	[ -s /tmp/nl_missing.out ] && fail "nvmecfg $*: printed on stdout"
	log "ok: nvmecfg $*: $_err"
}

missing list
missing list -o json
missing show rblk0
missing stats rblk0
missing disconnect rblk0
missing monitor --timeout 1
missing discover -a "$RBLK_TRADDR"
missing connect -a "$RBLK_TRADDR" -n "$RBLK_NQN"
rm -f /tmp/nl_missing.out

rc=0
nvmecfg connect -a "$RBLK_TRADDR" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "usage error without the module: exit $rc, want 2"

# The load failed: asking for the family did not half-load anything.
[ -d /sys/module/rblk ] && fail "rblk loaded although modprobe fails"
echo "$MODPROBE" > /proc/sys/kernel/modprobe

rblk_load
out=$(nvmecfg list 2>&1) || fail "nvmecfg list with rblk loaded: $out"
[ -z "$out" ] || fail "nvmecfg list printed '$out' with no devices"

# Another network namespace: the family is the initial one's only.
# nvmecfg says so (exit 3) rather than "not loaded", for list-subsys
# too (netlink, as every command about the kernel's objects); show without
# a device needs no netlink and still works.
if ip netns add rblk_nl_missing 2>/dev/null; then
	rc=0
	err=$(ip netns exec rblk_nl_missing nvmecfg list 2>&1) || rc=$?
	[ "$rc" -eq 3 ] || fail "list in another netns: exit $rc, want 3 ($err)"
	printf '%s\n' "$err" | grep -q 'loaded, but its "rblk" generic netlink family serves only the initial network namespace, not this one' ||
		fail "list in another netns: message '$err'"
	log "ok: another netns: $(printf '%s\n' "$err" | head -n 1)"
	rc=0
	err=$(ip netns exec rblk_nl_missing nvmecfg list-subsys 2>&1) || rc=$?
	[ "$rc" -eq 3 ] && printf '%s\n' "$err" | grep -q 'serves only the initial network namespace' ||
		fail "list-subsys in another netns: exit $rc, want 3 ($err)"
	ip netns exec rblk_nl_missing nvmecfg show >/dev/null ||
		fail "show (the host identity) in another netns failed"
	ip netns del rblk_nl_missing
else
	log "no ip netns: the network namespace check is skipped"
fi
rblk_unload
# And after an rmmod, the next command loads it again.
out=$(nvmecfg list 2>&1) || fail "nvmecfg list after rmmod: $out"
[ -d /sys/module/rblk ] || fail "nvmecfg list after rmmod did not load rblk"
rblk_unload
exit 0

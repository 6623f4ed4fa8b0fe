#!/bin/sh
# Without rblk loaded, nvmecfg says so and exits 3, whatever the command,
# and prints nothing on stdout; usage errors are still found first (exit 2).
# Loading the module makes the same commands work.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v nvmecfg >/dev/null || fail "nvmecfg missing from the guest"
rblk_unload
[ -d /sys/module/rblk ] && fail "rblk still loaded"

# missing ARGS...: nvmecfg ARGS exits 3 with the message, stdout empty.
missing() {
	_rc=0
	_err=$(nvmecfg "$@" 2>&1 >/tmp/nl_missing.out) || _rc=$?
	[ "$_rc" -eq 3 ] || fail "nvmecfg $*: exit $_rc, want 3 ($_err)"
	printf '%s\n' "$_err" | grep -q '^nvmecfg: rblk module not loaded' ||
		fail "nvmecfg $*: message '$_err'"
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

# No autoloading: asking for the family must not have loaded the module.
[ -d /sys/module/rblk ] && fail "a family lookup loaded rblk"

rblk_load
out=$(nvmecfg list 2>&1) || fail "nvmecfg list with rblk loaded: $out"
[ -z "$out" ] || fail "nvmecfg list printed '$out' with no devices"
rblk_unload
rc=0
nvmecfg list >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 3 ] || fail "after rmmod: exit $rc, want 3"
exit 0

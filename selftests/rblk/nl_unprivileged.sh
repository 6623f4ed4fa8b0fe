#!/bin/sh
# Without CAP_NET_ADMIN, nvmecfg may look but not touch: connect, discover,
# disconnect and stats --reset exit 4 (EPERM from GENL_ADMIN_PERM) and
# change nothing; list, show, stats and monitor work.  CAP_NET_ADMIN alone
# is not enough either: creating and removing devices needs CAP_SYS_ADMIN,
# as /dev/nvme-fabrics does.
# rblk-timeout: 180
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

USER_NAME=rblktest
USER_UID=4242
NVMECFG=$(command -v nvmecfg) || fail "nvmecfg missing from the guest"
command -v su >/dev/null || skip "no su in the guest to drop privileges"
dev=

cleanup() {
	[ -n "$dev" ] && [ -e "/sys/block/${dev##*/}" ] && nvmecfg disconnect --force "${dev##*/}"
	rblk_unload
	sed -i "/^$USER_NAME:/d" /etc/passwd /etc/group 2>/dev/null
}
trap cleanup EXIT

# A throwaway user: the guest's /etc/passwd only knows root.
grep -q "^$USER_NAME:" /etc/passwd ||
	echo "$USER_NAME:x:$USER_UID:$USER_UID:rblk test:/tmp:/bin/sh" >> /etc/passwd
grep -q "^$USER_NAME:" /etc/group || echo "$USER_NAME:x:$USER_UID:" >> /etc/group

# as_user CMD ARGS...: run CMD as $USER_NAME, keeping the environment and
# the exit status. "--": su must not take CMD's options for its own.
as_user() {
	# shellcheck disable=SC2016 # expanded by the user's shell
	su -p -s /bin/sh -c 'exec "$0" "$@"' -- "$USER_NAME" "$@"
}

[ "$(as_user id -u)" = "$USER_UID" ] || fail "cannot run commands as uid $USER_UID"

# expect WHAT RC PATTERN ARGS...: nvmecfg ARGS, unprivileged.
expect() {
	_what=$1 _rc=$2 _pat=$3
	shift 3
	_got=0
	_out=$(as_user "$NVMECFG" "$@" 2>&1) || _got=$?
	printf '%s\n' "$_out"
	[ "$_got" -eq "$_rc" ] || fail "$_what: exit $_got, want $_rc"
	printf '%s\n' "$_out" | grep -qE -- "$_pat" || fail "$_what: output lacks '$_pat'"
	log "ok $_what"
}

rblk_load
EPERM='permission denied'

expect "connect" 4 "^nvmecfg: connect: $EPERM" \
	connect -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" -N "$RBLK_NSID_NULL"
for d in /sys/block/rblk*; do
	[ -e "$d" ] && fail "an unprivileged connect created $d"
done
expect "discover" 4 "^nvmecfg: discover: $EPERM" \
	discover -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID"
# The permission check comes before the lookup.
expect "disconnect" 4 "^nvmecfg: disconnect: $EPERM" disconnect rblk0
expect "reset" 4 "^nvmecfg: stats: $EPERM" stats rblk0 --reset
expect "list" 0 '' list
expect "list json" 0 '"controllers": \[\]' list -o json
expect "monitor" 0 '' monitor --timeout 1
# Usage errors stay usage errors.
expect "usage" 2 'missing required option' connect -a "$RBLK_TRADDR"

# With a device there: readable, not removable.
dev=$(rblk_connect "$RBLK_NSID_NULL") || exit 1
name=${dev##*/}
ctrl=$(rblk_ctrl_of "$dev")
expect "show" 0 "^$ctrl: live" show "$name"
expect "show controller" 0 "^  $name:" show "$ctrl"
expect "stats" 0 "^$name:" stats "$name"
expect "stats controller" 0 "^$ctrl:" stats "$ctrl"
expect "list with a device" 0 "^  $name " list
expect "disconnect a controller" 4 "^nvmecfg: disconnect: $EPERM" disconnect "$ctrl"
expect "disconnect a device" 4 "^nvmecfg: disconnect: $EPERM" disconnect --force "$name"
# Without --force a namespace's name is refused first (listing needs no
# privilege), naming its controller.
expect "disconnect a device without --force" 2 \
	"^nvmecfg: disconnect: $name is a namespace of $ctrl; " disconnect "$name"
expect "reset a device" 4 "$EPERM" stats "$name" --reset
[ -b "$dev" ] || fail "$dev vanished after an unprivileged disconnect"
[ "$(rblk_attr "$dev" state)" = live ] || fail "$dev is not live any more"

# Root without CAP_SYS_ADMIN (CAP_NET_ADMIN kept): refused, with the reason.
command -v setpriv >/dev/null || fail "setpriv missing from the guest"
no_sys_admin() {
	_what=$1; shift
	_rc=0
	_out=$(setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- "$NVMECFG" "$@" 2>&1) || _rc=$?
	printf '%s\n' "$_out"
	[ "$_rc" -eq 4 ] || fail "$_what without CAP_SYS_ADMIN: exit $_rc, want 4"
	printf '%s\n' "$_out" | grep -q "CAP_SYS_ADMIN" ||
		fail "$_what without CAP_SYS_ADMIN: message does not name it"
	log "ok $_what without CAP_SYS_ADMIN"
}
no_sys_admin "connect" connect -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN" -D
no_sys_admin "discover" discover -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID"
no_sys_admin "disconnect" disconnect "$ctrl"
no_sys_admin "reset" stats "$name" --reset
[ "$(ls -d /sys/class/rblk/rblk-ctrl* | wc -l)" -eq 1 ] || fail "a refused connect made a controller"
[ -b "$dev" ] || fail "$dev vanished after a disconnect without CAP_SYS_ADMIN"
out=$(setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- "$NVMECFG" show "$ctrl" 2>&1) ||
	fail "show without CAP_SYS_ADMIN: $out"

rblk_disconnect "$dev"
dev=
exit 0

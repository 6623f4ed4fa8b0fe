#!/bin/sh
# NVMe passthrough (issue 30): nvme-cli on rblk's /dev/rblk-ctrlM and
# /dev/rblkN, against nvme-cli on nvme-rdma's /dev/nvmeX and /dev/nvmeXnY
# for the same subsystem in the same boot:
#  - id-ctrl prints the same fields (but cntlid), id-ns the same namespace
#    data, get-log of the effects log and get-feature -f 7 the same;
#    smart-log and error-log work; ana-log and smartctl -d nvme -a (on the
#    controller and the namespace) print what they print on nvme-rdma's;
#  - nvme write and read (NVME_IOCTL_IO_CMD) and NVME_IOCTL_SUBMIT_IO move
#    data that reads back through the block device and is in the target's
#    file;
#  - nvme reset returns with the controller live again, reconnected once,
#    at once (well within reconnect_delay, as nvme-rdma's reset);
#    ns-rescan is taken; subsystem-reset is refused;
#  - without CAP_SYS_ADMIN: Identify and a read on the namespace are let
#    through, a log page and reset are not (EACCES);
#  - a Format NVM (which nvmet refuses) is surrounded by the freeze and
#    rescan and leaves the devices working;
#  - malformed commands (Fabrics opcode, flags, metadata, another nsid,
#    lengths above MDTS) get errors, and a fuzz of the ioctl structures
#    returns every call, splat-free (run.sh checks the kernel log).
# Taking the subsystem off its port makes newer nvmet drop the port's
# controllers, which sets off nvmet's known lockdep report: a port test.
# rblk-timeout: 300
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

USER_NAME=rblkpt
USER_UID=4243
T=/tmp/passthru

cleanup() {
	nvme disconnect -n "$RBLK_NQN" >/dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	rblk_unload 2>/dev/null
	sed -i "/^$USER_NAME:/d" /etc/passwd /etc/group 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
mkdir -p "$T"
command -v nvme > /dev/null || skip "no nvme-cli in the guest"
command -v passthru_fuzz > /dev/null || fail "passthru_fuzz missing from the guest"

rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE" -c 3) || exit 1
ctrl=$(rblk_ctrl_of "$dev") || fail "no controller for $dev"
cdev=/dev/$ctrl
wait_for_path "$cdev" 10 -c || fail "$cdev is no character device"
[ "$(stat -c %a "$cdev")" = 600 ] || fail "$cdev mode $(stat -c %a "$cdev"), expected 600 (root only)"

must modprobe nvme-rdma
must nvme connect -t rdma -a "$RBLK_TRADDR" -s "$RBLK_TRSVCID" -n "$RBLK_NQN"
ndev=$(nvme_wait_ns_dev "$RBLK_NQN" "$RBLK_NSID_FILE") || fail "nvme-rdma did not connect"
nctrl=/dev/$(basename "$(readlink -f "/sys/block/${ndev##*/}/device")")
case $nctrl in /dev/nvme[0-9]*) ;; *)
	# Native multipath: the head's device is the subsystem's.
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn")" = "$RBLK_NQN" ] &&
			[ "$(cat "$c/transport")" = rdma ] && { nctrl=/dev/${c##*/}; break; }
	done ;;
esac
[ -c "$nctrl" ] || fail "no nvme-rdma controller device ($nctrl)"
log "rblk: $cdev $dev; nvme-rdma: $nctrl $ndev"

# --- the same answers as nvme-rdma's ---
# same WHAT CMD...: the command's output on rblk's device (RBLK) and on
# nvme-rdma's (NVME), lines matching DROP removed, must be equal.
same() {
	_what=$1 _rblk=$2 _nvme=$3 _drop=$4
	# shellcheck disable=SC2086
	nvme $_what $_rblk > "$T/r" 2>&1 || fail "nvme $_what $_rblk: $(cat "$T/r")"
	# shellcheck disable=SC2086
	nvme $_what $_nvme > "$T/n" 2>&1 || fail "nvme $_what $_nvme: $(cat "$T/n")"
	grep -vE "$_drop" "$T/r" > "$T/r2"
	grep -vE "$_drop" "$T/n" > "$T/n2"
	[ -s "$T/r2" ] || fail "nvme $_what $_rblk printed nothing"
	_d=$(diff "$T/n2" "$T/r2") || fail "nvme $_what differs from nvme-rdma's: $_d"
}
same id-ctrl "$cdev" "$nctrl" '^cntlid'
same id-ns "$dev" "$ndev" '^$'
# The Commands Supported and Effects log, as a hex dump (nvme-cli's effects-log
# prints only for devices it finds in /sys/class/nvme).
same "get-log -i 5 -l 4096" "$cdev" "$nctrl" '^$|^Device:'
same "get-feature -f 7" "$cdev" "$nctrl" '^$'
log "id-ctrl, id-ns, effects log, get-feature -f 7: as nvme-rdma's"
nvme smart-log "$cdev" > "$T/s" 2>&1 || fail "smart-log: $(cat "$T/s")"
grep -q critical_warning "$T/s" || fail "smart-log printed no critical_warning: $(cat "$T/s")"
nvme error-log "$cdev" -e 4 > "$T/e" 2>&1 || fail "error-log: $(cat "$T/e")"
# The ANA log (nvmet has every port in group 1): the same as nvme-rdma's.
same ana-log "$cdev" "$nctrl" '^$|^Asymmetric Namespace Access Log for'
grep -qi 'state.*optimized' "$T/r" ||
	fail "ana-log shows no optimized group: $(cat "$T/r")"
log "ana-log: as nvme-rdma's"

# smartctl -d nvme (what monitoring builds on): the same report as on
# nvme-rdma's devices, but for the device names, the time and the cntlid.
if command -v smartctl > /dev/null; then
	for pair in "$cdev $nctrl" "$dev $ndev"; do
		# shellcheck disable=SC2086
		set -- $pair
		for d in "$1" "$2"; do
			smartctl -d nvme -j -a "$d" > "$T/sm" 2>&1
			rc=$?
			[ $((rc & 7)) -eq 0 ] || fail "smartctl -a $d: exit $rc: $(cat "$T/sm")"
			jq -S 'del(.smartctl, .local_time, .device, .nvme_controller_id)' "$T/sm" > "$T/sm.${d##*/}" ||
				fail "smartctl -j $d: no JSON: $(cat "$T/sm")"
		done
		jq -e '.model_name and .serial_number and .nvme_smart_health_information_log' "$T/sm.${1##*/}" > /dev/null ||
			fail "smartctl $1: no model, serial or health log: $(cat "$T/sm.${1##*/}")"
		_d=$(diff "$T/sm.${2##*/}" "$T/sm.${1##*/}") || fail "smartctl -a $1 differs from $2's: $_d"
	done
	log "smartctl -d nvme -a on $cdev and $dev: as on $nctrl and $ndev"
else
	fail "no smartctl in the guest"
fi
nvme id-ctrl "$dev" > "$T/r" 2>&1 || fail "id-ctrl on the block device: $(cat "$T/r")"
[ "$(nvme id-ns "$cdev" -n "$RBLK_NSID_FILE" | md5sum)" = "$(nvme id-ns "$dev" | md5sum)" ] ||
	fail "id-ns through $cdev -n $RBLK_NSID_FILE differs from $dev's"

# --- data ---
bs=$(blockdev --getss "$dev")
pattern_file "$T/p" 65536
nb=$((65536 / bs))
slba=$((1048576 / bs))
nvme write "$dev" -s "$slba" -c $((nb - 1)) -z 65536 -d "$T/p" > "$T/w" 2>&1 ||
	fail "nvme write: $(cat "$T/w")"
read_direct "$dev" 1048576 65536 "$T/g"
assert_same "$T/p" "$T/g" "nvme write, read through $dev"
read_region "$RBLK_BACKING" 1048576 65536 "$T/g"
assert_same "$T/p" "$T/g" "nvme write, on the target"
nvme read "$dev" -s "$slba" -c $((nb - 1)) -z 65536 -d "$T/g" > "$T/w" 2>&1 ||
	fail "nvme read: $(cat "$T/w")"
assert_same "$T/p" "$T/g" "nvme read"
pattern_file "$T/p2" 65536
passthru_fuzz --submit-io write "$dev" $((slba * 2)) "$nb" "$bs" "$T/p2" ||
	fail "NVME_IOCTL_SUBMIT_IO write failed"
read_region "$RBLK_BACKING" 2097152 65536 "$T/g"
assert_same "$T/p2" "$T/g" "SUBMIT_IO write, on the target"
passthru_fuzz --submit-io read "$dev" $((slba * 2)) "$nb" "$bs" "$T/g" ||
	fail "NVME_IOCTL_SUBMIT_IO read failed"
assert_same "$T/p2" "$T/g" "SUBMIT_IO read"
log "nvme write/read and SUBMIT_IO: data on the target and read back"

# --- controller ioctls ---
before=$(cat "/sys/class/rblk/$ctrl/reconnects")
t0=$(uptime_ms)
timeout 60 nvme reset "$cdev" > "$T/w" 2>&1 || fail "nvme reset: $(cat "$T/w")"
[ "$(cat "/sys/class/rblk/$ctrl/state")" = live ] ||
	fail "state $(cat "/sys/class/rblk/$ctrl/state") when nvme reset returned"
[ "$(cat "/sys/class/rblk/$ctrl/reconnects")" -eq $((before + 1)) ] ||
	fail "reconnects $(cat "/sys/class/rblk/$ctrl/reconnects") after one reset, was $before"
ms=$(($(uptime_ms) - t0))
delay=$(cat "/sys/class/rblk/$ctrl/reconnect_delay")
[ "$ms" -lt $((delay * 1000)) ] ||
	fail "nvme reset took $ms ms: not within reconnect_delay ($delay s)"
log "nvme reset: live again after $ms ms"
nvme ns-rescan "$cdev" > "$T/w" 2>&1 || fail "nvme ns-rescan: $(cat "$T/w")"
# The target gone: the reset's reconnect fails (ENETRESET, as nvme's), and
# a reset while not live is refused (EBUSY); back once it returns.
trap 'nvmet_relink; cleanup' EXIT
nvmet_unlink
# 6.12's nvmet drops the port's controllers itself when the subsystem
# leaves it (then the reset is refused below); 6.1's keeps them.
not_live() { [ "$(cat "/sys/class/rblk/$ctrl/state")" != live ]; }
if wait_until 2 not_live; then
	log "the target dropped the controller at the unlink"
else
	nvme reset "$cdev" > "$T/w" 2>&1 && fail "nvme reset with the target gone succeeded"
	grep -q "Network dropped connection on reset" "$T/w" ||
		fail "nvme reset, target gone: $(cat "$T/w")"
fi
wait_until 10 sh -c "[ \"\$(cat /sys/class/rblk/$ctrl/state)\" = connecting ]" ||
	fail "state $(cat "/sys/class/rblk/$ctrl/state") after a failed reset"
nvme reset "$cdev" > "$T/w" 2>&1 && fail "nvme reset while connecting succeeded"
grep -q "busy" "$T/w" || fail "nvme reset while connecting: $(cat "$T/w")"
nvmet_relink
rblk_wait_state "$dev" live 30 || fail "not live again after the target returned"
nvme subsystem-reset "$cdev" > "$T/w" 2>&1 && fail "subsystem-reset was taken"
read_direct "$dev" 1048576 65536 "$T/g"
assert_same "$T/p" "$T/g" "read after reset and rescan"

# --- without CAP_SYS_ADMIN ---
if command -v su > /dev/null; then
	grep -q "^$USER_NAME:" /etc/passwd ||
		echo "$USER_NAME:x:$USER_UID:$USER_UID::/tmp:/bin/sh" >> /etc/passwd
	grep -q "^$USER_NAME:" /etc/group || echo "$USER_NAME:x:$USER_UID:" >> /etc/group
	chmod 666 "$cdev" "$dev"
	chmod 777 "$T"
	# "--": su must not take the command's options for its own.
	as_user() {
		# shellcheck disable=SC2016
		su -p -s /bin/sh -c 'exec "$0" "$@"' -- "$USER_NAME" "$@" > "$T/u" 2>&1
	}
	as_user nvme id-ctrl "$cdev" || fail "unprivileged id-ctrl refused: $(cat "$T/u")"
	as_user nvme smart-log "$cdev" && fail "unprivileged smart-log taken"
	grep -q "Permission denied" "$T/u" || fail "unprivileged smart-log: $(cat "$T/u")"
	as_user nvme reset "$cdev" && fail "unprivileged reset taken"
	grep -q "Permission denied" "$T/u" || fail "unprivileged reset: $(cat "$T/u")"
	as_user nvme read "$dev" -s "$slba" -c $((nb - 1)) -z 65536 -d "$T/ug" ||
		fail "unprivileged read of the namespace refused: $(cat "$T/u")"
	assert_same "$T/p" "$T/ug" "unprivileged nvme read"
	as_user passthru_fuzz --submit-io write "$cdev" 0 1 "$bs" "$T/p" &&
		fail "SUBMIT_IO on the controller device taken"
	chmod 600 "$cdev" "$dev"
	log "unprivileged: identify and read let through; log page, reset refused"
else
	fail "no su in the guest to drop privileges"
fi

# --- Format NVM: freeze, command (refused by nvmet), rescan ---
nvme format "$cdev" -n "$RBLK_NSID_FILE" -l 0 --force > "$T/f" 2>&1 &&
	fail "nvmet took Format NVM: $(cat "$T/f")"
grep -q "NVMe status" "$T/f" || fail "format failed without an NVMe status: $(cat "$T/f")"
read_direct "$dev" 1048576 65536 "$T/g"
assert_same "$T/p" "$T/g" "read after a refused Format NVM"
write_direct "$T/p2" "$dev" 1048576
read_region "$RBLK_BACKING" 1048576 65536 "$T/g"
assert_same "$T/p2" "$T/g" "write after a refused Format NVM"
log "format: refused by the target with a status, I/O goes on"

# --- malformed ---
# bad WHAT ERRNO CMD...: the ioctl fails with ERRNO's message (not an
# nvme-cli usage error: the command reached the kernel).
bad() {
	_what=$1 _msg=$2; shift 2
	"$@" > "$T/b" 2>&1 && fail "$_what was taken: $(cat "$T/b")"
	grep -q "$_msg" "$T/b" || fail "$_what: expected '$_msg', got: $(cat "$T/b")"
}
bad "Fabrics opcode" "Invalid argument" \
	nvme admin-passthru "$cdev" --opcode=0x7f
bad "flags" "Invalid argument" \
	nvme admin-passthru "$cdev" --opcode=0x06 --flags=1 --cdw10=1 --data-len=4096 -r
bad "metadata" "Invalid argument" \
	nvme admin-passthru "$cdev" --opcode=0x06 --cdw10=1 --data-len=4096 --metadata-len=64 -r
bad "another nsid" "Invalid argument" \
	nvme io-passthru "$dev" --opcode=0x02 --namespace-id=1 --data-len=4096 -r
bad "8 MiB above MDTS" "Invalid argument" \
	nvme admin-passthru "$cdev" --opcode=0x06 --cdw10=1 --data-len=8388608 -r
nvme admin-passthru "$cdev" --opcode=0x06 --cdw10=1 --data-len=4096 -r > "$T/b" 2>&1 ||
	fail "a well-formed Identify through admin-passthru failed: $(cat "$T/b")"
out=$(passthru_fuzz "$cdev" 2000 1) || fail "passthru_fuzz on $cdev: $out"
log "fuzz $cdev: $out"
out=$(passthru_fuzz "$dev" 2000 2) || fail "passthru_fuzz on $dev: $out"
log "fuzz $dev: $out"
[ "$(cat "/sys/class/rblk/$ctrl/state")" = live ] || fail "not live after the fuzz"
read_direct "$dev" 1048576 65536 "$T/g"
assert_same "$T/p2" "$T/g" "data after the fuzz"

# --- nvme's controller attributes, nvmecfg's reset and ns-rescan ---
cd_=/sys/class/rblk/$ctrl
[ "$(cat "$cd_/address")" = "traddr=$RBLK_TRADDR,trsvcid=$RBLK_TRSVCID" ] ||
	fail "address '$(cat "$cd_/address")'"
[ "$(cat "$cd_/address")" = "$(cat "/sys/class/nvme/${nctrl#/dev/}/address")" ] ||
	fail "address '$(cat "$cd_/address")', nvme-rdma's '$(cat "/sys/class/nvme/${nctrl#/dev/}/address")'"
[ "$(cat "$cd_/numa_node")" = "$(cat "/sys/class/nvme/${nctrl#/dev/}/numa_node")" ] ||
	fail "numa_node $(cat "$cd_/numa_node"), nvme-rdma's $(cat "/sys/class/nvme/${nctrl#/dev/}/numa_node")"
[ "$(cat "$cd_/sqsize")" -eq $(($(cat "$cd_/queue_size") - 1)) ] || fail "sqsize $(cat "$cd_/sqsize")"
[ "$(cat "$cd_/queue_count")" -eq $(($(cat "$cd_/nr_io_queues") + 1)) ] ||
	fail "queue_count $(cat "$cd_/queue_count")"
before=$(cat "$cd_/reconnects")
must nvmecfg reset "$ctrl"
if [ "$(cat "$cd_/state")" != live ] || [ "$(cat "$cd_/reconnects")" -ne $((before + 1)) ]; then
	fail "nvmecfg reset: state $(cat "$cd_/state"), reconnects $(cat "$cd_/reconnects") (was $before)"
fi
must nvmecfg ns-rescan "${dev#/dev/}"
echo 1 > "$cd_/rescan_controller" || fail "rescan_controller refused"

# Disconnect (nvme's delete_controller) with the character device open.
exec 3< "$cdev"
echo 1 > "$cd_/delete_controller" || fail "delete_controller refused"
wait_for_path "$cd_" 30 ! || fail "$ctrl still present 30 s after delete_controller, $cdev open"
exec 3<&-
log "address, numa_node, sqsize, queue_count as nvme's; nvmecfg reset and ns-rescan; delete_controller with $cdev open"
exit 0

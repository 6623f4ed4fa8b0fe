#!/bin/sh
# `make soak`: a seeded fault soak (Documentation/testing.rst, "Soak").
#
# One subsystem, its three namespaces on two nvmet ports; the host under
# test connects over both with its default parameters.  Verifying I/O runs
# on every namespace for RBLK_SOAK_MINUTES while a fault schedule drawn
# from RBLK_SOAK_SEED plays against it: a port's subsystem unlinked and
# linked again (shorter and longer than the keep-alive timeout), an ANA
# group inaccessible, non-optimized or in change, controller resets (sysfs
# and nvmecfg), a path disconnected and connected again, the RDMA device
# removed and added again, a namespace added and removed on the target,
# the file namespace grown on the target, iopolicy changes; overlapping,
# never both paths disconnected at once.
# No fault outlasts the reconnect limits, so the invariants are: no I/O
# error, no data mismatch (fio's crc32c, then the device against the
# target's backing file), a clean filesystem, every controller live again
# at the end, the devices and the module gone on request, no splat, no
# hung task.  Then nvme-rdma (its defaults) meets the same schedule in the
# same boot, for reference: its result is reported, never the soak's.
#
# The seed and the schedule are printed first; the same seed replays the
# same schedule (timings may shift by the time an action takes).
# rblk-timeout: 600
# rblk-lockdep: port-disable
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

MINUTES=${RBLK_SOAK_MINUTES:-5}
SEED=${RBLK_SOAK_SEED:-}
REF=${RBLK_SOAK_REF:-1}
case $MINUTES in ''|*[!0-9]*|0) fail "RBLK_SOAK_MINUTES=$MINUTES: a whole number of minutes, at least 1" ;; esac
case $SEED in ''|random) SEED=$(($(od -An -N4 -tu4 /dev/urandom) % 1000000)) ;; esac
case $SEED in *[!0-9]*) fail "RBLK_SOAK_SEED=$SEED: a number" ;; esac
SECS=$((MINUTES * 60))
PORT1=$RBLK_NVMET_PORT PORT2=$NVMET_PORT2
# shellcheck disable=SC2034 # read through get()
SVC1=$RBLK_TRSVCID SVC2=$NVMET_SVC2
SCHED=/tmp/soak.schedule
NS4_FILE=$(dirname "$RBLK_BACKING")/soak-ns4.img
NS4=$RBLK_NVMET_SUBSYS/namespaces/4
MNT=/mnt/soak

# --- the schedule: a linear congruential generator, so that the shell
# alone replays it from the seed ---
rng=$SEED
# rnd N: R in 0..N-1 (in this shell: never in a $(...) subshell).
rnd() {
	rng=$(((rng * 1103515245 + 12345) % 2147483648))
	R=$(((rng / 65536) % $1))
}

# get NAME: the value of the variable NAME (NAME built from a path number).
get() { eval "echo \"\${$1}\""; }

# One line per event, "SECOND ACTION ARG": a fault's start and its end.
# Per resource, the time its last fault ends (0 if none yet).
gen_schedule() {
	_port1=0 _port2=0 _ana1=0 _ana2=0 _rc1=0 _rc2=0 _rxe=0 _ns4=0 _grown=0
	_t=5
	: > "$SCHED.tmp"
	while :; do
		rnd 4; _t=$((_t + 1 + R))
		rnd 14; _dur=$((2 + R))
		# Every fault ends 20 s before the I/O does.
		[ $((_t + _dur)) -lt $((SECS - 20)) ] || break
		rnd 2; _p=$((R + 1))
		rnd 11
		case $R in
		0|1)	# a port's subsystem away: 2-15 s, past the 5 s keep-alive or not
			_busy=$(get "_port$_p") _rc=$(get "_rc$_p")
			if [ "$_busy" -ge "$_t" ] || [ "$_rxe" -ge "$_t" ]; then continue; fi
			# A reconnect's connect must find its port listening.
			[ "$_rc" -lt "$_t" ] || [ "$_rc" -gt $((_t + _dur + 2)) ] || continue
			echo "$_t port_down $_p" >> "$SCHED.tmp"
			echo "$((_t + _dur)) port_up $_p" >> "$SCHED.tmp"
			eval "_port$_p=$((_t + _dur))" ;;
		2|3)	# an ANA group's state
			[ "$(get "_ana$_p")" -lt "$_t" ] || continue
			rnd 3
			case $R in 0) _st=inaccessible ;; 1) _st=non-optimized ;; *) _st=change ;; esac
			echo "$_t ana_$_st $_p" >> "$SCHED.tmp"
			echo "$((_t + _dur)) ana_optimized $_p" >> "$SCHED.tmp"
			eval "_ana$_p=$((_t + _dur))" ;;
		4|5)	# a reset, through sysfs or nvmecfg
			rnd 2
			echo "$_t reset_$R $_p" >> "$SCHED.tmp" ;;
		6)	# a path disconnected, connected again; never both at once
			_o=$((3 - _p))
			if [ "$(get "_rc$_p")" -ge "$_t" ] || [ "$(get "_rc$_o")" -ge "$_t" ] ||
			   [ "$(get "_port$_p")" -ge "$_t" ] || [ "$_rxe" -ge "$_t" ]; then
				continue
			fi
			echo "$_t disconnect $_p" >> "$SCHED.tmp"
			echo "$((_t + _dur)) connect $_p" >> "$SCHED.tmp"
			eval "_rc$_p=$((_t + _dur))" ;;
		7)	# the RDMA device away: both paths at once, 2-8 s
			_dur=$((2 + _dur / 2))
			if [ "$_rxe" -ge "$_t" ] || [ "$_rc1" -ge "$_t" ] || [ "$_rc2" -ge "$_t" ] ||
			   [ "$_port1" -ge "$_t" ] || [ "$_port2" -ge "$_t" ]; then
				continue
			fi
			echo "$_t rxe_down 0" >> "$SCHED.tmp"
			echo "$((_t + _dur)) rxe_up 0" >> "$SCHED.tmp"
			_rxe=$((_t + _dur)) ;;
		8)	# a namespace the target adds, then removes
			[ "$_ns4" -lt "$_t" ] || continue
			echo "$_t ns_add 4" >> "$SCHED.tmp"
			echo "$((_t + _dur)) ns_del 4" >> "$SCHED.tmp"
			_ns4=$((_t + _dur)) ;;
		9)	rnd 3
			echo "$_t iopolicy $R" >> "$SCHED.tmp" ;;
		10)	# the file namespace grows by 1 MiB (under its writers,
			# past their region), 4 times at most
			[ "$_grown" -lt 4 ] || continue
			_grown=$((_grown + 1))
			echo "$_t grow 2" >> "$SCHED.tmp" ;;
		esac
	done
	# Ends before starts at the same second: a port back before it goes again.
	sort -n -s -k1,1 "$SCHED.tmp" > "$SCHED"
	rm -f "$SCHED.tmp"
}

# --- the hosts: what an action means to each ---
# host_connect P: connect path P (port P); sets CTRL_P.
# host_ctrl_state P, host_reset P HOW, host_disconnect P, host_iopolicy N,
# host_devs: DEV1..DEV3, the namespaces' devices.
rblk_host_connect() {
	_c=$(rblk_connect_port_ctrl "$(get "SVC$1")") || return 1
	eval "CTRL_$1=$_c"
}
rblk_host_ctrl_state() { cat "/sys/class/rblk/$(get "CTRL_$1")/state" 2>/dev/null; }
# A reset of a path that is disconnected by the schedule does nothing.
rblk_host_reset() {
	_c=$(get "CTRL_$1")
	[ -e "/sys/class/rblk/$_c" ] || return 0
	if [ "$2" = 0 ]; then
		echo 1 > "/sys/class/rblk/$_c/reset_controller" 2>/dev/null
	else
		nvmecfg reset "$_c" > /dev/null 2>&1
	fi
}
rblk_host_disconnect() { nvmecfg disconnect "$(get "CTRL_$1")" > /dev/null; }
# policy N: the name of iopolicy N.
policy() {
	case $1 in 0) echo numa ;; 1) echo round-robin ;; *) echo queue-depth ;; esac
}
rblk_host_iopolicy() {
	_pol=$(policy "$1")
	nvmecfg set-iopolicy "$CTRL_1" --iopolicy "$_pol" > /dev/null 2>&1 ||
		nvmecfg set-iopolicy "$CTRL_2" --iopolicy "$_pol" > /dev/null
}
rblk_host_devs() {
	_c=$CTRL_1
	[ -n "$(rblk_ns_dev "$_c" 2)" ] || _c=$CTRL_2
	DEV1=$(rblk_ns_dev "$_c" 1) && DEV2=$(rblk_ns_dev "$_c" 2) && DEV3=$(rblk_ns_dev "$_c" 3)
}
rblk_host_errors() {
	_e=0
	for _d in "$DEV1" "$DEV2" "$DEV3"; do
		_e=$((_e + $(cat "/sys/block/${_d##*/}/rblk/no_path_errors")))
	done
	echo "$_e"
}
rblk_host_teardown() {
	nvmecfg disconnect "$CTRL_1" > /dev/null || fail "disconnect $CTRL_1 failed"
	nvmecfg disconnect "$CTRL_2" > /dev/null || fail "disconnect $CTRL_2 failed"
	for _d in "$DEV1" "$DEV2" "$DEV3"; do
		wait_for_path "/sys/block/${_d##*/}" 20 ! || fail "${_d##*/} still there after both disconnects"
	done
	timeout 60 rmmod rblk || fail "rmmod rblk failed or hung"
}

# nvme-rdma: its controller on port P is the one whose address names it.
nvme_ctrl_on() {
	for _c in /sys/class/nvme/nvme*; do
		[ "$(cat "$_c/subsysnqn" 2>/dev/null)" = "$RBLK_NQN" ] || continue
		case $(cat "$_c/address" 2>/dev/null) in
		*trsvcid=$1*) echo "${_c##*/}"; return 0 ;;
		esac
	done
	return 1
}
nvme_host_connect() {
	_s=$(get "SVC$1")
	nvme connect -t rdma -a "$RBLK_TRADDR" -s "$_s" -n "$RBLK_NQN" > /dev/null || return 1
	_c=$(nvme_ctrl_on "$_s") ||
		{ echo "nvme connect to $_s made no controller: $(ls /sys/class/nvme)" >&2; return 1; }
	eval "CTRL_$1=$_c"
}
nvme_host_ctrl_state() { cat "/sys/class/nvme/$(get "CTRL_$1")/state" 2>/dev/null; }
nvme_host_reset() {
	_c=$(get "CTRL_$1")
	[ -e "/sys/class/nvme/$_c" ] || return 0
	echo 1 > "/sys/class/nvme/$_c/reset_controller" 2>/dev/null
}
nvme_host_disconnect() { nvme disconnect -d "$(get "CTRL_$1")" > /dev/null; }
nvme_host_iopolicy() {
	_pol=$(policy "$1")
	for _s in /sys/class/nvme-subsystem/*; do
		[ "$(cat "$_s/subsysnqn")" = "$RBLK_NQN" ] || continue
		# 6.1 has no queue-depth: round-robin for it.
		echo "$_pol" > "$_s/iopolicy" 2>/dev/null || echo round-robin > "$_s/iopolicy"
	done
}
nvme_host_devs() {
	DEV1=$(nvme_wait_ns_dev "$RBLK_NQN" 1 20) && DEV2=$(nvme_wait_ns_dev "$RBLK_NQN" 2) &&
		DEV3=$(nvme_wait_ns_dev "$RBLK_NQN" 3)
}
nvme_host_errors() { echo 0; }
nvme_host_teardown() {
	nvme disconnect -n "$RBLK_NQN" > /dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	return 0
}

# --- the target's side of the faults ---
port_dir() { if [ "$1" = 1 ]; then echo "$PORT1"; else echo "$PORT2"; fi; }
port_unlink() { rm -f "$(port_dir "$1")/subsystems/$RBLK_NQN"; }
port_link() {
	_d=$(port_dir "$1")
	[ -e "$_d/subsystems/$RBLK_NQN" ] || ln -s "$RBLK_NVMET_SUBSYS" "$_d/subsystems/$RBLK_NQN"
}
rxe_up() {
	rdma link show "$RBLK_RDMA_DEV" > /dev/null 2>&1 ||
		rdma link add "$RBLK_RDMA_DEV" type "$RBLK_RDMA_TYPE" netdev "$RBLK_NETDEV"
	# A port listens on the new device once its subsystem is linked anew
	# (6.1's nvmet-rdma does not do it by itself); a port that is down by
	# the schedule does when it comes back.
	for _p in 1 2; do
		_d=$(port_dir "$_p")
		[ -e "$_d/subsystems/$RBLK_NQN" ] || continue
		port_unlink "$_p"
		port_link "$_p"
	done
}
ns4_add() {
	truncate -s 8M "$NS4_FILE" &&
		mkdir -p "$NS4" && echo "$NS4_FILE" > "$NS4/device_path" &&
		echo 1 > "$NS4/buffered_io" && echo 1 > "$NS4/enable"
}
ns4_del() {
	[ -d "$NS4" ] || return 0
	echo 0 > "$NS4/enable" && rmdir "$NS4" && rm -f "$NS4_FILE"
}

# The file namespace 1 MiB bigger, as the target's admin grows a volume.
ns2_grow() {
	truncate -s $(($(stat -c %s "$RBLK_BACKING") + 1048576)) "$RBLK_BACKING" &&
		echo 1 > "$RBLK_NVMET_SUBSYS/namespaces/$RBLK_NSID_FILE/revalidate_size"
}
NS2_SIZE=$(stat -c %s "$RBLK_BACKING")

# Everything back as set up; for the end of a phase and the cleanup.  The
# file namespace shrinks back past the writers' region.
target_restore() {
	if [ "$(stat -c %s "$RBLK_BACKING")" -ne "$NS2_SIZE" ]; then
		truncate -s "$NS2_SIZE" "$RBLK_BACKING"
		echo 1 > "$RBLK_NVMET_SUBSYS/namespaces/$RBLK_NSID_FILE/revalidate_size"
	fi
	rxe_up 2>/dev/null
	port_link 1 2>/dev/null
	port_link 2 2>/dev/null
	for _p in "$PORT1" "$PORT2"; do
		[ -d "$_p/ana_groups/1" ] && echo optimized > "$_p/ana_groups/1/ana_state" 2>/dev/null
	done
	ns4_del 2>/dev/null
	return 0
}

cleanup() {
	for _p in $PIDS; do kill -9 "$_p" 2>/dev/null; done
	grep -q " $MNT " /proc/mounts && umount -l "$MNT"
	target_restore
	nvme disconnect -n "$RBLK_NQN" > /dev/null 2>&1
	modprobe -r nvme-rdma 2>/dev/null
	# Not rblk_unload: the runner's reset takes what a failure left.
	rblk_loaded && rmmod rblk 2>/dev/null
	nvmet_port2_del
}
trap cleanup EXIT

# act HOST ACTION ARG: one event of the schedule.
act() {
	case $2 in
	port_down)	port_unlink "$3" ;;
	port_up)	port_link "$3" ;;
	ana_*)		nvmet_ana_set "$(port_dir "$3")" "${2#ana_}" ;;
	reset_*)	"$1_host_reset" "$3" "${2#reset_}" ;;
	disconnect)	"$1_host_disconnect" "$3" || fail "$1: disconnect of path $3 failed" ;;
	connect)
		# A port may still be coming back (the RDMA device): retry.
		_try=0
		until "$1_host_connect" "$3" 2> /tmp/soak-connect.err; do
			_try=$((_try + 1))
			[ "$_try" -lt 30 ] ||
				fail "$1: path $3 would not connect again in 30 tries: $(tail -n 3 /tmp/soak-connect.err)"
			sleep 1
		done ;;
	rxe_down)
		# nvme-rdma deletes its controllers with their RDMA device.
		[ "$1" = nvme ] && return 0
		rdma link delete "$RBLK_RDMA_DEV" || fail "cannot delete $RBLK_RDMA_DEV" ;;
	rxe_up)		[ "$1" = nvme ] || rxe_up ;;
	grow)		ns2_grow || fail "cannot grow namespace $RBLK_NSID_FILE on the target" ;;
	ns_add)		ns4_add || fail "cannot add namespace 4 on the target" ;;
	ns_del)		ns4_del || fail "cannot remove namespace 4 on the target" ;;
	iopolicy)	"$1_host_iopolicy" "$3" ;;
	*)		fail "unknown action $2 in the schedule" ;;
	esac
}

# io_start HOST: the checked I/O, for SECS seconds, on every namespace:
# a reader on the null namespace (no data to check), a direct verifying
# writer on the file namespace's first 32 MiB, a buffered one on the next
# 16 MiB, an ext4 filesystem on the 512-byte namespace with a writer that
# fsyncs every write, verified as well.
io_start() {
	PIDS=
	fio --name=read1 --filename="$DEV1" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth=8 --size=64M --time_based --runtime="$SECS" \
		> "/tmp/soak-$1-read1.fio" 2>&1 &
	PIDS="$PIDS $!"
	fio --name=direct2 --filename="$DEV2" --direct=1 --ioengine=libaio --rw=randwrite \
		--bs=4k --iodepth=16 --size=32M --time_based --runtime="$SECS" \
		--verify=crc32c --verify_fatal=1 --verify_backlog=256 \
		> "/tmp/soak-$1-direct2.fio" 2>&1 &
	PIDS="$PIDS $!"
	fio --name=buffered2 --filename="$DEV2" --direct=0 --ioengine=psync --rw=randwrite \
		--bs=4k --offset=32M --size=16M --time_based --runtime="$SECS" --fsync=32 \
		--verify=crc32c --verify_fatal=1 --verify_backlog=128 \
		> "/tmp/soak-$1-buffered2.fio" 2>&1 &
	PIDS="$PIDS $!"
	mkdir -p "$MNT"
	mkfs.ext4 -q -F "$DEV3" > /dev/null 2>&1 || fail "$1: mkfs.ext4 on $DEV3 failed"
	mount -t ext4 "$DEV3" "$MNT" || fail "$1: mount of $DEV3 failed"
	fio --name=fsync3 --directory="$MNT" --ioengine=psync --rw=randwrite --bs=4k \
		--size=8M --time_based --runtime="$SECS" --fsync=1 \
		--verify=crc32c --verify_fatal=1 --verify_backlog=64 \
		> "/tmp/soak-$1-fsync3.fio" 2>&1 &
	PIDS="$PIDS $!"
}

# io_check HOST: the I/O ended without an error; prints what failed and
# returns 1 if anything did.
io_check() {
	_bad=0
	for _p in $PIDS; do
		wait "$_p" || _bad=1
	done
	PIDS=
	for _j in read1 direct2 buffered2 fsync3; do
		_f=/tmp/soak-$1-$_j.fio
		if ! grep -q 'err= 0' "$_f" || grep -qiE 'verify: bad|fio: pid=.*err=' "$_f"; then
			echo "soak: $1: $_j failed; its log:"
			grep -vE '^ *(lat|clat|slat|bw|iops|cpu|IO depths|submit|complete|issued|latency|clat percentiles) ' "$_f" |
				head -n 40 | sed 's/^/    /'
			_bad=1
		fi
	done
	umount "$MNT" || { echo "soak: $1: umount of $DEV3 failed"; _bad=1; }
	_o=$(e2fsck -fn "$DEV3" 2>&1) ||
		{ echo "soak: $1: e2fsck of $DEV3: $(echo "$_o" | tail -n 5)"; _bad=1; }
	return "$_bad"
}

ctrl_live() { [ "$("$1_host_ctrl_state" "$2")" = live ]; }

# phase HOST: the whole schedule against one host; 0 if every invariant
# held, else 1 with the reasons printed.
phase() {
	_h=$1
	"${_h}_host_connect" 1 || fail "$_h: first connect failed"
	"${_h}_host_connect" 2 || fail "$_h: second connect failed"
	"${_h}_host_devs" || fail "$_h: the namespaces' devices did not appear"
	log "$_h: paths $CTRL_1 $CTRL_2, devices $DEV1 $DEV2 $DEV3"
	io_start "$_h"
	_t0=$(date +%s)
	_played=0
	while read -r _at _what _arg; do
		_now=$(($(date +%s) - _t0))
		[ "$_now" -ge "$_at" ] || sleep $((_at - _now))
		echo "soak: $_h: +${_at}s ($(($(date +%s) - _t0))s) $_what $_arg"
		act "$_h" "$_what" "$_arg"
		_played=$((_played + 1))
	done < "$SCHED"
	target_restore
	_ok=0
	for _p in 1 2; do
		wait_until 90 ctrl_live "$_h" "$_p" ||
			{ echo "soak: $_h: path $_p ($(get "CTRL_$_p")) not live 90 s after the last fault: $("${_h}_host_ctrl_state" "$_p")"; _ok=1; }
	done
	io_check "$_h" || _ok=1
	# The direct writer's region, through the device and on the target.
	if ! dd if="$DEV2" of=/tmp/soak-dev.img bs=1M count=32 iflag=direct 2>/dev/null ||
	   ! dd if="$RBLK_BACKING" of=/tmp/soak-store.img bs=1M count=32 2>/dev/null ||
	   ! cmp /tmp/soak-dev.img /tmp/soak-store.img > /dev/null; then
		echo "soak: $_h: $DEV2's first 32 MiB differ from the target's $RBLK_BACKING"
		_ok=1
	fi
	rm -f /tmp/soak-dev.img /tmp/soak-store.img
	_e=$("${_h}_host_errors")
	[ "$_e" -eq 0 ] || { echo "soak: $_h: $_e bios failed for want of a path"; _ok=1; }
	echo "soak: $_h: $_played events played in $(($(date +%s) - _t0)) s"
	"${_h}_host_teardown"
	return "$_ok"
}

gen_schedule
echo "soak: seed $SEED, $MINUTES min per host, $(wc -l < "$SCHED") events (replay: make soak SEED=$SEED SOAK_MINUTES=$MINUTES):"
awk '{ printf "  +%ss %s %s\n", $1, $2, $3 }' "$SCHED"
cp "$SCHED" /tmp/soak-schedule.txt

nvmet_port2_add
[ -d "$PORT2/ana_groups/1" ] || skip "nvmet without ANA groups on its ports"

rblk_load
rblk_ok=0
phase rblk || rblk_ok=1
if [ "$rblk_ok" -eq 0 ]; then
	log "rblk: every invariant held (seed $SEED)"
else
	log "rblk: invariants broken (seed $SEED), above"
fi

if [ "$REF" = 1 ] && nvme_native_mpath; then
	target_restore
	# In a subshell: the reference's own failures end its phase only.
	if (phase nvme); then
		log "nvme-rdma (reference): every invariant held under the same schedule"
	else
		log "nvme-rdma (reference): invariants broken under the same schedule, above"
	fi
elif [ "$REF" = 1 ]; then
	log "no nvme-rdma reference: nvme_core without native multipath"
fi
[ "$rblk_ok" -eq 0 ] || fail "rblk broke the soak's invariants (seed $SEED)"
exit 0

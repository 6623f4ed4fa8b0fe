#!/bin/sh
# /init of the rblk test guest (QEMU, booted by scripts/vm-run.sh).
#
# Brings up a loopback NVMe-oF/RDMA fabric entirely inside the guest (Soft-RoCE
# rdma_rxe on a dummy netdev, nvmet-rdma target via configfs), records its
# parameters in /etc/rblk-test.env, runs the selected selftests and powers off.
# The guest has no network device but the dummy one: nothing leaves it.
#
# Kernel command line: rblktest.mode=check (selftests) or NAME (runs selftests/NAME.sh,
#                      e.g. demo)   rblktest.tests=a,b,c (empty: all)
#                      rblktest.timeout=SECS (per-test timeout)
#                      rblktest.rdma=rxe|siw (the fabric: Soft-RoCE, the
#                      default, or Soft-iWARP where the kernel has it)
# Results go, as KTAP, to the console and to /dev/ttyS1 (read by the host).
# This script is pid 1: it must never exit, or the kernel panics.

export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root

TRADDR=10.99.0.1
TRSVCID=4420
NQN=nqn.2026-12.io.rblk:test
NETDEV=rxe0d
RDMA_DEV=rxe0
BACKING_DIR=/var/lib/rblk
BACKING=$BACKING_DIR/ns2.img
BACKING_MB=256
BACKING_512=$BACKING_DIR/ns3.img
BACKING_512_MB=64
NULLB_GB=1
NVMET=/sys/kernel/config/nvmet

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

# The KTAP channel: the host reads ttyS1, where no kernel message can land.
if [ -c /dev/ttyS1 ]; then
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	exec 3>/dev/ttyS1
else
	exec 3>/dev/null
fi

cmdline_arg() {
	# shellcheck disable=SC2013 # /proc/cmdline is one line of words
	for w in $(cat /proc/cmdline); do
		case $w in "$1="*) echo "${w#*=}"; return 0 ;; esac
	done
	return 0
}
MODE=$(cmdline_arg rblktest.mode)
TESTS=$(cmdline_arg rblktest.tests)
TEST_TIMEOUT=$(cmdline_arg rblktest.timeout)
RDMA_TYPE=$(cmdline_arg rblktest.rdma)
: "${RDMA_TYPE:=rxe}"
: "${MODE:=check}"

shutdown() {
	sync
	# Let both UARTs drain before the machine vanishes.
	exec 3>&-
	sleep 1
	poweroff -f
	echo o > /proc/sysrq-trigger
	while :; do sleep 60; done
}

# Setup failure: say why on both channels, report KTAP, power off.
setup_fail() {
	echo "rblk-init: SETUP FAILED: $*"
	dmesg | tail -n 30 | sed 's/^/# dmesg: /'
	for fd in 1 3; do
		{
			echo "KTAP version 1"
			echo "1..1"
			echo "# setup failed: $*"
			echo "not ok 1 setup"
			echo "# rblk-run: done"
		} >&$fd
	done
	shutdown
}

# Run a setup step quietly; its output is shown only if it fails.
step() {
	desc=$1; shift
	if ! out=$("$@" 2>&1); then
		[ -n "$out" ] && printf '%s\n' "$out"
		setup_fail "$desc ($*)"
	fi
}

# Write one configfs attribute, failing setup with a clear name if refused.
cfs_write() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	step "write $2 to $1" sh -c 'printf "%s" "$2" > "$1"' sh "$1" "$2"
}

echo "rblk-init: $(uname -r), mode=$MODE tests=${TESTS:-all}"

# Blocked-task reports after 60 s rather than 120 s: tests time out sooner.
echo 60 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null

step "load configfs" modprobe configfs
grep -q ' /sys/kernel/config ' /proc/mounts ||
	step "mount configfs" mount -t configfs configfs /sys/kernel/config

# --- the fabric: Soft-RoCE (or Soft-iWARP) over a dummy netdev ---
step "loopback up" ip link set lo up
step "load dummy" modprobe dummy numdummies=0
step "create $NETDEV" ip link add "$NETDEV" type dummy
step "address $NETDEV" ip addr add "$TRADDR/24" dev "$NETDEV"
step "$NETDEV up" ip link set "$NETDEV" up
# rdma_rxe needs a crc32 crypto driver (before 6.15: a library since) and
# 6.1 has no 'add' module parameter.
if modinfo -n crc32_generic >/dev/null 2>&1; then
	step "load crc32_generic" modprobe crc32_generic
fi
case $RDMA_TYPE in
rxe) RDMA_MODULE=rdma_rxe ;;
siw) RDMA_MODULE=siw RDMA_DEV=siw0 ;;
*) setup_fail "unknown rblktest.rdma=$RDMA_TYPE (rxe or siw)" ;;
esac
step "load $RDMA_MODULE" modprobe "$RDMA_MODULE"
step "create $RDMA_DEV" rdma link add "$RDMA_DEV" type "$RDMA_TYPE" netdev "$NETDEV"
[ -e "/sys/class/infiniband/$RDMA_DEV" ] || setup_fail "/sys/class/infiniband/$RDMA_DEV missing"

# --- backing stores ---
# null_blk: 1 GiB, not memory backed (reads return no data): for benchmarks.
step "load null_blk" modprobe null_blk nr_devices=1 gb=$NULLB_GB memory_backed=0
[ -b /dev/nullb0 ] || setup_fail "/dev/nullb0 missing"
# File on tmpfs: real data to compare. tmpfs lacks O_DIRECT, hence buffered_io.
mkdir -p "$BACKING_DIR"
step "mount tmpfs $BACKING_DIR" mount -t tmpfs -o size=$((BACKING_MB + BACKING_512_MB + 16))m tmpfs "$BACKING_DIR"
step "create $BACKING" truncate -s "${BACKING_MB}M" "$BACKING"
# The file namespace has tmpfs's 4 KiB blocks; a loop device over a second
# file gives a 512-byte-LBA namespace whose data can be compared as well.
step "create $BACKING_512" truncate -s "${BACKING_512_MB}M" "$BACKING_512"
step "load loop" modprobe loop
LOOPDEV=$(losetup -f) || setup_fail "no free loop device"
step "attach $LOOPDEV" losetup "$LOOPDEV" "$BACKING_512"

# --- nvmet target ---
step "load nvmet-rdma" modprobe nvmet-rdma
SUBSYS=$NVMET/subsystems/$NQN
PORT=$NVMET/ports/1
step "create subsystem" mkdir "$SUBSYS"
cfs_write "$SUBSYS/attr_allow_any_host" 1
step "create namespace 1" mkdir "$SUBSYS/namespaces/1"
cfs_write "$SUBSYS/namespaces/1/device_path" /dev/nullb0
cfs_write "$SUBSYS/namespaces/1/enable" 1
step "create namespace 2" mkdir "$SUBSYS/namespaces/2"
cfs_write "$SUBSYS/namespaces/2/device_path" "$BACKING"
cfs_write "$SUBSYS/namespaces/2/buffered_io" 1
cfs_write "$SUBSYS/namespaces/2/enable" 1
step "create namespace 3" mkdir "$SUBSYS/namespaces/3"
cfs_write "$SUBSYS/namespaces/3/device_path" "$LOOPDEV"
cfs_write "$SUBSYS/namespaces/3/enable" 1
step "create port 1" mkdir "$PORT"
cfs_write "$PORT/addr_trtype" rdma
cfs_write "$PORT/addr_adrfam" ipv4
cfs_write "$PORT/addr_traddr" "$TRADDR"
cfs_write "$PORT/addr_trsvcid" "$TRSVCID"
step "link subsystem to port" ln -s "$SUBSYS" "$PORT/subsystems/$NQN"

# A fixed host identity, so nvme-cli does not have to invent one.
HOSTID=$(cat /proc/sys/kernel/random/uuid)
mkdir -p /etc/nvme
echo "nqn.2014-08.org.nvmexpress:uuid:$HOSTID" > /etc/nvme/hostnqn
echo "$HOSTID" > /etc/nvme/hostid

KVER=$(uname -r)
RBLK_KO=/lib/modules/$KVER/extra/rblk.ko
NVMECFG=$(command -v nvmecfg || true)
cat > /etc/rblk-test.env <<ENV
# Written by /init: the in-guest fabric the selftests talk to.
RBLK_MODE=$MODE
RBLK_TRTYPE=rdma
RBLK_TRADDR=$TRADDR
RBLK_TRSVCID=$TRSVCID
RBLK_NQN=$NQN
RBLK_NSID_NULL=1
RBLK_NSID_FILE=2
RBLK_NULL_DEV=/dev/nullb0
RBLK_NULL_SIZE=$((NULLB_GB * 1024 * 1024 * 1024))
RBLK_BACKING=$BACKING
RBLK_BACKING_SIZE=$((BACKING_MB * 1024 * 1024))
RBLK_NSID_512=3
RBLK_BACKING_512=$BACKING_512
RBLK_LOOP_DEV=$LOOPDEV
RBLK_NETDEV=$NETDEV
RBLK_RDMA_DEV=$RDMA_DEV
RBLK_RDMA_TYPE=$RDMA_TYPE
RBLK_RDMA_MODULE=$RDMA_MODULE
RBLK_NVMET_PORT=$PORT
RBLK_NVMET_SUBSYS=$SUBSYS
RBLK_HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$HOSTID
RBLK_HOSTID=$HOSTID
RBLK_KO=$RBLK_KO
RBLK_NVMECFG=$NVMECFG
RBLK_SELFTESTS=/selftests
ENV
echo "rblk-init: target ready over $RDMA_DEV ($RDMA_TYPE): $NQN at $TRADDR:$TRSVCID (ns1 nullb0, ns2 $BACKING, ns3 $LOOPDEV on $BACKING_512)"

# Boot messages are not any test's fault; keep them, then start clean.
dmesg -c > /var/log/dmesg.boot

export RBLK_TESTS="$TESTS" RBLK_TEST_TIMEOUT="$TEST_TIMEOUT"
if [ "$MODE" = check ]; then
	/bin/sh /selftests/run.sh
elif [ -f "/selftests/$MODE.sh" ]; then
	/bin/sh /selftests/run.sh --script "/selftests/$MODE.sh"
else
	setup_fail "unknown rblktest.mode=$MODE (no /selftests/$MODE.sh)"
fi
shutdown

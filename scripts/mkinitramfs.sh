#!/bin/bash
# Build the test guest's initramfs: busybox for the basics, dash as /bin/sh,
# the real tools the tests drive (iproute2 ip/rdma, nvme-cli, fio, e2fsprogs,
# kmod, jq, udev, smartctl; perf with RBLK_GUEST_PERF=1) with the shared libraries ldd finds,
# the guest kernel's modules with dependencies resolved by modprobe itself,
# our rblk.ko and nvmecfg, and selftests/ (with selftests/init.sh as /init).
#
# usage: scripts/mkinitramfs.sh KVER BUILD_DIR
# env:   RBLK_KO (default ./rblk.ko), NVMECFG (default tools/nvmecfg),
#        (and rblk_kunit.ko from beside it, if built),
#        RBLK_EXTRA_MODULES (more guest modules, space separated),
#        RBLK_KROOT (guest kernel tree: boot/vmlinuz-KVER, lib/modules/KVER;
#        default BUILD_DIR/kernel, what setup unpacks)
set -euo pipefail

KVER=${1:?usage: mkinitramfs.sh KVER BUILD_DIR}
BUILD=${2:-build}
BUILD=${BUILD%/}
KROOT=${RBLK_KROOT:-$BUILD/kernel}
ROOT=$BUILD/initramfs
OUT=$BUILD/initramfs.cpio.gz
RBLK_KO=${RBLK_KO:-rblk.ko}
NVMECFG=${NVMECFG:-tools/nvmecfg}
MODDIR=lib/modules/$KVER

# Guest modules the harness needs; their dependencies come from modprobe.
MODULES="configfs dummy rdma_rxe ib_core
	 rdma_cm ib_uverbs nvmet nvmet-rdma nvme-rdma nvme-fabrics nvme-core
	 null_blk ext4 loop ${RBLK_EXTRA_MODULES:-}"
# The crc32 crypto drivers that rdma_rxe asks for by name until 6.15,
# whose crc32 is a library since (crc32_cryptoapi is the crypto API's).
CRC_MODULES="crc32_generic crc32c_generic libcrc32c"
# Modules some tests use and skip without (a debug kernel may lack them);
# team registers a generic netlink family (nl_genl_not_blocked).
OPTIONAL_MODULES="dm-delay dm-multipath dm-round-robin dm-service-time siw team"

die() { echo "mkinitramfs: ERROR: $*" >&2; exit 1; }

[ -f "$KROOT/boot/vmlinuz-$KVER" ] || die "no guest kernel in $KROOT (run 'make setup')"
[ -f "$KROOT/$MODDIR/modules.dep" ] || die "no modules.dep in $KROOT/$MODDIR (run 'make setup')"
[ -x /bin/busybox ] || die "busybox-static missing (run 'make setup')"

rm -rf "$ROOT"
mkdir -p "$ROOT"/{usr/bin,usr/sbin,usr/lib/x86_64-linux-gnu,usr/lib64,etc,proc,sys,dev,tmp,run,mnt,root,var/lib/rblk,var/log}
# Merged /usr like the host, so ldd's /lib/... paths land where ld.so looks.
ln -s usr/bin "$ROOT/bin"
ln -s usr/sbin "$ROOT/sbin"
ln -s usr/lib "$ROOT/lib"
ln -s usr/lib64 "$ROOT/lib64"

# --- busybox and its applet links (real tools copied below replace some) ---
cp /bin/busybox "$ROOT/usr/bin/busybox"
for applet in $(/bin/busybox --list-full); do
	name=${applet##*/}
	[ "$name" = busybox ] && continue
	case $applet in
	*sbin/*) ln -sf /usr/bin/busybox "$ROOT/usr/sbin/$name" ;;
	*)       ln -sf /usr/bin/busybox "$ROOT/usr/bin/$name" ;;
	esac
done

# Copy a file to the same path under ROOT, resolving symlinks to the target's
# content (the soname path is what ld.so asks for).
copy_file() {
	local src=$1 dst=$ROOT${2:-$1}
	mkdir -p "$(dirname "$dst")"
	[ -e "$dst" ] && [ ! -L "$dst" ] && return 0
	rm -f "$dst"
	cp -L "$src" "$dst"
}

# Install a host binary as /usr/{s,}bin/NAME plus every library ldd lists.
# Busybox links of the same name are removed so the real tool always wins.
copy_bin() {
	local src=$1 name dir lib
	[ -x "$src" ] || die "missing host binary $src (run 'make setup')"
	name=${2:-${src##*/}}
	case $src in */sbin/*) dir=usr/sbin ;; *) dir=usr/bin ;; esac
	rm -f "$ROOT/usr/bin/$name" "$ROOT/usr/sbin/$name"
	copy_file "$src" "/$dir/$name"
	# ldd lines: "libx.so => /path (addr)" or "/lib64/ld-linux... (addr)"
	for lib in $(ldd "$src" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		copy_file "$lib"
	done
}

# /bin/sh is dash, not busybox ash: Debian's busybox-static runs its own
# applets in preference to PATH ("ip" would be busybox ip even with iproute2
# installed).  The same holds for busybox applets that run commands, so the
# usual ones come from coreutils/findutils/util-linux.
copy_bin /usr/bin/dash
rm -f "$ROOT/usr/bin/sh"
ln -s dash "$ROOT/usr/bin/sh"
for b in /usr/bin/env /usr/bin/timeout /usr/bin/xargs /usr/bin/setsid /usr/bin/setpriv; do
	copy_bin "$b"
done
copy_bin /usr/bin/ip
copy_bin /usr/bin/rdma
copy_bin /usr/sbin/nvme
copy_bin /usr/sbin/smartctl
copy_bin /usr/bin/fio
copy_bin /usr/sbin/mke2fs
copy_bin /usr/sbin/e2fsck
copy_bin /usr/bin/jq
copy_bin /usr/bin/kmod
# util-linux: blkdiscard -z (write zeroes) and a losetup that prints names.
copy_bin /usr/sbin/blkdiscard
copy_bin /usr/sbin/losetup
# device-mapper: dm-delay under a namespace makes the target slow at will.
copy_bin /usr/sbin/dmsetup
# multipath-tools with its checker and prioritizer plugins (dlopen()ed, so
# not in ldd's list) and the example configuration for rblk devices
# (dm_mpath_conf).
copy_bin /sbin/multipath
copy_bin /sbin/multipathd
for lib in /lib/multipath/*.so; do
	copy_file "$lib"
	for dep in $(ldd "$lib" | awk '/=> \// { print $3 }'); do
		copy_file "$dep"
	done
done
copy_file Documentation/examples/multipath.conf /usr/share/rblk/multipath.conf
for l in mkfs.ext4 mkfs.ext2; do rm -f "$ROOT/usr/bin/$l" "$ROOT/usr/sbin/$l"; ln -s mke2fs "$ROOT/usr/sbin/$l"; done
for l in fsck.ext4 fsck.ext2; do ln -sf e2fsck "$ROOT/usr/sbin/$l"; done
# udevd and udevadm (one binary) with the storage rules, for the by-id links
# test (selftests/rblk/udev_by_id.sh starts udevd itself): Debian's nvme
# rules for the nvme-rdma side, ours for rblk.
copy_bin /usr/bin/udevadm
mkdir -p "$ROOT/usr/lib/systemd" "$ROOT/usr/lib/udev/rules.d"
ln -sf /usr/bin/udevadm "$ROOT/usr/lib/systemd/systemd-udevd"
copy_file /usr/lib/udev/rules.d/60-persistent-storage.rules
# nvme-cli's boot unit, as the package installs it: the coexistence test
# (selftests/rblk/autoconnect_coexist.sh) runs its commands.
copy_file /usr/lib/systemd/system/nvmf-autoconnect.service
cp udev/60-rblk.rules "$ROOT/usr/lib/udev/rules.d/"
# kmod instead of busybox's module tools: same behaviour as a real system.
for l in insmod rmmod modprobe modinfo lsmod depmod; do
	rm -f "$ROOT/usr/bin/$l" "$ROOT/usr/sbin/$l"
	ln -s /usr/bin/kmod "$ROOT/usr/sbin/$l"
done
[ -f /etc/mke2fs.conf ] && copy_file /etc/mke2fs.conf

# perf (Debian's linux-perf), for `make bench RBLK_BENCH_PERF=1`, which sets
# RBLK_GUEST_PERF=1 (9 MB more image: not for every boot).  /usr/bin/perf is
# either perf itself or a wrapper script that runs /usr/bin/perf_X.Y for the
# running kernel: the guest gets the binary.
perf_bin=
if [ "${RBLK_GUEST_PERF:-0}" != 1 ]; then
	:
elif [ -x /usr/bin/perf ] && [ "$(head -c 4 /usr/bin/perf | tail -c 3)" = ELF ]; then
	perf_bin=/usr/bin/perf
else
	kmm=$(echo "$KVER" | cut -d. -f1-2)
	for p in "/usr/bin/perf_$kmm" /usr/bin/perf_[0-9]*; do
		[ -x "$p" ] && { perf_bin=$p; break; }
	done
fi
if [ -n "$perf_bin" ]; then
	copy_bin "$perf_bin" perf
elif [ "${RBLK_GUEST_PERF:-0}" = 1 ]; then
	echo "mkinitramfs: WARNING: RBLK_GUEST_PERF=1 but no perf on the host (linux-perf)" >&2
fi

# --- guest kernel modules: dependency closure as modprobe resolves it ---
# copy_module NAME: NAME and everything it depends on; 1 if unknown.
copy_module() {
	local deps ko dst
	# Lines are "insmod /abs/path/x.ko " or "builtin x".
	deps=$(modprobe -d "$KROOT" -S "$KVER" --show-depends "$1" 2>/dev/null) || return 1
	for ko in $(printf '%s\n' "$deps" | awk '$1 == "insmod" { print $2 }'); do
		dst=$ROOT/usr/lib/modules/${ko#*/lib/modules/}
		[ -f "$dst" ] && continue
		mkdir -p "$(dirname "$dst")"
		cp "$ko" "$dst"
	done
}
grep -q ' crc32_cryptoapi$' "$KROOT/$MODDIR/modules.alias" ||
	MODULES="$MODULES $CRC_MODULES"
missing_mods=
for m in $MODULES; do
	copy_module "$m" || missing_mods="$missing_mods $m"
done
[ -z "$missing_mods" ] || die "guest kernel has no module(s):$missing_mods"
for m in $OPTIONAL_MODULES; do
	copy_module "$m" || echo "mkinitramfs: note: guest kernel has no $m" >&2
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$KROOT/$MODDIR/$f" ] && cp "$KROOT/$MODDIR/$f" "$ROOT/usr/$MODDIR/"
done

# --- the project's own artefacts ---
if [ -f "$RBLK_KO" ]; then
	# Installed in the module tree so modinfo/modprobe see its dependencies.
	mkdir -p "$ROOT/usr/$MODDIR/extra"
	# Without debug info (4.6 MB -> a few hundred KB); kallsyms still names
	# functions in a stack trace.
	strip --strip-debug -o "$ROOT/usr/$MODDIR/extra/rblk.ko" "$RBLK_KO"
	# Its dependencies must be in the image too.
	for dep in $(modinfo -F depends "$RBLK_KO" | tr ',' ' '); do
		copy_module "$dep" || die "rblk.ko needs $dep, not in the guest kernel"
	done
	# The KUnit tests, built next to rblk.ko for a kernel with KUnit.
	kunit_ko=$(dirname "$RBLK_KO")/rblk_kunit.ko
	if [ -f "$kunit_ko" ]; then
		strip --strip-debug -o "$ROOT/usr/$MODDIR/extra/rblk_kunit.ko" "$kunit_ko"
	fi
else
	echo "mkinitramfs: WARNING: $RBLK_KO not built; tests that need it will fail" >&2
fi
depmod -b "$ROOT" "$KVER"

if [ -x "$NVMECFG" ]; then
	copy_bin "$NVMECFG" nvmecfg
	# The netlink fuzzer of selftests/rblk/nl_fuzz.sh.
	[ -x tools/tests/nlfuzz ] && copy_bin tools/tests/nlfuzz nlfuzz
	# Malformed-request checks of selftests/rblk/nl_bad_input.sh.
	[ -x tools/tests/nlraw ] && copy_bin tools/tests/nlraw nlraw
	# The unreaped polled read of selftests/rblk/poll_idle.sh.
	[ -x tools/tests/iopoll_idle ] && copy_bin tools/tests/iopoll_idle iopoll_idle
	# The malformed NVMe ioctls of selftests/rblk/passthru.sh, the read loop
	# of passthru_unpriv_timeout.sh.
	[ -x tools/tests/passthru_fuzz ] && copy_bin tools/tests/passthru_fuzz passthru_fuzz
	# The mark of `make bench-insn` (static, no C library), which sets
	# RBLK_INSN_MARK.
	if [ -n "${RBLK_INSN_MARK:-}" ]; then
		[ -x "$RBLK_INSN_MARK" ] || die "missing $RBLK_INSN_MARK (make bench-insn builds it)"
		install -m 0755 "$RBLK_INSN_MARK" "$ROOT/usr/bin/rblk-insn-mark"
	fi
	# The boot-time unit, as make install fills it in, for the guest's
	# nvmecfg: selftests/rblk/autoconnect_unit.sh runs its commands (the
	# guest has no systemd).
	mkdir -p "$ROOT/usr/lib/systemd/system"
	sed 's|@SBINDIR@|/usr/bin|g' systemd/rblk-autoconnect.service.in \
		> "$ROOT/usr/lib/systemd/system/rblk-autoconnect.service"
	# selftests/rblk/persistent_discovery.sh runs this one's ExecStart=.
	sed 's|@SBINDIR@|/usr/bin|g' systemd/rblk-monitor.service.in \
		> "$ROOT/usr/lib/systemd/system/rblk-monitor.service"
else
	echo "mkinitramfs: note: $NVMECFG not built; nvmecfg not in the guest" >&2
fi

mkdir -p "$ROOT/selftests"
cp -r selftests/. "$ROOT/selftests/"
cp selftests/init.sh "$ROOT/init"
chmod 755 "$ROOT/init"
# The sysfs ABI documents (controllers, subsystems, namespaces):
# stats_abi_doc.sh and subsys_paths.sh check the module against them.
mkdir -p "$ROOT/usr/share/doc/rblk"
cp Documentation/ABI/testing/sysfs-class-rblk \
   Documentation/ABI/testing/sysfs-class-rblk-subsystem \
   Documentation/ABI/testing/sysfs-block-rblk "$ROOT/usr/share/doc/rblk/"

# Minimal identity files for busybox and nvme-cli.
echo 'root:x:0:0:root:/root:/bin/sh' > "$ROOT/etc/passwd"
echo 'root:x:0:' > "$ROOT/etc/group"
echo "$KVER" > "$ROOT/etc/rblk-kver"

# --- archive (gzip -1: 3x faster than -6, 10% bigger, unpacks as fast) ---
(cd "$ROOT" && find . -mindepth 1 -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "mkinitramfs: $OUT ($(du -sh "$ROOT" | cut -f1) unpacked, $(du -h "$OUT" | cut -f1) compressed)"

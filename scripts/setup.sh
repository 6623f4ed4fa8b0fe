#!/bin/bash
# Install the host packages the build and the QEMU test guest need, and unpack
# the guest kernel (image + modules) under build/kernel/ (one tree for every
# KVER: boot/*-KVER, lib/modules/KVER).  Idempotent: a stamp file makes a
# repeated run a quick no-op.  Never installs the guest kernel on the host
# (the host kernel cannot load modules anyway; we only want its files).
#
# The headers: a package that installs alone (Debian 12's 6.1) is installed;
# one that depends on its kernel image (Debian's 6.12) is unpacked with its
# -common and linux-kbuild packages under BUILD_DIR/headers-KVER/, and what
# they depend on installed (pahole, gcc-12, ...).  A kernel that the apt
# sources do not know is looked for in bookworm-backports, added in a list
# file of its own (debian.sources is never edited).
#
# A kernel built for a later Debian (SUITE given: trixie for +deb13, sid for
# +deb14) needs its suite's gcc: its headers are installed in a chroot of
# that suite (scripts/kchroot.sh, cached in BUILD_DIR/chroot/SUITE), which
# also downloads its guest kernel; the host's apt sources stay as they are.
# From 7.x Debian splits the kernel into linux-binary[-unsigned]-KVER
# (vmlinuz under /usr/lib/modules/KVER), linux-modules-KVER and
# linux-base-KVER (System.map, config): put back into the boot/ and
# lib/modules/KVER layout of build/kernel/, which depmod -b reads.
# build-only: the headers alone (a build canary; no guest).
#
# usage: scripts/setup.sh KVER BUILD_DIR [SUITE [build-only]]
#        e.g. 6.1.0-57-amd64 build; 7.3.4+deb13-amd64 build trixie
set -euo pipefail

KVER=${1:?usage: setup.sh KVER BUILD_DIR [SUITE [build-only]]}
BUILD=${2:-build}
SUITE=${3:-}
GUEST=${4:-guest}
BUILD=${BUILD%/}
[ -n "$BUILD" ] || { echo "setup: BUILD_DIR must not be /" >&2; exit 2; }
KDIR_OUT=$BUILD/kernel
STAMP=$BUILD/.setup-$KVER.stamp
HDR=linux-headers-$KVER
HDR_OUT=$BUILD/headers-$KVER
BPO_LIST=/etc/apt/sources.list.d/rblk-bookworm-backports.sources
export DEBIAN_FRONTEND=noninteractive

# gcc..python3: builds and the bench report (libjson-c-dev: nvmecfg reads
# config.json with json-c, as libnvme); util-linux: blkdiscard and
# losetup in the guest; flex..libssl-dev: the debug kernel (make check-debug);
# dmsetup: dm-delay namespaces in the guest; multipath-tools: dm-multipath
# over rblk devices in the guest (dm_mpath_conf);
# linux-perf: perf in the guest for `make bench RBLK_BENCH_PERF=1`;
# dkms: the DKMS build test; udev: udevd and its rules in the guest (the
# by-id links test); smartmontools: smartctl -d nvme in the guest (passthru).
BASE_PKGS=(qemu-system-x86 busybox-static kmod cpio iproute2 libnl-genl-3-dev
      libnl-3-dev libjson-c-dev pkg-config nvme-cli fio e2fsprogs sparse jq
      gnuplot-nox gcc make python3 util-linux flex bison bc libelf-dev libssl-dev
      dmsetup multipath-tools linux-perf dkms udev smartmontools)
# The headers package, or what its unpacked copy needs (decided below).
HDR_PKGS_FILE=$BUILD/.setup-$KVER.hdr-pkgs
HDR_PKGS=("$HDR")
[ ! -f "$HDR_PKGS_FILE" ] || read -r -a HDR_PKGS < "$HDR_PKGS_FILE"
# A chroot kernel's headers are the chroot's: the host needs debootstrap.
[ -z "$SUITE" ] || HDR_PKGS=(debootstrap)
PKGS=("${BASE_PKGS[@]}" "${HDR_PKGS[@]}")
CHROOT=$BUILD/chroot/$SUITE

# The headers that the Makefile's KDIR finds.
have_headers() {
	[ -f "/usr/src/$HDR/Makefile" ] || [ -f "$HDR_OUT/usr/src/$HDR/Makefile" ] ||
		{ [ -n "$SUITE" ] && [ -f "$CHROOT/usr/src/$HDR/Makefile" ]; }
}
have_guest() {
	[ "$GUEST" = build-only ] || [ -f "$KDIR_OUT/boot/vmlinuz-$KVER" ]
}

# Names of PKGS not installed (one dpkg-query call: keeps the no-op fast).
missing_pkgs() {
	local ok p out=
	ok=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${PKGS[@]}" 2>/dev/null |
	     awk '$1 == "ii" { print $2 }')
	for p in "${PKGS[@]}"; do
		printf '%s\n' "$ok" | grep -qx -- "$p" || out="$out $p"
	done
	printf '%s' "$out"
}

# The stamp alone is not trusted: a build/ reused on a new machine would lie.
if [ -f "$STAMP" ] && have_guest && have_headers &&
   [ -z "$(missing_pkgs)" ]; then
	echo "setup: already done for $KVER ($STAMP)"
	exit 0
fi
rm -f "$STAMP"

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

updated=0
apt_update() {
	[ "$updated" -eq 1 ] && return 0
	echo "setup: apt-get update"
	$SUDO apt-get update -qq
	updated=1
}

# A later Debian's kernel: packages from its suite, through the chroot.
suite_kernel() {
	local tmp src p pkgs deb
	# shellcheck disable=SC2086
	missing=$(missing_pkgs)
	if [ -n "$missing" ]; then
		echo "setup: installing:$missing"
		# shellcheck disable=SC2086
		$SUDO apt-get install -y -qq --no-install-recommends $missing ||
			{ apt_update; $SUDO apt-get install -y -qq --no-install-recommends $missing; }
	fi
	# dkms, openssl: make host-check's DKMS test of this kernel runs in
	# the chroot (tests/dkms_test.sh signs with a key of its own).
	if [ "$GUEST" = build-only ]; then
		"$(dirname "$0")/kchroot.sh" setup "$SUITE" "$BUILD" "$HDR"
		return 0
	fi
	"$(dirname "$0")/kchroot.sh" setup "$SUITE" "$BUILD" "$HDR" dkms openssl
	[ ! -f "$KDIR_OUT/boot/vmlinuz-$KVER" ] || return 0
	if chroot "$CHROOT" apt-cache show "linux-binary-unsigned-$KVER" >/dev/null 2>&1; then
		pkgs="linux-binary-unsigned-$KVER linux-modules-$KVER linux-base-$KVER"
	else
		pkgs="linux-image-$KVER-unsigned"
	fi
	for p in $pkgs; do
		[ -n "$(find "$BUILD/dl" -maxdepth 1 -name "${p}_*.deb" 2>/dev/null)" ] ||
			"$(dirname "$0")/kchroot.sh" download "$SUITE" "$BUILD" "$BUILD/dl" "$p"
	done
	tmp=$BUILD/kernel-$KVER.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	for p in $pkgs; do
		deb=$(find "$BUILD/dl" -maxdepth 1 -name "${p}_*.deb" | head -n1)
		[ -n "$deb" ] || { echo "setup: ERROR: download of $p failed" >&2; exit 1; }
		echo "setup: extracting $deb"
		dpkg -x "$deb" "$tmp"
	done
	# /usr/lib/modules (merged /usr, 7.x) or /lib/modules.
	src=$tmp/usr/lib/modules/$KVER
	[ -d "$src" ] || src=$tmp/lib/modules/$KVER
	mkdir -p "$tmp/boot"
	for p in vmlinuz vmlinuz.unsigned; do
		[ ! -f "$src/$p" ] || mv "$src/$p" "$tmp/boot/vmlinuz-$KVER"
	done
	for p in System.map config; do
		[ ! -f "$src/$p" ] || mv "$src/$p" "$tmp/boot/$p-$KVER"
	done
	[ -f "$tmp/boot/vmlinuz-$KVER" ] || { echo "setup: ERROR: no vmlinuz in $pkgs" >&2; exit 1; }
	[ -d "$src/kernel" ] || { echo "setup: ERROR: no modules in $pkgs" >&2; exit 1; }
	rm -rf "$KDIR_OUT"/boot/*-"$KVER" "$KDIR_OUT/lib/modules/$KVER"
	mkdir -p "$KDIR_OUT/boot" "$KDIR_OUT/lib/modules"
	mv "$tmp"/boot/*-"$KVER" "$KDIR_OUT/boot/"
	mv "$src" "$KDIR_OUT/lib/modules/$KVER"
	rm -rf "$tmp"
	depmod -b "$KDIR_OUT" "$KVER"
}
if [ -n "$SUITE" ]; then
	mkdir -p "$BUILD/dl"
	suite_kernel
	touch "$STAMP"
	if [ "$GUEST" = build-only ]; then
		echo "setup: done ($KVER: headers in the $SUITE chroot, no guest)"
	else
		echo "setup: done ($KVER: headers in the $SUITE chroot, guest kernel)"
	fi
	exit 0
fi

# Package lists missing or not knowing our pinned kernel ABI: refresh them.
# (KVER only lives in bookworm-security; an old list may predate it.)
if ! apt-cache show "$HDR" >/dev/null 2>&1; then
	apt_update
fi
# Not in the machine's suites: Debian's 6.12 builds for Debian 12 came
# through bookworm-backports first.  Only for a 6.12 ABI: a 6.1 one that
# Debian dropped is an error to report, not a reason to add a suite.
if ! apt-cache show "$HDR" >/dev/null 2>&1 && [ ! -f "$BPO_LIST" ] &&
   [ "${KVER#6.12.}" != "$KVER" ]; then
	echo "setup: adding bookworm-backports ($BPO_LIST)"
	printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' \
		'Suites: bookworm-backports' 'Components: main' \
		'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
		$SUDO tee "$BPO_LIST.tmp" >/dev/null
	$SUDO mv "$BPO_LIST.tmp" "$BPO_LIST"
	updated=0
	apt_update
fi
apt-cache show "$HDR" >/dev/null 2>&1 || {
	echo "setup: ERROR: no package $HDR (Debian may have dropped ABI ${KVER%-amd64};" \
	     "bump it in the Makefile's KABIS)" >&2
	exit 1
}

# Its direct dependencies, one a line; alternatives ("|Depends") too.
hdr_deps() {
	apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances "$@" 2>/dev/null |
		awk '$1 ~ /Depends:$/ && $2 !~ /^</ { print $2 }' | sort -u
}
# A headers package that depends on its kernel image is unpacked, not
# installed: the packages it is made of, and what they need installed.
deps=$(hdr_deps "$HDR")
parts=()
if grep -q '^linux-image-' <<< "$deps"; then
	# shellcheck disable=SC2207
	parts=("$HDR" $(grep -E '^linux-(headers-.*-common|kbuild-)' <<< "$deps" || true))
	# shellcheck disable=SC2207
	HDR_PKGS=($(hdr_deps "${parts[@]}" | grep -vE '^linux-(image|headers|kbuild)-' || true))
else
	HDR_PKGS=("$HDR")
fi
mkdir -p "$BUILD"
printf '%s\n' "${HDR_PKGS[*]}" > "$HDR_PKGS_FILE"
PKGS=("${BASE_PKGS[@]}" "${HDR_PKGS[@]}")

missing=$(missing_pkgs)
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	# shellcheck disable=SC2086
	if ! $SUDO apt-get install -y -qq --no-install-recommends $missing; then
		apt_update   # stale lists give 404s; one refresh, then retry
		# shellcheck disable=SC2086
		$SUDO apt-get install -y -qq --no-install-recommends $missing
	fi
else
	echo "setup: host packages present"
fi

# Unpacked headers: -common and linux-kbuild beside them, the amd64 tree's
# include of its -common tree pointed at the copy.
if [ "${#parts[@]}" -gt 0 ] && ! have_headers; then
	mkdir -p "$BUILD/dl"
	part_deb() { find "$BUILD/dl" -maxdepth 1 -name "${1}_*.deb" | head -n1; }
	for p in "${parts[@]}"; do
		if [ -z "$(part_deb "$p")" ]; then
			echo "setup: apt-get download $p"
			(cd "$BUILD/dl" && { apt-get download -q "$p" 2>&1 | grep -v 'unsandboxed as root'; } ) || true
		fi
	done
	rm -rf "$HDR_OUT.tmp"
	mkdir -p "$HDR_OUT.tmp"
	for p in "${parts[@]}"; do
		deb=$(part_deb "$p")
		[ -n "$deb" ] || { echo "setup: ERROR: download of $p failed" >&2; exit 1; }
		echo "setup: extracting $deb -> $HDR_OUT"
		dpkg -x "$deb" "$HDR_OUT.tmp"
	done
	abs=$(cd "$HDR_OUT.tmp" && pwd)
	abs=${abs%.tmp}
	sed -i "s|^include /usr/src/|include $abs/usr/src/|" "$HDR_OUT.tmp/usr/src/$HDR/Makefile"
	rm -rf "$HDR_OUT"
	mv "$HDR_OUT.tmp" "$HDR_OUT"
fi

# Guest kernel: prefer the -unsigned image (same kernel, no signed-shim wrapper).
IMG=linux-image-$KVER-unsigned
if ! apt-cache show "$IMG" >/dev/null 2>&1; then
	IMG=linux-image-$KVER
fi
if ! apt-cache show "$IMG" >/dev/null 2>&1; then
	apt_update
	apt-cache show "$IMG" >/dev/null 2>&1 || {
		echo "setup: ERROR: no package $IMG (Debian may have dropped ABI ${KVER%-amd64};" \
		     "bump KABI in the Makefile)" >&2
		exit 1
	}
fi

mkdir -p "$BUILD/dl"
find_deb() { find "$BUILD/dl" -maxdepth 1 -name "${IMG}_*_amd64.deb" | head -n1; }
deb=$(find_deb)
if [ -z "$deb" ]; then
	echo "setup: apt-get download $IMG"
	# Run as root, apt warns that it downloads unsandboxed: harmless, hide it.
	(cd "$BUILD/dl" && { apt-get download -q "$IMG" 2>&1 | grep -v 'unsandboxed as root'; } ) || true
	deb=$(find_deb)
	[ -n "$deb" ] || { echo "setup: ERROR: download of $IMG failed" >&2; exit 1; }
fi

echo "setup: extracting $deb -> $KDIR_OUT"
# Only this kernel's files: another KVER's guest kernel stays.
rm -rf "$KDIR_OUT"/boot/*-"$KVER" "$KDIR_OUT/lib/modules/$KVER"
mkdir -p "$KDIR_OUT"
dpkg -x "$deb" "$KDIR_OUT"
[ -f "$KDIR_OUT/boot/vmlinuz-$KVER" ] || { echo "setup: ERROR: no vmlinuz in $deb" >&2; exit 1; }
[ -d "$KDIR_OUT/lib/modules/$KVER" ] || { echo "setup: ERROR: no modules in $deb" >&2; exit 1; }
# Module dependency tables for modprobe --show-depends (the .deb ships none).
depmod -b "$KDIR_OUT" "$KVER"

touch "$STAMP"
echo "setup: done ($IMG)"

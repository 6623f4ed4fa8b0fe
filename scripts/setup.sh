#!/bin/bash
# Install the host packages the build and the QEMU test guest need, and unpack
# the guest kernel (image + modules) under build/kernel/.  Idempotent: a stamp
# file makes a repeated run a quick no-op.  Never installs the guest kernel on
# the host (the host kernel cannot load modules anyway; we only want its files).
#
# usage: scripts/setup.sh KVER BUILD_DIR      e.g. 6.1.0-57-amd64 build
set -euo pipefail

KVER=${1:?usage: setup.sh KVER BUILD_DIR}
BUILD=${2:-build}
BUILD=${BUILD%/}
[ -n "$BUILD" ] || { echo "setup: BUILD_DIR must not be /" >&2; exit 2; }
KDIR_OUT=$BUILD/kernel
STAMP=$BUILD/.setup-$KVER.stamp
export DEBIAN_FRONTEND=noninteractive

# gcc..python3: builds and the bench report; util-linux: blkdiscard and
# losetup in the guest; flex..libssl-dev: the debug kernel (make check-debug);
# dmsetup: dm-delay namespaces in the guest;
# linux-perf: perf in the guest for `make bench RBLK_BENCH_PERF=1`;
# dkms: the DKMS build test; udev: udevd and its rules in the guest (the
# by-id links test).
PKGS=(qemu-system-x86 busybox-static kmod cpio iproute2 libnl-genl-3-dev
      libnl-3-dev pkg-config nvme-cli fio e2fsprogs sparse jq gnuplot-nox
      gcc make python3 util-linux flex bison bc libelf-dev libssl-dev
      dmsetup linux-perf dkms udev "linux-headers-$KVER")

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
if [ -f "$STAMP" ] && [ -f "$KDIR_OUT/boot/vmlinuz-$KVER" ] && [ -z "$(missing_pkgs)" ]; then
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

# Package lists missing or not knowing our pinned kernel ABI: refresh them.
# (KVER only lives in bookworm-security; an old list may predate it.)
if ! apt-cache show "linux-headers-$KVER" >/dev/null 2>&1; then
	apt_update
fi

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
rm -rf "$KDIR_OUT"
mkdir -p "$KDIR_OUT"
dpkg -x "$deb" "$KDIR_OUT"
[ -f "$KDIR_OUT/boot/vmlinuz-$KVER" ] || { echo "setup: ERROR: no vmlinuz in $deb" >&2; exit 1; }
[ -d "$KDIR_OUT/lib/modules/$KVER" ] || { echo "setup: ERROR: no modules in $deb" >&2; exit 1; }
# Module dependency tables for modprobe --show-depends (the .deb ships none).
depmod -b "$KDIR_OUT" "$KVER"

touch "$STAMP"
echo "setup: done ($IMG)"

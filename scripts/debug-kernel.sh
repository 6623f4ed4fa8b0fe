#!/bin/bash
# Build the debug guest kernel of `make check-debug` (KASAN, lockdep, kmemleak,
# fault injection) from Debian's linux-source-6.1, and stage it the way
# scripts/mkinitramfs.sh expects a kernel: ROOT/boot/vmlinuz-KVER and
# ROOT/lib/modules/KVER/ (modules_install, depmod'ed).
#
# usage: scripts/debug-kernel.sh [--cached] BUILD_DIR
#        --cached: build nothing; exit 0 if the cached kernel is up to date, else 1
# out:   BUILD/debug-kernel/linux-source-6.1   the configured, built tree
#        BUILD/debug-kernel/root               the staged kernel (KROOT)
#        BUILD/debug-kernel/kver               its release, e.g. 6.1.192-rblk-debug
#
# Config: x86_64 defconfig + scripts/debug-kernel.config + olddefconfig.
# Cached: nothing is rebuilt while the staged kernel is newer than the
# fragment (and this script).  The build is niced: it shares the machine with test VMs.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHED_ONLY=0
[ "${1:-}" = --cached ] && { CACHED_ONLY=1; shift; }
BUILD=${1:-build}
BUILD=${BUILD%/}
[ -n "$BUILD" ] || { echo "debug-kernel: BUILD_DIR must not be /" >&2; exit 2; }
SRCPKG=linux-source-6.1
FRAG=scripts/debug-kernel.config
DK=$BUILD/debug-kernel
TREE=$DK/$SRCPKG
ROOT=$DK/root
JOBS=${DEBUG_KERNEL_JOBS:-2}

die() { echo "debug-kernel: ERROR: $*" >&2; exit 1; }

BZ=$TREE/arch/x86/boot/bzImage
# $DK/kver is written last, after bzImage and the staging: the stamp.
if [ -f "$BZ" ] && [ -f "$DK/kver" ] && [ "$DK/kver" -nt "$FRAG" ] && [ "$DK/kver" -nt "$0" ] &&
   [ -f "$ROOT/boot/vmlinuz-$(cat "$DK/kver")" ]; then
	[ "$CACHED_ONLY" -eq 1 ] || echo "debug-kernel: cached ($(cat "$DK/kver"), built after $FRAG)"
	exit 0
fi
[ "$CACHED_ONLY" -eq 0 ] || exit 1

for t in gcc make flex bison bc; do
	command -v "$t" >/dev/null || die "$t missing (apt-get install flex bison bc build-essential libelf-dev)"
done

# --- source: Debian's linux-source-6.1 (same 6.1.y as the headers) ---
mkdir -p "$BUILD/dl" "$DK"
find_deb() { find "$BUILD/dl" -maxdepth 1 -name "${SRCPKG}_*_all.deb" | sort | tail -n1; }
deb=$(find_deb)
if [ -z "$deb" ]; then
	echo "debug-kernel: apt-get download $SRCPKG"
	(cd "$BUILD/dl" && { apt-get download -q "$SRCPKG" 2>&1 | grep -v 'unsandboxed as root'; } ) || true
	deb=$(find_deb)
	[ -n "$deb" ] || die "download of $SRCPKG failed"
fi
if [ ! -f "$TREE/Makefile" ] || [ "$deb" -nt "$TREE/Makefile" ]; then
	echo "debug-kernel: extracting $deb -> $TREE"
	rm -rf "$TREE" "$DK/pkg"
	dpkg -x "$deb" "$DK/pkg"
	tar -C "$DK" -xf "$DK/pkg/usr/src/$SRCPKG.tar.xz"
	rm -rf "$DK/pkg"
	touch "$TREE/Makefile"
fi

# --- config ---
start=$(date +%s)
KMAKE=(nice -n 10 make -C "$TREE" -j"$JOBS")
"${KMAKE[@]}" -s defconfig
"$TREE/scripts/kconfig/merge_config.sh" -m -O "$TREE" "$TREE/.config" "$FRAG" >/dev/null
"${KMAKE[@]}" -s olddefconfig
# Every option the fragment sets must have survived olddefconfig (a missing
# dependency silently drops one).
bad=
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) grep -qxF -- "$line" "$TREE/.config" || bad="$bad ${line%%=*}" ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		grep -q "^$opt=" "$TREE/.config" && bad="$bad $opt(off)" ;;
	esac
done < "$FRAG"
[ -z "$bad" ] || die "config options not applied:$bad"

# --- build ---
echo "debug-kernel: building bzImage + modules (make -j$JOBS, niced)"
"${KMAKE[@]}" bzImage modules
KVER=$("${KMAKE[@]}" -s kernelrelease)

# --- stage ---
rm -rf "$ROOT"
mkdir -p "$ROOT/boot"
"${KMAKE[@]}" -s INSTALL_MOD_PATH="$(realpath "$ROOT")" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod modules_install
rm -f "$ROOT/lib/modules/$KVER/build" "$ROOT/lib/modules/$KVER/source"
cp "$BZ" "$ROOT/boot/vmlinuz-$KVER"
[ -f "$ROOT/lib/modules/$KVER/modules.dep" ] || depmod -b "$ROOT" "$KVER"
echo "$KVER" > "$DK/kver"
echo "debug-kernel: built $KVER in $(( $(date +%s) - start ))s"

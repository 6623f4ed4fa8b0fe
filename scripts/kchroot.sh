#!/bin/bash
# A Debian chroot to build against kernel headers that need a newer gcc
# than the host's: Debian's 7.x (and +deb13/+deb14) headers want the gcc
# of their own suite (gcc-14, gcc-16), which Debian 12 cannot install.
# Debootstrapped once under BUILD_DIR/chroot/SUITE and kept there.
#
# usage: scripts/kchroot.sh setup SUITE BUILD_DIR PKG...
#            the chroot (debootstrap if missing; trixie gets
#            trixie-backports), then apt-get install PKG... in it
#            and a sparse that parses the headers (__typeof_unqual__):
#            the suite's, else sid's binary as /usr/local/bin/sparse
#        scripts/kchroot.sh newest SUITE BUILD_DIR
#            print the ABI of SUITE's newest amd64 kernel headers
#        scripts/kchroot.sh download SUITE BUILD_DIR DEST PKG...
#            apt-get download PKG... with the chroot's sources into DEST
#        scripts/kchroot.sh run SUITE BUILD_DIR CMD...
#            CMD in the chroot, with the current directory (the source
#            tree, build/ in it) at the same path, in a mount namespace of
#            its own: nothing stays mounted.
set -euo pipefail

what=${1:?usage: kchroot.sh setup|newest|download|run SUITE BUILD_DIR ...}
SUITE=${2:?suite}
BUILD=${3:?build dir}
shift 3
BUILD=$(cd "$BUILD" && pwd)
ROOT=$BUILD/chroot/$SUITE
MIRROR=http://deb.debian.org/debian
export DEBIAN_FRONTEND=noninteractive

in_root() {
	chroot "$ROOT" env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

case $what in
setup)
	if [ ! -f "$ROOT/.rblk-chroot" ]; then
		command -v debootstrap >/dev/null || {
			echo "kchroot: debootstrap missing (make setup installs it)" >&2
			exit 1
		}
		echo "kchroot: debootstrap $SUITE into $ROOT (once; a few minutes)"
		rm -rf "$ROOT.tmp"
		mkdir -p "$BUILD/chroot"
		# perl, python3: kbuild (W=1 runs kernel-doc); bc: kbuild.
		debootstrap --variant=buildd --include=perl,python3,bc,kmod,ca-certificates \
			"$SUITE" "$ROOT.tmp" "$MIRROR" > "$BUILD/chroot/$SUITE.log" 2>&1 || {
			echo "kchroot: debootstrap failed, see $BUILD/chroot/$SUITE.log" >&2
			exit 1
		}
		if [ "$SUITE" = trixie ]; then
			# Debian 13's newer kernels come through its backports.
			printf '%s\n' 'Types: deb' "URIs: $MIRROR" 'Suites: trixie-backports' \
				'Components: main' \
				'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
				> "$ROOT.tmp/etc/apt/sources.list.d/backports.sources"
		fi
		# sid's Release files reach this machine kind weeks late: expired.
		[ "$SUITE" != sid ] ||
			echo 'Acquire::Check-Valid-Until "false";' \
				> "$ROOT.tmp/etc/apt/apt.conf.d/99rblk-no-valid-until"
		mv "$ROOT.tmp" "$ROOT"
		touch "$ROOT/.rblk-chroot"
	fi
	# Installed already: no apt run (keeps a repeated setup fast).
	# (dpkg-query fails for a package it does not know: not an error.)
	missing=$({ in_root dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' sparse "$@" 2>/dev/null ||
		    true; } |
		  awk '$1 == "ii" { print $2 }' | sort | comm -13 - <(printf '%s\n' sparse "$@" | sort))
	if [ -n "$missing" ]; then
		echo "kchroot: installing in $SUITE:" $missing
		in_root apt-get update -qq
		# shellcheck disable=SC2086
		in_root apt-get install -y -qq --no-install-recommends $missing
	fi
	# The headers' C=1/C=2 test of sparse (Linux 6.14+), which Debian's
	# headers packages lack: without it kbuild skips sparse, only saying
	# so.  The project keeps a copy (scripts/checker-valid.sh, Linux 7.3's).
	for mk in "$ROOT"/usr/src/linux-headers-*-common/Makefile; do
		[ -f "$mk" ] || continue
		dst=${mk%/Makefile}/scripts/checker-valid.sh
		grep -q checker-valid.sh "$mk" && [ ! -f "$dst" ] &&
			install -m 0755 "$(dirname "$0")/checker-valid.sh" "$dst"
	done
	# make lint's sparse must parse what the headers use.  Linux's own
	# test (scripts/checker-valid.sh, which Debian's headers lack):
	# trixie's sparse 0.6.4 cannot; sid's binary (0.6.5) needs only a
	# libc, the rest of its package would drag sid's gcc in.
	printf '%s\n' 'static inline int u(const int *q)' '{' \
		'	__typeof_unqual__(*q) v = *q;' '	return v;' '}' > "$ROOT/tmp/rblk-sparse.c"
	if ! in_root sparse /tmp/rblk-sparse.c 2>&1 | grep -q error; then
		rm -f "$ROOT/tmp/rblk-sparse.c"
		exit 0
	fi
	rm -f "$ROOT/tmp/rblk-sparse.c"
	echo "kchroot: $SUITE's sparse cannot parse __typeof_unqual__: sid's binary as /usr/local/bin/sparse"
	in_root sh -c '
		set -e
		lists=/var/lib/apt/rblk-sid-lists
		mkdir -p $lists/partial /tmp/rblk-sparse
		echo "deb http://deb.debian.org/debian sid main" > /etc/apt/rblk-sid.list
		o="-o Dir::Etc::SourceList=/etc/apt/rblk-sid.list -o Dir::Etc::SourceParts=/nonexistent
		   -o Dir::State::Lists=$lists -o Acquire::Check-Valid-Until=false"
		apt-get $o update -qq
		cd /tmp/rblk-sparse && rm -f ./*.deb
		apt-get $o download -q sparse 2>&1 | grep -v "unsandboxed as root" || true
		dpkg -x sparse_*.deb .
		install -m 0755 usr/bin/sparse /usr/local/bin/sparse
		cd / && rm -rf /tmp/rblk-sparse'
	;;
newest)
	# The newest generic amd64 kernel whose headers SUITE has today (the
	# build canary follows it, not a pinned ABI that the suite drops).
	"$0" setup "$SUITE" "$BUILD" >&2
	in_root apt-get update -qq >&2
	in_root apt-cache search --names-only '^linux-headers-[0-9].*-amd64$' |
		sed -n 's/^linux-headers-\([^ ]*\)-amd64 .*/\1/p' |
		grep -vE -- '-(cloud|rt)$' | sort -V | tail -n 1
	;;
download)
	DEST=${1:?dest}
	shift
	mkdir -p "$DEST" "$ROOT/tmp/rblk-dl"
	rm -f "$ROOT"/tmp/rblk-dl/*.deb
	in_root apt-get update -qq
	# Run as root, apt warns that it downloads unsandboxed: harmless.
	in_root sh -c 'cd /tmp/rblk-dl && apt-get download -q "$@"' sh "$@" 2>&1 |
		grep -v 'unsandboxed as root' || true
	mv "$ROOT"/tmp/rblk-dl/*.deb "$DEST"/
	;;
run)
	[ -f "$ROOT/.rblk-chroot" ] || { echo "kchroot: no chroot $ROOT (make setup)" >&2; exit 1; }
	top=$(pwd)
	mkdir -p "$ROOT$top"
	# unshare's new mount namespace is private: the mounts go with the
	# command.  env -i: none of the host's make or locale settings.
	export RBLK_TOP=$top RBLK_ROOT=$ROOT
	exec unshare -m sh -c '
		mount --bind "$RBLK_TOP" "$RBLK_ROOT$RBLK_TOP" || exit 1
		# objtool reads /proc/self (its stack limit).
		mount -t proc proc "$RBLK_ROOT/proc" || exit 1
		exec chroot "$RBLK_ROOT" env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 \
			sh -c "cd \"\$0\" && exec \"\$@\"" "$RBLK_TOP" "$@"' sh "$@"
	;;
*)
	echo "kchroot: unknown command $what" >&2
	exit 2
	;;
esac

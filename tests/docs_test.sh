#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the documents say of the build, checked against the build: the
# README gives the Makefile's VM_TIMEOUT wherever it gives one; the
# overview names every kernel series of KABIS and does not call
# DH-HMAC-CHAP unsupported when rblk has it; howto.rst's insmod names
# every module rblk.ko depends on (modinfo of each rblk.ko built, else
# what the sources call), and makes the directory of each file it
# creates; the install commands of README.md and install.rst, and
# setup.sh, name the package of every library tools/Makefile builds with.  (nvmecfg.8 against nvmecfg: tools/tests/cli_test.sh.)  KTAP.
# shellcheck disable=SC2317 # the functions run through check
cd "$(dirname "$0")/.." || exit 1

# shellcheck source=tests/ktap.sh
. tests/ktap.sh

echo "KTAP version 1"
echo "1..6"

# section FILE TITLE: the lines of reStructuredText section TITLE of FILE,
# up to the next title (a line of "=" or "-" under one).
section() {
	awk -v t="$2" '
		prev == t && /^[=-]+$/ { on = 1; prev = $0; next }
		on && /^[=-]+$/ && prev != "" { exit }
		on && prev != "" { print prev }
		{ prev = $0 }' "$1"
}

vm_timeout() {
	local want got g bad=''
	want=$(sed -n 's/^VM_TIMEOUT ?= *//p' Makefile)
	[ -n "$want" ] || { echo "no VM_TIMEOUT in the Makefile"; return 1; }
	# Not DEBUG_VM_TIMEOUT, BENCH_VM_TIMEOUT...: VM_TIMEOUT alone.
	got=$(grep -oE '(^|[^_A-Z])VM_TIMEOUT[^0-9]{0,60}[0-9]+' README.md |
	      grep -oE '[0-9]+$')
	[ -n "$got" ] || { echo "README gives no VM_TIMEOUT"; return 1; }
	for g in $got; do
		[ "$g" = "$want" ] || bad="$bad $g"
	done
	[ -z "$bad" ] || { echo "README gives VM_TIMEOUT$bad, the Makefile $want"; return 1; }
}
check "README's VM_TIMEOUT is the Makefile's" vm_timeout

kernels() {
	local k series intro kabis missing=''
	intro=$(awk '/^Comparison$/ { exit } { print }' Documentation/overview.rst)
	kabis=$(sed -n 's/^KABIS := //p' Makefile)
	for k in $kabis; do
		series=$(echo "$k" | grep -oE '^[0-9]+\.[0-9]+')
		grep -qE "(^|[^0-9.])$series([^0-9]|$)" <<< "$intro" ||
			missing="$missing $series"
	done
	[ -z "$missing" ] || { echo "overview.rst's introduction lacks:$missing"; return 1; }
}
check "overview.rst names every kernel of KABIS" kernels

# bullets: the "* " items of a list on stdin, one a line.
bullets() {
	awk '/^\* / { if (b != "") print b; b = $0; next }
	     /^  / && b != "" { b = b " " substr($0, 3); next }
	     { if (b != "") print b; b = "" }
	     END { if (b != "") print b }'
}

auth_limit() {
	[ -f kmod/auth.c ] || return 0
	if section Documentation/overview.rst Limitations | bullets |
	   grep '^\* No ' | grep -q 'DH-HMAC-CHAP'; then
		echo "overview.rst's Limitations list DH-HMAC-CHAP among what rblk has not"
		return 1
	fi
}
check "overview.rst does not call DH-HMAC-CHAP unsupported" auth_limit

# The modules rblk.ko needs: the sources' (the RDMA CM always, the NVMe
# authentication library where kmod/ calls it: 6.12's), and each built
# rblk.ko's depends.
insmod_deps() {
	local ko deps="ib_core rdma_cm" d host missing=''
	grep -q 'nvme_auth_[a-z_]*(' kmod/*.c && deps="$deps nvme-auth"
	for ko in rblk.ko build/mod-*/rblk.ko; do
		[ -f "$ko" ] && deps="$deps $(modinfo -F depends "$ko" | tr ',' ' ')"
	done
	host=$(section Documentation/howto.rst "Host: rblk")
	for d in $(echo "$deps" | tr ' ' '\n' | sort -u); do
		grep -qF -- "$d" <<< "$host" || missing="$missing $d"
	done
	[ -z "$missing" ] || { echo "howto.rst's insmod does not name:$missing"; return 1; }
}
check "howto.rst names every module rblk.ko depends on" insmod_deps

# Each file a howto.rst example creates with truncate has its directory
# made before (mkdir -p), unless it is /tmp's.
howto_dirs() {
	local line path dir made='' bad=''
	local mkdir_re='mkdir -p ([^ ]+)' truncate_re='truncate -s [^ ]+ ([^ ]+)'

	while IFS= read -r line; do
		if [[ $line =~ $mkdir_re ]]; then
			made="$made ${BASH_REMATCH[1]}"
		elif [[ $line =~ $truncate_re ]]; then
			path=${BASH_REMATCH[1]}
			dir=${path%/*}
			case " $made " in *" $dir "*) continue ;; esac
			case $dir in /tmp|/tmp/*|'$'*) continue ;; esac
			bad="$bad $path"
		fi
	done < Documentation/howto.rst
	[ -z "$bad" ] || { echo "howto.rst creates$bad without making its directory"; return 1; }
}
check "howto.rst makes the directories of the files it creates" howto_dirs

# The -dev package of each pkg-config module tools/Makefile uses (the
# package holding its .pc file), in README.md's and install.rst's
# apt-get install and in setup.sh's BASE_PKGS (make check installs them).
build_deps() {
	local m pc='' pkg f bad=''
	while read -r m; do
		pc=$(pkg-config --variable=pcfiledir "$m")/$m.pc
		pkg=$(dpkg -S "$pc" 2>/dev/null | cut -d: -f1)
		[ -n "$pkg" ] || { bad="$bad $m(no package)"; continue; }
		for f in README.md Documentation/install.rst; do
			grep -E '^ +apt-get install ' "$f" | grep -qw -- "$pkg" ||
				bad="$bad $f:$pkg"
		done
		sed -n '/^BASE_PKGS=(/,/)/p' scripts/setup.sh | grep -qw -- "$pkg" ||
			bad="$bad setup.sh:$pkg"
	done < <(grep -oE 'PKG_CONFIG\) --(cflags|libs) [a-z0-9.-]+' tools/Makefile |
		 awk '{ print $3 }' | sort -u)
	[ -n "$pc" ] || { echo "no pkg-config module in tools/Makefile"; return 1; }
	[ -z "$bad" ] || { echo "not named:$bad"; return 1; }
}
check "the install commands name every library of tools/Makefile" build_deps

exit $failed

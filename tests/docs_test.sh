#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the documents say of the build, checked against the build:
# testing.rst (and README.md, if it does) gives the Makefile's VM_TIMEOUT
# wherever it gives one; the overview names every kernel series of KABIS
# and does not call DH-HMAC-CHAP unsupported when rblk has it; howto.rst's
# insmod names every module rblk.ko depends on (modinfo of each rblk.ko
# built, else what the sources call), and makes the directory of each
# file it creates.  The README is for users: no test, CI or bench knob of
# the Makefile in it (testing.rst or benchmark.rst has each), and its
# table of commands is nvmecfg's command table; every nvmecfg command line
# of README.md and Documentation/*.rst parses (nvmecfg in a network
# namespace of its own, where rblk's family is absent: only usage errors,
# exit 2, fail); the install commands of README.md and install.rst, and
# setup.sh, name the package of every library tools/Makefile builds with.
# (nvmecfg.8 against nvmecfg: tools/tests/cli_test.sh.)
# KTAP.
# shellcheck disable=SC2317 # the functions run through check
cd "$(dirname "$0")/.." || exit 1

# shellcheck source=tests/ktap.sh
. tests/ktap.sh

echo "KTAP version 1"
echo "1..9"

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
	got=$(grep -hoE '(^|[^_A-Z])VM_TIMEOUT[^0-9]{0,60}[0-9]+' \
		Documentation/testing.rst README.md | grep -oE '[0-9]+$')
	[ -n "$got" ] || { echo "testing.rst gives no VM_TIMEOUT"; return 1; }
	for g in $got; do
		[ "$g" = "$want" ] || bad="$bad $g"
	done
	[ -z "$bad" ] || { echo "the documents give VM_TIMEOUT$bad, the Makefile $want"; return 1; }
}
check "testing.rst's VM_TIMEOUT is the Makefile's" vm_timeout

# The Makefile's knobs (NAME ?= ...) but the install directories, which
# install.rst describes: the test, bench and CI ones, and .ci/run's
# RBLK_CI_DEBUG.  None in the README (a user's document); each in
# testing.rst or benchmark.rst.  A name without "_" (T, TESTS, RDMA) is
# looked for as NAME=, as the word alone is English or a heading.
readme_knobs() {
	local k re in_readme='' undocumented=''
	for k in $(sed -nE 's/^([A-Z_]+) \?=.*/\1/p' Makefile) RBLK_CI_DEBUG; do
		case $k in PREFIX|DESTDIR|*DIR) continue ;; esac
		case $k in
		*_*) re="(^|[^A-Za-z0-9_])$k([^A-Za-z0-9_]|\$)" ;;
		*) re="(^|[^A-Za-z0-9_])$k=" ;;
		esac
		grep -qE -- "$re" README.md && in_readme="$in_readme $k"
		grep -qE -- "$re" Documentation/testing.rst Documentation/benchmark.rst ||
			undocumented="$undocumented $k"
	done
	[ -z "$in_readme" ] || echo "README.md names test/bench knobs:$in_readme (testing.rst, benchmark.rst)"
	[ -z "$undocumented" ] || echo "neither testing.rst nor benchmark.rst names:$undocumented"
	[ -z "$in_readme$undocumented" ]
}
check "README has no test or bench knob; testing/benchmark.rst have each" readme_knobs

# The commands of nvmecfg: its command table (tools/nvmecfg.c) and help.
nvmecfg_cmds() {
	awk '/^static const struct cmd cmds\[\] = \{/ { on = 1; next }
	     on && /^\};/ { exit }
	     on' tools/nvmecfg.c | grep -oE '^[[:space:]]*\{ (CMD\()?"[a-z-]+"' |
		grep -oE '[a-z-]+'
	echo help
}

# README's table of commands (the rows of its "Commands" section) lists
# exactly nvmecfg's commands.
readme_cmds() {
	local have want missing extra
	want=$(nvmecfg_cmds | sort -u)
	have=$(awk '/^#+ Commands$/ { on = 1; next } on && /^#/ { exit } on' README.md |
	       grep -oE '^\| `[a-z-]+' | grep -oE '[a-z-]+$' | sort -u)
	[ -n "$have" ] || { echo "README.md has no table of commands"; return 1; }
	missing=$(comm -23 <(echo "$want") <(echo "$have") | tr '\n' ' ')
	extra=$(comm -13 <(echo "$want") <(echo "$have") | tr '\n' ' ')
	[ -z "$missing" ] || echo "README.md's commands lack: $missing"
	[ -z "$extra" ] || echo "README.md lists commands nvmecfg has not: $extra"
	[ -z "$missing$extra" ]
}
check "README's table of commands is nvmecfg's" readme_cmds

# kernels_in DOC INTRO: every series of KABIS is named in INTRO.
kernels_in() {
	local k series kabis missing=''
	kabis=$(sed -n 's/^KABIS := //p' Makefile)
	for k in $kabis; do
		series=$(echo "$k" | grep -oE '^[0-9]+\.[0-9]+')
		grep -qE "(^|[^0-9.])$series([^0-9]|$)" <<< "$2" ||
			missing="$missing $series"
	done
	[ -z "$missing" ] || { echo "$1's introduction lacks:$missing"; return 1; }
}
kernels() {
	kernels_in overview.rst "$(awk '/^Comparison$/ { exit } { print }' Documentation/overview.rst)" &&
		kernels_in README.md "$(awk '/^## / { exit } { print }' README.md)"
}
check "overview.rst and README.md's introductions name every kernel of KABIS" kernels

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
	# Every kernel from 6.12 on needs nvme-auth, not 6.12's alone.
	if grep -qE "6\.12's rblk.ko only|on 6\.12 only" <<< "$host"; then
		echo "howto.rst says nvme-auth is 6.12's only"
		return 1
	fi
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

# doc_cmds: "FILE:LINE: nvmecfg ARGS" for every nvmecfg command of a
# literal block (an indented line, after an optional "# " or "$ " prompt;
# a line of nvmecfg.8 starts none) in README.md and Documentation/*.rst,
# cut at the first pipe, redirection, background or list operator, or
# comment.  The variables the examples use get values of their form.
# shellcheck disable=SC2016 # the documents' $NAME, not the shell's
doc_cmds() {
	local key=DHHC-1:00:ia6zGodOr4SEG0Zzaw398rpY0wqipUWj4jWjUh4HWUz6aQ2n:
	grep -nE '^[[:space:]]+([#$] )?nvmecfg( |$)' README.md Documentation/*.rst |
	sed -E 's/^([^:]+:[0-9]+:)[[:space:]]+([#$] )?/\1 /' |
	sed -E 's/[[:space:]]+(#|\||>|<|&|;).*$//; s/\|.*$//; s/;.*$//' |
	sed -e 's/"\$HOSTKEY"/'"$key"'/g; s/"\$CTRLKEY"/'"$key"'/g' \
	    -e 's/\$NQN/nqn.2026-12.io.rblk:test/g' \
	    -e 's/\$HOSTNQN/nqn.2014-08.org.nvmexpress:uuid:00000000-0000-0000-0000-000000000001/g'
}

# Each of them through nvmecfg's parser: run in a user and network
# namespace of its own (unshare -rn), where the rblk family does not exist
# even if the host has the module loaded (it is not netnsok), so no
# command reaches a controller; files below an empty NVMECFG_TEST_ROOT.
# Exit 2 is a usage error (an unknown command or option, a bad value, a
# missing argument): that fails.  0, 1 and 3 are the parse passing.
doc_cmds_parse() {
	local loc line args rc out root bad='' count=0
	root=$(mktemp -d)
	while IFS= read -r line; do
		loc=${line%% nvmecfg*}
		line=nvmecfg${line#* nvmecfg}
		if [[ $line =~ [^A-Za-z0-9\ ._:/=,@%+-] ]]; then
			bad="$bad"$'\n'"$loc $line: not a plain command line"
			continue
		fi
		read -r -a args <<< "${line#nvmecfg}"
		out=$(timeout 10 unshare -rn env NVMECFG_TEST_ROOT="$root" \
		      tools/nvmecfg "${args[@]}" 2>&1 < /dev/null)
		rc=$?
		count=$((count + 1))
		[ "$rc" -ne 2 ] && [ "$rc" -ne 124 ] ||
			bad="$bad"$'\n'"$loc $line: exit $rc: $out"
	done < <(doc_cmds)
	rm -rf "$root"
	[ "$count" -gt 0 ] || { echo "no nvmecfg command found in the documents"; return 1; }
	[ -z "$bad" ] || { echo "${bad#$'\n'}"; return 1; }
}
if [ ! -x tools/nvmecfg ]; then
	n=$((n + 1)); echo "ok $n the documents' nvmecfg commands parse # SKIP tools/nvmecfg not built (make tools)"
elif ! unshare -rn true 2>/dev/null; then
	n=$((n + 1)); echo "ok $n the documents' nvmecfg commands parse # SKIP no unshare -rn (user namespaces off)"
else
	check "the documents' nvmecfg commands parse" doc_cmds_parse
fi
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
			grep -E '^ +(# )?apt-get install ' "$f" | grep -qw -- "$pkg" ||
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

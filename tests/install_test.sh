#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install / make uninstall into a temporary DESTDIR: every file lands
# where udev, systemd, man, bash-completion and modprobe look for it, works
# there (the module is for KVER, the tool runs, the man page formats, the
# unit verifies, the completion completes), PREFIX moves what it should,
# and uninstall leaves no file behind.  KTAP.
#
# env: KVER (default the Makefile's)
cd "$(dirname "$0")/.." || exit 1
KVER=${KVER:-$(sed -n 's/^KABI := //p' Makefile)-amd64}

T=$(mktemp -d /tmp/rblk-install.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

echo "KTAP version 1"
echo "1..20"

D=$T/root
check "make install DESTDIR PREFIX=/usr" \
	make --no-print-directory -s install DESTDIR="$D" PREFIX=/usr KVER="$KVER"

want="lib/modules/$KVER/updates/rblk.ko usr/sbin/nvmecfg
	usr/share/man/man8/nvmecfg.8 lib/udev/rules.d/60-rblk.rules
	lib/systemd/system/rblk-autoconnect.service
	lib/systemd/system/rblk-monitor.service
	usr/share/bash-completion/completions/nvmecfg"
missing=
for f in $want; do [ -f "$D/$f" ] || missing="$missing $f"; done
check "every file installed" sh -c "[ -z '$missing' ] || { echo 'missing:$missing'; exit 1; }"
check "nothing else installed" test "$(cd "$D" && find . -type f | sort | sed 's|^\./||' | tr '\n' ' ')" = \
	"$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')"

check "the module is rblk for $KVER" sh -c \
	"modinfo -F vermagic '$D/lib/modules/$KVER/updates/rblk.ko' | grep -q '^$KVER ' &&
	 [ \"\$(modinfo -F name '$D/lib/modules/$KVER/updates/rblk.ko')\" = rblk ]"
# What depmod makes of the staged tree (make install skips it under DESTDIR).
cp -r "build/kernel/lib/modules/$KVER/modules.order" "build/kernel/lib/modules/$KVER/modules.builtin" \
	"$D/lib/modules/$KVER/" 2>/dev/null
check "depmod finds it in updates/" sh -c \
	"depmod -b '$D' '$KVER' && grep -q '^updates/rblk.ko:' '$D/lib/modules/$KVER/modules.dep'"
rm -f "$D/lib/modules/$KVER"/modules.*

check "the installed nvmecfg runs" sh -c "'$D/usr/sbin/nvmecfg' help | grep -q '^Commands:'"
check "the man page formats and its synopsis has every command" sh -c '
	out=$(LC_ALL=C MANWIDTH=100 man -l "$1/usr/share/man/man8/nvmecfg.8" 2>&1) || exit 1
	out=$(printf "%s\n" "$out" | sed -n "/^SYNOPSIS/,/^DESCRIPTION/p")
	for c in $("$1/usr/sbin/nvmecfg" help | awk "/^Commands:/ { on = 1; next } on && /^\$/ { exit } on { print \$1 }"); do
		printf "%s\n" "$out" | grep -q "nvmecfg $c" || { echo "no nvmecfg $c in the man page"; exit 1; }
	done' sh "$D"

unit=$D/lib/systemd/system/rblk-autoconnect.service
check "the unit runs the installed nvmecfg connect-all" \
	grep -qx 'ExecStart=/usr/sbin/nvmecfg connect-all --conf-dir /etc/rblk --record /run/rblk/autoconnect' "$unit"
# The rest of the unit: tests/unit_test.sh.
check "the unit disconnects with the installed nvmecfg disconnect-all" \
	grep -qx 'ExecStop=/usr/sbin/nvmecfg disconnect-all --record /run/rblk/autoconnect' "$unit"

# The completion, driven as bash drives it.
comp() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_nvmecfg; echo "${COMPREPLY[*]}"' sh "$D/usr/share/bash-completion/completions/nvmecfg" "$@"
}
cmds=$("$D/usr/sbin/nvmecfg" help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' | tr '\n' ' ')
check "completion: every command of nvmecfg help" test "$(comp nvmecfg '' | tr ' ' '\n' | grep -v '^-' | tr '\n' ' ')" = "$cmds"
check "completion: connect --tr" test "$(comp nvmecfg connect --tr)" = "--transport --traddr --trsvcid"
check "completion: values of -t and -o" test "$(comp nvmecfg connect -t '') $(comp nvmecfg list -o '')" = "rdma normal json"
check "completion: stats --r" test "$(comp nvmecfg stats --r)" = "--reset"

check "make uninstall DESTDIR PREFIX=/usr" \
	make --no-print-directory -s uninstall DESTDIR="$D" PREFIX=/usr KVER="$KVER"
check "uninstall leaves no file" test -z "$(find "$D" -type f -o -type l)"

D=$T/tools
make --no-print-directory -s install-tools DESTDIR="$D" PREFIX=/usr KVER="$KVER" >/dev/null 2>&1
check "install-tools: all but the module" test "$(cd "$D" && find . -type f | sort | sed 's|^\./||' | tr '\n' ' ')" = \
	"$(echo $want | tr ' ' '\n' | grep -v rblk.ko | sort | tr '\n' ' ')"
rm -rf "$D"

D=$T/local
make --no-print-directory -s install DESTDIR="$D" KVER="$KVER" >/dev/null 2>&1
check "default PREFIX /usr/local: tool, man page, completion, unit" sh -c "
	test -x '$D/usr/local/sbin/nvmecfg' && test -f '$D/usr/local/share/man/man8/nvmecfg.8' &&
	test -f '$D/usr/local/share/bash-completion/completions/nvmecfg' &&
	grep -q '^ExecStart=/usr/local/sbin/nvmecfg connect-all ' '$D/lib/systemd/system/rblk-autoconnect.service'"
make --no-print-directory -s uninstall DESTDIR="$D" KVER="$KVER" >/dev/null 2>&1
check "uninstall with the default PREFIX leaves no file" test -z "$(find "$D" -type f -o -type l)"

# Without KVER the module is for the running kernel, not the test kernel:
# installed under its tree if its headers are there, else refused naming
# the headers package it needs.  (Not KABI or KVER from a make that runs
# this test: its MAKEFLAGS would pass them on.)
run=$(uname -r)
D=$T/running
env -u KVER -u KABI -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s install-module DESTDIR="$D" > "$T/out" 2>&1; rc=$?
if [ -d "/lib/modules/$run/build" ]; then
	check "make install without KVER: the module for the running kernel $run" sh -c \
		"[ $rc -eq 0 ] && modinfo -F vermagic '$D/lib/modules/$run/updates/rblk.ko' | grep -q '^$run '"
else
	check "make install without KVER: for the running kernel $run, whose headers it asks for" sh -c \
		"[ $rc -ne 0 ] && grep -q 'install linux-headers-$run' '$T/out' &&
		 [ ! -e '$D/lib/modules' ]"
fi
# A supported kernel's headers missing (KDIR nowhere): make install names
# the package too, and not make setup, which would install QEMU and the
# test tools on the server.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s install-module \
	KVER="$KVER" KDIR=/nonexistent DESTDIR="$T/noheaders" > "$T/out" 2>&1; rc=$?
check "make install without $KVER's headers: names linux-headers-$KVER, not make setup" sh -c \
	"[ $rc -ne 0 ] && grep -q 'install linux-headers-$KVER' '$T/out' && ! grep -q 'make setup' '$T/out' &&
	 [ ! -e '$T/noheaders' ] || { cat '$T/out'; exit 1; }"

exit $failed

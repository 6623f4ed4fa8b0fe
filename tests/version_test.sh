#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One version everywhere: the file VERSION is what the built module says
# (MODULE_VERSION, modinfo), what nvmecfg --version prints and what DKMS
# knows the sources by (make install-dkms: the directory and dkms.conf's
# PACKAGE_VERSION), and no file repeats it by hand.  (A DKMS build's
# module: tests/dkms_test.sh.)  KTAP.
#
# env: KVER (default the Makefile's): the module built for it
# shellcheck disable=SC2317 # the functions run through check
cd "$(dirname "$0")/.." || exit 1
KVER=${KVER:-$(sed -n 's/^KABI := //p' Makefile)-amd64}

T=$(mktemp -d /tmp/rblk-version.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

echo "KTAP version 1"
echo "1..6"

VER=$(cat VERSION)
check "VERSION is one line, a version ('$VER')" sh -c \
	"[ \$(wc -l < VERSION) -eq 1 ] && printf '%s\n' '$VER' | grep -qxE '[0-9]+(\.[0-9]+)+([~+.-][0-9A-Za-z.~+-]+)?'"

# The module make modules built for KVER: in the tree, or a copy's.
ko=
for k in rblk.ko "build/mod-$KVER/rblk.ko"; do
	[ -f "$k" ] && modinfo -F vermagic "$k" | grep -q "^$KVER " && { ko=$k; break; }
done
check "the module for $KVER ($ko) is version $VER" \
	test "$([ -n "$ko" ] && modinfo -F version "$ko")" = "$VER"
tool_version() { [[ "$(tools/nvmecfg --version)" == "nvmecfg version $VER ("* ]]; }
check "nvmecfg --version prints $VER" tool_version

check "make install-dkms: /usr/src/rblk-$VER, with VERSION" sh -c \
	"make --no-print-directory -s install-dkms DESTDIR='$T' >/dev/null &&
	 cmp -s VERSION '$T/usr/src/rblk-$VER/VERSION'"
check "make install-dkms: dkms.conf's PACKAGE_VERSION is $VER" \
	grep -qx "PACKAGE_VERSION=\"$VER\"" "$T/usr/src/rblk-$VER/dkms.conf"

# Where a version would be written by hand: dkms.conf.in, the C sources,
# the Makefiles.  (The docs say VERSION or \$(cat VERSION).)
out=$(grep -nE 'PACKAGE_VERSION="[0-9]|MODULE_VERSION\("|NVMECFG_VERSION[ ?:]*=[ ]*[0-9"]' \
	dkms.conf.in Makefile Kbuild tools/Makefile kmod/*.c tools/*.c 2>&1)
check "no version written by hand beside VERSION" test -z "$out"
[ -z "$out" ] || printf '# %s\n' "$out"

exit $failed

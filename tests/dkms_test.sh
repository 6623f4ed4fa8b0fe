#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS builds rblk (dkms.conf, make install-dkms) against the pinned kernel
# headers, in a private DKMS tree: dkms add, build, install (into a staged
# /lib/modules), status and remove, with nothing written to the machine's
# own /var/lib/dkms, /usr/src or /lib/modules.  KTAP.
#
# env: KVER, KDIR (default the Makefile's)
cd "$(dirname "$0")/.." || exit 1
KVER=${KVER:-$(sed -n 's/^KABI := //p' Makefile)-amd64}
KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)

echo "KTAP version 1"
echo "1..8"
if ! command -v dkms >/dev/null; then
	for i in 1 2 3 4 5 6 7 8; do echo "ok $i dkms # SKIP no dkms (make setup installs it)"; done
	exit 0
fi

T=$(mktemp -d /tmp/rblk-dkms.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

# The private trees, and a signing key of our own: Debian's dkms signs
# with /var/lib/dkms/mok.key, made on first use, unless told otherwise.
ROOT=$T/root
TREES=(--dkmstree "$T/dkms" --sourcetree "$ROOT/usr/src" --installtree "$ROOT/lib/modules")
export mok_signing_key=$T/mok.key mok_certificate=$T/mok.pub
mkdir -p "$T/dkms" "$ROOT/lib/modules/$KVER"
before=$(ls /var/lib/dkms 2>/dev/null | sort | tr '\n' ' ')

check "make install-dkms puts the sources in /usr/src/rblk-$VER" sh -c \
	"make --no-print-directory -s install-dkms DESTDIR='$ROOT' &&
	 test -f '$ROOT/usr/src/rblk-$VER/dkms.conf' && test -f '$ROOT/usr/src/rblk-$VER/kmod/ctrl.c'"
check "dkms add" dkms add -m rblk -v "$VER" "${TREES[@]}"
check "dkms build against $KDIR" \
	timeout 300 dkms build -m rblk -v "$VER" -k "$KVER" --kernelsourcedir "$KDIR" "${TREES[@]}"
check "dkms install (no depmod: a staged tree)" \
	dkms install -m rblk -v "$VER" -k "$KVER" --kernelsourcedir "$KDIR" --no-depmod "${TREES[@]}"
ko=$ROOT/lib/modules/$KVER/updates/dkms/rblk.ko
check "the installed module is rblk for $KVER" sh -c \
	"modinfo -F vermagic '$ko' | grep -q '^$KVER ' && [ \"\$(modinfo -F name '$ko')\" = rblk ] &&
	 depmod -b '$ROOT' '$KVER' && grep -q '^updates/dkms/rblk.ko:' '$ROOT/lib/modules/$KVER/modules.dep'"
check "dkms status says installed" sh -c \
	"dkms status -m rblk -v '$VER' ${TREES[*]} | grep -q 'rblk/$VER, $KVER, x86_64: installed'"
check "dkms remove takes the module away" sh -c \
	"dkms remove -m rblk -v '$VER' --all --no-depmod ${TREES[*]} && test ! -e '$ko' &&
	 test -z \"\$(dkms status -m rblk ${TREES[*]})\""
check "nothing written to the machine's /var/lib/dkms" \
	test "$(ls /var/lib/dkms 2>/dev/null | sort | tr '\n' ' ')" = "$before"
exit $failed

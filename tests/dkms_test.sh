#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS builds rblk (dkms.conf.in, make install-dkms) against the headers of
# every supported kernel, in a private DKMS tree: dkms add, then for each
# kernel build, install (into a staged /lib/modules), status and remove;
# a kernel outside dkms.conf's BUILD_EXCLUSIVE_KERNEL is refused without a
# build.  Nothing is written to
# the machine's own /var/lib/dkms, /usr/src or /lib/modules.  KTAP.
#
# env: DKMS_KVERS, DKMS_KDIRS (the kernels and their headers, same order;
#      default KVER and KDIR, themselves by default the Makefile's)
cd "$(dirname "$0")/.." || exit 1
KVER=${KVER:-$(sed -n 's/^KABI := //p' Makefile)-amd64}
KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
read -r -a kvers <<< "${DKMS_KVERS:-$KVER}"
read -r -a kdirs <<< "${DKMS_KDIRS:-$KDIR}"
[ ${#kvers[@]} -eq ${#kdirs[@]} ] || { echo "dkms_test: DKMS_KVERS and DKMS_KDIRS differ in length" >&2; exit 2; }
VER=$(cat VERSION)
plan=$((6 + 7 * ${#kvers[@]}))

echo "KTAP version 1"
echo "1..$plan"
if ! command -v dkms >/dev/null; then
	for i in $(seq "$plan"); do echo "ok $i dkms # SKIP no dkms (make setup installs it)"; done
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
for i in "${!kvers[@]}"; do
	KVER=${kvers[$i]} KDIR=${kdirs[$i]}
	mkdir -p "$ROOT/lib/modules/$KVER"
	# The headers package's link: dkms 3.2 (Debian 13) looks for the
	# kernel's sign-file through it.
	ln -sfn "$KDIR" "$ROOT/lib/modules/$KVER/build"
	check "dkms build against $KDIR" \
		timeout 300 dkms build -m rblk -v "$VER" -k "$KVER" --kernelsourcedir "$KDIR" "${TREES[@]}"
	check "dkms install for $KVER (no depmod: a staged tree)" \
		dkms install -m rblk -v "$VER" -k "$KVER" --kernelsourcedir "$KDIR" --no-depmod "${TREES[@]}"
	ko=$ROOT/lib/modules/$KVER/updates/dkms/rblk.ko
	check "the installed module is rblk $VER for $KVER" sh -c \
		"modinfo -F vermagic '$ko' | grep -q '^$KVER ' && [ \"\$(modinfo -F name '$ko')\" = rblk ] &&
		 [ \"\$(modinfo -F version '$ko')\" = '$VER' ] &&
		 depmod -b '$ROOT' '$KVER' && grep -q '^updates/dkms/rblk.ko:' '$ROOT/lib/modules/$KVER/modules.dep'"
	# What Documentation/install.rst, "Secure Boot", has the
	# administrator enroll: dkms's key (here our own file of it).  dkms
	# signs with the kernel's sign-file, where Debian's dkms looks for it
	# (linux-kbuild-X.Y comes with the headers package; not with the
	# headers make setup unpacks).
	if [ -x "/usr/lib/linux-kbuild-${KVER%.*}/scripts/sign-file" ] ||
	   [ -x "/lib/modules/$KVER/build/scripts/sign-file" ]; then
		check "dkms signed it with its MOK ($mok_certificate)" sh -c \
			"[ \"\$(modinfo -F signer '$ko')\" = 'DKMS module signing key' ] &&
			 openssl x509 -inform DER -in '$mok_certificate' -noout -subject | grep -q 'CN *= *DKMS module signing key'"
	else
		n=$((n + 1))
		echo "ok $n dkms signed it with its MOK # SKIP no sign-file for $KVER (linux-kbuild-${KVER%.*})"
	fi
	check "dkms status says installed for $KVER" sh -c \
		"dkms status -m rblk -v '$VER' ${TREES[*]} | grep -q 'rblk/$VER, $KVER, x86_64: installed'"
	check "dkms remove for $KVER takes the module away" sh -c \
		"dkms remove -m rblk -v '$VER' -k '$KVER' --no-depmod ${TREES[*]} && test ! -e '$ko' &&
		 ! dkms status -m rblk -v '$VER' ${TREES[*]} | grep -q '$KVER'"
	# The modules of kernels still to come: none yet.
	check "nothing left of $KVER" sh -c "! find '$ROOT/lib/modules' -name 'rblk.ko*' | grep -q ."
done
# A kernel the sources do not support: dkms refuses it before building
# (BUILD_EXCLUSIVE_KERNEL, exit 77), and autoinstall, what a kernel
# package's postinst runs, builds nothing for it.  Its headers are empty:
# a build would fail.  (Debian 12's dkms 3.0.10 still ends such an
# autoinstall with status 11, its own failure for a skipped module; the
# exit status is dkms's, not asserted here; Documentation/install.rst,
# "With DKMS".)
other=5.10.0-99-amd64
# Headers that exist (dkms 3.2 checks for them first) but could build
# nothing: the refusal must be BUILD_EXCLUSIVE_KERNEL's.
mkdir -p "$ROOT/lib/modules/$other/build/include"
out=$(dkms build -m rblk -v "$VER" -k "$other" --kernelsourcedir "$ROOT/lib/modules/$other/build" "${TREES[@]}" 2>&1); rc=$?
if [ "$rc" -eq 77 ] && printf '%s' "$out" | grep -q 'BUILD_EXCLUSIVE'; then
	ok "dkms build for unsupported $other is refused by BUILD_EXCLUSIVE_KERNEL"
else
	not_ok "dkms build for unsupported $other is refused by BUILD_EXCLUSIVE_KERNEL (exit $rc)" "$out"
fi
out=$(dkms autoinstall -k "$other" --kernelsourcedir "$ROOT/lib/modules/$other/build" "${TREES[@]}" 2>&1)
if printf '%s' "$out" | grep -q 'BUILD_EXCLUSIVE' &&
   ! find "$ROOT/lib/modules/$other" "$T/dkms/rblk/$VER/$other" -name 'rblk.ko*' 2>/dev/null | grep -q .; then
	ok "dkms autoinstall for unsupported $other skips rblk, builds nothing"
else
	not_ok "dkms autoinstall for unsupported $other skips rblk, builds nothing" "$out"
fi
check "dkms remove --all" sh -c \
	"dkms remove -m rblk -v '$VER' --all --no-depmod ${TREES[*]}; test -z \"\$(dkms status -m rblk ${TREES[*]})\""
check "nothing written to the machine's /var/lib/dkms" \
	test "$(ls /var/lib/dkms 2>/dev/null | sort | tr '\n' ' ')" = "$before"
exit $failed

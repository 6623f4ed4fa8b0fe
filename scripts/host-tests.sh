#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of what an administrator installs (make host-check, and the
# host part of make check): tests/install_test.sh, tests/unit_test.sh
# (the systemd unit), tests/version_test.sh (one version everywhere) and
# tests/dkms_test.sh, of the udev rules, tests/udev_rules_test.sh, of
# what the documents say of the build, tests/docs_test.sh, and of the
# harness's kernel log filter,
# tests/known_splats_test.sh, of the bench-insn report and its
# annotation, tests/insn_report_test.sh and tests/insn_annotate_test.sh,
# and of make bench-scale's report arithmetic, tests/scale_report_test.sh;
# each KTAP; prints them, then "N passed, N
# failed".
#
# env: KVER, KDIR, BUILD, DKMS_KVERS, DKMS_KDIRS, DKMS_CHROOTS (see the
#      Makefile's host-check)
cd "$(dirname "$0")/.." || exit 1

# shellcheck source=../tools/tests/ktap-run.sh
. tools/tests/ktap-run.sh
pass=0 fail=0 skip=0
# DKMS against a kernel whose headers need a later Debian's gcc: in that
# suite's chroot (DKMS_CHROOTS, SUITE:KVER ...), with its dkms.
dkms_chroot=()
for _c in ${DKMS_CHROOTS:-}; do
	_k=${_c#*:}
	dkms_chroot+=("scripts/kchroot.sh run ${_c%%:*} ${BUILD:-build/} env KVER=$_k DKMS_KVERS=$_k DKMS_KDIRS=/usr/src/linux-headers-$_k bash tests/dkms_test.sh")
done
ktap_run "bash tests/install_test.sh" "bash tests/unit_test.sh" "bash tests/version_test.sh" \
	"bash tests/dkms_test.sh" "${dkms_chroot[@]}" "bash tests/udev_rules_test.sh" "bash tests/docs_test.sh" \
	"bash tests/known_splats_test.sh" "bash tests/insn_report_test.sh" \
	"bash tests/insn_annotate_test.sh" "bash tests/scale_report_test.sh"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

#!/bin/sh
# KUnit tests of the NVMe-oF wire format (kmod/proto_test.c, rblk_kunit.ko):
# capsule and SGL encoding, property/status/Identify decoding, address and
# NQN validation.  Only kernels with KUnit (the debug guest) have the
# module; Debian's kernel skips.  Loading the module runs the suite; the
# verdict is read from KUnit's debugfs results.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

SUITE=rblk_proto
KUNIT_KO=$(dirname "$RBLK_KO")/rblk_kunit.ko
RESULTS=/sys/kernel/debug/kunit/$SUITE/results
# kmod/proto_test.c's cases; fewer means some did not run.
MIN_CASES=20

[ -d /sys/kernel/debug/kunit ] ||
	skip "kernel without KUnit debugfs (CONFIG_KUNIT_DEBUGFS; the debug guest has it)"
[ -f "$KUNIT_KO" ] || fail "kernel has KUnit but $KUNIT_KO is not in the guest"

cleanup() {
	[ -d /sys/module/rblk_kunit ] && rmmod rblk_kunit
	rblk_unload
}
trap cleanup EXIT

rblk_load
insmod "$KUNIT_KO" || fail "insmod $KUNIT_KO failed"
[ -r "$RESULTS" ] || fail "no $RESULTS after loading rblk_kunit.ko"
cp "$RESULTS" /tmp/kunit.results
rmmod rblk_kunit || fail "rmmod rblk_kunit failed"
sed 's/^/  /' /tmp/kunit.results

# Cases are the lines at the first indentation level; parameterised cases
# have their own subtests one level deeper.
passed=$(grep -cE '^    ok [0-9]+ ' /tmp/kunit.results)
failed=$(grep -cE '^    not ok [0-9]+ ' /tmp/kunit.results)
log "$passed cases passed, $failed failed"
[ "$failed" -eq 0 ] || fail "$failed KUnit case(s) failed: $(grep -E '^    not ok' /tmp/kunit.results | tr '\n' ' ')"
[ "$passed" -ge "$MIN_CASES" ] || fail "only $passed KUnit cases ran, expected $MIN_CASES"
grep -qE "^ok [0-9]+ (- )?$SUITE\$" /tmp/kunit.results ||
	fail "suite $SUITE did not report ok"

splat=$(dmesg_splats) && fail "kernel splat: $splat"
exit 0

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # $failed is the sourcing test's
# KTAP helpers of the host tests in tests/ (sourced).
#
#   ok DESC                one passing case
#   not_ok DESC [TEXT...]  one failing case; TEXT, the last 20 lines of it,
#                          as "# " diagnostics
#   check DESC CMD...      one case, passing if CMD succeeds (its output is
#                          the diagnostics otherwise)
# $n counts the cases; $failed is 1 once one failed: `exit $failed`.
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() {
	n=$((n + 1)) failed=1
	echo "not ok $n $1"
	shift
	[ $# -eq 0 ] || printf '%s\n' "$@" | tail -n 20 | sed 's/^/# /'
}
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$desc"; else not_ok "$desc" "$out"; fi
}

# SPDX-License-Identifier: GPL-2.0
# Sourced by tools/tests/run.sh and scripts/host-tests.sh.
#
# ktap_run CMD...: run each CMD (a program, word-split: "bash t.sh" works),
# print its KTAP and add its cases to $pass, $fail and $skip.  A program
# that exits non-zero without a failing case counts as one failure.
ktap_run() {
	pass=${pass:-0} fail=${fail:-0} skip=${skip:-0}
	for _t in "$@"; do
		# shellcheck disable=SC2086 # CMD may carry its interpreter
		_out=$($_t 2>&1)
		_rc=$?
		printf '%s\n' "$_out"
		_p=$(printf '%s\n' "$_out" | grep -E '^ok [0-9]+' | grep -vc '# SKIP')
		_s=$(printf '%s\n' "$_out" | grep -E '^ok [0-9]+' | grep -c '# SKIP')
		_f=$(printf '%s\n' "$_out" | grep -cE '^not ok [0-9]+')
		if [ "$_rc" -ne 0 ] && [ "$_f" -eq 0 ]; then
			echo "# $_t exited with $_rc without a failing case"
			_f=1
		fi
		pass=$((pass + _p)) skip=$((skip + _s)) fail=$((fail + _f))
	done
}

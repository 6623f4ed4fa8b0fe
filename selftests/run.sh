#!/bin/sh
# Guest test runner: runs selftests/rblk/NAME.sh (kselftest exit codes: 0 pass,
# 4 skip, other fail), each in its own session under a timeout, and reports
# KTAP on stdout (the console) and fd 3 (/dev/ttyS1, read by the host).
#
# Selection: RBLK_TESTS="a,b" (comma or space separated), empty = every
# selftests/rblk/*.sh.  selftests/meta/NAME.sh (tests of the harness itself,
# e.g. selftest_must_fail) run only when named.  --script FILE runs just FILE
# (how `make demo` runs selftests/demo.sh).
# A test also fails if the kernel log grew a splat (BUG/WARNING/Oops...) while
# it ran, or if the shell could not run one of its commands (not found,
# syntax error).  A test can raise its timeout with a "# rblk-timeout: SECS" line.

DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib.sh"

DEFAULT_TIMEOUT=${RBLK_TEST_TIMEOUT:-300}
{ true >&3; } 2>/dev/null || exec 3>/dev/null

# One line to the console and to the KTAP channel.
emit() {
	printf '%s\n' "$*"
	printf '%s\n' "$*" >&3
}

# Test output, prefixed as KTAP diagnostics, streamed as it comes.
# With a file argument, the raw lines are kept there too.
prefix() {
	while IFS= read -r line; do
		emit "# $line"
		[ -n "$1" ] && printf '%s\n' "$line" >> "$1"
	done
}

# --- which tests ---
tests=
if [ "$1" = "--script" ]; then
	tests=$2
elif [ -z "$RBLK_TESTS" ] || [ "$RBLK_TESTS" = all ]; then
	for t in "$DIR"/rblk/*.sh; do
		[ -f "$t" ] && tests="$tests $t"
	done
else
	for name in $(echo "$RBLK_TESTS" | tr ',' ' '); do
		name=${name%.sh}
		if [ -f "$DIR/rblk/$name.sh" ]; then
			tests="$tests $DIR/rblk/$name.sh"
		elif [ -f "$DIR/meta/$name.sh" ]; then
			tests="$tests $DIR/meta/$name.sh"
		else
			tests="$tests missing:$name"
		fi
	done
fi

n=0
for t in $tests; do n=$((n + 1)); done

emit "KTAP version 1"
emit "1..$n"

# run_test PATH: run one test to completion or timeout; sets rc and timed_out.
run_test() {
	_limit=$(sed -n 's/^# rblk-timeout: *\([0-9][0-9]*\).*/\1/p' "$1" | head -n1)
	# A test's own limit raises the default, never lowers it (the debug
	# guest's default is longer than any test's own).
	[ "${_limit:-0}" -gt "$DEFAULT_TIMEOUT" ] || _limit=$DEFAULT_TIMEOUT
	_fifo=/tmp/rblk-run.fifo
	rm -f "$_fifo" /tmp/rblk-run.out
	mkfifo "$_fifo"
	prefix /tmp/rblk-run.out < "$_fifo" &
	_ppid=$!
	# setsid: the test leads its own process group, so a timeout kills all of it.
	(cd /tmp && exec setsid /bin/sh "$1") > "$_fifo" 2>&1 < /dev/null &
	_tpid=$!
	_flag=/tmp/rblk-run.timedout.$_tpid
	# The watchdog has its own group too, so cancelling it takes its sleep along.
	# shellcheck disable=SC2016 # expanded by the watchdog's shell
	setsid /bin/sh -c 'sleep "$1"; : > "$2"; kill -TERM "-$3"; sleep 5; kill -KILL "-$3"' \
		watchdog "$_limit" "$_flag" "$_tpid" 2>/dev/null &
	_wpid=$!
	wait "$_tpid"
	rc=$?
	# Whatever the test left running in the background goes with it.
	kill -KILL "-$_tpid" 2>/dev/null
	# (Its pid too: it may not have called setsid yet.)
	kill -TERM "-$_wpid" 2>/dev/null
	kill -TERM "$_wpid" 2>/dev/null
	wait "$_wpid" 2>/dev/null
	timed_out=0
	[ -e "$_flag" ] && timed_out=$_limit
	# The prefixer ends once every writer is gone; a stuck grandchild holding
	# the fifo must not hang the run.
	_i=0
	while kill -0 "$_ppid" 2>/dev/null && [ "$_i" -lt 50 ]; do
		usleep 100000; _i=$((_i + 1))
	done
	kill "$_ppid" 2>/dev/null
	wait "$_ppid" 2>/dev/null
	rm -f "$_fifo" "$_flag"
}

i=0
npass=0 nfail=0 nskip=0
for t in $tests; do
	i=$((i + 1))
	case $t in
	missing:*)
		name=${t#missing:}
		emit "# no test named '$name' in selftests/rblk/ or selftests/meta/"
		emit "not ok $i $name"
		nfail=$((nfail + 1))
		continue
		;;
	esac
	name=$(basename "$t" .sh)
	emit "# === $name"
	dmesg -c >> /var/log/dmesg.all 2>/dev/null
	# Which test a report in the saved log came during (lockdep_armed).
	echo "rblk-run: === $name" >> /var/log/dmesg.all
	start=$(date +%s)
	run_test "$t"
	secs=$(( $(date +%s) - start ))
	# A failed test must not fail the ones after it.
	[ "$RBLK_MODE" = check ] && reset_fabric

	# Whatever the test said, a kernel splat while it ran fails it.
	dmesg -c > /tmp/rblk-run.dmesg 2>/dev/null
	cat /tmp/rblk-run.dmesg >> /var/log/dmesg.all
	filtered=$(splat_filter < /tmp/rblk-run.dmesg)
	splat=$(printf '%s\n' "$filtered" | grep -E "$RBLK_SPLAT_RE")
	known=$(printf '%s\n' "$filtered" | grep 'rblk-known-splat:')
	[ -n "$known" ] && printf '%s\n' "$known" | sed 's/^/known: /' | prefix

	result="ok"
	directive=""
	if [ "$timed_out" != 0 ]; then
		emit "# $name: TIMEOUT after ${timed_out}s"
		result="not ok"
	elif [ "$rc" -eq "$KSFT_SKIP" ]; then
		reason=$(sed -n 's/^SKIP: [^:]*: //p' /tmp/rblk-run.out 2>/dev/null | tail -n1)
		directive=" # SKIP${reason:+ $reason}"
	elif [ "$rc" -ne 0 ]; then
		emit "# $name: exit code $rc"
		result="not ok"
	fi
	# What the shell could not run (a helper that is not there, a syntax
	# error) is a check that never happened: the test fails whatever it
	# said.  dash reports these as "SCRIPT: LINE: ...".
	shell_err=$(grep -E '^[^ ]*\.sh: [0-9]+: .*(: not found|Syntax error|Bad substitution|Illegal number)' \
		/tmp/rblk-run.out 2>/dev/null)
	if [ -n "$shell_err" ]; then
		emit "# $name: the shell could not run part of it:"
		printf '%s\n' "$shell_err" | head -n 10 | prefix
		result="not ok"
		directive=""
	fi
	if [ -n "$splat" ]; then
		emit "# $name: kernel log has a splat:"
		printf '%s\n' "$splat" | head -n 40 | sed 's/^/dmesg: /' | prefix
		result="not ok"
		directive=""
	fi
	if [ "$result" = "not ok" ]; then
		# The kernel's side of the story, for the failure report.
		if [ -s /tmp/rblk-run.dmesg ]; then
			emit "# --- last kernel messages during $name:"
			tail -n 40 /tmp/rblk-run.dmesg | sed 's/^/dmesg: /' | prefix
		fi
		nfail=$((nfail + 1))
	elif [ -n "$directive" ]; then
		nskip=$((nskip + 1))
	else
		npass=$((npass + 1))
	fi
	emit "# $name: ${secs}s"
	emit "$result $i $name$directive"
done

emit "# rblk-run: $npass passed, $nfail failed, $nskip skipped"
emit "# rblk-run: done"
[ "$nfail" -eq 0 ]

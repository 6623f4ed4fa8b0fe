#!/bin/bash
# Boot the test guest under QEMU (TCG) and judge the run.
#
# usage: scripts/vm-run.sh [--mode check|demo|NAME] [--tests "a b"] [--timeout SECS]
# env:   KVER (6.1.0-57-amd64), BUILD (build), RBLK_TEST_TIMEOUT (per test, guest side),
#        RBLK_VM_KERNEL, RBLK_VM_INITRD (default BUILD/kernel/boot/vmlinuz-KVER,
#        BUILD/initramfs.cpio.gz), RBLK_VM_MEM (MiB, default 2048),
#        RBLK_VM_APPEND (more kernel command line), RBLK_RDMA (rxe or siw),
#        RBLK_VM_PLUGIN (a TCG plugin and its arguments: -plugin's value)
#
# The console (ttyS0) is streamed to stdout and kept in $BUILD/console.log.
# Test results come as KTAP over a second UART (ttyS1 -> $BUILD/ktap.log)
# that only the guest's runner writes, so kernel messages cannot garble them.
# Exit status is non-zero if any test failed, none ran (check mode), the
# results are incomplete, the kernel logged a splat, or the guest timed out.
set -euo pipefail

KVER=${KVER:-6.1.0-57-amd64}
BUILD=${BUILD:-build}
BUILD=${BUILD%/}
MODE=check
TESTS=
VM_TIMEOUT=600
MAX_STREAM_LINES=20000

while [ $# -gt 0 ]; do
	case $1 in
	--mode)    MODE=$2; shift 2 ;;
	--tests)   TESTS=$2; shift 2 ;;
	--timeout) VM_TIMEOUT=$2; shift 2 ;;
	*) echo "vm-run: unknown argument $1" >&2; exit 2 ;;
	esac
done
# check runs selftests; any other mode NAME runs selftests/NAME.sh (demo, ...).
if [ "$MODE" != check ] && [ ! -f "$(dirname "$0")/../selftests/$MODE.sh" ]; then
	echo "vm-run: --mode check, or NAME with a selftests/NAME.sh (demo)" >&2
	exit 2
fi

# Kernel splat patterns: the guest's list (RBLK_SPLAT_RE in selftests/lib.sh).
splat_re=$(sed -n "s/^RBLK_SPLAT_RE='\\(.*\\)'$/\\1/p" "$(dirname "$0")/../selftests/lib.sh")
[ -n "$splat_re" ] || { echo "vm-run: cannot read RBLK_SPLAT_RE from selftests/lib.sh" >&2; exit 2; }

KERNEL=${RBLK_VM_KERNEL:-$BUILD/kernel/boot/vmlinuz-$KVER}
INITRD=${RBLK_VM_INITRD:-$BUILD/initramfs.cpio.gz}
CONSOLE=$BUILD/console.log
KTAP=$BUILD/ktap.log
for f in "$KERNEL" "$INITRD"; do
	[ -f "$f" ] || { echo "vm-run: missing $f (run 'make setup initramfs')" >&2; exit 2; }
done

# The kernel command line cannot hold spaces inside a value.
tests_arg=$(echo "$TESTS" | tr -s ' ,' ',' | sed 's/^,//; s/,$//')
# loglevel=5 after quiet: WARN() splats (KERN_WARNING) reach the console too.
# printk.time=1: kernel lines start with "[ secs]", user output never does.
# no_timer_check: on a loaded host, TCG can miss the early check of the
# timer interrupt, and the kernel panics at boot ("IO-APIC + timer doesn't
# work!", seen with 7.3 while other guests ran).
APPEND="console=ttyS0 quiet loglevel=5 printk.time=1 no_timer_check panic=-1 rblktest.mode=$MODE rblktest.tests=$tests_arg"
[ -n "${RBLK_TEST_TIMEOUT:-}" ] && APPEND="$APPEND rblktest.timeout=$RBLK_TEST_TIMEOUT"
[ -n "${RBLK_RDMA:-}" ] && APPEND="$APPEND rblktest.rdma=$RBLK_RDMA"
[ -n "${RBLK_VM_APPEND:-}" ] && APPEND="$APPEND $RBLK_VM_APPEND"

# One boot: the console streamed and kept in $CONSOLE, the guest's time
# in $elapsed, qemu's status in $rc.
boot() {
	: > "$CONSOLE"
	: > "$KTAP"
	echo "vm-run: booting $KVER (TCG), mode=$MODE tests=${tests_arg:-all}, timeout ${VM_TIMEOUT}s"
	start=$(date +%s)
	set +e
	# -nic none: the guest has no network device that could reach anything.
	# -uuid: the SMBIOS system UUID a real machine has (/sys/class/dmi/id/
	# product_uuid), from which nvmecfg derives a stable host NQN; fixed, so
	# that it is the same in every boot (host_identity).
	# ttyS0 = console (+ monitor, as -nographic does), ttyS1 = KTAP file.
	# stdin from /dev/null: qemu leaves the terminal alone and never stops on SIGTTIN.
	timeout -k 10 "$VM_TIMEOUT" \
		qemu-system-x86_64 -accel tcg -cpu max -m "${RBLK_VM_MEM:-2048}" -smp 2 \
			-nic none -no-reboot -nographic -uuid "${RBLK_VM_UUID:-7b1e0c3a-5d2f-4c1b-9a6e-2f4d8c0b1a23}" \
			-serial mon:stdio -serial "file:$KTAP" \
			-kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND" \
			${RBLK_VM_PLUGIN:+-plugin "$RBLK_VM_PLUGIN"} \
			< /dev/null 2>&1 |
		awk -v out="$CONSOLE" -v max="$MAX_STREAM_LINES" '
			# BIOS and kernel terminal resets are noise in a log.
			{ sub(/\r$/, ""); gsub(/\033(\[[0-9;?]*[A-Za-z]|c)/, ""); print > out; fflush(out) }
			NR <= max { print; fflush() }
			NR == max + 1 { print "vm-run: (console output cut here; all of it is in " out ")"; fflush() }'
	rc=${PIPESTATUS[0]}
	set -e
	elapsed=$(( $(date +%s) - start ))
	echo "vm-run: guest ran ${elapsed}s (qemu exit $rc)"
}

boot
# A guest kernel that dies before the initramfs's init has printed its
# first line ran nothing of rblk: the module is not loaded yet.  Under
# TCG that happens, rarely, while other guests load the host (a panic in
# sched_clock_cpu() at 7 s, seen once in CI; with panic=-1 and
# -no-reboot qemu then exits with 0).  Such a boot, if it ended within
# five minutes (a crash, not a hang worth a second timeout), is repeated
# once, saying so; a second one fails the run as any other boot would.
if [ "$elapsed" -lt 300 ] && ! grep -q '^rblk-init: ' "$CONSOLE" && [ ! -s "$KTAP" ]; then
	mv "$CONSOLE" "$CONSOLE.boot1"
	echo "vm-run: the guest kernel stopped before rblk-init started (qemu exit $rc, no rblk code had run); its first report and last lines:"
	{
		grep -E '^\[ *[0-9]+\.[0-9]+\] ' "$CONSOLE.boot1" | grep -E "$splat_re" | head -n 4
		grep -E '^\[ *[0-9]+\.[0-9]+\] ' "$CONSOLE.boot1" | tail -n 4
	} | cut -c1-160 | sed 's/^/  /'
	echo "vm-run: booting once more (the first console is kept in $CONSOLE.boot1)"
	boot
fi

problems=()
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	problems+=("guest timed out after ${VM_TIMEOUT} s")
elif [ "$rc" -ne 0 ]; then
	problems+=("qemu exited with status $rc")
fi

# Kernel splats anywhere on the console.  Only kernel lines ("[  1.23] ...")
# count, so tests echoing these words cannot trigger it.
# Reports selftests/known-splats lists (reports of other subsystems)
# count as one "rblk-known-splat:" line each, shown but not failing the run.
selftests=$(dirname "$0")/../selftests
klog=$(grep -E '^\[ *[0-9]+\.[0-9]+\] ' "$CONSOLE" |
	awk -v known="$selftests/known-splats" -f "$selftests/known-splats.awk" || true)
known=$(printf '%s\n' "$klog" | grep 'rblk-known-splat:' || true)
if [ -n "$known" ]; then
	echo "vm-run: known reports outside rblk (selftests/known-splats):"
	printf '%s\n' "$known" | sed 's/^/  /'
fi
splats=$(printf '%s\n' "$klog" | grep -E "$splat_re" | head -n 20 || true)
if [ -n "$splats" ]; then
	which=$(printf '%s\n' "$splats" | grep -oE "$splat_re" | sort -u | paste -sd, -)
	problems+=("kernel log shows: $which")
	echo "vm-run: kernel splat lines:"
	printf '%s\n' "$splats" | sed 's/^/  /'
	# The first report in short (its headline, RIP, module list and
	# call trace without "? " guesses), repeated with the errors at the
	# end, where a CI log's tail shows it.
	report=$(printf '%s\n' "$klog" | awk -v re="$splat_re" '
		!on && $0 ~ re { on = 1 }
		!on { next }
		/\] +\? / { next }
		/BUG:|Oops|WARNING:|RIP:|Modules linked|Call Trace|Kernel panic|general protection|UBSAN:|corruption|refcount_t:|INFO: task|\] +[A-Za-z_][A-Za-z0-9_.]*\+0x/ {
			print; if (++n == 24) exit
		}')
fi

# --- KTAP results from ttyS1 ---
tr -d '\r' < "$KTAP" > "$KTAP.tmp" && mv "$KTAP.tmp" "$KTAP"
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$KTAP" | tail -n1)
npass=0 nfail=0 nskip=0
# Each test's run time, from the runner's "# NAME: Ns" line.
declare -A secs=()
while IFS=' ' read -r name s; do
	secs[$name]=$s
done < <(sed -n 's/^# \([A-Za-z0-9_-]\{1,\}\): \([0-9]\{1,\}s\)$/\1 \2/p' "$KTAP")
echo "vm-run: results:"
while IFS= read -r line; do
	case $line in
	"ok "*|"not ok "*) ;;
	*) continue ;;
	esac
	rest=${line#ok }
	rest=${rest#not ok }
	name=${rest#* }			# drop the number
	desc=${name%% \#*}
	t=${secs[$desc]:+ [${secs[$desc]}]}
	case $line in
	"not ok "*)
		echo "  FAIL  $desc$t"; nfail=$((nfail + 1)) ;;
	*"# SKIP"*|*"# skip"*)
		reason=${name#*# [Ss][Kk][Ii][Pp]}; reason=${reason# }
		echo "  SKIP  $desc${reason:+ ($reason)}$t"; nskip=$((nskip + 1)) ;;
	*)
		echo "  PASS  $desc$t"; npass=$((npass + 1)) ;;
	esac
done < "$KTAP"
ran=$((npass + nfail + nskip))
# Where the guest's time went, longest first: what a time budget is
# planned from.  The rest of the boot is setup, module loads and resets.
if [ ${#secs[@]} -gt 0 ]; then
	sum=0
	for s in "${secs[@]}"; do
		sum=$((sum + ${s%s}))
	done
	echo "vm-run: wall time per test, longest first (tests ${sum}s of the guest's ${elapsed}s):"
	for name in "${!secs[@]}"; do
		printf '%6ss  %s\n' "${secs[$name]%s}" "$name"
	done | sort -k1,1nr -k2,2
fi

if [ -z "$plan" ]; then
	problems+=("no KTAP plan from the guest (runner never started; see $CONSOLE)")
elif [ "$ran" -ne "$plan" ]; then
	# The test that was running when the guest stopped: its header came,
	# its result did not (or, between two tests, the last one done).
	last=$(sed -n 's/^# === //p' "$KTAP" | tail -n1)
	where=
	if [ -n "$last" ]; then
		where=" (stopped in $last)"
		grep -qE "^(not )?ok [0-9]+ $last( |$)" "$KTAP" && where=" (stopped after $last)"
	fi
	problems+=("guest reported $ran of $plan planned results$where")
elif ! grep -qx '# rblk-run: done' "$KTAP"; then
	problems+=("guest runner did not finish")
fi
if [ "$MODE" = check ] && [ "$ran" -eq 0 ]; then
	problems+=("no test ran")
fi

if [ -n "${report:-}" ]; then
	echo "vm-run: the first kernel report, in short (all of it in $CONSOLE):"
	printf '%s\n' "$report" | cut -c1-160 | sed 's/^/  /'
fi
for p in "${problems[@]}"; do
	echo "vm-run: ERROR: $p"
done
echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ] && [ ${#problems[@]} -eq 0 ]

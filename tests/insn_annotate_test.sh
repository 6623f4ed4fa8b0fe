#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/insn-annotate.py, where `make insn-annotate` puts a function's
# instructions per I/O: a module compiled here and a run made up for it
# (blocks at known instructions, known counts) must give those counts per
# function, per instruction and, summed, per source line; a job the run
# does not have is refused.  KTAP.
cd "$(dirname "$0")/.." || exit 1

T=$(mktemp -d /tmp/rblk-annotate.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

cat > "$T/annotate.c" <<'C'
int sink;

int rblk_queue_rq(int a)
{
	sink = a;
	if (a > 3)
		sink = a * 7;
	return sink + 1;
}
C
if ! gcc -g -O1 -c -o "$T/rblk.ko" "$T/annotate.c" 2> "$T/cc.out"; then
	not_ok "the test module compiles" "$(cat "$T/cc.out")"
	echo "1..$n"
	exit 1
fi
# The function's instruction offsets, as objdump gives them.
mapfile -t offs < <(objdump -d --no-show-raw-insn \
	--disassemble=rblk_queue_rq "$T/rblk.ko" |
	sed -n 's/^ *\([0-9a-f]\+\):.*/\1/p')
if [ "${#offs[@]}" -lt 5 ]; then
	not_ok "the test function has five instructions" "${offs[*]}"
	echo "1..$n"
	exit 1
fi

# One job, 100 I/Os short, 300 long.  Per I/O: a block of the first two
# instructions run once, a block of the next three run twice (8 in all);
# another function's block, which the annotation leaves out; a fixed
# cost per run that the difference cancels.
python3 - "$T" "${offs[2]}" <<'PY'
import sys
t, off2 = sys.argv[1], int(sys.argv[2], 16)
base = 0xffffffffc0001000
with open(t + "/ktap.log", "w") as f:
    f.write("# INSN-MARK 1 rblk randwrite_4k_qd1 1 short\n")
    f.write("# INSN-MARK 2 rblk randwrite_4k_qd1 1 long\n")
    f.write("# INSN-FIO rblk randwrite_4k_qd1 1 short 100\n")
    f.write("# INSN-FIO rblk randwrite_4k_qd1 1 long 300\n")
    for a, n, m in ((0xffffffff81000000, "_stext", "vmlinux"),
                    (0xffffffff82000000, "_etext", "vmlinux"),
                    (base, "rblk_queue_rq", "rblk"),
                    (base + 0x1000, "rblk_other", "rblk")):
        f.write("# INSN-KSYM %x %s [%s]\n" % (a, n, m))
    f.write("# INSN-DONE 2\n")
with open(t + "/insn.dump", "w") as f:
    for seq, ios in ((1, 100), (2, 300)):
        f.write("mark %d\n" % seq)
        f.write("%x %d %d\n" % (base, 2 * ios + 40, ios + 20))
        f.write("%x %d %d\n" % (base + off2, 6 * ios, 2 * ios))
        f.write("%x %d %d\n" % (base + 0x1000, 4 * ios, ios))
        f.write("user 0 0\nend %d\n" % seq)
PY

annotate() {
	scripts/insn-annotate.py "$T/ktap.log" "$T/insn.dump" "$T/rblk.ko" "$@" \
		> "$T/out" 2>&1
}

if annotate randwrite_4k_qd1 --func rblk_queue_rq --asm; then
	ok "annotation of a complete run"
else
	not_ok "annotation of a complete run" "$(cat "$T/out")"
fi
check "the module's total per I/O" \
	grep -q '^randwrite_4k_qd1, rblk: rblk 12.0 instructions per I/O' "$T/out"
check "the function's total per I/O" grep -q '^rblk_queue_rq: 8.0 per I/O' "$T/out"
lines=$(awk '/^rblk_queue_rq:/ { on = 1; next }
	on && NF == 2 { s += $1 } END { print s }' "$T/out")
if [ "$lines" = 8 ]; then
	ok "the source lines add up to the function"
else
	not_ok "the source lines add up to the function" "got $lines" "$(cat "$T/out")"
fi
counts=$(awk '$2 ~ /^\+/ { printf "%s ", $1 }' "$T/out")
if [ "$counts" = "1.00 1.00 2.00 2.00 2.00 " ]; then
	ok "each instruction carries its block's executions"
else
	not_ok "each instruction carries its block's executions" "got $counts" "$(cat "$T/out")"
fi
check "lines are named by the source file" grep -q 'annotate.c:[0-9]' "$T/out"

if annotate randread_4k_qd1; then
	not_ok "a job the run does not have is refused"
else
	check "a job the run does not have is refused" grep -q 'no rblk run of randread_4k_qd1' "$T/out"
fi
echo "1..$n"
exit "$failed"

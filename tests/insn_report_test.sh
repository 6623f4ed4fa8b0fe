#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/insn-report.py, the arithmetic of `make bench-insn`: a guest log
# and a plugin dump made up here, whose per-I/O counts are known, must give
# exactly those numbers; a dump that lacks a mark, a log without its end
# and marks the guest did not print must fail the report.  KTAP.
cd "$(dirname "$0")/.." || exit 1

T=$(mktemp -d /tmp/rblk-insn.XXXXXX)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

# The made-up run: one job, 100 I/Os short, 300 long.  Per I/O: rblk 50 + 20
# (two blocks of rblk_queue_rq, one call), nvme 40 + 10 (nvme_rdma_post_send,
# one call) + 30 (nvme_core); both 300 in ib_core, 5,000 in rdma_rxe, 10,000
# in vmlinux, 1,000 in user space; and a fixed cost per run (fio's start) that
# the difference must cancel.
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
syms = [("ffffffff81000000", "_stext", "vmlinux"), ("ffffffff82000000", "_etext", "vmlinux"),
        ("ffffffffc0001000", "rblk_queue_rq", "rblk"), ("ffffffffc0002000", "rblk_poll", "rblk"),
        ("ffffffffc0100000", "nvme_rdma_queue_rq", "nvme_rdma"),
        ("ffffffffc0100800", "nvme_rdma_post_send", "nvme_rdma"),
        ("ffffffffc0200000", "nvme_setup_cmd", "nvme_core"),
        ("ffffffffc0300000", "ib_foo", "ib_core"), ("ffffffffc0400000", "rxe_post_send", "rdma_rxe")]
with open(t + "/ktap.log", "w") as f:
    f.write("# INSN-INFO made up\n")
    seq = 0
    for host in ("rblk", "nvme"):
        for phase in ("start", "short", "long"):
            seq += 1
            # rblk's counters: 10 + 2 commands per I/O in 1 + 1 doorbells
            # per I/O, plus a fixed 7 and 5 per run.
            ctr = ""
            if host == "rblk":
                ios = {"start": 0, "short": 100, "long": 400}[phase]
                ctr = " %d %d" % (10 + 2 * ios + 7 * (seq - 1), 10 + ios + 5 * (seq - 1))
            f.write("# INSN-MARK %d %s randread_4k_qd1 1 %s%s\n" % (seq, host, phase, ctr))
        f.write("# INSN-FIO %s randread_4k_qd1 1 short 100\n" % host)
        f.write("# INSN-FIO %s randread_4k_qd1 1 long 300\n" % host)
    for a, n, m in syms:
        f.write("# INSN-KSYM %s %s [%s]\n" % (a, n, m))
    f.write("# INSN-DONE 6\n")
blocks = {"rblk": [("ffffffffc0001000", 50, 1), ("ffffffffc0001040", 20, 1)],
          "nvme": [("ffffffffc0100000", 40, 1), ("ffffffffc0100800", 10, 1),
                   ("ffffffffc0200000", 30, 1)]}
common = [("ffffffffc0300000", 300, 2), ("ffffffffc0400000", 5000, 7),
          ("ffffffff81001000", 10000, 40)]
with open(t + "/insn.dump", "w") as f:
    def mark(seq, host, ios):
        f.write("mark %d\n" % seq)
        if host:
            for a, i, e in blocks[host] + common:
                fixed = 1000 if a == "ffffffff81001000" else 0
                f.write("%s %d %d\n" % (a, i * ios + fixed, e * ios + 3))
        f.write("user %d %d\nend %d\n" % (1000 * ios + 777 if host else 5, 9, seq))
    mark(1, None, 0)
    mark(2, "rblk", 100)
    mark(3, "rblk", 300)
    mark(4, None, 0)
    mark(5, "nvme", 100)
    mark(6, "nvme", 300)
PY

report() {
	scripts/insn-report.py "$T/$1" "$T/$2" "$T/out" > "$T/report.out" 2>&1
}

if report ktap.log insn.dump; then
	ok "report of a complete run"
else
	not_ok "report of a complete run" "$(cat "$T/report.out")"
fi
# field JQ-PATH EXPECTED: the JSON's value, to 4 decimals.
field() {
	local got
	got=$(jq -r ".rows[0]$2" "$T/out/insn.json" 2>&1)
	if [ "$got" = "$3" ]; then ok "$1 = $3"; else not_ok "$1 = $3" "got $got"; fi
}
field "rblk driver per I/O" .rblk.driver 70
field "nvme driver per I/O (three modules)" .nvme.driver 80
field "driver_ratio" .driver_ratio 0.875
field "rblk ib_core per I/O" .rblk.ib_core 300
field "nvme rdma_rxe per I/O" .nvme.rdma_rxe 5000
field "rblk kernel per I/O (fixed cost cancelled)" .rblk.kernel 10000
field "nvme total per I/O (user space included)" .nvme.total 16380
field "rblk total per I/O" .rblk.total 16370
field "I/Os of the difference" .ios 200
field "rblk commands per doorbell (its counters)" .rblk.commands_per_doorbell 2
field "nvme commands per doorbell (post_send calls)" .nvme.commands_per_doorbell 1
field "top rblk function" '.rblk.functions[0] | "\(.name) \(.insns) \(.calls)"' "rblk_queue_rq 70 1"
field "job name" .job randread_4k_qd1
check "markdown table row" grep -q '^| randread_4k_qd1 | 200 | 70 | 80 | 0.875 |' "$T/out/insn.md"

# refused DESC LOG DUMP MESSAGE: the report fails on these inputs, saying
# MESSAGE.
refused() {
	if report "$2" "$3"; then
		not_ok "$1"
	else
		check "$1" grep -q "$4" "$T/report.out"
	fi
}

# Broken inputs: the report refuses them.
sed '/^mark 5$/,/^end 5$/d' "$T/insn.dump" > "$T/short.dump"
refused "a dump without a mark the guest printed is refused" ktap.log short.dump \
	"no counts for marks"
grep -v INSN-DONE "$T/ktap.log" > "$T/nodone.log"
refused "a log without INSN-DONE is refused" nodone.log insn.dump "no complete run"
sed 's/INSN-DONE 6/INSN-DONE 7/' "$T/ktap.log" > "$T/gap.log"
refused "marks missing from the log are refused" gap.log insn.dump "marks of"
echo "BENCH-FAIL fio broke" >> "$T/ktap.log"
refused "a failed guest run is refused" ktap.log insn.dump "guest failed"
echo "1..$n"
exit "$failed"

#!/usr/bin/env python3
"""Where a host driver's instructions per I/O go, by source line.

usage: insn-annotate.py LOG DUMP KO JOB [--host rblk|nvme] [--rep N]
                        [--func NAME]... [--top N] [--asm]
  LOG, DUMP  a `make bench-insn` run's guest log and plugin output (as
             scripts/insn-report.py takes them)
  KO         the module the guest ran (rblk.ko of that build; for nvme,
             nvme-rdma's module from the guest's kernel tree)
  JOB        one fio job of the run, e.g. randwrite_4k_qd1

For the job's short and long interval the plugin counted, per basic block,
instructions and executions; their difference per extra I/O is given to
each instruction of the block, and the instructions to the source line
objdump names for them (the innermost one of inlined code).  Prints the
functions of KO by instructions per I/O, and for each (all, or the --func
ones) its lines; --asm prints the instructions themselves.  The module's
addresses come from the guest's kallsyms (the INSN-KSYM lines): a block at
F+off is the instruction at F+off in KO's disassembly, which runtime
patching (alternatives, static keys, ftrace) leaves the same size.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "insn_report", os.path.join(HERE, "insn-report.py"))
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)

INSN_RE = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")
LINE_RE = re.compile(r"^(/\S+|\S+\.[ch]):(\d+)")


def disassemble(ko, func):
    """[(offset in func, source line, text)] of func in ko."""
    out = subprocess.run(
        ["objdump", "-d", "-l", "--no-show-raw-insn", "-M", "intel",
         "--disassemble=" + func, ko],
        check=True, capture_output=True, text=True).stdout
    insns, start, where, inside = [], None, "?", False
    for line in out.splitlines():
        if line.endswith("<%s>:" % func):
            inside = True
            continue
        if not inside:
            continue
        m = LINE_RE.match(line)
        if m:
            path = m.group(1)
            where = "%s:%s" % (os.path.relpath(path) if path.startswith(
                os.getcwd()) else path.split("/linux-", 1)[-1], m.group(2))
            continue
        m = INSN_RE.match(line)
        if m:
            addr = int(m.group(1), 16)
            if start is None:
                start = addr
            insns.append((addr - start, where, m.group(2).strip()))
        elif line.strip() == "" and insns:
            break
    return insns


def blocks_per_io(counts, marks, fio, host, job, rep):
    """{addr: (insns per I/O, execs per I/O)} of one host's job."""
    where = {v: s for s, v in marks.items()}
    s_seq = where.get((host, job, rep, "short"))
    l_seq = where.get((host, job, rep, "long"))
    if s_seq is None or l_seq is None:
        raise report.ReportError("no %s run of %s (rep %d) in the log"
                                 % (host, job, rep))
    ios = fio[(host, job, rep, "long")] - fio[(host, job, rep, "short")]
    short, long_ = counts[s_seq][0], counts[l_seq][0]
    out = {}
    for addr in set(short) | set(long_):
        a = short.get(addr, [0, 0])
        b = long_.get(addr, [0, 0])
        out[addr] = ((b[0] - a[0]) / ios, (b[1] - a[1]) / ios)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("dump")
    ap.add_argument("ko")
    ap.add_argument("job")
    ap.add_argument("--host", default="rblk", choices=["rblk", "nvme"])
    ap.add_argument("--rep", type=int, default=1)
    ap.add_argument("--func", action="append", default=[])
    ap.add_argument("--top", type=int, default=8,
                    help="functions annotated when no --func (default 8)")
    ap.add_argument("--asm", action="store_true")
    args = ap.parse_args()

    try:
        marks, fio, _, ksyms, _ = report.parse_log(args.log)
        counts = report.parse_dump(args.dump)
        syms = report.Symbols(ksyms)
        blocks = blocks_per_io(counts, marks, fio, args.host, args.job,
                               args.rep)
    except (report.ReportError, OSError, KeyError) as e:
        print("insn-annotate: %s" % e, file=sys.stderr)
        return 1
    module = os.path.basename(args.ko).rsplit(".", 1)[0].replace("-", "_")

    funcs = defaultdict(list)	# name -> [(offset, insns, execs)]
    for addr, (insns, execs) in blocks.items():
        mod, fn = syms.lookup(addr)
        if mod != module or fn is None or abs(insns) < 0.05:
            continue
        funcs[fn].append((addr - syms.entry[(mod, fn)], insns, execs))
    total = sum(i for b in funcs.values() for _, i, _ in b)
    ranked = sorted(funcs, key=lambda f: -sum(i for _, i, _ in funcs[f]))
    print("%s, %s: %s %.1f instructions per I/O" % (args.job, args.host,
                                                    module, total))
    for fn in ranked:
        print("  %7.1f  %s" % (sum(i for _, i, _ in funcs[fn]), fn))

    for fn in args.func or ranked[:args.top]:
        if fn not in funcs:
            print("\n%s: not executed per I/O" % fn)
            continue
        insns = disassemble(args.ko, fn)
        if not insns:
            print("\n%s: not in %s" % (fn, args.ko))
            continue
        index = {off: i for i, (off, _, _) in enumerate(insns)}
        per_insn = defaultdict(float)
        for off, n, execs in funcs[fn]:
            if off not in index or execs <= 0:
                continue
            # Each execution of the block runs its n / execs instructions.
            k = index[off]
            for j in range(k, min(k + round(n / execs), len(insns))):
                per_insn[j] += execs
        lines = defaultdict(float)
        for j, c in per_insn.items():
            lines[insns[j][1]] += c
        print("\n%s: %.1f per I/O" % (fn, sum(per_insn.values())))
        for where, c in sorted(lines.items(), key=lambda kv: -kv[1]):
            print("  %6.1f  %s" % (c, where))
        if args.asm:
            for j, (off, where, text) in enumerate(insns):
                if per_insn.get(j):
                    print("    %5.2f  +%-4x %-40s %s" % (per_insn[j], off,
                                                         text[:40], where))
    return 0


if __name__ == "__main__":
    sys.exit(main())

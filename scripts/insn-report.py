#!/usr/bin/env python3
"""Instructions per I/O of rblk and nvme-rdma from a `make bench-insn` run.

usage: insn-report.py LOG DUMP OUTDIR
  LOG   the guest's KTAP log (INSN-* lines of selftests/bench_insn.sh)
  DUMP  the rblk-insn plugin's output (tools/insn/insn.c)
Writes OUTDIR/insn.md and OUTDIR/insn.json; exits non-zero on an
incomplete or inconsistent run.

Every job ran twice per host, a short and a long run, each between two
marks; the plugin's counts of the two intervals differ by the work of the
extra I/Os only, so per I/O = (long - short) / (I/Os long - I/Os short).
Instructions are attributed by address: a block belongs to the function
whose symbol is the nearest below it ([vmlinux] between _stext and _etext);
the calls of a function are the executions of the block at its address.
"""
import bisect
import json
import os
import re
import sys
from collections import defaultdict

# The host drivers' modules ("driver"), and the RDMA stack's.
DRIVER = {"rblk": ["rblk"], "nvme": ["nvme_rdma", "nvme_fabrics", "nvme_core"]}
STACK = ["ib_core", "rdma_rxe"]
# The functions the polled jobs spin in (->poll first), and where
# nvme-rdma rings the doorbell (rblk counts its doorbells itself).
POLL = {"rblk": ["rblk_poll", "rblk_queue_poll", "__rblk_queue_reap"],
        "nvme": ["nvme_rdma_poll"]}
NVME_DOORBELL = "nvme_rdma_post_send"
TOP = 12
KEYS = ["driver", "ib_core", "rdma_rxe", "kernel", "total"]


class ReportError(Exception):
    pass


def strip_diag(line):
    line = line.rstrip("\r\n")
    # The guest runner passes test output on as "# " diagnostics.
    return line[2:] if line.startswith("# ") else line


def parse_log(path):
    """marks {seq: (host, job, rep, phase)}, fio {(host, job, rep, phase):
    I/Os}, rblk's counters at a mark {seq: (commands, doorbells)},
    symbols, info."""
    marks, fio, posted, syms = {}, {}, {}, []
    info, done = "", None
    with open(path, errors="replace") as f:
        for line in f:
            line = strip_diag(line)
            kind = line.split(" ", 1)[0]
            if kind == "BENCH-FAIL":
                raise ReportError("guest failed: " + line)
            if kind == "INSN-INFO":
                info = line[len("INSN-INFO "):]
            elif kind == "INSN-MARK":
                w = line.split()
                marks[int(w[1])] = (w[2], w[3], int(w[4]), w[5])
                if len(w) == 8:
                    posted[int(w[1])] = (int(w[6]), int(w[7]))
            elif kind == "INSN-FIO":
                _, host, job, rep, phase, ios = line.split()
                fio[(host, job, int(rep), phase)] = int(ios)
            elif kind == "INSN-KSYM":
                _, addr, name, mod = line.split()
                syms.append((int(addr, 16), name, mod.strip("[]")))
            elif kind == "INSN-DONE":
                done = int(line.split()[1])
    if done is None:
        raise ReportError("no complete run in " + path)
    if sorted(marks) != list(range(1, done + 1)):
        raise ReportError("guest printed %d marks of %d" % (len(marks), done))
    return marks, fio, posted, syms, info


def parse_dump(path):
    """{seq: (kernel blocks {addr: [insns, execs]}, user insns)}."""
    out, cur, seq = {}, None, None
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] in ("mark", "exit"):
                cur, seq = {}, int(w[1])
                user = 0
            elif w[0] == "user":
                user = int(w[1])
            elif w[0] == "end":
                if int(w[1]) != seq:
                    raise ReportError("dump: end %s inside mark %d" % (w[1], seq))
                out[seq] = (cur, user)
            else:
                cur[int(w[0], 16)] = [int(w[1]), int(w[2])]
    return out


class Symbols:
    """Kernel address -> (module, function)."""

    def __init__(self, syms):
        core = {n: a for a, n, m in syms if m == "vmlinux"}
        if "_stext" not in core or "_etext" not in core:
            raise ReportError("no _stext/_etext among the guest's symbols")
        self.stext, self.etext = core["_stext"], core["_etext"]
        mods = sorted((a, n, m) for a, n, m in syms if m != "vmlinux")
        self.addrs = [a for a, _, _ in mods]
        self.syms = mods
        self.entry = {(m, n): a for a, n, m in mods}

    def lookup(self, addr):
        if self.stext <= addr < self.etext:
            return ("vmlinux", None)
        i = bisect.bisect_right(self.addrs, addr) - 1
        # A module function is not larger than 1 MiB; beyond, it is
        # kernel code outside the modules (BPF, trampolines).
        if i < 0 or addr - self.addrs[i] >= 1 << 20:
            return ("vmlinux", None)
        return (self.syms[i][2], self.syms[i][1])


def interval(blocks, user, syms):
    """Instructions of one interval by module, and by function of a module
    with the calls (executions of the function's first block)."""
    mods = defaultdict(int)
    funcs = defaultdict(lambda: [0, 0])
    kernel = 0
    for addr, (insns, execs) in blocks.items():
        mod, fn = syms.lookup(addr)
        kernel += insns
        mods[mod] += insns
        if fn is not None:
            f = funcs[(mod, fn)]
            f[0] += insns
            if syms.entry.get((mod, fn)) == addr:
                f[1] += execs
    return {"mods": mods, "funcs": funcs, "kernel": kernel, "user": user}


def categories(host, iv):
    drv = sum(iv["mods"].get(m, 0) for m in DRIVER[host])
    stack = {m: iv["mods"].get(m, 0) for m in STACK}
    return {"driver": drv, "ib_core": stack["ib_core"],
            "rdma_rxe": stack["rdma_rxe"],
            "kernel": iv["kernel"] - drv - sum(stack.values()),
            "total": iv["kernel"] + iv["user"]}


def per_io(host, short, long_, ios):
    """The host's counts per I/O from its short and long interval."""
    a, b = categories(host, short), categories(host, long_)
    row = {k: (b[k] - a[k]) / ios for k in KEYS}
    funcs = {}
    for key in set(short["funcs"]) | set(long_["funcs"]):
        if key[0] not in DRIVER[host]:
            continue
        fa = short["funcs"].get(key, [0, 0])
        fb = long_["funcs"].get(key, [0, 0])
        funcs[key] = ((fb[0] - fa[0]) / ios, (fb[1] - fa[1]) / ios)
    top = sorted(funcs.items(), key=lambda kv: -kv[1][0])[:TOP]
    row["functions"] = [{"module": m, "name": n, "insns": round(i, 1),
                         "calls": round(c, 3)} for (m, n), (i, c) in top]
    # The poll functions' own instructions, and how often blk-mq polled
    # (the calls of the first, its ->poll).
    poll = [funcs.get((DRIVER[host][0], f), (0.0, 0.0)) for f in POLL[host]]
    row["poll"] = {"insns": sum(p[0] for p in poll), "calls": poll[0][1]}
    row["driver_excl_poll"] = row["driver"] - row["poll"]["insns"]
    return row


def build(log, dump):
    marks, fio, posted, ksyms, info = parse_log(log)
    counts = parse_dump(dump)
    missing = [s for s in marks if s not in counts]
    if missing:
        raise ReportError("the plugin wrote no counts for marks %s" % missing[:5])
    syms = Symbols(ksyms)
    where = {v: s for s, v in marks.items()}
    ivs = {}
    runs = defaultdict(dict)	# (job) -> {(host, rep): row}
    order = []
    for seq in sorted(marks):
        host, job, rep, phase = marks[seq]
        if phase != "long":
            continue
        if job not in order:
            order.append(job)
        s_seq = where.get((host, job, rep, "short"))
        if s_seq is None or s_seq + 1 != seq:
            raise ReportError("marks of %s %s out of order" % (host, job))
        for q in (s_seq, seq):
            if q not in ivs:
                ivs[q] = interval(*counts[q], syms)
        n_s = fio[(host, job, rep, "short")]
        n_l = fio[(host, job, rep, "long")]
        if n_l <= n_s:
            raise ReportError("%s %s: long run did %d I/Os, short %d"
                              % (host, job, n_l, n_s))
        row = per_io(host, ivs[s_seq], ivs[seq], n_l - n_s)
        row["ios"] = n_l - n_s
        # Commands per doorbell of the extra I/Os too: rblk's counters,
        # nvme-rdma's calls of its one ib_post_send.
        if host == "nvme":
            calls = [ivs[q]["funcs"].get(("nvme_rdma", NVME_DOORBELL), [0, 0])[1]
                     for q in (s_seq, seq)]
            cmds, bells = n_l - n_s, calls[1] - calls[0]
        else:
            p = [posted.get(q) for q in (s_seq - 1, s_seq, seq)]
            if None in p:
                raise ReportError("%s %s: no rblk counters at its marks" % (host, job))
            cmds = (p[2][0] - p[1][0]) - (p[1][0] - p[0][0])
            bells = (p[2][1] - p[1][1]) - (p[1][1] - p[0][1])
        row["commands_per_doorbell"] = cmds / bells if bells > 0 else None
        runs[job][(host, rep)] = row
    rows = []
    for job in order:
        reps = sorted({r for (_, r) in runs[job]})
        hosts = {}
        for host in ("rblk", "nvme"):
            got = [runs[job][(host, r)] for r in reps if (host, r) in runs[job]]
            if not got:
                raise ReportError("%s: no %s run" % (job, host))
            first = dict(got[0])
            if len(got) > 1:
                # How close the repeats are: the largest relative
                # difference of the driver's and the whole guest's counts.
                first["repeat_spread"] = {
                    k: (max(g[k] for g in got) - min(g[k] for g in got)) /
                    max(1e-9, min(g[k] for g in got)) for k in ("driver", "total")}
            hosts[host] = first
        r, n = hosts["rblk"], hosts["nvme"]
        row = {"job": job, "ios": r["ios"], "polled": job.endswith("_hipri"),
               "rblk": r, "nvme": n,
               "driver_ratio": r["driver"] / n["driver"] if n["driver"] else None,
               "ib_core_ratio": r["ib_core"] / n["ib_core"] if n["ib_core"] else None,
               "total_ratio": r["total"] / n["total"] if n["total"] else None}
        rows.append(row)
    return {"info": info, "rows": rows}


def rnd(obj):
    if isinstance(obj, float):
        return round(obj, 4)
    if isinstance(obj, dict):
        return {k: rnd(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [rnd(v) for v in obj]
    return obj


def fmt(x, nd=0):
    return "-" if x is None else ("{:,.%df}" % nd).format(x)


def markdown(rep):
    out = ["# Instructions per I/O: rblk vs nvme-rdma (guest, TCG plugin)", "",
           "Run: " + rep["info"], "",
           "driver = rblk.ko for rblk, nvme_rdma + nvme_fabrics + nvme_core for"
           " nvme-rdma; kernel = the rest of the kernel (target side"
           " included); total = the whole guest (fio included).", ""]

    def table(rows, title, polled):
        if not rows:
            return
        out.extend(["## " + title, ""])
        hdr = ["job", "I/Os", "rblk driver", "nvme driver", "ratio",
               "rblk ib_core", "nvme ib_core", "rblk rdma_rxe", "nvme rdma_rxe",
               "rblk kernel", "nvme kernel", "rblk total", "nvme total",
               "total ratio", "rblk cmds/doorbell", "nvme cmds/doorbell"]
        if polled:
            hdr += ["rblk driver excl. poll", "nvme driver excl. poll", "ratio excl. poll",
                    "rblk poll insns (polls)", "nvme poll insns (polls)"]
        out.append("| " + " | ".join(hdr) + " |")
        out.append("|" + "---|" * len(hdr))
        for row in rows:
            r, n = row["rblk"], row["nvme"]
            cells = [row["job"], fmt(row["ios"]), fmt(r["driver"]), fmt(n["driver"]),
                     fmt(row["driver_ratio"], 3), fmt(r["ib_core"]), fmt(n["ib_core"]),
                     fmt(r["rdma_rxe"]), fmt(n["rdma_rxe"]), fmt(r["kernel"]),
                     fmt(n["kernel"]), fmt(r["total"]), fmt(n["total"]),
                     fmt(row["total_ratio"], 3), fmt(r["commands_per_doorbell"], 2),
                     fmt(n["commands_per_doorbell"], 2)]
            if polled:
                cells += [fmt(r["driver_excl_poll"]), fmt(n["driver_excl_poll"]),
                          fmt(r["driver_excl_poll"] / n["driver_excl_poll"]
                              if n["driver_excl_poll"] else None, 3)]
                cells += ["%s (%s)" % (fmt(h["poll"]["insns"]), fmt(h["poll"]["calls"], 2))
                          for h in (r, n)]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")

    table([r for r in rep["rows"] if not r["polled"]], "Interrupt-driven jobs", False)
    table([r for r in rep["rows"] if r["polled"]],
          "Polled jobs (the poll functions' instructions include spinning;"
          " driver_excl_poll in the JSON leaves them out)", True)
    spread = [(row["job"], h, row[h]["repeat_spread"]) for row in rep["rows"]
              for h in ("rblk", "nvme") if "repeat_spread" in row[h]]
    if spread:
        out.extend(["## Repeats", "", "| job | host | driver spread | total spread |",
                    "|---|---|---|---|"])
        for job, h, s in spread:
            out.append("| %s | %s | %.3f %% | %.3f %% |" % (job, h, 100 * s["driver"],
                                                           100 * s["total"]))
        out.append("")
    out.extend(["## Top functions per I/O (instructions, calls)", ""])
    for row in rep["rows"]:
        for h in ("rblk", "nvme"):
            out.append("- %s, %s: " % (row["job"], h) + "; ".join(
                "%s %s (%s)" % (f["name"], fmt(f["insns"]), fmt(f["calls"], 2))
                for f in row[h]["functions"]))
    out.append("")
    return "\n".join(out)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2])
    try:
        rep = build(argv[1], argv[2])
    except (ReportError, OSError, ValueError, KeyError) as e:
        sys.exit("insn-report: %s" % e)
    os.makedirs(argv[3], exist_ok=True)
    with open(os.path.join(argv[3], "insn.json"), "w") as f:
        json.dump(rnd(rep), f, indent=1)
        f.write("\n")
    md = markdown(rep)
    with open(os.path.join(argv[3], "insn.md"), "w") as f:
        f.write(md)
    print(md)


if __name__ == "__main__":
    main(sys.argv)

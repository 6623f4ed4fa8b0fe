#!/usr/bin/env python3
"""Turn the SCALE lines of a `make bench-scale` guest log into a report.

usage: scale-report.py LOG OUTDIR   (LOG: the KTAP log or the console)

Writes OUTDIR/scale.md (also printed) and OUTDIR/scale.json: per namespace
count N and host (rblk, nvme-rdma), the median over the runs of the time
from the connect command until all N block devices exist, of the time from
the disconnect command until all are gone, and of the kernel memory the
connected controller holds; the rblk/nvme ratios of those; the growth per
namespace (least-squares slope over the counts, and the slope of each step
between two counts) and the memory per controller (the intercept at N = 0);
the memory per I/O queue; the largest slab cache deltas; and the noise
floor of a memory delta (two reads with nothing between them).

Kernel memory of a delta = -(MemFree + PcpFree + Buffers + Cached +
AnonPages), from /proc/meminfo deltas (PcpFree: the free pages on the
per-CPU lists, from /proc/zoneinfo) after the guest's settle (drop_caches,
slabs shrunk):
everything the kernel allocated (slab, vmalloc, per-CPU, page tables,
stacks, raw pages) but page cache and user memory.
Exits non-zero if the log has no complete run, or the guest failed.
"""
import json
import os
import re
import statistics
import sys
from collections import defaultdict

HOSTS = ("rblk", "nvme")
HOST_NAME = {"rblk": "rblk", "nvme": "nvme-rdma"}
SLAB_SHOW = 8
# The guest's clock (/proc/uptime) counts 10 ms: two times closer than
# twice that are not told apart.
TIME_RES_MS = 20
# Where the kernel memory goes: meminfo fields reported per namespace and
# per queue beside it; "other" is the rest (pages from the page allocator
# directly, e.g. blk-mq's requests).
PARTS = ("Slab", "VmallocUsed", "Percpu")


def kernel_kb(fields):
    """Kernel memory delta (kB) from meminfo field deltas (kB)."""
    return -(fields["MemFree"] + fields.get("PcpFree", 0) + fields["Buffers"]
             + fields["Cached"] + fields["AnonPages"])


def median(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def ratio(a, b):
    """a / b, or None when it means nothing (b not positive, a missing)."""
    if a is None or b is None or b <= 0:
        return None
    return a / b


def fit(points):
    """Least-squares line through [(x, y)]: (slope, intercept), or
    (None, None) with fewer than two distinct x."""
    points = [(x, y) for x, y in points if y is not None]
    xs = {x for x, _ in points}
    if len(xs) < 2:
        return None, None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    slope = sxy / sxx
    return slope, my - slope * mx


def steps(points):
    """Slope of each step between consecutive x: [(x0, x1, slope)]."""
    points = sorted((x, y) for x, y in points if y is not None)
    return [(x0, x1, (y1 - y0) / (x1 - x0))
            for (x0, y0), (x1, y1) in zip(points, points[1:]) if x1 != x0]


def parse(log):
    """info, times {(host, kind, x): {run: (conn, disc, queues, devs)}},
    mem {(host, kind, x, phase): {run: {field: kB}}},
    slab {(host, kind, x): {run: {cache: (kB, objects)}}}."""
    info, done = {}, False
    times = defaultdict(dict)
    mem = defaultdict(dict)
    slab = defaultdict(lambda: defaultdict(dict))
    # The command times (the last two) came later: optional.
    time_re = re.compile(r"^SCALE-TIME (\S+) (\S+) (\S+) (\d+) (-?\d+) (-?\d+) (\d+) (\d+)"
                         r"(?: (-?\d+) (-?\d+))?\s*$")
    mem_re = re.compile(r"^SCALE-MEM (\S+) (\S+) (\S+) (\d+) (\S+) (.*)$")
    slab_re = re.compile(r"^SCALE-SLAB (\S+) (\S+) (\S+) (\d+) (\S+) (-?\d+) (-?\d+)\s*$")
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            # The guest runner passes test output on as "# " diagnostics.
            if line.startswith("# "):
                line = line[2:]
            if line.startswith("SCALE-FAIL"):
                sys.exit("bench-scale: guest failed: " + line)
            if line.startswith("SCALE-DONE"):
                done = True
            elif line.startswith("SCALE-INFO "):
                for word in line.split()[1:]:
                    k, _, v = word.partition("=")
                    info[k] = v
            elif m := time_re.match(line):
                h, kind, x, run = m.group(1), m.group(2), m.group(3), int(m.group(4))
                times[(h, kind, x)][run] = tuple(None if m.group(i) is None else int(m.group(i))
                                                 for i in range(5, 11))
            elif m := mem_re.match(line):
                h, kind, x, run, phase = m.group(1, 2, 3, 4, 5)
                fields = {}
                for word in m.group(6).split():
                    k, _, v = word.partition("=")
                    fields[k] = int(v)
                mem[(h, kind, x, phase)][int(run)] = fields
            elif m := slab_re.match(line):
                h, kind, x, run, cache = m.group(1, 2, 3, 4, 5)
                slab[(h, kind, x)][int(run)][cache] = (int(m.group(6)), int(m.group(7)))
    if not done:
        sys.exit("bench-scale: no complete run in " + log)
    return info, times, mem, slab


def host_stats(h, kind, x, times, mem, slab):
    """Medians of one host's runs of one case, or None if it did not run."""
    t = times.get((h, kind, x))
    if not t:
        return None
    con = mem.get((h, kind, x, "connected"), {})
    aft = mem.get((h, kind, x, "after"), {})
    runs = sorted(t)
    names = sorted({k for r in con.values() for k in r})
    caches = defaultdict(list)
    sl = slab.get((h, kind, x), {})
    for r in sl.values():
        for c in r:
            caches[c]
    for c in caches:
        # A cache missing from a run's top list changed little there: 0.
        caches[c] = (median([sl[r].get(c, (0, 0))[0] for r in sl]),
                     median([sl[r].get(c, (0, 0))[1] for r in sl]))
    top = sorted(caches.items(), key=lambda kv: -abs(kv[1][0]))[:SLAB_SHOW]
    return {
        "runs": len(runs),
        "queues": t[runs[0]][2],
        "devices": t[runs[0]][3],
        "connect_ms": median([t[r][0] for r in runs]),
        "connect_ms_runs": [t[r][0] for r in runs],
        "disconnect_ms": median([t[r][1] for r in runs]),
        "disconnect_ms_runs": [t[r][1] for r in runs],
        "connect_cmd_ms": median([t[r][4] for r in runs]),
        "disconnect_cmd_ms": median([t[r][5] for r in runs]),
        "kernel_kb": median([kernel_kb(con[r]) for r in runs if r in con]),
        "kernel_kb_runs": [kernel_kb(con[r]) for r in runs if r in con],
        "retained_kb": median([kernel_kb(aft[r]) for r in runs if r in aft]),
        "retained_kb_runs": [kernel_kb(aft[r]) for r in runs if r in aft],
        "fields_kb": {k: median([con[r].get(k) for r in runs if r in con])
                      for k in names},
        "slab_top": [{"cache": c, "kb": kb, "objects": o} for c, (kb, o) in top],
    }


def build(info, times, mem, slab):
    counts = sorted({int(x) for (h, kind, x) in times if kind == "ns"})
    rows = []
    for n in counts:
        st = {h: host_stats(h, "ns", str(n), times, mem, slab) for h in HOSTS}
        if not st["rblk"] or not st["nvme"]:
            sys.exit(f"bench-scale: N={n} ran on only one of rblk and nvme-rdma")
        rows.append({
            "n": n, "rblk": st["rblk"], "nvme": st["nvme"],
            "connect_ratio": ratio(st["rblk"]["connect_ms"], st["nvme"]["connect_ms"]),
            "disconnect_ratio": ratio(st["rblk"]["disconnect_ms"], st["nvme"]["disconnect_ms"]),
            "kernel_kb_ratio": ratio(st["rblk"]["kernel_kb"], st["nvme"]["kernel_kb"]),
        })
    growth = {}
    for h in HOSTS:
        g = {}
        for key in ("connect_ms", "disconnect_ms", "kernel_kb"):
            pts = [(r["n"], r[h][key]) for r in rows]
            slope, icept = fit(pts)
            g[key + "_per_ns"] = slope
            g[key + "_at_0"] = icept
        g["kernel_kb_per_ctrl"] = g.pop("kernel_kb_at_0")
        for part in PARTS:
            g[part + "_kb_per_ns"], _ = fit([(r["n"], r[h]["fields_kb"].get(part))
                                             for r in rows])
        if g["kernel_kb_per_ns"] is not None:
            g["other_kb_per_ns"] = g["kernel_kb_per_ns"] - sum(
                g[p + "_kb_per_ns"] or 0 for p in PARTS)
        else:
            g["other_kb_per_ns"] = None
        g["steps"] = []
        per = {key: steps([(r["n"], r[h][key]) for r in rows])
               for key in ("connect_ms", "disconnect_ms", "kernel_kb")}
        for i, (x0, x1, _) in enumerate(per["kernel_kb"]):
            g["steps"].append({"from": x0, "to": x1,
                               **{key + "_per_ns": per[key][i][2] for key in per}})
        growth[h] = g
    for key in ("connect_ms", "disconnect_ms", "kernel_kb"):
        growth[key + "_per_ns_ratio"] = ratio(growth["rblk"][key + "_per_ns"],
                                              growth["nvme"][key + "_per_ns"])
    growth["kernel_kb_per_ctrl_ratio"] = ratio(growth["rblk"]["kernel_kb_per_ctrl"],
                                               growth["nvme"]["kernel_kb_per_ctrl"])
    queues = None
    if any(kind == "q" for (_, kind, _) in times):
        queues = {}
        for h in HOSTS:
            lo = host_stats(h, "q", "lo", times, mem, slab)
            hi = host_stats(h, "q", "hi", times, mem, slab)
            if not lo or not hi:
                sys.exit("bench-scale: the queue runs are incomplete")
            dq = hi["queues"] - lo["queues"]
            per_q = (hi["kernel_kb"] - lo["kernel_kb"]) / dq if dq else None
            queues[h] = {"lo": lo, "hi": hi, "kb_per_queue": per_q}
            for part in PARTS:
                a, b = lo["fields_kb"].get(part), hi["fields_kb"].get(part)
                queues[h][part + "_kb_per_queue"] = ((b - a) / dq if dq and None not in (a, b)
                                                     else None)
            queues[h]["other_kb_per_queue"] = (
                per_q - sum(queues[h][p + "_kb_per_queue"] or 0 for p in PARTS)
                if per_q is not None else None)
        queues["kb_per_queue_ratio"] = ratio(queues["rblk"]["kb_per_queue"],
                                             queues["nvme"]["kb_per_queue"])
    noise = [kernel_kb(f) for f in mem.get(("none", "null", "0", "connected"), {}).values()]
    return {
        "info": info,
        "noise_kb_runs": noise,
        "noise_kb_max": max((abs(v) for v in noise), default=None),
        "rows": rows,
        "growth": growth,
        "queues": queues,
    }


def fmt(v, digits=0):
    if v is None:
        return "-"
    return f"{v:.{digits}f}"


def spread(vals):
    vals = [v for v in vals if v is not None]
    if len(vals) < 2 or min(vals) == max(vals):
        return ""
    return f" ({min(vals):.0f}–{max(vals):.0f})"


def verdict(a, b, tolerance=0):
    """rblk's a against nvme's b: "<" below by more than the tolerance,
    "≈" within it, ">" above by more."""
    if a is None or b is None:
        return "-"
    if a < b - tolerance:
        return "<"
    return "≈" if a <= b + tolerance else ">"


def markdown(rep):
    info = rep["info"]
    noise = rep["noise_kb_max"] or 0
    out = ["# Scale: rblk next to nvme-rdma", ""]
    out.append(f"kernel {info.get('kernel', '?')}, {info.get('cpus', '?')} CPUs, "
               f"MemTotal {info.get('memtotal_kb', '?')} kB; counts {info.get('counts', '?')}, "
               f"{info.get('rounds', '?')} round(s) of rblk, nvme, nvme, rblk; "
               f"{info.get('nq', '?')} I/O queues of {info.get('qsize', '?')}; "
               f"namespaces on {info.get('backing', '?')}; nvme_core multipath="
               f"{info.get('nvme_multipath', '?')}, rblk multipath={info.get('rblk_multipath', '?')}.")
    out.append("Medians over the runs, (min–max) of the runs; kernel kB: the kernel "
               "memory the connected controller holds (MemFree + PcpFree + Buffers + "
               "Cached + AnonPages deltas after a settle); retained: the same after the "
               "disconnect.  Ratios rblk/nvme-rdma.  rblk vs nvme: connect, "
               "disconnect, memory, each < (rblk lower), ≈ (within the clock's "
               f"{TIME_RES_MS} ms or the noise floor) or > (rblk higher).")
    out.append("")
    out.append("| N | rblk connect ms | nvme connect ms | ratio | rblk disconnect ms | "
               "nvme disconnect ms | ratio | rblk kernel kB | nvme kernel kB | ratio | "
               "rblk vs nvme | rblk slab kB | nvme slab kB | rblk retained kB | nvme retained kB |")
    out.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:-:|---:|---:|---:|---:|")
    for r in rep["rows"]:
        a, b = r["rblk"], r["nvme"]
        verd = " ".join(verdict(a[k], b[k], tol) for k, tol in
                        (("connect_ms", TIME_RES_MS), ("disconnect_ms", TIME_RES_MS),
                         ("kernel_kb", noise)))
        out.append(
            f"| {r['n']} | {fmt(a['connect_ms'])}{spread(a['connect_ms_runs'])} | "
            f"{fmt(b['connect_ms'])}{spread(b['connect_ms_runs'])} | {fmt(r['connect_ratio'], 2)} | "
            f"{fmt(a['disconnect_ms'])}{spread(a['disconnect_ms_runs'])} | "
            f"{fmt(b['disconnect_ms'])}{spread(b['disconnect_ms_runs'])} | "
            f"{fmt(r['disconnect_ratio'], 2)} | "
            f"{fmt(a['kernel_kb'])}{spread(a['kernel_kb_runs'])} | "
            f"{fmt(b['kernel_kb'])}{spread(b['kernel_kb_runs'])} | {fmt(r['kernel_kb_ratio'], 2)} | "
            f"{verd} | "
            f"{fmt(a['fields_kb'].get('Slab'))} | {fmt(b['fields_kb'].get('Slab'))} | "
            f"{fmt(a['retained_kb'])} | {fmt(b['retained_kb'])} |")
    out.append("")
    if any(r["rblk"]["connect_cmd_ms"] is not None for r in rep["rows"]):
        out.append("Until the command returned (nvmecfg polls its controller every "
                   "50 ms; nvme connect returns before the scan, nvme disconnect after "
                   "the removal), ms:")
        out.append("")
        out.append("| N | rblk connect | nvme connect | rblk disconnect | nvme disconnect |")
        out.append("|---:|---:|---:|---:|---:|")
        for r in rep["rows"]:
            a, b = r["rblk"], r["nvme"]
            out.append(f"| {r['n']} | {fmt(a['connect_cmd_ms'])} | {fmt(b['connect_cmd_ms'])} | "
                       f"{fmt(a['disconnect_cmd_ms'])} | {fmt(b['disconnect_cmd_ms'])} |")
        out.append("")
    g = rep["growth"]
    out.append("Growth per namespace: least-squares slope over the counts, the kernel "
               "kB split by meminfo field (other: pages straight from the page "
               "allocator); per controller: the kernel kB of the line at N = 0.")
    out.append("")
    out.append("| host | connect ms/ns | disconnect ms/ns | kernel kB/ns | of it slab | vmalloc | "
               "percpu | other | kernel kB per controller |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for h in HOSTS:
        gh = g[h]
        out.append(f"| {HOST_NAME[h]} | {fmt(gh['connect_ms_per_ns'], 2)} | "
                   f"{fmt(gh['disconnect_ms_per_ns'], 2)} | {fmt(gh['kernel_kb_per_ns'], 1)} | "
                   f"{fmt(gh['Slab_kb_per_ns'], 1)} | {fmt(gh['VmallocUsed_kb_per_ns'], 1)} | "
                   f"{fmt(gh['Percpu_kb_per_ns'], 1)} | {fmt(gh['other_kb_per_ns'], 1)} | "
                   f"{fmt(gh['kernel_kb_per_ctrl'])} |")
    out.append(f"| rblk/nvme | {fmt(g['connect_ms_per_ns_ratio'], 2)} | "
               f"{fmt(g['disconnect_ms_per_ns_ratio'], 2)} | {fmt(g['kernel_kb_per_ns_ratio'], 2)} | "
               f"| | | | {fmt(g['kernel_kb_per_ctrl_ratio'], 2)} |")
    out.append("")
    if g["rblk"]["steps"]:
        out.append("Per step between two counts (ms or kB per namespace added):")
        out.append("")
        out.append("| step | rblk connect | nvme connect | rblk disconnect | nvme disconnect "
                   "| rblk kernel kB | nvme kernel kB |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for a, b in zip(g["rblk"]["steps"], g["nvme"]["steps"]):
            out.append(f"| {a['from']}→{a['to']} | {fmt(a['connect_ms_per_ns'], 2)} | "
                       f"{fmt(b['connect_ms_per_ns'], 2)} | {fmt(a['disconnect_ms_per_ns'], 2)} | "
                       f"{fmt(b['disconnect_ms_per_ns'], 2)} | {fmt(a['kernel_kb_per_ns'], 1)} | "
                       f"{fmt(b['kernel_kb_per_ns'], 1)} |")
        out.append("")
    q = rep["queues"]
    if q:
        out.append("Memory per I/O queue: one namespace, connected with few and with many "
                   "I/O queues; (kernel kB many − few) / (queues many − few).")
        out.append("")
        out.append("| host | queues | kernel kB | queues | kernel kB | kB per queue | of it slab | "
                   "vmalloc | percpu | other | connect ms (few/many) |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for h in HOSTS:
            lo, hi = q[h]["lo"], q[h]["hi"]
            out.append(f"| {HOST_NAME[h]} | {lo['queues']} | {fmt(lo['kernel_kb'])}{spread(lo['kernel_kb_runs'])} | "
                       f"{hi['queues']} | {fmt(hi['kernel_kb'])}{spread(hi['kernel_kb_runs'])} | "
                       f"{fmt(q[h]['kb_per_queue'], 1)} | {fmt(q[h]['Slab_kb_per_queue'], 1)} | "
                       f"{fmt(q[h]['VmallocUsed_kb_per_queue'], 1)} | "
                       f"{fmt(q[h]['Percpu_kb_per_queue'], 1)} | {fmt(q[h]['other_kb_per_queue'], 1)} | "
                       f"{fmt(lo['connect_ms'])}/{fmt(hi['connect_ms'])} |")
        out.append(f"| rblk/nvme | | | | | {fmt(q['kb_per_queue_ratio'], 2)} | | | | | |")
        out.append("")
    out.append(f"Noise floor: the kernel kB of two settles with nothing between them: "
               f"{', '.join(fmt(v) for v in rep['noise_kb_runs']) or '-'} "
               f"(largest {fmt(rep['noise_kb_max'])} kB).")
    out.append("")
    if rep["rows"]:
        last = rep["rows"][-1]
        out.append(f"Largest slab cache deltas at N = {last['n']} (kB, objects; median over the runs):")
        out.append("")
        for h in HOSTS:
            caches = ", ".join(f"{s['cache']} {fmt(s['kb'])} ({fmt(s['objects'])})"
                               for s in last[h]["slab_top"])
            out.append(f"* {HOST_NAME[h]}: {caches or '-'}")
        out.append("")
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scale-report.py LOG OUTDIR")
    log, outdir = sys.argv[1], sys.argv[2]
    rep = build(*parse(log))
    if not rep["rows"]:
        sys.exit("bench-scale: no namespace count ran")
    os.makedirs(outdir, exist_ok=True)
    md = markdown(rep)
    with open(os.path.join(outdir, "scale.md"), "w") as f:
        f.write(md + "\n")
    with open(os.path.join(outdir, "scale.json"), "w") as f:
        json.dump(rep, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(md)
    print(f"bench-scale: wrote {outdir}/scale.md and {outdir}/scale.json")


if __name__ == "__main__":
    main()

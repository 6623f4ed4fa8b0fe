#!/usr/bin/env python3
"""Turn the BENCH lines of a `make bench` guest log into a report.

usage: bench-report.py LOG OUTDIR   (LOG: the KTAP log or the console)

Writes a Markdown table of rblk / nvme-rdma ratios (and each as a fraction
of the null_blk ceiling), the same data as JSON, a gnuplot PNG of IOPS
versus queue depth (if the sweep jobs ran) and, for a RBLK_BENCH_PERF=1 run,
the guest's profiles as perf-DEVICE-JOB.txt. Exits non-zero if the log has
no complete run.

Each job ran in rounds of rblk, nvme, nvme, rblk; the rblk and nvme runs
with the same run number ran back to back and form a pair. Besides the
ratio of the means, each row gives the median and the range of the pair
ratios, and a verdict: ">=" (every pair at least 1), "<" (every pair below
1), or "~" (the pairs fall on both sides of 1: no difference shown).
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

ROWS = [
    "randread_4k_qd1", "randwrite_4k_qd1",
    "randread_4k_qd32", "randwrite_4k_qd32",
    "read_128k", "write_128k",
    "randread_4k_qd32_2ns",
    "randread_4k_qd32_batch16", "randwrite_4k_qd32_batch16",
    "randread_4k_qd1_hipri", "randread_4k_qd8_hipri",
    "randread_4k_qd32_2path", "randwrite_4k_qd32_2path",
]
SWEEP = [1, 4, 16, 32, 64]
VERDICT_HELP = ("verdict: ≥ every pair ratio ≥ 1; < every pair ratio < 1;"
                " ≈ pairs on both sides of 1 (no difference shown)")


def job_metrics(fio):
    """IOPS, bandwidth (MiB/s) and completion latency percentiles (us)."""
    job = fio["jobs"][0]
    side = job["read"] if job["read"]["io_bytes"] else job["write"]
    pct = side.get("clat_ns", {}).get("percentile", {})
    return {
        "iops": side["iops"],
        "bw_mib": side["bw_bytes"] / (1 << 20),
        "p50_us": pct.get("50.000000", 0) / 1000.0,
        "p99_us": pct.get("99.000000", 0) / 1000.0,
    }


def mean(vals):
    return sum(vals) / len(vals) if vals else 0.0


def ratio(a, b):
    return a / b if b else 0.0


def parse(log):
    """{(dev, job): {run: metrics}}, setup info,
    {(dev, job): [(run, perf line)]},
    {job: [(commands, doorbells) of each rblk run]}."""
    runs = defaultdict(dict)
    perf = defaultdict(list)
    cpd = defaultdict(list)
    cpd_re = re.compile(r"^BENCH-CPD (\S+) (\d+) (\d+) (\d+)\s*$")
    info, done = "", False
    line_re = re.compile(r"^BENCH (\S+) (\S+) (\d+) (\{.*\})\s*$")
    perf_re = re.compile(r"^BENCH-PERF (\S+) (\S+) (\d+) ?(.*)$")
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            # The guest runner passes test output on as "# " diagnostics.
            if line.startswith("# "):
                line = line[2:]
            if line.startswith("BENCH-INFO"):
                # The two-path jobs add a line of their own.
                info += ("; " if info else "") + line[len("BENCH-INFO "):]
            elif line.startswith("BENCH-FAIL"):
                sys.exit("bench: guest failed: " + line)
            elif line.startswith("BENCH-DONE"):
                done = True
            elif line.startswith("BENCH-PERF "):
                m = perf_re.match(line)
                if m:
                    perf[(m.group(1), m.group(2))].append(
                        (int(m.group(3)), m.group(4)))
            elif line.startswith("BENCH-CPD "):
                m = cpd_re.match(line)
                if m:
                    cpd[m.group(1)].append((int(m.group(3)), int(m.group(4))))
            else:
                m = line_re.match(line)
                if m:
                    dev, job, run, blob = m.groups()
                    runs[(dev, job)][int(run)] = job_metrics(json.loads(blob))
    if not done:
        sys.exit("bench: no complete run in " + log)
    return info, runs, perf, cpd


def cmds_per_doorbell(counts):
    """Commands per doorbell over all rblk runs of a job, or None."""
    cmds = sum(c for c, _ in counts)
    bells = sum(d for _, d in counts)
    return cmds / bells if bells else None


def compare(job, runs):
    """rblk against nvme-rdma for one job; None if the job did not run."""
    r, n = runs.get(("rblk", job)), runs.get(("nvme", job))
    if not r and not n:
        return None
    if not r or not n:
        sys.exit(f"bench: {job} ran on only one of rblk and nvme-rdma")
    pairs = sorted(set(r) & set(n))
    if not pairs:
        sys.exit(f"bench: {job}: no rblk and nvme-rdma runs with the same number")
    pair_ratios = [ratio(r[i]["iops"], n[i]["iops"]) for i in pairs]
    lo, hi = min(pair_ratios), max(pair_ratios)
    avg = {dev: {k: mean([v[k] for v in vals.values()])
                 for k in next(iter(vals.values()))}
           for dev, vals in (("rblk", r), ("nvme", n))}
    return {
        "job": job,
        "rblk": avg["rblk"], "nvme_rdma": avg["nvme"],
        "rblk_iops_runs": [r[i]["iops"] for i in sorted(r)],
        "nvme_iops_runs": [n[i]["iops"] for i in sorted(n)],
        "iops_ratio": ratio(avg["rblk"]["iops"], avg["nvme"]["iops"]),
        "p99_ratio": ratio(avg["rblk"]["p99_us"], avg["nvme"]["p99_us"]),
        "pairs": len(pairs),
        "pair_ratios": pair_ratios,
        "pair_ratio_median": statistics.median(pair_ratios),
        "pair_ratio_min": lo,
        "pair_ratio_max": hi,
        "verdict": "≥" if lo >= 1 else ("<" if hi < 1 else "≈"),
    }


def pair_cells(row):
    return (f"{row['iops_ratio']:.2f} | {row['pair_ratio_median']:.2f} | "
            f"{row['pair_ratio_min']:.2f}–{row['pair_ratio_max']:.2f} | "
            f"{row['pairs']} | {row['verdict']}")


def perf_runs(lines):
    """{run: [lines]} of one host's profiles of one job."""
    runs = defaultdict(list)
    for run, line in lines:
        runs[run].append(line)
    return runs


def write_perf(outdir, perf):
    for old in glob.glob(os.path.join(outdir, "perf-*.txt")):
        os.remove(old)
    written = []
    for (dev, job), lines in sorted(perf.items()):
        path = os.path.join(outdir, f"perf-{dev}-{job}.txt")
        with open(path, "w") as f:
            for run, rl in sorted(perf_runs(lines).items()):
                f.write(f"## run {run}\n" + "\n".join(rl) + "\n")
        written.append(path)
    return written


# The host driver's own modules: what differs between the two hosts.
DRIVER_MODULES = {
    "rblk": ["rblk"],
    "nvme": ["nvme_rdma", "nvme_fabrics", "nvme_core"],
}


def perf_modules(lines):
    """From one profile: ({module: samples}, CPUs, IOPS of the profiled
    run); CPUs and IOPS are None if the profile does not say."""
    mods, on, cpus, iops = {}, False, None, None
    for line in lines:
        m = re.match(r"^# fio .* under perf: (\d+) IOPS", line)
        if m:
            iops = int(m.group(1))
        if line.startswith("# by module"):
            m = re.search(r"(\d+) CPUs", line)
            cpus = int(m.group(1)) if m else None
            on = True
            continue
        if on and line.startswith("#"):
            break
        # "  12.34%  5678  [rblk]"
        m = (re.match(r"^\s*[0-9.]+%\s+(\d+)\s+\[?([^\]\s]+)\]?\s*$", line)
             if on else None)
        if m:
            mods[m.group(2)] = int(m.group(1))
    return mods, cpus, iops


def run_cost(lines, dev):
    """One profiled run of one host: driver and rdma_rxe samples, all
    samples, and the I/Os the run did while sampled (IOPS x seconds, the
    seconds being all samples / (CPUs x rate): cpu-clock samples every
    CPU at the same rate, idle included)."""
    mods, cpus, iops = perf_modules(lines)
    total = sum(mods.values())
    if not total or not cpus or not iops:
        return None
    return {"driver": sum(mods.get(n, 0) for n in DRIVER_MODULES[dev]),
            "rxe": mods.get("rdma_rxe", 0), "total": total,
            # I/Os in the sampled window, over the sampling rate (which
            # cancels out: driver samples / io_units is CPU time per I/O)
            "io_units": iops * total / cpus}


def driver_costs(perf):
    """Per profiled job and host, over all its profiled runs: the driver's
    samples, its CPU time per I/O, and its samples per rdma_rxe sample
    (Soft-RoCE does the same work per I/O for both hosts: the same verbs
    on the wire); and the same ratio per pair of runs (rblk run i, nvme
    run i), for its spread."""
    out = []
    for job in sorted({j for (_, j) in perf}):
        row, per_run = {"job": job}, {}
        for dev in DRIVER_MODULES:
            runs = {run: run_cost(rl, dev)
                    for run, rl in perf_runs(perf.get((dev, job), [])).items()}
            runs = {k: v for k, v in runs.items() if v}
            per_run[dev] = runs
            drv = sum(r["driver"] for r in runs.values())
            rxe = sum(r["rxe"] for r in runs.values())
            units = sum(r["io_units"] for r in runs.values())
            total = sum(r["total"] for r in runs.values())
            row[dev] = {
                "runs": len(runs), "driver_samples": drv,
                "driver_pct": 100.0 * drv / total if total else 0.0,
                "us_per_io": drv / units * 1e6 if units else None,
                "per_rxe": drv / rxe if rxe else None,
            }
        r, n = row["rblk"], row["nvme"]
        row["per_io_ratio"] = (r["us_per_io"] / n["us_per_io"]
                               if r["us_per_io"] and n["us_per_io"] else None)
        row["rblk_over_nvme"] = (r["per_rxe"] / n["per_rxe"]
                                 if r["per_rxe"] is not None and n["per_rxe"]
                                 else None)
        pairs = []
        for i in sorted(set(per_run["rblk"]) & set(per_run["nvme"])):
            a, b = per_run["rblk"][i], per_run["nvme"][i]
            if a["driver"] and b["driver"]:
                pairs.append((a["driver"] / a["io_units"]) /
                             (b["driver"] / b["io_units"]))
        row["pair_ratios"] = pairs
        out.append(row)
    return out


def plot(outdir, sweep):
    dat = os.path.join(outdir, "sweep.dat")
    with open(dat, "w") as f:
        for s in sweep:
            f.write(f"{s['qd']} {s['rblk']['iops']:.1f} "
                    f"{s['nvme_rdma']['iops']:.1f}\n")
    png = os.path.join(outdir, "iops_vs_qd.png")
    script = f"""
set terminal png size 800,500
set output '{png}'
set title '4k random read IOPS vs queue depth (one TCG guest, same nvmet target)'
set xlabel 'queue depth'
set ylabel 'IOPS'
set logscale x 2
set key left top
set grid
plot '{dat}' using 1:2 with linespoints title 'rblk', \\
     '{dat}' using 1:3 with linespoints title 'nvme-rdma'
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
        print("plot: " + png)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"bench: gnuplot failed ({e}); no plot", file=sys.stderr)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench-report.py LOG OUTDIR")
    log, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    info, runs, perf, cpd = parse(log)

    rows = []
    for job in ROWS:
        row = compare(job, runs)
        if row is None:
            continue
        c = runs.get(("nullb", job))
        c = {k: mean([v[k] for v in c.values()])
             for k in next(iter(c.values()))} if c else None
        row["null_blk"] = c
        row["rblk_of_ceiling"] = ratio(row["rblk"]["iops"], c["iops"]) if c else None
        row["nvme_of_ceiling"] = ratio(row["nvme_rdma"]["iops"], c["iops"]) if c else None
        row["rblk_cmds_per_doorbell"] = cmds_per_doorbell(cpd.get(job, []))
        rows.append(row)
    sweep = []
    for qd in SWEEP:
        row = compare(f"sweep_qd{qd}", runs)
        if row is not None:
            row["qd"] = qd
            row["rblk_iops"] = row["rblk"]["iops"]
            row["nvme_iops"] = row["nvme_rdma"]["iops"]
            sweep.append(row)
    if not rows and not sweep:
        sys.exit("bench: no results in " + log)

    with open(os.path.join(outdir, "bench.json"), "w") as f:
        json.dump({"setup": info, "rows": rows, "sweep": sweep}, f,
                  indent=2, ensure_ascii=False)

    def ceil(v):
        return f"{v:.2f}" if v is not None else "-"

    lines = [f"Setup: {info}", ""]
    if rows:
        lines += [
            "| job | rblk IOPS | nvme-rdma IOPS | rblk/nvme (means) "
            "| pair median | pair min–max | pairs | verdict "
            "| rblk p50/p99 us | nvme p50/p99 us | rblk/ceiling | nvme/ceiling "
            "| rblk cmds/doorbell |",
            "|---|---:|---:|---:|---:|---:|---:|:-:|---:|---:|---:|---:|---:|",
        ]
        for row in rows:
            r, n = row["rblk"], row["nvme_rdma"]
            lines.append(
                f"| {row['job']} | {r['iops']:.0f} | {n['iops']:.0f} | "
                f"{pair_cells(row)} | "
                f"{r['p50_us']:.0f}/{r['p99_us']:.0f} | "
                f"{n['p50_us']:.0f}/{n['p99_us']:.0f} | "
                f"{ceil(row['rblk_of_ceiling'])} | {ceil(row['nvme_of_ceiling'])} | "
                f"{ceil(row['rblk_cmds_per_doorbell'])} |")
        lines.append("")
    if sweep:
        lines += ["| QD | rblk IOPS | nvme-rdma IOPS | rblk/nvme (means) "
                  "| pair median | pair min–max | pairs | verdict |",
                  "|---:|---:|---:|---:|---:|---:|---:|:-:|"]
        for s in sweep:
            lines.append(f"| {s['qd']} | {s['rblk']['iops']:.0f} | "
                         f"{s['nvme_rdma']['iops']:.0f} | {pair_cells(s)} |")
        lines.append("")
    lines.append(VERDICT_HELP)
    table = "\n".join(lines) + "\n"
    with open(os.path.join(outdir, "bench.md"), "w") as f:
        f.write(table)
    print(table)

    for path in write_perf(outdir, perf):
        print("perf: " + path)
    costs = driver_costs(perf)
    if costs:
        def pct(v):
            return f"{v:.2f}" if v is not None else "-"
        cl = ["Host driver CPU (own modules; rblk: rblk, nvme-rdma: nvme_rdma + "
              "nvme_fabrics + nvme_core) over the profiled runs of each host: "
              "its samples, its share of all CPU time, its CPU time per I/O "
              "(samples x CPUs / (all samples x IOPS)), rblk's over "
              "nvme-rdma's with the range of the per-pair ratios, and the "
              "same relative to rdma_rxe's samples:", "",
              "| job | runs | rblk samples (%) | rblk us/IO | nvme samples (%) "
              "| nvme us/IO | rblk/nvme per IO | pair min–max "
              "| rblk/nvme per rxe |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for c in costs:
            r, n = c["rblk"], c["nvme"]
            pr = c["pair_ratios"]
            spread = f"{min(pr):.2f}–{max(pr):.2f}" if pr else "-"
            cl.append(f"| {c['job']} | {r['runs']}+{n['runs']} | "
                      f"{r['driver_samples']} ({r['driver_pct']:.2f}) | "
                      f"{pct(r['us_per_io'])} | "
                      f"{n['driver_samples']} ({n['driver_pct']:.2f}) | "
                      f"{pct(n['us_per_io'])} | {pct(c['per_io_ratio'])} | "
                      f"{spread} | {pct(c['rblk_over_nvme'])} |")
        text = "\n".join(cl) + "\n"
        print(text)
        with open(os.path.join(outdir, "bench.md"), "a") as f:
            f.write("\n" + text)
        with open(os.path.join(outdir, "bench.json")) as f:
            data = json.load(f)
        data["driver_cpu"] = costs
        with open(os.path.join(outdir, "bench.json"), "w") as f:
            json.dump(data, f, indent=2, ensure_ascii=False)
    if sweep:
        plot(outdir, sweep)
    else:
        # No sweep jobs this time: no plot left over from an earlier run.
        for old in ("sweep.dat", "iops_vs_qd.png"):
            if os.path.exists(os.path.join(outdir, old)):
                os.remove(os.path.join(outdir, old))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Turn the BENCH lines of a `make bench` guest console into a report.

Writes a Markdown table of rblk / nvme-rdma ratios (and each as a fraction
of the null_blk ceiling), the same data as JSON, and a gnuplot PNG of IOPS
versus queue depth. Exits non-zero if the console has no complete run.
"""
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

ROWS = [
    "randread_4k_qd1", "randwrite_4k_qd1",
    "randread_4k_qd32", "randwrite_4k_qd32",
    "read_128k", "write_128k",
]
SWEEP = [1, 4, 16, 32, 64]


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


def parse(console):
    runs = defaultdict(list)
    info, done = "", False
    line_re = re.compile(r"^BENCH (\S+) (\S+) (\d+) (\{.*\})\s*$")
    with open(console, errors="replace") as f:
        for line in f:
            line = line.strip("\r\n")
            # The guest runner passes test output on as "# " diagnostics.
            if line.startswith("# "):
                line = line[2:]
            if line.startswith("BENCH-INFO"):
                info = line[len("BENCH-INFO "):]
            elif line.startswith("BENCH-FAIL"):
                sys.exit("bench: guest failed: " + line)
            elif line.startswith("BENCH-DONE"):
                done = True
            m = line_re.match(line)
            if m:
                dev, job, _, blob = m.groups()
                runs[(dev, job)].append(job_metrics(json.loads(blob)))
    if not done:
        sys.exit("bench: no complete run in " + console)
    avg = {}
    for key, vals in runs.items():
        avg[key] = {k: mean([v[k] for v in vals]) for k in vals[0]}
    return info, avg


def ratio(a, b):
    return a / b if b else 0.0


def main():
    console, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    info, avg = parse(console)

    rows = []
    for job in ROWS:
        r, n, c = (avg.get((d, job)) for d in ("rblk", "nvme", "nullb"))
        if not r or not n:
            sys.exit("bench: missing results for " + job)
        rows.append({
            "job": job, "rblk": r, "nvme_rdma": n, "null_blk": c,
            "iops_ratio": ratio(r["iops"], n["iops"]),
            "p99_ratio": ratio(r["p99_us"], n["p99_us"]),
            "rblk_of_ceiling": ratio(r["iops"], c["iops"]) if c else None,
            "nvme_of_ceiling": ratio(n["iops"], c["iops"]) if c else None,
        })
    sweep = [{"qd": qd,
              "rblk_iops": avg[("rblk", f"sweep_qd{qd}")]["iops"],
              "nvme_iops": avg[("nvme", f"sweep_qd{qd}")]["iops"]}
             for qd in SWEEP]

    with open(os.path.join(outdir, "bench.json"), "w") as f:
        json.dump({"setup": info, "rows": rows, "sweep": sweep}, f, indent=2)

    lines = [
        f"Setup: {info}",
        "",
        "| job | rblk IOPS | nvme-rdma IOPS | rblk/nvme IOPS | rblk p50/p99 us"
        " | nvme p50/p99 us | rblk/ceiling | nvme/ceiling |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        r, n = row["rblk"], row["nvme_rdma"]
        ceil = (lambda v: f"{v:.2f}" if v is not None else "-")
        lines.append(
            f"| {row['job']} | {r['iops']:.0f} | {n['iops']:.0f} | "
            f"{row['iops_ratio']:.2f} | {r['p50_us']:.0f}/{r['p99_us']:.0f} | "
            f"{n['p50_us']:.0f}/{n['p99_us']:.0f} | "
            f"{ceil(row['rblk_of_ceiling'])} | {ceil(row['nvme_of_ceiling'])} |")
    lines += ["", "| QD | rblk IOPS | nvme-rdma IOPS | ratio |",
              "|---:|---:|---:|---:|"]
    for s in sweep:
        lines.append(f"| {s['qd']} | {s['rblk_iops']:.0f} | "
                     f"{s['nvme_iops']:.0f} | "
                     f"{ratio(s['rblk_iops'], s['nvme_iops']):.2f} |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(outdir, "bench.md"), "w") as f:
        f.write(table)
    print(table)

    dat = os.path.join(outdir, "sweep.dat")
    with open(dat, "w") as f:
        for s in sweep:
            f.write(f"{s['qd']} {s['rblk_iops']:.1f} {s['nvme_iops']:.1f}\n")
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


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How often `roots compare` calls equal rules "different" (issue #49).

Each report compares a variant with itself, B on its own seeds
(`compare V V --independent`): the two sides play unrelated games of the
same rules, so every "different" verdict is an error. The verdict rule
promises that a report's primary family calls anything "different" in at
most 5% of such reports, and the same for the design measures
(docs/statistics.md, "Two families"). The script counts, per variant, the
reports with at least one "different" in each family, with a 95% Wilson
interval, and says whether the 5% bound held (the count's interval is
consistent with at most 5%: its low end at or under 5%).

Report k plays with --seed FIRST+k (FIRST = 1001 unless --first-seed), so
the seeds are not those used while writing the code (1 to 20).

Usage:
  scripts/false-different.py [--roots PATH] [--reports 100] [--games 100]
                             [--first-seed 1001] [--jobs 1] VARIANT...
Default variants: standard btt. Cost: 2 x reports x games greedy games per
variant (100 reports of 100 games: 20,000 games, a few minutes on one
loaded core); run it under `nice`.
"""

import argparse
import json
import math
import subprocess
import sys


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--roots", default="target/release/roots")
    ap.add_argument("--reports", type=int, default=100)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first-seed", type=int, default=1001)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("variants", nargs="*", default=["standard", "btt"])
    args = ap.parse_args()
    failed = False
    for v in args.variants:
        wrong = {"primary": 0, "measures": 0}
        stats = {"primary": 0, "measures": 0}
        paired = 0
        for k in range(args.reports):
            seed = args.first_seed + k
            cmd = [args.roots, "compare", v, v, "--independent", "-n",
                   str(args.games), "--seed", str(seed), "-j", str(args.jobs),
                   "-q", "--format", "json"]
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{' '.join(cmd)}: exit {run.returncode}\n{run.stderr}")
            report = json.loads(run.stdout)
            paired += report["analysis"]["method"] == "paired"
            for family in wrong:
                rows = [d for d in report["differences"] if d["family"] == family]
                stats[family] = len(rows)
                wrong[family] += any(d["verdict"] == "different" for d in rows)
        print(f"{v}: {args.reports} reports of {args.games} games a side, "
              f"seeds {args.first_seed} to {args.first_seed + args.reports - 1}, "
              f"{paired} analysed as pairs")
        for family, k in wrong.items():
            lo, hi = wilson(k, args.reports)
            held = lo <= 0.05
            failed |= not held
            print(f"  {family} ({stats[family]} statistics): {k} of {args.reports} "
                  f"reports with a \"different\" ({100 * k / args.reports:.1f}%, "
                  f"95% interval {100 * lo:.1f} to {100 * hi:.1f}%): "
                  f"{'held' if held else 'NOT held'} (bound 5%)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

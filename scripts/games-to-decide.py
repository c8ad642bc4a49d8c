#!/usr/bin/env python3
"""How stable `compare`'s verdicts and "games would decide" are over seeds
(issue #49, items 3 and 4).

Runs `roots compare A B -n GAMES --seed S` for each seed and prints, per
statistic of the chosen family:

- how often each verdict came out, and the share of seeds giving the
  most common one (the agreement of the verdict over the seeds);
- for a statistic left "not decided yet" at two seeds or more, the
  smallest and largest `games_needed` over those seeds, their ratio and
  whether it stayed within a factor of 3 (the issue's target), and the
  printed ranges (`games_needed_range`).

The last lines count the statistics whose estimate stayed within a factor
of 3, and those whose verdict was the same at every seed.

`--save DIR` keeps each report (DIR/A-B-SEED.json); `--load DIR` reads
them back instead of playing (to print again without the games).

Usage:
  scripts/games-to-decide.py [--roots PATH] [--games 1000] [--seeds 1001-1010]
                             [--jobs 1] [--family primary|measures|all]
                             [--save DIR | --load DIR] A B
Cost: 2 x games x seeds greedy games (1,000 games and 10 seeds: 20,000);
run it under `nice`.
"""

import argparse
import json
import os
import subprocess
import sys
from collections import Counter


def report(args, seed):
    name = f"{args.a}-{args.b}-{seed}.json"
    if args.load:
        with open(os.path.join(args.load, name)) as f:
            return json.load(f)
    cmd = [args.roots, "compare", args.a, args.b, "-n", str(args.games),
           "--seed", str(seed), "-j", str(args.jobs), "-q", "--format", "json"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {run.returncode}\n{run.stderr}")
    if args.save:
        os.makedirs(args.save, exist_ok=True)
        with open(os.path.join(args.save, name), "w") as f:
            f.write(run.stdout)
    return json.loads(run.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--roots", default="target/release/roots")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seeds", default="1001-1010")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--family", default="primary",
                    help="primary (default), measures or all")
    ap.add_argument("--save", help="keep each report's JSON in this folder")
    ap.add_argument("--load", help="read the reports from this folder")
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    seeds = list(range(lo, hi + 1))
    needed = {}
    ranges = {}
    verdicts = {}
    for seed in seeds:
        rep = report(args, seed)
        if rep.get("same_game"):
            sys.exit(f"{args.a} and {args.b} are the same game: nothing to judge")
        for d in rep["differences"]:
            if args.family != "all" and d["family"] != args.family:
                continue
            verdicts.setdefault(d["key"], []).append(d["verdict"])
            # "changed" (significant, its size against the margin open)
            # keeps the same plan as "undecided".
            if d["verdict"] in ("undecided", "changed") and "games_needed" in d:
                needed.setdefault(d["key"], []).append(d["games_needed"])
                r = d.get("games_needed_range")
                if r:
                    ranges.setdefault(d["key"], []).append((r["low"], r.get("high")))
    print(f"compare {args.a} {args.b}, {args.games} games a side, seeds {args.seeds}, "
          f"family {args.family}")
    held = judged = unanimous = 0
    shares = []
    for key, v in verdicts.items():
        counts = Counter(v)
        top, k = counts.most_common(1)[0]
        shares.append(k / len(v))
        unanimous += k == len(v)
        line = (f"  {key}: different {counts['different']}, same {counts['same']}, "
                f"changed {counts['changed']}, undecided {counts['undecided']}; agreement {k} of {len(v)} ({top})")
        n = needed.get(key, [])
        if len(n) >= 2:
            ratio = max(n) / max(1, min(n))
            judged += 1
            held += ratio <= 3
            line += (f"; games to decide {min(n):,} to {max(n):,} (x{ratio:.1f}, "
                     f"{'within' if ratio <= 3 else 'NOT within'} a factor 3)")
            if key in ranges:
                line += "; printed ranges " + ", ".join(
                    f"{a:,}-{b:,}" if b else f"{a:,}+" for a, b in ranges[key])
        elif len(n) == 1:
            line += f"; games to decide {n[0]:,} (1 seed)"
        print(line)
    print(f"within a factor 3: {held} of {judged} statistics undecided at 2 seeds or more")
    if shares:
        print(f"verdict agreement: {unanimous} of {len(shares)} statistics gave one verdict "
              f"at every seed; share of seeds giving the most common verdict: "
              f"{min(shares):.0%} at the least, {sum(shares) / len(shares):.0%} on average")


if __name__ == "__main__":
    main()

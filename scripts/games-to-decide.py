#!/usr/bin/env python3
"""How stable `compare`'s "about N games would decide" is (issue #49).

Runs `roots compare A B -n GAMES --seed S` for each seed and, for every
primary statistic left "not decided yet", collects its estimate of the
games that would decide (`games_needed`, and `games_needed_range` when the
build gives it). Prints, per statistic undecided at two seeds or more, the
smallest and largest estimate over the seeds and their ratio, and whether
it stayed within a factor of 3 (the issue's target).

Usage:
  scripts/games-to-decide.py [--roots PATH] [--games 1000] [--seeds 1001-1010]
                             [--jobs 1] A B
Cost: 2 x games x seeds greedy games (1,000 games and 10 seeds: 20,000);
run it under `nice`.
"""

import argparse
import json
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--roots", default="target/release/roots")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seeds", default="1001-1010")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--family", default="primary",
                    help="primary (default), measures or all")
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    seeds = list(range(lo, hi + 1))
    needed = {}
    ranges = {}
    verdicts = {}
    for seed in seeds:
        cmd = [args.roots, "compare", args.a, args.b, "-n", str(args.games),
               "--seed", str(seed), "-j", str(args.jobs), "-q", "--format", "json"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: exit {run.returncode}\n{run.stderr}")
        report = json.loads(run.stdout)
        for d in report["differences"]:
            if args.family != "all" and d["family"] != args.family:
                continue
            verdicts.setdefault(d["key"], []).append(d["verdict"])
            if d["verdict"] == "undecided" and "games_needed" in d:
                needed.setdefault(d["key"], []).append(d["games_needed"])
                r = d.get("games_needed_range")
                if r:
                    ranges.setdefault(d["key"], []).append((r["low"], r["high"]))
    print(f"compare {args.a} {args.b}, {args.games} games a side, seeds {args.seeds}")
    held = 0
    judged = 0
    for key, v in verdicts.items():
        counts = {x: v.count(x) for x in ("different", "same", "undecided")}
        line = f"  {key}: different {counts['different']}, same {counts['same']}, undecided {counts['undecided']}"
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
        print(line)
    print(f"within a factor 3: {held} of {judged} statistics undecided at 2 seeds or more")


if __name__ == "__main__":
    main()

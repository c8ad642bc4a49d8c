#!/usr/bin/env python3
"""Games `compare --until-decided` plays, paired against unpaired (issue #49).

For each pair of variants, runs `roots compare A B --until-decided` on
matched seeds (paired analysis) and again with `--independent` (B on its
own seeds: each pair of games unrelated, so the paired standard error is
the two-sample one the unpaired stopping rule used), over the given seeds.
Prints per pair and seed the games per side each used and the verdict,
then per pair the total games of each and the ratio unpaired / paired.

The stand-in: before paired analysis, `--until-decided` judged the first-
player advantage as two independent samples (Agresti-Caffo variance of each
side), whatever the seeds. With `--independent`, the paired variance of
unrelated pairs has the same expectation (Var(b - a) = Var(a) + Var(b)), and
the same alpha spending and looks apply, so the games it needs are those of
the old rule, without building the old version.

Usage:
  scripts/until-decided.py [--roots PATH] [--seeds 1001-1003] [--jobs 1]
                           [--max-games 20000] A:B [A:B...]
"""

import argparse
import json
import subprocess
import sys


def run(roots, a, b, seed, jobs, max_games, independent):
    cmd = [roots, "compare", a, b, "--until-decided", "--max-games",
           str(max_games), "--seed", str(seed), "-j", str(jobs), "-q",
           "--format", "json"]
    if independent:
        cmd.append("--independent")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    rep = json.loads(r.stdout)
    if rep.get("same_game"):
        return None
    q = rep["sequential"]
    return q["games"], q["verdict"]["verdict"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--roots", default="target/release/roots")
    ap.add_argument("--seeds", default="1001-1003")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--max-games", type=int, default=20000)
    ap.add_argument("pairs", nargs="+")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    seeds = range(lo, hi + 1)
    worse = []
    print("| A | B | paired: games per side (verdict) | unpaired stand-in | unpaired / paired |")
    print("|---|---|---|---|---|")
    for pair in args.pairs:
        a, b = pair.split(":")
        tot = {False: 0, True: 0}
        cells = {False: [], True: []}
        for seed in seeds:
            for ind in (False, True):
                got = run(args.roots, a, b, seed, args.jobs, args.max_games, ind)
                if got is None:
                    cells[ind].append("same game")
                    continue
                games, verdict = got
                tot[ind] += games
                cells[ind].append(f"{games:,} ({verdict})")
            print(f"  {pair} seed {seed}: paired {cells[False][-1]}, "
                  f"independent {cells[True][-1]}", file=sys.stderr, flush=True)
        ratio = tot[True] / tot[False] if tot[False] else float("nan")
        if tot[False] > tot[True]:
            worse.append(pair)
        print(f"| {a} | {b} | {', '.join(cells[False])} | "
              f"{', '.join(cells[True])} | {ratio:.1f}x |", flush=True)
    if worse:
        print(f"more games paired than unpaired: {', '.join(worse)}")
        sys.exit(1)


if __name__ == "__main__":
    main()

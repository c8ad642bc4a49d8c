#!/usr/bin/env python3
"""Games `compare --until-decided` plays, paired against unpaired (issue #49).

For each pair of variants, runs `roots compare A B --until-decided` on
matched seeds (paired analysis) and again the unpaired way, over the given
seeds. Prints per pair and seed the games per side each used, the verdict
and the ratio unpaired / paired, then how often the paired run used at
least 3 times fewer games, and how often it used more.

The unpaired way, either of:

- `--unpaired-roots PATH`: a build from before paired analysis (the commit
  before 22e6f75, `git log -- src/sim/paired.rs`), run on the same seeds:
  the same matched games, judged as two independent samples (Agresti-Caffo
  variance of each side), the rule users had before. The default when
  given.
- otherwise `--independent` with the build under test (B on its own seeds:
  each pair of games unrelated, so the paired standard error is, in
  expectation, the two-sample one; the same alpha spending and looks).
  A stand-in: its games vary from seed to seed on their own.

`--cache FILE` keeps every run's result (a line of JSON each) and skips the
runs already in it, so a long measurement can be stopped and resumed, or
the paired and unpaired halves run at different times (`--only`).

Usage:
  scripts/until-decided.py [--roots PATH] [--unpaired-roots PATH]
                           [--seeds 1001-1003] [--jobs 1] [--max-games 20000]
                           [--cache FILE] [--only paired|unpaired] A:B [A:B...]
"""

import argparse
import json
import os
import subprocess
import sys


def run(args, a, b, seed, mode):
    if mode == "paired":
        roots, extra = args.roots, []
    elif args.unpaired_roots:
        roots, extra = args.unpaired_roots, []
    else:
        roots, extra = args.roots, ["--independent"]
    cmd = [roots, "compare", a, b, "--until-decided", "--max-games",
           str(args.max_games), "--seed", str(seed), "-j", str(args.jobs), "-q",
           "--format", "json"] + extra
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    rep = json.loads(r.stdout)
    if rep.get("same_game"):
        return {"same_game": True}
    q = rep["sequential"]
    return {"games": q["games"], "verdict": q["verdict"]["verdict"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--roots", default="target/release/roots")
    ap.add_argument("--unpaired-roots")
    ap.add_argument("--seeds", default="1001-1003")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--max-games", type=int, default=20000)
    ap.add_argument("--cache")
    ap.add_argument("--only", choices=["paired", "unpaired"])
    ap.add_argument("pairs", nargs="+")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    seeds = range(lo, hi + 1)
    unpaired_how = ("unpaired build" if args.unpaired_roots else "independent")
    done = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            for line in f:
                x = json.loads(line)
                done[(x["pair"], x["seed"], x["mode"], x["how"], x["max_games"])] = x
    modes = [args.only] if args.only else ["paired", "unpaired"]

    def result(pair, seed, mode):
        how = "paired" if mode == "paired" else unpaired_how
        key = (pair, seed, mode, how, args.max_games)
        if key not in done:
            if mode not in modes:
                return None
            a, b = pair.split(":")
            x = run(args, a, b, seed, mode)
            x.update(pair=pair, seed=seed, mode=mode, how=how, max_games=args.max_games)
            done[key] = x
            if args.cache:
                with open(args.cache, "a") as f:
                    f.write(json.dumps(x) + "\n")
        return done[key]

    def cell(x):
        if x is None:
            return "not run"
        if x.get("same_game"):
            return "same game"
        return f"{x['games']:,} ({x['verdict']})"

    print(f"until-decided, at most {args.max_games:,} games a side, seeds {args.seeds}; "
          f"unpaired: {unpaired_how}")
    print("| A | B | seed | paired: games per side (verdict) | unpaired | unpaired / paired |")
    print("|---|---|---|---|---|---|")
    runs = fewer3 = more = 0
    worse = []
    for pair in args.pairs:
        a, b = pair.split(":")
        for seed in seeds:
            got = {m: result(pair, seed, m) for m in ("paired", "unpaired")}
            p, u = got["paired"], got["unpaired"]
            ratio = ""
            if p and u and "games" in p and "games" in u:
                r = u["games"] / p["games"]
                ratio = f"{r:.1f}x"
                runs += 1
                fewer3 += r >= 3
                if p["games"] > u["games"]:
                    more += 1
                    worse.append(f"{pair} seed {seed}")
            print(f"| {a} | {b} | {seed} | {cell(p)} | {cell(u)} | {ratio} |", flush=True)
    print(f"runs with both: {runs}; paired at least 3 times fewer games: {fewer3}; "
          f"paired more games than unpaired: {more}"
          + (f" ({', '.join(worse)})" if worse else ""))


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# The README's ladder table: `roots ladder` for every shipped variant, one
# JSON file each under the output directory (default target/ladders), then a
# Markdown table on stdout. Seeded, so reproducible whatever --jobs is.
#
# Usage: scripts/ladders.sh [GAMES_PER_PAIR] [SEED] [OUTDIR]   (defaults: 100, 1)
# Needs a release build (cargo build --release) and python3 for the table.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
seed=${2:-1}
out=${3:-target/ladders}
bots=${BOTS:-greedy,random,mcts:100}
mkdir -p "$out"
for v in standard one-nutrient-per-turn pre-rolled-values btt btt-martian-go \
    btt-arcade btt-literal-wiki sprout-r-out sprout-r-out-ludii fewer-beads \
    fewer-nutrients more-beads more-nutrients; do
    n=$games
    # Sprout-R-Out's search is the slowest: fewer games per pair.
    case $v in sprout*) n=$(( games * 2 / 5 )) ;; esac
    if [ ! -s "$out/$v.json" ]; then
        "${ROOTS:-target/release/roots}" ladder "$v" --bots "$bots" -n "$n" --seed "$seed" \
            --format json > "$out/$v.json.part"
        mv "$out/$v.json.part" "$out/$v.json"
    fi
done
python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
rows = []
for v in ["standard", "fewer-beads", "fewer-nutrients", "more-beads", "more-nutrients",
          "one-nutrient-per-turn", "pre-rolled-values", "btt", "btt-martian-go", "btt-arcade",
          "btt-literal-wiki", "sprout-r-out", "sprout-r-out-ludii"]:
    p = os.path.join(out, v + ".json")
    if not os.path.exists(p):
        continue
    l = json.load(open(p))
    bots = [b.strip() for b in os.environ.get("BOTS", "greedy,random,mcts:100").split(",")]
    r = {x["bot"]: x for x in l["ratings"]}
    cells = []
    for b in bots:
        # `mcts:200` is named `mcts` (the default number of iterations).
        x = r.get(b) or r[b.split(":")[0]]
        cells.append("0" if x["low"] == x["high"] else f'{x["elo"]:.0f} ({x["low"]:.0f}..{x["high"]:.0f})')
    s = l["skill"]
    w = s["best_vs_next"]
    cells.append(f'{s["best"]} v {s["next"]}: {100*w["rate"]:.1f}% ({100*w["low"]:.1f}-{100*w["high"]:.1f}%)')
    cells.append(f'{s["spread"]:.0f}')
    rows.append(f'| `{v}` | {l["games_per_pair"]} | ' + " | ".join(cells) + " |")
bots = os.environ.get("BOTS", "greedy,random,mcts:100").split(",")
print("| variant | games per pair | " + " | ".join(bots) + " | best v next | spread (non-random) |")
print("|---" * (len(bots) + 4) + "|")
print("\n".join(rows))
PY

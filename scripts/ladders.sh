#!/usr/bin/env bash
# The README's ladder table: `roots ladder` for every built-in variant (the
# list comes from `roots games --json`), one JSON file each under the output
# directory (default target/ladders), each ladder's CPU and wall time beside
# it (VARIANT.time), then a Markdown table on stdout. Seeded, so
# reproducible whatever --jobs is. A variant already laddered in OUTDIR is
# not played again: delete its JSON file to re-run it. A variant for more
# players only is laddered with that many seats (the two bots of a pair in
# alternate seats); its row says how many.
#
# The "order" column says whether the ratings rank the bots as listed in
# BOTS, weakest first after the anchor's place is put right (for the default
# bots: random < greedy < mcts), each bot ordered against the next by their
# head-to-head games (`ordered` in the JSON: at the level of the pair's
# last look, alpha spending over a pair's growth); "?" marks a pair not
# ordered, "!" a pair the wrong way round.
#
# Usage: scripts/ladders.sh [GAMES_PER_PAIR] [SEED] [OUTDIR]   (defaults: 100, 1)
#   ONLY="btt sprout-r-out" scripts/ladders.sh   runs only those variants.
#   BOTS=greedy,random,mcts:100 scripts/ladders.sh   other bots (default:
#   the ladder's own, greedy,random,mcts), listed as the order expected:
#   ORDER="random greedy mcts" (weakest first, the default).
# Needs a release build (cargo build --release) and python3 for the table.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
seed=${2:-1}
out=${3:-target/ladders}
bots=${BOTS:-greedy,random,mcts}
order=${ORDER:-random greedy mcts}
roots=${ROOTS:-target/release/roots}
mkdir -p "$out"
variants=$("$roots" games --json | python3 -c '
import json, sys
for g in json.load(sys.stdin):
    for v in g["variants"]:
        print(v["name"] if isinstance(v, dict) else v)')
for v in ${ONLY:-$variants}; do
    if [ ! -s "$out/$v.json" ]; then
        if /usr/bin/time -f "%U s user, %S s system, %e s wall" -o "$out/$v.time" \
            "$roots" ladder "$v" --bots "$bots" -n "$games" --seed "$seed" \
            --format json > "$out/$v.json.part" 2> "$out/$v.err"; then
            mv "$out/$v.json.part" "$out/$v.json"
            echo "$v: $(cat "$out/$v.time") (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
        else
            cat "$out/$v.err" >&2
            exit 1
        fi
    fi
done
python3 - "$out" "$bots" "$order" $variants <<'PY'
import json, sys, os
out, bots = sys.argv[1], [b.strip() for b in sys.argv[2].split(",")]
order = sys.argv[3].split()
rows = []
held = 0
for v in sys.argv[4:]:
    p = os.path.join(out, v + ".json")
    if not os.path.exists(p):
        continue
    l = json.load(open(p))
    r = {x["bot"]: x for x in l["ratings"]}
    cells = []
    for b in bots:
        # The ladder names each bot as its spec prints (lower case).
        x = r.get(b) or r[b.strip().lower()]
        cells.append("0" if x["low"] == x["high"] else f'{x["elo"]:.0f} ({x["low"]:.0f}..{x["high"]:.0f})')
    s = l["skill"]
    w = s["best_vs_next"]
    cells.append(f'{s["best"]} v {s["next"]}: {100*w["rate"]:.1f}% ({100*w["low"]:.1f}-{100*w["high"]:.1f}%)')
    cells.append(f'{s["spread"]:.0f}')
    # The expected order, each bot against the next, from the head to heads.
    def pairing(a, b):
        for p in l["pairings"]:
            if (p["a"], p["b"]) == (a, b):
                return p, p["a_score"]["rate"]
            if (p["a"], p["b"]) == (b, a):
                return p, 1 - p["a_score"]["rate"]
        return None, None
    words, ok = [order[0]], True
    for a, b in zip(order, order[1:]):
        p, rate = pairing(a, b)
        # `b` should beat `a`.
        if p is None or not p["ordered"]:
            sign, ok = " ? ", False
        elif rate < 0.5:
            sign = " < "
        else:
            sign, ok = " ! ", False
        words.append(sign + b)
    held += ok
    cells.append("".join(words) + ("" if ok else " (not held)"))
    seats = l.get("players", 2)
    most = max(p["games"] for p in l["pairings"])
    games = f'{l["games_per_pair"]}' + (f" (up to {most})" if most > l["games_per_pair"] else "") \
        + (f" ({seats} seats)" if seats != 2 else "")
    rows.append(f'| `{v}` | {games} | ' + " | ".join(cells) + " |")
print("| variant | games per pair | " + " | ".join(bots) + " | best v next | spread (non-random) | order |")
print("|---" * (len(bots) + 5) + "|")
print("\n".join(rows))
print(f"\nThe order {' < '.join(order)} held, each pair ordered, in {held} of {len(rows)} ladders.")
PY

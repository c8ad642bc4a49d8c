#!/usr/bin/env bash
# The bot figures of the README, reproducibly: for every game, each bot pair
# of the table below plays seeded `roots simulate` matches with seats rotated
# (each bot plays each seat equally often) on 3 seeds, so the same seeds give
# the same games on any machine and with any --jobs. For each pair: the
# first bot's score (a tie counting half) on each seed and pooled over the
# seeds with its 95% Wilson interval (and on how many seeds the seed's own
# interval is above 50%), its share of the decided games (ties left out),
# and the CPU time of the match (games per CPU second, user time, one
# thread; it depends on the machine's load, which is printed).
# Each row is a claim, and the last column says whether it held on these
# seeds: against `random`, the first bot wins at least 90% of the decided
# games on every seed; against any other bot, the pooled interval is above
# 50%, and for the search against `greedy` also at no more than 10 times
# the CPU of a game of greedy against itself (the same games' count and
# seeds, timed alongside; the column "CPU v greedy" is that ratio).
# The seeds default to 1001-1005, which no tuning of the bots used (tune
# on others: 1-100 or 2001 and up).
# The table on stdout is the README's "Bot strength" table; with
# WRITE_README=1 the script also puts it into README.md between the
# `bot-strength` markers.
#
# Usage: scripts/bot-strength.sh [SCALE] [SEEDS]   (defaults: 1 and "1001 1002 1003 1004 1005")
#          SCALE multiplies every match's games (0.5 halves them).
#        ONLY="sprout-r-out" scripts/bot-strength.sh   only those variants.
#        MATCHES="standard mcts greedy 100" scripts/bot-strength.sh 1 "1 2 3 4 5"
#          other matches than the table's (lines of: variant, bot, bot, games).
#        scripts/bot-strength.sh checksum [ROOTS]
#        scripts/bot-strength.sh checksums [ROOTS]
# Needs a release build: cargo build --release (or ROOTS=path/to/roots),
# python3 and /usr/bin/time.
#
# `checksum` prints a SHA-256 over the per-game records of seeded Roots and
# Shoots greedy and MCTS games (2 and 3 players, standard rules): a change
# meant to make the Roots and Shoots bots faster without changing their play
# must leave it as it was (the README's bot figures give the expected
# value). `checksums` prints one such hash per game for its default bot and
# `mcts:100` (the values are in the README, "Bot strength"): a change
# to a bot or an evaluation that changes it changes the games, and the
# strength table must be run again.
set -euo pipefail
cd "$(dirname "$0")/.."
roots=${ROOTS:-target/release/roots}

if [ "${1:-}" = checksum ]; then
    roots=${2:-$roots}
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    "$roots" simulate -n 3000 -j1 --seed 1 -q --bots greedy --out "$dir/a.csv" >/dev/null
    "$roots" simulate -n 600 -j1 --seed 2 --players 3 --bots greedy -q --out "$dir/b.csv" >/dev/null
    "$roots" simulate -n 12 -j1 --seed 5 --bots mcts:100,greedy --rotate -q \
        --out "$dir/c.csv" >/dev/null
    cat "$dir/a.csv" "$dir/b.csv" "$dir/c.csv" | sha256sum | cut -d' ' -f1
    exit 0
fi
if [ "${1:-}" = checksums ]; then
    roots=${2:-$roots}
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    for v in btt sprout-r-out roots-growy-roots; do
        "$roots" simulate "$v" -n 200 -j1 --seed 1 -q --out "$dir/a.csv" >/dev/null
        "$roots" simulate "$v" -n 6 -j1 --seed 2 --bots mcts:100,greedy --rotate -q \
            --out "$dir/b.csv" >/dev/null
        echo "$v $(cat "$dir/a.csv" "$dir/b.csv" | sha256sum | cut -d' ' -f1)"
    done
    exit 0
fi

scale=${1:-1}
seeds=${2:-1001 1002 1003 1004 1005}
# variant, first bot, second bot, games per seed (before SCALE); the first
# bot is each game's default bot or the search. `greedy` is each game's
# greedy bot as --bots greedy plays it (Sprout-R-Out: whole turns);
# `greedy-v1` is the plain one-decision greedy (Sprout-R-Out: one sub-move).
# By default: every shipped variant (`roots games`), its game's default
# bot against random, and the search at its default budget (`mcts`)
# against greedy.
if [ -z "${MATCHES:-}" ]; then
    matches=$("$roots" games --json | python3 -c '
import json, sys
for g in json.load(sys.stdin):
    for v in g["variants"]:
        v = v["name"] if isinstance(v, dict) else v
        print(v, g["default_bot"], "random", 200)
        print(v, "mcts", "greedy", 100)')
else
    matches=$MATCHES
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "$matches" | while read -r v a b n; do
    [ -n "$v" ] || continue
    case " ${ONLY:-$v} " in *" $v "*) ;; *) continue ;; esac
    n=$(python3 -c "print(max(2, round($n * $scale / 2) * 2))")
    # Two seats where the variant allows them; else (Roots Growy Roots' 3-
    # and 4-player boards) its fewest seats, the two bots in alternate
    # seats, and with an odd number of seats half the games with each bot
    # in the extra seat, on the same seed (as `roots ladder` seats them).
    k=$("$roots" show "$v" --format json | python3 -c '
import json, sys
p = json.load(sys.stdin)["rules"].get("players") or {}
lo, hi = p.get("min", 2), p.get("max", 2)
print(2 if lo <= 2 <= hi else lo)')
    if [ "$k" = 2 ]; then
        lineups="$a,$b"
    else
        lineups=$(python3 -c "
k, a, b = $k, '$a', '$b'
seats = lambda x, y: ','.join(x if i % 2 == 0 else y for i in range(k))
print(seats(a, b) + (' ' + seats(b, a) if k % 2 else ''))")
    fi
    parts=$(echo $lineups | wc -w)
    m=$((n / parts))
    for s in $seeds; do
        f="$dir/$v.$a.$b.$s"
        files=""
        i=0
        for bots in $lineups; do
            i=$((i + 1))
            /usr/bin/time -f "%U" -o "$f.$i.time" "$roots" simulate "$v" --bots "$bots" \
                --rotate -n "$m" --seed "$s" -j1 -q --format json > "$f.$i.json"
            files="$files${files:+,}$f.$i"
        done
        # The search's CPU is judged against greedy's: the same lineups
        # with greedy in every seat, timed only.
        base=0
        case "$a $b" in "mcts"*" greedy")
            i=0
            for bots in $lineups; do
                i=$((i + 1))
                g=$(echo "$bots" | sed -E 's/[^,]+/greedy/g')
                # Greedy is fast and /usr/bin/time counts hundredths: too
                # short a run is played again with more games (reps times
                # as many) and its time divided by reps.
                reps=1
                while :; do
                    /usr/bin/time -f "%U" -o "$f.$i.gtime" "$roots" simulate "$v" --bots "$g" \
                        --rotate -n $((m * reps)) --seed "$s" -j1 -q --format json > /dev/null
                    t=$(cat "$f.$i.gtime")
                    k2=$(python3 -c "t = $t; print(0 if t >= 0.5 or $reps > 1 else min(100, int(0.5 / max(t, 0.005)) + 1))")
                    [ "$k2" = 0 ] && break
                    reps=$k2
                done
                python3 -c "print($t / $reps)" > "$f.$i.gtime"
            done
            base=$(cat "$f".*.gtime | awk '{ t += $1 } END { printf "%.6f", t }')
            ;;
        esac
        echo "$v $a $b $s $files $(cut -d' ' -f1 /proc/loadavg) $base" >> "$dir/index"
        echo "$v: $a v $b, seed $s, $n games ($k seats): $(cat "$f".*.time | awk "{ t += \$1 } END { print t }") s of CPU" >&2
    done
done
python3 - "$dir/index" <<'PY' | tee "$dir/table"
import json, math, sys
from collections import OrderedDict

def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))

rows = OrderedDict()
for line in open(sys.argv[1]):
    v, a, b, s, files, load, base = line.split()
    wa = wb = ties = games = 0
    cpu = 0.0
    for f in files.split(","):
        r = json.load(open(f + ".json"))
        wins = {x["bot"]: x["wins"]["count"] for x in r["per_bot"]}
        wa += wins.get(a, 0)
        wb += wins.get(b, 0)
        games += r["games"]
        ties += r["ties"]["count"]
        cpu += float(open(f + ".time").read().split()[-1])
    rows.setdefault((v, a, b), []).append((s, wa, wb, ties, games, cpu, load, float(base)))

print("| variant | bots | per seed: first bot's score | pooled score (95% interval) | first bot's share of decided games | games/s of CPU | CPU v greedy | load | claim |")
print("|---|---|---|---|---|---|---|---|---|")
held_rows = 0
for (v, a, b), runs in rows.items():
    per = []
    W = L = T = N = 0
    cpu = base = 0.0
    held = 0
    decided_ok = True
    for s, w, l, t, n, c, load, g in runs:
        per.append(f"{s}: {100 * (w + t / 2) / n:.1f}%")
        held += wilson(w + t / 2, n)[0] > 0.5
        decided_ok &= w + l > 0 and w >= 0.9 * (w + l)
        W += w; L += l; T += t; N += n; cpu += c; base += g
    # How often the seed's own interval was above 50%.
    per.append(f"above 50% on {held} of {len(runs)}")
    score = W + T / 2
    lo, hi = wilson(score, N)
    decided = f"{100 * W / (W + L):.1f}% of {W + L}" if W + L else "none"
    speed = f"{N / cpu:,.0f}" if cpu > 0 else "-"
    ratio = cpu / base if base > 0 else None
    loads = "-".join(sorted({r[6] for r in runs}))
    if b == "random":
        ok = decided_ok
        claim = f"at least 90% of decided games on every seed: {'held' if ok else 'NOT held'}"
    else:
        ok = lo > 0.5
        claim = f"pooled interval above 50%: {'held' if ok else 'NOT held'}"
        if ratio is not None:
            cheap = ratio <= 10
            ok = ok and cheap
            claim += f"; at most 10x greedy's CPU: {'held' if cheap else 'NOT held'}"
    held_rows += ok
    ratio_s = f"{ratio:.1f}x" if ratio is not None else "-"
    print(f"| `{v}` | {a} v {b} | {', '.join(per)} | {100 * score / N:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%) of {N} | {decided} | {speed} | {ratio_s} | {loads} | {claim} |")
print(f"\nEvery claim of a row held in {held_rows} of {len(rows)} rows (seeds {' '.join(sorted({r[0] for runs in rows.values() for r in runs}, key=int))}).")
PY
if [ "${WRITE_README:-0}" = 1 ]; then
    python3 - "$dir/table" <<'PY'
import sys
table = open(sys.argv[1]).read()
text = open("README.md").read()
begin, end = "<!-- bot-strength begin -->\n", "<!-- bot-strength end -->"
i, j = text.index(begin) + len(begin), text.index(end)
open("README.md", "w").write(text[:i] + table + text[j:])
PY
fi

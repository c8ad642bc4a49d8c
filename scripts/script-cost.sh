#!/usr/bin/env bash
# What house rules written as scripts cost: callgrind instructions per
# random game of each game's base variant, of the same rules with a script
# that does nothing (`let s = ctx.seat;`) on every hook, and of each
# shipped example with a script, and each one's share of its base game's
# speed (the README's table, "Cost").
#
# For each variant, callgrind counts `roots simulate VARIANT -b random -n N
# -j1 --seed 1 -q --measures outcomes` for N = 100 and N = 600; the
# difference over 500 is one game of a long run, without the run's set-up,
# its report's fixed work, or the first games' warm-up (buffers growing,
# first uses), which a run of one game lacks and a run of 100 games
# spreads over its games (measured against a one-game run, 100 games of
# a do-nothing variant counted about 10,700 instructions a game more than
# a long run in Branches, over a third of its game, and 17,000 in Roots
# and Shoots). Every variant is counted alike. Instruction
# counts do not depend on the machine's load.
#
# Usage: ROOTS=path/to/roots scripts/script-cost.sh
#        BEFORE=old/roots AFTER=new/roots scripts/script-cost.sh
# The second form measures both binaries in the same run and prints
# before -> after. Needs valgrind and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BEFORE:-}" ]; then
    bins=("$BEFORE" "${AFTER:?set AFTER with BEFORE}")
else
    bins=("${ROOTS:-${CARGO_TARGET_DIR:-target}/release/roots}")
fi
for b in "${bins[@]}"; do
    [ -x "$b" ] || {
        echo "no binary at $b" >&2
        exit 2
    }
done
command -v valgrind > /dev/null || {
    echo "valgrind is not installed" >&2
    exit 2
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# A variant of base $2 of game $1 with a do-nothing script on hooks $3...
do_nothing() {
    local game=$1 base=$2 file=$dir/$3.toml
    shift 3
    printf 'game = "%s"\nextends = "%s"\nname = "do-nothing"\n' "$game" "$base" > "$file"
    for h in "$@"; do
        printf '[[script]]\nname = "%s"\nhook = "%s"\ncode = "let s = ctx.seat;"\n' "$h" "$h" >> "$file"
    done
    echo "$file"
}
rs=$(do_nothing roots-and-shoots standard rs-nothing legal roll after_roll after_action scored final)
btt=$(do_nothing branches btt btt-nothing legal after_action final)
sprout=$(do_nothing sprout-r-out sprout-r-out sprout-nothing legal after_action final)
rgr=$(do_nothing roots-growy-roots roots-growy-roots rgr-nothing legal after_action final)
# label, variant; a base line starts a game's group
runs="
base standard
nothing $rs
ex variants/edge-double.toml
ex variants/reroll-ones.toml
ex variants/no-edge-plants.toml
base btt
nothing $btt
ex variants/branches-own-coin.toml
base sprout-r-out
nothing $sprout
ex variants/sprout-edge-territory.toml
base roots-growy-roots
nothing $rgr
ex variants/rgr-bridge-water.toml
"
count() { # binary variant games -> instructions of the whole run
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$1" simulate "$2" -b random -n "$3" -j1 --seed 1 -q --measures outcomes \
        > /dev/null 2> "$dir/err" || {
        cat "$dir/err" >&2
        exit 2
    }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$dir/err"
}
short=100
long=600
echo "$runs" | while read -r kind v; do
    [ -n "$kind" ] || continue
    line="$kind $(basename "$v" .toml)"
    for b in "${bins[@]}"; do
        few=$(count "$b" "$v" "$short")
        many=$(count "$b" "$v" "$long")
        line="$line $(((many - few) / (long - short)))"
    done
    echo "$line"
done > "$dir/now"
python3 - "$dir/now" << 'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
two = len(rows[0]) == 4
print("| variant | instructions a game | share of the base's speed |")
print("|---|---|---|")
base = None
for kind, name, *n in rows:
    n = [int(x) for x in n]
    cost = " -> ".join(f"{x:,}" for x in n)
    if kind == "base":
        base = n
        print(f"| `{name}` (none) | {cost} | |")
        continue
    share = " -> ".join(f"{100 * b / x:.1f}%" for b, x in zip(base, n))
    label = "do-nothing on every hook" if kind == "nothing" else f"`{name}`"
    print(f"| {label} | {cost} | {share} |")
PY

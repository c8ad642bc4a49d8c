#!/usr/bin/env bash
# Does Sprout-R-Out's greedy bot beat random? `roots ladder` between the two,
# seats rotated, on Limping 3, Cairo 1 and the default board (Limping 5),
# under the designer's rules and Ludii's readings. Seeded: the figures in
# docs/games/sprout-r-out.md ("Bots") come from `scripts/sprout-greedy.sh 400 1`.
#
# Usage: scripts/sprout-greedy.sh [GAMES] [SEED]   (defaults: 400, 1)
# Needs a release build (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
seed=${2:-1}
roots=${ROOTS:-target/release/roots}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for base in sprout-r-out sprout-r-out-ludii; do
    for board in limping-3 cairo-1 limping-5; do
        f="$dir/$base-$board.toml"
        printf 'game = "sprout-r-out"\nextends = "%s"\nname = "%s-%s"\ndescription = "%s on %s"\n\n[board]\nshape = "%s"\n' \
            "$base" "$base" "$board" "$base" "$board" "$board" > "$f"
        printf '%-20s %-10s ' "$base" "$board"
        "$roots" ladder "$f" --bots greedy,random -n "$games" --seed "$seed" |
            grep -E '^ +greedy +v random' | sed -E 's/^ +greedy +v random +//'
    done
done

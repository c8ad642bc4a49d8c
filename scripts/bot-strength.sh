#!/usr/bin/env bash
# The bot strength figures of the README, reproducibly: every match is a
# seeded `roots simulate` with seats rotated (each bot plays each seat
# equally often), so the same seed gives the same games on any machine and
# with any --jobs. Speed is measured in benches/bots.rs, not here.
#
# Usage: scripts/bot-strength.sh [GAMES] [SEED]   (defaults: 2000 and 7)
#        scripts/bot-strength.sh checksum [ROOTS]
# Needs a release build: cargo build --release (or ROOTS=path/to/roots).
#
# `checksum` prints a SHA-256 over the per-game records of seeded greedy and
# MCTS games (2 and 3 players, standard rules): a change that is meant to
# make the Roots and Shoots bots faster without changing their play must
# leave it as it was (the README's bot figures give the expected value).
set -euo pipefail
cd "$(dirname "$0")/.."
roots=${ROOTS:-target/release/roots}

if [ "${1:-}" = checksum ]; then
    roots=${2:-$roots}
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    "$roots" simulate -n 3000 -j1 --seed 1 -q --out "$dir/a.csv" >/dev/null
    "$roots" simulate -n 600 -j1 --seed 2 --players 3 -q --out "$dir/b.csv" >/dev/null
    "$roots" simulate -n 12 -j1 --seed 5 --bots mcts:100,greedy --rotate -q \
        --out "$dir/c.csv" >/dev/null
    cat "$dir/a.csv" "$dir/b.csv" "$dir/c.csv" | sha256sum | cut -d' ' -f1
    exit 0
fi
games=${1:-2000}
seed=${2:-7}

match() {
    echo "== $1: $2, $3 games, seed $seed"
    "$roots" simulate "$1" --bots "$2" --rotate -n "$3" --seed "$seed" |
        sed -n '/Who wins, by bot/,/^$/p'
}

# 1. The fast greedy bot against the first one (which prices every
#    candidate on a copy of the position): at least as strong?
match standard greedy,greedy-v1 "$games"
# 2. Search against greedy, per game.
for v in standard btt sprout-r-out; do
    match "$v" mcts:100,greedy $((games / 10))
done

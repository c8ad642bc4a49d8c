#!/usr/bin/env bash
# The bot strength figures of the README, reproducibly: every match is a
# seeded `roots simulate` with seats rotated (each bot plays each seat
# equally often), so the same seed gives the same games on any machine and
# with any --jobs. Speed is measured in benches/bots.rs, not here.
#
# Usage: scripts/bot-strength.sh [GAMES] [SEED]   (defaults: 2000 and 7)
# Needs a release build: cargo build --release.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-2000}
seed=${2:-7}
roots=target/release/roots

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

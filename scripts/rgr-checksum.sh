#!/usr/bin/env bash
# A SHA-256 over the per-game rows of seeded Roots Growy Roots games (random
# and greedy play, 2 to 4 players, with and without the artifact
# abilities): each row holds the game's winner, scores, end and every count
# of the statistics (turns, sticks, bridges, stones, cards turned...). A
# change meant to make the engine or its greedy bot faster without changing
# the games must print the same line on the old build and the new one.
# `cargo run --release --example rgr_checksum` checks the move sequences
# themselves, through the library.
#
# Usage: scripts/rgr-checksum.sh [ROOTS]   (default target/release/roots)
set -euo pipefail
cd "$(dirname "$0")/.."
roots=${1:-target/release/roots}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() {
    "$roots" simulate "$1" -p "$2" --bots "$3" -n "$4" -j1 --seed 11 -q --out "$dir/$1-$2-$3.csv" >/dev/null
}
for p in 2 3 4; do
    run roots-growy-roots "$p" random 3000
    run rgr-artifacts "$p" random 3000
    run roots-growy-roots "$p" greedy 60
    run rgr-artifacts "$p" greedy 60
done
run rgr-all-claimed 2 greedy 60
cat "$dir"/*.csv | sha256sum | cut -d' ' -f1

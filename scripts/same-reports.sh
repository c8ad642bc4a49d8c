#!/usr/bin/env bash
# The reports of a fixed set of runs, for all four games, written into a
# directory: run it on two builds and `diff -r` the directories to show a
# change of code changed no output (issue #47: the run layer). Every kind of
# run: simulate (table, JSON, CSV, --summary, --skill, --measures, --out
# files, --record-game), compare (and --until-decided, --skill), sweep (one
# key and a grid, with its SVG), tune (with the file it writes), ladder,
# and runs in shards (`--shard K/N`, the parts themselves too) with their
# `roots merge`; a few refusals (their message and exit code); the help of
# the commands that run games, the manual page and a completion script.
# Each run is small (a few hundred games at most) and seeded; -j1 except a
# few at -j2, which must give the same bytes.
#
# For each case NAME the directory holds NAME.out (stdout), NAME.err
# (stderr), NAME.code (the exit code) and NAME.file-* (files the run wrote).
# Normalised: the `created` time of a game record (--record-game) is
# replaced by a fixed text. Nothing else holds a time: progress bars and
# tune's progress line are drawn only on a terminal (stderr is a file here),
# and every run is given its seed (no seed drawn at random).
#
# Usage: scripts/same-reports.sh OUTDIR [BEFORE]
#   ROOTS=path/to/roots (default target/release/roots).
#   With BEFORE (a directory an earlier run wrote), it ends with
#   `diff -r BEFORE OUTDIR` and exits 1 when they differ.
# It also checks that each merge printed what the whole run printed, and
# says so at the end (a line per case that does not).
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
out=${1:?usage: scripts/same-reports.sh OUTDIR [BEFORE]}
before=${2:-}
roots=${ROOTS:-target/release/roots}
roots=$(cd "$(dirname "$roots")" && pwd)/$(basename "$roots")
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/*
# Runs happen in a fixed directory (relative file names in the reports,
# and a variant's path from the file tune writes, are then the same).
# WORK: another fixed directory, when two checkouts run this at once.
work=${WORK:-/tmp/roots-same-reports-work}
rm -rf "$work"
mkdir -p "$work"
ln -s "$repo/variants" "$work/variants"
cd "$work"
export NO_COLOR=1
unset CLICOLOR_FORCE
cases=0
mismatch=()

# run NAME ARGS...: one run; its outputs and the files it wrote.
run() {
    local name=$1
    shift
    cases=$((cases + 1))
    mkdir -p files
    "$roots" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.code"
    for f in files/*; do
        [ -e "$f" ] || continue
        local dest="$out/$name.file-$(basename "$f")"
        if [[ $f == *.jsonl ]] && grep -q '"created"' "$f"; then
            sed -E 's/"created":"[^"]*"/"created":"(time)"/' "$f" >"$dest"
        else
            cp "$f" "$dest"
        fi
    done
    rm -rf files
}

# sharded NAME N ARGS...: the run whole, then in N shards (the parts kept),
# and their merge, which must print what the whole run printed.
sharded() {
    local name=$1 n=$2
    shift 2
    run "$name.whole" "$@"
    local parts=()
    for k in $(seq 1 "$n"); do
        run "$name.part-$k" "$@" --shard "$k/$n"
        cp "$out/$name.part-$k.out" "$work/$name.part-$k.json"
        parts+=("$work/$name.part-$k.json")
    done
    # Given out of order: the order does not matter.
    run "$name.merge" merge $(printf '%s\n' "${parts[@]}" | sort -r)
    cmp -s "$out/$name.whole.out" "$out/$name.merge.out" || mismatch+=("$name")
    rm -f "${parts[@]}"
}

# tune_sharded NAME N ARGS...: a tune in N shards at once, exchanging
# totals through a directory, then merged (the file it writes kept).
tune_sharded() {
    local name=$1 n=$2
    shift 2
    run "$name.whole" "$@"
    rm -rf exchange
    local pids=()
    for k in $(seq 1 "$n"); do
        "$roots" "$@" --shard "$k/$n" --exchange exchange \
            >"$work/$name.part-$k.json" 2>"$out/$name.part-$k.err" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
    for k in $(seq 1 "$n"); do
        cp "$work/$name.part-$k.json" "$out/$name.part-$k.out"
        cases=$((cases + 1))
    done
    rm -rf exchange
    run "$name.merge" merge "$work/$name".part-*.json
    cmp -s "$out/$name.whole.out" "$out/$name.merge.out" || mismatch+=("$name")
    rm -f "$work/$name".part-*.json
}

S=(--seed 7 -j1)

# ---------------------------------------------------------- the words
# Every command's help and the manual page: the arguments moved with the
# code that reads them.
run help man
run completions completions bash
for c in simulate compare sweep tune ladder merge; do
    run "help-$c" "$c" --help
done

# ------------------------------------------------------------ simulate
for g in standard btt sprout-r-out roots-growy-roots; do
    run "sim-$g-table" simulate "$g" -b greedy -n 120 "${S[@]}"
    run "sim-$g-json" simulate "$g" -b greedy,random -n 120 "${S[@]}" --format json
    run "sim-$g-csv" simulate "$g" -b random -n 200 "${S[@]}" --format csv --rotate
    run "sim-$g-summary" simulate "$g" -b greedy -n 120 "${S[@]}" --summary
    run "sim-$g-outcomes" simulate "$g" -b random -n 300 "${S[@]}" --measures outcomes --format json
    run "sim-$g-j2" simulate "$g" -b greedy -n 120 --seed 7 -j2 --format json
done
run sim-standard-full simulate standard -b greedy -n 60 "${S[@]}" --measures full
run sim-standard-full-json simulate standard -b greedy -n 60 "${S[@]}" --measures full --format json
run sim-standard-3p simulate standard -p 3 -b greedy,random,random --rotate -n 150 "${S[@]}"
run sim-standard-skill simulate standard -b greedy,greedy-v1 --skill -n 60 "${S[@]}"
run sim-standard-skill-summary simulate standard -b greedy,greedy-v1 --skill -n 60 "${S[@]}" --summary
run sim-standard-margin simulate standard -b greedy -n 100 "${S[@]}" --margin seat1-wins=3
run sim-fewer-beads-set simulate variants/fewer-beads.toml -b random -n 150 "${S[@]}" --set beads.supply=35
run sim-btt-arcade simulate variants/btt-arcade.toml -b greedy -n 100 "${S[@]}" --format json
run sim-rgr-3p simulate variants/rgr-3p.toml -b random -n 100 "${S[@]}"
run sim-sprout-ludii simulate variants/sprout-r-out-ludii.toml -b random -n 100 "${S[@]}" --summary
run sim-out-csv simulate standard -b random -n 80 "${S[@]}" --out files/games.csv
run sim-out-jsonl simulate btt -b random -n 80 "${S[@]}" --out files/games.jsonl
run sim-out-json simulate roots-growy-roots -b random -n 40 "${S[@]}" --out files/games.json
run sim-out-format simulate sprout-r-out -b random -n 40 "${S[@]}" --out files/games.txt --out-format jsonl
run sim-record-game simulate standard -b greedy -n 20 "${S[@]}" --record-game 3 --record files/game.jsonl
run sim-record-rgr simulate roots-growy-roots -b random -n 10 "${S[@]}" --record-game 9 --record files/game.jsonl
# Refusals.
run sim-no-seed-shard simulate standard --shard 1/2 -n 10
run sim-bad-shard simulate standard --shard 3/2 -n 10 --seed 1
run sim-shard-out simulate standard --shard 1/2 -n 10 --seed 1 --out files/x.csv
run sim-bad-margin simulate standard -n 10 --seed 1 --margin rounds=1
run sim-bad-bots simulate standard -n 10 --seed 1 -b greedy,random,random
run sim-bad-jobs simulate standard -n 10 --seed 1 -j0
run sim-record-out-of-range simulate standard -n 10 --seed 1 --record-game 10
run sim-bad-variant simulate no-such-variant -n 10 --seed 1
run sim-bad-players simulate sprout-r-out -p 3 -n 10 --seed 1

# ------------------------------------------------------------- compare
run cmp-standard compare standard fewer-beads -b greedy -n 120 "${S[@]}"
run cmp-standard-json compare standard variants/more-beads.toml -b greedy -n 120 "${S[@]}" --format json
run cmp-standard-csv compare standard one-nutrient-per-turn -b random -n 150 "${S[@]}" --format csv
run cmp-standard-set compare standard standard --set beads.supply=35 -b random -n 150 "${S[@]}" --margin rounds=0.5
run cmp-btt compare btt btt-arcade -b greedy -n 100 "${S[@]}"
run cmp-sprout compare sprout-r-out sprout-r-out-ludii -b random -n 100 "${S[@]}" --format json
run cmp-rgr compare roots-growy-roots rgr-artifacts -b random -n 100 "${S[@]}"
run cmp-until compare standard fewer-beads -b random "${S[@]}" --until-decided --max-games 400
run cmp-until-json compare btt btt-arcade -b random "${S[@]}" --until-decided --max-games 300 --primary ties --format json
run cmp-skill compare standard fewer-beads -b random -n 40 "${S[@]}" --skill greedy,random --skill-games 30
run cmp-skill-json compare btt btt-arcade -b random -n 40 "${S[@]}" --skill random,greedy --skill-games 20 --format json
run cmp-two-games compare standard btt -n 10 --seed 1
run cmp-bad-primary compare standard fewer-beads -n 10 --seed 1 --until-decided --primary nothing

# --------------------------------------------------------------- sweep
run sweep-standard sweep standard --set beads.supply=30..90:30 -b random -n 100 "${S[@]}"
run sweep-standard-svg sweep standard --set beads.supply=30..90:30 --measure first-player-advantage --measure ties -b random -n 100 "${S[@]}" --svg files/plot.svg
run sweep-standard-grid sweep standard --set beads.store=4..8:2 --set turn.one_nutrient_per_turn --measure ties -b random -n 90 "${S[@]}" --svg files/grid.svg
run sweep-standard-json sweep standard --set nutrients.value_rolled -b random -n 100 "${S[@]}" --format json
run sweep-standard-csv sweep standard --set beads.supply=20..60:20 --measure drama -b random -n 100 "${S[@]}" --format csv
run sweep-btt sweep btt --set pyramids.small=3..7:2 -b random -n 100 "${S[@]}"
run sweep-sprout sweep sprout-r-out --set rules.tie -b random -n 80 "${S[@]}" --format json
run sweep-rgr sweep roots-growy-roots --set start_deck.earth=10..18:4 -b random -n 80 "${S[@]}" --format csv
run sweep-fixed sweep variants/fewer-beads.toml --set beads.supply=30..50:10 --set nutrients.supply=40 -b random -n 80 "${S[@]}"
run sweep-invalid sweep standard --set beads.supply=-10..30:20 -b random -n 60 "${S[@]}"
run sweep-no-axis sweep standard --set beads.supply=30 -n 10 --seed 1
run sweep-bad-measure sweep standard --set beads.supply=30..40:10 --measure nothing -n 10 --seed 1

# ---------------------------------------------------------------- tune
run tune-standard tune standard -b random --vary beads.supply=20..80:2 --target rounds=25 --budget 3000 -n 270 "${S[@]}" --write files/best.toml
run tune-standard-json tune standard -b random --vary beads.supply=20..80:4 --vary turn.one_nutrient_per_turn --target rounds=20 --target first-player-advantage=0 --budget 3000 -n 200 "${S[@]}" --format json --write files/best.toml
run tune-standard-csv tune variants/fewer-beads.toml -b random --vary nutrients.supply=20..60:5 --target ties=min --budget 2000 -n 150 "${S[@]}" --format csv --write files/best.toml
run tune-btt tune btt -b random --vary pyramids.small=2..8 --target first-player-advantage=0 --budget 2000 -n 150 "${S[@]}" --write files/best.toml
run tune-sprout tune sprout-r-out -b random --vary board.shape --vary rules.end_check --target first-player-advantage=0 --budget 1500 -n 100 --candidates 4 "${S[@]}" --write files/best.toml
run tune-rgr tune roots-growy-roots -b random --vary start_deck.earth=8..20:2 --target first-player-advantage=0 --budget 1500 -n 100 "${S[@]}" --write files/best.toml
run tune-sprout-idle tune sprout-r-out -b random --vary rules.tie --target ties=min --budget 1500 -n 100 --candidates 4 "${S[@]}"
run tune-idle-key tune btt -b random --vary coins.start=1..9 --target ties=min --budget 2000 -n 100 --seed 1 -j1
run tune-bad-target tune standard --vary beads.supply=20..80 --target nothing=1 --seed 1
run tune-small-budget tune standard --vary beads.supply=20..80 --target rounds=25 --budget 10 --seed 1

# -------------------------------------------------------------- ladder
run ladder-standard ladder standard --bots random,greedy -n 40 "${S[@]}"
run ladder-btt-json ladder btt --bots random,greedy,greedy-v1 -n 30 --max-games 60 "${S[@]}" --format json
run ladder-sprout-csv ladder sprout-r-out --bots random,greedy -n 20 "${S[@]}" --format csv
run ladder-rgr ladder roots-growy-roots --bots greedy,random -n 30 "${S[@]}"
run ladder-rgr-3p ladder rgr-3p --bots random,greedy -n 20 "${S[@]}"
run ladder-set ladder standard --bots random,greedy -n 20 "${S[@]}" --set beads.supply=40 --format json
run ladder-j2 ladder standard --bots random,greedy -n 40 --seed 7 -j2 --format json
run ladder-bad-max ladder standard --bots random,greedy -n 40 --max-games 20 --seed 1

# -------------------------------------------------------------- shards
sharded shard-sim-standard 3 simulate standard -b greedy,random,random -p 3 --rotate -n 151 "${S[@]}"
sharded shard-sim-btt-json 2 simulate btt -b greedy -n 100 "${S[@]}" --format json
sharded shard-sim-sprout-csv 2 simulate sprout-r-out -b random -n 100 "${S[@]}" --format csv
sharded shard-sim-rgr-skill 2 simulate roots-growy-roots -b greedy,greedy-v1 --skill -n 40 "${S[@]}"
sharded shard-sim-outcomes 3 simulate roots-growy-roots -b random -n 120 "${S[@]}" --measures outcomes --format json
sharded shard-cmp-standard 2 compare standard variants/fewer-beads.toml -b greedy -n 100 "${S[@]}"
sharded shard-cmp-btt-json 3 compare btt btt-martian-go -b random -n 90 "${S[@]}" --format json
sharded shard-cmp-rgr 2 compare roots-growy-roots rgr-all-claimed -b random -n 60 "${S[@]}" --format csv
sharded shard-sweep-grid 4 sweep standard --set beads.store=4..8:2 --set turn.one_nutrient_per_turn --measure ties -b random -n 90 "${S[@]}"
sharded shard-sweep-sprout 2 sweep sprout-r-out --set rules.tie -b random -n 60 "${S[@]}" --format json
sharded shard-sweep-invalid 2 sweep standard --set beads.supply=-10..30:20 -b random -n 60 "${S[@]}" --format csv
tune_sharded shard-tune-standard 3 tune standard -b random --vary beads.supply=20..80:2 --target rounds=25 --budget 3000 -n 270 --seed 3 -j1 --write files/best.toml
tune_sharded shard-tune-btt 2 tune btt -b random --vary pyramids.small=2..8 --target first-player-advantage=0 --budget 1500 -n 150 "${S[@]}" --format json --write files/best.toml
# A merge refused: a missing part, and parts of two runs.
run shard-mix-a simulate standard -b random -n 40 --seed 1 -j1 --shard 1/2
run shard-mix-b simulate standard -b random -n 40 --seed 2 -j1 --shard 2/2
cp "$out/shard-mix-a.out" "$work/a.json"
cp "$out/shard-mix-b.out" "$work/b.json"
run merge-mixed merge "$work/a.json" "$work/b.json"
run merge-missing merge "$work/a.json"
run merge-not-a-part merge variants/standard.toml

cd /
rm -rf "$work"
echo "$cases runs written to $out" >&2
for m in "${mismatch[@]}"; do
    echo "MERGE DIFFERS from the whole run: $m" >&2
done
if [ -n "$before" ]; then
    if diff -r "$before" "$out" >/dev/null; then
        echo "identical to $before: $(ls "$before" | wc -l) files" >&2
    else
        diff -r "$before" "$out" | head -50 >&2
        echo "DIFFERENT from $before" >&2
        exit 1
    fi
fi
[ ${#mismatch[@]} -eq 0 ]

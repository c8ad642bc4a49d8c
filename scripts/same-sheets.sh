#!/usr/bin/env bash
# What the games write about themselves, for all four games, into a
# directory: run it on two builds and `diff -r` the directories to show a
# change of the games' shared code (issue #47, item 3: the rules sheets,
# key meanings, variant-file keys, pictures and narration written once)
# changed no output. The companion of scripts/same-reports.sh, which
# covers the runs.
#
# For every built-in variant: `explain` (Markdown and JSON), `show`,
# `validate` (plain and JSON) and `diff` against its game's standard
# variant (text and JSON); every game's `schema`, `games`, `new`; every
# file under tests/variants/ through `validate` (errors and warnings, plain
# and JSON); and for each game a recorded game of seeded bots, replayed
# (`replay --list`) and drawn as a page (`view`: every position's SVG and
# narration).
#
# For each case NAME the directory holds NAME.out, NAME.err and NAME.code
# (and NAME.file-* for files written). Normalised: a record's `created`
# time, and the time a page says the game was played.
#
# Usage: scripts/same-sheets.sh OUTDIR [BEFORE]
#   ROOTS=path/to/roots (default target/release/roots).
#   With BEFORE, it ends with `diff -r BEFORE OUTDIR` and exits 1 when
#   they differ.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
out=${1:?usage: scripts/same-sheets.sh OUTDIR [BEFORE]}
before=${2:-}
roots=${ROOTS:-target/release/roots}
roots=$(cd "$(dirname "$roots")" && pwd)/$(basename "$roots")
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/*
work=/tmp/roots-same-sheets-work
rm -rf "$work"
mkdir -p "$work"
ln -s "$repo/variants" "$work/variants"
ln -s "$repo/tests" "$work/tests"
cd "$work"
export NO_COLOR=1
unset CLICOLOR_FORCE
cases=0

run() {
    local name=$1
    shift
    cases=$((cases + 1))
    mkdir -p files
    (cd files && "$roots" "$@") >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.code"
    for f in files/*; do
        [ -e "$f" ] || continue
        local dest="$out/$name.file-$(basename "$f")"
        if grep -qE '"created"|played [0-9]{4}-' "$f" 2>/dev/null; then
            sed -E 's/"created":"[^"]*"/"created":"(time)"/; s/played [0-9]{4}-[0-9-]+T[0-9:]+Z/played (time)/' "$f" >"$dest"
        else
            cp "$f" "$dest"
        fi
    done
    rm -rf files
}

standard_of() { # variant name -> its game's standard variant
    case "$1" in
        btt* | branches*) echo btt ;;
        sprout*) echo sprout-r-out ;;
        rgr* | roots-growy-roots) echo roots-growy-roots ;;
        *) echo standard ;;
    esac
}

run games games
for g in roots-and-shoots branches sprout-r-out roots-growy-roots; do
    run "schema-$g" schema --game "$g"
done
for f in "$repo"/variants/*.toml; do
    v=$(basename "$f" .toml)
    p="$work/variants/$v.toml"
    run "explain-$v" explain "$p"
    run "explain-json-$v" explain "$p" --format json
    run "show-$v" show "$p"
    run "validate-$v" validate "$p" --format plain
    run "validate-json-$v" validate "$p" --format json
    s=$(standard_of "$v")
    run "diff-$v" diff "$s" "$p"
    run "diff-json-$v" diff "$s" "$p" --format json
    run "diff-back-$v" diff "$p" "$s"
done
# Files that fail or warn: every message of the key readers.
while read -r f; do
    n=$(echo "${f#"$repo"/tests/}" | tr '/' '~')
    run "validate-$n" validate "$f" --format plain
    run "validate-json-$n" validate "$f" --format json
    run "explain-$n" explain "$f"
done < <(find "$repo/tests/variants" "$repo/tests/fuzz/variant_loader" -name '*.toml' | sort)
for v in standard btt sprout-r-out roots-growy-roots; do
    run "new-$v" new mine --extends "$v"
done
# A recorded game of each, replayed and drawn.
for v in standard btt sprout-r-out roots-growy-roots rgr-artifacts btt-martian-go; do
    rec=$work/$v.jsonl
    "$roots" simulate "$v" -b greedy,random -n 4 --seed 11 -j1 -q --record-game 2 --record "$rec" >/dev/null 2>&1
    run "replay-$v" replay "$rec" --list
    run "replay-svg-$v" replay "$rec" --svg -
    run "view-$v" view "$rec" -o page.html
done

cd /
rm -rf "$work"
echo "$cases runs written to $out" >&2
if [ -n "$before" ]; then
    if diff -r "$before" "$out" >/dev/null; then
        echo "identical to $before: $(ls "$before" | wc -l) files" >&2
    else
        diff -r "$before" "$out" | head -50 >&2
        echo "DIFFERENT from $before" >&2
        exit 1
    fi
fi

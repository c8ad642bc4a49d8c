#!/usr/bin/env bash
# Instructions per random game, the four games, against a recorded baseline.
#
# For each game's base variant, callgrind counts the instructions of
# `roots simulate VARIANT -b random -n N -j1 --seed 1 -q --measures outcomes`
# and of the same run with one game; the difference over N - 1 is the cost
# of one random game with the set-up of a run taken off. Instruction counts
# do not depend on the machine's load, so the check is fair on a busy
# machine. The script fails (exit 1) when any game costs more than 3% over
# its line in the baseline file (scripts/instructions-baseline.txt).
#
# Run it before merging a change that touches the engine, a game or the
# simulator (src/engine, src/games, src/sim, src/bots' random player):
#
#   cargo build --release && scripts/instructions.sh
#
# Usage: scripts/instructions.sh            check against the baseline
#        scripts/instructions.sh --record   write the baseline from this build
#        ROOTS=path/to/roots scripts/instructions.sh --print   print only
# Environment: ROOTS (the binary; default target/release/roots, or
# $CARGO_TARGET_DIR/release/roots when that is set), BASELINE (the file),
# LIMIT (allowed growth in percent, default 3), ONLY (variants to measure).
# A binary from before `--measures` (2782d97) is run without the flag: it
# measured nothing per decision anyway. Needs valgrind and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${ROOTS:-}" ]; then
    roots=$ROOTS
elif [ -n "${CARGO_TARGET_DIR:-}" ]; then
    roots=$CARGO_TARGET_DIR/release/roots
else
    roots=target/release/roots
fi
baseline=${BASELINE:-scripts/instructions-baseline.txt}
limit=${LIMIT:-3}
mode=${1:-check}
case "$mode" in
    check | --check) mode=check ;;
    --record) mode=record ;;
    --print) mode=print ;;
    *)
        echo "usage: $0 [--record | --print]" >&2
        exit 2
        ;;
esac
[ -x "$roots" ] || {
    echo "no binary at $roots: build it (cargo build --release) or set ROOTS" >&2
    exit 2
}
command -v valgrind > /dev/null || {
    echo "valgrind is not installed" >&2
    exit 2
}
extra=()
help=$("$roots" simulate --help 2> /dev/null || true)
if [[ $help == *--measures* ]]; then
    extra=(--measures outcomes)
fi
# variant, games of the long run (about 100 to 300 million instructions)
games="
standard          1000
btt               2000
sprout-r-out      1000
roots-growy-roots 1000
"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
count() { # variant games -> instructions of the whole run
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$roots" simulate "$1" -b random -n "$2" -j1 --seed 1 -q "${extra[@]}" \
        > /dev/null 2> "$dir/err" || {
        cat "$dir/err" >&2
        exit 2
    }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$dir/err"
}
echo "$games" | while read -r v n; do
    [ -n "$v" ] || continue
    case " ${ONLY:-$v} " in *" $v "*) ;; *) continue ;; esac
    one=$(count "$v" 1)
    many=$(count "$v" "$n")
    echo "$v $(((many - one) / (n - 1)))"
done > "$dir/now"
case "$mode" in
    print)
        cat "$dir/now"
        ;;
    record)
        {
            echo "# instructions per random game at --measures outcomes (scripts/instructions.sh)"
            echo "# recorded $(date -u +%Y-%m-%d) from $("$roots" --version 2> /dev/null || echo "$roots"), commit $(git rev-parse --short HEAD 2> /dev/null || echo '?')"
            cat "$dir/now"
        } > "$baseline"
        cat "$baseline"
        ;;
    check)
        [ -f "$baseline" ] || {
            echo "no baseline at $baseline: record one with --record" >&2
            exit 2
        }
        python3 - "$baseline" "$dir/now" "$limit" << 'PY'
import sys
def read(path):
    out = {}
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if len(line) == 2:
            out[line[0]] = int(line[1])
    return out
base, now, limit = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
bad = 0
print("| variant | baseline | now | change |")
print("|---|---|---|---|")
for v, n in now.items():
    if v not in base:
        print(f"| `{v}` | (none) | {n:,} | not in the baseline |")
        bad += 1
        continue
    change = 100.0 * (n - base[v]) / base[v]
    over = change > limit
    bad += over
    print(f"| `{v}` | {base[v]:,} | {n:,} | {change:+.2f}%{' OVER' if over else ''} |")
if bad:
    print(f"{bad} game(s) cost more than {limit}% over the baseline (or have none)", file=sys.stderr)
    sys.exit(1)
PY
        ;;
esac

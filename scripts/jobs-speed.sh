#!/usr/bin/env bash
# How much a second worker thread gives: for each game's default bot (no
# --bots: `roots games` names it), `roots simulate VARIANT -n N --seed S -q`
# with --jobs 1 and then --jobs 2, back to back (a pair), RUNS pairs; prints
# per game the wall-clock seconds of each run, the median of the pairs'
# ratios (jobs 1 time over jobs 2 time), the peak resident memory of each
# setting (median, KiB) and the load average before the first run and after
# the last; then a second table of the CPU time (user + system) of each
# run and the median of the pairs' CPU ratios (jobs 2 CPU over jobs 1 CPU:
# the extra work the second thread costs, which a busy machine spoils far
# less than the wall-clock). With CPU_LIMIT=5 the script fails when a
# game's median CPU ratio is more than 5% over 1. The games are the same with any --jobs (the script checks that
# the two reports agree), so the ratio is the speed-up alone. Wall-clock
# times depend on what else the machine runs: read them with the load.
# The order of a pair is swapped every other pair (1 then 2, 2 then 1), so
# a drift of the machine's speed does not favour one setting.
# Each round also plays the same games as two one-thread processes at
# once (`--shard 1/2` and `--shard 2/2`), the control: their CPU against
# --jobs 1's is what two busy cores cost this machine with nothing shared,
# so --jobs 2 about level with the control and above --jobs 1 is the
# machine (a shared cache, the host), not the threads.
# With INSTRUCTIONS=1, a third table: callgrind's count of the
# instructions of every thread of one run with --jobs 1 and one with
# --jobs 2 (a tenth of the games): the work done, which neither the load
# nor the machine's speed changes. Threads that do extra work (a lock
# spun on, shared state rebuilt) show there; contention for a cache line
# or a core shows only in the CPU time.
#
# Usage: scripts/jobs-speed.sh [RUNS]   (default 5)
#        ONLY="sprout-r-out" scripts/jobs-speed.sh   only those variants.
#        CPU_LIMIT=5 scripts/jobs-speed.sh   fail past 5% more CPU with --jobs 2.
#        INSTRUCTIONS=1 scripts/jobs-speed.sh   add the instructions table.
# Needs a release build (cargo build --release, or ROOTS=path/to/roots),
# python3 and /usr/bin/time (and valgrind for INSTRUCTIONS=1).
set -euo pipefail
cd "$(dirname "$0")/.."
roots=${ROOTS:-target/release/roots}
runs=${1:-5}
# variant, games per run (about 3 to 5 seconds of one core each)
games="
standard          3000
btt               300
sprout-r-out      300
roots-growy-roots 2000
"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "$games" | while read -r v n; do
    [ -n "$v" ] || continue
    case " ${ONLY:-$v} " in *" $v "*) ;; *) continue ;; esac
    before=$(cut -d' ' -f1 /proc/loadavg)
    for r in $(seq "$runs"); do
        order="1 2 p"
        [ $((r % 2)) -eq 1 ] || order="p 2 1"
        for j in $order; do
            if [ "$j" = p ]; then
                # The control: the same games as two one-thread processes
                # at once (--shard 1/2 and 2/2), each on its own core.
                for k in 1 2; do
                    /usr/bin/time -f "%U %S" -o "$dir/p$k" "$roots" simulate "$v" -n "$n" --seed 1 \
                        -j 1 -q --shard "$k/2" > /dev/null &
                done
                wait
                echo "$v $n $r $(cat "$dir/p1" "$dir/p2" | awk '{ s += $1 + $2 } END { print s }')" >> "$dir/control"
                continue
            fi
            /usr/bin/time -f "%e %M %U %S" -o "$dir/t" "$roots" simulate "$v" -n "$n" --seed 1 \
                -j "$j" -q --format json > "$dir/$v.$j.json"
            echo "$v $n $r $j $(cat "$dir/t")" >> "$dir/index"
        done
        if ! cmp -s "$dir/$v.1.json" "$dir/$v.2.json"; then
            echo "$v: the report with --jobs 2 differs from --jobs 1" >&2
            exit 1
        fi
    done
    echo "$v load $before $(cut -d' ' -f1 /proc/loadavg)" >> "$dir/loads"
    if [ -n "${INSTRUCTIONS:-}" ]; then
        m=$(((n + 9) / 10))
        for j in 1 2; do
            valgrind --tool=callgrind --callgrind-out-file=/dev/null "$roots" simulate "$v" \
                -n "$m" --seed 1 -j "$j" -q > /dev/null 2> "$dir/cg"
            echo "$v $m $j $(grep -o 'Collected : [0-9]*' "$dir/cg" | awk '{print $3}')" >> "$dir/instructions"
        done
    fi
    echo "$v: $runs pairs done" >&2
done
touch "$dir/instructions"
python3 - "$dir/index" "$dir/loads" "${CPU_LIMIT:-}" "$dir/instructions" "$dir/control" <<'PY'
import statistics, sys
from collections import OrderedDict

limit = float(sys.argv[3]) if sys.argv[3] else None

runs = OrderedDict()
for line in open(sys.argv[1]):
    v, n, r, j, wall, rss, user, system = line.split()
    runs.setdefault((v, n), {}).setdefault(int(r), {})[int(j)] = (
        float(wall), int(rss), float(user) + float(system))
loads = {}
for line in open(sys.argv[2]):
    v, _, a, b = line.split()
    loads[v] = f"{a} / {b}"
print("| variant (default bot) | games | --jobs 1 s | --jobs 2 s | median ratio (min-max) | peak RSS KiB j1 / j2 | load before / after |")
print("|---|---|---|---|---|---|---|")
for (v, n), pairs in runs.items():
    ratios = [p[1][0] / p[2][0] for p in pairs.values()]
    one = ", ".join(f"{p[1][0]:.2f}" for p in pairs.values())
    two = ", ".join(f"{p[2][0]:.2f}" for p in pairs.values())
    rss1 = statistics.median(p[1][1] for p in pairs.values())
    rss2 = statistics.median(p[2][1] for p in pairs.values())
    print(f"| `{v}` | {n} | {one} | {two} | {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}) | {rss1:,.0f} / {rss2:,.0f} | {loads[v]} |")
print()
control = {}
for line in open(sys.argv[5]):
    v, n, r, c = line.split()
    control.setdefault((v, n), {})[int(r)] = float(c)
print("| variant (default bot) | games | --jobs 1 CPU s | --jobs 2 CPU s | two processes CPU s | median CPU ratio j2 / j1 (min-max) | two processes / j1 | j2 / two processes |")
print("|---|---|---|---|---|---|---|---|")
over = []
for (v, n), pairs in runs.items():
    cpu = [p[2][2] / p[1][2] for p in pairs.values() if p[1][2] > 0]
    one = ", ".join(f"{p[1][2]:.2f}" for p in pairs.values())
    two = ", ".join(f"{p[2][2]:.2f}" for p in pairs.values())
    c = control[(v, n)]
    procs = ", ".join(f"{c[r]:.2f}" for r in pairs)
    vs_one = statistics.median(c[r] / p[1][2] for r, p in pairs.items())
    vs_two = statistics.median(p[2][2] / c[r] for r, p in pairs.items())
    mid = statistics.median(cpu) if cpu else float("nan")
    print(f"| `{v}` | {n} | {one} | {two} | {procs} | {mid:.3f} ({min(cpu):.3f}-{max(cpu):.3f}) | {vs_one:.3f} | {vs_two:.3f} |")
    if limit is not None and not mid <= 1 + limit / 100:
        over.append(v)
counts = OrderedDict()
for line in open(sys.argv[4]):
    v, m, j, c = line.split()
    counts.setdefault((v, m), {})[int(j)] = int(c)
if counts:
    print()
    print("| variant (default bot) | games | instructions --jobs 1 | instructions --jobs 2 | ratio j2 / j1 |")
    print("|---|---|---|---|---|")
    for (v, m), c in counts.items():
        print(f"| `{v}` | {m} | {c[1]:,} | {c[2]:,} | {c[2] / c[1]:.4f} |")
if over:
    print(f"--jobs 2 spends more than {limit}% more CPU than --jobs 1 in: {', '.join(over)}", file=sys.stderr)
    sys.exit(1)
PY

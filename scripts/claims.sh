#!/usr/bin/env bash
# Replicate the README's statistical claims over several seeds and say how
# often each held (docs/statistics.md; issues #29, #49). Each claim is one
# roots command run at seeds FIRST..FIRST+SEEDS-1; a claim holds at a seed
# when the verdict the README states comes out at that seed. The last line
# of each claim says "held" (at every seed) or "NOT held"; the exit status
# is 1 when any claim was not held.
#
# The README's figures were tuned and first measured on seeds 1 to 20;
# FIRST defaults to 1001, seeds no tuning used (issue #49).
#
# Usage: scripts/claims.sh [SEEDS] [CLAIM...]     (default 5 seeds, the cheap claims)
#   FIRST=1 scripts/claims.sh 5 greedy-fpa        the seeds the README first used
#   claims: greedy-fpa random-fpa nutrients-equal pre-rolled-changes
#           edge-double-margin skill-one-nutrient
#   BOTS=greedy scripts/claims.sh 5 greedy-fpa    other bots for the greedy claims
#   ROOTS=target/release/roots (default) or another build.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-5}
first=${FIRST:-1001}
shift || true
claims=${*:-greedy-fpa random-fpa nutrients-equal pre-rolled-changes edge-double-margin}
roots=${ROOTS:-target/release/roots}
bots=${BOTS:-greedy}
count() { # CLAIM DESCRIPTION COMMAND-PRODUCING-yes/no...
    local name=$1 what=$2; shift 2
    local held=0
    for s in $(seq "$first" $((first + seeds - 1))); do
        r=$("$@" "$s")
        echo "  $name seed $s: $r" >&2
        [ "$r" = yes ] && held=$((held + 1))
    done
    local verdict="held"
    if [ "$held" -lt "$seeds" ]; then verdict="NOT held"; failed=1; fi
    echo "$name: $what: $verdict (at $held of $seeds seeds, $first to $((first + seeds - 1)))"
}
failed=0
# The first-player advantage under competent play: seat 1 favoured.
greedy_fpa() {
    "$roots" simulate standard --bots "$bots" -n 4000 --seed "$1" -q --format json |
        python3 -c 'import json,sys; b=json.load(sys.stdin)["seat_balance"]; print("yes" if b["verdict"]=="different" and b.get("favoured")==1 else "no")'
}
# Under random play, 100,000 games: the first player's edge is inside the
# 2-point margin ("none: ... the same within ±2.0pt").
random_fpa() {
    "$roots" simulate standard --bots random -n 100000 --seed "$1" -q --format json |
        python3 -c 'import json,sys; b=json.load(sys.stdin)["seat_balance"]; print("yes" if b["verdict"]=="same" else "no")'
}
# more-beads: no statistic called different from standard (greedy).
nutrients_equal() {
    "$roots" compare standard more-beads --bots "$bots" -n 1000 --seed "$1" -q --format json |
        python3 -c 'import json,sys; d=json.load(sys.stdin)["differences"]; print("no" if any(x["verdict"]=="different" for x in d) else "yes")'
}
# one-nutrient-per-turn lowers mcts:100's score against greedy (skill).
skill_one_nutrient() {
    "$roots" compare standard one-nutrient-per-turn --seed "$1" -q --skill greedy,mcts:100 --skill-games 400 --format json |
        python3 -c 'import json,sys; s=json.load(sys.stdin)["skill"]; print("yes" if s["best_v_next"]["verdict"]=="different" else "no")'
}
# pre-rolled-values under greedy, 1000 games: more rains and severings,
# fewer points lost to splits, each called "different"; more struggles
# (the interval of the difference above zero; the verdict may say only
# "not decided": the rise is near the margin).
pre_rolled_changes() {
    "$roots" compare standard pre-rolled-values --bots "$bots" -n 1000 --seed "$1" -q --format json |
        python3 -c '
import json, sys
d = {x["key"]: x for x in json.load(sys.stdin)["differences"]}
up = all(d[k]["verdict"] == "different" and d[k]["b"] > d[k]["a"] for k in ("rains", "severings"))
down = d["points_lost"]["verdict"] == "different" and d["points_lost"]["b"] < d["points_lost"]["a"]
print("yes" if up and down and d["struggles"]["low"] > 0 else "no")'
}
# edge-double (a scripted house rule), 1000 games: a larger winning margin
# ("different") and more lead changes (the interval above zero).
edge_double_margin() {
    "$roots" compare standard variants/edge-double.toml --bots "$bots" -n 1000 --seed "$1" -q --format json |
        python3 -c '
import json, sys
d = {x["key"]: x for x in json.load(sys.stdin)["differences"]}
m = d["margin"]
print("yes" if m["verdict"] == "different" and m["b"] > m["a"] and d["lead_changes"]["low"] > 0 else "no")'
}
for c in $claims; do
    case $c in
        greedy-fpa) count greedy-fpa "seat 1 favoured with $bots bots, 4000 games" greedy_fpa ;;
        random-fpa) count random-fpa "random bots: every seat within ±2pt of a fair share, 100000 games" random_fpa ;;
        nutrients-equal) count nutrients-equal "more-beads: nothing different from standard ($bots, 1000 games)" nutrients_equal ;;
        pre-rolled-changes) count pre-rolled-changes "pre-rolled-values: more rains and severings, fewer points lost (different), more struggles ($bots, 1000 games)" pre_rolled_changes ;;
        edge-double-margin) count edge-double-margin "edge-double: larger winning margin (different), more lead changes ($bots, 1000 games)" edge_double_margin ;;
        skill-one-nutrient) count skill-one-nutrient "one-nutrient-per-turn changes mcts:100's score against greedy (400 games)" skill_one_nutrient ;;
        *) echo "unknown claim $c" >&2; exit 2 ;;
    esac
done
exit $failed

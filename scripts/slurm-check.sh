#!/bin/bash
# Run scripts/slurm-array.sh for real on the Slurm of this machine (see
# scripts/slurm-single-node.sh): a 4-way job array, a dependent merge job,
# task 2 requeued mid-run (`scontrol requeue`, as a preemption does), and
# a check that it resumed from its checkpoint and that the merged report is
# byte for byte the report of one run with the same seed. Prints what it
# did; exit 0 when they match.
#
#   scripts/slurm-check.sh [path/to/roots]
set -euo pipefail
roots=$(realpath "${1:-target/release/roots}")
args=${ROOTS_ARGS:-simulate standard -n 20000 --seed 7 --players 3}
work=$(mktemp -d /tmp/roots-slurm.XXXXXX)
cd "$work"
start=$(date +%s)
echo "\$ ROOTS_ARGS=\"$args\" sbatch --array=1-4 slurm-array.sh"
array=$(ROOTS_BIN="$roots" ROOTS_ARGS="$args" ROOTS_PARTS="$work/parts" \
    sbatch --parsable --array=1-4 --chdir="$work" "$OLDPWD/scripts/slurm-array.sh")
echo "array job $array"
# Preempt task 2 mid-run: once its checkpoint holds some games, requeue it
# (Slurm ends it with SIGTERM and runs it again; scripts/slurm-array.sh has
# --requeue), and check below that it resumed and the merge is unchanged.
for _ in $(seq 1 600); do
    [ -s parts/part-2.ckpt ] && break
    sleep 0.2
done
if [ ! -s parts/part-2.ckpt ]; then
    echo "task 2 wrote no checkpoint" >&2
    exit 1
fi
echo "\$ scontrol requeue ${array}_2   (mid-run: its checkpoint holds games)"
scontrol requeue "${array}_2"
# A requeued job waits about three minutes before it may start again
# (seen on Slurm 22.05): let it start at once.
for _ in $(seq 1 20); do
    scontrol update JobId="${array}_2" StartTime=now 2>/dev/null && break
    sleep 0.5
done
merge=$(sbatch --parsable --dependency="afterok:$array" --chdir="$work" --output=merge.log \
    --wrap "\"$roots\" merge parts/part-*.json > merged.txt")
echo "merge job $merge (after the array)"
# Wait for the merge job to leave the queue.
for _ in $(seq 1 280); do
    squeue -h -j "$array,$merge" 2>/dev/null | grep -q . || break
    sleep 1
done
sacct_state=$(scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z]*' || true)
echo "merge job: ${sacct_state:-finished}"
ls parts
if ! grep -q "resuming from" roots-shard-2.log; then
    echo "task 2 did not resume from its checkpoint:" >&2
    cat roots-shard-2.log >&2
    exit 1
fi
grep -h "^task 2\|resuming from" roots-shard-2.log
# shellcheck disable=SC2086
"$roots" $args >single.txt
if cmp -s merged.txt single.txt; then
    echo "merged report = single run's report ($(wc -c <merged.txt) bytes), in $(($(date +%s) - start)) s"
    head -12 merged.txt
else
    echo "the merged report differs from one run's:" >&2
    cat merge.log >&2 || true
    diff merged.txt single.txt >&2 || true
    exit 1
fi

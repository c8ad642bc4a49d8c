#!/bin/bash
#SBATCH --job-name=roots-shard
#SBATCH --array=1-4
#SBATCH --cpus-per-task=1
#SBATCH --output=roots-shard-%a.log
#SBATCH --open-mode=append
#SBATCH --requeue
# One task of a Slurm job array: shard K of N of a `roots` run, its partial
# result written to $ROOTS_PARTS/part-K.json. The array's size is N:
# change --array=1-N to split the run another way (K runs from 1).
# Preemptible: a simulate, compare, sweep or tune shard keeps a checkpoint
# ($ROOTS_PARTS/part-K.ckpt), so when Slurm preempts or requeues the task
# (SIGTERM, then SIGKILL), its next run resumes from there; --requeue lets
# Slurm run it again, --open-mode=append keeps both runs in the log.
#
#   ROOTS_ARGS="simulate standard -n 1000000 --seed 7" sbatch scripts/slurm-array.sh
#   sbatch --dependency=afterok:JOBID --wrap 'roots merge parts/part-*.json > report.txt'
set -euo pipefail
k=${SLURM_ARRAY_TASK_ID:?run this with sbatch --array}
n=${SLURM_ARRAY_TASK_COUNT:?run this with sbatch --array}
parts=${ROOTS_PARTS:-parts}
roots=${ROOTS_BIN:-roots}
args=${ROOTS_ARGS:-simulate standard -n 100000 --seed 1}
mkdir -p "$parts"
checkpoint=()
case "$args" in
simulate* | compare* | sweep* | tune*) checkpoint=(--checkpoint "$parts/part-$k.ckpt") ;;
esac
echo "task $k of $n, run ${SLURM_RESTART_COUNT:-0} (restarts), on $(hostname -s)" >&2
# shellcheck disable=SC2086 # ROOTS_ARGS is a command line, split on purpose
"$roots" $args --jobs "${SLURM_CPUS_PER_TASK:-1}" --shard "$k/$n" "${checkpoint[@]}" \
    >"$parts/part-$k.json.tmp"
# Renamed when whole, so a merge never reads half a part.
mv "$parts/part-$k.json.tmp" "$parts/part-$k.json"

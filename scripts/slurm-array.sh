#!/bin/bash
#SBATCH --job-name=roots-shard
#SBATCH --array=1-4
#SBATCH --cpus-per-task=1
#SBATCH --output=roots-shard-%a.log
# One task of a Slurm job array: shard K of N of a `roots` run, its partial
# result written to $ROOTS_PARTS/part-K.json. The array's size is N:
# change --array=1-N to split the run another way (K runs from 1).
#
#   ROOTS_ARGS="simulate standard -n 1000000 --seed 7" sbatch scripts/slurm-array.sh
#   sbatch --dependency=afterok:JOBID --wrap 'roots merge parts/part-*.json > report.txt'
set -euo pipefail
k=${SLURM_ARRAY_TASK_ID:?run this with sbatch --array}
n=${SLURM_ARRAY_TASK_COUNT:?run this with sbatch --array}
parts=${ROOTS_PARTS:-parts}
roots=${ROOTS_BIN:-roots}
mkdir -p "$parts"
# shellcheck disable=SC2086 # ROOTS_ARGS is a command line, split on purpose
"$roots" ${ROOTS_ARGS:-simulate standard -n 100000 --seed 1} \
    --jobs "${SLURM_CPUS_PER_TASK:-1}" --shard "$k/$n" >"$parts/part-$k.json.tmp"
# Renamed when whole, so a merge never reads half a part.
mv "$parts/part-$k.json.tmp" "$parts/part-$k.json"

#!/bin/bash
# One shard of a spatialcad run per array task. Submit with submit.sh (which chains
# merge.sh after it), or alone:  sbatch --array=0-15 examples/slurm/gen.sh
#SBATCH --job-name=spatialcad-gen
#SBATCH --array=0-15
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=spatialcad-gen-%A_%a.log
#
# Settings come from the environment (sbatch passes it on):
#   TASKS (all), LEVEL (2), N (40 per task), SEED (0), SPLIT (none: train|val|test),
#   WORK (where shards go: $PWD/output/L$LEVEL-shards), SPATIALCAD (the command to run,
#   default `spatialcad`; e.g. "python -m spatialcad.cli" from a source checkout).
# The job runs in the environment it was submitted from: activate the conda env
# (conda activate spatialcad) before sbatch, or add that line here. No network is used.
set -euo pipefail
: "${TASKS:=all}" "${LEVEL:=2}" "${N:=40}" "${SEED:=0}" "${SPLIT:=}"
: "${WORK:=$PWD/output/L$LEVEL-shards}" "${SPATIALCAD:=spatialcad}"
shards=${SLURM_ARRAY_TASK_COUNT:?submit as a job array (sbatch --array=0-K)}
k=${SLURM_ARRAY_TASK_ID}
# --resume: a shard that was preempted or re-queued goes on where it stopped.
$SPATIALCAD generate --task "$TASKS" --level "$LEVEL" --n "$N" --seed "$SEED" \
  ${SPLIT:+--split "$SPLIT"} --shard "$k/$shards" --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --out "$WORK/$k" --resume

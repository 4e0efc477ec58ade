#!/bin/bash
# Join the shards of gen.sh into one benchmark and verify it; runs after every array
# task succeeded (submit.sh chains it with --dependency=afterok:<array job>).
#SBATCH --job-name=spatialcad-merge
#SBATCH --cpus-per-task=2
#SBATCH --time=00:30:00
#SBATCH --output=spatialcad-merge-%j.log
#
# Settings: LEVEL (2), WORK (as in gen.sh), OUT ($PWD/output/bench-L$LEVEL), SPATIALCAD.
set -euo pipefail
: "${LEVEL:=2}" "${WORK:=$PWD/output/L$LEVEL-shards}" "${OUT:=$PWD/output/bench-L$LEVEL}"
: "${SPATIALCAD:=spatialcad}"
$SPATIALCAD merge "$WORK"/* --out "$OUT"
$SPATIALCAD verify "$OUT" --jobs "${SLURM_CPUS_PER_TASK:-1}"
rm -rf "$WORK"

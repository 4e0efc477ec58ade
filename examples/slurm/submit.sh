#!/bin/bash
# Submit gen.sh as a job array of SHARDS tasks and merge.sh to run once all succeeded.
#   LEVEL=2 N=40 SHARDS=16 examples/slurm/submit.sh [extra sbatch options...]
# Prints the two job ids. Settings as in gen.sh / merge.sh (exported to both jobs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SHARDS:=16}"
export TASKS LEVEL N SEED SPLIT WORK OUT SPATIALCAD
gen=$(sbatch --parsable --array="0-$((SHARDS - 1))" "$@" "$here/gen.sh")
gen=${gen%%;*}
merge=$(sbatch --parsable --dependency="afterok:$gen" --kill-on-invalid-dep=yes "$@" \
  "$here/merge.sh")
echo "generate: job array $gen ($SHARDS shards); merge + verify: job ${merge%%;*}"

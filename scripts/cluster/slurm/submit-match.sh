#!/usr/bin/env bash
# Submits a sharded `panoply match` to Slurm: an array job of SHARDS tasks (one shard, one
# core each, a log per task) and a merge job that runs `panoply results` once every task has
# succeeded. Prints the two job ids. See docs/cluster.md.
#
#   PANOPLY=$PWD/target/release/panoply scripts/cluster/slurm/submit-match.sh 64 runs/sprt1 \
#       engines/new.engine engines/base.engine --nodes 20000 --games 20000 \
#       --openings book/suites/cwda.epd --sprt elo0=0 elo1=5
set -euo pipefail
shards=${1:?usage: submit-match.sh SHARDS OUT_DIR MATCH_ARGS...}
out_dir=${2:?usage: submit-match.sh SHARDS OUT_DIR MATCH_ARGS...}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
# The tasks inherit this environment (PANOPLY) at submission (sbatch's default --export=ALL).
array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$out_dir/shard-%a.log" \
    "$here/match.sbatch" "$out_dir" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --output="$out_dir/merge.log" \
    "$here/merge.sbatch" "$out_dir")
echo "array job $array ($shards shards), merge job ${merge%%;*}; report: $out_dir/results.txt"

#!/usr/bin/env bash
# A sharded `panoply match` over SSH hosts with GNU parallel, then the merged report. Each
# shard runs on one core of some host; --sshlogin ':' is the local machine. See
# docs/cluster.md.
#
#   SSHLOGINS='8/node1,8/node2,:' scripts/cluster/parallel-match.sh 32 runs/x \
#       engines/a.engine engines/b.engine --nodes 20000 --games 4000
#
# Every host must have this repository (binary, engine files, suites) at the same path as
# here, e.g. on a shared file system or after an rsync; the shards' PGN files come back with
# --return. $PANOPLY is the binary (default: target/release/panoply of this checkout).
set -euo pipefail
shards=${1:?usage: parallel-match.sh SHARDS OUT_DIR MATCH_ARGS...}
out_dir=${2:?usage: parallel-match.sh SHARDS OUT_DIR MATCH_ARGS...}
shift 2
repo=$(cd "$(dirname "$0")/../.." && pwd)
panoply=${PANOPLY:-$repo/target/release/panoply}
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
# Each job runs in the repository (relative engine and suite paths work on every host),
# writes its shard under the output directory's name there, and the file is returned here.
rel=$(realpath --relative-to="$repo" "$out_dir")
args=$(printf '%q ' "$@")
seq 0 $((shards - 1)) | parallel --will-cite --sshlogin "${SSHLOGINS:-:}" --workdir "$repo" \
    --return "$rel/shard-{}.pgn" --halt now,fail=1 \
    "mkdir -p $rel && rm -f $rel/shard-{}.pgn && $(printf '%q' "$panoply") match $args --shard {}/$shards --pgn $rel/shard-{}.pgn --quiet > $rel/shard-{}.log"
"$panoply" results "$out_dir"/shard-*.pgn | tee "$out_dir/results.txt"

#!/usr/bin/env bash
# End-to-end: a sharded `panoply match` on a real Slurm cluster of one node, started here.
# Starts munged, slurmctld and slurmd (Debian's munge and slurm-wlm, installed with apt-get
# when missing; CI runs as root) with a small slurm.conf naming this host with 2 CPUs,
# submits a 4-shard match at fixed nodes as an array job with a dependent merge job
# (scripts/cluster/slurm/submit-match.sh), and checks that the merged report is the one the
# unsharded run prints and that the shards' games are the unsharded run's. Every daemon it
# started is stopped at exit; the whole run is bounded by TIMEOUT seconds (default 300).
#
#   tests/e2e/slurm_match.sh
#   PANOPLY_BIN=/path/to/panoply KEEP_WORK=1 tests/e2e/slurm_match.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/e2e/lib.sh
timeout=${TIMEOUT:-300}
started=$(date +%s)

install_slurm() {
    local missing=() cmd
    for cmd in munged slurmctld slurmd sbatch; do
        command -v "$cmd" >/dev/null || missing+=("$cmd")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    echo "installing munge and slurm-wlm (missing: ${missing[*]})" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends munge slurm-wlm >/dev/null
}

install_slurm
PANOPLY=$(panoply_binary)
export PANOPLY
work=$(mktemp -d)
echo "work dir: $work" >&2
pids=()
stop_daemons() {
    local pid
    # Jobs of this cluster still running (a failed or timed-out run) end first.
    if [ -n "${SLURM_CONF:-}" ] && [ ${#pids[@]} -ge 2 ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null && sleep 2 || true
    fi
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap stop_daemons EXIT

# Waits up to $2 seconds (within the overall budget) for command $1 to succeed.
wait_for() {
    local what=$1 limit=$2 t=0
    until eval "$what" >/dev/null 2>&1; do
        sleep 1
        t=$((t + 1))
        if [ $t -ge "$limit" ] || [ $(($(date +%s) - started)) -ge "$timeout" ]; then
            echo "FAIL: timed out waiting for: $what" >&2
            return 1
        fi
    done
}

# munge: a private key, socket and state, so nothing of a running munged is touched.
mkdir -p "$work/munge" && chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --force --key-file="$work/munge/munge.key" --socket="$socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/munged.seed"
wait_for "[ -s $work/munge/munged.pid ]" 10
pids+=("$(cat "$work/munge/munged.pid")")

host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=panoply-e2e
SlurmctldHost=$host
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=e2e Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -i -f "$SLURM_CONF"
wait_for "[ -s $work/slurmctld.pid ]" 20
pids+=("$(cat "$work/slurmctld.pid")")
slurmd -f "$SLURM_CONF"
wait_for "[ -s $work/slurmd.pid ]" 20
pids+=("$(cat "$work/slurmd.pid")")
wait_for "sinfo -h -N -o %T | grep -qE '^(idle|mixed|allocated)'" 60 || {
    sinfo -N -l >&2 || true
    tail -n 20 "$work/slurmctld.log" "$work/slurmd.log" >&2
    exit 1
}
echo "slurm: node $host up" >&2

# The match: full strength against level 15 at 100 nodes a move, 12 pairs from the CwDA book.
engine() {
    printf 'name = %s\ncommand = "%s"\nprotocol = uci\noption.Hash = 16\noption.Skill Level = %s\n' \
        "$1" "$PANOPLY" "$2" > "$work/$3.engine"
}
engine "Level 20" 20 strong
engine "Level 15" 15 weak
args=("$work/strong.engine" "$work/weak.engine" --variant cwda-fide-nutty --book book/cwda.book
    --nodes 100 --games 24 --sprt elo0=0 elo1=5)

out="$work/run"
ids=$(scripts/cluster/slurm/submit-match.sh 4 "$out" "${args[@]}")
echo "$ids" >&2
merge_job=$(echo "$ids" | sed -E 's/.*merge job ([0-9]+).*/\1/')
budget=$((timeout - ($(date +%s) - started)))
wait_for "[ -s $out/results.txt ] || ! squeue -h -j $merge_job | grep -q ." "$budget"
if [ ! -s "$out/results.txt" ]; then
    echo "FAIL: the merge job ended without a report" >&2
    tail -n 20 "$out"/*.log >&2 || true
    exit 1
fi

# The same match unsharded, here.
"$PANOPLY" match "${args[@]}" --pgn "$work/single.pgn" --quiet > "$work/single.out"
awk 'BEGIN { RS = "\n\n" } END { printf "%s", $0 }' "$work/single.out" > "$work/single.end"
failures=0
if ! diff "$work/single.end" "$out/results.txt"; then
    echo "FAIL: the merged report differs from the single run's" >&2
    failures=$((failures + 1))
fi
# Game for game: the same moves and results (the move times in the comments vary).
games() {
    cat "$@" | awk '
        /^\[Event / { if (g != "") print g; g = "" }
        /^\[(Date|PanoplyShard) / { next }
        { g = g " " $0 }
        END { if (g != "") print g }' \
        | sed -E 's/ ?[0-9]+\.[0-9]+s\}/}/g; s/  +/ /g' | sort
}
if [ "$(games "$work/single.pgn" | wc -l)" -ne 24 ]; then
    echo "FAIL: the single run did not write its 24 games" >&2
    failures=$((failures + 1))
fi
if ! diff <(games "$work/single.pgn") <(games "$out"/shard-*.pgn) >/dev/null; then
    echo "FAIL: the shards' games differ from the single run's" >&2
    failures=$((failures + 1))
fi
shards=$(ls "$out"/shard-*.pgn | wc -l)
tasks=$(ls "$out"/shard-*.log | wc -l)
echo "slurm: $shards shard files, $tasks task logs, $(grep -c '^\[Event ' "$work/single.pgn") games, $(($(date +%s) - started)) s" >&2
[ "$shards" -eq 4 ] && [ "$tasks" -eq 4 ] || { echo "FAIL: expected 4 shards" >&2; failures=$((failures + 1)); }
if [ $failures -gt 0 ]; then
    exit 1
fi
echo "PASS: 4 Slurm array tasks merged by a dependent job equal the single run" >&2

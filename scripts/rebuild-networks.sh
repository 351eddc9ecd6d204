#!/usr/bin/env bash
# Rebuilds shipped networks from their data and checks them against networks/MANIFEST.toml:
# first every data file's sha256, then each network's training command (into a temporary
# folder), then the weights' sha256 that `panoply train` prints. A listed data file that is not
# in the tree (data of more than a few MB stays out of git) is made again first: its producer
# commit is built in a temporary worktree and runs the entry's one-thread datagen command (about
# an hour a file), and the result must have the listed sha256. A network trained from an earlier
# one (`init`, commit:path) takes that network's bytes from git history and checks its weights.
#
#   scripts/rebuild-networks.sh                 every shipped network (cwda: ~14 min, one thread)
#   scripts/rebuild-networks.sh networks/swda.nnue
#   scripts/rebuild-networks.sh --sample        print the samples' digests as this build makes
#                                               them (to update the manifest after a change to
#                                               the search, evaluation or record format)
#
# PANOPLY (default target/release/panoply, built when missing) is the binary used. Exit 0 when
# every check passes, 1 when one differs.
set -euo pipefail
cd "$(dirname "$0")/.."
MANIFEST=networks/MANIFEST.toml
PANOPLY=${PANOPLY:-target/release/panoply}
[ -x "$PANOPLY" ] || cargo build --release --quiet
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"; git worktree prune' EXIT

# The manifest's entries as shell-readable lines, one per entry:
#   data FILE SHA256 PRODUCER NEEDED_BY,... COMMAND...
#   network FILE WEIGHTS_SHA256 INIT(commit:path or -) INIT_WEIGHTS_SHA256(or -) ARGS...
#   sample NAME KIND DIGEST ARGS...
entries() {
    python3 - "$MANIFEST" <<'PY'
import sys, tomllib, shlex
m = tomllib.load(open(sys.argv[1], "rb"))
for d in m["data"]:
    print("data", d["file"], d["sha256"], d["producer"], ",".join(d["needed_by"]), shlex.join(d["command"].split()))
for n in m["network"]:
    print("network", n["file"], n["weights_sha256"], n.get("init", "-"),
          n.get("init_weights_sha256", "-"), shlex.join(n["args"]))
for s in m["sample"]:
    kind = "bytes" if "sha256" in s else "weights"
    print("sample", s["name"], kind, s.get("sha256") or s["weights_sha256"], shlex.join(s["args"]))
PY
}

# Runs `panoply ARGS` with {out} replaced by OUT and {init} by INIT; prints the weights' sha256
# for `train`.
run_into() {
    local out=$1 init=$2; shift 2
    local args=("${@//\{out\}/$out}")
    args=("${args[@]//\{init\}/$init}")
    "$PANOPLY" "${args[@]}" 2>"$WORK/log" || { cat "$WORK/log" >&2; return 1; }
    sed -n 's/.*weights sha256 \([0-9a-f]*\).*/\1/p' "$WORK/log" | tail -1
}

# The sha256 of a network file's weights, as `panoply network` prints it.
weights_sha256() {
    "$PANOPLY" network "$1" | sed -n 's/^  weights sha256 //p'
}

# Makes data FILE again with the binary of commit PRODUCER: `panoply COMMAND...`, run in a
# worktree of that commit (the command names the suites of its own tree), writes FILE there.
remake() {
    local file=$1 producer=$2; shift 2
    local tree="$WORK/producer-$producer"
    if [ ! -d "$tree" ]; then
        git worktree add --detach --quiet "$tree" "$producer"
        (cd "$tree" && CARGO_TARGET_DIR="$WORK/target" cargo build --release --quiet)
    fi
    echo "making $file with $producer's binary: panoply $*"
    (cd "$tree" && "$WORK/target/release/panoply" "$@" --progress 600 2>"$WORK/log") \
        || { cat "$WORK/log" >&2; return 1; }
    mv "$tree/$file" "$file"
}

only=${1:-}
failed=0
check() { # WHAT EXPECTED GOT
    if [ "$2" = "$3" ]; then echo "ok    $1"; else echo "FAIL  $1: expected $2, got $3"; failed=1; fi
}

if [ "$only" = "--sample" ]; then
    while read -r kind name what digest args; do
        [ "$kind" = sample ] || continue
        eval "set -- $args"
        out="$WORK/$name.out"
        weights=$(run_into "$out" - "$@")
        [ "$what" = bytes ] && got=$(sha256sum "$out" | cut -c1-64) || got=$weights
        echo "sample $name: $what sha256 $got (manifest: $digest)"
    done < <(entries)
    exit 0
fi

while read -r kind file digest producer needed_by command; do
    [ "$kind" = data ] || continue
    if [ ! -f "$file" ]; then
        # Only the data of the networks asked for is made again.
        [ -z "$only" ] || [[ ",$needed_by," == *",$only,"* ]] || continue
        eval "set -- $command"
        start=$SECONDS
        remake "$file" "$producer" "$@" </dev/null
        echo "      made in $((SECONDS - start)) s"
    fi
    check "$file" "$digest" "$(sha256sum "$file" | cut -c1-64)"
done < <(entries)
while read -r kind file digest init init_digest args; do
    [ "$kind" = network ] || continue
    [ -z "$only" ] || [ "$file" = "$only" ] || continue
    eval "set -- $args"
    start_net=-
    if [ "$init" != - ]; then
        # The network it starts from, as its commit shipped it.
        start_net="$WORK/init-$(basename "$file")"
        git show "$init" > "$start_net"
        check "$init (the network it starts from)" "$init_digest" "$(weights_sha256 "$start_net")"
    fi
    start=$SECONDS
    got=$(run_into "$WORK/$(basename "$file")" "$start_net" "$@")
    check "$file (rebuilt in $((SECONDS - start)) s)" "$digest" "$got"
done < <(entries)
exit $failed

# Shared by the XBoard end-to-end scripts (sourced, from the repository root).

# Installs the Debian packages (xboard, fairymax, xvfb) whose programs are missing; CI runs
# as root on a bare machine.
install_missing() {
    local missing=() pkg
    for pkg in "$@"; do
        case $pkg in
            xvfb) command -v xvfb-run >/dev/null || missing+=(xvfb) ;;
            *) [ -x "/usr/games/$pkg" ] || missing+=("$pkg") ;;
        esac
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    echo "installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The engine to test: $PANOPLY_BIN (a long match should not see rebuilds of target/), else a
# fresh release build. Made absolute, since XBoard starts the engine in its own directory:
# a relative path would leave XBoard waiting for an engine that never started.
panoply_binary() {
    if [ -n "${PANOPLY_BIN:-}" ]; then
        realpath "$PANOPLY_BIN"
    else
        cargo build --release --quiet || return 1
        echo "$(pwd)/target/release/panoply"
    fi
}

# The start every XBoard script shares: installs the packages named, sets $XBOARD, the engine
# $PANOPLY, a work directory $work (removed at exit unless KEEP_WORK is set) and `failures`.
start_xboard_run() {
    install_missing "$@"
    XBOARD=/usr/games/xboard
    PANOPLY=$(panoply_binary)
    work=$(mktemp -d)
    trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
    echo "work dir: $work" >&2
    failures=0
}

# Reads the options the self-play scripts share into the caller's variables: --games N,
# --tc M:SS, --inc S, and --variant NAME when the caller has a `variant`. $1 is the usage line.
parse_self_play_args() {
    local usage=$1
    shift
    while [ $# -gt 0 ]; do
        case "$1" in
            --variant) [ -n "${variant+set}" ] || { echo "usage: $usage" >&2; exit 2; }; shift; variant=$1 ;;
            --games) shift; games=$1 ;;
            --tc) shift; tc=$1 ;;
            --inc) shift; inc=$1 ;;
            *) echo "usage: $usage" >&2; exit 2 ;;
        esac
        shift
    done
}

# Words in a game's last comment that mean it did not end by the rules.
ABNORMAL_ENDING='illegal|invalid|forfeit|on time|flag|crash|terminat|unexpected|abort|false|disconnect|error'

# Plays $3 games of variant $2 in headless XBoard between two copies of the engine command
# $6 (legality testing $7: true or false), at $4 (M:SS) + $5 s, in directory $1, and checks
# them: XBoard's exit, a panic, a move XBoard called illegal, an unfinished game, an ending
# not by the rules. Each failure is printed with the label $8 and counted in `failures`.
xboard_self_play() {
    local dir=$1 variant=$2 games=$3 tc=$4 inc=$5 engine=$6 legality=$7 label=$8 n endings ending
    mkdir -p "$dir"
    echo "== $label: $games games at $tc + $inc s, legality testing $legality" >&2
    timeout $((games * 600)) xvfb-run -a "$XBOARD" -noGUI -popupExitMessage false \
        -saveSettingsOnExit false -variant "$variant" -testLegality "$legality" -autoCallFlag true \
        -fcp "$engine" -fd "$dir" -scp "$engine" -sd "$dir" \
        -mg "$games" -tc "$tc" -inc "$inc" -xponder -smpCores 1 -defaultHashSize 16 \
        -saveGameFile "$dir/games.pgn" -debug -nameOfDebugFile "$dir/debug.txt" \
        > "$dir/xboard.log" 2>&1 || { echo "FAIL $label: xboard exited with $?" >&2; failures=$((failures + 1)); }
    touch "$dir/games.pgn" "$dir/debug.txt"
    if grep -q "panicked" "$dir/xboard.log" "$dir/debug.txt"; then
        echo "FAIL $label: Panoply panicked:" >&2
        grep -h -m3 "panicked" "$dir/xboard.log" "$dir/debug.txt" >&2
        failures=$((failures + 1))
    fi
    if grep -qi "illegal move" "$dir/debug.txt"; then
        echo "FAIL $label: a move was called illegal:" >&2
        grep -m3 -i "illegal move" "$dir/debug.txt" >&2
        failures=$((failures + 1))
    fi
    n=$(grep -c '^\[Result "[^*]' "$dir/games.pgn" || true)
    if [ "$n" -ne "$games" ]; then
        echo "FAIL $label: $n of $games games finished" >&2
        failures=$((failures + 1))
    fi
    # The termination comment of each game: the last {...} before its result.
    endings=$(tr '\n' ' ' < "$dir/games.pgn" | grep -oE '\{[^}]*\} *(1-0|0-1|1/2-1/2|\*)' || true)
    while read -r ending; do
        [ -n "$ending" ] || continue
        echo "   $ending" >&2
        if echo "$ending" | grep -qiE "$ABNORMAL_ENDING"; then
            echo "FAIL $label: abnormal ending $ending" >&2
            failures=$((failures + 1))
        fi
    done <<< "$endings"
}

#!/usr/bin/env bash
# End-to-end: headless XBoard (legality testing off, as Cyclical Armies needs) runs Panoply
# against itself once in each Cyclical Armies variant. XBoard's board must follow every type
# change (Panoply names the type a piece arrives as), or XBoard ends the game with an
# "invalid move" forfeit when it believes a piece stands elsewhere.
#
# Fails on any forfeit, unfinished game, XBoard failure or panic.
#
#   tests/e2e/xboard_cyclical.sh                  # CI: 4 games at 4 s + 0.04 s
#   tests/e2e/xboard_cyclical.sh --games 3 --tc 0:10 --inc 0.1
#   PANOPLY_BIN=/path/to/panoply ...              # use that binary instead of building
#
# Installs Debian's xboard and xvfb when missing (CI runs as root).
set -euo pipefail
cd "$(dirname "$0")/../.."

variants="cyclical cyclical-fixed cyclical-reverse cyclical-fixed-reverse"
games=1
tc=0:04
inc=0.04
while [ $# -gt 0 ]; do
    case "$1" in
        --games) shift; games=$1 ;;
        --tc) shift; tc=$1 ;;
        --inc) shift; inc=$1 ;;
        *) echo "usage: $0 [--games N] [--tc M:SS] [--inc S]" >&2; exit 2 ;;
    esac
    shift
done

source tests/e2e/lib.sh
install_missing xboard xvfb
XBOARD=/usr/games/xboard
PANOPLY=$(panoply_binary)
work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT; echo "work dir: $work" >&2
failures=0

for variant in $variants; do
    dir=$work/$variant
    mkdir -p "$dir"
    echo "== $variant: $games games at $tc + $inc s" >&2
    timeout $((games * 600)) xvfb-run -a "$XBOARD" -noGUI -popupExitMessage false \
        -saveSettingsOnExit false -variant "$variant" -testLegality false -autoCallFlag true \
        -fcp "$PANOPLY" -fd "$dir" -scp "$PANOPLY" -sd "$dir" \
        -mg "$games" -tc "$tc" -inc "$inc" -xponder -smpCores 1 -defaultHashSize 16 \
        -saveGameFile "$dir/games.pgn" -debug -nameOfDebugFile "$dir/debug.txt" \
        > "$dir/xboard.log" 2>&1 || { echo "FAIL $variant: xboard exited with $?" >&2; failures=$((failures + 1)); }
    touch "$dir/games.pgn"
    if grep -q "panicked" "$dir/xboard.log"; then
        echo "FAIL $variant: Panoply panicked:" >&2
        grep -m3 "panicked" "$dir/xboard.log" >&2
        failures=$((failures + 1))
    fi
    n=$(grep -c '^\[Result "[^*]' "$dir/games.pgn" || true)
    if [ "$n" -ne "$games" ]; then
        echo "FAIL $variant: $n of $games games finished" >&2
        failures=$((failures + 1))
    fi
    # The termination comment of each game: the last {...} before its result.
    endings=$(tr '\n' ' ' < "$dir/games.pgn" | grep -oE '\{[^}]*\} *(1-0|0-1|1/2-1/2|\*)' || true)
    while read -r ending; do
        [ -n "$ending" ] || continue
        echo "   $ending" >&2
        if echo "$ending" | grep -qiE 'illegal|invalid|forfeit|on time|flag|crash|terminat|unexpected|abort|false|disconnect|error'; then
            echo "FAIL $variant: abnormal ending $ending" >&2
            failures=$((failures + 1))
        fi
    done <<< "$endings"
done

echo "Cyclical Armies in XBoard: failures: $failures" >&2
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# End-to-end: headless XBoard with legality testing ON runs Panoply against itself in a
# pairing of armies loaded from a file (docs/armies.md). Both engines start as
# `panoply --armies armies/unofficial.toml`, so the pairing is in their `feature variants`,
# and XBoard checks every move against the `piece` commands Panoply sends for the new army.
#
# Fails on any forfeit or legality complaint, unfinished game, XBoard failure or panic.
#
#   tests/e2e/xboard_armies.sh                           # 2 games of cwda-forward-nutty at 0:20 + 0.2 s
#   tests/e2e/xboard_armies.sh --variant cwda-fide-amazon --games 4
#   PANOPLY_BIN=/path/to/panoply ...                     # use that binary instead of building
#
# Installs Debian's xboard and xvfb when missing (CI runs as root).
set -euo pipefail
cd "$(dirname "$0")/../.."

variant=cwda-forward-nutty
games=2
tc=0:20
inc=0.2
while [ $# -gt 0 ]; do
    case "$1" in
        --variant) shift; variant=$1 ;;
        --games) shift; games=$1 ;;
        --tc) shift; tc=$1 ;;
        --inc) shift; inc=$1 ;;
        *) echo "usage: $0 [--variant NAME] [--games N] [--tc M:SS] [--inc S]" >&2; exit 2 ;;
    esac
    shift
done

source tests/e2e/lib.sh
install_missing xboard xvfb
XBOARD=/usr/games/xboard
PANOPLY=$(panoply_binary)
ARMIES=$(pwd)/armies/unofficial.toml
work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT; echo "work dir: $work" >&2
failures=0

echo "== $variant: $games games at $tc + $inc s, legality testing on" >&2
timeout $((games * 600)) xvfb-run -a "$XBOARD" -noGUI -popupExitMessage false \
    -saveSettingsOnExit false -variant "$variant" -testLegality true -autoCallFlag true \
    -fcp "$PANOPLY --armies $ARMIES" -fd "$work" -scp "$PANOPLY --armies $ARMIES" -sd "$work" \
    -mg "$games" -tc "$tc" -inc "$inc" -xponder -smpCores 1 -defaultHashSize 16 \
    -saveGameFile "$work/games.pgn" -debug -nameOfDebugFile "$work/debug.txt" \
    > "$work/xboard.log" 2>&1 || { echo "FAIL: xboard exited with $?" >&2; failures=$((failures + 1)); }
touch "$work/games.pgn"
if grep -q "panicked" "$work/xboard.log" "$work/debug.txt" 2>/dev/null; then
    echo "FAIL: Panoply panicked" >&2
    failures=$((failures + 1))
fi
if grep -qiE "illegal move|Illegal move" "$work/debug.txt" 2>/dev/null; then
    echo "FAIL: a move was called illegal:" >&2
    grep -m3 -iE "illegal move" "$work/debug.txt" >&2
    failures=$((failures + 1))
fi
n=$(grep -c '^\[Result "[^*]' "$work/games.pgn" || true)
if [ "$n" -ne "$games" ]; then
    echo "FAIL: $n of $games games finished" >&2
    failures=$((failures + 1))
fi
endings=$(tr '\n' ' ' < "$work/games.pgn" | grep -oE '\{[^}]*\} *(1-0|0-1|1/2-1/2|\*)' || true)
while read -r ending; do
    [ -n "$ending" ] || continue
    echo "   $ending" >&2
    if echo "$ending" | grep -qiE 'illegal|invalid|forfeit|on time|flag|crash|terminat|unexpected|abort|false|disconnect|error'; then
        echo "FAIL: abnormal ending $ending" >&2
        failures=$((failures + 1))
    fi
done <<< "$endings"

echo "armies in XBoard ($variant): failures: $failures" >&2
[ "$failures" -eq 0 ]

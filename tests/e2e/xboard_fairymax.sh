#!/usr/bin/env bash
# End-to-end: headless XBoard (legality testing and claim testing on) runs Panoply against
# Fairy-Max in Chess with Different Armies (XBoard variant `fairy`, Fairy-Max option
# `Variant fairy selects`). Every pairing is a short match with colours alternating, so
# Panoply plays each army as White and as Black.
#
# Fails on any illegal move or false claim, time forfeit or crash by Panoply, unfinished game,
# or a panic in Panoply's stderr. Fairy-Max's own forfeits are reported, not failed.
#
#   tests/e2e/xboard_fairymax.sh                 # CI: 4 pairings x 2 games at 4 s + 0.04 s
#   tests/e2e/xboard_fairymax.sh --long          # manual: all 12 pairings x 2 games at 10 s + 0.1 s
#   tests/e2e/xboard_fairymax.sh --pairings all --games 4 --tc 0:10 --inc 0.1 \
#       --pgn tests/e2e/results/match.pgn         # the measured match (48 games)
#   PANOPLY_BIN=/path/to/panoply ...             # use that binary instead of building
#
# Installs Debian's xboard, fairymax and xvfb when missing (CI runs as root).
set -euo pipefail
cd "$(dirname "$0")/../.."

CI_PAIRINGS="Nutters-Rookies Clobberers-FIDE Rookies-Clobberers FIDE-Nutters"
ALL_PAIRINGS="FIDE-Clobberers Clobberers-FIDE FIDE-Nutters Nutters-FIDE Clobberers-Nutters
Nutters-Clobberers FIDE-Rookies Rookies-FIDE Clobberers-Rookies Rookies-Clobberers
Nutters-Rookies Rookies-Nutters"
pairings=$CI_PAIRINGS
games=2
tc=0:04
inc=0.04
pgn=""
while [ $# -gt 0 ]; do
    case "$1" in
        --long) pairings=$ALL_PAIRINGS; tc=0:10; inc=0.1 ;;
        --pairings) shift; if [ "$1" = all ]; then pairings=$ALL_PAIRINGS; else pairings=${1//,/ }; fi ;;
        --games) shift; games=$1 ;;
        --tc) shift; tc=$1 ;;
        --inc) shift; inc=$1 ;;
        --pgn) shift; pgn=$1 ;;
        *) echo "usage: $0 [--long] [--pairings all|A-B,C-D] [--games N] [--tc M:SS] [--inc S] [--pgn FILE]" >&2; exit 2 ;;
    esac
    shift
done

source tests/e2e/lib.sh
start_xboard_run xboard fairymax xvfb
FAIRYMAX=/usr/games/fairymax

# Fairy-Max 5.0b crashes (segmentation fault) on XBoard's `computer` command in half of the
# CwDA pairings (e.g. Clobberers-FIDE); the command only informs the engine that its
# opponent is a program, so a filter in front of Fairy-Max drops it.
fairymax_cmd="sh -c 'grep --line-buffered -vx computer | $FAIRYMAX'"

all_pgn=$work/all.pgn
: > "$all_pgn"
panoply_points=0   # in half points
played=0

for pairing in $pairings; do
    dir=$work/$pairing
    mkdir -p "$dir"
    echo "== $pairing: $games games at $tc + $inc s" >&2
    failures_before=$failures
    # -testLegality / -testClaims: XBoard checks every move and every result claim itself.
    timeout $((games * 600)) xvfb-run -a "$XBOARD" -noGUI -popupExitMessage false \
        -variant fairy -testLegality true -testClaims true -autoCallFlag true \
        -fcp "$fairymax_cmd" -fd "$dir" -firstOptions "Variant fairy selects=$pairing" \
        -scp "$PANOPLY" -sd "$dir" -secondOptions "Variant fairy selects=$pairing" \
        -mg "$games" -tc "$tc" -inc "$inc" -xponder -smpCores 1 -defaultHashSize 64 \
        -saveGameFile "$dir/games.pgn" -debug -nameOfDebugFile "$dir/debug.txt" \
        > "$dir/xboard.log" 2>&1 || { echo "FAIL $pairing: xboard exited with $?" >&2; failures=$((failures + 1)); }
    touch "$dir/games.pgn"
    cat "$dir/games.pgn" >> "$all_pgn"
    if grep -q "panicked" "$dir/xboard.log"; then
        echo "FAIL $pairing: Panoply panicked:" >&2
        grep -m3 "panicked" "$dir/xboard.log" >&2
        failures=$((failures + 1))
    fi
    n=$(grep -c '^\[Result ' "$dir/games.pgn" || true)
    if [ "$n" -ne "$games" ]; then
        echo "FAIL $pairing: $n of $games games finished" >&2
        failures=$((failures + 1))
    fi
    # One line per game: White, Black, Result and the termination comment.
    summary=$(awk '
        /^\[White "/ { w = substr($0, 9, length($0) - 10) }
        /^\[Black "/ { b = substr($0, 9, length($0) - 10) }
        /^\[Result "/ { r = substr($0, 10, length($0) - 11) }
        /^\[/ { next }
        { text = text " " $0 }
        /(1-0|0-1|1\/2-1\/2|\*)[ \t]*$/ && r != "" {
            c = text; sub(/.*\{/, "", c); sub(/\}.*/, "", c)
            printf "%s|%s|%s|%s\n", w, b, r, c; text = ""; r = ""
        }' "$dir/games.pgn")
    while IFS='|' read -r white black result reason; do
        [ -n "$white" ] || continue
        echo "   $white - $black: $result {$reason}" >&2
        panoply_won=false
        case "$result" in
            1-0) [[ $white == Panoply* ]] && panoply_won=true ;;
            0-1) [[ $black == Panoply* ]] && panoply_won=true ;;
        esac
        # An abnormal ending is Panoply's fault unless Panoply won the game: then the
        # opponent forfeited (Fairy-Max can lose on time on a loaded machine), which is
        # reported but does not fail the run. So is Fairy-Max's flag falling when Panoply
        # cannot win (XBoard: "White wins on time but bare king", a draw).
        fairymax_flagged=false
        case "$reason" in
            "White wins on time"*) [[ $black == Panoply* ]] || fairymax_flagged=true ;;
            "Black wins on time"*) [[ $white == Panoply* ]] || fairymax_flagged=true ;;
        esac
        if echo "$reason" | grep -qiE 'illegal|invalid|forfeit|on time|flag|crash|terminat|unexpected|abort|false|disconnect|error'; then
            if $panoply_won || $fairymax_flagged; then
                echo "   note: Fairy-Max forfeited {$reason}" >&2
            else
                echo "FAIL $pairing: $white - $black ended with {$reason}" >&2
                failures=$((failures + 1))
            fi
        fi
        if [ "$result" = '*' ]; then
            echo "FAIL $pairing: unfinished game" >&2
            failures=$((failures + 1))
        fi
        played=$((played + 1))
        if $panoply_won; then
            panoply_points=$((panoply_points + 2))
        elif [ "$result" = 1/2-1/2 ]; then
            panoply_points=$((panoply_points + 1))
        fi
    done <<< "$summary"
    # A failure is diagnosed from its game: CI keeps no work directory.
    if [ "$failures" -gt "$failures_before" ]; then
        echo "--- the games of $pairing:" >&2
        cat "$dir/games.pgn" >&2
    fi
done

if [ -n "$pgn" ]; then
    mkdir -p "$(dirname "$pgn")"
    cp "$all_pgn" "$pgn"
    echo "PGN saved to $pgn" >&2
fi
score=$(awk -v p="$panoply_points" -v n="$played" 'BEGIN { if (n) printf "%.1f/%d (%.1f%%)", p / 2, n, 50 * p / n; else print "0/0" }')
echo "Panoply vs Fairy-Max: $score; failures: $failures" >&2
[ "$failures" -eq 0 ]

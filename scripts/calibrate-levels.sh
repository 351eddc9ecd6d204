#!/usr/bin/env bash
# Measures Panoply's strength levels (Skill Level 0-20) in chess against Fairy-Stockfish's
# UCI_Elo levels (its own calibration, so the result is approximate) and prints the tables of
# scripts/levels-table.py: a row per match, then each level's Elo fitted over all its matches
# in OUT (so a rerun into the same OUT with other anchors adds to the same levels).
# docs/strength-levels.md was made with it; rerun it after the evaluation changes.
#
#   scripts/calibrate-levels.sh [LEVEL:FSF_ELO | LEVEL:fairymax ...]
#
# LEVEL:fairymax plays Fairy-Max (engines/fairymax.engine) instead: a second anchor, placed on
# the scale by the levels' fitted Elo.
# Environment: GAMES (per level and variant, default 40), TC (default st=0.1: 100 ms a move for both),
# MARGIN_MS (grace before a time forfeit, default 10000: a loaded machine must not decide
# games), PANOPLY (default target/release/panoply), FSF (default fairy-stockfish on the PATH, see
# engines/fairy-stockfish.engine), CONCURRENCY (default 1), OUT (default: a temporary folder),
# VARIANTS (default chess; e.g. the CwDA pairings, to see how far a level carries over) and
# OPENINGS (a suite of book/suites/ for VARIANTS other than chess).
# Openings for chess: the FIDE-against-FIDE lines of book/cwda.book.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
GAMES=${GAMES:-40}
TC=${TC:-st=0.1}
PANOPLY=${PANOPLY:-$repo/target/release/panoply}
FSF=${FSF:-fairy-stockfish}
CONCURRENCY=${CONCURRENCY:-1}
VARIANTS=${VARIANTS:-chess}
# The grace before a time forfeit: the levels are measured, not the machine's load.
MARGIN_MS=${MARGIN_MS:-10000}
OUT=${OUT:-$(mktemp -d)}
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(0:800 4:1200 8:1600 12:2000 16:2400 20:2800)

mkdir -p "$OUT"
awk '/^variant /{on=($2=="cwda-fide-fide")} on && !/^variant/' "$repo/book/cwda.book" |
    (echo "variant chess"; cat) >"$OUT/chess.book"
games_from=(--book "$OUT/chess.book")
[ -z "${OPENINGS:-}" ] || games_from=(--openings "$OPENINGS")
variant_args=()
for v in $VARIANTS; do variant_args+=(--variant "$v"); done

for pair in "${pairs[@]}"; do
    level=${pair%%:*} elo=${pair##*:}
    printf 'name = Level%s\ncommand = %s\nprotocol = uci\noption.Hash = 16\noption.Skill Level = %s\n' \
        "$level" "$PANOPLY" "$level" >"$OUT/level$level.engine"
    if [ "$elo" = fairymax ]; then
        opponent=$repo/engines/fairymax.engine name=fairymax
    else
        opponent=$OUT/fsf$elo.engine name=fsf$elo
        printf 'name = FSF%s\ncommand = %s load %s\nprotocol = uci\noption.Hash = 16\noption.Threads = 1\noption.UCI_LimitStrength = true\noption.UCI_Elo = %s\n' \
            "$elo" "$FSF" "$repo/engines/fairy-stockfish-variants.ini" "$elo" >"$opponent"
    fi
    pgn="$OUT/level$level-$name.pgn"
    rm -f "$pgn"
    "$PANOPLY" match "$OUT/level$level.engine" "$opponent" "${variant_args[@]}" \
        --games "$GAMES" --tc "$TC" "${games_from[@]}" --seed "$level" \
        --concurrency "$CONCURRENCY" --margin-ms "$MARGIN_MS" --resign movecount=3 score=800 \
        --max-plies 300 \
        --pgn "$pgn" --quiet >"${pgn%.pgn}.out" 2>&1 || true
    echo "level $level against $name: done ($pgn)" >&2
done
python3 "$repo/scripts/levels-table.py" "$OUT"
echo "(matches in $OUT)"

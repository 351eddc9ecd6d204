#!/usr/bin/env bash
# Measures Panoply's strength levels (Skill Level 0-20) in chess against Fairy-Stockfish's
# UCI_Elo levels (its own calibration, so the result is approximate) and prints one table row
# per level: level, opponent Elo, games, W-D-L, score, measured Elo with a 95 % error.
# docs/strength-levels.md was made with it; rerun it after the evaluation changes.
#
#   scripts/calibrate-levels.sh [LEVEL:FSF_ELO ...]
#
# Environment: GAMES (per level, default 40), TC (default st=0.1: 100 ms a move for both),
# MARGIN_MS (grace before a time forfeit, default 10000: a loaded machine must not decide
# games), PANOPLY (default target/release/panoply), FSF (default /work/fsf/stockfish, see
# engines/fairy-stockfish.engine), CONCURRENCY (default 1), OUT (default: a temporary folder).
# Openings: the FIDE-against-FIDE lines of book/cwda.book, played as chess.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
GAMES=${GAMES:-40}
TC=${TC:-st=0.1}
PANOPLY=${PANOPLY:-$repo/target/release/panoply}
FSF=${FSF:-/work/fsf/stockfish}
CONCURRENCY=${CONCURRENCY:-1}
# The grace before a time forfeit: the levels are measured, not the machine's load.
MARGIN_MS=${MARGIN_MS:-10000}
OUT=${OUT:-$(mktemp -d)}
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(0:800 4:1200 8:1600 12:2000 16:2400 20:2800)

mkdir -p "$OUT"
awk '/^variant /{on=($2=="cwda-fide-fide")} on && !/^variant/' "$repo/book/cwda.book" |
    (echo "variant chess"; cat) >"$OUT/chess.book"

echo "| level | FSF UCI_Elo | games | W-D-L (Panoply) | score | measured Elo |"
echo "|---:|---:|---:|---|---:|---|"
for pair in "${pairs[@]}"; do
    level=${pair%%:*} elo=${pair##*:}
    printf 'name = Level%s\ncommand = %s\nprotocol = uci\noption.Hash = 16\noption.Skill Level = %s\n' \
        "$level" "$PANOPLY" "$level" >"$OUT/level$level.engine"
    printf 'name = FSF%s\ncommand = %s\nprotocol = uci\noption.Hash = 16\noption.Threads = 1\noption.UCI_LimitStrength = true\noption.UCI_Elo = %s\n' \
        "$elo" "$FSF" "$elo" >"$OUT/fsf$elo.engine"
    pgn="$OUT/level$level-fsf$elo.pgn"
    rm -f "$pgn"
    "$PANOPLY" match "$OUT/level$level.engine" "$OUT/fsf$elo.engine" --variant chess \
        --games "$GAMES" --tc "$TC" --book "$OUT/chess.book" --seed "$level" \
        --concurrency "$CONCURRENCY" --margin-ms "$MARGIN_MS" --resign movecount=3 score=800 \
        --max-plies 300 \
        --pgn "$pgn" --quiet >"$OUT/level$level-fsf$elo.out" 2>&1 || true
    python3 - "$pgn" "Level$level" "$elo" "$level" <<'PY'
import math, re, sys
pgn, me, anchor, level = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
w = d = l = 0
for game in open(pgn).read().split("[Event ")[1:]:
    white = re.search(r'\[White "([^"]*)"', game).group(1)
    result = re.search(r'\[Result "([^"]*)"', game).group(1)
    if result == "1/2-1/2":
        d += 1
    elif (result == "1-0") == (white == me):
        w += 1
    elif result in ("1-0", "0-1"):
        l += 1
n = w + d + l
if n == 0:
    print(f"| {level} | {anchor} | 0 | - | - | no games |")
    sys.exit()
p = (w + d / 2) / n
var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n
if 0 < p < 1:
    elo = anchor - 400 * math.log10(1 / p - 1)
    slope = 400 / (math.log(10) * p * (1 - p))
    err = 1.96 * slope * math.sqrt(var / n)
    est = f"{elo:.0f} ± {err:.0f}"
else:
    est = ("below " if p == 0 else "above ") + str(anchor)
print(f"| {level} | {anchor} | {n} | {w}-{d}-{l} | {100 * p:.0f} % | {est} |")
PY
done
echo "(matches in $OUT)"

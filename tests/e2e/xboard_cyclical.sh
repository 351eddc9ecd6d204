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
source tests/e2e/lib.sh
parse_self_play_args "$0 [--games N] [--tc M:SS] [--inc S]" "$@"
start_xboard_run xboard xvfb

for variant in $variants; do
    xboard_self_play "$work/$variant" "$variant" "$games" "$tc" "$inc" "$PANOPLY" false "$variant"
done

echo "Cyclical Armies in XBoard: failures: $failures" >&2
[ "$failures" -eq 0 ]

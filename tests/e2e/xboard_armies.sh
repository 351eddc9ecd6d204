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
source tests/e2e/lib.sh
parse_self_play_args "$0 [--variant NAME] [--games N] [--tc M:SS] [--inc S]" "$@"
start_xboard_run xboard xvfb
ARMIES=$(pwd)/armies/unofficial.toml

xboard_self_play "$work" "$variant" "$games" "$tc" "$inc" "$PANOPLY --armies $ARMIES" true "$variant"

echo "armies in XBoard ($variant): failures: $failures" >&2
[ "$failures" -eq 0 ]

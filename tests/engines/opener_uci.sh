#!/usr/bin/env bash
# A scripted UCI engine for the referee's tests: it plays 1. e2e4 as White and 1... e7e5 as
# Black, which is all it is asked when its opponent is one of the broken engines.
moves=""
while read -r line; do
    case "$line" in
        uci) echo "id name Opener"; echo "option name UCI_Variant type combo default chess var chess"; echo "uciok" ;;
        isready) echo "readyok" ;;
        position*) moves="${line#*moves}"; [ "$moves" = "$line" ] && moves="" ;;
        go*) if [ -z "$moves" ]; then echo "bestmove e2e4"; else echo "bestmove e7e5"; fi ;;
        quit) exit 0 ;;
    esac
done

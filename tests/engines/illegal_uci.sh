#!/usr/bin/env bash
# A broken UCI engine for the referee's tests: it always answers a move that is never legal
# at the start of a game (a pawn jumping three squares).
while read -r line; do
    case "$line" in
        uci) echo "id name Illegal"; echo "option name UCI_Variant type string default chess"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) echo "info depth 1 score cp 0"; echo "bestmove e2e5" ;;
        quit) exit 0 ;;
    esac
done

#!/usr/bin/env bash
# A broken UCI engine for the referee's tests: it completes the handshake, then dies when
# asked to move.
while read -r line; do
    case "$line" in
        uci) echo "id name Crasher"; echo "option name UCI_Variant type combo default chess var chess"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) exit 3 ;;
        quit) exit 0 ;;
    esac
done

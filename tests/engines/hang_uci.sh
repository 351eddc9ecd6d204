#!/usr/bin/env bash
# A broken UCI engine for the referee's tests: it completes the handshake, then never
# answers `go` and ignores everything else, `quit` included, so it must be killed.
while read -r line; do
    case "$line" in
        uci) echo "id name Hanger"; echo "option name UCI_Variant type combo default chess var chess"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) sleep 3600 ;;
    esac
done

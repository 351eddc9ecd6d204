#!/usr/bin/env bash
# A scripted UCI engine for the referee's tests: it plays a random legal move, which it gets
# from `panoply show --moves` ($PANOPLY_BIN, default: this checkout's release build), so it
# plays every variant Panoply knows, two- and four-player.
panoply="${PANOPLY_BIN:-$(dirname "$0")/../../target/release/panoply}"
variant=chess
fen=""
moves=""
while read -r line; do
    case "$line" in
        uci) echo "id name Random"; echo "option name UCI_Variant type string default chess"; echo "uciok" ;;
        isready) echo "readyok" ;;
        "setoption name UCI_Variant value "*) variant="${line##* }" ;;
        position*)
            moves=""
            [[ "$line" == *" moves "* ]] && moves="${line#* moves }"
            fen=""
            if [[ "$line" == "position fen "* ]]; then
                fen="${line#position fen }"
                fen="${fen%% moves *}"
            fi ;;
        go*)
            args=(show --variant "$variant" --moves "$moves")
            [ -n "$fen" ] && args+=(--fen "$fen")
            list=$("$panoply" "${args[@]}" | tail -n 1)
            read -r -a legal <<< "${list#*: }"
            echo "bestmove ${legal[RANDOM % ${#legal[@]}]}" ;;
        quit) exit 0 ;;
    esac
done

#!/usr/bin/env bash
# A scripted XBoard engine for the referee's tests: it plays the moves given as arguments, one
# per `go` or received move when it is on move, and appends every line it receives to
# $SCRIPTED_LOG (if set), so a test can check what the referee sent.
log="${SCRIPTED_LOG:-/dev/null}"
next=1
thinking=0
play() {
    eval "mv=\${$next}"
    next=$((next + 1))
    echo "move $mv"
}
while read -r line; do
    echo "$line" >> "$log"
    case "$line" in
        protover*) echo 'feature myname="Scripted" setboard=0 ping=1 usermove=0 variants="normal,fairy" done=1' ;;
        ping*) echo "pong ${line#ping }" ;;
        go) play "$@" ;;
        quit) exit 0 ;;
    esac
done

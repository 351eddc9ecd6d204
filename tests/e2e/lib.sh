# Shared by the XBoard end-to-end scripts (sourced, from the repository root).

# Installs the Debian packages (xboard, fairymax, xvfb) whose programs are missing; CI runs
# as root on a bare machine.
install_missing() {
    local missing=() pkg
    for pkg in "$@"; do
        case $pkg in
            xvfb) command -v xvfb-run >/dev/null || missing+=(xvfb) ;;
            *) [ -x "/usr/games/$pkg" ] || missing+=("$pkg") ;;
        esac
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    echo "installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The engine to test: $PANOPLY_BIN (a long match should not see rebuilds of target/), else a
# fresh release build.
panoply_binary() {
    if [ -n "${PANOPLY_BIN:-}" ]; then
        echo "$PANOPLY_BIN"
    else
        cargo build --release --quiet || return 1
        echo "$(pwd)/target/release/panoply"
    fi
}

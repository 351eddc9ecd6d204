#!/usr/bin/env bash
# `panoply serve` in a real headless browser: Debian's chromium driven by Playwright for
# Python (its own browser download is never used). Installs what is missing, starts the
# server on a free port, runs tests/e2e/serve_browser.py, saves screenshots in
# tests/e2e/results/. Needs target/release/panoply (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
RESULTS=$ROOT/tests/e2e/results
mkdir -p "$RESULTS"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "serve_browser: installing chromium and chromium-driver" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# The FIDE figurines are Unicode chess symbols drawn in DejaVu Sans (docs/serve.md).
if ! fc-list 2>/dev/null | grep -q "DejaVu Sans"; then
    echo "serve_browser: installing fonts-dejavu-core" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq fonts-dejavu-core fontconfig >/dev/null
fi
if ! python3 -c "import playwright" 2>/dev/null; then
    echo "serve_browser: installing playwright (Python)" >&2
    if ! python3 -m pip --version >/dev/null 2>&1; then
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
    fi
    python3 -m pip install -q playwright 2>/dev/null \
        || python3 -m pip install -q --break-system-packages playwright
fi
[ -x target/release/panoply ] || cargo build --release

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LOG=$(mktemp)
# The game is kept in a folder of this run's own, so no earlier run's game is continued and
# nothing is left in the user's data directory.
STATE=$(mktemp -d)
TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
target/release/panoply serve --port "$PORT" --variant chess --state-dir "$STATE" --token "$TOKEN" >"$LOG" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$LOG" "$STATE"' EXIT
for _ in $(seq 50); do
    grep -q "open http" "$LOG" && break
    sleep 0.1
done
grep "open http" "$LOG" >&2

PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout 300 python3 tests/e2e/serve_browser.py \
    "http://127.0.0.1:$PORT/?token=$TOKEN" "$RESULTS" "$STATE/serve-$PORT.json"

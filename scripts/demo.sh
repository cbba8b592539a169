#!/usr/bin/env bash
# Installs what is missing, builds, and serves the site on 127.0.0.1.
# PORT=8080 scripts/demo.sh picks the port (default: 5173, or the next free one).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh"

port="${PORT:-5173}"
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
log "serving web/dist"
printf '\n  Open http://127.0.0.1:%s/\n\n' "$port"
cd "$WEB"
exec node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port "$port" --strictPort

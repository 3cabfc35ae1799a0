#!/usr/bin/env bash
# Builds LangGraph's agent-chat-ui (https://github.com/langchain-ai/agent-chat-ui) and starts it against a running
# Conduit. Test-only tooling: nothing of it ships with Conduit. See docs/agent-chat-ui.md.
# Usage: scripts/agent-chat-ui.sh [DIR]   (DIR: where to clone and build; default /tmp/agent-chat-ui)
# Env: CONDUIT_URL (default http://localhost:8080), ASSISTANT_ID (default agent), UI_PORT (default 3000),
#      ACUI_REF (git ref to build; default the default branch's head).
# Conduit must allow the UI's origin by CORS, e.g. QUARKUS_HTTP_CORS_ENABLED=true
# QUARKUS_HTTP_CORS_ORIGINS=http://localhost:3000 (the browser calls Conduit directly from the UI's page).
set -euo pipefail
DIR=${1:-/tmp/agent-chat-ui}
CONDUIT_URL=${CONDUIT_URL:-http://localhost:8080}
ASSISTANT_ID=${ASSISTANT_ID:-agent}
UI_PORT=${UI_PORT:-3000}
if [ ! -d "$DIR/.git" ] && [ ! -f "$DIR/package.json" ]; then
  git clone --depth 1 ${ACUI_REF:+--branch "$ACUI_REF"} https://github.com/langchain-ai/agent-chat-ui "$DIR"
fi
cd "$DIR"
# next/font/google downloads the Inter font at build time; offline builds (CI sandboxes) fail on it, so use the
# system sans-serif font instead. Idempotent.
node -e '
const fs = require("fs"); const p = "src/app/layout.tsx"; let s = fs.readFileSync(p, "utf8");
s = s.replace(/import \{ Inter \} from "next\/font\/google";\n/, "");
s = s.replace(/const inter = Inter\(\{[\s\S]*?\}\);/, "const inter = { className: \"font-sans\" };");
fs.writeFileSync(p, s);'
# the pnpm version the repository pins (packageManager), run through npm
PNPM="npx -y pnpm@$(node -p 'require("./package.json").packageManager.split("@")[1]')"
export NEXT_TELEMETRY_DISABLED=1
# NEXT_PUBLIC_* are read at build time: the UI then talks to Conduit directly, without its setup form
export NEXT_PUBLIC_API_URL="$CONDUIT_URL" NEXT_PUBLIC_ASSISTANT_ID="$ASSISTANT_ID"
time $PNPM install --frozen-lockfile
time $PNPM build
exec $PNPM start --port "$UI_PORT"

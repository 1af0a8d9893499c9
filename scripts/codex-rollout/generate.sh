#!/bin/sh
# Runs `codex exec` once against model.cjs (a scripted Responses API
# model on 127.0.0.1) and writes, trimmed (trim.cjs), the rollout file
# Codex recorded and the Responses log the model captured.
# Usage: scripts/codex-rollout/generate.sh [OUT_DIR]
# CODEX_DIR (default /tmp/codex-rollout) holds node_modules/@openai/codex.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../harness/importer/testdata}
codex_dir=${CODEX_DIR:-/tmp/codex-rollout}
mkdir -p "$out"
out=$(cd "$out" && pwd)
run=$(mktemp -d /tmp/codex-run.XXXXXX)
mkdir -p "$run/home/.codex" "$run/work"
LOG="$run/responses-log.jsonl" node "$here/model.cjs" >"$run/model.out" 2>"$run/model.err" &
model=$!
trap 'kill $model 2>/dev/null || true' EXIT
while ! grep -q listening "$run/model.out" 2>/dev/null; do sleep 0.1; done
port=$(awk '{print $2}' "$run/model.out")
cat >"$run/home/.codex/config.toml" <<TOML
model = "gpt-5.1-codex"
model_provider = "capture"
tool_output_token_limit = 8000

[model_providers.capture]
name = "capture"
base_url = "http://127.0.0.1:$port/v1"
env_key = "CAPTURE_API_KEY"
wire_api = "responses"
TOML
(cd "$run/work" && HOME="$run/home" CODEX_HOME="$run/home/.codex" CAPTURE_API_KEY=not-a-key \
  node "$codex_dir/node_modules/@openai/codex/bin/codex.js" exec --skip-git-repo-check \
  --dangerously-bypass-approvals-and-sandbox "How many lines does seq 1 3000 print? Run it to check." \
  >"$run/codex.out" 2>"$run/codex.err")
rollout=$(find "$run/home/.codex/sessions" -name 'rollout-*.jsonl' | head -n 1)
installation=$(cat "$run/home/.codex/installation_id" 2>/dev/null || true)
node "$here/trim.cjs" "$run" "$installation" "$rollout" "$out/codex-rollout.jsonl"
node "$here/trim.cjs" "$run" "$installation" "$run/responses-log.jsonl" "$out/codex-responses-log.jsonl"
echo "wrote $out/codex-rollout.jsonl ($(basename "$rollout"))"
echo "wrote $out/codex-responses-log.jsonl"
rm -rf "$run"

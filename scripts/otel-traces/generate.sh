#!/bin/sh
# Regenerates harness/importer/testdata/otel-<instrumentation>-{spans,logs}.json:
# each instrumentation's openai client runs scenarios/session/over-cap-handle.yaml
# against `toolout serve` on 127.0.0.1, and its spans and logs are written
# to separate files as OTLP/HTTP JSON exports, one a line. See README.md.
# Usage (from the repository root): scripts/otel-traces/generate.sh [OUT_DIR]
# NODE_BASE (default /tmp/otel-traces) holds one npm install per
# instrumentation, in NODE_BASE/official, NODE_BASE/traceloop and
# NODE_BASE/openinference.
set -eu
out=${1:-harness/importer/testdata}
base=${NODE_BASE:-/tmp/otel-traces}
here=$(dirname "$0")
tmp=$(mktemp -d)
serve=
# a generator that fails leaves no serve behind (it would wait for its steps)
trap '[ -n "$serve" ] && kill "$serve" 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/toolout" ./cmd/toolout
mkdir -p "$out"
for name in official traceloop openinference; do
	if [ ! -d "$base/$name/node_modules" ]; then
		echo "generate.sh: $base/$name/node_modules missing: mkdir -p $base/$name && cp $here/$name/package*.json $base/$name/ && npm ci --prefix $base/$name" >&2
		exit 2
	fi
	rm -f "$tmp/url"
	"$tmp/toolout" serve scenarios/session/over-cap-handle.yaml --exit-when-done --deadline 60s >"$tmp/url" 2>"$tmp/serve.log" &
	serve=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$tmp/url" ] && break; sleep 0.2; done
	url=$(head -1 "$tmp/url")
	TRACELOOP_TELEMETRY=false NODE_DIR="$base/$name" node "$here/$name.cjs" "$url" "$out/otel-$name-spans.json" "$out/otel-$name-logs.json"
	if ! wait "$serve"; then
		serve=
		cat "$tmp/serve.log" >&2
		exit 1
	fi
	serve=
	node "$here/trim.cjs" "$out/otel-$name-spans.json" "$out/otel-$name-logs.json"
done

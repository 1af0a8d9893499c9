// Un-parented chat spans from Traceloop's OpenLLMetry SDK
// (@traceloop/node-server-sdk), exported over OTLP/HTTP JSON to a spans
// file; the agent's own log record of each tool run (OpenTelemetry logs,
// tied to no chat span) to a logs file, as an application writes them.
// Usage: node traceloop.cjs BASE_URL SPANS.json LOGS.json
'use strict';
const { start, run } = require('./agent.cjs');

async function main() {
  const { baseURL, rx, need } = await start();
  const traceloop = need('@traceloop/node-server-sdk');
  const { OTLPTraceExporter } = need('@opentelemetry/exporter-trace-otlp-http');
  const { OpenAI } = need('openai'); // the class, whose statics (Chat, ...) Traceloop patches
  traceloop.initialize({
    appName: 'toolout-otel-traceloop',
    exporter: new OTLPTraceExporter({ url: rx.url + '/v1/traces' }),
    baseUrl: rx.url, // loopback: nothing leaves the machine
    traceloopSyncEnabled: false, // no prompt registry fetched from api.traceloop.com
    disableBatch: true,
    traceContent: true,
    instrumentModules: { openAI: OpenAI },
    silenceInitializationMessage: true,
  });
  const logs = appLogger(need, rx.url);
  const answer = await run(OpenAI, baseURL, logs.tool);
  await traceloop.forceFlush();
  await logs.shutdown();
  await rx.close();
  console.log('traceloop: answered: ' + answer);
}

// appLogger is the application's own OpenTelemetry logger, exporting to
// the logs file.
function appLogger(need, url) {
  const { LoggerProvider, SimpleLogRecordProcessor } = need('@opentelemetry/sdk-logs');
  const { OTLPLogExporter } = need('@opentelemetry/exporter-logs-otlp-http');
  const exporter = new OTLPLogExporter({ url: url + '/v1/logs' });
  const provider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor(exporter)] });
  const logger = provider.getLogger('toolout-agent');
  return {
    tool: (tc, out) => logger.emit({ severityText: 'INFO', body: `tool ${tc.function.name} returned ${out.length} bytes`,
      attributes: { 'tool.name': tc.function.name, 'tool.call_id': tc.id } }),
    shutdown: () => provider.shutdown(),
  };
}
main().catch((e) => { console.error('traceloop: ' + e.stack); process.exit(1); });

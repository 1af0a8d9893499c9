// Un-parented chat spans and GenAI log records from the official
// OpenTelemetry instrumentation of openai (@opentelemetry/instrumentation-openai),
// exported over OTLP/HTTP JSON to spans and logs files.
// Usage: node official.cjs BASE_URL SPANS.json LOGS.json
'use strict';
const { start, run } = require('./agent.cjs');

async function main() {
  const { baseURL, rx, need } = await start();
  const { NodeSDK } = need('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = need('@opentelemetry/exporter-trace-otlp-http');
  const { OTLPLogExporter } = need('@opentelemetry/exporter-logs-otlp-http');
  const { SimpleLogRecordProcessor } = need('@opentelemetry/sdk-logs');
  const { OpenAIInstrumentation } = need('@opentelemetry/instrumentation-openai');
  const sdk = new NodeSDK({
    serviceName: 'toolout-otel-official',
    traceExporter: new OTLPTraceExporter({ url: rx.url + '/v1/traces' }),
    // sdk-logs 3 takes its exporter as an option.
    logRecordProcessors: [new SimpleLogRecordProcessor({ exporter: new OTLPLogExporter({ url: rx.url + '/v1/logs' }) })],
    instrumentations: [new OpenAIInstrumentation({ captureMessageContent: true })],
  });
  sdk.start();
  const answer = await run(need('openai'), baseURL);
  await sdk.shutdown();
  await rx.close();
  console.log('official: answered: ' + answer);
}
main().catch((e) => { console.error('official: ' + e.stack); process.exit(1); });

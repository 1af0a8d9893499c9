// Un-parented LLM spans from Arize's OpenInference instrumentation of
// openai (@arizeai/openinference-instrumentation-openai), exported over
// OTLP/HTTP JSON to a spans file; the agent's own log record of each tool
// run to a logs file, as an application writes them.
// Usage: node openinference.cjs BASE_URL SPANS.json LOGS.json
'use strict';
const { start, run } = require('./agent.cjs');

async function main() {
  const { baseURL, rx, need } = await start();
  const { NodeTracerProvider, SimpleSpanProcessor } = need('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } = need('@opentelemetry/exporter-trace-otlp-http');
  const { OpenAIInstrumentation } = need('@arizeai/openinference-instrumentation-openai');
  const provider = new NodeTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: rx.url + '/v1/traces' }))],
  });
  provider.register();
  const OpenAI = need('openai');
  const instrumentation = new OpenAIInstrumentation();
  instrumentation.setTracerProvider(provider);
  instrumentation.manuallyInstrument(OpenAI);
  const { LoggerProvider, SimpleLogRecordProcessor } = need('@opentelemetry/sdk-logs');
  const { OTLPLogExporter } = need('@opentelemetry/exporter-logs-otlp-http');
  const logs = new LoggerProvider({ processors: [new SimpleLogRecordProcessor(new OTLPLogExporter({ url: rx.url + '/v1/logs' }))] });
  const logger = logs.getLogger('toolout-agent');
  const answer = await run(OpenAI, baseURL, (tc, out) => logger.emit({ severityText: 'INFO',
    body: `tool ${tc.function.name} returned ${out.length} bytes`, attributes: { 'tool.name': tc.function.name, 'tool.call_id': tc.id } }));
  await provider.forceFlush();
  await provider.shutdown();
  await logs.shutdown();
  await rx.close();
  console.log('openinference: answered: ' + answer);
}
main().catch((e) => { console.error('openinference: ' + e.stack); process.exit(1); });

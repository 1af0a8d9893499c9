// The agent the three generators instrument, and the OTLP/HTTP receiver
// that writes what their exporters send. Loaded after the instrumentation
// is registered, so that `require('openai')` gets the patched module.
'use strict';
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

// receive listens on 127.0.0.1:0 and appends each OTLP/HTTP JSON export
// it is sent to a file, one export a line, as the OpenTelemetry
// collector's file exporter writes them: POST /v1/traces to spansFile,
// POST /v1/logs to logsFile. It resolves to the base URL and a close().
function receive(spansFile, logsFile) {
  fs.writeFileSync(spansFile, '');
  fs.writeFileSync(logsFile, '');
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const file = { '/v1/traces': spansFile, '/v1/logs': logsFile }[req.url];
      if (req.method !== 'POST' || !file || !(req.headers['content-type'] || '').startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      fs.appendFileSync(file, JSON.stringify(JSON.parse(body)) + '\n');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      resolve({ url, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

const system = 'You are an on-call assistant. Answer from the tools\' output only.';
const question = 'Count ERROR lines per host.';
const tools = [{
  type: 'function',
  function: {
    name: 'logs__query',
    description: 'Query the service logs since a time.',
    parameters: { type: 'object', properties: { since: { type: 'string' } }, required: ['since'] },
  },
}];

// logsQuery is the tool: the lines of scenarios/session/over-cap-handle.yaml's
// template, 500 of them (14 461 bytes, over the importer's 12 KiB cap).
function logsQuery() {
  const lines = [];
  for (let i = 0; i < 500; i++) {
    lines.push(`ts=${i} host=web-${i % 3} level=${i % 7 === 0 ? 'ERROR' : 'INFO'}`);
  }
  return lines.join('\n');
}

// run drives the conversation against baseURL (toolout serve): one call
// that asks for logs__query, the tool's result, one call that answers.
// Each call is made outside any span, so each is a trace of its own, as an
// instrumented application without a parent span records it. onTool is
// called with each tool result (the generators log it).
async function run(OpenAI, baseURL, onTool) {
  const client = new OpenAI({ baseURL, apiKey: 'sk-toolout-scripted', maxRetries: 0 });
  const messages = [{ role: 'system', content: system }, { role: 'user', content: question }];
  for (let turn = 1; turn <= 4; turn++) {
    const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    const msg = r.choices[0].message;
    messages.push(msg);
    if (!msg.tool_calls || msg.tool_calls.length === 0) {
      return msg.content;
    }
    for (const tc of msg.tool_calls) {
      const out = logsQuery(JSON.parse(tc.function.arguments));
      if (onTool) onTool(tc, out);
      messages.push({ role: 'tool', tool_call_id: tc.id, content: out });
    }
  }
  throw new Error('no answer after 4 turns');
}

// start reads the generators' arguments (BASE_URL SPANS.json LOGS.json),
// starts the receiver, and gives need: require from the instrumentation's
// own install, $NODE_DIR/node_modules.
async function start() {
  const [baseURL, spansFile, logsFile] = process.argv.slice(2);
  const modules = path.join(process.env.NODE_DIR, 'node_modules');
  const need = (m) => require(path.join(modules, m));
  return { baseURL, rx: await receive(spansFile, logsFile), need };
}

module.exports = { start, run };

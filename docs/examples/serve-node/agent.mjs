// agent.mjs: a minimal tool-calling agent on the official OpenAI Node SDK,
// pointed at `toolout serve` (docs/examples/serve-node/README.md).
//
// Usage (node 20 or later, from the repository root):
//
//   npm ci --prefix docs/examples/serve-node      # the SDK, as package-lock.json pins it
//   toolout serve scenarios/session/over-cap-handle.yaml   # prints its base URL
//   node docs/examples/serve-node/agent.mjs http://127.0.0.1:PORT/v1 [--turns N] [--stream]
//
// The agent sends the user's question with one tool, logs__query; while the
// model calls tools it runs them (logs__query returns 60 log lines) and
// sends their results back; it stops at the model's first answer without a
// tool call, or after --turns model calls (to stop early), or after 10.
// --stream asks every completion as a stream (stream: true), read through
// the SDK's chat.completions.stream helper.
//
// One line per event on stdout: "model: ...", "tool: ...", "answer: ...".
// Exit 0 when the model answered (or --turns was reached), 1 when the API
// or the SDK failed (the error on stderr: for an unmatched request, the
// server's diff against the nearest step), 2 on bad usage or when the SDK
// cannot be loaded. OPENAI_SDK_DIR, when set, is a directory whose
// node_modules holds the SDK; else node_modules beside this file.

import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const sdkDir = path.resolve(process.env.OPENAI_SDK_DIR || here);

function usage(msg) {
  console.error(`agent.mjs: ${msg}\nusage: node agent.mjs BASE_URL [--turns N] [--stream]`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { baseURL: '', turns: 10, stream: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stream') {
      opts.stream = true;
    } else if (a === '--turns') {
      opts.turns = Number(argv[++i]);
      if (!Number.isInteger(opts.turns) || opts.turns < 1) usage(`--turns ${argv[i]}: want a positive integer`);
    } else if (!opts.baseURL && !a.startsWith('--')) {
      opts.baseURL = a;
    } else {
      usage(`unexpected argument ${JSON.stringify(a)}`);
    }
  }
  if (!opts.baseURL) usage('want the base URL toolout serve printed, e.g. http://127.0.0.1:PORT/v1');
  return opts;
}

function loadSDK() {
  try {
    return createRequire(path.join(sdkDir, 'package.json'))('openai').OpenAI;
  } catch (err) {
    console.error(`agent.mjs: cannot load the openai SDK from ${sdkDir}/node_modules (${err.message}); ` +
      'run: npm ci --prefix docs/examples/serve-node');
    process.exit(2);
  }
}

// The agent's one tool: the last hour of a service's logs.
const tools = [{
  type: 'function',
  function: {
    name: 'logs__query',
    description: 'Query the service logs.',
    parameters: { type: 'object', properties: { since: { type: 'string' } }, required: ['since'] },
  },
}];

function runTool(call) {
  if (call.function.name !== 'logs__query') return `error: unknown tool ${call.function.name}`;
  const lines = [];
  for (let i = 0; i < 60; i++) {
    lines.push(`ts=${i} host=web-${i % 3} level=${i % 7 === 0 ? 'ERROR' : 'INFO'}`);
  }
  return lines.join('\n') + '\n';
}

async function complete(client, messages, stream) {
  const body = { model: 'scripted', messages, tools };
  if (!stream) return client.chat.completions.create(body);
  return client.chat.completions.stream({ ...body, stream_options: { include_usage: true } }).finalChatCompletion();
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const OpenAI = loadSDK();
  const client = new OpenAI({ baseURL: opts.baseURL, apiKey: 'unused', maxRetries: 0, timeout: 30_000 });
  const messages = [{ role: 'user', content: 'Count ERROR lines per host.' }];
  for (let turn = 1; turn <= opts.turns; turn++) {
    const completion = await complete(client, messages, opts.stream);
    const msg = completion.choices[0].message;
    messages.push(msg);
    if (!msg.tool_calls || msg.tool_calls.length === 0) {
      console.log(`answer: ${msg.content}`);
      return;
    }
    for (const call of msg.tool_calls) {
      console.log(`model: ${call.function.name} ${call.function.arguments}`);
      const result = runTool(call);
      console.log(`tool: ${call.function.name} returned ${result.length} bytes`);
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
  console.log(`stopped after ${opts.turns} turn(s)`);
}

main().catch((err) => {
  console.error(`agent.mjs: ${err.message}`);
  process.exit(1);
});

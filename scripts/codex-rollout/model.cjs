// A scripted Responses API model on 127.0.0.1 for `codex exec`: turn 1
// answers with a reasoning item and a function call that runs one shell
// command, turn 2 (its output in the input) with a text answer. Every
// POST .../responses is appended to LOG as one JSONL line, {"request":
// <the body Codex sent>, "response": "<the SSE text answered>"}.
// Prints "listening PORT" on stdout; stops on SIGTERM.
'use strict';
const http = require('http');
const fs = require('fs');

const log = process.env.LOG || 'responses-log.jsonl';
const command = process.env.COMMAND || 'seq 1 3000';
const answer = process.env.ANSWER || 'The command printed 3000 lines, the numbers 1 to 3000.';
let seq = 0;

function event(name, data) {
  data = Object.assign({ type: name, sequence_number: seq++ }, data);
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function response(id, model, status, output) {
  return {
    id, object: 'response', created_at: 1764280800, status, model, output,
    parallel_tool_calls: false, tool_choice: 'auto', tools: [], store: false,
    usage: status === 'completed' ? { input_tokens: 1200, input_tokens_details: { cached_tokens: 0 }, output_tokens: 40, output_tokens_details: { reasoning_tokens: 16 }, total_tokens: 1240 } : null,
  };
}

// args returns the arguments of a call to the shell tool Codex offers.
function shellCall(tools) {
  const names = (tools || []).map((t) => t.name);
  if (names.includes('shell_command')) return { name: 'shell_command', args: { command } };
  // Codex 0.169's shell tool. max_output_tokens asks for the whole
  // output; Codex still cuts it at tool_output_token_limit (about 10 KB by
  // default), which generate.sh raises so that all 14 KB, over the
  // importer's 12 KiB cap, reach the model and the rollout.
  if (names.includes('exec_command')) return { name: 'exec_command', args: { cmd: command, max_output_tokens: 8000 } };
  return { name: 'shell', args: { command: ['bash', '-lc', command] } };
}

function turn1(id, model, tools) {
  const { name, args } = shellCall(tools);
  const reasoning = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAABscripted-reasoning-0001' };
  const argText = JSON.stringify(args);
  const call = { id: 'fc_1', type: 'function_call', status: 'completed', arguments: argText, call_id: 'call_1', name };
  let s = event('response.created', { response: response(id, model, 'in_progress', []) });
  s += event('response.in_progress', { response: response(id, model, 'in_progress', []) });
  s += event('response.output_item.added', { output_index: 0, item: reasoning });
  s += event('response.output_item.done', { output_index: 0, item: reasoning });
  s += event('response.output_item.added', { output_index: 1, item: Object.assign({}, call, { status: 'in_progress', arguments: '' }) });
  const half = Math.floor(argText.length / 2);
  s += event('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 1, delta: argText.slice(0, half) });
  s += event('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 1, delta: argText.slice(half) });
  s += event('response.function_call_arguments.done', { item_id: 'fc_1', output_index: 1, arguments: argText });
  s += event('response.output_item.done', { output_index: 1, item: call });
  s += event('response.completed', { response: response(id, model, 'completed', [reasoning, call]) });
  return s;
}

function turn2(id, model) {
  const part = { type: 'output_text', text: answer, annotations: [] };
  const msg = { id: 'msg_2', type: 'message', status: 'completed', role: 'assistant', content: [part] };
  let s = event('response.created', { response: response(id, model, 'in_progress', []) });
  s += event('response.in_progress', { response: response(id, model, 'in_progress', []) });
  s += event('response.output_item.added', { output_index: 0, item: Object.assign({}, msg, { status: 'in_progress', content: [] }) });
  s += event('response.content_part.added', { item_id: 'msg_2', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  const cut = answer.indexOf(',') + 1 || 1;
  s += event('response.output_text.delta', { item_id: 'msg_2', output_index: 0, content_index: 0, delta: answer.slice(0, cut) });
  s += event('response.output_text.delta', { item_id: 'msg_2', output_index: 0, content_index: 0, delta: answer.slice(cut) });
  s += event('response.output_text.done', { item_id: 'msg_2', output_index: 0, content_index: 0, text: answer });
  s += event('response.content_part.done', { item_id: 'msg_2', output_index: 0, content_index: 0, part });
  s += event('response.output_item.done', { output_index: 0, item: msg });
  s += event('response.completed', { response: response(id, model, 'completed', [msg]) });
  return s;
}

let calls = 0;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || !/\/responses$/.test(req.url.split('?')[0])) {
      process.stderr.write(`not answered: ${req.method} ${req.url}\n`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"not found","type":"invalid_request_error"}}');
      return;
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    let body;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      process.stderr.write(`request is not JSON (content-encoding ${req.headers['content-encoding']}): ${e.message}\n`);
      res.writeHead(400);
      res.end();
      return;
    }
    calls++;
    seq = 0;
    const answered = (body.input || []).some((it) => it.type === 'function_call_output');
    const id = `resp_${calls}`;
    const sse = answered ? turn2(id, body.model) : turn1(id, body.model, body.tools);
    fs.appendFileSync(log, JSON.stringify({ request: body, response: sse }) + '\n');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(sse);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

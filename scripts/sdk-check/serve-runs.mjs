// serve-runs.mjs: the OpenAI SDK's Responses API against `toolout serve`
// (issue 35): the bundled scenario scenarios/responses/function-and-custom.yaml
// scripts a function call (read_log), then a custom tool call (grep_log,
// free text), then the answer. Each way of calling (responses.create,
// responses.create with stream: true read as raw events,
// responses.stream(...).finalResponse()) runs the whole conversation
// against a serve of its own (`toolout serve --exit-when-done`: a run spends
// the steps), directly and with `toolout gateway serve` in front of it
// (the outputs are small: they pass through), sending the function's and
// the custom tool's outputs back as input items, as an agent does; then
// serve must exit 0 having answered every step as scripted and nothing
// else.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { RESPONSES_TOOLS, fromEvents, fromResponse } from './responses-calls.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVE_SCENARIO = 'scenarios/responses/function-and-custom.yaml';
const QUESTION = 'Why did the nightly build fail?';
const LOG = 'step=0066 status=OK\nstep=0067 status=FAILED exit=2\nstep=0068 status=OK\n';
const GREP = 'step=0067 status=FAILED exit=2 error="undefined: frobnicate"';
const ANSWER = 'Step 0067 failed with exit 2: undefined: frobnicate.';

// startServe starts `toolout serve` with args (default: --exit-when-done
// on the scenario) and resolves to {proc, url (with /v1), err(), exited}.
export function startServe(toolout, args = ['--exit-when-done', '--deadline', '60s', SERVE_SCENARIO], cwd = REPO) {
  const proc = spawn(toolout, ['serve', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
  const exited = new Promise((resolve) => {
    proc.once('error', (e) => { err += `spawn ${toolout}: ${e.message}\n`; resolve(-1); });
    proc.once('close', (code) => resolve(code));
  });
  const url = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no base URL from toolout serve within 15 s: ${err.trim()}`)), 15000);
    proc.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /^(http:\/\/\S+)\n/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    exited.then((code) => { clearTimeout(timer); reject(new Error(`toolout serve exited (${code}): ${err.trim()}`)); });
  });
  return { proc, url, err: () => err, exited };
}

export async function stopServe(s) {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return s.exited;
  s.proc.kill('SIGTERM');
  const timer = setTimeout(() => s.proc.kill('SIGKILL'), 5000);
  const code = await s.exited;
  clearTimeout(timer);
  return code;
}

// The ways of calling: each returns the response read as fromResponse
// does, with the output items to send back.
const WAYS = [
  { name: 'responses.create', run: async (openai, p) => {
    const r = await openai.responses.create(p);
    return { ...fromResponse(r), items: r.output, outputText: r.output_text };
  } },
  { name: 'responses.create stream:true events', run: async (openai, p) => {
    const stream = await openai.responses.create({ ...p, stream: true });
    const events = [];
    for await (const e of stream) events.push(e);
    const got = fromEvents(events);
    const items = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
    assert.deepEqual(items, events.at(-1).response.output, 'output_item.done items are response.completed\'s output');
    return { ...got, items };
  } },
  { name: 'responses.stream finalResponse', run: async (openai, p) => {
    const r = await openai.responses.stream(p).finalResponse();
    return { ...fromResponse(r), items: r.output, outputText: r.output_text };
  } },
];

// converse runs the scripted conversation one way; it returns what each
// turn got.
async function converse(way, openai) {
  const input = [{ role: 'user', content: QUESTION }];
  const params = () => ({ model: 'gpt-5', store: false, input: [...input], tools: RESPONSES_TOOLS });
  const turns = [];
  for (let turn = 1; turn <= 3; turn++) {
    const got = await way.run(openai, params());
    turns.push(got);
    input.push(...got.items);
    const fn = got.items.find((i) => i.type === 'function_call');
    const custom = got.items.find((i) => i.type === 'custom_tool_call');
    if (fn) input.push({ type: 'function_call_output', call_id: fn.call_id, output: LOG });
    if (custom) input.push({ type: 'custom_tool_call_output', call_id: custom.call_id, output: GREP });
    if (!fn && !custom) break;
  }
  return turns;
}

// serveRuns runs every way against a serve of its own, directly and
// through a gateway gateway(upstream) starts ({proc, ready: its URL},
// stopped with stopGateway), reporting through check(name, fn).
export async function serveRuns(OpenAI, toolout, check, { gateway, stopGateway }) {
  for (const via of ['direct', 'gateway']) {
    for (const way of WAYS) await serveRun(OpenAI, toolout, check, way, via === 'gateway' ? { gateway, stopGateway } : null);
  }
}

async function serveRun(OpenAI, toolout, check, way, gw) {
  const name = `serve ${way.name}${gw ? ' via gateway' : ''}`;
  const serve = startServe(toolout);
  let turns;
  let failure;
  let proxy;
  try {
    let url = await serve.url;
    if (gw) {
      proxy = gw.gateway(url.replace(/\/v1$/, ''));
      url = `${await proxy.ready}/v1`;
    }
    const openai = new OpenAI({ baseURL: url, apiKey: 'sk-test-key', maxRetries: 0, timeout: 30000 });
    turns = await converse(way, openai);
  } catch (err) {
    failure = err;
  } finally {
    if (proxy) await gw.stopGateway(proxy.proc);
  }
  const code = await Promise.race([serve.exited, new Promise((r) => setTimeout(() => r('running'), 3000))]);
  if (code === 'running') await stopServe(serve);
  check(`${name}: turn 1 is a read_log function call, turn 2 a grep_log custom tool call, turn 3 the answer`, () => {
    if (failure) throw failure;
    assert.deepEqual(turns.map((t) => t.tools), [['read_log'], ['grep_log'], []], 'calls per turn');
    const fn = turns[0].items.find((i) => i.type === 'function_call');
    assert.deepEqual(JSON.parse(fn.arguments), { job: 'nightly' }, 'read_log arguments');
    assert.ok(fn.call_id, 'function_call call_id');
    const custom = turns[1].items.find((i) => i.type === 'custom_tool_call');
    assert.equal(custom.input, 'status=FAILED', 'grep_log input');
    assert.equal(turns[2].text, ANSWER, 'answer text');
    if (turns[2].outputText !== undefined) assert.equal(turns[2].outputText, ANSWER, 'output_text');
    assert.ok(turns.every((t) => t.finish === 'completed' && t.id), 'status completed and an id on every turn');
  });
  check(`${name}: serve exited 0, every step answered as scripted`, () => {
    assert.equal(code === 'running' ? 'still running after the conversation' : code, 0, serve.err().trim());
    assert.match(serve.err().trim().split('\n').pop() || '', /every step answered as scripted$/, serve.err().trim());
  });
}

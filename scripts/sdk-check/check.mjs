// check.mjs: the official OpenAI and Anthropic Node SDKs against
// `toolout gateway serve` (issue 14, acceptance point 2).
//
// Usage, from the repository root (node 20 or later):
//
//   go build -o /tmp/toolout ./cmd/toolout
//   mkdir -p /tmp/sdk-check && cp scripts/sdk-check/package.json /tmp/sdk-check/
//   npm install --prefix /tmp/sdk-check          # the two SDKs, at the versions pinned there
//   TOOLOUT=/tmp/toolout SDK_DIR=/tmp/sdk-check node scripts/sdk-check/check.mjs
//
// Environment: TOOLOUT is the toolout binary (default `toolout` on PATH);
// SDK_DIR holds node_modules/openai and node_modules/@anthropic-ai/sdk
// (default /tmp/sdk-check); VERBOSE=1 echoes the gateway's log; STRICT=1
// counts the known gateway defects (KNOWN below) as failures.
//
// What it does: starts the scripted model of fake-model.mjs on 127.0.0.1:0;
// starts `toolout gateway serve --listen 127.0.0.1:0` in front of it (config
// in a temp file: strategy simple, 20 words, expand_context on) and reads its
// "listening on http://ADDR" line; then, through each SDK with baseURL = the
// gateway, sends a conversation whose tool result is a ~10 KB CI log with one
// "status=FAILED" line far past the 20 words the compressor keeps, in six
// ways: OpenAI chat.completions.create without and with stream: true,
// chat.completions.stream(...).finalChatCompletion(); Anthropic
// messages.create, messages.stream(...).finalMessage(), and the raw events of
// messages.create({stream: true}). Scenarios:
//   expand    the model calls expand_context on round 1 and answers from the
//             original on round 2;
//   capped    the model calls expand_context on every round: the gateway stops
//             after 5 expansions and strips the last call; with the text
//             beside it (Anthropic) the client gets that, re-streamed for a
//             stream; with nothing else (OpenAI) a 502 error the SDK raises;
//   thinking  (Anthropic) extended thinking on: answers start with a signed
//             thinking block, and the fake model enforces the API's rule that
//             the last assistant message starts with one.
// For each call it checks with node:assert that the SDK parsed the answer,
// the text says the original was seen (the gateway expanded it inside), no
// expand_context reached the SDK, the stop reason is the normal end
// (stop / end_turn), the response id, model and usage survived, and what
// the fake model received on each round. Then GET /healthz and GET /metrics
// (expansions and requests counted). One line per check; the gateway and the
// fake model are stopped at the end, also on failure or Ctrl-C. Exit 0 when
// every check passed or failed only as a KNOWN defect, else 1.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { ANTHROPIC_ID, KEEP_EXPANDING, OPENAI_ID, SEEN, startFake } from './fake-model.mjs';
import { RESPONSES_ID } from './fake-responses.mjs';
import { responsesCalls } from './responses-calls.mjs';
import { recordRuns } from './record-runs.mjs';
import { serveRuns } from './serve-runs.mjs';
import { checker } from '../lib/check.mjs';

const TOOLOUT = process.env.TOOLOUT || 'toolout';
const SDK_DIR = path.resolve(process.env.SDK_DIR || '/tmp/sdk-check');
const VERBOSE = process.env.VERBOSE === '1';
const STRICT = process.env.STRICT === '1';
const MAX_ROUNDS = 5; // gateway.MaxExpandRounds

// KNOWN lists the checks that fail because of a known gateway defect. A known
// failure prints KNOWN and does not fail the run unless STRICT=1; a known
// check that passes says so, and should be taken off this list.
const KNOWN = new Map([
  // Empty. The last entries (the Responses API's echo of the request's
  // tools, response.tools, carried the gateway's expand_context to the
  // client) pass since the gateway strips the tool from every response
  // object it answers with or relays (core/gateway: scrubbed, scrub).
]);

// ---------------------------------------------------------------- SDKs

function loadSDKs() {
  const req = createRequire(path.join(SDK_DIR, 'package.json'));
  const version = (name) => JSON.parse(fs.readFileSync(path.join(SDK_DIR, 'node_modules', name, 'package.json'), 'utf8')).version;
  try {
    return { OpenAI: req('openai').OpenAI, Anthropic: req('@anthropic-ai/sdk').Anthropic,
      versions: `openai ${version('openai')}, @anthropic-ai/sdk ${version('@anthropic-ai/sdk')}` };
  } catch (err) {
    console.error(`check.mjs: cannot load the SDKs from ${SDK_DIR}/node_modules (${err.message}); ` +
      'install them as the usage at the top of this file says');
    process.exit(2);
  }
}

// ---------------------------------------------------------------- gateway

const CONFIG = `pipes:
  tool_output:
    enabled: true
    strategy: simple
    simple_words: 20
    enable_expand_context: true
`;

// startGateway spawns `toolout gateway serve` and waits for its
// "listening on http://ADDR" line.
function startGateway(upstream, dir) {
  const cfg = path.join(dir, 'gateway.yaml');
  fs.writeFileSync(cfg, CONFIG);
  const proc = spawn(TOOLOUT, ['gateway', 'serve', '--listen', '127.0.0.1:0', '--upstream', upstream, '--config', cfg],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  const keep = (line) => {
    log.push(line);
    if (log.length > 30) log.shift();
    if (VERBOSE) console.log(`  gateway: ${line}`);
  };
  proc.stderr.setEncoding('utf8').on('data', (d) => d.split('\n').filter(Boolean).forEach(keep));
  const ready = new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('no "listening on" line within 15 s')), 15000);
    proc.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      const m = /listening on (http:\/\/[^\s,]+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.once('error', (err) => { clearTimeout(timer); reject(new Error(`spawn ${TOOLOUT}: ${err.message}`)); });
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`gateway exited (${code}): ${log.join(' | ')}`)); });
  });
  return { proc, log, ready };
}

async function stopGateway(proc) {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------- checks

const { tally, check } = checker((name) => KNOWN.get(name), STRICT);

// buildLog returns ~10 KB of CI log lines with one status=FAILED line in the
// middle, far past the first 20 words the simple compressor keeps.
function buildLog() {
  const lines = [];
  for (let i = 1; i <= 130; i++) {
    const n = String(i).padStart(4, '0');
    lines.push(`2026-03-01T02:${String(i % 60).padStart(2, '0')}:00Z job=nightly step=${n} target=//pkg/mod${i % 17}:all ` +
      `status=${i === 67 ? 'FAILED exit=2 error="undefined: frobnicate"' : 'OK'} duration=${(i % 9) + 1}.${i % 10}s`);
  }
  return lines.join('\n') + '\n';
}

const QUESTION = 'Why did the nightly build fail? Answer from the log.';
const SYSTEM = 'You are a CI assistant.';
const SCENARIOS = [
  { key: 'expand', question: QUESTION },
  { key: 'capped', question: `${QUESTION} ${KEEP_EXPANDING}` },
  { key: 'thinking', question: QUESTION, thinking: true, wires: ['anthropic'] },
  { key: 'custom', question: QUESTION, custom: true, wires: ['responses'] },
];

function openaiParams({ log, question }, extra) {
  return { model: 'gpt-4.1-mini', ...extra,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: question },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_log1', type: 'function', function: { name: 'read_log', arguments: '{"job":"nightly"}' } }] },
      { role: 'tool', tool_call_id: 'call_log1', content: log },
    ],
    tools: [{ type: 'function', function: { name: 'read_log', description: 'Read the CI log of a job.',
      parameters: { type: 'object', properties: { job: { type: 'string' } }, required: ['job'] } } }] };
}

function anthropicParams({ log, question, thinking }, extra) {
  const asked = [{ type: 'text', text: 'I will read the log.' }, { type: 'tool_use', id: 'toolu_01Log', name: 'read_log', input: { job: 'nightly' } }];
  if (thinking) asked.unshift({ type: 'thinking', thinking: 'I need the CI log.', signature: 'EqQBCkgIBhABGAIiQClientTurnSignature' });
  return { model: 'claude-sonnet-5-5', max_tokens: 2048, system: SYSTEM, ...extra,
    ...(thinking ? { thinking: { type: 'enabled', budget_tokens: 1024 } } : {}),
    messages: [
      { role: 'user', content: question },
      { role: 'assistant', content: asked },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Log', content: log }] },
    ],
    tools: [{ name: 'read_log', description: 'Read the CI log of a job.',
      input_schema: { type: 'object', properties: { job: { type: 'string' } }, required: ['job'] } }] };
}

function fromMessage(m, returned) {
  return { text: m.content.filter((b) => b.type === 'text').map((b) => b.text).join(''),
    tools: m.content.filter((b) => b.type === 'tool_use').map((b) => b.name), finish: m.stop_reason, returned,
    id: m.id, model: m.model, usage: m.usage?.output_tokens > 0, thinking: m.content[0]?.type === 'thinking' };
}

function fromCompletion(r) {
  const m = r.choices[0].message;
  return { text: m.content, tools: (m.tool_calls || []).map((c) => c.function.name), finish: r.choices[0].finish_reason,
    returned: r, id: r.id, model: r.model, usage: r.usage === undefined ? undefined : r.usage?.total_tokens > 0 };
}

// The SDK calls: each returns what the SDK gave back as {text, tools (tool
// call / tool_use names), finish, returned, id, model, usage (true when
// present, undefined when the call does not ask for it), thinking}.
const CALLS = [
  { name: 'openai chat.completions.create', wire: 'openai', stream: false,
    run: async ({ openai }, conv) => fromCompletion(await openai.chat.completions.create(openaiParams(conv, {}))) },
  { name: 'openai chat.completions.create stream:true', wire: 'openai', stream: true, run: async ({ openai }, conv) => {
    const stream = await openai.chat.completions.create(openaiParams(conv, { stream: true, stream_options: { include_usage: true } }));
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    const deltas = chunks.flatMap((c) => c.choices.map((ch) => ch.delta));
    return { text: deltas.map((d) => d.content || '').join(''), returned: chunks,
      tools: deltas.flatMap((d) => d.tool_calls || []).map((t) => t.function?.name).filter(Boolean),
      finish: chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter(Boolean).pop(),
      id: chunks[0]?.id, model: chunks[0]?.model, usage: chunks.some((c) => c.usage?.total_tokens > 0) };
  } },
  { name: 'openai chat.completions.stream finalChatCompletion', wire: 'openai', stream: true,
    run: async ({ openai }, conv) => fromCompletion(await openai.chat.completions.stream(openaiParams(conv, {})).finalChatCompletion()) },
  { name: 'anthropic messages.create', wire: 'anthropic', stream: false, run: async ({ anthropic }, conv) => {
    const r = await anthropic.messages.create(anthropicParams(conv, {}));
    return fromMessage(r, r);
  } },
  { name: 'anthropic messages.stream finalMessage', wire: 'anthropic', stream: true, run: async ({ anthropic }, conv) => {
    const r = await anthropic.messages.stream(anthropicParams(conv, {})).finalMessage();
    return fromMessage(r, r);
  } },
  { name: 'anthropic messages.create stream:true events', wire: 'anthropic', stream: true, run: async ({ anthropic }, conv) => {
    const stream = await anthropic.messages.create(anthropicParams(conv, { stream: true }));
    const events = [];
    for await (const e of stream) events.push(e);
    assert.equal(events[0]?.type, 'message_start', 'first event');
    assert.equal(events.at(-1)?.type, 'message_stop', 'last event');
    const starts = events.filter((e) => e.type === 'content_block_start').map((e) => e.content_block);
    const last = events.filter((e) => e.type === 'message_delta').pop();
    return { text: events.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'text_delta').map((e) => e.delta.text).join(''),
      tools: starts.filter((b) => b.type === 'tool_use').map((b) => b.name), finish: last?.delta.stop_reason, returned: events,
      id: events[0].message.id, model: events[0].message.model, usage: last?.usage?.output_tokens > 0, thinking: starts[0]?.type === 'thinking' };
  } },
  ...responsesCalls(SYSTEM),
];

// Per wire: the path the gateway forwards to, the normal finish, the
// response id and model the fake model answers.
const WIRES = {
  openai: { path: '/v1/chat/completions', finish: 'stop', id: OPENAI_ID, model: 'gpt-4.1-mini' },
  responses: { path: '/v1/responses', finish: 'completed', id: RESPONSES_ID, model: 'gpt-4.1-mini' },
  anthropic: { path: '/v1/messages', finish: 'end_turn', id: ANTHROPIC_ID, model: 'claude-sonnet-5-5' },
};

function upstreamSummary(calls) {
  return calls.map((c) => `round ${c.round} ${c.path} stream=${c.stream} marker=${c.marker} offered=${c.offered} ` +
    `FAILED=${c.failedSeen} -> ${c.status}${c.error ? ` (${c.error.slice(0, 90)}...)` : ''}`).join('; ');
}

// pathsOf lists where a string holding needle sits in a value (at most 5
// paths, as $.a[0].b).
function pathsOf(v, needle, at = '$', out = []) {
  if (out.length >= 5) return out;
  if (typeof v === 'string') {
    if (v.includes(needle)) out.push(at);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => pathsOf(x, needle, `${at}[${i}]`, out));
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) pathsOf(x, needle, `${at}.${k}`, out);
  }
  return out;
}

// runCall makes one SDK call of a scenario and checks what came back and
// what the fake model received.
async function runCall(call, scenario, env) {
  const name = `${call.name}${scenario.key === 'expand' ? '' : ` [${scenario.key}]`}`;
  const from = env.fake.seen.length;
  const capped = scenario.key === 'capped';
  // The fake model's OpenAI turn (chat and Responses) is the call alone:
  // stripped at the cap, nothing is left, and the gateway answers with a
  // 502 in the API's error shape (its Anthropic turn has a text block,
  // which the client gets).
  const capError = capped && call.wire !== 'anthropic';
  let got;
  try {
    got = await call.run(env, { log: env.log, ...scenario });
    check(`${name}: SDK parsed the response`, () => assert.ok(!capError, 'want the 502 of the cap, got an answer'));
  } catch (err) {
    const calls = env.fake.seen.slice(from);
    if (capError) {
      check(`${name}: the cap with nothing to answer is a 502 error the SDK raises`, () => {
        assert.equal(err.status, 502, `${err.constructor.name}: ${err.message}`);
        assert.match(err.message, /gave no answer/);
        assert.equal(calls.length, MAX_ROUNDS + 1, upstreamSummary(calls));
      });
      return;
    }
    check(`${name}: SDK parsed the response`, () => {
      throw new Error(`${err.constructor.name}: ${err.message}; upstream: ${upstreamSummary(calls)}`);
    });
    return;
  }
  const calls = env.fake.seen.slice(from);
  // A stream relays the text the model wrote before its expand_context call
  // as it comes (the Anthropic turn has one), then the answer: the answer
  // ends the text.
  const seen = (t) => (call.stream ? t?.includes(SEEN) : t?.startsWith(SEEN));
  if (!capped) check(`${name}: answer says the original was seen`, () => assert.ok(seen(got.text), `text ${JSON.stringify(got.text)}`));
  check(`${name}: no expand_context in what the SDK returned`, () => {
    assert.deepEqual(got.tools, [], 'tool calls');
    const where = pathsOf(got.returned, 'expand_context');
    assert.ok(where.length === 0, `expand_context appears in the returned value at ${where.join(', ')}`);
  });
  const wire = WIRES[call.wire];
  check(`${name}: finish reason ${wire.finish}`, () => assert.equal(got.finish, wire.finish));
  check(`${name}: id, model and usage kept`, () => {
    assert.deepEqual({ id: got.id, model: got.model }, { id: wire.id, model: wire.model });
    assert.notEqual(got.usage, false, 'usage missing');
  });
  if (scenario.thinking) check(`${name}: thinking block kept first`, () => assert.ok(got.thinking));
  const rounds = capped ? MAX_ROUNDS + 1 : 2;
  check(`${name}: upstream saw round 1 compressed, then ${rounds - 1} round(s) with the original`, () => {
    const summary = upstreamSummary(calls);
    assert.equal(calls.length, rounds, `want ${rounds} upstream calls, got: ${summary}`);
    assert.ok(calls[0].round === '1' && calls[0].marker && calls[0].offered && !calls[0].failedSeen, `round 1: ${summary}`);
    calls.slice(1).forEach((c, i) => assert.ok(c.round === String(i + 2) && c.failedSeen && c.stream === call.stream, `round ${i + 2}: ${summary}`));
    assert.ok(calls.every((c) => c.path === wire.path), summary);
    assert.ok(calls.every((c) => /test-key/.test(c.auth)), 'client credentials not forwarded');
  });
}

// parseMetrics reads the Prometheus text format into {name, labels, value}.
function parseMetrics(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] || '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

// checkServer checks /healthz, and /metrics after the expand and capped
// scenarios: each request expanded the original once; a capped one then got
// the "repeated" answer for MAX_ROUNDS - 1 more rounds.
async function checkServer(base, perWire) {
  const health = await fetch(`${base}/healthz`).then(async (r) => ({ status: r.status, body: await r.text() }));
  check('GET /healthz is "ok"', () => assert.deepEqual([health.status, health.body.trim()], [200, 'ok']));
  const samples = parseMetrics(await fetch(`${base}/metrics`).then((r) => r.text()));
  const want = (name, labels, value) => {
    const shown = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(',');
    check(`GET /metrics: ${name}{${shown}} ${value}`, () => {
      const s = samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
      assert.equal(s?.value, value);
    });
  };
  const requests = perWire.openai + perWire.anthropic + perWire.responses;
  want('toolout_gateway_expansions_total', { answer: 'original' }, 2 * requests);
  want('toolout_gateway_expansions_total', { answer: 'repeated' }, (MAX_ROUNDS - 1) * requests);
  want('toolout_gateway_expansions_total', { answer: 'not_available' }, 0);
  want('toolout_gateway_requests_total', { route: 'openai', outcome: 'ok' }, perWire.openai);
  want('toolout_gateway_requests_total', { route: 'openai', outcome: 'capped' }, perWire.openai);
  want('toolout_gateway_requests_total', { route: 'responses', outcome: 'ok' }, perWire.responses);
  want('toolout_gateway_requests_total', { route: 'responses', outcome: 'capped' }, perWire.responses);
  want('toolout_gateway_requests_total', { route: 'anthropic', outcome: 'ok' }, 2 * perWire.anthropic);
}

// ---------------------------------------------------------------- main

async function main() {
  const { OpenAI, Anthropic, versions } = loadSDKs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolout-sdk-check-'));
  let fake;
  let gw;
  const cleanup = async () => {
    await stopGateway(gw?.proc);
    if (fake) {
      fake.server.closeAllConnections();
      await new Promise((resolve) => fake.server.close(resolve));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (sig) => { console.log(`interrupted (${sig})`); cleanup().finally(() => process.exit(130)); };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  // Last resort when node exits another way (an uncaught error, EPIPE).
  process.once('exit', () => {
    gw?.proc.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const watchdog = setTimeout(() => { console.log('FAIL  the whole check took over 120 s'); cleanup().finally(() => process.exit(1)); }, 120000);
  try {
    fake = await startFake();
    gw = startGateway(fake.url, dir);
    const base = await gw.ready;
    console.log(`# ${versions}; node ${process.version}; gateway ${base}; fake model ${fake.url}`);
    const env = { fake, log: buildLog(),
      openai: new OpenAI({ baseURL: `${base}/v1`, apiKey: 'sk-test-key', maxRetries: 0, timeout: 30000 }),
      anthropic: new Anthropic({ baseURL: base, apiKey: 'sk-ant-test-key', maxRetries: 0, timeout: 30000 }) };
    for (const scenario of SCENARIOS) {
      if (scenario.key === 'thinking') {
        const count = (wire) => CALLS.filter((c) => c.wire === wire).length;
        await checkServer(base, { openai: count('openai'), anthropic: count('anthropic'), responses: count('responses') });
      }
      for (const call of CALLS.filter((c) => !scenario.wires || scenario.wires.includes(c.wire))) await runCall(call, scenario, env);
    }
    await stopGateway(gw.proc);
    // The serve runs: the SDK's Responses calls against toolout serve on a
    // bundled scenario, a serve of its own each.
    await serveRuns(OpenAI, TOOLOUT, check, { gateway: (upstream) => startGateway(upstream, dir), stopGateway });
    // The record runs: each SDK through `toolout serve --record`, then the
    // scenario it wrote tested and replayed.
    await recordRuns({ OpenAI, Anthropic }, TOOLOUT, check, dir);
  } catch (err) {
    tally.failed++;
    console.log(`FAIL  could not run: ${err.message}`);
  } finally {
    if (tally.failed > 0 && gw) console.log(`# last gateway log lines:\n${gw.log.map((l) => `#   ${l}`).join('\n')}`);
    await cleanup();
    clearTimeout(watchdog);
  }
  const summary = `${tally.ok} ok, ${tally.failed} failed, ${tally.known} known gateway defect(s)`;
  console.log(tally.failed === 0 ? `PASS (${summary})` : `FAIL (${summary})`);
  process.exitCode = tally.failed === 0 ? 0 : 1;
}

await main();

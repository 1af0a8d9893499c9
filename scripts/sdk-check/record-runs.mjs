// record-runs.mjs: `toolout serve --record` (issue 43) driven by the
// official SDKs. The "real" model is `toolout serve` of the bundled
// scenario scenarios/session/over-cap-handle.yaml (a logs__query call, then
// the answer). For each SDK and way (OpenAI chat.completions.create without
// and with stream: true; Anthropic messages.create without and with
// stream: true), a `toolout serve --record UPSTREAM` of a scenario that
// does not exist yet takes the whole conversation, whose tool result holds
// a secret; then the scenario it wrote must hold no secret (nor any file
// beside it), pass `toolout test`, and replay the same conversation through
// the same SDK against `toolout serve --exit-when-done` of it alone (no
// upstream), which exits 0 having answered every step as scripted.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { startServe, stopServe } from './serve-runs.mjs';

const UPSTREAM = 'scenarios/session/over-cap-handle.yaml';
const QUESTION = 'Count ERROR lines per host.';
const SECRET = 'sk-proj-recordcheck0123456789abcdefgh';
const RESULT = `web-1: 3 ERROR, web-2: 0 ERROR (token ${SECRET})`;
const ANSWER = 'Stored; will extract next.';
const TOOL = { name: 'logs__query', description: 'query the logs', parameters: { type: 'object', properties: { since: { type: 'string' } } } };

// The conversations: each runs the two turns through one SDK, one way,
// and returns [tools called on turn 1, the answer's text].
const WAYS = [
  { name: 'openai chat.completions.create', sdk: 'openai', stream: false },
  { name: 'openai chat.completions.create stream:true', sdk: 'openai', stream: true },
  { name: 'anthropic messages.create', sdk: 'anthropic', stream: false },
  { name: 'anthropic messages.create stream:true', sdk: 'anthropic', stream: true },
];

async function openaiTurn(client, messages, stream) {
  const p = { model: 'scripted', messages, tools: [{ type: 'function', function: TOOL }] };
  if (!stream) {
    const m = (await client.chat.completions.create(p)).choices[0].message;
    return { text: m.content || '', calls: (m.tool_calls || []).map((c) => ({ id: c.id, name: c.function.name, args: c.function.arguments })) };
  }
  const s = await client.chat.completions.create({ ...p, stream: true });
  let text = '';
  const calls = [];
  for await (const chunk of s) {
    const d = chunk.choices[0]?.delta || {};
    text += d.content || '';
    for (const tc of d.tool_calls || []) {
      calls[tc.index] ??= { id: '', name: '', args: '' };
      calls[tc.index].id += tc.id || '';
      calls[tc.index].name += tc.function?.name || '';
      calls[tc.index].args += tc.function?.arguments || '';
    }
  }
  return { text, calls };
}

async function anthropicTurn(client, messages, stream) {
  const p = { model: 'scripted', max_tokens: 512, messages,
    tools: [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters }] };
  const m = stream ? await client.messages.stream(p).finalMessage() : await client.messages.create(p);
  return { text: m.content.filter((b) => b.type === 'text').map((b) => b.text).join(''),
    calls: m.content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, args: JSON.stringify(b.input) })), raw: m.content };
}

// converse runs the two turns and returns what each got.
async function converse(way, client) {
  if (way.sdk === 'openai') {
    const messages = [{ role: 'user', content: QUESTION }];
    const first = await openaiTurn(client, messages, way.stream);
    messages.push({ role: 'assistant', content: null, tool_calls: first.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) });
    for (const c of first.calls) messages.push({ role: 'tool', tool_call_id: c.id, content: RESULT });
    return [first, await openaiTurn(client, messages, way.stream)];
  }
  const messages = [{ role: 'user', content: QUESTION }];
  const first = await anthropicTurn(client, messages, way.stream);
  messages.push({ role: 'assistant', content: first.raw });
  messages.push({ role: 'user', content: first.calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: RESULT })) });
  return [first, await anthropicTurn(client, messages, way.stream)];
}

function clientOf(way, { OpenAI, Anthropic }, url) {
  return way.sdk === 'openai'
    ? new OpenAI({ baseURL: url, apiKey: 'sk-test-key', maxRetries: 0, timeout: 30000 })
    : new Anthropic({ baseURL: url.replace(/\/v1$/, ''), apiKey: 'sk-ant-test-key', maxRetries: 0, timeout: 30000 });
}

function expectConversation(turns) {
  assert.deepEqual(turns[0].calls.map((c) => c.name), ['logs__query'], 'turn 1 calls logs__query');
  assert.deepEqual(JSON.parse(turns[0].calls[0].args), { since: '1h' }, 'its arguments');
  assert.equal(turns[1].text, ANSWER, 'turn 2 answers');
}

// recordRuns runs every way: record, check the files, test, replay.
export async function recordRuns(sdks, toolout, check, dir) {
  for (const way of WAYS) await recordRun(sdks, toolout, check, way, fs.mkdtempSync(path.join(dir, 'record-')));
}

async function recordRun(sdks, toolout, check, way, dir) {
  const name = `serve --record ${way.name}`;
  const scenario = path.join(dir, 'recorded.yaml');
  let failure;
  let turns;
  let replayed;
  const up = startServe(toolout, [UPSTREAM]);
  let rec;
  try {
    const upURL = await up.url;
    rec = startServe(toolout, ['--record', upURL, scenario], dir);
    turns = await converse(way, clientOf(way, sdks, await rec.url));
  } catch (err) {
    failure = err;
  } finally {
    if (rec) await stopServe(rec);
    await stopServe(up);
  }
  check(`${name}: the conversation goes through to the real model`, () => {
    if (failure) throw failure;
    expectConversation(turns);
  });
  check(`${name}: the scenario is written, and no file of the recording holds the secret`, () => {
    assert.ok(fs.existsSync(scenario), `${scenario} written (serve said: ${rec?.err().trim()})`);
    for (const f of fs.readdirSync(dir)) {
      assert.ok(!fs.readFileSync(path.join(dir, f), 'utf8').includes(SECRET), `${f} holds the secret`);
    }
    assert.match(fs.readFileSync(scenario, 'utf8'), /<REDACTED_API_KEY_1>/);
  });
  check(`${name}: the scenario passes toolout test`, () => {
    const r = spawnSync(toolout, ['test', 'recorded.yaml'], { cwd: dir, encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });
  const replay = startServe(toolout, ['--exit-when-done', '--deadline', '60s', 'recorded.yaml'], dir);
  try {
    replayed = await converse(way, clientOf(way, sdks, await replay.url));
    failure = undefined;
  } catch (err) {
    failure = err;
  }
  const code = await Promise.race([replay.exited, new Promise((r) => setTimeout(() => r('running'), 3000))]);
  if (code === 'running') await stopServe(replay);
  check(`${name}: toolout serve of the scenario alone replays the conversation, every step as scripted`, () => {
    if (failure) throw failure;
    expectConversation(replayed);
    assert.equal(code, 0, replay.err().trim());
  });
}

// check.mjs: real agents against `toolout serve`, directly and through
// `toolout gateway serve`, streaming and not (issues 34 and 35). See
// README.md.
//
// Usage, from the repository root (node 20 or later; `make agent-check`
// does all of it):
//
//   npm ci --prefix scripts/agent-check          # the agents, as package-lock.json pins them
//   go build -o /tmp/toolout ./cmd/toolout
//   TOOLOUT=/tmp/toolout node scripts/agent-check/check.mjs
//
// Environment: TOOLOUT is the toolout binary (default `toolout` on PATH);
// AGENT_TIMEOUT the seconds one agent run may take before its process group
// is killed (default 60); RUN a regular expression: only the runs whose
// name matches; VERBOSE=1 echoes serve's and the gateway's log lines;
// STRICT=1 counts the known defects (KNOWN below) as failures; KEEP=1 keeps
// the temp dir (Claude Code's recorded log, Codex's rollout file, the
// imported scenarios).
//
// For each run it starts `toolout serve --exit-when-done SCENARIO` (and,
// for "gateway", `toolout gateway serve --upstream SERVE` in front of it),
// runs the agent to its end, and checks that the agent answered as the
// scenario scripts and that serve saw every step answered and nothing
// else. The direct runs go through a recording proxy (lib/record.mjs);
// Claude Code's Anthropic log (responses as the SSE text) and the rollout
// file Codex wrote are then imported with `toolout import` and each
// imported scenario run with `CI=true toolout test`. One line per check; everything started is
// stopped at the end, on failure and on Ctrl-C. Exit 0 when every check
// passed or failed only as a KNOWN defect, 1 on any other failure, 2 when
// the agents are not installed, 130 when interrupted.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { runBounded, startGateway, startServe, stop, stopAll } from './lib/procs.mjs';
import { describe, startRecorder } from './lib/record.mjs';
import { codexRun, rollouts } from './agents/codex.mjs';
import { checker } from '../lib/check.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const TOOLOUT = process.env.TOOLOUT || 'toolout';
const TIMEOUT_MS = Number(process.env.AGENT_TIMEOUT || 60) * 1000;
const ONLY = process.env.RUN ? new RegExp(process.env.RUN) : null;
const VERBOSE = process.env.VERBOSE === '1';
const STRICT = process.env.STRICT === '1';
const KEEP = process.env.KEEP === '1';
const MODULES = path.join(HERE, 'node_modules');
const CLAUDE = path.join(MODULES, '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
const CODEX = path.join(MODULES, '@openai', 'codex', 'bin', 'codex.js');

// KNOWN lists the checks that fail because of a known defect (each a
// pattern over check names and the defect, printed in brackets). A known
// failure prints KNOWN and does not fail the run unless STRICT=1; a known
// check that passes says so, and should be taken off the list.
const KNOWN = [
  // none: the defects this check found are fixed (see README.md)
];
const knownDefect = (name) => KNOWN.find(([re]) => re.test(name))?.[1];

// ---------------------------------------------------------------- checks

const { tally, check } = checker(knownDefect, STRICT, 600);

// lastLine is the last non-empty line of a process's stderr.
const lastLine = (s) => s.trim().split('\n').pop() || '';

// report is serve's report at exit: its stderr without the --verbose line
// of each request.
const report = (s) => s.split('\n').filter((l) => l && !/^toolout serve: \S+: (POST|GET) /.test(l)).join('\n');

// ---------------------------------------------------------------- agents

function version(name) {
  return JSON.parse(fs.readFileSync(path.join(MODULES, name, 'package.json'), 'utf8')).version;
}

function versions() {
  try {
    const names = ['@anthropic-ai/claude-code', '@openai/codex', '@openai/agents', 'ai', '@ai-sdk/openai', '@ai-sdk/anthropic', 'openai'];
    const v = names.map((n) => `${n} ${version(n)}`).join(', ');
    fs.accessSync(CLAUDE, fs.constants.X_OK);
    fs.accessSync(CODEX, fs.constants.R_OK);
    return v;
  } catch (err) {
    console.error(`check.mjs: the agents are not installed in ${MODULES} (${err.message}); ` +
      'run: make agent-check (or npm ci --prefix scripts/agent-check)');
    process.exit(2);
  }
}

const CLAUDE_PROMPT = 'How many build steps are there? Use bash.';

// claudeEnv is all Claude Code gets: no key of the user's, a HOME of its own,
// nothing it needs not sent.
function claudeEnv(baseURL, home) {
  return {
    PATH: process.env.PATH, HOME: home, TMPDIR: home, LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: baseURL, ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
  };
}

const node = (script, ...args) => ({ cmd: process.execPath, args: [path.join(HERE, 'agents', script), ...args], cwd: HERE });

// The runs: each agent on its scenario; url is serve's (or the gateway's)
// root, without /v1.
const AGENTS = [
  ...[false, true].map((stream) => ({
    agent: `openai-agents${stream ? ' stream' : ''}`,
    scenario: 'scenarios/session/over-cap-handle.yaml',
    exec: (url) => node('openai-agents.mjs', `${url}/v1`, ...(stream ? ['--stream'] : [])),
    expect: (out) => assert.equal(out, 'tool: logs__query {"since":"1h"}\nanswer: Stored; will extract next.\n'),
  })),
  ...['openai', 'anthropic'].flatMap((provider) => [false, true].map((stream) => ({
    agent: `vercel-ai ${provider} ${stream ? 'streamText' : 'generateText'}`,
    scenario: 'scenarios/session/parallel-results-in-order.yaml',
    exec: (url) => node('vercel.mjs', url, provider, ...(stream ? ['--stream'] : [])),
    expect: (out) => assert.deepEqual(out.split('\n').sort(), ['', 'answer: ok', 'tool: logs__query', 'tool: status']),
  }))),
  {
    agent: 'claude-code',
    scenario: 'scenarios/session/bash-command.yaml',
    claude: true,
    exec: (url, tmp) => {
      const home = fs.mkdtempSync(path.join(tmp, 'home-'));
      const work = fs.mkdtempSync(path.join(tmp, 'work-'));
      return { cmd: CLAUDE, args: ['-p', CLAUDE_PROMPT, '--allowedTools', 'Bash'], cwd: work, env: claudeEnv(url, home) };
    },
    expect: (out) => assert.equal(out.trim(), 'There are 3 build steps.'),
  },
  {
    agent: 'codex',
    scenario: 'scenarios/responses/shell-command.yaml',
    codex: true,
    exec: (url, tmp) => codexRun(CODEX, url, tmp),
    expect: (out) => assert.equal(out.trim(), 'There are 3 build steps.'),
  },
];

// run runs one agent against serve (via "direct" or "gateway"), with the
// recorder in front when record is set; it returns the recorder and what
// the agent's exec gave (Codex's CODEX_HOME).
async function run(a, via, tmp, record) {
  const name = `${a.agent} ${via}`;
  // serve ends by itself past the agent's time, whatever happens here.
  const deadline = `${Math.ceil(TIMEOUT_MS / 1000) + 10}s`;
  const serve = await startServe(TOOLOUT, REPO, a.scenario, { verbose: VERBOSE, extra: ['--deadline', deadline] });
  const root = serve.url.replace(/\/v1$/, '');
  let gateway;
  let rec;
  let res;
  let ran;
  const capture = via === 'gateway' ? fs.mkdtempSync(path.join(tmp, `capture-${a.agent.replace(/[^A-Za-z0-9]+/g, '-')}-`)) : undefined;
  try {
    let url = root;
    if (via === 'gateway') url = (gateway = await startGateway(TOOLOUT, tmp, root, { verbose: VERBOSE, capture })).url;
    if (record) url = (rec = await startRecorder(url)).url;
    ran = a.exec(url, tmp);
    const { cmd, args, cwd, env } = ran;
    res = await runBounded(cmd, args, { cwd, env, timeoutMs: TIMEOUT_MS });
    // serve ends by itself once every step has answered (--exit-when-done);
    // after an agent that answered, give it a moment; then stop it for its
    // report.
    if (res.code === 0) await Promise.race([serve.exited, new Promise((r) => setTimeout(r, 3000))]);
  } finally {
    if (rec) await rec.close();
    if (gateway) await stop(gateway);
  }
  const served = await stop(serve);
  console.log(`#     ${name}: ${(res.ms / 1000).toFixed(1)} s`);
  check(`${name}: the agent answered as scripted`, () => {
    assert.ok(!res.timedOut, `killed after ${TIMEOUT_MS / 1000} s`);
    assert.equal(res.code, 0, `exit ${res.code}: ${res.err.trim() || res.out.trim()}`);
    a.expect(res.out);
  });
  check(`${name}: serve answered every step as scripted, nothing else`, () => {
    assert.equal(served.code, 0, report(serve.err()));
    assert.match(lastLine(serve.err()), /every step answered as scripted$/, report(serve.err()));
  });
  return { rec, ran, capture };
}

// claudeLog checks what Claude Code sent through the recorder, prints it,
// and writes its Anthropic log.
function claudeLog(rec, tmp) {
  check('claude-code direct: 2 Messages calls recorded, streamed, Bash output in the second', () => {
    const calls = rec.calls.filter((c) => c.path === '/v1/messages');
    assert.equal(calls.length, 2, `${calls.length} call(s)`);
    assert.ok(calls.every((c) => c.request.stream === true && typeof c.response === 'string'), 'every call streamed');
    const last = calls[1].request.messages.at(-1);
    const result = JSON.stringify(last.content);
    assert.match(result, /build step 1\\nbuild step 2\\nbuild step 3/, `last message: ${result.slice(0, 300)}`);
  });
  const log = path.join(tmp, 'claude-code-bash.jsonl');
  fs.writeFileSync(log, rec.log());
  return log;
}

// codexLog checks what Codex sent through the recorder: two streamed
// Responses calls, the second holding the shell command's output.
function codexLog(rec) {
  check('codex direct: 2 Responses calls recorded, streamed, the command\'s output in the second', () => {
    const calls = rec.calls.filter((c) => c.path === '/v1/responses');
    assert.equal(calls.length, 2, `${calls.length} call(s) to /v1/responses of ${rec.seen.length} request(s)`);
    assert.ok(calls.every((c) => c.request.stream === true && typeof c.response === 'string'), 'every call streamed');
    const outputs = (calls[1].request.input || []).filter((i) => i.type === 'function_call_output');
    assert.equal(outputs.length, 1, 'function_call_output items in the second call');
    assert.match(String(outputs[0].output), /build step 1\nbuild step 2\nbuild step 3/, `output: ${JSON.stringify(outputs[0].output)}`);
  });
}

// importLog imports a recorded log (or Codex's rollout file) as the
// scenario scenarios/regress/NAME.yaml and runs it; agent names the checks.
async function importLog(agent, what, log, name, tmp, args = ['--max-bytes', '32'], { gateway = false } = {}) {
  const dir = fs.mkdtempSync(path.join(tmp, 'import-'));
  const scenario = `scenarios/regress/${name}.yaml`;
  // A gateway's capture also imports as a gateway scenario: the requests
  // through the gateway, the model scripted round by round.
  const scenarios = gateway ? [scenario, `scenarios/regress/${name}-gateway.yaml`] : [scenario];
  const opts = { cwd: dir, timeoutMs: TIMEOUT_MS, env: { ...process.env, CI: 'true' } };
  // 32: the scenario's command output (Claude Code's Bash, 38 bytes;
  // Codex's exec_command, about 130) is the import point.
  const imp = await runBounded(TOOLOUT, ['import', log, ...args, '-o', scenario, '--update'],
    { ...opts, env: process.env });
  for (const line of imp.out.trim().split('\n').filter(Boolean)) console.log(`#     import: ${line}`);
  check(`${agent} import: ${what} imports, its ${gateway ? 'session and gateway scenarios pass' : 'scenario passes'} on the first run`, () => {
    assert.equal(imp.code, 0, `exit ${imp.code}: ${(imp.err + imp.out).trim()}`);
    assert.match(imp.out, new RegExp(`^ok {3}regress/${name}$`, 'm'), imp.out);
    if (gateway) assert.match(imp.out, new RegExp(`^ok {3}regress/${name}-gateway$`, 'm'), imp.out);
  });
  const again = await runBounded(TOOLOUT, ['test', ...scenarios], opts);
  check(`${agent} import: CI=true toolout test ${scenarios.join(' ')} passes against the golden it wrote`, () => {
    assert.equal(again.code, 0, `exit ${again.code}: ${(again.err + again.out).trim()}`);
    assert.match(again.out, new RegExp(`${scenarios.length} passed, 0 failed`), again.out);
  });
}

// ---------------------------------------------------------------- main

async function main() {
  const t0 = Date.now();
  console.log(`# ${versions()}; node ${process.version}; toolout ${TOOLOUT}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-check-'));
  if (KEEP) console.log(`# KEEP=1: the recorded log and the imported scenario stay in ${tmp}`);
  else cleanup.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
  for (const a of AGENTS) {
    for (const via of ['direct', 'gateway']) {
      if (ONLY && !ONLY.test(`${a.agent} ${via}`)) continue;
      let got;
      try {
        got = await run(a, via, tmp, via === 'direct');
      } catch (err) {
        // serve or the gateway did not start (a scenario it cannot load).
        check(`${a.agent} ${via}: the agent answered as scripted`, () => { throw err; });
        continue;
      }
      const { rec, ran, capture } = got;
      if (capture) {
        // The gateway's capture (issue 43): one file for the agent's one
        // conversation, which imports (--final: the conversation replayed
        // to its answer) as a scenario that passes.
        const files = fs.readdirSync(capture).filter((f) => f.startsWith('capture-'));
        check(`${a.agent} gateway: the capture wrote one file, for the one conversation`, () => assert.deepEqual(files.length, 1, files.join(', ')));
        if (files.length === 1) await importLog(a.agent, 'the gateway\'s capture', path.join(capture, files[0]), `${a.agent.replace(/[^A-Za-z0-9]+/g, '-')}-capture`, tmp, ['--final'], { gateway: true });
      }
      if (rec) for (const line of describe(rec.seen)) console.log(`#     ${a.agent} sent ${line}`);
      if (rec && a.claude) await importLog('claude-code', 'the recorded log (SSE responses)', claudeLog(rec, tmp), 'claude-code-bash', tmp);
      if (rec && a.codex) {
        codexLog(rec);
        const files = rollouts(ran.codexHome);
        check('codex direct: Codex wrote one rollout file', () => assert.equal(files.length, 1, `${files.length} under ${ran.codexHome}/sessions`));
        if (files.length === 1) await importLog('codex', 'its rollout file', files[0], 'codex-shell', tmp);
        const log = path.join(tmp, 'codex-responses.jsonl');
        fs.writeFileSync(log, rec.log('/v1/responses'));
        await importLog('codex', 'the recorded Responses log (SSE responses)', log, 'codex-shell-log', tmp);
      }
    }
  }
  const known = tally.known ? `, ${tally.known} known defect(s)` : '';
  console.log(`${tally.failed ? 'FAIL' : 'PASS'} (${tally.ok} ok, ${tally.failed} failed${known}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return tally.failed ? 1 : 0;
}

const cleanup = [];
async function finish(code) {
  await stopAll();
  for (const fn of cleanup.splice(0)) fn();
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { console.log(`interrupted (${sig})`); finish(130); });
main().then(finish, (err) => { console.error(`check.mjs: ${err.stack || err}`); finish(1); });

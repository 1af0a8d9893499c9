// procs.mjs: the processes agent-check starts (toolout serve, toolout
// gateway serve, each agent), each in a process group of its own so that
// stopping it also stops what it started (Claude Code's Bash), every one
// tracked so that stopAll ends them on any exit path.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const live = new Set();

// start spawns cmd in its own process group, keeps its output, and returns
// {proc, out(), err(), exited}: exited resolves to {code, signal} once it has
// ended.
export function start(cmd, args, { cwd, env, onErr } = {}) {
  const proc = spawn(cmd, args, { cwd, env: env || process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  live.add(proc);
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
  proc.stderr.setEncoding('utf8').on('data', (d) => {
    err += d;
    if (onErr) d.split('\n').filter(Boolean).forEach(onErr);
  });
  const exited = new Promise((resolve) => {
    proc.once('error', (e) => { err += `spawn ${cmd}: ${e.message}\n`; live.delete(proc); resolve({ code: -1, signal: null }); });
    proc.once('close', (code, signal) => { live.delete(proc); resolve({ code, signal }); });
  });
  return { proc, out: () => out, err: () => err, exited };
}

// kill signals the process's whole group.
function kill(proc, sig) {
  try {
    process.kill(-proc.pid, sig);
  } catch {
    // already gone
  }
}

// stop sends SIGTERM to a started process's group, SIGKILL after graceMs,
// and resolves once it has ended.
export async function stop(p, graceMs = 5000) {
  if (p.proc.exitCode !== null || p.proc.signalCode !== null || !live.has(p.proc)) return p.exited;
  kill(p.proc, 'SIGTERM');
  const timer = setTimeout(() => kill(p.proc, 'SIGKILL'), graceMs);
  const res = await p.exited;
  clearTimeout(timer);
  return res;
}

// stopAll stops every process still running, at once.
export async function stopAll() {
  await Promise.all([...live].map((proc) => stop({ proc, exited: new Promise((r) => proc.once('close', r)) })));
}

// runBounded runs cmd to its end, killing its group after timeoutMs.
// It resolves to {code, signal, out, err, timedOut, ms}.
export async function runBounded(cmd, args, { timeoutMs, ...opts }) {
  const t0 = Date.now();
  const p = start(cmd, args, opts);
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; kill(p.proc, 'SIGKILL'); }, timeoutMs);
  const { code, signal } = await p.exited;
  clearTimeout(timer);
  return { code, signal, out: p.out(), err: p.err(), timedOut, ms: Date.now() - t0 };
}

// waitFor resolves to the first match of re in what get() returns, or
// rejects after timeoutMs or once the process has ended without it.
export function waitFor(p, get, re, what, timeoutMs = 15000) {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (fn, v) => { if (!done) { done = true; clearInterval(poll); clearTimeout(timer); fn(v); } };
    const look = () => { const m = re.exec(get()); if (m) finish(resolve, m[1]); };
    const poll = setInterval(look, 20);
    const timer = setTimeout(() => finish(reject, new Error(`no ${what} within ${timeoutMs / 1000} s: ${p.err().trim()}`)), timeoutMs);
    p.exited.then(({ code }) => { look(); finish(reject, new Error(`exited (${code}) before ${what}: ${p.err().trim()}`)); });
  });
}

// startServe starts `toolout serve --exit-when-done SCENARIO` and resolves
// to the process with its base URL (with /v1).
export async function startServe(toolout, repo, scenario, { verbose, extra = [] } = {}) {
  const p = start(toolout, ['serve', '--exit-when-done', '--verbose', ...extra, scenario],
    { cwd: repo, onErr: verbose ? (l) => console.log(`  serve: ${l}`) : undefined });
  p.url = await waitFor(p, p.out, /^(http:\/\/\S+)\n/, 'base URL from toolout serve');
  return p;
}

// GATEWAY_CONFIG turns compression and expand_context on, as a deployment
// would, and leaves Bash results alone (skip_tools): every tool result of
// the bundled scenarios passes through (under min_bytes, or Bash), so each
// request reaches serve as the agent sent it.
export const GATEWAY_CONFIG = `pipes:
  tool_output:
    enabled: true
    strategy: simple
    enable_expand_context: true
    skip_tools: [bash]
`;

// startGateway starts `toolout gateway serve` in front of upstream, with
// its capture writing to the folder capture when given, and resolves to
// the process with its URL (no /v1).
export async function startGateway(toolout, dir, upstream, { verbose, capture } = {}) {
  const cfg = path.join(dir, 'gateway.yaml');
  fs.writeFileSync(cfg, GATEWAY_CONFIG + (capture ? `capture: {dir: ${JSON.stringify(capture)}}\n` : ''));
  const p = start(toolout, ['gateway', 'serve', '--listen', '127.0.0.1:0', '--upstream', upstream, '--config', cfg],
    { onErr: verbose ? (l) => console.log(`  gateway: ${l}`) : undefined });
  p.url = await waitFor(p, p.out, /listening on (http:\/\/[^\s,]+)/, '"listening on" line from the gateway');
  return p;
}

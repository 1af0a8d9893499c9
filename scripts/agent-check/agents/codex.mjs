// codex.mjs: how agent-check runs OpenAI's Codex CLI (`@openai/codex`, the
// platform binary its npm package ships, started by the package's own
// bin/codex.js) against a model server on the Responses wire.
//
// Each run gets a HOME and CODEX_HOME of its own in the check's temp dir,
// holding only a config.toml that names a custom provider whose base URL is
// serve's, the gateway's or the recorder's (wire_api = "responses", the only
// wire Codex 0.171.0 accepts), with its key in TOOLOUT_CODEX_KEY. Plugins
// and analytics are off: with them on, Codex resolves github.com,
// api.github.com, chatgpt.com and ab.chatgpt.com at start (seen with
// strace); with them off it connects to 127.0.0.1 only.
// `codex exec` prints the final answer alone on stdout, its log on stderr.

import fs from 'node:fs';
import path from 'node:path';

export const CODEX_PROMPT = 'How many build steps are there? Use the shell.';

// codexConfig is the config.toml of one run: baseURL is the server's root
// (no /v1).
export function codexConfig(baseURL) {
  return `model = "toolout-scripted"
model_provider = "toolout"
check_for_update_on_startup = false

[model_providers.toolout]
name = "toolout"
base_url = "${baseURL}/v1"
env_key = "TOOLOUT_CODEX_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[features]
plugins = false

[analytics]
enabled = false
`;
}

// codexRun returns the command of one run: node, the package's launcher,
// `exec` with the flags a scripted run needs, and the environment Codex
// gets (nothing of the user's but PATH and LANG). Its CODEX_HOME stays in
// home/.codex, where Codex writes its rollout file (sessions/...).
export function codexRun(launcher, baseURL, tmp) {
  const home = fs.mkdtempSync(path.join(tmp, 'codex-home-'));
  const work = fs.mkdtempSync(path.join(tmp, 'codex-work-'));
  const codexHome = path.join(home, '.codex');
  fs.mkdirSync(codexHome);
  fs.writeFileSync(path.join(codexHome, 'config.toml'), codexConfig(baseURL));
  return {
    cmd: process.execPath,
    // --skip-git-repo-check: the work dir is an empty temp dir, not a
    // repository; the sandbox is bypassed as the command must really run
    // here (Codex's own sandbox needs namespaces a container may not give).
    args: [launcher, 'exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--color', 'never', CODEX_PROMPT],
    cwd: work,
    env: { PATH: process.env.PATH, LANG: 'C.UTF-8', HOME: home, CODEX_HOME: codexHome, TMPDIR: home, TOOLOUT_CODEX_KEY: 'sk-toolout-dummy' },
    codexHome,
  };
}

// rollouts lists the rollout files Codex wrote under codexHome
// (sessions/YYYY/MM/DD/rollout-*.jsonl).
export function rollouts(codexHome) {
  const dir = path.join(codexHome, 'sessions');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .filter((f) => /(^|\/)rollout-[^/]*\.jsonl$/.test(f))
    .map((f) => path.join(dir, f))
    .sort();
}

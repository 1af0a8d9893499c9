// openai-agents.mjs: an agent on the OpenAI Agents SDK (@openai/agents),
// pointed at toolout serve (or the gateway in front of it), for
// scenarios/session/over-cap-handle.yaml: the question, one tool
// (logs__query, 60 log lines), the model's call, its result, the answer.
//
// Usage: node agents/openai-agents.mjs BASE_URL [--stream]
//   BASE_URL  the OpenAI base URL, with /v1 (http://127.0.0.1:PORT/v1)
//   --stream  run the agent streamed (run(..., {stream: true})), reading
//             every event, rather than one response a turn
//
// The SDK talks Chat Completions (setOpenAIAPI('chat_completions'): serve
// has no Responses API), tracing off (it would post to api.openai.com),
// retries off. Prints "tool: NAME ARGS" for each call it ran and
// "answer: TEXT" at the end; exit 0 when it answered, 1 on an API or SDK
// error (the message on stderr), 2 on bad usage.

import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

const [baseURL, ...flags] = process.argv.slice(2);
if (!baseURL || flags.some((f) => f !== '--stream')) {
  console.error('usage: node agents/openai-agents.mjs BASE_URL [--stream]');
  process.exit(2);
}
const stream = flags.includes('--stream');

setDefaultOpenAIClient(new OpenAI({ baseURL, apiKey: 'dummy', maxRetries: 0, timeout: 30_000 }));
setOpenAIAPI('chat_completions');
setTracingDisabled(true);

// The scenario's tool: the same 60 lines its input generates.
const logsQuery = tool({
  name: 'logs__query',
  description: 'Query the service logs.',
  parameters: z.object({ since: z.string() }),
  execute: async (args) => {
    console.log(`tool: logs__query ${JSON.stringify(args)}`);
    const lines = [];
    for (let i = 0; i < 60; i++) lines.push(`ts=${i} host=web-${i % 3} level=${i % 7 === 0 ? 'ERROR' : 'INFO'}`);
    return lines.join('\n');
  },
});

const agent = new Agent({
  name: 'logs',
  instructions: 'You answer questions about the service logs.',
  model: 'gpt-4.1-mini',
  tools: [logsQuery],
});

try {
  const result = await run(agent, 'Count ERROR lines per host.', { stream, maxTurns: 5 });
  if (stream) {
    for await (const _event of result) { /* read every event, as a UI would */ }
    await result.completed;
  }
  console.log(`answer: ${result.finalOutput}`);
} catch (err) {
  console.error(`openai-agents.mjs: ${err.message}`);
  process.exit(1);
}

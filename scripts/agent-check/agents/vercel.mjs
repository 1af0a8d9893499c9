// vercel.mjs: an agent on the Vercel AI SDK (ai, @ai-sdk/openai,
// @ai-sdk/anthropic), pointed at toolout serve (or the gateway in front of
// it), for scenarios/session/parallel-results-in-order.yaml: the question,
// two tools (status, logs__query), the model calls both in one turn, their
// results, the answer.
//
// Usage: node agents/vercel.mjs BASE_URL openai|anthropic [--stream]
//   BASE_URL   the server's root, without /v1 (http://127.0.0.1:PORT)
//   openai     createOpenAI(...).chat: Chat Completions (serve has no
//              Responses API, the provider's default)
//   anthropic  createAnthropic(...): Messages
//   --stream   streamText, reading fullStream; else generateText
//
// Retries off; stopWhen: isStepCount(5) lets the SDK run the tools and
// send their results. Prints "tool: NAME" for each call it ran and
// "answer: TEXT" at the end; exit 0 when it answered, 1 on an API or SDK
// error (on stderr), 2 on bad usage.

import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

const [root, provider, ...flags] = process.argv.slice(2);
if (!root || !['openai', 'anthropic'].includes(provider) || flags.some((f) => f !== '--stream')) {
  console.error('usage: node agents/vercel.mjs BASE_URL openai|anthropic [--stream]');
  process.exit(2);
}
const stream = flags.includes('--stream');
const baseURL = `${root}/v1`;
const model = provider === 'openai'
  ? createOpenAI({ baseURL, apiKey: 'dummy' }).chat('gpt-4.1-mini')
  : createAnthropic({ baseURL, apiKey: 'dummy' })('claude-sonnet-4-5');

// The scenario's tools, answering what its input gives them.
const tools = {
  status: tool({
    description: 'The service status.',
    inputSchema: z.object({}),
    execute: async () => {
      console.log('tool: status');
      return 'all green';
    },
  }),
  logs__query: tool({
    description: 'Query the service logs.',
    inputSchema: z.object({}),
    execute: async () => {
      console.log('tool: logs__query');
      const lines = [];
      for (let i = 0; i < 60; i++) lines.push(`ts=${i} host=web-${i % 3} level=${i % 7 === 0 ? 'ERROR' : 'INFO'}`);
      return lines.join('\n');
    },
  }),
};

const params = { model, prompt: 'Both.', tools, stopWhen: stepCountIs(5), maxRetries: 0, timeout: 30_000 };
try {
  let text;
  if (stream) {
    let failure;
    const result = streamText({ ...params, onError: ({ error }) => { failure = error; } });
    for await (const _part of result.fullStream) { /* read every part, as a UI would */ }
    if (failure) throw failure;
    text = await result.text;
  } else {
    text = (await generateText(params)).text;
  }
  console.log(`answer: ${text}`);
} catch (err) {
  console.error(`vercel.mjs: ${err.message}`);
  process.exit(1);
}

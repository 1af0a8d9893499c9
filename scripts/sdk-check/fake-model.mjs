// fake-model.mjs: the scripted model upstream of check.mjs. One node http
// server on 127.0.0.1:0 speaks POST /v1/chat/completions (OpenAI),
// POST /v1/responses (the OpenAI Responses API, fake-responses.mjs) and
// POST /v1/messages (Anthropic), streaming or not, in each API's own shape:
// OpenAI `data:` chunks ending with `data: [DONE]` (and the usage chunk
// when stream_options.include_usage is set); Anthropic `event:`/`data:`
// pairs from message_start to message_stop, with a ping after the first
// block starts and a first input_json_delta with an empty partial_json. A
// JSON answer is gzipped when the request accepts gzip, as the real APIs'
// front ends do.
//
// Script:
//   - round "1" (header X-Toolout-Gateway-Round) and a tool result that
//     starts with <<<SHADOW:shadow_...>>>: an expand_context call for that
//     shadow id (OpenAI tool_calls, finish "tool_calls"; Responses a
//     function_call item; Anthropic a short text block then a tool_use
//     block, stop "tool_use"); a Responses request's tool results are its
//     *_call_output items (function_call_output, custom_tool_call_output);
//   - the same on every round when the request holds KEEP_EXPANDING (the
//     capped scenario);
//   - otherwise text: "ORIGINAL_SEEN: ..." when the request holds
//     "status=FAILED" (only the original log does), else "ORIGINAL_NOT_SEEN".
//   - Anthropic with "thinking" enabled: every answer starts with a thinking
//     block (signed), and a request whose last assistant message does not
//     start with a thinking block gets the 400 the API documents
//     ("Expected `thinking` or `redacted_thinking`, but found ...").
// Every request is recorded in `seen` for the checks.

import http from 'node:http';
import zlib from 'node:zlib';

import { responsesBody, responsesOffered, responsesOutputs, responsesStream } from './fake-responses.mjs';

export const MARKER = /^<<<SHADOW:(shadow_[0-9a-f]+)>>>/;
export const FAILED = 'status=FAILED';
export const SEEN = 'ORIGINAL_SEEN';
export const KEEP_EXPANDING = '[fake model: keep calling expand_context]';
export const OPENAI_ID = 'chatcmpl-fake1';
export const ANTHROPIC_ID = 'msg_01Fake';

const USAGE_OPENAI = { prompt_tokens: 812, completion_tokens: 19, total_tokens: 831 };
const THINKING = { type: 'thinking', thinking: 'The log I was given is compressed; the failing step may be cut.',
  signature: 'EqQBCkgIBhABGAIiQFakeSignatureForTheSdkCheckOnly' };

// toolResults returns the text of every tool result in a request body of
// either wire format.
function toolResults(body) {
  const text = (c) => typeof c === 'string' ? c
    : Array.isArray(c) ? c.filter((p) => p && p.type === 'text').map((p) => p.text).join('\n') : '';
  const out = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (m.role === 'tool') out.push(text(m.content));
    if (Array.isArray(m.content)) {
      for (const b of m.content) if (b && b.type === 'tool_result') out.push(text(b.content));
    }
  }
  return out;
}

function offered(body) {
  return (body.tools || []).some((t) => t.name === 'expand_context' || t.function?.name === 'expand_context');
}

// thinkingError is the API's 400 for a thinking request whose last
// assistant message does not start with a thinking block, or null.
function thinkingError(body) {
  if (!body.thinking || body.thinking.type === 'disabled') return null;
  const msgs = body.messages || [];
  const i = msgs.findLastIndex((m) => m.role === 'assistant');
  const first = i < 0 || !Array.isArray(msgs[i].content) ? null : msgs[i].content[0]?.type;
  if (i < 0 || first === 'thinking' || first === 'redacted_thinking') return null;
  return { type: 'error', error: { type: 'invalid_request_error', message: `messages.${i}.content.0.type: Expected \`thinking\` or ` +
    `\`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a ` +
    'thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking ' +
    'blocks from previous turns. To avoid this requirement, disable `thinking`.' } };
}

// pieces cuts s into n parts, as a model streams tokens.
function pieces(s, n) {
  const size = Math.max(1, Math.ceil(s.length / n));
  const out = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

const sse = (data, event) => (event ? `event: ${event}\n` : '') + `data: ${JSON.stringify(data)}\n\n`;

function openaiBody(model, shadow, text) {
  const message = shadow
    ? { role: 'assistant', content: null, refusal: null, annotations: [],
      tool_calls: [{ id: 'call_exp1', type: 'function', function: { name: 'expand_context', arguments: JSON.stringify({ shadow_id: shadow }) } }] }
    : { role: 'assistant', content: text, refusal: null, annotations: [] };
  return { id: OPENAI_ID, object: 'chat.completion', created: 1767225600, model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: shadow ? 'tool_calls' : 'stop' }],
    usage: { ...USAGE_OPENAI, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } },
    service_tier: 'default', system_fingerprint: 'fp_fake' };
}

function openaiStream(model, shadow, text, withUsage) {
  const base = { id: OPENAI_ID, object: 'chat.completion.chunk', created: 1767225600, model, service_tier: 'default',
    system_fingerprint: 'fp_fake', ...(withUsage ? { usage: null } : {}) };
  const chunk = (delta, finish = null) => sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  let out = '';
  if (shadow) {
    out += chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_exp1', type: 'function',
      function: { name: 'expand_context', arguments: '' } }], refusal: null });
    for (const p of pieces(JSON.stringify({ shadow_id: shadow }), 4)) out += chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] });
    out += chunk({}, 'tool_calls');
  } else {
    out += chunk({ role: 'assistant', content: '', refusal: null });
    for (const p of pieces(text, 5)) out += chunk({ content: p });
    out += chunk({}, 'stop');
  }
  if (withUsage) out += sse({ ...base, choices: [], usage: USAGE_OPENAI });
  return out + 'data: [DONE]\n\n';
}

function anthropicBody(model, shadow, text, thinking) {
  const content = shadow
    ? [{ type: 'text', text: 'Let me read the whole log.' },
      { type: 'tool_use', id: 'toolu_01Exp', name: 'expand_context', input: { shadow_id: shadow } }]
    : [{ type: 'text', text }];
  if (thinking) content.unshift({ ...THINKING });
  return { id: ANTHROPIC_ID, type: 'message', role: 'assistant', model, content,
    stop_reason: shadow ? 'tool_use' : 'end_turn', stop_sequence: null,
    usage: { input_tokens: 812, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 19, service_tier: 'standard' } };
}

function blockEvents(block, index) {
  const starts = { text: { type: 'text', text: '' }, thinking: { type: 'thinking', thinking: '', signature: '' },
    tool_use: { ...block, input: {} } };
  let deltas;
  if (block.type === 'text') deltas = pieces(block.text, 4).map((t) => ({ type: 'text_delta', text: t }));
  if (block.type === 'thinking') {
    deltas = [...pieces(block.thinking, 2).map((t) => ({ type: 'thinking_delta', thinking: t })),
      { type: 'signature_delta', signature: block.signature }];
  }
  if (block.type === 'tool_use') {
    deltas = ['', ...pieces(JSON.stringify(block.input), 3)].map((p) => ({ type: 'input_json_delta', partial_json: p }));
  }
  let out = sse({ type: 'content_block_start', index, content_block: starts[block.type] }, 'content_block_start');
  if (index === 0) out += sse({ type: 'ping' }, 'ping');
  for (const delta of deltas) out += sse({ type: 'content_block_delta', index, delta }, 'content_block_delta');
  return out + sse({ type: 'content_block_stop', index }, 'content_block_stop');
}

function anthropicStream(model, shadow, text, thinking) {
  const msg = anthropicBody(model, shadow, text, thinking);
  let out = sse({ type: 'message_start', message: { ...msg, content: [], stop_reason: null, stop_sequence: null,
    usage: { ...msg.usage, output_tokens: 1 } } }, 'message_start');
  msg.content.forEach((block, index) => { out += blockEvents(block, index); });
  out += sse({ type: 'message_delta', delta: { stop_reason: msg.stop_reason, stop_sequence: null }, usage: { output_tokens: 19 } }, 'message_delta');
  return out + sse({ type: 'message_stop' }, 'message_stop');
}

function sendJSON(req, res, status, value) {
  const data = Buffer.from(JSON.stringify(value));
  if (/\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
    res.writeHead(status, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zlib.gzipSync(data));
  } else {
    res.writeHead(status, { 'content-type': 'application/json' }).end(data);
  }
}

async function answer(req, res, seen) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const raw = Buffer.concat(chunks).toString('utf8');
  const isOpenAI = req.url === '/v1/chat/completions';
  const isResponses = req.url === '/v1/responses';
  if (req.method !== 'POST' || (!isOpenAI && !isResponses && req.url !== '/v1/messages')) {
    sendJSON(req, res, 404, { error: { type: 'not_found_error', message: `fake model: no ${req.method} ${req.url}` } });
    return;
  }
  let body;
  try {
    body = JSON.parse(raw);
  } catch (err) {
    sendJSON(req, res, 400, { error: { type: 'invalid_request_error', message: `fake model: bad JSON: ${err.message}` } });
    return;
  }
  const round = req.headers['x-toolout-gateway-round'];
  const marked = (isResponses ? responsesOutputs(body) : toolResults(body)).map((t) => MARKER.exec(t)).find(Boolean);
  const shadow = marked && (round === '1' || raw.includes(KEEP_EXPANDING)) ? marked[1] : '';
  const failedSeen = raw.includes(FAILED);
  const anthropic = !isOpenAI && !isResponses;
  const thinking = anthropic && Boolean(body.thinking) && body.thinking.type !== 'disabled';
  const refused = anthropic ? thinkingError(body) : null;
  seen.push({ path: req.url, round, stream: body.stream === true, marker: Boolean(marked),
    offered: isResponses ? responsesOffered(body) : offered(body), failedSeen,
    auth: req.headers.authorization || req.headers['x-api-key'] || '', status: refused ? 400 : 200, error: refused?.error.message });
  if (refused) {
    sendJSON(req, res, 400, refused);
    return;
  }
  const text = failedSeen ? `${SEEN}: the full log was read; step 0067 failed with exit 2 (undefined: frobnicate).`
    : 'ORIGINAL_NOT_SEEN: only a compressed log was visible.';
  const model = body.model || 'fake-model';
  if (body.stream === true) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    if (isResponses) res.end(responsesStream(body, model, shadow, text));
    else {
      res.end(isOpenAI ? openaiStream(model, shadow, text, body.stream_options?.include_usage === true)
        : anthropicStream(model, shadow, text, thinking));
    }
    return;
  }
  if (isResponses) sendJSON(req, res, 200, responsesBody(body, model, shadow, text));
  else sendJSON(req, res, 200, isOpenAI ? openaiBody(model, shadow, text) : anthropicBody(model, shadow, text, thinking));
}

// startFake starts the scripted model; seen records every request it got.
export async function startFake() {
  const seen = [];
  const server = http.createServer((req, res) => {
    answer(req, res, seen).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: `fake model: ${err.message}` } }));
    });
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return { server, seen, url: `http://127.0.0.1:${server.address().port}` };
}

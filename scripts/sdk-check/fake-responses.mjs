// fake-responses.mjs: the OpenAI Responses API shapes of fake-model.mjs
// (POST /v1/responses): a whole response object, or the event stream the
// API sends for it (response.created, response.in_progress, then per
// output item output_item.added, its deltas and dones, output_item.done,
// and response.completed carrying the whole response; each event
// `event: TYPE` + `data: JSON` with a sequence_number from 0, no [DONE]).
// The model's turn is an expand_context function call, or a message with
// one output_text part.

export const RESPONSES_ID = 'resp_fake1';

const USAGE = { input_tokens: 812, input_tokens_details: { cached_tokens: 0 }, output_tokens: 19,
  output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 831 };

// outputs returns the text of every *_call_output item of a Responses
// request's input (output a string, or a list of input_text parts).
export function responsesOutputs(body) {
  const text = (o) => (typeof o === 'string' ? o
    : Array.isArray(o) ? o.filter((p) => p && p.type === 'input_text').map((p) => p.text).join('\n') : '');
  return (Array.isArray(body.input) ? body.input : [])
    .filter((i) => i && typeof i.type === 'string' && i.type.endsWith('_call_output'))
    .map((i) => text(i.output));
}

// responsesOffered tells whether a request offers expand_context (a
// function tool of that name).
export const responsesOffered = (body) => (body.tools || []).some((t) => t.type === 'function' && t.name === 'expand_context');

function item(shadow, text) {
  if (shadow) {
    return { type: 'function_call', id: 'fc_fakeexp1', call_id: 'call_exp1', name: 'expand_context',
      arguments: JSON.stringify({ shadow_id: shadow }), status: 'completed' };
  }
  return { type: 'message', id: 'msg_fake1', role: 'assistant', status: 'completed',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] };
}

function response(model, status, output, body) {
  return { id: RESPONSES_ID, object: 'response', created_at: 1767225600, status, error: null, incomplete_details: null,
    instructions: body.instructions ?? null, max_output_tokens: null, model, output,
    parallel_tool_calls: body.parallel_tool_calls ?? true, previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null }, store: body.store ?? true, temperature: 1,
    text: { format: { type: 'text' } }, tool_choice: body.tool_choice ?? 'auto', tools: body.tools || [], top_p: 1,
    truncation: 'disabled', usage: status === 'completed' ? USAGE : null, user: null, metadata: {} };
}

// responsesBody is the whole response to a request.
export function responsesBody(body, model, shadow, text) {
  return response(model, 'completed', [item(shadow, text)], body);
}

// pieces cuts s into n parts, as a model streams tokens.
function pieces(s, n) {
  const size = Math.max(1, Math.ceil(s.length / n));
  const out = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function itemEvents(done) {
  const at = { output_index: 0 };
  if (done.type === 'function_call') {
    return [
      { type: 'response.output_item.added', ...at, item: { ...done, arguments: '', status: 'in_progress' } },
      ...pieces(done.arguments, 3).map((delta) => ({ type: 'response.function_call_arguments.delta', item_id: done.id, ...at, delta })),
      { type: 'response.function_call_arguments.done', item_id: done.id, ...at, arguments: done.arguments },
      { type: 'response.output_item.done', ...at, item: done },
    ];
  }
  const part = done.content[0];
  const where = { item_id: done.id, ...at, content_index: 0 };
  return [
    { type: 'response.output_item.added', ...at, item: { ...done, status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', ...where, part: { ...part, text: '' } },
    ...pieces(part.text, 5).map((delta) => ({ type: 'response.output_text.delta', ...where, delta, logprobs: [] })),
    { type: 'response.output_text.done', ...where, text: part.text, logprobs: [] },
    { type: 'response.content_part.done', ...where, part },
    { type: 'response.output_item.done', ...at, item: done },
  ];
}

// responsesStream is the event stream of the response to a request.
export function responsesStream(body, model, shadow, text) {
  const done = item(shadow, text);
  const events = [
    { type: 'response.created', response: response(model, 'in_progress', [], body) },
    { type: 'response.in_progress', response: response(model, 'in_progress', [], body) },
    ...itemEvents(done),
    { type: 'response.completed', response: response(model, 'completed', [done], body) },
  ];
  return events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('');
}

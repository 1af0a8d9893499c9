// responses-calls.mjs: the OpenAI SDK's Responses API calls of check.mjs
// (`client.responses.create`, streaming and not, and `responses.stream`),
// on a conversation with a function tool (read_log) and a custom tool
// (grep_log, free-text input), each of whose calls is answered in the
// input: the big CI log is the function's output, or, in the custom
// scenario, the custom tool's.

import assert from 'node:assert/strict';

// The tools the requests offer: a function tool and a custom tool.
export const RESPONSES_TOOLS = [
  { type: 'function', name: 'read_log', description: 'Read the CI log of a job.', strict: false,
    parameters: { type: 'object', properties: { job: { type: 'string' } }, required: ['job'], additionalProperties: false } },
  { type: 'custom', name: 'grep_log', description: 'Search the CI log: the input is a pattern, free text.' },
];

// responsesParams is the request: the question, the read_log call and its
// output, the grep_log call and its output; the log is the function's
// output, or the custom tool's when custom is set.
export function responsesParams({ log, question, custom }, system, extra) {
  const short = 'see the other tool output';
  return { model: 'gpt-4.1-mini', instructions: system, ...extra,
    input: [
      { role: 'user', content: question },
      { type: 'function_call', call_id: 'call_log1', name: 'read_log', arguments: '{"job":"nightly"}' },
      { type: 'function_call_output', call_id: 'call_log1', output: custom ? short : log },
      { type: 'custom_tool_call', call_id: 'call_grep1', name: 'grep_log', input: 'step=0067' },
      { type: 'custom_tool_call_output', call_id: 'call_grep1', output: custom ? log : short },
    ],
    tools: RESPONSES_TOOLS };
}

// fromResponse reads a Responses API response object as check.mjs
// compares answers: {text, tools (the names of its calls), finish (its
// status), returned, id, model, usage}.
export function fromResponse(r, returned = r) {
  const out = r.output || [];
  return { text: out.filter((i) => i.type === 'message').flatMap((i) => i.content)
    .filter((p) => p.type === 'output_text').map((p) => p.text).join(''),
  tools: out.filter((i) => i.type === 'function_call' || i.type === 'custom_tool_call').map((i) => i.name),
  finish: r.status, returned, id: r.id, model: r.model, usage: r.usage?.total_tokens > 0 };
}

// fromEvents reads the raw events of a stream: the text of its deltas, the
// calls its output_item.added events start, the status, id and usage of
// response.completed, checking it starts with response.created and ends
// with response.completed, sequence numbers in order.
export function fromEvents(events) {
  assert.equal(events[0]?.type, 'response.created', 'first event');
  assert.equal(events.at(-1)?.type, 'response.completed', 'last event');
  assert.deepEqual(events.map((e) => e.sequence_number), events.map((_, i) => i), 'sequence_number from 0, in order');
  const done = events.at(-1).response;
  const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => e.item);
  return { text: events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join(''),
    tools: added.filter((i) => i.type === 'function_call' || i.type === 'custom_tool_call').map((i) => i.name),
    finish: done.status, returned: events, id: events[0].response.id, model: done.model, usage: done.usage?.total_tokens > 0 };
}

// responsesCalls are check.mjs's CALLS of the Responses wire; system is
// the instructions.
export function responsesCalls(system) {
  const params = (conv, extra) => responsesParams(conv, system, extra);
  return [
    { name: 'openai responses.create', wire: 'responses', stream: false,
      run: async ({ openai }, conv) => fromResponse(await openai.responses.create(params(conv, {}))) },
    { name: 'openai responses.create stream:true events', wire: 'responses', stream: true, run: async ({ openai }, conv) => {
      const stream = await openai.responses.create(params(conv, { stream: true }));
      const events = [];
      for await (const e of stream) events.push(e);
      return fromEvents(events);
    } },
    { name: 'openai responses.stream finalResponse', wire: 'responses', stream: true,
      run: async ({ openai }, conv) => fromResponse(await openai.responses.stream(params(conv, {})).finalResponse()) },
  ];
}

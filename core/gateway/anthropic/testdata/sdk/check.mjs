// check.mjs feeds the streams and bodies that gen.go writes to the official
// Anthropic TypeScript SDK (@anthropic-ai/sdk, through a loopback server)
// and checks that the SDK's MessageStream accumulates each stream to the
// message AssembleStream makes of it, that its event iterator reads every
// event, that it parses the EncodeResponse body, and shows what it does
// with a cut stream and an error event. Not run by go test; to run it:
//
//	go run ./core/gateway/anthropic/testdata/sdk/gen.go core/gateway/anthropic/testdata /tmp/sdk-out
//	cp core/gateway/anthropic/testdata/sdk/check.mjs /tmp/sdk-out/ && cd /tmp/sdk-out && npm install @anthropic-ai/sdk && node check.mjs .
import http from 'node:http';
import fs from 'node:fs';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';

const dir = process.argv[2];
let current = null; // {type: 'sse'|'json', body}
const server = http.createServer((req, res) => {
  let _ = ''; req.on('data', c => _ += c); req.on('end', () => {
    if (current.type === 'sse') res.writeHead(200, {'content-type': 'text/event-stream'});
    else res.writeHead(current.status || 200, {'content-type': 'application/json', ...(current.headers || {})});
    res.end(current.body);
  });
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const client = new Anthropic({apiKey: 'k', baseURL: `http://127.0.0.1:${server.address().port}`, maxRetries: 0});
const params = {model: 'm', max_tokens: 10, messages: [{role: 'user', content: 'hi'}]};

let n = 0;
for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.sse')).sort()) {
  const want = JSON.parse(fs.readFileSync(`${dir}/${f.replace('.sse', '.json')}`, 'utf8'));
  current = {type: 'sse', body: fs.readFileSync(`${dir}/${f}`)};
  // 1. The MessageStream helper (accumulates the message as the SDK does).
  const stream = client.messages.stream(params);
  const texts = [];
  stream.on('text', t => texts.push(t));
  const got = JSON.parse(JSON.stringify(await stream.finalMessage()));
  delete got.parsed_output; // the SDK's own addition (structured outputs)
  assert.deepEqual(got, want, f);
  // 2. The raw event iterator.
  current = {type: 'sse', body: fs.readFileSync(`${dir}/${f}`)};
  const events = [];
  for await (const ev of await client.messages.create({...params, stream: true})) events.push(ev.type);
  assert.equal(events[0], 'message_start'); assert.equal(events.at(-1), 'message_stop');
  console.log(`ok ${f}: ${got.content.length} block(s), stop_reason ${got.stop_reason}, ${texts.length} text event(s), ${events.length} events`);
  n++;
}
// 3. A non-streaming body.
current = {type: 'json', body: fs.readFileSync(`${dir}/body.json`)};
const msg = await client.messages.create(params);
assert.deepEqual(msg, JSON.parse(fs.readFileSync(`${dir}/body.json`, 'utf8')));
console.log(`ok body.json: ${msg.content.map(c => c.type).join(',')}`);
// 4. A cut stream and an error event are errors for the SDK too.
for (const [name, body] of [['cut', fs.readFileSync(`${dir}/streamof_text.sse`, 'utf8').split('event: message_stop')[0]],
                            ['error', 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n']]) {
  current = {type: 'sse', body};
  try { await client.messages.stream(params).finalMessage(); console.log(`SDK accepted the ${name} stream`); }
  catch (e) { console.log(`ok ${name} stream: the SDK fails too: ${String(e.message).slice(0, 80)}`); }
}
console.log(`${n + 1} passed, 0 failed`);
server.close();

// record.mjs: a recording proxy between an agent and its model server, on
// 127.0.0.1:0. It forwards every request as it came (method, path and
// query, headers but Host) and relays the answer as it arrives (a stream
// stays a stream), and keeps, for each POST /v1/messages (Anthropic) and
// POST /v1/responses (OpenAI Responses), the call as the importer's logs
// read it (harness/importer/doc.go): {"request": <the JSON body>,
// "response": <the JSON body, or, for a stream, the server-sent events as
// text>}, and for every request a summary of what the agent sent.

import http from 'node:http';

const MAX_BODY = 16 << 20; // as toolout serve; an agent's request is far smaller
// LOGGED are the paths whose calls are kept for a log.
const LOGGED = ['/v1/messages', '/v1/responses'];

export function startRecorder(target) {
  const calls = [];   // the logs' entries: {path, request, response}
  const seen = [];    // {method, url, status, headers, body} of every request
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (d) => {
      size += d.length;
      if (size > MAX_BODY) req.destroy(new Error('request body over 16 MiB'));
      else chunks.push(d);
    });
    req.on('end', () => forward(req, Buffer.concat(chunks), res));
    req.on('error', () => res.destroy());
  });

  function forward(req, body, res) {
    const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
    const up = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (ur) => {
      res.writeHead(ur.statusCode, ur.headers);
      const got = [];
      ur.on('data', (d) => { got.push(d); res.write(d); });
      ur.on('end', () => {
        res.end();
        keep(req, body, ur, Buffer.concat(got).toString('utf8'));
      });
      ur.on('error', () => res.destroy());
    });
    up.on('error', (e) => { res.writeHead(502, { 'content-type': 'text/plain' }); res.end(`record: ${e.message}`); });
    up.end(body);
  }

  function keep(req, body, ur, text) {
    let json;
    try { json = JSON.parse(body.toString('utf8')); } catch { json = undefined; }
    seen.push({ method: req.method, url: req.url, status: ur.statusCode, headers: req.headers, body: json });
    const pathOnly = req.url.split('?')[0];
    if (req.method !== 'POST' || !LOGGED.includes(pathOnly) || json === undefined) return;
    const sse = String(ur.headers['content-type'] || '').startsWith('text/event-stream');
    let response = text;
    if (!sse) {
      try { response = JSON.parse(text); } catch { /* kept as text */ }
    }
    calls.push({ path: pathOnly, request: json, response });
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        calls,
        seen,
        // log is the log of the calls to one path (/v1/messages: the
        // Anthropic log; /v1/responses: the Responses log), JSONL, one call
        // a line.
        log: (p = '/v1/messages') => calls.filter((c) => c.path === p)
          .map(({ request, response }) => JSON.stringify({ request, response })).join('\n') + '\n',
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    });
  });
}

// items names a Responses input: each item's type, a message's with its
// role (message:user).
const items = (input) => (typeof input === 'string' ? ['text'] : (input || []).map((i) => (i.type === 'message' || (!i.type && i.role) ? `message:${i.role}` : i.type)));

// describe is one line per request an agent sent: method, path, what its
// body asked (stream, model, thinking, messages' roles or the Responses
// input's items, tools) and the headers that tell the client.
export function describe(seen) {
  return seen.map((r, i) => {
    const b = r.body || {};
    const parts = [`${i + 1}. ${r.method} ${r.url} (${r.headers['content-length'] || 0} bytes) -> ${r.status}`];
    if (r.body) {
      const roles = (b.messages || []).map((m) => m.role).join(',');
      const tools = (b.tools || []).map((t) => t.name || t.function?.name || t.type);
      const extra = Object.keys(b).filter((k) => !['model', 'messages', 'input', 'system', 'tools', 'stream', 'max_tokens', 'metadata', 'client_metadata'].includes(k));
      parts.push(`stream=${b.stream === true} model=${b.model}${b.max_tokens ? ` max_tokens=${b.max_tokens}` : ''}`,
        b.input === undefined ? `messages=[${roles}]` : `input=[${items(b.input).join(',')}]`,
        ...(b.system === undefined ? [] : [`system=${Array.isArray(b.system) ? `${b.system.length} blocks` : typeof b.system}`]),
        `tools=${tools.length}${tools.length ? ` (${tools.join(',')})` : ''}`);
      if (extra.length) parts.push(`also: ${extra.map((k) => `${k}=${JSON.stringify(b[k])}`.slice(0, 120)).join(' ')}`);
    }
    parts.push(`user-agent="${r.headers['user-agent']}"`);
    if (r.headers['anthropic-beta']) parts.push(`anthropic-beta=${r.headers['anthropic-beta']}`);
    return parts.join(' ');
  });
}

// record.mjs: a recording proxy between an agent and its model server, on
// 127.0.0.1:0. It forwards every request as it came (method, path and
// query, headers but Host) and relays the answer as it arrives (a stream
// stays a stream), and keeps, for each POST /v1/messages, the call as the
// importer's Anthropic log reads it (harness/importer/doc.go):
// {"request": <the JSON body>, "response": <the JSON body, or, for a
// stream, the server-sent events as text>}, and for every request a
// summary of what the agent sent.

import http from 'node:http';

const MAX_BODY = 16 << 20; // as toolout serve; an agent's request is far smaller

export function startRecorder(target) {
  const calls = [];   // the Anthropic log's entries
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
    if (req.method !== 'POST' || pathOnly !== '/v1/messages' || json === undefined) return;
    const sse = String(ur.headers['content-type'] || '').startsWith('text/event-stream');
    let response = text;
    if (!sse) {
      try { response = JSON.parse(text); } catch { /* kept as text */ }
    }
    calls.push({ request: json, response });
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        calls,
        seen,
        // log is the Anthropic log, JSONL, one call a line.
        log: () => calls.map((c) => JSON.stringify(c)).join('\n') + '\n',
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    });
  });
}

// describe is one line per request an agent sent: method, path, what its
// body asked (stream, model, thinking, messages' roles, tools) and the
// headers that tell the client.
export function describe(seen) {
  return seen.map((r, i) => {
    const b = r.body || {};
    const parts = [`${i + 1}. ${r.method} ${r.url} (${r.headers['content-length'] || 0} bytes) -> ${r.status}`];
    if (r.body) {
      const roles = (b.messages || []).map((m) => m.role).join(',');
      const tools = (b.tools || []).map((t) => t.name || t.function?.name);
      const extra = Object.keys(b).filter((k) => !['model', 'messages', 'system', 'tools', 'stream', 'max_tokens', 'metadata'].includes(k));
      parts.push(`stream=${b.stream === true} model=${b.model}${b.max_tokens ? ` max_tokens=${b.max_tokens}` : ''}`,
        `messages=[${roles}]`, ...(b.system === undefined ? [] : [`system=${Array.isArray(b.system) ? `${b.system.length} blocks` : typeof b.system}`]),
        `tools=${tools.length}${tools.length ? ` (${tools.join(',')})` : ''}`);
      if (extra.length) parts.push(`also: ${extra.map((k) => `${k}=${JSON.stringify(b[k])}`).join(' ')}`);
    }
    parts.push(`user-agent="${r.headers['user-agent']}"`);
    if (r.headers['anthropic-beta']) parts.push(`anthropic-beta=${r.headers['anthropic-beta']}`);
    return parts.join(' ');
  });
}

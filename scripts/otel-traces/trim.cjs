// Trims the exports of the files named on the command line in place: each
// resource keeps only its service.name and telemetry.sdk.* attributes
// (the SDKs also record the host's id, the process's command line and
// paths). Spans, log records, their ids and times are kept as exported.
'use strict';
const fs = require('node:fs');
for (const file of process.argv.slice(2)) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const out = lines.map((line) => {
    const exp = JSON.parse(line);
    for (const r of [...(exp.resourceSpans || []), ...(exp.resourceLogs || [])]) {
      if (r.resource && r.resource.attributes) {
        r.resource.attributes = r.resource.attributes.filter((a) => a.key === 'service.name' || a.key.startsWith('telemetry.sdk.'));
      }
    }
    return JSON.stringify(exp);
  });
  fs.writeFileSync(file, out.map((l) => l + '\n').join(''));
}

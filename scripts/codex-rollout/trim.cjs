// Trims a rollout file and a captured Responses log of what belongs to the
// machine that made them: the temporary folder (Codex's home, the working
// directory) becomes /home/dev, and the installation id Codex drew becomes
// a fixed one. Everything else stays as written, byte for byte.
// Usage: node trim.cjs ROOT INSTALLATION_ID IN OUT
'use strict';
const fs = require('fs');
const [root, installation, input, output] = process.argv.slice(2);
let text = fs.readFileSync(input, 'utf8');
text = text.split(root).join('/home/dev');
if (installation) text = text.split(installation).join('00000000-0000-4000-8000-000000000000');
fs.writeFileSync(output, text);

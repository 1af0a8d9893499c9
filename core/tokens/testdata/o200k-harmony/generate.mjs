// Writes the o200k_harmony fixture (README.md): specials.tsv, every special
// token's text and id, and cases.jsonl, strings and their ids with every
// special token allowed. The table is gpt-tokenizer's, checked here against
// tiktoken's definition; the ids are OpenAI's tiktoken's (its Rust core, the
// WASM build), an encoding made of o200k_base's ranks and pattern and that
// table, as tiktoken_ext makes o200k_harmony.
import fs from 'node:fs';
import assert from 'node:assert/strict';
import { Tiktoken } from 'tiktoken/lite';
import base from 'tiktoken/encoders/o200k_base.json' with { type: 'json' };
import api from 'gpt-tokenizer/encoding/o200k_harmony';

// tiktoken_ext/openai_public.py, o200k_harmony: o200k_base's special tokens,
// the named ones, then <|reserved_N|> for 200013 <= N < 201088.
const defined = { ...base.special_tokens, '<|startoftext|>': 199998, '<|endoftext|>': 199999,
  '<|reserved_200000|>': 200000, '<|reserved_200001|>': 200001, '<|return|>': 200002, '<|constrain|>': 200003,
  '<|reserved_200004|>': 200004, '<|channel|>': 200005, '<|start|>': 200006, '<|end|>': 200007, '<|message|>': 200008,
  '<|reserved_200009|>': 200009, '<|reserved_200010|>': 200010, '<|reserved_200011|>': 200011, '<|call|>': 200012 };
for (let id = 200013; id < 201088; id++) defined[`<|reserved_${id}|>`] = id;
const table = Object.fromEntries(api.specialTokensEncoder.entries());
assert.deepEqual(table, defined, "gpt-tokenizer's table is not tiktoken's definition");

const specials = Object.entries(table).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
fs.writeFileSync('specials.tsv', specials.map(([text, id]) => `${id}\t${text}`).join('\n') + '\n');
const enc = new Tiktoken(base.bpe_ranks, table, base.pat_str);
const encode = (text) => Array.from(enc.encode(text, 'all'));

const conversation = [
  '<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: 2026-11-29\n\nReasoning: high\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.<|end|>',
  '<|start|>developer<|message|># Instructions\n\nAnswer from the logs.\n\n# Tools\n\n## functions\n\nnamespace functions {\n\n// Query the service logs.\ntype logs__query = (_: {\n  since: string,\n}) => any;\n\n} // namespace functions<|end|>',
  '<|start|>user<|message|>Count ERROR lines per host.<|end|>',
  '<|start|>assistant<|channel|>analysis<|message|>Need to query the logs first.<|end|>',
  '<|start|>assistant<|channel|>commentary to=functions.logs__query <|constrain|>json<|message|>{"since":"1h"}<|call|>',
  '<|start|>functions.logs__query to=assistant<|channel|>commentary<|message|>ts=0 host=web-0 level=ERROR\nts=1 host=web-1 level=INFO\n<|end|>',
  '<|start|>assistant<|channel|>final<|message|>web-0: 6, web-1: 6, web-2: 6<|return|>',
].join('');
const edges = [
  '', '<|start|>', '<|end|><|end|>', 'a<|end|>b', ' <|end|> ', '  \n<|message|>\n  ', '<|<|end|>', '<|end|>|>', '<|end', 'end|>',
  '<|bogus|>', '<|reserved_200013|>', '<|reserved_201087|>', '<|reserved_201088|>', '<|reserved_200018|>', '<|endofprompt|>',
  '<|endoftext|> and <|fim_prefix|> are text here', '<|startoftext|>Hello<|endoftext|>', '< |end| >', '<||>', '<|', '|>',
  'x\u00a0<|call|>', "it's<|end|>'s", '1234<|end|>5678', '日本語<|message|>テキスト', '😀<|return|>😀', '\t\t<|channel|>\t\t',
  '<|start|>assistant<|channel|>analysis<|message|>' + 'x'.repeat(300) + '<|end|>',
];
// Plain text too: o200k_harmony splits and merges it as o200k_base does.
const plain = [
  'The quick brown fox jumps over the lazy dog. It\'s what they\'d\'ve done; we\'ll see.',
  'func main() {\n\tfmt.Println("hi")\n\tfor i := 0; i < 10; i++ {}\n}\n',
  '{"orders":[{"id":12345,"total":99.95,"items":[{"sku":"A-1","qty":2}]}],"next":null}',
  'Zähler über Straße, naïve café, 東京都渋谷区, 😀🚀✅, مرحبا بالعالم, Привет мир',
  '   leading and trailing spaces   \n\n\n\t\ttabs\r\nCRLF\r\n',
];
const lines = [conversation, ...edges, ...plain].map((text) => JSON.stringify({ text, ids: encode(text) }));
fs.writeFileSync('cases.jsonl', lines.join('\n') + '\n');
console.log(`specials.tsv: ${specials.length} special tokens; cases.jsonl: ${lines.length} cases`);

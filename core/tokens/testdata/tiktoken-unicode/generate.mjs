// generate.mjs writes counts.txt.gz: for every Unicode code point c but the
// surrogates, the number of tokens OpenAI's tiktoken (the npm package
// tiktoken, the WASM build of its Rust crate) gives four strings built
// around c, in cl100k_base and o200k_base. See README.md.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { get_encoding } from "tiktoken";

// Each string puts ASCII where c's class decides where a piece ends, so
// that a wrong class changes the count:
//   c + "-s"        other: "-" joins c's punctuation run ("c-" "s"), else "-s" is one piece
//   "1" + c + "23"  number: \p{N}{1,3} takes "1c2" then "3", else "1" c "23"
//   "  " + c + "x"  white space: "  " then "cx", else " " then " cx"
//   "a" + c + "'s"  letter: the contraction joins the run ("ac's", or in
//                   o200k_base "a" "c's" for an upper-case c), else "'s" or "'" "s" apart
const templates = [
  (c) => c + "-s",
  (c) => "1" + c + "23",
  (c) => "  " + c + "x",
  (c) => "a" + c + "'s",
];

const names = ["cl100k_base", "o200k_base"];
const encodings = names.map((n) => get_encoding(n));
const version = JSON.parse(readFileSync(new URL("node_modules/tiktoken/package.json", import.meta.url))).version;

const out = [];
out.push(`# Token counts of OpenAI's tiktoken ${version} (npm tiktoken, the WASM build of the Rust crate; encode_ordinary)`);
out.push("# for every code point c but the surrogates U+D800..U+DFFF, by generate.mjs beside this file.");
out.push('# Strings: c+"-s", "1"+c+"23", "  "+c+"x", "a"+c+"\'s"; counts in cl100k_base, then o200k_base.');
out.push("# A line is a run: its first code point (hex), then the four cl100k_base counts and the four");
out.push("# o200k_base counts, as digits; the run lasts up to the code point before the next line's (the");
out.push("# last to U+10FFFF). Surrogates fall inside a run and are skipped.");

let last = "";
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const c = String.fromCodePoint(cp);
  const counts = [];
  for (const enc of encodings) {
    for (const t of templates) counts.push(enc.encode_ordinary(t(c)).length);
  }
  if (counts.some((n) => n > 9)) throw new Error(`U+${cp.toString(16)}: a count over 9`);
  const key = counts.slice(0, 4).join("") + " " + counts.slice(4).join("");
  if (key !== last) {
    out.push(cp.toString(16).toUpperCase() + " " + key);
    last = key;
  }
}
for (const enc of encodings) enc.free();
// gzip: neighbouring code points differ in their last UTF-8 byte, which
// merges with the ASCII beside it in some tokens and not others, so runs
// are short (68,433 runs, 1.1 MB of text; 172 KB compressed). Node writes no
// time stamp in the header, so the file is the same on every run.
writeFileSync(new URL("counts.txt.gz", import.meta.url), gzipSync(out.join("\n") + "\n", { level: 9 }));

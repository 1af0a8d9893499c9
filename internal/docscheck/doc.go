// Package docscheck reads the Markdown documentation (README.md and docs/)
// for the spec that keeps it true: its fenced code blocks, its relative
// links and the headings they point at, and the shell commands and expected
// output of a transcript. It parses and matches; it runs nothing but a
// block's shell, in a folder and with an environment the caller gives.
//
// The conventions it holds the documentation to:
//
//   - Every fenced block names its kind in its info string. `sh`, `bash`,
//     `shell` and `console` blocks are shell; anything else (`text`,
//     `yaml`, `toml`, `json`, ...) is shown, never run.
//   - A `sh` block is commands only, run as one script under `set -e`.
//     A `console` block is a transcript: a line starting with "$ " is a
//     command, continued on the next lines while it ends with a backslash
//     or leaves a quote open; the lines up to the next command are what it
//     prints, stdout and stderr together. A line that is exactly "..." in
//     the expected output stands for any number of lines.
//   - A shell block whose first line is a comment starting
//     "docs: not run" (`# docs: not run (REASON)`, or `$ # docs: not run
//     (REASON)` in a transcript) is not run; the reason is visible where
//     the block is shown, and the spec lists it as skipped. Commands that
//     need the network, install things or run for minutes are marked so.
//   - A relative link names a file that exists, and its #fragment a heading
//     of that file, as GitHub derives anchors from headings (Anchor).
package docscheck

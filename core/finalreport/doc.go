// Package finalreport finds the final report in a model's answer: the text
// inside the first <ai-agent-NONCE-FINAL format="text"> ... </ai-agent-NONCE-FINAL>
// wrapper that carries the session's nonce.
//
// The parser is lenient where models are sloppy and exact where a mistake would
// accept the wrong text. Its contract:
//
//   - One leading <think>…</think> block is stripped first (whitespace before it
//     is allowed). A wrapper written inside it is thinking, not a report. An
//     unclosed leading <think> makes the whole text thinking: no report. A
//     <think> that does not lead the text, or a second one after the first, is
//     ordinary text.
//   - The first opening tag "<ai-agent-" + nonce + "-FINAL" with the exact nonce
//     wins; wrappers with other nonces are skipped, so a stale wrapper before
//     the right one does no harm. The match is case-sensitive, like the nonce.
//   - After "-FINAL" the next byte must be whitespace or ">": "-FINALIZE" is not
//     "-FINAL" (the reference system matched by prefix). A non-matching tag is
//     skipped and the search goes on after it.
//   - The opening tag ends at its first ">"; attributes (format="text" or
//     others) are allowed and ignored. An opening tag with no ">" is
//     incomplete: no report.
//   - The closing tag "</ai-agent-" + nonce + "-FINAL>" is optional (spec
//     decision 6). When present, the report is the text up to its first
//     occurrence and Closed is true; otherwise the report is the rest of the
//     text. Closing tags of other nonces are content.
//   - The report is trimmed of surrounding white space (Unicode white space,
//     which includes CR and LF). An empty wrapper is an empty success; "NO
//     RELEVANT DATA FOUND" is a success like any other text.
//
// A nonce is required and may hold only ASCII letters, digits, '_' and '-';
// anything else is an argument error, never a silent mismatch. Parse runs in
// time linear in the length of the text.
package finalreport

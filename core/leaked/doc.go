// Package leaked recovers tool calls that a model wrote as text instead of
// calling the tool through the API (docs/contracts.md, section 4):
// JSON inside <tool_calls>, <tool_call>, <tools>, <function_call>,
// <function>, <minimax:tool_call>, <seed:tool_call> or <TOOLCALL> wrappers,
// the XML-parameter calls of current open models, and the forms of the model
// families people serve today, with their special tokens or without them
// (gpt-oss harmony, Kimi K2, DeepSeek V3, V3.1 and DSML, GLM, Gemma 4,
// Llama 3 and 4, Mistral, Nemotron, Phi-4-mini, Seed-OSS, and pythonic
// lists on request: see Model families below).
//
// It is an isolated module: one entry point, Extract, which takes the
// assistant's text and returns the cleaned content, the calls, the patterns
// removed, every dropped block, every repair and the removed spans, and its
// streaming twin, Stream, which takes the text as it arrives. It knows
// nothing of sessions or providers; a tool list (Options.Tools) is used
// only to type parameter values. The session calls it at its single hook
// point, when a turn has text but no native calls and no final report.
//
// # Contract
//
// The contract follows the spec ("strips invalid XML") where it speaks, and
// each choice where it is silent is stated below. A closed wrapper is an
// attempt at a call: its span is removed whatever its body, and each removed
// block that yields no call is listed in Dropped. An open tag that is not
// closed and not followed by a complete JSON value loses nothing.
// Result.Removed lists the spans cut out; Content is the input with them cut
// out, trimmed.
//
// Wrappers. The names above, case-insensitive; the name must end at '>' or
// white space, so attributes (<tool_call id="1">) are allowed and ignored,
// and <tool_call_result> is not a wrapper. An opening tag runs to the first
// '>' and holds no '<'.
//
// Closed or not. A wrapper is closed when its own closing tag follows its
// body before the next block opener and before the closing tag of the
// container around it; for a JSON body the search starts after the JSON,
// so a closing tag inside a JSON string is data. What follows an opening
// tag, after white space, decides what it is:
//   - another opening wrapper tag: a container (below);
//   - an XML-parameter call (below);
//   - its own closing tag, white space between or nothing: an empty
//     wrapper. It is never listed and reports no pattern; it is removed
//     with the other spans when the text yields at least one call or
//     dropped block, and on its own changes nothing (the input comes back
//     byte-identical).
//   - a JSON start: '{', or '[' followed (after white space) by '{',
//     optionally inside a code fence (```json … ```): a JSON body (below);
//   - anything else (prose, "[see docs]", a JSON string or number, "[]"):
//     closed, the block is removed and listed ("not JSON: …"), as the spec
//     strips it; <tool_call> hello </tool_call> and a bare word
//     <tool_call>get_time</tool_call> go (the second is a GLM call without
//     arguments when Options.Tools declares get_time, else a closed wrapper
//     without a call). Unclosed, the tag is prose and stays, and scanning
//     goes on right after it: "Use the <tools> syntax" and "Use <tool_call>
//     then" come back byte-identical. A closed prose body that holds a
//     family's needle (a pythonic list with Options.Pythonic, a stripped
//     form) is left to that family, and the tag stays text.
//
// JSON body. One value, an array of calls, or several values back to back
// (JSONL). Scanning is string-aware: a closing tag inside a JSON string value
// is data ({"command":"echo '</tool_call>'"} stays whole). Each value is
// sorted into a call, a broken call, or not a call:
//   - a call has a name and arguments (Fields, below);
//   - a broken call has a name that is blank once cleaned (Fields), or
//     arguments that are not an object (a number, an array, a string that
//     does not hold a JSON object);
//   - not a call: an object without a name that is a string, an object
//     shaped like a tool definition (a description and a JSON-Schema
//     "parameters", no "arguments", also in the OpenAI
//     {"type":"function","function":{…}} shape), anything that is not an
//     object.
//
// A body with at least one call or broken call is removed, closed or not;
// its calls are extracted, and each other value is listed in Dropped with
// its reason. A closed body whose values are all "not a call" is removed
// too, each value listed, unless every value is a tool definition: a tool
// list the model echoed from its prompt is not an attempt and stays. An
// unclosed body of values that are not calls stays. A body that starts like
// JSON and does not parse (truncated, unquoted keys, bad literals, Python
// True/None, single quotes) is a broken attempt when the wrapper is closed:
// the whole block is removed and listed, even when an earlier value of a
// JSONL body was valid. Unclosed, it stays byte for byte, is not listed,
// and consumes nothing after it: JSON cut off by the end of input
// ("<tool_call>{"name": "x", "arguments": {") and broken JSON followed by
// more text ("Use <tools>{"name": ...} to call tools, e.g. foo") come back
// whole.
//
// Dropped. Each entry's Raw is exactly the text removed at its Offset (the
// whole span, tags included), also for a value listed beside calls of the
// same block: several entries of one block share its offset and raw, each
// with its own reason.
//
// Repairs are lossless and reported, and apply only to removed blocks: the
// code fence around the JSON, trailing commas before a closing bracket, raw
// control characters inside strings (escaped). No guessing: no single
// quotes, no Python literals, no invented braces.
//
// Span of a block. With the closing tag right after the body (white space
// between is allowed), the block runs through the closing tag; a closing
// tag of another wrapper name right after the body of an unclosed wrapper
// goes with it too (<tool_call>{…}</tool_calls> leaves no stray tag),
// unless it closes a container around the block. When the closing tag is
// missing (servers often strip it as a special token) the call is still
// extracted: the block runs to the end of input when only white space or a
// cut-off closing tag (of any wrapper name) follows; otherwise it ends after
// the body and the text after it stays. If that text is followed by the
// block's closing tag before any other block, that closing tag is removed
// too and the text in between stays ("<tool_call>{…} I wait</tool_call>"
// leaves "I wait"). If the body is followed by another block, the unclosed
// wrapper is treated as a container around it. A broken block runs from its
// opening tag to its closing tag, so it never swallows a later call.
//
// Containers. An opening tag followed directly by another block, as
// <tool_calls> around <tool_call> blocks or a tag nested in itself, is a
// container: every call inside comes out once, in order, and the container's
// opening and closing tags (with the white space that joins them to the
// blocks) are removed once a block inside it is removed. Containers hold
// blocks separated by white space only; text after a block ends them, and a
// container that holds no removed block stays text. White space between two
// removed sibling blocks stays. At most 1000 containers are open at once;
// deeper opening tags stay text.
//
// # XML-parameter calls and typing
//
// Qwen3-Coder writes
// <function=NAME><parameter=KEY>value</parameter>…</function>, MiniMax
// <invoke name="NAME"><parameter name="KEY">value</parameter>…</invoke>
// (single quotes allowed; either parameter syntax is accepted in either
// call). An opening tag is a call only when a parameter tag or its own
// closing tag follows it after white space, and NAME is non-empty, on one
// line and without '<'; otherwise it is prose. A wrapper may hold several
// calls of either kind (MiniMax's several invokes per <minimax:tool_call>).
// A call may also stand bare, without a wrapper (the opener is often
// stripped); then a closing </tool_call> (for <function=…>) or
// </minimax:tool_call> (for <invoke>) that follows it alone is removed with
// it. Patterns report "<function=>" and "<invoke>" beside the wrapper.
//
// Parameter values: the text between the parameter tag and its closing
// </parameter>, verbatim (no entity decoding), with one leading and one
// trailing newline stripped ("\n" or "\r\n"; the Qwen3-Coder template writes
// each value on its own lines). The closing tag is the first </parameter>
// that is followed, after white space, by another parameter tag, a closing
// tag of the call or of a wrapper, another call or the end of input, so that
// a value may hold "</parameter>" itself (echo "</parameter>"); when none
// is, the first </parameter>. Only closing tags before the next parameter
// tag and the call's closing tag count. A parameter given twice keeps its
// first place and its last value.
//
// Typing. Without a tool list, a value (of <parameter>, DSML, GLM's
// <arg_value>, Gemma's bare values) is JSON when, trimmed of white space, it
// is a JSON object, array, number, true or false; otherwise it is a string,
// unchanged. So null, "007", True, quoted text and an empty value are
// strings ("null", "007", …). With a tool list (Options.Tools, from
// ParseTools; `toolout leaked --tools FILE`), the type the tool's JSON
// Schema declares for the parameter wins, as the serving stacks type values
// ([Tools] states how: a declared string stays a string whatever it holds,
// other declared types are decoded when the value is valid JSON); names are
// never validated against the list. A form that says its own type keeps it
// where the serving stacks do: DSML's string="true|false" (a declared type
// still wins) and Gemma's <|"|> delimiters (a delimited value is a string
// whatever is declared). Values of JSON-bodied forms (wrappers' JSON,
// harmony, Kimi, DeepSeek, Llama, Mistral, Phi-4, pythonic literals) are
// never re-typed.
//
// ParseTools reads a tool list in the shapes of OpenAI Chat Completions,
// Responses, Anthropic and MCP (its doc states how a type is read); data it
// refuses is a *ToolsError with the byte offset, which the CLI prints in
// one line naming the file, exiting 2.
//
// Broken or recoverable. A missing </function> or </invoke> is recoverable,
// like a missing closing tag of a JSON wrapper: the call ends after its last
// parameter. A Qwen3-Coder parameter (in a <function=…> call) that has no
// </parameter> before the next parameter tag and the call's </function>
// ends, as vLLM's qwen3_coder, SGLang and Dynamo read it, at the first of:
// the next parameter tag, </function>, the closing tag of its wrapper
// (</tool_call>, </seed:tool_call>; for a bare call a stray </tool_call> or
// </seed:tool_call>), or the opening tag of the next block (a model that
// starts over); that tag is not part of the value and is read next. So
// "<tool_call><function=get_weather><parameter=location>NYC</function></tool_call>"
// is {"location":"NYC"}. A parameter cut off by the end of input (a closing
// tag cut off included) stays a broken attempt, where vLLM ends the value:
// the value may be cut anywhere ("NY" of "NYC"). A MiniMax <invoke>
// parameter still needs its </parameter> (its serving parser's rule). A
// parameter nothing closes, and a malformed parameter tag (<parameter=>,
// <parameter junk>), make the call a broken attempt: the whole block
// (wrapper or bare call) is removed and listed in Dropped with the reason,
// as for broken JSON.
//
// # Names, arguments, and what is not scanned
//
// Fields of a JSON call. The name comes from "name", "function" (a string)
// or "tool", in that order of precedence; it must be a string. As the
// spec's sanitizeToolName, the white space around it is trimmed and each
// chat-template token <|…|> is removed (from "<|" to the next "|>"; an
// unclosed "<|" stays): " get_weather<|call|>" is get_weather. A name blank
// after that is no call, and its block is listed ("blank tool name"). No
// other change: a name is not cut at its first odd character
// (github.create_issue stays whole rather than naming another tool). This
// applies to names read from JSON; the tag forms (<function=NAME>,
// <invoke name=…>, functions.NAME) have their own syntax. The OpenAI shape
// {"type":"function","function":{"name":…,"arguments":"…"}} is unwrapped.
// Arguments come from "parameters", else "arguments" (parameters wins when
// both are present); a string holding a JSON object is decoded once; missing
// or null means {}; anything else makes a broken call. Names are not
// validated against a tool list (spec decision 1), and nothing is truncated
// (decision 3). agent__batch is one call whose arguments are kept verbatim,
// not flattened. Arguments are returned as compact JSON objects.
//
// Not scanned: inside <think>…</think> and Seed-OSS's <seed:think>…
// </seed:think> (case-insensitive; an unclosed one hides the rest of the
// text), and harmony's analysis channel (Model families); inside fenced
// code blocks (a line starting, after up to three spaces, with ``` or ~~~
// or longer, whose info string holds no backtick for a backtick fence, up to
// a line of at least as many of the same character followed only by white
// space, or the end of input; Options.ScanFences turns this off); inside
// inline code (a run of backticks up to the next run of the same length on
// the same line; a run with no partner is text). A model showing an example
// is not calling a tool, and an executed example can have side effects.
//
// Content. When nothing is removed, the input comes back byte-identical
// (not trimmed) and Patterns is empty (empty wrappers alone remove
// nothing). Otherwise the removed spans are cut out, the rest is trimmed,
// and empty becomes nil. Patterns lists the tags of the removed blocks and
// containers in order of first appearance; it is non-empty exactly when
// something was removed, and when it is non-empty and no call was
// extracted, Dropped says why.
//
// IDs come from Options.Sources.NewID (a random UUIDv4 by default), one per
// call, in document order, drawn once the scan is done.
//
// [Check] states the contract as properties of one result (no text lost but
// the removed spans, calls well formed, every removed block accounted for,
// each dropped raw exactly the span removed at its offset, and no closed
// wrapper with a body that is not a tool definition left in the content,
// where the input alone shows the scan read it); the specs, FuzzExtract and
// every leaked scenario of the harness run it.
//
// # Model families
//
// A model served without its tool parser (or through a stack whose parser
// is broken) leaks its calls in its own form. Each form below is recognized
// by its own handler (family_*.go, whose comments state its full reading),
// with the rules of the wrappers: only a block that yields a call or is a
// broken attempt at one is removed, and each broken block is listed in
// Dropped; text before, between and after blocks stays byte for byte; a
// missing end token is recoverable when the call's body is complete (the
// block runs to the end of input when only white space or a cut-off token
// follows, else it ends with the body and the text after it stays); a
// block inside <think> is not scanned. With its special tokens stripped,
// as servers that skip them send it, a form is recognized where a marker
// that survives names it without doubt; where nothing survives that prose
// could not hold, the text stays. The pattern each form reports is in
// parentheses.
//
//   - gpt-oss harmony (<|channel|>; stripped: to=functions.): a message
//     whose recipient is functions.NAME, its content the JSON arguments,
//     from <|start|> or <|channel|> to <|call|> (or <|end|>, <|return|>);
//     the analysis channel is reasoning, kept and not scanned; other
//     messages (final answers, preambles, built-in tools such as
//     to=browser.search) stay text with their tokens. Stripped:
//     "commentary to=functions.NAME json{…}" and its fused variants.
//   - Kimi K2 (<|tool_calls_section_begin|>; a call alone
//     <|tool_call_begin|>; stripped functions.NAME:IDX): the id
//     functions.NAME:IDX names the tool, the JSON after
//     <|tool_call_argument_begin|> is the arguments; singular and plural
//     section names; each call of a section is judged on its own.
//   - DeepSeek V3 and R1 (<｜tool▁calls▁begin｜>; a call alone
//     <｜tool▁call▁begin｜>): function<｜tool▁sep｜>NAME then fenced JSON;
//     V3.1: NAME<｜tool▁sep｜>{…}; told apart by what follows the
//     separator; the ASCII-bar spelling reads the same. Stripped, nothing
//     marks them: text.
//   - DeepSeek V3.2 and V4 DSML (<｜DSML｜function_calls>; an invoke alone
//     <｜DSML｜invoke>): <｜DSML｜invoke name="NAME"> with <｜DSML｜parameter
//     name="K" string="true|false"> values, typed by that attribute.
//   - GLM 4.5 to 5 (<tool_call>, <arg_key>): <tool_call>NAME<arg_key>K
//     </arg_key><arg_value>V</arg_value>…</tool_call>; a call without
//     arguments only when the tool list declares NAME (else it is a word in
//     a wrapper). Stripped: text.
//   - Gemma 4 (<|tool_call>; stripped call:): <|tool_call>call:NAME{key:
//     <|"|>string<|"|>,n:42,…}<tool_call|>, converted to a JSON object;
//     stripped, call:NAME{…} only when it parses whole and call: starts a
//     word.
//   - Llama 3.x (<|python_tag|>) and Llama 4 (<|python_start|>): JSON calls
//     separated by ';', each judged on its own; Llama 3.1's
//     <function=NAME>{…}</function> (<function=>). Stripped, and Mistral
//     stripped ({json}, [json]): a message that is only calls naming their
//     arguments, nothing else but white space and an end token.
//   - Mistral ([TOOL_CALLS]): [TOOL_CALLS][{…}, …] and
//     [TOOL_CALLS]NAME[ARGS]{…} (with [CALL_ID]ID, or [ARGS] stripped).
//   - Nemotron (<toolcall>): <TOOLCALL>[{…}]</TOOLCALL>, a wrapper.
//   - Phi-4-mini (functools[): functools[{…}, …].
//   - Seed-OSS (<seed:tool_call>): Qwen3-Coder's calls in <seed:tool_call>,
//     removed whole with its wrapper; <seed:think> is not scanned.
//   - Pythonic, Llama 3.2 and 4 ([pythonic]), only with Options.Pythonic
//     (plain prose and Markdown can look like it): a whole list of keyword
//     calls whose values are Python literals, [get_weather(city="NYC"),
//     …], written as JSON by a literal parser of our own.
//
// The parser-parity corpus of NVIDIA Dynamo (bench/testdata/parsercorpus:
// the cases Dynamo, vLLM and SGLang are checked against) compares the
// result with the serving stacks: `make parser-corpus`.
//
// # Cost
//
// Time is linear in the input on every input (10x the input costs about 10x
// the time; bench.BenchmarkLeaked holds the adversarial inputs to it at
// 1 MiB and 10 MiB), and the result is a deterministic function of it (but
// for the IDs). The choices that keep it so: the scan visits only '<', '`',
// '~' and the rare bytes of the families' needles ('[', '=', '.', ':'),
// each found by a memoized IndexByte pass; every search for a byte or a tag
// is remembered (its first match at or after a position), so many unclosed
// tags cost one pass; fences are skipped by runs of their character, inline
// code by one pass per line; a JSON scan stops at the first byte that
// cannot be JSON outside a string; containers sit on a bounded stack.
// Handlers read through the scanner's memoized searches and bounded local
// checks, never remove text before their trigger, and record how far they
// read (which the stream needs).
//
// A body's values are read once by a strict parser of our own that accepts
// exactly what encoding/json accepts, so a well-formed call is neither
// decoded into a map nor re-encoded; a value it refuses (broken, or with an
// escaped key) takes the slow path through encoding/json, which repairs and
// words the error. FuzzStrict holds the two paths to the same answers.
//
// Memory. Extract allocates what it returns: the content (one copy of the
// text, sized before it is made), the result's lists at their exact length,
// the arguments (compacted into chunks shared by the calls of the text) and
// the IDs (random ones from one read of crypto/rand per 256). The scanner
// and its buffers come from a sync.Pool and go back emptied of anything
// that points into the text; a scanner whose buffers grew past 65,536
// elements is not kept.
//
// # Streaming
//
// NewStream returns a parser fed in deltas, as a model streams: Write
// returns the events that became final, in document order, and Close the
// last ones and the Result. An Event is kept text, safe to show now (it
// stays in the content whatever follows), or a complete call. For any
// split of a text: the Result of Close deep-equals Extract's; the text
// events, joined, are the text with Result.Removed cut out (untrimmed:
// Content is that, trimmed, when something was removed); the call events
// are Result.Calls, in order, each with its ID drawn from Options.Sources
// when its block is final, so deterministic Sources give Extract's IDs.
// CheckStream states these properties; FuzzStream holds the stream to them
// over random splits of every scenario input and seed, and the harness
// streams every leaked scenario whole, in deltas of 1, 2, 3, 7 and 64
// bytes and in a random split, and reports a "stream" mismatch where it
// differs.
//
// The stream runs Extract's own scanner on the text received so far, one
// top-level step at a time (a block, a code span, a family's form at a
// trigger), so that it cannot drift from the batch. A step is kept when
// all it read is there: for a step at a '<' that may open a tag or at a
// family's needle, 64 bytes more (its local checks compare tags up to that
// long) and more than white space after them. Otherwise the step is undone
// and tried again with more text, and at Close, where every step is final.
//
// What is held back. Text in which nothing may start (no '<', '`', '~' or
// needle) is emitted at once. At the end of a delta the stream holds only:
// a suffix that is a proper prefix of a family's needle ("to=fun" may
// become "to=functions."); the text from a trigger whose step is not final
// (a wrapper whose body has not ended; a '<' followed by the start of one
// of our tags or a family's token, until 64 bytes follow it, while "<span>"
// or "<img" go at once; a backtick run until its line ends); the opening
// tag of a container, which a block inside it may still remove; until
// something is removed, the text from an empty wrapper on (it goes only
// when something else is removed); and at the start of the text, a message
// whose first byte is '{' or '[', which may be only JSON calls (decided at
// Close). Thinking (<think>, <seed:think>) and fenced code blocks are kept
// text whatever ends them, so their text is emitted as it comes. A wrapper
// that never closes is held to Close, as Extract decides it by what
// follows it.
//
// Linear time over any split: a step that waits is tried again only once
// the text that came since its last attempt is an eighth of the text it
// reads again, so its attempts cost at most nine times that text in all
// (bench.BenchmarkLeakedStream, in deltas of 1 to 16 bytes, with Extract
// as its baseline: make bench-linear).
package leaked

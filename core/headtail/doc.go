// Package headtail is the head-tail strategy: it cuts a text to a
// byte budget by keeping its head and its tail by a configurable ratio, and,
// from the middle between them, its error-like lines with the lines that
// continue them (stack frames), with explicit counts of what was cut. It is
// a pure function: no LLM, no store, no I/O.
//
// Why: head-only truncation (Codex's and Aider's tool output caps) loses the
// tail, where a log's final error and a command's summary are, and every
// error line past the cut; a fixed head/tail split (Gemini CLI keeps 20% head
// and 80% tail) keeps the end but still loses an exception in the middle of
// a long log, often the root cause. Cut keeps both ends and the middle's
// errors, and says in each marker how much it cut.
//
// # Contract
//
// [Cut](text, maxBytes, o) returns text itself when len(text) <= maxBytes.
// Otherwise the output is at most maxBytes bytes, markers and their line
// endings included, and is, in order: the head (a prefix of text), then for
// each run of cut bytes a marker line, the kept runs of the middle between
// the markers, and the tail (a suffix of text). Every kept byte is a byte
// of text at its place in order; nothing is rewritten.
//
// Budget. Of maxBytes, the bytes reserved for the markers are set aside
// first (the last marker's at its widest possible text: every count as
// large as the whole input's; each error run's marker at the widest its gap
// can be). Of the rest, MaxErrorShare goes to the middle's error runs, each
// costing its bytes and its marker's reserve; what they leave unused goes
// back. What remains is split: HeadRatio of it for the head, the rest for
// the tail. Once laid out, the bytes the markers turned out not to need (and
// those the head's line back-off left) go to the tail, so the output is
// close to maxBytes without passing it.
//
// Lines. A line ends after its "\n" ("\r\n" is kept as it is); a last line
// without one is a line. The head ends at the end of its last whole line
// within its budget; when the first line alone is longer than the head's
// budget, the head is that many bytes of it, backed off to a rune start and
// never between "\r" and "\n". The tail likewise starts at a line start, or
// is a byte cut of the last line when that line alone is longer than the
// tail's budget. So a single huge line (a 5 MB JSON document on one line)
// degrades to a byte head and a byte tail around one marker. No rune of
// valid UTF-8 is ever split.
//
// Error-like lines. Each line wholly between the first head and tail (those
// planned before the error runs' unused bytes go back) is matched alone,
// without its line ending, against Options.ErrorPattern
// ([DefaultErrorPattern] when nil; its case rules are documented there). An
// error-like line and the lines after it that continue it
// (Options.Continuation, [IsContinuation] when nil: indented lines,
// "at ...", "Caused by...", "... 5 more", Go's goroutine and frame lines),
// at most Options.Context of them, stopping at the next error-like line,
// form a run. When every run fits in the error budget all are kept.
// Otherwise the first runs are kept while they fit in half of it (the root
// cause), and then the last runs that fit in what is left (the final error),
// newest first, the oldest of these losing continuation lines from its end
// before it is dropped; runs are never reordered. An error-like line longer
// than the error budget is not kept (it is counted).
//
// Markers. Each run of cut input becomes one line: [Marker] of a [Gap],
// ending with the text's line ending (that of its first line: "\r\n" or
// "\n"), preceded by one when the text above it does not end a line (a byte
// cut):
//
//	[... 1234 lines (56789 bytes) cut ...]
//	[... 1234 lines (56789 bytes) cut, 7 error-like lines among them ...]
//	[... 1234 lines (56789 bytes) cut; 12 error-like lines kept below ...]
//
// "lines" counts every line of which a byte was cut (a line partly kept by
// a byte cut counts), "bytes" the bytes cut, "error-like lines among them"
// the error-like lines matched and cut in that run, and "kept below", on the
// first marker only, the error-like lines of the middle kept after it.
// [MarkerPattern] recognizes a marker line.
//
// [Stats] counts what was kept and cut; LinesKept + LinesCut == Lines,
// BytesKept + BytesCut == len(text), and len(out) == BytesKept + MarkerBytes.
//
// Small budgets. When maxBytes cannot hold the widest marker, the error
// lines are not sought: head and tail surround one marker without error
// counts. When it cannot hold even that, the output is the head alone,
// without a marker (a budget under about 40 bytes).
//
// # Cost
//
// Time is linear in len(text) (bench/headtail_test.go; make bench-linear
// holds it to its 1 MiB and 10 MiB pairs): one pass counting lines, one
// pass over the middle's lines, and passes no longer than the budget for
// the head, the tail and the counts; memory is the output plus the error
// runs that fit the error budget. Unlike core/extract.Truncate, which reads
// only the bytes it keeps, Cut reads the whole middle: that is the price of
// finding its errors. The default pattern is not run line by line by Go's
// regexp, which is slow on it: an Aho-Corasick automaton over its words
// finds them, and their boundaries and cases are checked in code; a line
// with a Kelvin sign or a long s, which (?i) folds to k and s, goes to the
// pattern. A caller's own pattern runs on every line of the middle. Cut is
// deterministic and safe for concurrent use.
//
// # Choices where the spec is silent
//
//   - Budgets are bytes, like core/extract.Truncate's, but unlike it the
//     markers count within the budget.
//   - Error-like lines in the head and the tail are not matched: they are
//     kept anyway, and Stats.ErrorLines* count the middle's only.
//   - Option zero values mean the defaults ([DefaultHeadRatio] 0.2,
//     [DefaultMaxErrorShare] 0.3, [DefaultContext] 10); a negative value
//     means none (no head, no error runs but still counted, no context
//     lines).
//   - A byte-cut head that ends just before its line's "\n" reads like the
//     whole line, as the marker's own line ending follows it; the marker
//     counts that line among those cut, so the counts stay exact.
//   - The first marker says how many error-like lines were kept below it, so
//     that a reader knows the lines between later markers are picked, not
//     contiguous.
package headtail

// Package jsonaware is the json-aware strategy: it shortens a JSON tool
// output to a byte budget and keeps it JSON. [Shorten] takes valid JSON and
// returns valid JSON, whatever the budget: every object key path kept, long
// strings and long arrays shortened with explicit counts of what was cut,
// and the rows of an array that matter most (first, last, error-like,
// outliers) kept. It is a pure function: no LLM, no store, no state; the
// same input, budget and options give the same bytes.
//
// It combines what two agents do: Gemini CLI truncates long JSON string
// values while keeping every key; Headroom keeps the first and last rows of
// a JSON array, every row that looks like an error, and statistical outliers
// (and retrieves the rest on demand, which is the caller's business here:
// the markers say what is missing and where).
//
// # Contract
//
//   - An input that is not JSON (RFC 8259) is a [*jsonlex.SyntaxError] with the
//     byte offset, line and column of the fault, so that the caller can
//     fall back to another strategy; nothing is returned with it.
//   - An input that fits (at most maxBytes, once a leading byte order mark
//     is dropped) is returned as it is: the same bytes, white space and
//     all, Stats.Step 0. So Shorten is idempotent: its output, shortened
//     again to the same budget, comes back unchanged (an output over the
//     budget too: the smallest form of the smallest form is itself, its
//     markers counted as the rows and bytes they stand for; FuzzShorten
//     checks both).
//   - Otherwise the output is compact (no white space) and is the mildest
//     step of the ladder below that fits in maxBytes. When even the last
//     step (the smallest form) does not fit, the output is that form and
//     Stats.OverBudget is set: a budget is met whenever it can be met with
//     every key path kept.
//   - The output is always valid JSON (json.Valid) and valid UTF-8. Object
//     keys are kept in their order, byte for byte, duplicates included;
//     numbers (however large), true, false and null are kept byte for
//     byte; a string is kept as written (its escapes as they are) or cut as
//     below. Nothing is reordered.
//   - Every key path is kept: a path is the chain of keys from the root,
//     an array's rows counted as one step whatever their index ("items[].
//     id"), and for every path of the input some object at that path
//     appears in the output. An array never cuts the row that holds the
//     first occurrence of a path (Stats.KeyRowsKept counts those kept only
//     for that). A key under a row that is cut appears in the output only
//     if the same path is kept elsewhere: keys are kept per path, not per
//     occurrence.
//   - Determinism: no map is iterated, no clock is read; key paths are
//     numbered in the order they first occur (their hash seed varies per
//     process and decides nothing).
//
// # Markers
//
// A shortened string keeps a head of its text as written and ends with a
// string marker, inside the string:
//
//	"Traceback (most recent call last):\n  File… [+1234 bytes]"
//
// "… [+N bytes]" (… is U+2026, written as UTF-8) says that N bytes of the
// text as written were cut (an escape such as \n counts its two bytes). The
// head never ends inside an escape, a surrogate pair of escapes, or a UTF-8
// character. A string is cut only when the result is shorter than the
// original. A string that already ends with a marker (a second Shorten) is
// cut before its marker, and the new marker holds the sum of both counts.
// [StringMarker] formats one and [ParseStringMarker] reads one.
//
// A shortened array holds, where rows were cut, one string element per run
// of consecutive rows cut, a rows marker:
//
//	[{"id":0},{"id":1},{"id":2},"[… 47 rows cut …]",{"id":50,"level":"error"},"[… 46 rows cut …]",{"id":97}, ...]
//
// "[… N rows cut …]" ("[… 1 row cut …]" for one) stands for N rows in that
// place, so the index of every kept row can be counted back. A marker that
// is a row of the input is cut as a row and its count joins the new
// marker's, so that shortening twice counts the rows of the original.
// [RowsMarker] formats one and [ParseRowsMarker] reads one. A marker is an
// element, so the array stays an array; a caller that wants the rows
// marked differently can recognise them with ParseRowsMarker.
//
// # Which rows an array keeps
//
// At a step with a row limit k, an array of more than 2k+1 rows keeps its
// first k and last k rows, and also, from the middle:
//
//   - a row that holds the first occurrence of a key path (always: the
//     key paths contract);
//   - error-like rows (all of them, until the late steps that cap them per
//     array: then the first ⌊e/2⌋ and the last ⌈e/2⌉ of them, the last
//     error being most often the one that ended the run);
//   - outliers (until the late steps).
//
// A row is error-like when anything inside it is (at any depth):
//
//   - a string that ErrorPattern matches, its text as written
//     ([DefaultErrorPattern]: error, exception, fail, fatal, panic,
//     traceback, timeout, timed out, critical, crash, denied, refused,
//     abort, in any case and anywhere in a word, and "HTTP/1.1 503" or
//     "status 503" written as text); object keys are not matched, as
//     every row shares them;
//   - a member whose key (without case) is error, errors, err, exception,
//     exc, fault, failure, stacktrace, stack_trace or traceback, and whose
//     value holds something (not null, false, 0, "", [] or {});
//   - a member status, status_code, statusCode, http_status, httpStatus,
//     response_code or responseCode from 500 to 599 (a number, or a string
//     of three digits);
//   - a member level, severity, loglevel, log_level, lvl or levelname
//     whose value is err, error, crit, critical, alert, emerg, emergency,
//     fatal, panic or severe (without case);
//   - a member ok, success or succeeded that is false.
//
// An outlier is a row of an array of at least 8 rows with a number (the
// row itself, or a direct member of an object row, by key) that lies
// farther than 3 scaled median absolute deviations (1.4826 x MAD, the
// standard deviation of a normal sample) from the median of that number
// over the rows that have it; only numbers present in at least 8 rows with
// a MAD above zero count (so a column of equal values with one odd value
// has no outlier: a MAD of zero says nothing of spread). At most KeepRows
// outliers are flagged per array, the farthest first. This costs a sort
// per numeric column of each array: n log n.
//
// # The ladder
//
// Shorten tries steps from the mildest to the smallest form and takes the
// first that fits, by binary search over the steps. Each step keeps at
// most what the one before it kept, and a run of rows becomes a marker
// only when the marker is shorter than the rows (so [1,2,3] stays as it
// is), so no step is larger than the one before it, and the last is the
// smallest of all:
//
//  1. the input written compact;
//  2. strings cut to 1 MiB, then to four fifths of that at each step, down
//     to MaxStringBytes (strings first, as Gemini CLI);
//  3. arrays cut to 1,048,576 rows each side, then four fifths of that at
//     each step, down to KeepRows (first, last, error-like, outliers and
//     key path rows kept);
//  4. deeper cuts: strings halved from MaxStringBytes/2 down to 16 bytes;
//  5. fewer kept rows: KeepRows-1 down to 1 each side;
//  6. outliers no longer kept; then error-like rows capped at 4,096 per
//     array, then four fifths of that at each step, down to 1;
//  7. the smallest form: every string cut to its marker alone, every
//     array reduced to its key path rows and markers.
//
// Stats.Step says which step was taken (1 is the first above), Stats.Steps
// how many there are for the options given.
//
// # Input, where the RFC is silent
//
//   - A leading UTF-8 byte order mark is skipped (and not written back);
//     white space around the value is allowed.
//   - Empty input, or white space alone, is a SyntaxError ("empty input"):
//     there is no JSON to keep.
//   - A top-level scalar is a document too: a long top-level string is
//     cut like any other; a number or literal is kept as it is.
//   - Data after the top-level value is a SyntaxError at its first byte.
//   - Invalid UTF-8 inside a string is a SyntaxError at its first bad byte
//     (encoding/json would accept it and replace it with U+FFFD when
//     decoding; a strategy that keeps bytes cannot keep those and stay
//     UTF-8). A lone surrogate escape (\ud800) is valid JSON and is kept.
//   - Nesting deeper than [MaxDepth] (10,000, as encoding/json) is a
//     SyntaxError at the bracket that goes too deep; the reader keeps its
//     own stack, and the writer recurses at most MaxDepth levels.
//   - An input larger than [MaxInput] (2 GiB - 1) is a SyntaxError.
//   - A budget of zero or less asks for the smallest form.
//
// # Cost
//
// Time is linear in the input (bench.BenchmarkJSONAwareAdversarial holds
// the hostile documents to it at 1 MiB and 10 MiB). One pass reads the
// input into a flat array of nodes and flags error-like rows, outliers and
// key path rows as it goes; each step tried is one walk that sizes what the
// step would write, without writing, and a run of rows the step cuts is
// sized only until it is longer than its marker. The default options give
// 134 steps: Shorten measures the smallest form, then about 8 steps by
// binary search, and writes the step taken once. Key paths are interned as
// 64-bit hashes, only inside arrays. The reader is hand-written over
// core/jsonlex's grammar (shared with core's other JSON readers) rather
// than encoding/json's Decoder.Token, which allocates per token and gives
// no offsets to copy scalars byte for byte.
package jsonaware

package main

// The leaves that run one parser of core on a file or stdin and print its
// result as JSON: chunk, stats, truncate, leaked, final-report and schema.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/core/schema"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/fakes"
)

// chunkLeaf prints the chunk plan of FILE or stdin: {tokens, budget,
// overlap, target, chunks: [{index, start, end, tokens, overlap_tokens}]}.
func chunkLeaf() leaf {
	return leaf{name: "chunk", summary: "plan balanced, overlapping chunks of a file for a token budget",
		synopsis: "[FILE] --budget B [--overlap 10] [--encoding cl100k_base|o200k_base|o200k_harmony] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			budget := fs.Int("budget", 0, "most tokens per chunk, overlap included (required)")
			overlap := fs.Float64("overlap", chunk.DefaultOverlap*100, "overlap between consecutive chunks, in percent of the budget (0 to under 50)")
			enc := encodingFlag(fs)
			return func(_ context.Context, c *call) (any, error) {
				if *budget <= 0 {
					return nil, errors.New("--budget is required (a positive number of tokens)")
				}
				tk, name, text, err := c.tokenizedText(enc)
				if err != nil {
					return nil, err
				}
				plan, err := chunk.Make(text, tk, *budget, *overlap/100)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				if plan.Chunks == nil {
					plan.Chunks = []chunk.Chunk{} // empty input: "chunks":[], not null
				}
				return plan, nil
			}
		}}
}

// statsLeaf prints the stats the store keeps for an output:
// {"bytes","lines","tokens","avg_line_bytes"}, the numbers store.Measure
// gives for the whole text. It reads FILE or stdin in one pass: bytes and
// lines are counted as the text goes by, and tokens by a tokens.Counter,
// which holds only the text since the last line that starts with a
// printable ASCII byte (so a few KB for a log; a text without such a line
// is held whole, up to --max-input).
func statsLeaf() leaf {
	return leaf{name: "stats", summary: "print bytes, lines, tokens and average line bytes of an output",
		synopsis: "[FILE] [--encoding cl100k_base|o200k_base|o200k_harmony] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			enc := encodingFlag(fs)
			return func(_ context.Context, c *call) (any, error) {
				tk, err := enc()
				if err != nil {
					return nil, err
				}
				in, err := c.open()
				if err != nil {
					return nil, err
				}
				defer in.Close()
				m := measurer{tokens: tk.NewCounter()}
				if _, err := io.CopyBuffer(&m, in, make([]byte, 64<<10)); err != nil {
					return nil, err
				}
				return m.stats(), nil
			}
		}}
}

// measurer counts what store.Measure counts, over a stream.
type measurer struct {
	bytes, breaks int
	tokens        *tokens.Counter
}

func (m *measurer) Write(p []byte) (int, error) {
	m.bytes += len(p)
	m.breaks += bytes.Count(p, []byte{'\n'})
	return m.tokens.Write(p)
}

// stats is store.Measure's result: lines are the line breaks plus one for
// any text, and the average rounds up.
func (m *measurer) stats() store.Stats {
	st := store.Stats{Bytes: m.bytes, Tokens: m.tokens.Tokens()}
	if m.bytes > 0 {
		st.Lines = m.breaks + 1
		st.AvgLineBytes = (st.Bytes + st.Lines - 1) / st.Lines
	}
	return st
}

// truncateLeaf prints what the truncate strategy keeps of FILE or stdin:
// {"text", "bytes", "truncated_bytes"}.
func truncateLeaf() leaf {
	return leaf{name: "truncate", summary: "keep the head and tail of an output around a marker, as the truncate strategy does",
		synopsis: "--max-bytes N [FILE] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			maxBytes := fs.Int("max-bytes", -1, "head-plus-tail budget in bytes (required)")
			return func(_ context.Context, c *call) (any, error) {
				if *maxBytes < 0 {
					return nil, errors.New("--max-bytes is required (0 or more)")
				}
				_, text, err := c.text()
				if err != nil {
					return nil, err
				}
				kept, cut := extract.Truncate(text, *maxBytes)
				return struct {
					Text      string `json:"text"`
					Bytes     int    `json:"bytes"`
					Truncated int    `json:"truncated_bytes"`
				}{kept, len(text), cut}, nil
			}
		}}
}

// leakedLeaf prints the tool calls leaked as text in FILE or stdin:
// {"content","tool_calls","patterns","dropped","repairs"}. --tools FILE
// reads the tools offered to the model (leaked.ParseTools: a tool list of
// any wire, or a request body with "tools"), which types the values of
// XML-parameter calls and lets a GLM call without arguments through.
// --stream reads deltas instead and prints events as they come
// (streamLeaked).
func leakedLeaf() leaf {
	return leaf{name: "leaked", summary: "recover tool calls leaked as text inside <tool_call>-like tags",
		synopsis: "[FILE] [--ids uuid|seq] [--scan-fences] [--tools FILE] [--pythonic] [--stream] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			ids := fs.String("ids", "uuid", "call ids: uuid (random UUIDv4) or seq (00000000-0000-4000-8000-000000000001, ... for reproducible output)")
			fences := fs.Bool("scan-fences", false, "also extract wrappers inside fenced code blocks")
			pythonic := fs.Bool("pythonic", false, "also recognize pythonic call lists: [get_weather(city=\"NYC\"), ...] (Llama 3.2, Llama 4)")
			tools := fs.String("tools", "", "the tools offered to the model (a JSON tool list or a request body with \"tools\"): types XML parameter values by their schemas")
			stream := fs.Bool("stream", false, "read deltas, one JSON string per line, and print the events as JSON lines as they come: {\"text\":…}, {\"call\":…}, then {\"result\":…}")
			return func(_ context.Context, c *call) (any, error) {
				opts := leaked.Options{ScanFences: *fences, Pythonic: *pythonic}
				switch *ids {
				case "uuid":
				case "seq":
					opts.Sources = fakes.NewSources()
				default:
					return nil, fmt.Errorf("--ids %q: want uuid or seq", *ids)
				}
				if *tools != "" {
					var err error
					if opts.Tools, err = readTools(*tools, c.maxInput); err != nil {
						return nil, err
					}
				}
				if *stream {
					return streamLeaked(c, opts), nil
				}
				_, text, err := c.text()
				if err != nil {
					return nil, err
				}
				return leaked.Extract(text, opts), nil
			}
		}}
}

// readTools reads the tool list of --tools FILE, within --max-input. A list
// it cannot read is named with the byte where the problem is:
// "--tools t.json: byte 14: invalid JSON: invalid character '}' ...".
func readTools(file string, limit byteSize) (leaked.Tools, error) {
	if file == "-" {
		return leaked.Tools{}, errors.New("--tools -: want a file (standard input holds the text)")
	}
	name, data, err := readBytes([]string{file}, nil, limit)
	if err != nil {
		return leaked.Tools{}, fmt.Errorf("--tools %w", err)
	}
	t, err := leaked.ParseTools(data)
	var te *leaked.ToolsError
	if errors.As(err, &te) {
		return leaked.Tools{}, fmt.Errorf("--tools %s: byte %d: %s", name, te.Offset, te.Msg)
	}
	return t, err
}

// finalReportLeaf prints {"found":bool,"content":string,"closed":bool} for
// the final-report wrapper with the given nonce in FILE or stdin. Not finding
// a report is a result, not an error: exit 0.
func finalReportLeaf() leaf {
	return leaf{name: "final-report", summary: "parse a final-report wrapper from a file or stdin",
		synopsis: "--nonce NONCE [FILE] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			nonce := fs.String("nonce", "", "the session nonce of the <ai-agent-NONCE-FINAL> wrapper (required)")
			return func(_ context.Context, c *call) (any, error) {
				if *nonce == "" {
					return nil, errors.New("--nonce is required")
				}
				name, text, err := c.text()
				if err != nil {
					return nil, err
				}
				rep, err := finalreport.Parse(text, *nonce)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				return rep, nil
			}
		}}
}

// schemaGroup is `toolout schema summarize|inspect`.
func schemaGroup() group {
	return group{name: "schema", subs: []command{schemaSummarizeLeaf().sub(), schemaInspectLeaf().sub()}}
}

// schemaSummarizeLeaf prints {"output_fields":[…],"has_hidden_fields":bool}.
func schemaSummarizeLeaf() leaf {
	return leaf{name: "schema summarize", summary: "fold an output schema into output_fields",
		synopsis: "[FILE] [--max-fields N --max-depth N] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			maxFields := fs.Int("max-fields", schema.MaxSummaryFields, "most lines of output_fields")
			maxDepth := fs.Int("max-depth", schema.DefaultSummaryMaxDepth, "deepest field listed (root fields are depth 1)")
			return func(_ context.Context, c *call) (any, error) {
				if *maxFields < 2 || *maxDepth < 1 {
					return nil, errors.New("--max-fields must be at least 2 and --max-depth at least 1")
				}
				name, data, err := c.bytes()
				if err != nil {
					return nil, err
				}
				s, err := schema.Summarize(data, schema.Options{MaxFields: *maxFields, MaxDepth: *maxDepth})
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				return s, nil
			}
		}}
}

// schemaInspectLeaf prints the inspector's answer (the data of the
// inspect_tool_output envelope) for one field path of the output schema in
// FILE. A call the inspector cannot answer (no output schema, an empty
// schema, a field path that does not resolve) is bad input: one line on
// stderr, exit 2.
func schemaInspectLeaf() leaf {
	return leaf{name: "schema inspect", summary: "inspect one field path of an output schema",
		synopsis: "--tool-id ID --field-path P [FILE] [--max-depth N --max-fields N] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			toolID := fs.String("tool-id", "", "the tool whose output schema FILE is (echoed as tool_id; required)")
			fieldPath := fs.String("field-path", "", `field to inspect: "a.b", "a[]", "a[].b", "[][]"; empty for the root`)
			maxDepth := fs.Int("max-depth", schema.DefaultInspectMaxDepth, "levels of the flattened preview")
			maxFields := fs.Int("max-fields", schema.DefaultInspectMaxFields, "most children and flattened fields")
			return func(_ context.Context, c *call) (any, error) {
				if *toolID == "" || *maxDepth < 1 || *maxFields < 1 {
					return nil, errors.New("--tool-id is required; --max-depth and --max-fields must be at least 1")
				}
				name, data, err := c.bytes()
				if err != nil {
					return nil, err
				}
				ix := schema.NewIndex(schema.ToolSpec{ToolID: *toolID, OutputSchema: data})
				res := ix.Inspect(schema.InspectArgs{ToolID: *toolID, FieldPath: *fieldPath, MaxDepth: *maxDepth, MaxFields: *maxFields})
				if !res.Successful {
					return nil, fmt.Errorf("%s: %s", name, res.Error)
				}
				return res.Data, nil
			}
		}}
}

package importer

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// ImportOptions configure Import.
type ImportOptions struct {
	// Dir is the folder the scenario files go to, e.g. "scenarios/regress".
	Dir string
	// Name is the scenario's base name (the session scenario is Name.yaml).
	Name string
	// TraceName names the trace in the provenance (its base name).
	TraceName string
	// TracePath names the trace in errors, as the user gave it; empty
	// means TraceName.
	TracePath string
	// At picks the message to cut at; negative means the only candidate.
	At int
	// Final makes a conversation with no result over the cap and no
	// leaked call a candidate too: its last answer, the scenario a replay
	// of the conversation from the user message before it (a recording of
	// live traffic, where nothing went wrong, is such a conversation).
	Final bool
	// MaxBytes is the byte cap above which a tool result is oversized; zero
	// means the session's default.
	MaxBytes int
	// RedactEmails also replaces e-mail addresses.
	RedactEmails bool
	// Redact are extra regular expressions whose matches are replaced.
	Redact []string
	// Format is the trace's format: FormatMessages, FormatChatCompletionsLog,
	// or FormatAuto (or empty): told from the content (see doc.go).
	Format string
	// TraceID picks, in OpenTelemetry spans that hold several
	// conversations, the one that holds that trace's chat spans.
	TraceID string
	// Command is the program as the user runs it, which hints name
	// ("go tool toolout import SPANS.json logs.json"); empty means
	// harness.DefaultCommand. cmd/toolout sets it from its own invocation.
	Command string
}

// ImportedFile is one file Import produced, its path under Dir.
type ImportedFile struct {
	Path string
	Data []byte
}

// PayloadBytes is the size above which a text goes to a file beside the
// scenario instead of inline.
const PayloadBytes = 4 << 10

// The YAML shapes of imported scenarios, in field order (the fakes.Step
// fields, without the empty ones).
type importedStep struct {
	ID      string          `yaml:"id"`
	Match   importedMatch   `yaml:"match"`
	Times   int             `yaml:"times,omitempty"`
	Respond importedRespond `yaml:"respond"`
}

type importedMatch struct {
	Tag      string   `yaml:"tag"`
	Turn     int      `yaml:"turn,omitempty"`
	Contains []string `yaml:"contains,omitempty"`
}

type importedRespond struct {
	Text      *string        `yaml:"text,omitempty"`
	Final     *string        `yaml:"final,omitempty"`
	ToolCalls []importedCall `yaml:"tool_calls,omitempty"`
	Error     *importedError `yaml:"error,omitempty"`
}

type importedError struct {
	Kind    string `yaml:"kind"`
	Message string `yaml:"message,omitempty"`
}

type importedCall struct {
	ID     string         `yaml:"id"`
	Name   string         `yaml:"name"`
	Custom bool           `yaml:"custom,omitempty"`
	Input  *string        `yaml:"input,omitempty"`
	Args   map[string]any `yaml:"args,omitempty"`
	Raw    *string        `yaml:"raw,omitempty"`
	// args are JSON arguments that Args scripts, decoded into it only as
	// the step is rendered (see renderScenario), one step at a time.
	args string
}

// The YAML shapes of imported scenarios, in field order.
type importedText struct {
	Text string
	File string
	// MCP is the file that holds an MCP tool result as the trace had it.
	MCP string
}

func (t importedText) MarshalYAML() (any, error) {
	switch {
	case t.MCP != "":
		return map[string]any{"mcp": map[string]string{"file": t.MCP}}, nil
	case t.File != "":
		return map[string]string{"file": t.File}, nil
	}
	return t.Text, nil
}

type importedTool struct {
	Name    string         `yaml:"name"`
	Outputs []importedText `yaml:"outputs"`
}

type importedScenario struct {
	Description string         `yaml:"description"`
	Labels      []string       `yaml:"labels"`
	Component   string         `yaml:"component"`
	Wire        string         `yaml:"wire,omitempty"`
	Source      harness.Source `yaml:"source"`
	Config      any            `yaml:"config,omitempty"`
	Input       any            `yaml:"input"`
	LLM         []importedStep `yaml:"llm,omitempty"`
	Expect      any            `yaml:"expect"`
}

// Import turns a production trace into regression scenarios: a session
// scenario that replays the conversation up to the chosen message, and for
// a leaked-call message a leaked scenario for that message alone. See
// docs/import.md.
func Import(trace []byte, opts ImportOptions) ([]ImportedFile, error) {
	return ImportFiles([]TraceFile{{Name: cmp.Or(opts.TracePath, opts.TraceName), Data: trace}}, opts)
}

// ImportFiles is Import of a trace given in several files, read as one:
// OpenTelemetry spans and log records in separate files, as one file
// exporter per signal writes them, or the spans of several files. Errors
// name the file of the problem; the provenance's SHA-256 is that of the
// files' bytes one after the other, in the order given.
func ImportFiles(files []TraceFile, opts ImportOptions) ([]ImportedFile, error) {
	im, err := newImporter(files, opts)
	if err != nil {
		return nil, err
	}
	if err := im.findStart(); err != nil {
		return nil, err
	}
	if err := im.replay(); err != nil {
		return nil, err
	}
	data, err := im.sessionScenario()
	if err != nil {
		return nil, err
	}
	im.files = append(im.files, ImportedFile{Path: opts.Name + ".yaml", Data: data})
	if im.cut.kind == "leaked" {
		data, err := im.leakedScenario()
		if err != nil {
			return nil, err
		}
		im.files = append(im.files, ImportedFile{Path: opts.Name + "-leaked.yaml", Data: data})
	}
	if err := im.captured(); err != nil {
		return nil, err
	}
	for i := range im.files {
		im.files[i].Path = path.Join(opts.Dir, im.files[i].Path)
	}
	return dedupeFiles(im.files), nil
}

// Cut returns the index of the message Import would cut at with opts:
// opts.At, when it is a candidate, or the only candidate. The command
// names a scenario after it.
func Cut(trace []byte, opts ImportOptions) (int, error) {
	return CutFiles([]TraceFile{{Name: cmp.Or(opts.TracePath, opts.TraceName), Data: trace}}, opts)
}

// CutFiles is Cut of a trace given in several files (see ImportFiles).
func CutFiles(files []TraceFile, opts ImportOptions) (int, error) {
	im, err := newImporter(files, opts)
	if err != nil {
		return 0, err
	}
	return im.cut.index, nil
}

// newImporter parses and redacts the trace and picks the cut.
func newImporter(files []TraceFile, opts ImportOptions) (*importer, error) {
	if len(files) == 0 {
		return nil, errors.New("importer: no trace file")
	}
	trace := files[0].Data // one file: the trace itself, not a copy
	if len(files) > 1 {
		trace = nil
		for _, f := range files {
			trace = append(trace, f.Data...)
		}
	}
	im := &importer{opts: opts, trace: trace, shown: cmp.Or(opts.TracePath, opts.TraceName, names(files)), maxBytes: opts.MaxBytes,
		results: map[string][]importedText{}, sizes: map[string][]int{}}
	if im.maxBytes <= 0 {
		im.maxBytes = components.DefaultMaxToolResponseBytes
	}
	var err error
	if im.tr, err = parseFiles(files, opts); err != nil {
		return nil, err
	}
	im.msgs = im.tr.msgs
	if im.red, err = newRedactor(opts.RedactEmails, opts.Redact); err != nil {
		return nil, err
	}
	for i := range im.msgs {
		im.msgs[i].text = im.red.apply(im.msgs[i].text)
		for j := range im.msgs[i].ToolCalls {
			im.msgs[i].ToolCalls[j].Function.Arguments = im.red.apply(im.msgs[i].ToolCalls[j].Function.Arguments)
		}
	}
	return im, im.chooseCut()
}

// importer holds one import's state, step by step.
type importer struct {
	opts     ImportOptions
	trace    []byte
	sum      string // the trace's SHA-256 (see sha)
	shown    string // names the trace in errors
	maxBytes int
	tr       *parsedTrace
	msgs     []traceMessage
	red      *redactor

	cut   candidate
	start int // the user message the session starts from
	files []ImportedFile

	// What the replay found: tool results per tool name, the tools in
	// order of appearance, the scripted steps, the TURN-FAILED messages,
	// the messages used.
	results    map[string][]importedText
	toolOrder  []string
	steps      []importedStep
	turnFailed int
	used       []int
	// sizes are the lengths of results, as results; handle is the one the
	// oversized cut's result is stored under, and stored how many results
	// the session stores (see draws).
	sizes  map[string][]int
	handle string
	stored int
}

// candidate is a message Import can cut at.
type candidate struct {
	index int
	kind  string // "leaked", "oversized" or "final"
}

// chooseCut finds the candidates, leaked calls in an assistant message
// without native calls or a tool result over the cap, and picks one.
func (im *importer) chooseCut() error {
	var cands []candidate
	for i, m := range im.msgs {
		switch {
		case m.Role == "assistant" && len(m.ToolCalls) == 0 && len(components.RecoverLeaked(m.text).Patterns) > 0:
			cands = append(cands, candidate{i, "leaked"})
		case m.Role == "tool" && sessionLen(m.text) > im.maxBytes:
			cands = append(cands, candidate{i, "oversized"})
		}
	}
	if len(cands) == 0 && im.opts.Final {
		// No result over the cap and no leaked call: the conversation's
		// last answer, replayed from the user message before it.
		for i := len(im.msgs) - 1; i >= 0; i-- {
			if m := im.msgs[i]; m.Role == "assistant" && len(m.ToolCalls) == 0 && strings.TrimSpace(m.text) != "" {
				cands = append(cands, candidate{i, "final"})
				break
			}
		}
	}
	describe := func() string {
		var parts []string
		for _, c := range cands {
			parts = append(parts, fmt.Sprintf("%d (%s)", c.index, c.kind))
		}
		return strings.Join(parts, ", ")
	}
	switch at := im.opts.At; {
	case len(cands) == 0 && im.opts.Final:
		return fmt.Errorf("%s: no message to import: no assistant answer, no assistant message with leaked tool calls and no tool result over %d bytes", im.shown, im.maxBytes)
	case len(cands) == 0:
		return fmt.Errorf("%s: no message to import: no assistant message with leaked tool calls and no tool result over %d bytes", im.shown, im.maxBytes)
	case at >= 0:
		i := slices.IndexFunc(cands, func(c candidate) bool { return c.index == at })
		if i < 0 {
			return fmt.Errorf("%s: --at %d: message %d is not a candidate (candidates: %s)", im.shown, at, at, describe())
		}
		im.cut = cands[i]
	case len(cands) > 1:
		return fmt.Errorf("%s: several messages could be imported: %s; choose one with --at", im.shown, describe())
	default:
		im.cut = cands[0]
	}
	return nil
}

// findStart finds the last human user message before the cut.
func (im *importer) findStart() error {
	for i := im.cut.index - 1; i >= 0; i-- {
		if im.msgs[i].Role == "user" && !strings.HasPrefix(im.msgs[i].text, "TURN-FAILED") {
			im.start = i
			return nil
		}
	}
	return im.tr.msgErrorf(im.cut.index, nil, "no user message before it to start the session from")
}

func (im *importer) addTool(name string) {
	if !slices.Contains(im.toolOrder, name) {
		im.toolOrder = append(im.toolOrder, name)
	}
}

// nextAnswer is the trace's next assistant answer after the cut (a final
// cut's: the answer cut at).
func (im *importer) nextAnswer() string {
	if im.cut.kind == "final" {
		return strings.TrimSpace(im.msgs[im.cut.index].text)
	}
	for _, m := range im.msgs[im.cut.index+1:] {
		if m.Role == "assistant" && strings.TrimSpace(m.text) != "" && len(m.ToolCalls) == 0 &&
			len(components.RecoverLeaked(m.text).Patterns) == 0 {
			return strings.TrimSpace(m.text) // a final report's content is trimmed
		}
	}
	return "(the imported trace ends here)"
}

func (im *importer) source() harness.Source {
	return harness.Source{Trace: im.opts.TraceName, SHA256: im.sha(), Messages: im.used, Redacted: im.red.summary(), Omitted: im.omitted(im.used)}
}

// sha is the trace's SHA-256, hashed once (each scenario's provenance
// names it; a trace may be 128 MiB).
func (im *importer) sha() string {
	if im.sum == "" {
		im.sum = sha(im.trace)
	}
	return im.sum
}

// omitted counts the kinds of blocks of messages that the scenario does
// not replay as they were, "kind xN" in the order of the kinds' names;
// nil when there are none.
func (im *importer) omitted(messages []int) []string {
	counts := map[string]int{}
	for _, i := range messages {
		for _, kind := range im.msgs[i].omitted {
			counts[kind]++
		}
	}
	var out []string
	for _, kind := range slices.Sorted(maps.Keys(counts)) {
		out = append(out, fmt.Sprintf("%s x%d", kind, counts[kind]))
	}
	return out
}

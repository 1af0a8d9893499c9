package harness

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/core/session"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// ImportOptions configure Import.
type ImportOptions struct {
	// Dir is the folder the scenario files go to, e.g. "scenarios/regress".
	Dir string
	// Name is the scenario's base name (the session scenario is Name.yaml).
	Name string
	// TraceName names the trace in the provenance (its base name).
	TraceName string
	// At picks the message to cut at; negative means the only candidate.
	At int
	// MaxBytes is the byte cap above which a tool result is oversized; zero
	// means the session's default.
	MaxBytes int
	// RedactEmails also replaces e-mail addresses.
	RedactEmails bool
	// Redact are extra regular expressions whose matches are replaced.
	Redact []string
}

// ImportedFile is one file Import produced, its path under Dir.
type ImportedFile struct {
	Path string
	Data []byte
}

// PayloadBytes is the size above which a text goes to a file beside the
// scenario instead of inline.
const PayloadBytes = 4 << 10

// traceMessage is one OpenAI-style chat message of a trace.
type traceMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`

	text string // the content as text, redacted
}

// parseTrace reads a bare list of messages or {"messages": [...]}. Errors
// name the line:col of bad JSON, or the message index and field.
func parseTrace(data []byte, name string) ([]traceMessage, error) {
	if err := syntaxError(data, name); err != nil {
		return nil, err
	}
	var raws []json.RawMessage
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		var wrapper struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(data, &wrapper); err != nil {
			return nil, fmt.Errorf("%s: field messages: %s", name, typeError(err))
		}
		if wrapper.Messages == nil {
			return nil, fmt.Errorf("%s: want a list of messages, bare or under \"messages\"", name)
		}
		raws = wrapper.Messages
	} else if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("%s: want a JSON list of messages, bare or under \"messages\": %v", name, err)
	}
	msgs := make([]traceMessage, len(raws))
	for i, raw := range raws {
		at := fmt.Sprintf("%s: message %d", name, i)
		dec := json.NewDecoder(bytes.NewReader(raw))
		var m traceMessage
		if err := dec.Decode(&m); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				return nil, fmt.Errorf("%s: field %s: %s", at, te.Field, typeError(err))
			}
			return nil, fmt.Errorf("%s: %s", at, typeError(err))
		}
		switch m.Role {
		case "system", "developer", "user", "assistant", "tool":
		case "":
			return nil, fmt.Errorf("%s: field role: missing", at)
		default:
			return nil, fmt.Errorf("%s: field role: %q is not system, user, assistant or tool", at, m.Role)
		}
		text, err := contentText(m.Content)
		if err != nil {
			return nil, fmt.Errorf("%s: field content: %v", at, err)
		}
		m.text = text
		for j, tc := range m.ToolCalls {
			if tc.Function.Name == "" {
				return nil, fmt.Errorf("%s: field tool_calls[%d].function.name: missing", at, j)
			}
			if tc.ID == "" {
				return nil, fmt.Errorf("%s: field tool_calls[%d].id: missing", at, j)
			}
		}
		if m.Role == "tool" && m.ToolCallID == "" {
			return nil, fmt.Errorf("%s: field tool_call_id: missing on a tool message", at)
		}
		msgs[i] = m
	}
	return msgs, nil
}

func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("want a string, null or a list of text parts")
	}
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// redactor replaces secrets with numbered placeholders, the same secret
// always by the same placeholder.
type redactor struct {
	rules  []redactRule
	seen   map[string]string
	counts map[string]int
}

type redactRule struct {
	kind string
	re   *regexp.Regexp
	// group is the submatch that is the secret (0: the whole match).
	group int
}

func newRedactor(emails bool, extra []string) (*redactor, error) {
	r := &redactor{seen: map[string]string{}, counts: map[string]int{}}
	r.rules = []redactRule{
		{"API_KEY", regexp.MustCompile(`\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{16,}`), 0},
		{"API_KEY", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), 0},
		{"TOKEN", regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|github_pat|xox[abpr])_[A-Za-z0-9_-]{16,}`), 0},
		{"BEARER", regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{8,})`), 1},
		{"PASSWORD", regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@`), 1},
	}
	if emails {
		r.rules = append(r.rules, redactRule{"EMAIL", regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`), 0})
	}
	for _, x := range extra {
		re, err := regexp.Compile(x)
		if err != nil {
			return nil, fmt.Errorf("--redact %q: %v", x, err)
		}
		r.rules = append(r.rules, redactRule{"SECRET", re, 0})
	}
	return r, nil
}

// apply replaces, rule by rule, each match's secret where the rule found it.
// (Replacing the secret's first occurrence in the match would leave it in
// place when the same text came earlier, as in https://pw:pw@host.)
func (r *redactor) apply(s string) string {
	for _, rule := range r.rules {
		var b strings.Builder
		at := 0
		for _, m := range rule.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2*rule.group], m[2*rule.group+1]
			if start < at {
				continue
			}
			secret := s[start:end]
			ph, ok := r.seen[secret]
			if !ok {
				r.counts[rule.kind]++
				ph = fmt.Sprintf("<REDACTED_%s_%d>", rule.kind, r.counts[rule.kind])
				r.seen[secret] = ph
			}
			b.WriteString(s[at:start])
			b.WriteString(ph)
			at = end
		}
		s = b.String() + s[at:]
	}
	return s
}

func (r *redactor) summary() []string {
	kinds := make([]string, 0, len(r.counts))
	for k := range r.counts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	out := []string{}
	for _, k := range kinds {
		out = append(out, fmt.Sprintf("%s x%d", strings.ToLower(k), r.counts[k]))
	}
	return out
}

// The YAML shapes of imported scenarios, in field order (the fakes.Step
// fields, without the empty ones).
type importedStep struct {
	ID      string          `yaml:"id"`
	Match   importedMatch   `yaml:"match"`
	Times   int             `yaml:"times,omitempty"`
	Respond importedRespond `yaml:"respond"`
}

type importedMatch struct {
	Tag string `yaml:"tag"`
}

type importedRespond struct {
	Text      *string        `yaml:"text,omitempty"`
	Final     *string        `yaml:"final,omitempty"`
	ToolCalls []importedCall `yaml:"tool_calls,omitempty"`
}

type importedCall struct {
	ID   string         `yaml:"id"`
	Name string         `yaml:"name"`
	Args map[string]any `yaml:"args,omitempty"`
	Raw  *string        `yaml:"raw,omitempty"`
}

// The YAML shapes of imported scenarios, in field order.
type importedText struct {
	Text string
	File string
}

func (t importedText) MarshalYAML() (any, error) {
	if t.File != "" {
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
	Source      Source         `yaml:"source"`
	Config      any            `yaml:"config,omitempty"`
	Input       any            `yaml:"input"`
	LLM         []importedStep `yaml:"llm,omitempty"`
	Expect      any            `yaml:"expect"`
}

// Import turns a production trace into regression scenarios: a session
// scenario that replays the conversation up to the chosen message, and for
// a leaked-call message a leaked scenario for that message alone. See the
// README, "Importing a trace".
func Import(trace []byte, opts ImportOptions) ([]ImportedFile, error) {
	msgs, err := parseTrace(trace, opts.TraceName)
	if err != nil {
		return nil, err
	}
	red, err := newRedactor(opts.RedactEmails, opts.Redact)
	if err != nil {
		return nil, err
	}
	for i := range msgs {
		msgs[i].text = red.apply(msgs[i].text)
		for j := range msgs[i].ToolCalls {
			msgs[i].ToolCalls[j].Function.Arguments = red.apply(msgs[i].ToolCalls[j].Function.Arguments)
		}
	}
	maxBytes := opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = session.DefaultMaxToolResponseBytes
	}
	// Candidates: leaked calls in an assistant message without native
	// calls, or a tool result over the cap.
	type candidate struct {
		index int
		kind  string // "leaked" or "oversized"
	}
	var cands []candidate
	for i, m := range msgs {
		switch {
		case m.Role == "assistant" && len(m.ToolCalls) == 0 && len(leaked.Extract(m.text, leaked.Options{}).Patterns) > 0:
			cands = append(cands, candidate{i, "leaked"})
		case m.Role == "tool" && len(m.text) > maxBytes:
			cands = append(cands, candidate{i, "oversized"})
		}
	}
	describe := func() string {
		var parts []string
		for _, c := range cands {
			parts = append(parts, fmt.Sprintf("%d (%s)", c.index, c.kind))
		}
		return strings.Join(parts, ", ")
	}
	var cut candidate
	switch {
	case len(cands) == 0:
		return nil, fmt.Errorf("%s: no message to import: no assistant message with leaked tool calls and no tool result over %d bytes", opts.TraceName, maxBytes)
	case opts.At >= 0:
		i := slices.IndexFunc(cands, func(c candidate) bool { return c.index == opts.At })
		if i < 0 {
			return nil, fmt.Errorf("%s: --at %d: message %d is not a candidate (candidates: %s)", opts.TraceName, opts.At, opts.At, describe())
		}
		cut = cands[i]
	case len(cands) > 1:
		return nil, fmt.Errorf("%s: several messages could be imported: %s; choose one with --at", opts.TraceName, describe())
	default:
		cut = cands[0]
	}

	// The conversation starts at the last human user message before the cut.
	start := -1
	for i := cut.index - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && !strings.HasPrefix(msgs[i].text, "TURN-FAILED") {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("%s: message %d: no user message before it to start the session from", opts.TraceName, cut.index)
	}
	var systems []string
	for _, m := range msgs[:start] {
		if m.Role == "system" || m.Role == "developer" {
			systems = append(systems, m.text)
		}
	}

	var files []ImportedFile
	payload := func(label, text string) importedText {
		if len(text) <= PayloadBytes {
			return importedText{Text: text}
		}
		name := fmt.Sprintf("%s.%s.txt", opts.Name, label)
		files = append(files, ImportedFile{Path: name, Data: []byte(text)})
		return importedText{File: name}
	}

	// Tool results recorded in the trace, per tool name, in order.
	callNames := map[string]string{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			callNames[tc.ID] = tc.Function.Name
		}
	}
	// toolName names the tool of a result: its call's, else its own name.
	toolName := func(m traceMessage) string {
		if name := callNames[m.ToolCallID]; name != "" {
			return name
		}
		return m.Name
	}
	results := map[string][]importedText{}
	var toolOrder []string
	addTool := func(name string) {
		if !slices.Contains(toolOrder, name) {
			toolOrder = append(toolOrder, name)
		}
	}
	var steps []importedStep
	turnFailed := 0
	used := []int{}
	for i := start; i <= cut.index; i++ {
		m := msgs[i]
		switch {
		case m.Role == "user" && i > start && strings.HasPrefix(m.text, "TURN-FAILED"):
			turnFailed++ // the agent sends it again on its own
			used = append(used, i)
		case m.Role == "assistant":
			st := importedStep{ID: fmt.Sprintf("msg-%d", i), Match: importedMatch{Tag: "session.turn"}}
			if text := m.text; len(m.ToolCalls) == 0 || text != "" {
				st.Respond.Text = &text
			}
			for _, tc := range m.ToolCalls {
				addTool(tc.Function.Name)
				cs := importedCall{ID: tc.ID, Name: tc.Function.Name}
				var args map[string]any
				if json.Unmarshal([]byte(tc.Function.Arguments), &args) == nil && args != nil {
					cs.Args = args
				} else {
					raw := tc.Function.Arguments
					cs.Raw = &raw
				}
				st.Respond.ToolCalls = append(st.Respond.ToolCalls, cs)
			}
			steps = append(steps, st)
			used = append(used, i)
		case m.Role == "tool":
			name := toolName(m)
			if name == "" {
				return nil, fmt.Errorf("%s: message %d: tool result for call %q: no tool call has that id and the message has no name",
					opts.TraceName, i, m.ToolCallID)
			}
			addTool(name)
			results[name] = append(results[name], payload(fmt.Sprintf("msg%d", i), m.text))
			used = append(used, i)
		default:
			used = append(used, i)
		}
	}
	slices.Sort(used)
	used = slices.Compact(append([]int{start}, used...))

	src := Source{Trace: opts.TraceName, SHA256: sha(trace), Messages: used, Redacted: red.summary()}
	var sc importedScenario
	sc.Component, sc.Source = "session", src
	config := map[string]any{"max_turns": len(steps) + 3}
	var expect = map[string]any{"found": true}
	var next string // the trace's next assistant answer after the cut
	for _, m := range msgs[cut.index+1:] {
		if m.Role == "assistant" && strings.TrimSpace(m.text) != "" && len(m.ToolCalls) == 0 &&
			len(leaked.Extract(m.text, leaked.Options{}).Patterns) == 0 {
			next = strings.TrimSpace(m.text) // a final report's content is trimmed
			break
		}
	}
	if next == "" {
		next = "(the imported trace ends here)"
	}
	switch cut.kind {
	case "leaked":
		lk := leaked.Extract(msgs[cut.index].text, leaked.Options{})
		var names []string
		for _, c := range lk.Calls {
			addTool(c.Name)
			names = append(names, c.Name)
		}
		// The calls the trace never ran have no recorded result.
		for _, c := range lk.Calls {
			if len(results[c.Name]) == 0 {
				results[c.Name] = []importedText{{Text: fmt.Sprintf("(no result for %s is recorded in the trace)", c.Name)}}
			}
		}
		sc.Description = fmt.Sprintf("Imported from %s: message %d leaked %d tool call(s) as text (%s); the session replays the conversation from message %d, recovers the calls, runs them, and ends without another TURN-FAILED.",
			opts.TraceName, cut.index, len(lk.Calls), strings.Join(lk.Patterns, ", "), start)
		sc.Labels = []string{"regress", "imported", "leaked"}
		if len(lk.Calls) == 0 {
			// Every leaked block is invalid: the replay fails the turn, as
			// the trace's system did, and the next step answers.
			turnFailed++
			sc.Description = fmt.Sprintf("Imported from %s: message %d leaked tool calls as text (%s) that cannot be recovered (%s); the session replays the conversation from message %d and fails that turn with TURN-FAILED, as production did.",
				opts.TraceName, cut.index, strings.Join(lk.Patterns, ", "), lk.Dropped[0].Reason, start)
		}
		expect["turn_failed"] = turnFailed
		contains := []string{}
		for _, n := range names {
			if !slices.Contains(contains, n+": ") {
				contains = append(contains, n+": ")
			}
		}
		if len(contains) > 0 {
			expect["results_contain"] = contains
		}
	case "oversized":
		m := msgs[cut.index]
		tool := toolName(m)
		sc.Description = fmt.Sprintf("Imported from %s: message %d is a %d-byte result of %s, over the %d-byte cap; the session stores it, the model extracts from it with tool_output, and answers as the trace's next turn did.",
			opts.TraceName, cut.index, len(m.text), tool, maxBytes)
		sc.Labels = []string{"regress", "imported", "oversized"}
		config["max_tool_response_bytes"] = maxBytes
		question := msgs[start].text
		handle := "00000000-0000-4000-8000-000000000002" // the harness's second id: the first names the session
		extractText := "Extract what answers: " + question
		steps = append(steps, importedStep{ID: "extract", Match: importedMatch{Tag: "session.turn"},
			Respond: importedRespond{ToolCalls: []importedCall{{ID: "import-extract", Name: "tool_output",
				Args: map[string]any{"handle": handle, "extract": extractText}}}}})
		// Route as the session will: same stored arguments (the fake LLM
		// marshals the scripted ones), same tokenizer, the first nonce.
		storedArgs := "{}"
		for _, tm := range msgs[:cut.index] {
			for _, tc := range tm.ToolCalls {
				if tc.ID == m.ToolCallID {
					var args map[string]any
					if json.Unmarshal([]byte(tc.Function.Arguments), &args) == nil && args != nil {
						b, _ := json.Marshal(args)
						storedArgs = string(b)
					} else {
						storedArgs = tc.Function.Arguments
					}
				}
			}
		}
		tk := tokens.MustNew(tokens.CL100K)
		route := extract.Planner{Config: extract.Config{ContextWindow: session.DefaultContextWindow}, Tokenizer: tk}.Route(
			store.Meta{Tool: tool, Args: storedArgs, Stats: store.Measure(m.text, tk)}, m.text, extractText, "nonce0001", extract.ModeAuto)
		answer := next
		switch {
		case route.Mode == extract.ModeFullChunked && route.Plan != nil && len(route.Plan.Chunks) > 0:
			n := len(route.Plan.Chunks)
			steps = append(steps, importedStep{ID: "map", Match: importedMatch{Tag: "extract.map"}, Times: n, Respond: importedRespond{Final: &answer}})
			if n > 1 {
				steps = append(steps, importedStep{ID: "reduce", Match: importedMatch{Tag: "extract.reduce"}, Respond: importedRespond{Final: &answer}})
			}
		case route.Mode == extract.ModeReadGrep:
			steps = append(steps, importedStep{ID: "read-grep", Match: importedMatch{Tag: "extract.readgrep"}, Respond: importedRespond{Final: &answer}})
		}
		expect["stored"] = 1
		expect["results_contain"] = []string{fmt.Sprintf("ABSTRACT FROM TOOL OUTPUT %s WITH HANDLE %s, STRATEGY:%s:", tool, handle, route.Mode)}
	}
	final := next
	steps = append(steps, importedStep{ID: "answer", Match: importedMatch{Tag: "session.turn"}, Respond: importedRespond{Final: &final}})
	expect["report"] = final

	var tools []importedTool
	for _, name := range toolOrder {
		outs := results[name]
		if len(outs) == 0 {
			outs = []importedText{{Text: fmt.Sprintf("(no result for %s is recorded in the trace)", name)}}
		}
		tools = append(tools, importedTool{Name: name, Outputs: outs})
	}
	input := struct {
		User   string         `yaml:"user"`
		System string         `yaml:"system,omitempty"`
		Tools  []importedTool `yaml:"tools"`
	}{msgs[start].text, strings.Join(systems, "\n\n"), tools}
	sc.Config, sc.Input, sc.LLM, sc.Expect = config, input, steps, expect
	data, err := marshalScenario(sc)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxScenarioBytes {
		// The texts of the session's messages are inline; name the biggest.
		big := slices.MaxFunc(used, func(a, b int) int { return cmp.Compare(len(msgs[a].text), len(msgs[b].text)) })
		return nil, fmt.Errorf("%s: message %d: its %d bytes of text make the scenario %d bytes, over the %d a scenario file may hold",
			opts.TraceName, big, len(msgs[big].text), len(data), MaxScenarioBytes)
	}
	files = append(files, ImportedFile{Path: opts.Name + ".yaml", Data: data})

	if cut.kind == "leaked" {
		text := msgs[cut.index].text
		lk := leaked.Extract(text, leaked.Options{})
		var calls []map[string]any
		for _, c := range lk.Calls {
			var args any
			_ = json.Unmarshal(c.Arguments, &args)
			calls = append(calls, map[string]any{"name": c.Name, "arguments": args})
		}
		ls := importedScenario{
			Description: fmt.Sprintf("Imported from %s: message %d alone; its leaked calls are recovered.", opts.TraceName, cut.index),
			Labels:      []string{"regress", "imported", "leaked"}, Component: "leaked",
			Source: Source{Trace: opts.TraceName, SHA256: src.SHA256, Messages: []int{cut.index}, Redacted: src.Redacted},
			Input:  map[string]any{"text": payload(fmt.Sprintf("msg%d", cut.index), text)},
			Expect: map[string]any{"patterns": lk.Patterns, "calls": calls},
		}
		data, err := marshalScenario(ls)
		if err != nil {
			return nil, err
		}
		files = append(files, ImportedFile{Path: opts.Name + "-leaked.yaml", Data: data})
	}
	for i := range files {
		files[i].Path = path.Join(opts.Dir, files[i].Path)
	}
	return dedupeFiles(files), nil
}

func dedupeFiles(files []ImportedFile) []ImportedFile {
	seen := map[string]bool{}
	var out []ImportedFile
	for _, f := range files {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f)
		}
	}
	return out
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func marshalScenario(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

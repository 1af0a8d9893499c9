package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
)

// Section is one file of a transcript's txtar archive.
type Section struct {
	Name string
	Body string
}

// JSONSection renders v as two-space indented JSON with a trailing newline,
// without HTML escaping.
func JSONSection(name string, v any) (Section, error) {
	body, err := MarshalJSON(v)
	return Section{Name: name, Body: string(body)}, err
}

// MarshalJSON is the harness's canonical JSON: two-space indentation, no HTML
// escaping, a trailing newline.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Transcript is the rendered record of one run: a txtar archive whose comment
// names the scenario and whose files are, in order, the component's sections,
// one section per LLM request (llm/NN), the log, and the failure the run was
// expected to end with.
//
// LLM requests appear in arrival order, except that a run of consecutive
// requests to the same site and turn (concurrent map calls) is ordered by
// chunk, so the transcript does not depend on scheduling.
type Transcript struct {
	Header   []string
	Sections []Section
}

// quotedSuffix marks a section whose body holds a line that would read as a
// txtar file marker ("-- name --"): the body is stored quoted as go-internal's
// txtar.Quote does, every line prefixed with '>', and txtar.Unquote restores
// it.
const quotedSuffix = " (quoted)"

// Bytes renders the transcript as a txtar archive (golang.org/x/tools/txtar
// via go-internal's): the header lines are its comment, each section a file.
// Every body ends with a newline.
func (t *Transcript) Bytes() []byte {
	a := &txtar.Archive{}
	if len(t.Header) > 0 {
		a.Comment = []byte(strings.Join(t.Header, "\n") + "\n")
	}
	for _, s := range t.Sections {
		name, body := s.Name, []byte(s.Body)
		if len(body) > 0 && body[len(body)-1] != '\n' {
			body = append(body, '\n')
		}
		if txtar.NeedsQuote(body) {
			name, body = name+quotedSuffix, quote(body)
		}
		a.Files = append(a.Files, txtar.File{Name: name, Data: body})
	}
	return txtar.Format(a)
}

// quote is txtar.Quote, which refuses invalid UTF-8 (a tool output may hold
// it): the same '>' before every line, which txtar.Unquote reverses.
func quote(body []byte) []byte {
	if q, err := txtar.Quote(body); err == nil {
		return q
	}
	q := make([]byte, 0, len(body)+bytes.Count(body, []byte("\n"))+1)
	for line := range bytes.Lines(body) {
		q = append(append(q, '>'), line...)
	}
	return q
}

// orderCalls returns calls in transcript order (see Transcript).
func orderCalls(calls []fakes.Call) []fakes.Call {
	out := slices.Clone(calls)
	slices.SortStableFunc(out, func(a, b fakes.Call) int { return a.Seq - b.Seq })
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Request.Tag.Site == out[i].Request.Tag.Site && out[j].Request.Tag.Turn == out[i].Request.Tag.Turn {
			j++
		}
		slices.SortStableFunc(out[i:j], func(a, b fakes.Call) int {
			if a.Request.Tag.Chunk != b.Request.Tag.Chunk {
				return a.Request.Tag.Chunk - b.Request.Tag.Chunk
			}
			return strings.Compare(renderRequest(a.Request), renderRequest(b.Request))
		})
		i = j
	}
	return out
}

// callSections renders each call as a section named "llm/NN <tag>",
// with its answer on the scenario's wire when it names one (wireBlock).
func callSections(calls []fakes.Call, env *Env) []Section {
	calls = orderCalls(calls)
	width := len(fmt.Sprint(len(calls)))
	width = max(width, 2)
	secs := make([]Section, len(calls))
	for i, c := range calls {
		var b strings.Builder
		if c.Step != "" {
			fmt.Fprintf(&b, "step: %s\n", c.Step)
		} else {
			b.WriteString("step: (none matched)\n")
		}
		b.WriteString(renderRequest(c.Request))
		switch {
		case c.Err != nil:
			fmt.Fprintf(&b, "<<< error\n%s\n", c.Err)
		default:
			b.WriteString("<<< response\n")
			b.WriteString(c.Response.Text + "\n")
			for _, tc := range c.Response.ToolCalls {
				b.WriteString(renderCall(tc))
			}
			if u := c.Response.Usage; u != (core.Usage{}) {
				fmt.Fprintf(&b, "usage: input=%d output=%d\n", u.InputTokens, u.OutputTokens)
			}
			if env != nil && env.Wire != "" {
				b.WriteString(wireBlock(env.Wire, env.LLM, i+1, c))
			}
		}
		secs[i] = Section{Name: fmt.Sprintf("llm/%0*d %s", width, i+1, c.Request.Tag), Body: b.String()}
	}
	return secs
}

// Messages longer than ElideAbove bytes are shown as their first and last
// ElideKeep bytes (cut on rune boundaries) around a line that gives the
// number of bytes left out and the SHA-256 of the whole message, so a golden
// stays readable and still pins every byte sent.
const (
	ElideAbove = 8 << 10
	ElideKeep  = 1 << 10
)

// Elide shortens a message over ElideAbove bytes as above.
func Elide(s string) string {
	if len(s) <= ElideAbove {
		return s
	}
	head := ElideKeep
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - ElideKeep
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%s\n[... harness: %d bytes elided; the whole message has %d bytes, sha256 %x ...]\n%s",
		s[:head], tail-head, len(s), sum[:8], s[tail:])
}

// renderRequest renders a request's limits, offered tools and messages. Each
// message body is followed by one newline, so "x" and "x\n" stay distinct.
func renderRequest(r core.Request) string {
	var b strings.Builder
	if r.MaxOutputTokens > 0 {
		fmt.Fprintf(&b, "max_output_tokens: %d\n", r.MaxOutputTokens)
	}
	if len(r.Tools) > 0 {
		names := make([]string, len(r.Tools))
		for i, t := range r.Tools {
			names[i] = t.Name
		}
		fmt.Fprintf(&b, "tools: %s\n", strings.Join(names, ", "))
	}
	for _, m := range r.Messages {
		switch {
		case m.Role == core.RoleTool:
			fmt.Fprintf(&b, ">>> tool %s %s\n", m.ToolCallID, m.Name)
		default:
			fmt.Fprintf(&b, ">>> %s\n", m.Role)
		}
		b.WriteString(Elide(m.Content) + "\n")
		for _, tc := range m.ToolCalls {
			b.WriteString(renderCall(tc))
		}
	}
	return b.String()
}

// renderCall is one tool call's line: "tool_call ID NAME ARGUMENTS", or
// for a custom tool call "custom_call ID NAME" and its input as a JSON
// string (one line, whatever the text holds).
func renderCall(tc core.ToolCall) string {
	kind := "tool_call"
	if tc.Custom {
		kind = "custom_call"
	}
	return fmt.Sprintf("%s %s %s %s\n", kind, tc.ID, tc.Name, tc.Arguments)
}

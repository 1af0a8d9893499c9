package importer

import (
	"fmt"
	"strconv"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/jsonspan"
)

// rolloutKinds are the line types a Codex rollout file starts with: its
// first line is one of them (session_meta in every rollout Codex writes;
// the others so that a rollout cut at its head is told too).
var rolloutKinds = []string{"session_meta", "response_item", "event_msg", "turn_context", "compacted"}

// isRollout tells whether data's first value is a line of a Codex rollout
// file: an object whose "type" is a rollout line type and that holds a
// "payload".
func isRollout(data []byte) bool {
	start := jsonlex.Space(data, 0)
	if start >= len(data) || data[start] != '{' {
		return false
	}
	first := data[start:]
	typ, ok := stringAt(first, "type")
	if !ok || child(first, "payload") < 0 {
		return false
	}
	for _, k := range rolloutKinds {
		if typ == k {
			return true
		}
	}
	return false
}

// parseRollout reads a Codex rollout file (~/.codex/sessions/YYYY/MM/DD/
// rollout-*.jsonl): one {"timestamp", "type", "payload"} a line, blank
// lines skipped. The first session_meta's base instructions are a first
// system message; each response_item's payload is a Responses item (see
// respReader); a compacted line is counted on the next message; the
// other lines (event_msg, turn_context, and whatever types later
// versions add) are what Codex showed or decided, not what the model
// read, and are skipped. The conversation is every item in file order.
func parseRollout(data []byte, name string) (*parsedTrace, error) {
	t, err := newTrace(data, name)
	if err != nil {
		return nil, err
	}
	lines := jsonLines(data)
	if len(lines) == 0 {
		return nil, t.errorf(0, "no line: a Codex rollout holds one {\"type\": ..., \"payload\": ...} a line")
	}
	t.wire = "responses"
	r := &respReader{t: t}
	meta := false
	for _, s := range lines {
		if at, msg := syntaxOffset(data[s.start:s.end]); at >= 0 {
			return nil, t.errorf(s.start+at, "%s", msg)
		}
		start := s.start
		n := tree(data[start:s.end], at(start))
		typ, payload, err := t.rolloutLine(n, s.line)
		if err != nil {
			return nil, err
		}
		switch typ {
		case "session_meta":
			if !meta {
				meta = true
				if err := r.instructions(payload, "payload"); err != nil {
					return nil, err
				}
			}
		case "response_item":
			if err := r.item(payload, "payload"); err != nil {
				return nil, err
			}
		case "compacted":
			r.pending = append(r.pending, "compacted")
		}
	}
	r.finish()
	t.msgs = r.out
	if len(t.msgs) == 0 {
		return nil, t.errorf(0, "no response_item line: a rollout's conversation is its response_item payloads")
	}
	if err := t.respAnswers(); err != nil {
		return nil, err
	}
	return t, t.checkCalls()
}

// rolloutLine reads line n (numbered line): its type, and its payload,
// which a session_meta, response_item or compacted line must have.
func (t *parsedTrace) rolloutLine(n *jsonspan.Node, line int) (string, *jsonspan.Node, error) {
	what := "line " + strconv.Itoa(line)
	typ, err := t.textField(n, "type", what, true)
	if err != nil {
		return "", nil, err
	}
	payload := n.Get("payload")
	switch typ {
	case "session_meta", "response_item", "compacted":
		if payload == nil || payload.Kind != '{' {
			return "", nil, t.fieldError(n, "payload", what, "an object")
		}
	}
	return typ, payload, nil
}

// instructions adds the base instructions of a session_meta payload p as
// a system message: base_instructions, {"text": ...} or a string, or
// (Codex before base_instructions) instructions, a string; none, null or
// empty adds none.
func (r *respReader) instructions(p *jsonspan.Node, where string) error {
	v, key := p.Get("base_instructions"), "base_instructions"
	if v == nil || v.Kind == '0' {
		v, key = p.Get("instructions"), "instructions"
	}
	if v != nil && v.Kind == '{' {
		text := v.Get("text")
		if text == nil || text.Kind != '"' {
			return r.t.fieldError(v, "text", where+"."+key, "a string")
		}
		v, key = text, key+".text"
	}
	switch {
	case v == nil || v.Kind == '0':
		return nil
	case v.Kind != '"':
		return r.t.errorf(v.Start, "%s.%s: want a string, got %s", where, key, kindName(v.Kind))
	case v.Str == "":
		return nil
	}
	r.add(traceMessage{Role: "system", text: v.Str, at: v.Start, path: fmt.Sprintf("%s.%s", where, key),
		fields: map[string]int{"role": v.Start, "content": v.Start}})
	return nil
}

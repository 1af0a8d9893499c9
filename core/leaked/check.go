package leaked

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Check returns the first property of the contract that r, the result of
// Extract on in, breaks, or nil: every call has a non-empty name, object
// arguments and its own id; the removed spans are in order, disjoint and
// inside the input; the content is the input with those spans cut out and
// trimmed (the input byte for byte when nothing was removed), so no text is
// lost but what is reported; patterns are listed exactly when something was
// removed; a removed block without a call has a dropped entry, and every
// dropped entry has a reason and its raw is exactly the span removed at its
// offset. The specs, the fuzz
// target and the harness's leaked scenarios all run it, like fstest.TestFS.
func Check(in string, r Result) error {
	ids := map[string]bool{}
	for _, c := range r.Calls {
		var obj map[string]json.RawMessage // numbers as written: 1e400 is valid JSON
		if strings.TrimSpace(c.Name) == "" || json.Unmarshal(c.Arguments, &obj) != nil || obj == nil {
			return fmt.Errorf("bad call %q %s", c.Name, c.Arguments)
		}
		if ids[c.ID] {
			return fmt.Errorf("duplicate id %s", c.ID)
		}
		ids[c.ID] = true
	}
	// The removed spans are in order, disjoint and inside the input.
	starts := map[int]int{} // span start → end
	at := 0
	for _, sp := range r.Removed {
		if sp.Length <= 0 || sp.Offset < at || sp.Offset+sp.Length > len(in) {
			return fmt.Errorf("span %+v out of order or bounds (previous end %d, input %d bytes)", sp, at, len(in))
		}
		at = sp.Offset + sp.Length
		starts[sp.Offset] = at
	}
	// Content is the input with the spans cut out, trimmed; nothing else is lost.
	if len(r.Removed) == 0 {
		if r.Content == nil || *r.Content != in {
			return fmt.Errorf("nothing removed, but the content is not the input byte for byte")
		}
	} else {
		var b strings.Builder
		at := 0
		for _, sp := range r.Removed {
			b.WriteString(in[at:sp.Offset])
			at = sp.Offset + sp.Length
		}
		b.WriteString(in[at:])
		want := strings.TrimSpace(b.String())
		switch {
		case want == "" && r.Content != nil:
			return fmt.Errorf("content %q, want null", *r.Content)
		case want != "" && (r.Content == nil || *r.Content != want):
			return fmt.Errorf("content is not the input minus the removed spans, trimmed: want %q", want)
		}
	}
	if (len(r.Patterns) == 0) != (len(r.Removed) == 0) {
		return fmt.Errorf("patterns %q but %d removed spans", r.Patterns, len(r.Removed))
	}
	if len(r.Calls) > 0 && len(r.Removed) == 0 {
		return fmt.Errorf("calls extracted but nothing removed")
	}
	if len(r.Removed) > 0 && len(r.Calls) == 0 && len(r.Dropped) == 0 {
		return fmt.Errorf("blocks removed without a call and without a dropped entry")
	}
	if !strings.ContainsAny(in, "<{[") && len(r.Removed) > 0 {
		// Every block has a tag or, its special tokens stripped, a JSON or
		// Gemma body or a list.
		return fmt.Errorf("no '<', '{' or '[' in the input, but something was removed")
	}
	// Every dropped entry is a removed span: its raw is exactly the text
	// removed at its offset, tags included.
	for _, d := range r.Dropped {
		end, ok := starts[d.Offset]
		if !ok || d.Reason == "" || d.Raw == "" {
			return fmt.Errorf("dropped %+v: not at the start of a removed span, or no reason", d)
		}
		if in[d.Offset:end] != d.Raw {
			return fmt.Errorf("dropped raw %q is not the text removed at %d, %q", d.Raw, d.Offset, in[d.Offset:end])
		}
	}
	return closedSurvivor(in, r.Removed)
}

// closedSurvivor returns an error when a closed wrapper that the scan
// surely read survived into the content with a body that is neither empty
// nor a tool definition. It looks only at simple cases it can tell from the
// input alone: a bare opening tag (<tool_call>, no attributes), its own
// closing tag, a body without '<', '`', '~' or a family's needle (which a
// family may read), nothing before it that may hide it from the scan or
// hold it in a value (a backtick, a tilde, a quote, a brace, a bracket, a
// special token, thinking), and no "description" in the body (an echoed
// tool definition stays).
func closedSurvivor(in string, removed []Span) error {
	hidden := strings.IndexAny(in, "`~\"{[|\uff5c")
	if k := indexFold(in, "think>"); k >= 0 && (hidden < 0 || k < hidden) {
		hidden = k
	}
	if hidden < 0 {
		hidden = len(in)
	}
	for p := strings.IndexByte(in, '<'); p >= 0 && p < hidden; {
		if w := bareOpenTag(in[p:]); w >= 0 {
			open, close := openTags[w], closeTags[w]
			body := in[p+len(open):]
			if k := strings.IndexByte(body, '<'); k >= 0 && hasPrefixFold(body[k:], close) {
				body = body[:k]
				end := p + len(open) + k + len(close)
				if end <= hidden && strings.TrimSpace(body) != "" && !strings.ContainsAny(body, "`~") &&
					!strings.Contains(body, "description") && !holdsNeedle(body) && kept(p, end, removed) {
					return fmt.Errorf("closed wrapper %q at %d survived into the content", in[p:end], p)
				}
			}
		}
		k := strings.IndexByte(in[p+1:], '<')
		if k < 0 {
			break
		}
		p += 1 + k
	}
	return nil
}

// bareOpenTag returns the wrapper whose bare opening tag s starts with, or -1.
func bareOpenTag(s string) int {
	for w, tag := range openTags {
		if hasPrefixFold(s, tag) {
			return w
		}
	}
	return -1
}

func holdsNeedle(body string) bool {
	for _, n := range needles {
		if strings.Contains(body, n) {
			return true
		}
	}
	return false
}

// kept reports whether no removed span overlaps in[start:end].
func kept(start, end int, removed []Span) bool {
	for _, sp := range removed {
		if sp.Offset < end && sp.Offset+sp.Length > start {
			return false
		}
	}
	return true
}

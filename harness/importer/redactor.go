package importer

import (
	"sync"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/jsonspan"
)

// Redactor replaces secrets as Import does (API keys, bearer tokens,
// passwords in URLs, home folders, e-mail addresses when asked, and any
// pattern given), the same secret by the same numbered placeholder: for
// a recorder of live traffic (toolout serve --record, the gateway's
// capture), which redacts what it writes before it reaches disk. It is
// safe for concurrent use.
type Redactor struct {
	mu sync.Mutex
	r  *redactor
}

// NewRedactor returns a Redactor; a pattern that is not a regular
// expression is an error naming it.
func NewRedactor(emails bool, patterns []string) (*Redactor, error) {
	r, err := newRedactor(emails, patterns)
	if err != nil {
		return nil, err
	}
	return &Redactor{r: r}, nil
}

// Redact returns s with its secrets replaced.
func (r *Redactor) Redact(s string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.r.apply(s)
}

// RedactJSON returns the JSON text b with the secrets of each of its
// strings (values and keys) replaced and the rest byte for byte, so that
// a pattern can neither match across a string's quotes or escapes nor
// break the JSON; b that is not JSON is redacted as text.
func (r *Redactor) RedactJSON(b []byte) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.r.applyJSON(b)
}

// applyJSON is RedactJSON without the lock.
func (r *redactor) applyJSON(b []byte) []byte {
	root, err := jsonspan.Parse(b)
	if err != nil {
		return []byte(r.apply(string(b)))
	}
	var edits []jsonspan.Edit
	var walk func(n *jsonspan.Node)
	walk = func(n *jsonspan.Node) {
		if n.Kind == '"' {
			if s := r.apply(n.Str); s != n.Str {
				edits = append(edits, jsonspan.Edit{Start: n.Start, End: n.End, Text: jsonspan.String(s)})
			}
			return
		}
		for i, v := range n.Vals {
			if n.Kind == '{' {
				if k := r.apply(n.Keys[i]); k != n.Keys[i] {
					end, _, _ := jsonlex.String(b, n.KeyStarts[i]) // the key was parsed: a whole string
					edits = append(edits, jsonspan.Edit{Start: n.KeyStarts[i], End: end, Text: jsonspan.String(k)})
				}
			}
			walk(v)
		}
	}
	walk(root)
	if len(edits) == 0 {
		return b
	}
	return jsonspan.Splice(b, edits)
}

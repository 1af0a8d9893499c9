package finalreport

import (
	"errors"
	"fmt"
	"strings"
)

// Report is what Parse found. The JSON form is the output of
// `toolout final-report`.
type Report struct {
	// Found reports whether a wrapper with the nonce was found.
	Found bool `json:"found"`
	// Content is the trimmed text inside the wrapper.
	Content string `json:"content"`
	// Closed reports whether the wrapper's closing tag was present.
	Closed bool `json:"closed"`
}

// ErrNonce is returned (wrapped) for a missing or malformed nonce.
var ErrNonce = errors.New("invalid nonce")

// Open returns the opening tag of the wrapper for nonce, with format="text".
func Open(nonce string) string { return "<ai-agent-" + nonce + `-FINAL format="text">` }

// Close returns the closing tag of the wrapper for nonce.
func Close(nonce string) string { return "</ai-agent-" + nonce + "-FINAL>" }

// Wrap returns content inside the wrapper for nonce.
func Wrap(nonce, content string) string { return Open(nonce) + content + Close(nonce) }

// CheckNonce reports whether nonce is usable in a wrapper.
func CheckNonce(nonce string) error {
	if nonce == "" {
		return fmt.Errorf("finalreport: %w: empty", ErrNonce)
	}
	for i := 0; i < len(nonce); i++ {
		c := nonce[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("finalreport: %w: %q has %q at byte %d (want letters, digits, '_', '-')", ErrNonce, nonce, c, i)
		}
	}
	return nil
}

// Parse finds the final report for nonce in text. See the package
// documentation for the exact rules. The error is non-nil only for an invalid
// nonce; not finding a report is a Report with Found false.
func Parse(text, nonce string) (Report, error) {
	if err := CheckNonce(nonce); err != nil {
		return Report{}, err
	}
	text, ok := stripThink(text)
	if !ok {
		return Report{}, nil
	}
	open := "<ai-agent-" + nonce + "-FINAL"
	for from := 0; ; {
		i := strings.Index(text[from:], open)
		if i < 0 {
			return Report{}, nil
		}
		after := from + i + len(open)
		if after == len(text) {
			return Report{}, nil // incomplete opening tag
		}
		if c := text[after]; c != '>' && !isSpace(c) {
			from = after // e.g. -FINALIZE: not our tag
			continue
		}
		gt := strings.IndexByte(text[after:], '>')
		if gt < 0 {
			return Report{}, nil // incomplete opening tag
		}
		body := text[after+gt+1:]
		if j := strings.Index(body, Close(nonce)); j >= 0 {
			return Report{Found: true, Content: strings.TrimSpace(body[:j]), Closed: true}, nil
		}
		return Report{Found: true, Content: strings.TrimSpace(body)}, nil
	}
}

// stripThink removes one leading <think>…</think> block. It reports false when
// the text opens a think block that never closes.
func stripThink(text string) (string, bool) {
	rest := strings.TrimLeft(text, " \t\r\n\f\v")
	if !strings.HasPrefix(rest, "<think>") {
		return text, true
	}
	end := strings.Index(rest, "</think>")
	if end < 0 {
		return "", false
	}
	return rest[end+len("</think>"):], true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

package fakes

// Matching a request against the script: the first step whose facts it
// shows and that has uses left, and why each other step did not match.

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/toolout/toolout/core"
)

// pick returns the first step that matches req and has uses left.
func (l *LLM) pick(req core.Request) (*stepState, *Violation) {
	var usedUp *stepState
	for _, st := range l.steps {
		if len(mismatches(st, req)) > 0 {
			continue
		}
		if st.used < st.times || st.Repeat {
			return st, nil
		}
		if usedUp == nil {
			usedUp = st
		}
	}
	if usedUp != nil {
		return nil, &Violation{Pos: usedUp.Pos, Msg: fmt.Sprintf("request %s: step %q matches but is used up (%d of %d times)",
			req.Tag, usedUp.ID, usedUp.used, usedUp.times)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "request %s: no step matches", req.Tag)
	var nearest *stepState
	var diff []mismatch
	for _, st := range l.steps {
		if d := mismatches(st, req); nearest == nil || len(d) < len(diff) {
			nearest, diff = st, d
		}
	}
	if nearest != nil {
		fmt.Fprintf(&b, "\nnearest step %q%s (-step +request):", nearest.ID, at(nearest.Pos))
		for _, d := range diff {
			fmt.Fprintf(&b, "\n  - %s: %s\n  + %s: %s", d.field, d.want, d.field, d.got)
		}
	}
	return nil, &Violation{Msg: b.String()}
}

type mismatch struct{ field, want, got string }

func mismatches(st *stepState, req core.Request) []mismatch {
	m := st.Match
	var out []mismatch
	if m.Tag != "" && m.Tag != req.Tag.Site {
		out = append(out, mismatch{"tag", m.Tag, orNone(req.Tag.Site)})
	}
	if m.Chunk != "" && (st.chunk[0] != req.Tag.Chunk || st.chunk[1] != req.Tag.Chunks) {
		got := "(none)"
		if req.Tag.Chunks > 0 {
			got = fmt.Sprintf("%d/%d", req.Tag.Chunk, req.Tag.Chunks)
		}
		out = append(out, mismatch{"chunk", m.Chunk, got})
	}
	if m.Turn != 0 && m.Turn != req.Tag.Turn {
		got := "(none)"
		if req.Tag.Turn > 0 {
			got = fmt.Sprint(req.Tag.Turn)
		}
		out = append(out, mismatch{"turn", fmt.Sprint(m.Turn), got})
	}
	if round := max(req.Tag.Round, 1); m.Round != 0 && m.Round != round {
		out = append(out, mismatch{"round", fmt.Sprint(m.Round), fmt.Sprint(round)})
	}
	sys, user, all := Texts(req)
	out = append(out, missing("system", m.System, sys)...)
	out = append(out, missing("user", m.User, user)...)
	out = append(out, missing("contains", m.Contains, all)...)
	return out
}

// missing lists the substrings of subs that text lacks, the first with
// what the request held (Quote), the others "(as above)".
func missing(field string, subs []string, text string) []mismatch {
	var out []mismatch
	for _, s := range subs {
		if !strings.Contains(text, s) {
			got := "(as above)"
			if len(out) == 0 {
				got = Quote(text)
			}
			out = append(out, mismatch{field, fmt.Sprintf("%q", s), got})
		}
	}
	return out
}

// QuoteEnds is how many bytes of each end of a long text [Quote] shows.
const QuoteEnds = 200

// Quote renders a text a request held, for a message: Go-quoted (one line)
// when it is at most 2*QuoteEnds bytes; else its first and last QuoteEnds
// bytes (less, to cut between characters), each quoted, joined by " … ",
// then its length: "\"BEGIN ...\" … \"... END\" (16009 bytes)". An empty
// text is "(none)".
func Quote(text string) string {
	if text == "" {
		return "(none)"
	}
	if len(text) <= 2*QuoteEnds {
		return fmt.Sprintf("%q", text)
	}
	head := QuoteEnds
	for head > 0 && !utf8.RuneStart(text[head]) {
		head--
	}
	tail := len(text) - QuoteEnds
	for tail < len(text) && !utf8.RuneStart(text[tail]) {
		tail++
	}
	return fmt.Sprintf("%q … %q (%d bytes)", text[:head], text[tail:], len(text))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Texts returns the system text (all system messages joined by newlines), the
// content of the last user message, and every message's content joined.
func Texts(req core.Request) (system, user, all string) {
	var sys, every []string
	for _, m := range req.Messages {
		switch m.Role {
		case core.RoleSystem:
			sys = append(sys, m.Content)
		case core.RoleUser:
			user = m.Content
		}
		every = append(every, m.Content)
	}
	return strings.Join(sys, "\n"), user, strings.Join(every, "\n")
}

var nonceRE = regexp.MustCompile(`<ai-agent-([A-Za-z0-9_-]+?)-FINAL[\s>]`)

// RequestNonce returns the nonce of the first final-report wrapper named in
// the request (system messages first), or "" when there is none.
func RequestNonce(req core.Request) string {
	sys, _, all := Texts(req)
	for _, t := range []string{sys, all} {
		if m := nonceRE.FindStringSubmatch(t); m != nil {
			return m[1]
		}
	}
	return ""
}

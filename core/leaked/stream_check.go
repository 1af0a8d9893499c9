package leaked

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/toolout/toolout/core"
)

// CheckStream feeds text to a Stream in deltas whose lengths are sizes,
// taken in turn (the last delta is what is left), and checks the stream's
// contract against Extract(text, opts) (with IDs of its own, id-1, id-2,
// …, on both sides): the Result of Close deep-equals Extract's; the text
// events, joined, are text with Result.Removed cut out; the call events
// are Result.Calls; and after each delta, the text held back starts where
// something may start (a '<', '`', '~', '{', '[', the first byte of a
// needle, or white space that a block may take) and is empty when it holds
// none of those. It returns the first difference found.
func CheckStream(text string, sizes []int, opts Options) error {
	want := Extract(text, withIDs(opts))
	st := NewStream(withIDs(opts))
	h := heldCheck{text: text, removed: want.Removed}
	var kept strings.Builder
	var calls []Call
	take := func(ev []Event) {
		for _, e := range ev {
			if e.Call != nil {
				calls = append(calls, *e.Call)
				continue
			}
			kept.WriteString(e.Text)
			h.kept += len(e.Text)
		}
	}
	for at, k := 0, 0; at < len(text); k++ {
		n := len(text) - at
		if len(sizes) > 0 && sizes[k%len(sizes)] > 0 {
			n = min(n, sizes[k%len(sizes)])
		}
		take(st.Write(text[at : at+n]))
		at += n
		if err := h.check(at); err != nil {
			return fmt.Errorf("leaked: stream: after %d bytes: %w", at, err)
		}
	}
	ev, got := st.Close()
	take(ev)
	switch {
	case !reflect.DeepEqual(got, want):
		return fmt.Errorf("leaked: stream: the result differs from Extract's:\n got %+v\nwant %+v", got, want)
	case kept.String() != cut(text, want.Removed):
		return fmt.Errorf("leaked: stream: the text events %q are not the text without the removed spans %q",
			kept.String(), cut(text, want.Removed))
	case !reflect.DeepEqual(calls, want.Calls) && len(calls)+len(want.Calls) > 0:
		return fmt.Errorf("leaked: stream: the call events %+v are not the calls %+v", calls, want.Calls)
	}
	return nil
}

// withIDs returns opts with IDs id-1, id-2, … .
func withIDs(opts Options) Options {
	n := 0
	opts.Sources = core.Sources{NewID: func() string { n++; return fmt.Sprintf("id-%d", n) }}
	return opts
}

// cut returns text with the spans cut out, untrimmed.
func cut(text string, spans []Span) string {
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		b.WriteString(text[at:sp.Offset])
		at = sp.Offset + sp.Length
	}
	b.WriteString(text[at:])
	return b.String()
}

// heldCheck follows how far the kept text emitted reaches in the input.
type heldCheck struct {
	text    string
	removed []Span
	kept    int // bytes of kept text emitted
	pos     int // the input up to pos is emitted or removed ...
	k       int // ... holding k bytes of kept text
	span    int // removed[:span] lie before pos
}

// check checks the text held back once the input up to n has been written.
func (h *heldCheck) check(n int) error {
	for h.k < h.kept {
		if h.span < len(h.removed) && h.removed[h.span].Offset == h.pos {
			h.pos += h.removed[h.span].Length
			h.span++
			continue
		}
		end := len(h.text)
		if h.span < len(h.removed) {
			end = h.removed[h.span].Offset
		}
		step := min(end-h.pos, h.kept-h.k)
		if step <= 0 {
			return fmt.Errorf("emitted %d bytes of text, more than Extract keeps of the first %d", h.kept, n)
		}
		h.pos, h.k = h.pos+step, h.k+step
	}
	if h.pos >= n {
		return nil
	}
	held := h.text[h.pos:n]
	if !mayHold(held[0]) {
		return fmt.Errorf("held %q, which starts with nothing that may start a block", trunc(held))
	}
	if strings.TrimSpace(held) != "" &&
		strings.IndexFunc(held, func(r rune) bool { return r < 0x80 && mayHold(byte(r)) && !isSpace(byte(r)) }) < 0 {
		return errors.New("held " + fmt.Sprintf("%q", trunc(held)) + ", which holds nothing that may start a block")
	}
	return nil
}

// mayHold reports whether c may start text that the stream holds back.
func mayHold(c byte) bool {
	return c == '<' || c == '`' || c == '~' || c == '{' || c == '[' || needleFirst[c] || isSpace(c)
}

func trunc(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

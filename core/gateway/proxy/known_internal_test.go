package proxy

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/jsonspan"
)

// parseBoth parses body with k and without a memo, and fails t when the
// trees or the errors differ.
func parseBoth(t *testing.T, k jsonspan.Known, body []byte) *jsonspan.Node {
	t.Helper()
	want, werr := jsonspan.Parse(body)
	got, gerr := jsonspan.ParseWith(body, jsonspan.Options{Known: k})
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Fatalf("body %.60q…: error %v with the memo, %v without", body, gerr, werr)
	}
	if !reflect.DeepEqual(unheld(got), unheld(want)) {
		t.Fatalf("body %.60q…: the tree with the memo differs from Parse's", body)
	}
	return got
}

// unheld is n with every Held zero: a string the memo gave shares its
// text, so its node holds none (jsonspan.Node.Held).
func unheld(n *jsonspan.Node) *jsonspan.Node {
	if n != nil {
		n.Held = 0
		for _, v := range n.Vals {
			unheld(v)
		}
	}
	return n
}

// result is a tool result of about n bytes with escapes, distinct per seed.
func result(seed, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "run %d\\n", seed)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "host=db-%d path=\\\"/v1/%d\\\" ok\\n", i%7, i)
	}
	return b.String()
}

func chat(results ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"model":"m","messages":[{"role":"user","content":"q"}`)
	for i, r := range results {
		fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":"c%d","content":"%s"}`, i, r)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// TestKnownMatches: a string is kept the second time a body holds it, and
// matched from then on; a body that holds it parses to the tree Parse
// gives; so does a body that holds a kept string as the start of a longer
// one, or followed by a syntax error.
func TestKnownMatches(t *testing.T) {
	m := newKnownStrings(KnownBytes, knownMin)
	k := &known{m: m, caller: "alice"}
	a, b := result(1, 9000), result(2, 20000)
	parseBoth(t, k, chat(a))
	if len(m.queue) != 0 || k.retained {
		t.Fatalf("a string sent once was kept")
	}
	parseBoth(t, k, chat(a))
	if len(m.queue) != 1 || !k.retained {
		t.Fatalf("kept %d strings, want 1", len(m.queue))
	}
	n := parseBoth(t, k, chat(b, a)) // a again, matched
	if !m.queue[0].ref.Load() {
		t.Fatalf("the kept result was not matched")
	}
	if got := n.Get("messages").Items()[2].Get("content").Text(); !strings.HasPrefix(got, "run 1\n") {
		t.Fatalf("text %.20q…", got)
	}
	parseBoth(t, k, chat(a+"more", a[:len(a)-1]))                           // longer and shorter strings than a kept one
	parseBoth(t, k, chat(a+`\`))                                            // an escape cut by the quote
	parseBoth(t, k, []byte(`{"x":"`+a+`"`))                                 // unterminated after the string
	parseBoth(t, k, []byte(`["`+a+`" "`+b+`"]`))                            // a syntax error after matched strings
	parseBoth(t, k, []byte(`["`+a+`\u0000"]`))                              // a kept string and more content
	parseBoth(t, k, []byte(`["`+strings.Replace(a, "db", "\x01b", 1)+`"]`)) // a control byte in a near copy
}

// TestKnownCaller: a caller never matches another's string.
func TestKnownCaller(t *testing.T) {
	m := newKnownStrings(KnownBytes, knownMin)
	body := chat(result(1, 9000))
	for range 2 {
		parseBoth(t, &known{m: m, caller: "alice"}, body)
		parseBoth(t, &known{m: m, caller: "bob"}, body)
	}
	for _, e := range m.queue[m.head:] {
		if e.ref.Load() {
			t.Fatalf("an entry of %s was matched", e.caller)
		}
	}
	if len(m.queue)-m.head != 2 {
		t.Fatalf("%d entries, want one per caller", len(m.queue)-m.head)
	}
}

// TestKnownBudget: the memo holds at most its budget; a string matched
// since the queue last passed it outlives older ones that were not.
func TestKnownBudget(t *testing.T) {
	const size = 9000
	per := int64(2 * size) // a body that is mostly the string is kept, with its text
	m := newKnownStrings(5*per, knownMin)
	k := &known{m: m, caller: "alice"}
	hot := chat(result(0, size))
	parseBoth(t, k, hot)
	for seed := 1; seed < 40; seed++ {
		parseBoth(t, k, chat(result(seed, size)))
		parseBoth(t, k, chat(result(seed, size))) // kept
		parseBoth(t, k, hot)                      // the conversation sends it again
		if m.bytes > m.budget {
			t.Fatalf("after %d strings the memo holds %d bytes, budget %d", seed+1, m.bytes, m.budget)
		}
		var live int64
		for _, e := range m.queue[m.head:] {
			live += e.heap
		}
		if live != m.bytes {
			t.Fatalf("entries hold %d bytes, counted %d", live, m.bytes)
		}
	}
	if _, _, ok := m.match("alice", hot, strings.Index(string(hot), "run 0")); !ok {
		t.Fatalf("the string sent with every request was dropped")
	}
	if _, _, ok := m.match("alice", chat(result(1, size)), strings.Index(string(chat(result(1, size))), "run 1")); ok {
		t.Fatalf("the oldest string sent once was kept")
	}
}

// FuzzKnown: with a memo that keeps every string of eight bytes or more,
// parsing a body after another gives the tree, or the error, that Parse
// gives, on any bytes; and so does parsing it again.
func FuzzKnown(f *testing.F) {
	f.Add([]byte(`{"a":"0123456789"}`), []byte(`{"b":"0123456789","c":"0123456789x"}`))
	f.Add([]byte(`["0123456789\\"]`), []byte(`["0123456789\\"x"]`))
	f.Add([]byte(`["abcdefgh\u00e9"]`), []byte(`["abcdefgh\u00e9\u0000"]`))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		m := newKnownStrings(1<<16, 8)
		for _, caller := range []string{"a", "b"} {
			k := &known{m: m, caller: caller}
			parseBoth(t, k, first)
			parseBoth(t, k, second)
			parseBoth(t, k, second)
		}
		if m.bytes > m.budget {
			t.Fatalf("the memo holds %d bytes, budget %d", m.bytes, m.budget)
		}
	})
}

package jsonspan

import (
	"fmt"
	"strings"
	"testing"
)

// chatBody is a chat request of n turns, each an assistant tool call and
// its short result: the structure the gateway parses for every request,
// with little text.
func chatBody(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"model":"m","max_tokens":1024,"temperature":0.2,"messages":[{"role":"system","content":"be brief"}`)
	for i := range n {
		fmt.Fprintf(&b, `,{"role":"assistant","content":null,"tool_calls":[{"id":"call_%d","type":"function","function":{"name":"grep","arguments":"{\"pattern\":\"err\",\"path\":\"src/%d.go\"}"}}]}`, i, i)
		fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":"call_%d","content":"src/%d.go:12: return err"}`, i, i)
	}
	b.WriteString(`],"tools":[{"type":"function","function":{"name":"grep","parameters":{"type":"object","properties":{"pattern":{"type":"string"}}}}}]}`)
	return []byte(b.String())
}

// BenchmarkParse times Parse on a chat request of 500 turns (the
// gateway's), and ParseWith the options the importer asks (Intern, Pos).
func BenchmarkParse(b *testing.B) {
	body := chatBody(500)
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"chat", Options{}},
		{"chat-intern-pos", Options{Intern: true, Pos: func(i int) int { return 7 + i }}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseWith(body, c.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

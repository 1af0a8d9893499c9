package anthropic_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/internal/hostile"
)

// BenchmarkReadAdversarial reads each of requestInputs as the gateway does
// (Wire.Read: one jsonspan parse, the tool results and the query) at 1 MiB
// and 10 MiB (make bench-linear's pairs).
func BenchmarkReadAdversarial(b *testing.B) {
	hostile.Pairs(b, requestInputs, func(b *testing.B, body []byte) {
		for b.Loop() {
			if _, err := (anthropic.Wire{}).Read(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// messageOf is a Messages API response holding blocks.
func messageOf(blocks string) []byte {
	return []byte(`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[` + blocks +
		`],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`)
}

// hostileResponses are responses of about size bytes: many tiny text
// blocks; many tool_use blocks; one text of escapes; long thinking blocks;
// a tool input of many keys.
var hostileResponses = []hostile.Input{
	{Name: "text-blocks", Make: func(n int) []byte {
		return messageOf(strings.TrimSuffix(strings.Repeat(`{"type":"text","text":"a"},`, n/27), ","))
	}},
	{Name: "tool-uses", Make: func(n int) []byte {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, `{"type":"tool_use","id":"toolu_%d","name":"t","input":{"i":%d}},`, i, i)
		}
		return messageOf(strings.TrimSuffix(b.String(), ","))
	}},
	{Name: "escapes", Make: func(n int) []byte {
		return messageOf(`{"type":"text","text":"` + strings.Repeat(`\ud83d\ude00\n`, n/14) + `"}`)
	}},
	{Name: "thinking", Make: func(n int) []byte {
		block := `{"type":"thinking","thinking":"` + strings.Repeat(`the log is cut \"here\" \u00e9\n`, 100) + `","signature":"EqQB"},`
		return messageOf(strings.Repeat(block, max(n/len(block), 1)) + `{"type":"text","text":"done"}`)
	}},
	{Name: "input-keys", Make: func(n int) []byte {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		return messageOf(`{"type":"tool_use","id":"toolu_1","name":"t","input":{` + b.String() + `"end":0}}`)
	}},
}

// BenchmarkDecodeResponseAdversarial maps each of hostileResponses to a
// core.Response at 1 MiB and 10 MiB.
func BenchmarkDecodeResponseAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileResponses, func(b *testing.B, body []byte) {
		for b.Loop() {
			if _, err := anthropic.DecodeResponse(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package proxy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/internal/hostile"
)

// hostileRestreams are re-streams of a final answer, of about size bytes,
// for continuation to splice after blocks the client has: many pings (all
// dropped); many content blocks (each index shifted); one delta as large
// as the stream; many blank lines; events of many data lines.
var hostileRestreams = []hostile.Input{
	{Name: "pings", Make: func(n int) []byte { return repeatTo("", "event: ping\ndata: {\"type\": \"ping\"}\n\n", n) }},
	{Name: "blocks", Make: func(n int) []byte {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n", i)
		}
		return []byte(b.String())
	}},
	{Name: "one-delta", Make: func(n int) []byte {
		return []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" +
			strings.Repeat(`a\"\u00e9 `, n/10) + "\"}}\n\n")
	}},
	{Name: "blank-lines", Make: func(n int) []byte { return repeatTo("", "\n", n) }},
	{Name: "data-lines", Make: func(n int) []byte { return repeatTo("event: content_block_delta\n", "data: [1,\n", n) }},
}

// BenchmarkContinuationAdversarial splices each of hostileRestreams after
// three blocks at 1 MiB and 10 MiB (make bench-linear's pairs).
func BenchmarkContinuationAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileRestreams, func(b *testing.B, raw []byte) {
		for b.Loop() {
			continuation(raw, shown{blocks: 3})
		}
	})
}

package proxy

import (
	"strings"
	"testing"

	"github.com/toolout/toolout/internal/hostile"
)

// repeatTo repeats unit after open until the text holds about size bytes.
func repeatTo(open, unit string, size int) []byte {
	return []byte(open + strings.Repeat(unit, max(size-len(open), 0)/len(unit)))
}

// hostileSSE are relayed streams of about size bytes, none of which holds
// an error, built to keep sseErrors matching: many tiny data lines; one data
// line of near misses of `"error":` (the key, then no colon); one of
// escaped quotes; one of quotes; many lines that start like an error
// event; blank CRLF lines.
var hostileSSE = []hostile.Input{
	{Name: "data-lines", Make: func(n int) []byte { return repeatTo("", "data: {\"x\":1}\n\n", n) }},
	{Name: "near-miss-keys", Make: func(n int) []byte { return repeatTo("data: ", `"error" "erro" "error"x `, n) }},
	{Name: "escaped-keys", Make: func(n int) []byte { return repeatTo("data: ", `\"error\":`, n) }},
	{Name: "quotes", Make: func(n int) []byte { return repeatTo("data: ", `"`, n) }},
	{Name: "event-near-miss", Make: func(n int) []byte { return repeatTo("", "event: erro\nevent: errors\n", n) }},
	{Name: "crlf", Make: func(n int) []byte { return repeatTo("", "\r\n", n) }},
}

// BenchmarkSSEErrorsAdversarial watches each of hostileSSE, written in 32 KiB
// pieces as the relay copies a stream, at 1 MiB and 10 MiB (make
// bench-linear's pairs).
func BenchmarkSSEErrorsAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileSSE, func(b *testing.B, raw []byte) {
		for b.Loop() {
			var s sseErrors
			for p := raw; len(p) > 0; {
				n := min(32<<10, len(p))
				_, _ = s.Write(p[:n])
				p = p[n:]
			}
			if s.found {
				b.Fatal("an error found in a stream without one")
			}
		}
	})
}

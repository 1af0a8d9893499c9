package jsonlex_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/internal/hostile"
)

// literal is a JSON string literal of unit repeated to about size bytes.
func literal(unit string, size int) []byte {
	return []byte(`"` + strings.Repeat(unit, size/len(unit)) + `"`)
}

// hostileLex are inputs of about size bytes for the lexer: string literals
// of plain text, of every escape, of lone surrogates, of backslashes, of
// invalid UTF-8 (each replaced), of control bytes to escape again; a
// number of as many digits, one with a long fraction and exponent; and
// many short lines (for LineCol).
var hostileLex = []hostile.Input{
	{Name: "plain", Make: func(n int) []byte { return literal("lorem ipsum ", n) }},
	{Name: "escapes", Make: func(n int) []byte { return literal(`\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00`, n) }},
	{Name: "lone-surrogates", Make: func(n int) []byte { return literal(`\ud83d\ude00\ude00\ud83dx`, n) }},
	{Name: "backslashes", Make: func(n int) []byte { return literal(`\\`, n) }},
	{Name: "invalid-utf8", Make: func(n int) []byte { return literal("\xff\xe2\x82", n) }},
	{Name: "controls", Make: func(n int) []byte { return literal(`\u0000\u001f\u2028`, n) }},
	{Name: "digits", Make: func(n int) []byte { return []byte(strings.Repeat("7", n)) }},
	{Name: "fraction", Make: func(n int) []byte { return []byte("-0." + strings.Repeat("1", n/2) + "e+" + strings.Repeat("9", n/2)) }},
	{Name: "lines", Make: func(n int) []byte { return []byte(strings.Repeat("1\n", n/2)) }},
}

// BenchmarkLexAdversarial reads each of hostileLex at 1 MiB and 10 MiB
// (make bench-linear's pairs) as the readers built on jsonlex do: a string
// literal is ended (String), decoded (Unescape, replacing invalid UTF-8)
// and written back (Append); a number is ended (Number); and the line and
// column of the last byte are found (LineCol).
func BenchmarkLexAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileLex, func(b *testing.B, data []byte) {
		var buf, out []byte
		for b.Loop() {
			if data[0] == '"' {
				at, _, f := jsonlex.String(data, 0)
				if f != jsonlex.OK || at != len(data) {
					b.Fatalf("String: %d at %d", f, at)
				}
				buf = jsonlex.Unescape(buf[:0], data[1:len(data)-1], true)
				out = jsonlex.Append(out[:0], buf)
			} else if end, _ := jsonlex.Number(data, 0); end == 0 {
				b.Fatal("Number: no number")
			}
			jsonlex.LineCol(data, len(data)-1)
		}
	})
}

// BenchmarkAppendString decodes a 200 KB string literal as the gateway's
// parse does a tool result (docs/benchmarks.md, "A 200 KB tool result"):
// log lines with an escaped newline and two escaped quotes each, and prose
// without an escape.
func BenchmarkAppendString(b *testing.B) {
	var logs strings.Builder
	logs.WriteByte('"')
	for i := 0; logs.Len() < 200_000; i++ {
		fmt.Fprintf(&logs, `2026-11-28T12:00:%02d host=db-%d status=ok latency_ms=%d path=\"/v1/items\"\n`, i%60, i%7, i%300)
	}
	logs.WriteByte('"')
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"log-lines", []byte(logs.String())},
		{"prose", literal("The quick brown fox jumps over the lazy dog. ", 200_000)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			var out []byte
			for b.Loop() {
				var f jsonlex.Fault
				if out, _, _, f = jsonlex.AppendString(out[:0], c.data, 0); f != jsonlex.OK {
					b.Fatal(f)
				}
			}
		})
	}
}

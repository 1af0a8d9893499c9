package hostile

import (
	"fmt"
	"strings"
)

// JSONDocs are JSON documents built to make a JSON shortener
// (core/jsonaware) slow or large: the most nodes per byte, the deepest
// nesting allowed, a new key path in every row, strings full of escapes or
// of the words its error matcher tries, and the ordinary shape of a tool
// output (an array of records) at scale. Each is valid JSON of about size
// bytes.
var JSONDocs = []Input{
	// records: an envelope holding an array of log records, one in 97 an
	// error, one in 101 an outlier.
	{"records", func(size int) []byte {
		return jsonArray(size, `{"service":"api","records":[`, `],"total":0}`, func(i int) string {
			level, ms := "info", 10+i%7
			if i%97 == 50 {
				level = "error"
			}
			if i%101 == 70 {
				ms = 90_000
			}
			return fmt.Sprintf(`{"seq":%d,"ts":"2026-11-25T10:%02d:%02dZ","level":%q,"ms":%d,"msg":"GET /api/orders/%d served to client %d"}`,
				i, i/60%60, i%60, level, ms, i, i%1000)
		})
	}},
	// numbers: one flat array of small numbers, the most nodes per byte.
	{"numbers", func(size int) []byte {
		return jsonArray(size, `[`, `]`, func(i int) string { return fmt.Sprint(i % 10) })
	}},
	// deep: side by side chains of arrays and objects 4,000 levels deep
	// (within the limit of 10,000), a string at the bottom of each.
	{"deep", func(size int) []byte {
		const depth = 4000
		chain := strings.Repeat(`[{"a":`, depth/2) + `"bottom"` + strings.Repeat(`}]`, depth/2)
		return jsonArray(size, `[`, `]`, func(int) string { return chain })
	}},
	// unique-keys: an array of objects each with a key no other row has:
	// every row holds a key path of its own and is kept.
	{"unique-keys", func(size int) []byte {
		return jsonArray(size, `[`, `]`, func(i int) string { return fmt.Sprintf(`{"id":%d,"k%d":"v"}`, i, i) })
	}},
	// wide-object: one object with a member per entry.
	{"wide-object", func(size int) []byte {
		return jsonArray(size, `{`, `}`, func(i int) string { return fmt.Sprintf(`"field_%d":%d`, i, i) })
	}},
	// long-string: one string as large as the document.
	{"long-string", func(size int) []byte {
		return []byte(`{"text":"` + strings.Repeat("lorem ipsum ", size/12) + `"}`)
	}},
	// escapes: strings of escapes and surrogate pairs.
	{"escapes", func(size int) []byte {
		return jsonArray(size, `[`, `]`, func(int) string { return `"` + strings.Repeat(`\"\\\n\ud83d\ude00\u00e9`, 20) + `"` })
	}},
	// error-words: strings full of the starts of the error matcher's words
	// ("status" and "http/" ask for a closer look; "erro" nearly matches).
	{"error-words", func(size int) []byte {
		return jsonArray(size, `[`, `]`, func(int) string { return `"` + strings.Repeat("status http/ erro fai tim ", 40) + `"` })
	}},
}

// jsonArray joins rows made by row between open and close until the
// document holds about size bytes.
func jsonArray(size int, open, close string, row func(i int) string) []byte {
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString(open)
	for i := 0; b.Len() < size-len(close); i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row(i))
	}
	b.WriteString(close)
	return []byte(b.String())
}

// ManyKeys is a JSON object of n keys on one line, "key0000":"v00000" and
// on: every key path is distinct, so a shortener that keeps every key
// (core/jsonaware) cannot make it smaller than itself, at any budget
// (3,000 keys: 57,001 bytes): the input of json-aware's over-budget path.
func ManyKeys(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"key%04d":"v%05d"`, i, i)
	}
	return b.String() + "}"
}

package bench

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Input kinds of generated benchmark text.
var kinds = []string{"prose", "code", "json", "logs", "base64"}

var words = strings.Fields(`the of and to in is that for it as with was on be by this are from
at or an have not which but they were all there been one their has more when will would who
output tool model chunk token request response error timeout upstream latency handle extract`)

// generate returns exactly size bytes of deterministic text of the given kind.
func generate(kind string, size int) string {
	rng := rand.New(rand.NewPCG(uint64(size), uint64(len(kind))))
	var b strings.Builder
	b.Grow(size + 256)
	for i := 0; b.Len() < size; i++ {
		switch kind {
		case "prose":
			for j := range 8 + rng.IntN(12) {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(words[rng.IntN(len(words))])
			}
			b.WriteString(". ")
			if rng.IntN(6) == 0 {
				b.WriteString("\n\n")
			}
		case "code":
			fmt.Fprintf(&b, "func handle%d(ctx context.Context, req *Request) (*Response, error) {\n\tif err := req.Validate(); err != nil {\n\t\treturn nil, fmt.Errorf(\"handle%d: %%w\", err)\n\t}\n\treturn &Response{ID: %d}, nil\n}\n\n", i, i, rng.IntN(1e6))
		case "json":
			fmt.Fprintf(&b, `{"id":%d,"customer":{"email":"user%d@example.com","tier":"%s"},"total":%d.%02d,"items":[{"sku":"SKU-%05d","qty":%d}]},`, i, rng.IntN(1e5), words[rng.IntN(len(words))], rng.IntN(1000), rng.IntN(100), rng.IntN(1e5), 1+rng.IntN(5))
		case "logs":
			fmt.Fprintf(&b, "2026-11-03T10:%02d:%02dZ host=web-%d level=%s msg=%q latency_ms=%d\n", i/60%60, i%60, rng.IntN(8), []string{"INFO", "WARN", "ERROR"}[rng.IntN(3)], words[rng.IntN(len(words))]+" "+words[rng.IntN(len(words))], rng.IntN(5000))
		case "base64":
			raw := make([]byte, 3*1024)
			for k := range raw {
				raw[k] = byte(rng.UintN(256))
			}
			b.WriteString(base64.StdEncoding.EncodeToString(raw))
		default:
			panic("bench: unknown kind " + kind)
		}
	}
	s := b.String()[:size]
	for len(s) > 0 && !isBoundary(s, len(s)) {
		s = s[:len(s)-1]
	}
	return s
}

func isBoundary(s string, i int) bool { return i == len(s) || s[i]&0xC0 != 0x80 }

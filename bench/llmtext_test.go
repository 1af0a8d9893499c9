package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// llmCallEvery is about how many bytes of the text of llmText come between
// two of its calls.
const llmCallEvery = 3 << 10

// llmText returns about size bytes of deterministic text shaped like the
// answer of a model that leaks its calls as text: markdown (headings,
// paragraphs with inline code, bold and comparisons such as "p99 < 250 ms",
// lists, quotes, fenced code with '<' in it) and, every ~3 KB, a short
// lead-in and one <tool_call>{"name":…,"arguments":{…}}</tool_call> on lines
// of its own. No call is inside a code span or fence, so the scanner and
// BenchmarkLeakedStdlib find the same calls.
func llmText(size int) string {
	rng := rand.New(rand.NewPCG(uint64(size), 3))
	var b strings.Builder
	b.Grow(size + 4096)
	last := 0
	for b.Len() < size {
		if b.Len()-last >= llmCallEvery {
			llmCall(&b, rng)
			last = b.Len()
			continue
		}
		switch rng.IntN(8) {
		case 0:
			fmt.Fprintf(&b, "## %s\n\n", capitalize(llmWords(rng, 2+rng.IntN(4))))
		case 1, 2:
			llmList(&b, rng)
		case 3:
			llmFence(&b, rng)
		case 4:
			fmt.Fprintf(&b, "> %s.\n\n", capitalize(llmWords(rng, 8+rng.IntN(10))))
		default:
			for range 2 + rng.IntN(4) {
				llmSentence(&b, rng)
			}
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// llmWords returns n words of bench's vocabulary separated by spaces.
func llmWords(rng *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[rng.IntN(len(words))]
	}
	return strings.Join(ws, " ")
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// llmSentence writes one sentence, sometimes with inline code, bold or a
// comparison that puts a '<' in the prose.
func llmSentence(b *strings.Builder, rng *rand.Rand) {
	b.WriteString(capitalize(llmWords(rng, 5+rng.IntN(10))))
	switch rng.IntN(6) {
	case 0:
		fmt.Fprintf(b, " in `%s_%s()`", words[rng.IntN(len(words))], words[rng.IntN(len(words))])
	case 1:
		fmt.Fprintf(b, " **%s**", llmWords(rng, 2))
	case 2:
		fmt.Fprintf(b, " (p99 < %d ms on web-%d)", 50+rng.IntN(400), rng.IntN(8))
	}
	b.WriteString(". ")
}

// llmList writes a numbered or bulleted list.
func llmList(b *strings.Builder, rng *rand.Rand) {
	numbered := rng.IntN(2) == 0
	for i := range 3 + rng.IntN(4) {
		if numbered {
			fmt.Fprintf(b, "%d. ", i+1)
		} else {
			b.WriteString("- ")
		}
		b.WriteString(capitalize(llmWords(rng, 4+rng.IntN(8))))
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// llmFence writes a fenced code block with '<' in its lines.
func llmFence(b *strings.Builder, rng *rand.Rand) {
	n := rng.IntN(1000)
	switch rng.IntN(3) {
	case 0:
		fmt.Fprintf(b, "```go\nfor i := 0; i < len(rows); i++ {\n\tif rows[i].Latency > %d*time.Millisecond {\n\t\tslow = append(slow, rows[i])\n\t}\n}\n```\n\n", n)
	case 1:
		fmt.Fprintf(b, "```bash\ncurl -s http://web-%d:8080/health | jq '.checks[] | select(.ms > %d)' 2>&1 </dev/null\n```\n\n", n%8, n)
	default:
		fmt.Fprintf(b, "```html\n<div class=\"status\">\n  <span>%d errors</span><br>\n</div>\n```\n\n", n)
	}
}

// llmCall writes a lead-in sentence and one call on lines of its own.
func llmCall(b *strings.Builder, rng *rand.Rand) {
	host := fmt.Sprintf("web-%d", rng.IntN(8))
	var name string
	var args map[string]any
	switch rng.IntN(4) {
	case 0:
		name, args = "logs__query", map[string]any{"host": host, "since": "1h", "q": "level=ERROR latency_ms>" + fmt.Sprint(rng.IntN(5000)), "limit": 50}
	case 1:
		name, args = "files__read", map[string]any{"path": "/var/log/" + words[rng.IntN(len(words))] + ".log", "offset": rng.IntN(1 << 20), "limit": 4096}
	case 2:
		name, args = "http__get", map[string]any{"url": "http://" + host + ":8080/metrics?window=5m", "headers": map[string]any{"Accept": "application/json"}}
	default:
		name, args = "db__query", map[string]any{"sql": fmt.Sprintf("SELECT id, \"latency\" FROM requests WHERE latency < %d\nORDER BY id", rng.IntN(900)), "params": []any{host, true, nil}}
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false) // a model writes '<', not \u003c
	call := struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}{name, args}
	if err := enc.Encode(call); err != nil {
		panic(err)
	}
	fmt.Fprintf(b, "Let me check %s with `%s`.\n\n<tool_call>\n%s</tool_call>\n\n", host, name, body.Bytes())
}

// BenchmarkLeakedStdlib is the baseline of BenchmarkLeaked's
// input=llm-text, with the same sub-benchmark name: finding each wrapper's
// start and end with bytes.IndexByte and decoding each body with
// json.Unmarshal into a call's name and raw arguments (what the scanner
// returns). It knows the one wrapper the text uses and skips no code fence,
// so it is a floor, not a scanner. The goal for the scanner on this
// text is at most 1.5 times this (make bench-ratios).
func BenchmarkLeakedStdlib(b *testing.B) {
	text := []byte(llmText(1 << 20))
	b.Run("input=llm-text/size=1MiB", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		calls := 0
		for b.Loop() {
			var err error
			if calls, err = unmarshalCalls(text); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(calls), "calls")
	})
}

// stdlibCall is what unmarshalCalls decodes each body into.
type stdlibCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// unmarshalCalls finds each <tool_call>…</tool_call> of text by its '<' and
// decodes its body, and returns how many it decoded.
func unmarshalCalls(text []byte) (int, error) {
	open, closing := []byte("<tool_call>"), []byte("</tool_call>")
	n := 0
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '<')
		if j < 0 {
			return n, nil
		}
		i += j
		if !bytes.HasPrefix(text[i:], open) {
			i++
			continue
		}
		body := i + len(open)
		end := body
		for {
			k := bytes.IndexByte(text[end:], '<')
			if k < 0 {
				return n, fmt.Errorf("unclosed <tool_call> at %d", i)
			}
			end += k
			if bytes.HasPrefix(text[end:], closing) {
				break
			}
			end++
		}
		var c stdlibCall
		if err := json.Unmarshal(text[body:end], &c); err != nil {
			return n, fmt.Errorf("<tool_call> at %d: %w", i, err)
		}
		n++
		i = end + len(closing)
	}
}

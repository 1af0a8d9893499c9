package bench

import (
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// streamDeltas are the lengths of the deltas a stream benchmark feeds, in
// turn: about a token each, as a model streams (7 bytes on average), in
// lengths that fall on every alignment.
var streamDeltas = []int{1, 3, 7, 16}

// streamInputs are the inputs of BenchmarkLeakedStream: prose, dense calls
// and LLM-like text, and every adversarial input of BenchmarkLeaked, each
// at 1 MiB and 10 MiB.
func streamInputs() []leakedCase {
	plain := []adversarial{
		{"prose", func(n int) string { return generate("prose", n) }},
		{"dense-calls", denseCalls},
		{"llm-text", llmText},
	}
	return sized(append(plain, leakedAdversarial...))
}

// BenchmarkLeakedStream measures the streaming parser fed in small deltas
// (streamDeltas): linear in the input whatever the split, so each input's
// 10 MiB costs about ten times its 1 MiB (make bench-linear).
func BenchmarkLeakedStream(b *testing.B) {
	streamRuns(b, func(text string) int {
		st := leaked.NewStream(leaked.Options{})
		n := 0
		for at, k := 0, 0; at < len(text); k++ {
			d := min(streamDeltas[k%len(streamDeltas)], len(text)-at)
			n += len(st.Write(text[at : at+d]))
			at += d
		}
		ev, _ := st.Close()
		return n + len(ev)
	})
}

// BenchmarkLeakedStreamBaseline is Extract on the same inputs, in the same
// run: what the stream costs over the batch parser.
func BenchmarkLeakedStreamBaseline(b *testing.B) {
	streamRuns(b, func(text string) int { return len(leaked.Extract(text, leaked.Options{}).Calls) })
}

func streamRuns(b *testing.B, scan func(text string) int) {
	runCases(b, streamInputs(), "events", scan)
}

package chunk_test

import (
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/tokens"
)

// Plan a 40-line log into chunks of at most 120 tokens that overlap by 10%
// of the budget: the fewest chunks that fit, balanced to one size (113
// tokens, not eight full ones and a small ninth), each sharing 12 tokens
// with the one before it.
func ExampleMake() {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "2026-11-25T10:%02d:00Z GET /api/orders/%d 200\n", i, 1000+i)
	}
	text := b.String()
	p, err := chunk.Make(text, tokens.MustNew(tokens.CL100K), 120, chunk.DefaultOverlap)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d tokens, budget %d, overlap %d, target %d\n", p.Tokens, p.Budget, p.Overlap, p.Target)
	for _, c := range p.Chunks {
		fmt.Printf("chunk %d: bytes %d-%d, %d tokens, %d shared\n", c.Index, c.Start, c.End, c.Tokens, c.OverlapTokens)
	}
	_, err = chunk.Make(text, tokens.MustNew(tokens.CL100K), 0, chunk.DefaultOverlap)
	fmt.Println(err)
	// Output:
	// 920 tokens, budget 120, overlap 12, target 113
	// chunk 1: bytes 0-226, 113 tokens, 0 shared
	// chunk 2: bytes 198-425, 113 tokens, 12 shared
	// chunk 3: bytes 405-627, 113 tokens, 12 shared
	// chunk 4: bytes 605-828, 111 tokens, 12 shared
	// chunk 5: bytes 799-1028, 114 tokens, 12 shared
	// chunk 6: bytes 1012-1238, 113 tokens, 10 shared
	// chunk 7: bytes 1210-1437, 113 tokens, 12 shared
	// chunk 8: bytes 1417-1636, 112 tokens, 12 shared
	// chunk 9: bytes 1615-1840, 112 tokens, 12 shared
	// chunk: budget 0: budget must be positive
}

package bench

import (
	"os"
	"testing"

	"github.com/toolout/toolout/core/tokens"
)

func BenchmarkZZMarks(b *testing.B) {
	tk := tokens.MustNew(tokens.CL100K)
	for _, size := range chunkSizes {
		b.Run("size="+sizeName(size), func(b *testing.B) {
			text := mixed(size)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				n := 0
				tk.WalkMarks(text, 32, func(batch []tokens.Mark) bool { n += len(batch); return true })
			}
		})
	}
}

func TestZZWrite(t *testing.T) {
	_ = os.WriteFile("/tmp/mixed1.txt", []byte(mixed(1<<20)), 0o644)
	_ = os.WriteFile("/tmp/mixed10.txt", []byte(mixed(10<<20)), 0o644)
}

package tokens_test

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/toolout/toolout/core/tokens"
)

var (
	refOnce sync.Once
	refs    = map[string]*tiktoken.Tiktoken{}
)

// reference returns tiktoken-go's encoder, the reference for counts, loaded
// from the same embedded ranks.
func reference(name string) *tiktoken.Tiktoken {
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		for _, n := range tokens.Names() {
			enc, err := tiktoken.GetEncoding(n)
			if err != nil {
				panic(err)
			}
			refs[n] = enc
		}
	})
	return refs[name]
}

func refCount(name, s string) int { return len(reference(name).Encode(s, nil, nil)) }

var samples = []string{
	"",
	"Hello, world!",
	"The quick brown fox jumps over the lazy dog. It's what they'd've done; we'll see.",
	"func main() {\n\tfmt.Println(\"hi\")\n\tfor i := 0; i < 10; i++ {}\n}\n",
	`{"orders":[{"id":12345,"total":99.95,"items":[{"sku":"A-1","qty":2}]}],"next":null}`,
	"2026-11-03T10:00:01Z host=web-0 level=ERROR msg=\"upstream timeout\" latency_ms=1532\n",
	"Zähler über Straße, naïve café, 東京都渋谷区, 😀🚀✅, مرحبا بالعالم, Привет мир",
	"   leading and trailing spaces   \n\n\n\t\ttabs\r\nCRLF\r\n",
	"1234567890 3.14159 -42 1e10 0xdeadbeef 1,000,000",
	"<|endoftext|> and <|fim_prefix|> are text here",
	"ALLCAPS CamelCase snake_case kebab-case UPPER_SNAKE mixedCASEword",
	strings.Repeat("a", 4096),
	strings.Repeat("ab1 ", 300),
	"https://example.com/path/to/file?query=1&x=y#frag /usr/local/bin/go",
}

var _ = Describe("Tiktoken", func() {
	for _, name := range tokens.Names() {
		tk := tokens.MustNew(name)

		DescribeTable(name+" counts like tiktoken-go",
			func(s string) { Expect(tk.Count(s)).To(Equal(refCount(name, s))) },
			shortQuote,
			tableEntries(samples),
		)

		It(name+" counts random strings like tiktoken-go", func() {
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			alphabet := []rune("aAbZ z0 19.,;:'\"!?-_/\\\n\t\r(){}[]<>é東😀ß \u00a0\u2003\u3000\v\f\u0085\u2028ⅫÀ'sS'LLd")
			for range tokens.Trials(4000) {
				n := rng.IntN(120)
				var b strings.Builder
				for range n {
					b.WriteRune(alphabet[rng.IntN(len(alphabet))])
				}
				s := b.String()
				Expect(tk.Count(s)).To(Equal(refCount(name, s)), "%q", s)
			}
		})

		It(name+" merges long pieces exactly like the quadratic reference", func() {
			rng := rand.New(rand.NewPCG(3, 4))
			raw := make([]byte, 3000)
			for i := range raw {
				raw[i] = byte(rng.UintN(256))
			}
			blob := base64.StdEncoding.EncodeToString(raw)
			for _, s := range []string{blob, strings.Repeat("x", 2000), strings.Repeat("abcabd", 500), strings.ToLower(blob)} {
				Expect(tk.Count(s)).To(Equal(refCount(name, s)))
			}
		})

		It(name+" keeps the tokenizer contract", func() {
			Expect(tokens.Check(tk, samples...)).To(Succeed())
		})
	}

	It("rejects an unknown encoding and names the known ones", func() {
		_, err := tokens.New("p50k")
		Expect(err).To(MatchError(`tokens: unknown encoding "p50k" (known: cl100k_base, o200k_base)`))
	})

	It("counts 1 MiB of base64 and of one repeated letter", func() {
		tk := tokens.MustNew(tokens.CL100K)
		raw := make([]byte, 768<<10)
		for i := range raw {
			raw[i] = byte(i * 7)
		}
		Expect(tk.Count(base64.StdEncoding.EncodeToString(raw))).To(BeNumerically(">", 100_000))
		Expect(tk.Count(strings.Repeat("a", 1<<20))).To(BeNumerically(">", 100_000))
	})

	It("is safe for concurrent use", func() {
		tk := tokens.MustNew(tokens.O200K)
		want := tk.Count(samples[6])
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				defer GinkgoRecover()
				Expect(tk.Count(samples[6])).To(Equal(want))
			})
		}
		wg.Wait()
	})
})

func tableEntries(texts []string) []TableEntry {
	var out []TableEntry
	for _, s := range texts {
		out = append(out, Entry(nil, s))
	}
	return out
}

// shortQuote describes a table entry by its first 40 bytes, quoted.
func shortQuote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return fmt.Sprintf("%q", s)
}

package tokens_test

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/toolout/toolout/core/tokens"
)

// The Ginkgo specs, the differential tests and the fuzz targets all compare
// with the same reference and the same samples.

var (
	refOnce sync.Once
	refs    = map[string]*tiktoken.Tiktoken{}
)

// reference returns tiktoken-go's encoder, the reference for counts, loaded
// from the same embedded ranks.
func reference(name string) *tiktoken.Tiktoken {
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		for _, n := range []string{tokens.CL100K, tokens.O200K} { // o200k_harmony: refEncode
			enc, err := tiktoken.GetEncoding(n)
			if err != nil {
				panic(err)
			}
			refs[n] = enc
		}
	})
	return refs[name]
}

func refCount(name, s string) int { return len(refEncode(name, s)) }

// refEncode is the reference's ids of s: tiktoken-go's, and for
// o200k_harmony, which tiktoken-go lacks, the ids composed from the
// reference's special-token table (testdata/o200k-harmony/specials.tsv, the
// leftmost special token first, as tiktoken finds them) and tiktoken-go's
// o200k_base for the text between them.
func refEncode(name, s string) []int {
	if name != tokens.O200KHarmony {
		return reference(name).Encode(s, nil, nil)
	}
	specials := refSpecials()
	var ids []int
	for len(s) > 0 {
		at, text := len(s), ""
		for i := strings.Index(s, "<|"); i >= 0 && at == len(s); {
			for t := range specials {
				if strings.HasPrefix(s[i:], t) {
					at, text = i, t
					break
				}
			}
			if at == len(s) {
				k := strings.Index(s[i+1:], "<|")
				if k < 0 {
					break
				}
				i += 1 + k
			}
		}
		ids = append(ids, reference(tokens.O200K).Encode(s[:at], nil, nil)...)
		if text == "" {
			break
		}
		ids = append(ids, specials[text])
		s = s[at+len(text):]
	}
	return ids
}

var (
	refSpecialsOnce sync.Once
	refSpecialsMap  map[string]int
)

// refSpecials reads testdata/o200k-harmony/specials.tsv.
func refSpecials() map[string]int {
	refSpecialsOnce.Do(func() {
		data, err := os.ReadFile("testdata/o200k-harmony/specials.tsv")
		if err != nil {
			panic(err)
		}
		refSpecialsMap = map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			id, text, _ := strings.Cut(line, "\t")
			n, err := strconv.Atoi(id)
			if err != nil {
				panic(err)
			}
			refSpecialsMap[text] = n
		}
	})
	return refSpecialsMap
}

// sameCount fails t, naming the input and both counts, when tk counts s
// differently from tiktoken-go.
func sameCount(t *testing.T, tk *tokens.Tiktoken, s string) {
	t.Helper()
	if got, want := tk.Count(s), refCount(tk.Name(), s); got != want {
		t.Fatalf("%s: Count(%q) = %d, tiktoken-go %d", tk.Name(), s, got, want)
	}
}

// sameCountOnRandom runs sameCount, per encoding (a subtest each), on
// trials strings from gen, with a generator seeded by seed and the length of
// the encoding's name.
func sameCountOnRandom(t *testing.T, seed uint64, trials int, gen func(rng *rand.Rand) string) {
	for _, name := range tokens.Names() {
		t.Run(name, func(t *testing.T) {
			tk := tokens.MustNew(name)
			rng := rand.New(rand.NewPCG(seed, uint64(len(name))))
			for range trials {
				sameCount(t, tk, gen(rng))
			}
		})
	}
}

// samples are the named cases the specs compare with tiktoken-go, check the
// tokenizer contract on, and seed the fuzz targets with.
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

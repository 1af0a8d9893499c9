package tokens

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// TestRankTable checks the packed table against the ranks file itself: every
// token of both encodings is found with its rank, and strings that are no
// token (each token with a byte changed, cut or added, a quarter of them
// under the race detector as Trials says, and random bytes of every length
// up to 20) are not.
func TestRankTable(t *testing.T) {
	for _, name := range Names() {
		want := map[string]int32{}
		data, err := assets.Assets.ReadFile(rankFile(name))
		if err != nil {
			t.Fatal(err)
		}
		for line := range bytes.Lines(data) {
			tok, rank, _ := bytes.Cut(bytes.TrimSpace(line), []byte{' '})
			dec := make([]byte, b64len(tok))
			n, err := b64.Decode(dec, tok)
			r, err2 := strconv.Atoi(string(rank))
			if err != nil || err2 != nil {
				t.Fatalf("%s: %q: %v %v", name, line, err, err2)
			}
			want[string(dec[:n])] = int32(r)
		}
		table, err := load(name)
		if err != nil {
			t.Fatal(err)
		}
		check := func(s string) {
			t.Helper()
			r, ok := table.ranks.get(s)
			w, wok := want[s]
			if ok != wok || ok && r != w {
				t.Fatalf("%s: get(%q) = %d, %v; want %d, %v", name, s, r, ok, w, wok)
			}
		}
		rng := rand.New(rand.NewPCG(1, uint64(len(name))))
		every := len(want) / Trials(len(want)) // near-misses of every token, or of one in four under race
		i := 0
		for tok := range want {
			check(tok)
			if i++; i%every != 0 {
				continue
			}
			b := []byte(tok)
			b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
			check(string(b))
			check(tok[:len(tok)-1])
			check(tok + "\x00")
		}
		for n := range 21 {
			for range 2000 {
				b := make([]byte, n)
				for i := range b {
					b[i] = byte(rng.UintN(256))
				}
				check(string(b))
			}
		}
		if table.ranks.maxLen != maxKey(want) {
			t.Fatalf("%s: maxLen %d, want %d", name, table.ranks.maxLen, maxKey(want))
		}
	}
}

func maxKey(m map[string]int32) int {
	n := 0
	for k := range m {
		n = max(n, len(k))
	}
	return n
}

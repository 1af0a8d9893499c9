package tokens_test

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// invalidFragments are byte sequences that are not valid UTF-8, or that sit
// next to ones that are not.
var invalidFragments = []string{
	"\xff", "\xfe", "\xff\xff\xff\xff", "\xf5", "\xf8\x88\x80\x80\x80", // never valid
	"\x80", "\xbf", "\x80\x80\x80", // lone continuation bytes
	"\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xf0\x9f", // truncated sequences
	"\xed\xa0\x80", "\xed\xbf\xbf", "\xed\xa0\xbd\xed\xb8\x80", // surrogates (CESU-8)
	"\xc0\x80", "\xc1\xbf", "\xe0\x80\xaf", "\xf0\x80\x80\xaf", // overlong encodings
	"\xf4\x90\x80\x80",                // above U+10FFFF
	"\xef\xbf\xbd",                    // U+FFFD itself, valid
	"é", "東", "😀", "\u00a0", "\u2028", // valid multi-byte neighbours
}

// textFragments are valid pieces of text to mix with the invalid bytes.
var textFragments = []string{
	"a", "Z", "hello", " ", "  ", "\n", "\r\n", "\t", "=", "==", "-", "'s", "'LL", "12", "3456",
	".", ",", "{\"k\":", "/", "_", "É", "ǅ", "\u0301",
}

// invalidSamples are the named cases of the invalid UTF-8 specs
// (tiktoken_test.go); they seed the fuzz targets too.
var invalidSamples = []string{
	strings.Repeat("\xff", 1000),
	strings.Repeat("\xff", 7),
	"a\xffb",
	"\xed\xa0\x80",
	"\xc0\x80",
	"\xe2\x82",
	"x\x80y",
	"\xff\xfe",
	"caf\xc3",
	"caf\xc3 au lait",
	"\xf0\x9f\x98 emoji cut",
	"\xe0\x80\xaf overlong slash",
	"====\xff\xff====\n\xff",
	"   \xff   \n",
	"12\xff34\xff567",
	"It\xff's done",
	"hello\xffworld \xffx \xff",
	"\xef\xbf\xbd\xff\xef\xbf\xbd",
	strings.Repeat("\xff=", 300),
	strings.Repeat("ab\xc3", 200),
	strings.Repeat("\xed\xa0\x80", 100),
	strings.Repeat("\x80", 513),
}

// randomInvalid returns a string of up to n fragments: random bytes, invalid
// fragments and text.
func randomInvalid(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range rng.IntN(n + 1) {
		switch rng.IntN(4) {
		case 0:
			b.WriteByte(byte(rng.UintN(256)))
		case 1:
			b.WriteString(invalidFragments[rng.IntN(len(invalidFragments))])
		default:
			b.WriteString(textFragments[rng.IntN(len(textFragments))])
		}
	}
	return b.String()
}

// TestCountMatchesTiktokenGoOnRandomBytes compares Count with tiktoken-go on
// 2,000 strings per encoding of up to 80 uniformly random bytes, nearly all
// of them invalid UTF-8. It runs in both passes of `make test` (see
// tiktoken_differential_test.go).
func TestCountMatchesTiktokenGoOnRandomBytes(t *testing.T) {
	sameCountOnRandom(t, 5, 2000, func(rng *rand.Rand) string {
		raw := make([]byte, rng.IntN(80))
		for i := range raw {
			raw[i] = byte(rng.UintN(256))
		}
		return string(raw)
	})
}

// TestCountMatchesTiktokenGoOnTextWithInvalidUTF8 compares Count with
// tiktoken-go on 2,000 strings per encoding of up to 40 fragments: text,
// truncated, overlong and surrogate sequences, and random bytes.
func TestCountMatchesTiktokenGoOnTextWithInvalidUTF8(t *testing.T) {
	sameCountOnRandom(t, 6, 2000, func(rng *rand.Rand) string { return randomInvalid(rng, 40) })
}

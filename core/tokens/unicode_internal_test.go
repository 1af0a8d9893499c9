package tokens

import (
	"slices"
	"sync"
	"testing"
	"unicode"
)

// The splitters classify characters by Unicode 16.0.0 (unicode16.go), as
// tiktoken does; regexp2 and tiktoken-go, the references of the other
// differentials, by Go's unicode package, Unicode 15.0.0. Those compare
// only text whose characters all have the same classes in both
// (GoTablesAgree); testdata/tiktoken-unicode checks the rest against
// tiktoken itself.

// GoTablesAgree reports whether r has the same classes (letter, number,
// white space, o200k_base's upper- and lower-case runs) in Go's Unicode
// tables as in the splitters': false for the letters, marks and numbers
// added in Unicode 16.0. Test files of package tokens_test use it too.
func GoTablesAgree(r rune) bool {
	return isLetter(r) == unicode.IsLetter(r) &&
		isNumber(r) == unicode.IsNumber(r) &&
		isSpaceRE(r) == (r == 0x85 || unicode.Is(unicode.Z, r) || r < 0x80 && unicode.IsSpace(r)) &&
		isUpperish(r) == unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) &&
		isLowerish(r) == unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// goTablesDisagree returns, sorted, the code points for which
// GoTablesAgree is false. Any such code point is in one of the tables of
// either side, so it visits those (about 300,000 code points, a quarter of
// all, which matters under the race detector) rather than every one.
var goTablesDisagree = sync.OnceValue(func() []rune {
	seen := map[rune]bool{}
	var out []rune
	for _, t := range []*unicode.RangeTable{letter16, number16, space16, upperish16, lowerish16, unicode.L, unicode.M, unicode.N, unicode.Z} {
		for _, r16 := range t.R16 {
			for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
				if !seen[r] && !GoTablesAgree(r) {
					seen[r], out = true, append(out, r)
				}
			}
		}
		for _, r32 := range t.R32 {
			for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
				if !seen[r] && !GoTablesAgree(r) {
					seen[r], out = true, append(out, r)
				}
			}
		}
	}
	slices.Sort(out)
	return out
})

// TestUnicode16OnlyAddsToGoTables checks that where the tables differ from
// Go's, Unicode 16.0 assigned a character Unicode 15.0 had not: no
// character of 15.0 changed class, so text of 15.0's characters splits as
// with Go's tables. It counts the new ones too (5,055 letters, marks and
// numbers).
func TestUnicode16OnlyAddsToGoTables(t *testing.T) {
	if unicode.Version != "15.0.0" {
		t.Skipf("Go's unicode tables are %s now: see whether unicode16.go is still needed", unicode.Version)
	}
	added := goTablesDisagree()
	for _, r := range added {
		if !unicode.Is(unicode.Cn, r) {
			t.Errorf("U+%04X changed class between Unicode 15.0 and %s", r, unicodeVersion)
		}
	}
	t.Logf("%d code points are letters, marks or numbers in Unicode %s and unassigned in Go's %s", len(added), unicodeVersion, unicode.Version)
}

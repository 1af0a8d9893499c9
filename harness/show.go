package harness

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Mismatch's message says what was found instead of what was expected.
// What it shows is bounded, so that a failure stays readable whatever the
// run produced, and depends on nothing but the values, so that the message
// is the same from run to run: a value is quoted and cut after ShowBytes
// bytes, a list shows its first ShowItems values, and a match is shown from
// ShowBefore bytes before it; each says how much it left out. The whole
// transcript is in the .got file beside the golden (see Runner.Golden).
const (
	ShowBytes  = 200
	ShowItems  = 10
	ShowBefore = 40
)

// Show quotes s (strconv.Quote), cut after its first ShowBytes bytes on a
// rune boundary and followed by the number of bytes left out:
//
//	"ts=1 host=web-0 …"… (1234 more bytes)
//
// A string of at most ShowBytes bytes is shown as %q shows it.
func Show(s string) string {
	if len(s) <= ShowBytes {
		return strconv.Quote(s)
	}
	cut := ShowBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", strconv.Quote(s[:cut]), len(s)-cut)
}

// ShowAt shows s from ShowBefore bytes before byte offset i (on a rune
// boundary), for a match that must not be there:
//
//	at byte 5120: (5080 bytes before) "…"
func ShowAt(s string, i int) string {
	start := max(0, min(i, len(s))-ShowBefore)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	before := ""
	if start > 0 {
		before = fmt.Sprintf("(%d bytes before) ", start)
	}
	return fmt.Sprintf("at byte %d: %s%s", i, before, Show(s[start:]))
}

// ShowIndex shows s around the first occurrence of sub (ShowAt); "" when
// s does not contain it.
func ShowIndex(s, sub string) string {
	i := strings.Index(s, sub)
	if i < 0 {
		return ""
	}
	return ShowAt(s, i)
}

// Found lists what a run produced, for a message: the noun with the count in
// parentheses, then each item on a line of its own with its 0-based index,
// shown by Show, at most ShowItems of them and then how many were left out:
//
//	found tool results (12):
//	  [0] "read_file: …"
//	  …
//	  [9] "grep: …"
//	  … and 2 more
//
// With no items it reads "found no <noun>".
func Found(noun string, items []string) string {
	if len(items) == 0 {
		return "found no " + noun
	}
	var b strings.Builder
	fmt.Fprintf(&b, "found %s (%d):", noun, len(items))
	for i, it := range items[:min(len(items), ShowItems)] {
		fmt.Fprintf(&b, "\n  [%d] %s", i, Show(it))
	}
	if n := len(items) - ShowItems; n > 0 {
		fmt.Fprintf(&b, "\n  … and %d more", n)
	}
	return b.String()
}

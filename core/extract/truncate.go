package extract

import (
	"fmt"
	"unicode/utf8"
)

// Truncate keeps the head and the tail of text around a marker that says how
// many bytes were cut, so that head plus tail is at most maxBytes (the marker
// comes on top). The head gets the first half of the budget; cuts back off to
// UTF-8 boundaries, so no rune is split. Text within the budget comes back
// unchanged. It also returns the number of bytes cut.
func Truncate(text string, maxBytes int) (string, int) {
	if maxBytes < 0 {
		maxBytes = 0
	}
	if len(text) <= maxBytes {
		return text, 0
	}
	head := maxBytes / 2
	for head > 0 && !utf8.RuneStart(text[head]) {
		head--
	}
	tail := len(text) - (maxBytes - head)
	for tail < len(text) && !utf8.RuneStart(text[tail]) {
		tail++
	}
	return text[:head] + Marker(tail-head) + text[tail:], tail - head
}

// Marker is the text that stands for n cut bytes.
func Marker(n int) string { return fmt.Sprintf("\n[... %d bytes truncated ...]\n", n) }

// TruncateWithin is [Truncate] held to maxBytes, its marker included: the
// truncate strategy's cut (a budget is a bound). The marker's room
// is set aside first, at its widest (a count of len(text) bytes), and head
// and tail share what is left as in Truncate, so the output is at most
// maxBytes and at most a few bytes under it. A budget too small for the
// marker gets the head alone, maxBytes bytes backed off to a rune start,
// without a marker. Text within the budget comes back unchanged. It also
// returns the number of bytes cut.
func TruncateWithin(text string, maxBytes int) (string, int) {
	if maxBytes < 0 {
		maxBytes = 0
	}
	if len(text) <= maxBytes {
		return text, 0
	}
	keep := maxBytes - len(Marker(len(text)))
	if keep < 0 {
		head := maxBytes
		for head > 0 && !utf8.RuneStart(text[head]) {
			head--
		}
		return text[:head], len(text) - head
	}
	return Truncate(text, keep)
}

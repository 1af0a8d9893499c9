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

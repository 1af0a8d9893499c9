package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// ShadowPrefix starts every compressed tool output the model sees.
const ShadowPrefix = "<<<SHADOW:"

// ShadowID is the deterministic id of content: "shadow_" and the hex of the
// first 16 bytes of its SHA-256. Identical contents share it, across runs
// and processes.
func ShadowID(content string) string {
	// The hash reads content through a small buffer on the stack: a
	// []byte(content) conversion would copy all of it to the heap first.
	h := sha256.New()
	var buf [4096]byte
	for content != "" {
		n := copy(buf[:], content)
		h.Write(buf[:n])
		content = content[n:]
	}
	var sum [sha256.Size]byte
	return "shadow_" + hex.EncodeToString(h.Sum(sum[:0])[:16])
}

// Mark renders compressed text as the model sees it:
// "<<<SHADOW:{id}>>>\n{compressed}".
func Mark(id, compressed string) string { return ShadowPrefix + id + ">>>\n" + compressed }

// Marked reports whether content already carries a shadow prefix.
func Marked(content string) bool { return strings.HasPrefix(content, ShadowPrefix) }

// ParseMark returns the id and the compressed text of marked content.
func ParseMark(content string) (id, compressed string, ok bool) {
	rest, ok := strings.CutPrefix(content, ShadowPrefix)
	if !ok {
		return "", "", false
	}
	id, compressed, ok = strings.Cut(rest, ">>>\n")
	return id, compressed, ok
}

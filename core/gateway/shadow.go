package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unsafe"
)

// ShadowPrefix starts every compressed tool output the model sees.
const ShadowPrefix = "<<<SHADOW:"

// ShadowID is the deterministic id of content: "shadow_" and the hex of the
// first 16 bytes of its SHA-256. Identical contents share it, across runs
// and processes.
func ShadowID(content string) string {
	// The hash reads content's own bytes: a []byte(content) conversion
	// would copy all of it to the heap first, and a copy through a buffer
	// on the stack cost a tenth of the hash. sha256.Sum256 only reads its
	// argument, so the string's memory is never written.
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(content), len(content)))
	return "shadow_" + hex.EncodeToString(sum[:16])
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

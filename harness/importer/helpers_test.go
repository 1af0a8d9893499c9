package importer_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
	"github.com/toolout/toolout/internal/hostile"
)

// sha is the hex SHA-256 of s, as a scenario's provenance records its trace.
func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// scenarioOf returns the session scenario among an import's files.
func scenarioOf(files []importer.ImportedFile) []byte {
	for _, f := range files {
		if strings.HasSuffix(f.Path, "/x.yaml") {
			return f.Data
		}
	}
	Fail("no session scenario x.yaml")
	return nil
}

// mustImport imports trace with o, which must succeed.
func mustImport(trace string, o importer.ImportOptions) []importer.ImportedFile {
	GinkgoHelper()
	files, err := importer.Import([]byte(trace), o)
	Expect(err).NotTo(HaveOccurred())
	return files
}

// expectImport imports trace with o, which must fail with the error want,
// or succeed when want is "".
func expectImport(trace string, o importer.ImportOptions, want string) {
	GinkgoHelper()
	_, err := importer.Import([]byte(trace), o)
	if want == "" {
		Expect(err).NotTo(HaveOccurred())
		return
	}
	Expect(err).To(MatchError(want))
}

// benchImport times Import with o at 1 MiB and 10 MiB on the traces that
// build makes of each kind, one sub-benchmark each: "kind/size=1MiB".
func benchImport(b *testing.B, kinds []string, build func(n int, kind string) []byte, o importer.ImportOptions) {
	hostile.WarmHeap()
	for _, kind := range kinds {
		for _, size := range []struct {
			name string
			n    int
		}{{"1MiB", 1 << 20}, {"10MiB", 10 << 20}} {
			trace := build(size.n, kind)
			b.Run(kind+"/size="+size.name, func(b *testing.B) { timeImport(b, trace, o) })
		}
	}
}

// timeImport times Import with o on trace.
func timeImport(b *testing.B, trace []byte, o importer.ImportOptions) {
	b.SetBytes(int64(len(trace)))
	for b.Loop() {
		// The error is left: Import refuses inline texts this big only
		// at the end, after all the work, so the cost is the same.
		_, _ = importer.Import(trace, o)
	}
}

// atMarker is "t.jsonl:LINE:COL: " of the first occurrence of marker in
// text: where a one-line-per-call log is refused.
func atMarker(text, marker string) string {
	i := strings.Index(text, marker)
	Expect(i).To(BeNumerically(">=", 0), marker)
	line := strings.Count(text[:i], "\n") + 1
	return fmt.Sprintf("t.jsonl:%d:%d: ", line, i-strings.LastIndex(text[:i], "\n"))
}

// expectRefusedAt expects importing text in format to fail with want,
// prefixed by where marker stands (or by marker itself, when it is already
// a "t.jsonl:" position).
func expectRefusedAt(text, format, marker, want string) {
	if !strings.HasPrefix(marker, "t.jsonl:") {
		marker = atMarker(text, marker)
	}
	_, err := importer.Conversation([]byte(text), format)
	Expect(err).To(MatchError(marker + want))
}

package importer_test

import (
	"encoding/json"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

var _ = Describe("Redactor", func() {
	It("redacts each string of a JSON text, keys too, and keeps the rest byte for byte", func() {
		r, err := importer.NewRedactor(true, []string{`pw=\S+`})
		Expect(err).NotTo(HaveOccurred())
		in := `{"a": "key sk-proj-abcdefghijklmnopqrstuvwxyz0123 and pw=x\"y", "ann@example.com": [1, "Bearer abcdefghijk"],  "n": 1.50}`
		out := string(r.RedactJSON([]byte(in)))
		Expect(json.Valid([]byte(out))).To(BeTrue(), out)
		Expect(out).To(Equal(`{"a": "key <REDACTED_API_KEY_1> and <REDACTED_SECRET_1>", "<REDACTED_EMAIL_1>": [1, "Bearer <REDACTED_BEARER_1>"],  "n": 1.50}`))
		Expect(r.Redact("again sk-proj-abcdefghijklmnopqrstuvwxyz0123")).To(Equal("again <REDACTED_API_KEY_1>"))
		Expect(string(r.RedactJSON([]byte("not json sk-proj-abcdefghijklmnopqrstuvwxyz0123")))).To(Equal("not json <REDACTED_API_KEY_1>"))
		_, err = importer.NewRedactor(false, []string{"("})
		Expect(err).To(MatchError(ContainSubstring(`--redact "("`)))
	})
})

// FuzzRedactJSON: whatever the JSON text and the pattern, RedactJSON gives
// valid JSON when it is given valid JSON, and leaves no match of a
// built-in rule in any of its strings.
func FuzzRedactJSON(f *testing.F) {
	f.Add([]byte(`{"a":"sk-proj-abcdefghijklmnopqrstuvwxyz0123","b":["x\"y"]}`), `x"`)
	f.Add([]byte(`["\u0022pw=1\\"]`), `\\`)
	f.Fuzz(func(t *testing.T, b []byte, pattern string) {
		r, err := importer.NewRedactor(true, []string{pattern})
		if err != nil {
			return
		}
		out := r.RedactJSON(b)
		if json.Valid(b) && !json.Valid(out) {
			t.Fatalf("RedactJSON(%q) = %q: not JSON", b, out)
		}
		if json.Valid(b) && strings.Contains(string(out), "sk-proj-abcdefghijklmnop") {
			t.Fatalf("a key is left in %q", out)
		}
	})
}

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

	It("redacts a key of a known prefix glued to the word before it, and leaves a bare sk- inside a word", func() {
		r, err := importer.NewRedactor(false, nil)
		Expect(err).NotTo(HaveOccurred())
		// FuzzCapture's find: a capture kept "0sk-proj-abcdefghijklmnop"
		Expect(r.Redact("0sk-proj-abcdefghijklmnop x_sk-ant-abcdefghijklmnopqr")).To(Equal("0<REDACTED_API_KEY_1> x_<REDACTED_API_KEY_2>"))
		Expect(r.Redact("a risk-assessment-framework-v2 and sk-abcdefghijklmnopqr")).To(Equal("a risk-assessment-framework-v2 and <REDACTED_API_KEY_3>"))
	})
})

// FuzzRedactJSON: whatever the JSON text and the pattern, RedactJSON gives
// valid JSON when it is given valid JSON, and leaves no match of a
// built-in rule in any of its strings.
func FuzzRedactJSON(f *testing.F) {
	f.Add([]byte(`{"a":"sk-proj-abcdefghijklmnopqrstuvwxyz0123","b":["x\"y"]}`), `x"`)
	f.Add([]byte(`["\u0022pw=1\\"]`), `\\`)
	// a GitHub token whose prefix holds no "gh": the prefilter once skipped it
	f.Add([]byte(`{"t":"ASIA://a@b.coa@b.co://github_pat_github_pat_alice"}`), `ticket-[0-9]+`)
	// a key glued to the word before it: FuzzCapture found it kept
	f.Add([]byte(`{"messages":[{"":"0sk-proj-abcdefghijklmnop"}]}`), `0`)
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
		var v any
		if json.Unmarshal(b, &v) == nil {
			for _, str := range jsonStrings(v, nil) {
				for _, rule := range secretRules[:3] { // keys and tokens: [A-Za-z0-9_-], never escaped
					for _, m := range rule.re.FindAllString(str, -1) {
						if strings.Contains(string(out), m) {
							t.Fatalf("%q is left in %q", m, out)
						}
					}
				}
			}
		}
	})
}

// jsonStrings appends every string of a decoded JSON value, keys included.
func jsonStrings(v any, dst []string) []string {
	switch x := v.(type) {
	case string:
		dst = append(dst, x)
	case []any:
		for _, e := range x {
			dst = jsonStrings(e, dst)
		}
	case map[string]any:
		for k, e := range x {
			dst = jsonStrings(e, append(dst, k))
		}
	}
	return dst
}

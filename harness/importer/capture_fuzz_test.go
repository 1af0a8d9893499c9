package importer_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/importer"
)

// captures are the gateway captures of testdata/capture (its README names
// their source).
func captures(t interface{ Fatal(...any) }) map[string][]byte {
	paths, _ := filepath.Glob("testdata/capture/*.jsonl")
	if len(paths) == 0 {
		t.Fatal("no capture under testdata/capture")
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// captureDamages are edits of a capture's text, each a way a capture can
// be wrong: import refuses it at its line:col, or makes a scenario that
// loads.
var captureDamages = [][2]string{
	{`"rounds":1`, `"rounds":2`},  // a round with no expand_context call
	{`"rounds":1`, `"rounds":99`}, // more rounds than the gateway makes
	{`"rounds":1`, `"rounds":1,"expansions":[{"round":4,"call_id":"x","shadow_id":"s","answer":"original"}]`},
	{`"strategy":"simple"`, `"strategy":"bogus"`},
	{`"strategy":"simple"`, `"strategy":"external_provider"`}, // its compressions scripted from the forwards
	{`"min_bytes":`, `"min_bytes":-`},
	{`"original_ttl":"`, `"original_ttl":"x`},
	{`"index":0`, `"index":99`},
	{`"gateway":{`, `"gateway":{"forwarded":7,"x":{`},
	{`"response":"`, `"response":"no event stream `},
	{`"response":{`, `"response":{"x":{`},
	{`"request":{`, `"request":{"messages":5,"x":{`},
}

// FuzzImportCapture checks the import of a gateway capture (the gateway
// config's capture:) on any bytes, seeded with real captures and their
// damaged copies:
//   - it never panics, and the same capture imported twice gives the same
//     files or the same error;
//   - an error is one line naming the capture and the line:col of the
//     problem, or the whole trace's problem;
//   - at any cap (maxBytes; 0 the default), every scenario file it writes loads (with the files beside it), the
//     session's passes when run (a gateway scenario's may not: a damaged
//     capture can claim what the gateway does not do), and no file holds a
//     secret a built-in rule matches outside a placeholder.
func FuzzImportCapture(f *testing.F) {
	for _, b := range captures(f) {
		f.Add(b, uint16(0))
		f.Add(b, uint16(32)) // a cap under the placeholder of a call whose result is after the cut
		for _, d := range captureDamages {
			f.Add(bytes.Replace(b, []byte(d[0]), []byte(d[1]), 1), uint16(0))
		}
		first, _, _ := bytes.Cut(b, []byte("\n"))
		f.Add(first, uint16(0))
		f.Add(append(append(bytes.Clone(first), '\n'), `{"request":{},"response":{}}`...), uint16(0))
	}
	reg := components.Default()
	f.Fuzz(func(t *testing.T, trace []byte, maxBytes uint16) {
		opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "fz", TraceName: "t.jsonl", At: -1, Final: true, MaxBytes: int(maxBytes)}
		files, err := importer.Import(trace, opts)
		again, err2 := importer.Import(trace, opts)
		if fmt.Sprint(err) != fmt.Sprint(err2) || !reflect.DeepEqual(files, again) {
			t.Fatalf("two imports differ: %v / %v", err, err2)
		}
		if err != nil {
			checkAnthError(t, trace, err.Error()) // the shapes of every JSONL log's errors
			return
		}
		base := writeFiles(t, files)
		for _, file := range files {
			checkSecrets(t, file.Path, file.Data)
			if !strings.HasSuffix(file.Path, ".yaml") {
				continue
			}
			p := filepath.Join(base, filepath.FromSlash(file.Path))
			if strings.HasSuffix(file.Path, "-gateway.yaml") {
				loadImported(t, reg, p, file.Data)
				continue
			}
			runImported(t, reg, p, file.Data)
		}
	})
}

// checkSecrets fails when data holds a secret a built-in rule matches,
// outside a placeholder.
func checkSecrets(t *testing.T, name string, data []byte) {
	t.Helper()
	for _, rule := range secretRules {
		for _, m := range rule.re.FindAllSubmatch(data, -1) {
			if secret := m[rule.group]; !bytes.HasPrefix(secret, []byte("<REDACTED_")) {
				t.Fatalf("%s: secret %q left", name, secret)
			}
		}
	}
}

var _ = Describe("Import of a gateway capture", func() {
	It("gives a session and a gateway scenario that pass, for each real capture", func() {
		for name, b := range captures(GinkgoT()) {
			files, err := importer.Import(b, importer.ImportOptions{Dir: "d", Name: "cap", TraceName: name, At: -1, Final: true})
			Expect(err).NotTo(HaveOccurred(), name)
			base := writeFiles(GinkgoT(), files)
			var names []string
			for _, f := range files {
				names = append(names, f.Path)
			}
			Expect(names).To(ContainElements("d/cap.yaml", "d/cap-gateway.yaml", "d/cap-gateway.req1.json"), name)
			for _, f := range []string{"d/cap.yaml", "d/cap-gateway.yaml"} {
				data, _ := os.ReadFile(filepath.Join(base, f))
				runImported(GinkgoT(), components.Default(), filepath.Join(base, f), data)
			}
		}
	})

	It("refuses a damaged capture at the line:col of the line, saying what is wrong", func() {
		b := captures(GinkgoT())["vercel-ai-anthropic.jsonl"]
		for _, c := range []struct{ from, to, want string }{
			{`"rounds":1`, `"rounds":2`, `t.jsonl:1:1: gateway: round 1 of 2 made no expand_context call the capture recorded`},
			{`"rounds":1`, `"rounds":99`, `t.jsonl:1:1: gateway.rounds 99: the gateway makes at most 6`},
			{`"strategy":"simple"`, `"strategy":"bogus"`, `t.jsonl:1:1: gateway.config: strategy "bogus": want passthrough, simple, api or external_provider`},
		} {
			_, err := importer.Import(bytes.Replace(b, []byte(c.from), []byte(c.to), 1),
				importer.ImportOptions{Dir: "d", Name: "cap", TraceName: "t.jsonl", At: -1, Final: true})
			Expect(err).To(MatchError(c.want))
		}
	})
})

// loadImported fails when an imported scenario file does not load.
func loadImported(t tester, reg *harness.Registry, file string, data []byte) {
	t.Helper()
	if _, err := harness.Load(reg, file); err != nil {
		t.Fatalf("the imported %s does not load:\n%v\n%s", file, err, data)
	}
}

var _ = Describe("Import of a call whose sibling call's result comes after the cut", func() {
	It("counts the placeholder the session's tool gives that call against the cap (the AI SDK's capture at --max-bytes 32)", func() {
		b := captures(GinkgoT())["vercel-ai-anthropic.jsonl"]
		files, err := importer.Import(b, importer.ImportOptions{Dir: "d", Name: "cap", TraceName: "cap.jsonl", At: -1, MaxBytes: 32})
		Expect(err).NotTo(HaveOccurred())
		base := writeFiles(GinkgoT(), files)
		data, _ := os.ReadFile(filepath.Join(base, "d/cap.yaml"))
		Expect(string(data)).To(ContainSubstring("(no result for status is recorded in the trace)"))
		runImported(GinkgoT(), components.Default(), filepath.Join(base, "d/cap.yaml"), data)
	})
})

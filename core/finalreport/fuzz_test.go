package finalreport_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/finalreport"
)

const scenarioDir = "../../scenarios/finalreport"

// seeds reads the text and nonce of every scenario of scenarios/finalreport
// (inline texts and file: texts; generated ones are left out).
func seeds(f *testing.F) (texts, nonces []string) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no scenarios under %s", scenarioDir)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var sc struct {
			Config struct{ Nonce string }
			Input  struct{ Text yaml.Node }
		}
		if err := yaml.Unmarshal(data, &sc); err != nil {
			f.Fatalf("%s: %v", file, err)
		}
		text := sc.Input.Text.Value
		if sc.Input.Text.Kind == yaml.MappingNode {
			var spec struct{ File string }
			if sc.Input.Text.Decode(&spec) != nil || spec.File == "" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(scenarioDir, spec.File))
			if err != nil {
				f.Fatal(err)
			}
			text = string(b)
		}
		texts, nonces = append(texts, text), append(nonces, sc.Config.Nonce)
	}
	return texts, nonces
}

// model is the package contract written a second way, with a regular
// expression for the opening tag, to check Parse against.
func model(text, nonce string) finalreport.Report {
	lead := strings.TrimLeft(text, " \t\r\n\f\v")
	if strings.HasPrefix(lead, "<think>") {
		end := strings.Index(lead, "</think>")
		if end < 0 {
			return finalreport.Report{}
		}
		text = lead[end+len("</think>"):]
	}
	open := regexp.MustCompile(`<ai-agent-` + regexp.QuoteMeta(nonce) + `-FINAL[ \t\n\r\f\v>]`)
	loc := open.FindStringIndex(text)
	if loc == nil {
		return finalreport.Report{}
	}
	rest := text[loc[1]-1:]
	gt := strings.IndexByte(rest, '>')
	if gt < 0 {
		return finalreport.Report{}
	}
	body := rest[gt+1:]
	before, _, closed := strings.Cut(body, "</ai-agent-"+nonce+"-FINAL>")
	return finalreport.Report{Found: true, Content: strings.TrimSpace(before), Closed: closed}
}

// FuzzParse checks Parse on any text, nonce and report body:
//   - it never panics, and a bad nonce is an ErrNonce error and nothing else;
//   - it is deterministic and agrees with the contract written as a model;
//   - a text without "<ai-agent-"+nonce+"-FINAL" never yields a report, and
//     neither does any text once every "-FINAL" is made "-FINALIZE";
//   - Wrap round-trips: text (not opening a think block) followed by the
//     wrapped body parses to the trimmed body up to its first closing tag,
//     closed; with the opening tag only, to the trimmed body, unclosed; after
//     a leading think block, the same.
func FuzzParse(f *testing.F) {
	texts, nonces := seeds(f)
	for i, text := range texts {
		f.Add(text, nonces[i], "web-0: 58")
	}
	for _, s := range [][3]string{
		{"", "abc", ""},
		{"<ai-agent-abc-FINAL", "abc", "x"},
		{"<ai-agent-abc-FINALIZE>", "abc", " </ai-agent-abc-FINAL> y"},
		{"<think>", "abc", "</think>"},
		{" \n<think>a</think><think>", "a-b_c", "<ai-agent-a-b_c-FINAL>"},
		{"<ai-agent-<ai-agent-abc-FINAL\v>x", "abc", "\u00a0x\u00a0"},
		{"\xff\xfe<ai-agent-ab-FINAL", "ab", "\x00"},
		{"x", "", "y"},
		{"x", "a b", "y"},
		{"<ai-agent-x-FINAL-FINAL>", "x-FINAL", "<ai-agent-x-FINAL-FINAL>"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, text, nonce, body string) {
		got, err := finalreport.Parse(text, nonce)
		if finalreport.CheckNonce(nonce) != nil {
			if !errors.Is(err, finalreport.ErrNonce) || got != (finalreport.Report{}) {
				t.Fatalf("nonce %q: got %+v, %v; want an ErrNonce error", nonce, got, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("nonce %q: unexpected error %v", nonce, err)
		}
		if again, _ := finalreport.Parse(text, nonce); again != got {
			t.Fatalf("not deterministic: %+v then %+v", got, again)
		}
		if want := model(text, nonce); got != want {
			t.Fatalf("Parse(%q, %q) = %+v, the contract says %+v", text, nonce, got, want)
		}
		if got.Found && !strings.Contains(text, "<ai-agent-"+nonce+"-FINAL") {
			t.Fatalf("a report from a text without the nonce's tag: %q", text)
		}
		finalize := strings.ReplaceAll(text, "-FINAL", "-FINALIZE")
		if r, _ := finalreport.Parse(finalize, nonce); r.Found {
			t.Fatalf("-FINALIZE counted as -FINAL in %q: %+v", finalize, r)
		}
		checkRoundTrip(t, text, nonce, body)
	})
}

func checkRoundTrip(t *testing.T, text, nonce, body string) {
	if strings.HasPrefix(strings.TrimLeft(text, " \t\r\n\f\v"), "<think>") {
		text = "" // a text opening a think block would hide the wrapper
	}
	closing := finalreport.Close(nonce)
	upTo, _, _ := strings.Cut(body, closing)
	closed := finalreport.Report{Found: true, Content: strings.TrimSpace(upTo), Closed: true}
	if strings.Contains(text, "<ai-agent-"+nonce+"-FINAL") {
		return // an earlier wrapper may win; the model check covers it
	}
	check := func(in string, want finalreport.Report) {
		t.Helper()
		if got, _ := finalreport.Parse(in, nonce); got != want {
			t.Fatalf("Parse(%q) = %+v, want %+v", in, got, want)
		}
	}
	check(text+finalreport.Wrap(nonce, body), closed)
	if !strings.Contains(body, closing) {
		check(text+finalreport.Open(nonce)+body, finalreport.Report{Found: true, Content: strings.TrimSpace(body)})
	}
	think := strings.ReplaceAll(text, "<", "&lt;") // holds no "</think>"
	check(" <think>"+think+"</think>"+finalreport.Wrap(nonce, body), closed)
}

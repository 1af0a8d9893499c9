package importer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/importer"
)

// secretRules are the importer's built-in redaction patterns, with the
// submatch that is the secret: what must never come out unredacted.
var secretRules = []struct {
	re    *regexp.Regexp
	group int
}{
	{regexp.MustCompile(`\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{16,}`), 0},
	{regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), 0},
	{regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|github_pat|xox[abpr])_[A-Za-z0-9_-]{16,}`), 0},
	{regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{8,})`), 1},
	{regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@`), 1},
}

// positioned are the shapes of Import's errors: each names the trace and
// the line:col of the problem, or the whole trace's problem (nothing to
// import, a choice to make with --at).
var positioned = regexp.MustCompile(`^t\.json(:\d+:\d+: |: no message to import: |: several messages could be imported: |: --at -?\d+: )`)

// wronglyAccepted are traces the importer used to turn into scenarios that
// failed when run, or whose errors had no position.
var wronglyAccepted = []string{
	// A result whose tool_call_id matches no call, the tool named by the message.
	`[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"zz","name":"t","content":"` + strings.Repeat("row x\\n", 3000) + `"},{"role":"assistant","content":"done"}]`,
	// The same without the call.
	`[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"zz","name":"t","content":"` + strings.Repeat("row x\\n", 3000) + `"},{"role":"assistant","content":"done"}]`,
	// A result before its call.
	`[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"c1","content":"` + strings.Repeat("row x\\n", 3000) + `"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}]}]`,
	// No user message.
	`[{"role":"system","content":"s"},{"role":"assistant","content":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]`,
	// A byte that is not UTF-8 in a string.
	"[{\"role\":\"user\",\n\"content\":\"q\xff\"},{\"role\":\"assistant\",\"content\":\"<tool_call>{\\\"name\\\":\\\"t\\\",\\\"arguments\\\":{}}</tool_call>\"}]",
}

var atLineCol = regexp.MustCompile(`^t\.json:\d+:\d+: `)

// FuzzImport checks the trace importer on any bytes:
//   - it never panics, and the same trace imported twice gives the same
//     files or the same error;
//   - an error is one line that names the trace and the line:col of the
//     problem (bad JSON, a byte that is not UTF-8, a message or field), or
//     the trace-wide problem; a trace that is not UTF-8 is never imported;
//   - every tool result of an imported trace answers an earlier call;
//   - every scenario file it writes loads without error (with the payload
//     files beside it) and passes when run, and its texts hold no secret
//     that a built-in rule matches outside a placeholder.
func FuzzImport(f *testing.F) {
	traces, _ := filepath.Glob("../../scenarios/regress/traces/*.json*") // .json and .jsonl
	if len(traces) == 0 {
		f.Fatal("no traces under scenarios/regress/traces")
	}
	for _, p := range traces {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, int16(-1), true)
		f.Add(b, int16(3), false)
	}
	for _, s := range []string{
		`[{"role":"user","content":"q"},{"role":"assistant","content":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]`,
		`[{"role":"user","content":"q"},{"role":"assistant","content":"<tool_call>{\"name\":\"\"}</tool_call>"}]`,
		`[{"role":"user","content":"q"},{"role":"assistant","content":"<tool_call>{broken</tool_call>"}]`,
		`{"messages":[{"role":"user","content":"---\n*x\n"},{"role":"tool","tool_call_id":"nope","content":"` + strings.Repeat("x", 13000) + `"}]}`,
		`[{"role":"user","content":"Bearer abcdefghij https://pass:pass@h/ sk-aaaaaaaaaaaaaaaaaaaa"},{"role":"assistant","content":"<tools>{\"name\":\"a: b\",\"arguments\":\"{\\\"k\\\":\\\"https://u:u@x\\\"}\"}</tools>"}]`,
		// a call leaked as text, then its result, oversized: paired by name, the handle drawn after the recovered call's ID
		`[{"role":"user","content":"q"},{"role":"assistant","content":"<tool_call>{\"name\":\"logs__query\",\"arguments\":{\"s\":\"api\"}}</tool_call>"},{"role":"tool","tool_call_id":"call_leaked_1","name":"logs__query","content":"` + strings.Repeat("log line\\n", 2000) + `"},{"role":"assistant","content":"done"}]`,
		// two leaked calls answered out of order, one result without a name
		`[{"role":"user","content":"q"},{"role":"assistant","content":"<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call><tool_call>{\"name\":\"b\",\"arguments\":{}}</tool_call>"},{"role":"tool","tool_call_id":"2","name":"b","content":"B"},{"role":"tool","tool_call_id":"1","content":"` + strings.Repeat("A", 13000) + `"},{"role":"assistant","content":"done"}]`,
		// chat completions logs: a call a line, each request extending the one before
		`{"request":{"messages":[{"role":"user","content":"q"}]},"response":{"choices":[{"message":{"role":"assistant","content":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}}]}}`,
		`{"request":{"messages":[{"role":"user","content":"q"}]},"response":{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}]}}]}}` + "\n" +
			`{"body":{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"` + strings.Repeat("row\\n", 4000) + `"}]},"response":{"status_code":200,"body":{"choices":[{"message":{"role":"assistant","content":"done"}}]}}}` + "\n",
		"{\"request\":{\"messages\":[]},\"response\":{\"choices\":[]}}\n{\"request\":", `{"response":{"choices":[{"message":{}}]}}`, "\n\n{\"request\":{\"messages\":[{\"role\":\"user\"}]},\"response\":{\"choices\":[{\"message\":{\"role\":\"user\"}}]}}",
		`[{"role":`, `{"messages": 5}`, `[1]`, "[{\"role\":\"user\",\n\"content\":\"x\"}}", `"x"`, "\xef\xbb\xbf[]", "[" + strings.Repeat("[", 20000),
	} {
		f.Add([]byte(s), int16(-1), false)
	}
	for _, s := range []string{ // each import point of the two shapes above that have several
		`[{"role":"user","content":"q"},{"role":"assistant","content":"<tool_call>{\"name\":\"logs__query\",\"arguments\":{\"s\":\"api\"}}</tool_call>"},{"role":"tool","tool_call_id":"call_leaked_1","name":"logs__query","content":"` + strings.Repeat("log line\\n", 2000) + `"},{"role":"assistant","content":"done"}]`,
		`[{"role":"user","content":"q"},{"role":"assistant","content":"<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call><tool_call>{\"name\":\"b\",\"arguments\":{}}</tool_call>"},{"role":"tool","tool_call_id":"2","name":"b","content":"B"},{"role":"tool","tool_call_id":"1","content":"` + strings.Repeat("A", 13000) + `"},{"role":"assistant","content":"done"}]`,
	} {
		f.Add([]byte(s), int16(1), false)
		f.Add([]byte(s), int16(2), false)
		f.Add([]byte(s), int16(3), false)
	}
	for _, s := range wronglyAccepted {
		f.Add([]byte(s), int16(-1), false)
	}
	for _, s := range slices.Concat(otelSeeds, flatSeeds, sseSeeds, rolloutSeeds, respSeeds) {
		f.Add([]byte(s), int16(-1), false)
	}
	reg := components.Default()
	f.Fuzz(func(t *testing.T, trace []byte, at int16, emails bool) {
		opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "fz", TraceName: "t.json", At: int(at), RedactEmails: emails}
		files, err := importer.Import(trace, opts)
		again, err2 := importer.Import(trace, opts)
		if fmt.Sprint(err) != fmt.Sprint(err2) || !reflect.DeepEqual(files, again) {
			t.Fatalf("two imports differ: %v / %v", err, err2)
		}
		if err != nil {
			if msg := err.Error(); !positioned.MatchString(msg) || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error without the trace and a position, or not one line: %q", msg)
			}
			if (!json.Valid(trace) && !linesValid(trace) || !utf8.Valid(trace)) && !atLineCol.MatchString(err.Error()) {
				t.Fatalf("bad JSON or UTF-8 without its line:col: %v", err)
			}
			checkInside(t, trace, err)
			return
		}
		if !utf8.Valid(trace) {
			t.Fatalf("a trace that is not UTF-8 was imported")
		}
		checkAnswers(t, trace)
		base := writeFiles(t, files)
		for _, file := range files {
			if !strings.HasSuffix(file.Path, ".yaml") {
				continue
			}
			runImported(t, reg, filepath.Join(base, filepath.FromSlash(file.Path)), file.Data)
			checkRedacted(t, file.Path, file.Data)
		}
	})
}

// FuzzImportTexts builds a valid trace around any texts (a system prompt, the
// user's question, a tool call and its result, an assistant message that
// leaks a call, the answer) and checks, besides FuzzImport's properties for
// what it accepts (it loads and passes), that the texts come back unchanged from the scenario
// files when no redaction rule touches them: the YAML written for them
// decodes to the same strings.
func FuzzImportTexts(f *testing.F) {
	f.Add("You are an SRE assistant.", "how many users signed up?", "bigquery__execute_sql", `{"sql":"SELECT 1"}`,
		"row 1\nrow 2", "Let me query.\n<tool_call>\n", "web-0: 58", false, 64)
	f.Add("", "---\n- *x\n? y", "a: b", "not json", strings.Repeat("x\n", 3000), "  <tools>", " trailing \n", true, 0)
	f.Add("\t", "\r\n\u0085\u2028 lead", "#", "{}", "", "<function_call>", "\ufeff", false, 1)
	f.Add("|\n  x", "'\"", "-", `{"k":[1,{"a":null}]}`, "\x00\x7f", "<tool_call>  ", "null", true, 5000)
	reg := components.Default()
	f.Fuzz(func(t *testing.T, system, user, tool, args, result, leak, answer string, atLeak bool, maxBytes int) {
		if !atLeak { // make the result oversized
			result += strings.Repeat("row\n", 1+max(maxBytes, -maxBytes)%5000)
		}
		call := fmt.Sprintf(`{"name":%s,"arguments":{"q":%s}}`, quote(tool), quote(args))
		msgs := []map[string]any{
			{"role": "system", "content": system},
			{"role": "user", "content": user},
			{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function",
				"function": map[string]any{"name": tool, "arguments": args}}}},
			{"role": "tool", "tool_call_id": "c1", "content": result},
			{"role": "assistant", "content": leak + "<tool_call>" + call + "</tool_call>"},
			{"role": "assistant", "content": answer},
		}
		trace, err := json.Marshal(msgs)
		if err != nil {
			t.Fatal(err)
		}
		at := 3
		if atLeak {
			at = 4
		}
		opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "fz", TraceName: "t.json", At: at, MaxBytes: max(len(result)-1, 1)}
		files, err := importer.Import(trace, opts)
		if err != nil {
			if msg := err.Error(); !positioned.MatchString(msg) || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error without the trace and a position, or not one line: %q", msg)
			}
			return
		}
		base := writeFiles(t, files)
		sc := runImported(t, reg, filepath.Join(base, "scenarios", "regress", "fz.yaml"), files[len(files)-1].Data)
		checkRedacted(t, "fz.yaml", files[len(files)-1].Data)
		var in struct{ User, System string }
		if err := sc.Input.Decode(&in); err != nil {
			t.Fatal(err)
		}
		var back []string
		for _, s := range []string{user, system} {
			if u, err := json.Marshal(s); err == nil {
				var v string
				_ = json.Unmarshal(u, &v) // as the importer reads it (invalid UTF-8 becomes U+FFFD)
				back = append(back, v)
			}
		}
		if !touched(back[0]) && in.User != back[0] {
			t.Fatalf("input.user %q, want %q", in.User, back[0])
		}
		if !touched(back[1]) && back[1] != "" && in.System != back[1] {
			t.Fatalf("input.system %q, want %q", in.System, back[1])
		}
	})
}

// checkInside checks that the line:col an error names, if any, lies in
// the trace: a line it has, a column at most one past that line's end (in
// characters, a byte that is not UTF-8 counting as one).
func checkInside(t *testing.T, trace []byte, err error) {
	t.Helper()
	m := lineColRE.FindStringSubmatch(err.Error())
	if m == nil {
		return
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	lines := bytes.Split(trace, []byte("\n"))
	if line < 1 || line > len(lines) || col < 1 || col > utf8.RuneCount(lines[line-1])+1 {
		t.Fatalf("%v: line:col %d:%d is not in the trace (%d lines)", err, line, col, len(lines))
	}
}

var lineColRE = regexp.MustCompile(`^t\.json:(\d+):(\d+): `)

// message is a chat message as checkAnswers reads it.
type message struct {
	Role       string
	Content    json.RawMessage
	ToolCallID string                `json:"tool_call_id"`
	ToolCalls  []struct{ ID string } `json:"tool_calls"`
}

// checkAnswers checks that every tool result of an imported trace answers
// a call of an earlier assistant message: a native call by its id, or else
// a call leaked in its text (as many results as leaked calls, at most).
func checkAnswers(t *testing.T, trace []byte) {
	t.Helper()
	if f := importer.Detect(trace); f == importer.FormatCodexRollout || f == importer.FormatResponsesLog {
		if !checkResponsesAnswers(t, trace, f == importer.FormatCodexRollout) {
			t.Fatalf("an imported trace does not decode as a %s", f)
		}
		return
	}
	var msgs []message
	if json.Unmarshal(trace, &msgs) != nil {
		var wrapped struct{ Messages []message }
		if json.Unmarshal(trace, &wrapped) == nil && wrapped.Messages != nil {
			msgs = wrapped.Messages
		} else if msgs = lastCall[message](trace); msgs == nil {
			if msgs = otelConversation(trace); msgs == nil {
				if !checkAnthropicAnswers(t, trace) {
					t.Fatalf("an imported trace does not decode")
				}
				return
			}
		}
	}
	calls := map[string]bool{}
	leaked := 0 // calls leaked as text, not yet answered
	for i, m := range msgs {
		if m.Role == "assistant" {
			for _, c := range m.ToolCalls {
				calls[c.ID] = true
			}
			var text string
			if len(m.ToolCalls) == 0 && json.Unmarshal(m.Content, &text) == nil {
				leaked += len(components.RecoverLeaked(text).Calls)
			}
		}
		if m.Role != "tool" || calls[m.ToolCallID] {
			continue
		}
		if leaked == 0 {
			t.Fatalf("message %d answers %q, which no earlier assistant message called, natively or in its text", i, m.ToolCallID)
		}
		leaked--
	}
}

// tester is what runImported and writeFiles need of a *testing.T, which
// GinkgoT() gives too.
type tester interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	TempDir() string
}

// runImported loads an imported scenario and runs it once (without its
// golden): it must load, and pass, as `toolout import --update` expects.
func runImported(t tester, reg *harness.Registry, file string, data []byte) *harness.Scenario {
	t.Helper()
	sc, err := harness.Load(reg, file)
	if err != nil {
		t.Fatalf("the imported %s does not load:\n%v\n%s", file, err, data)
	}
	res := (&harness.Runner{Registry: reg}).Execute(context.Background(), sc)
	if !res.Passed() {
		t.Fatalf("the imported %s fails:\n%s\n%s", file, strings.Join(res.Failures, "\n"), data)
	}
	return sc
}

// writeFiles writes imported files under a fresh folder and returns it.
func writeFiles(t tester, files []importer.ImportedFile) string {
	base := t.TempDir()
	for _, file := range files {
		p := filepath.Join(base, filepath.FromSlash(file.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, file.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// touched reports whether a built-in redaction rule (or the e-mail one)
// matches s.
func touched(s string) bool {
	for _, rule := range secretRules {
		if rule.re.MatchString(s) {
			return true
		}
	}
	return strings.Contains(s, "@")
}

// checkRedacted checks that no text of an imported scenario holds a secret
// that a built-in rule finds, other than a placeholder.
func checkRedacted(t *testing.T, name string, data []byte) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			for _, rule := range secretRules {
				for _, m := range rule.re.FindAllStringSubmatch(n.Value, -1) {
					if secret := m[rule.group]; !strings.HasPrefix(secret, "<REDACTED_") {
						t.Fatalf("%s: secret %q left in %q", name, secret, n.Value)
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
}

// bytesOf is the trace of the redaction spec: the secret appears earlier in
// the text than where the pattern captures it.
func bytesOf(texts ...string) []byte {
	var b bytes.Buffer
	b.WriteString(`[{"role":"user","content":"q"},`)
	for _, s := range texts {
		fmt.Fprintf(&b, `{"role":"assistant","content":%q},`, s)
	}
	b.WriteString(`{"role":"assistant","content":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]`)
	return b.Bytes()
}

var _ = Describe("Import on hostile traces", func() {
	opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.json", At: -1}

	DescribeTable("names the line:col of bad JSON and the field of a wrong type",
		func(trace, want string) {
			_, err := importer.Import([]byte(trace), opts)
			Expect(err).To(MatchError(want))
		},
		Entry("cut short", "[{\"role\":", "t.json:1:10: unexpected end of input"),
		Entry("a bad character on line 2", "[{\"role\":\"user\",\n \"content\":\"é\"}}", "t.json:2:16: want ',' or ']'"),
		Entry("a trailing comma", "\n\n  [{\"role\":\"user\"},]", "t.json:3:20: unexpected ']'"),
		Entry("messages not a list", `{"messages": 5}`, "t.json:1:14: field messages: want a list, got a number"),
		Entry("a message not an object", `[1]`, "t.json:1:2: message 0: want an object, got a number"),
	)

	It("redacts a URL password that also appears earlier in the URL", func() {
		files, err := importer.Import(bytesOf("see https://pw:pw@db.example/x and ftp://admin_pw:pw@h/"), opts)
		Expect(err).NotTo(HaveOccurred())
		for _, f := range files {
			Expect(string(f.Data)).NotTo(ContainSubstring(":pw@"), f.Path)
		}
		Expect(string(files[0].Data)).To(ContainSubstring(
			"see https://pw:<REDACTED_PASSWORD_1>@db.example/x and ftp://admin_pw:<REDACTED_PASSWORD_1>@h/"))
	})

	It("refuses a trace whose scenario would be over MaxScenarioBytes, naming the message, instead of writing one that does not load", func() {
		// An assistant's text is scripted inline (a user message or a
		// system prompt this long goes to a payload file).
		said := strings.Repeat("why? ", harness.MaxScenarioBytes/5+1)
		trace := `[{"role":"user","content":"q"},{"role":"assistant","content":"` + said + `","tool_calls":[{"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}]},` +
			`{"role":"tool","tool_call_id":"c1","content":"` + strings.Repeat("x", 13000) + `"},{"role":"assistant","content":"done"}]`
		_, err := importer.Import([]byte(trace), opts)
		Expect(err).To(MatchError(MatchRegexp(`^t\.json:1:32: message 1: its 1048580 bytes of text make the scenario \d+ bytes, over the 1048576 a scenario file may hold$`)))
	})

	It("writes a user message over MaxScenarioBytes to a payload file, so that its scenario loads", func() {
		user := strings.Repeat("why? ", harness.MaxScenarioBytes/5+1)
		trace := `[{"role":"user","content":"` + user + `"},{"role":"assistant","content":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]`
		files, err := importer.Import([]byte(trace), opts)
		Expect(err).NotTo(HaveOccurred())
		sc := scenarioOf(files)
		Expect(len(sc)).To(BeNumerically("<", 4<<10))
		Expect(string(sc)).To(ContainSubstring("  user:\n    file: x.msg0.txt\n"))
	})

	It("refuses a replayed tool result that answers no call, instead of writing a scenario that does not load", func() {
		trace := `[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"nope","content":"` + strings.Repeat("x", 13000) + `"}]`
		_, err := importer.Import([]byte(trace), opts)
		Expect(err).To(MatchError(`t.json:1:62: message 1: tool_call_id "nope" matches no tool call of an earlier assistant message`))
	})
})

// linesValid tells whether every line of data that is not blank is JSON,
// as in a chat completions log.
func linesValid(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 && !json.Valid(line) {
			return false
		}
	}
	return true
}

// lastCall decodes the conversation of a chat completions log: its last
// line's request messages and reply; nil when it does not decode.
func lastCall[M any](data []byte) []M {
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	type reply struct {
		Choices []struct{ Message M }
		Body    *reply
	}
	var call struct {
		Request, Body *struct{ Messages []M }
		Response      reply
	}
	if json.Unmarshal(lines[len(lines)-1], &call) != nil {
		return nil
	}
	req, resp := call.Request, call.Response
	if req == nil {
		req = call.Body
	}
	if resp.Choices == nil && resp.Body != nil {
		resp = *resp.Body
	}
	if req == nil || len(resp.Choices) == 0 {
		return nil
	}
	return append(req.Messages, resp.Choices[0].Message)
}

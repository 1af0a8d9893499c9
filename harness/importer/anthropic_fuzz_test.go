package importer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/importer"
)

// anthLineCol is an Anthropic import error at a position of the trace.
var anthLineCol = regexp.MustCompile(`^t\.jsonl:(\d+):(\d+): `)

// anthTraceWide are the import errors about the whole trace.
var anthTraceWide = regexp.MustCompile(`^t\.jsonl: (no message to import: |several messages could be imported: |--at -?\d+: )`)

// anthSeeds are traces of the Anthropic Messages format, good and bad:
// each block type, several calls, the errors, hostile shapes.
func anthSeeds() []string {
	big := strings.Repeat(`ts=1 level=ERROR pool exhausted\n`, 500)
	user := `{"role":"user","content":"why?"}`
	use := `{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"text","text":"Let me look."},{"type":"tool_use","id":"toolu_1","name":"query_logs","input":{"b":1,"a":[2]}}]}`
	result := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"` + big + `"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBOR"}}]},{"type":"text","text":"and?"}]}`
	reply := func(content string) string {
		return `,"response":{"id":"msg_1","type":"message","role":"assistant","content":` + content + `,"stop_reason":"end_turn"}}`
	}
	call := func(content string, msgs ...string) string {
		return `{"request":{"model":"claude-sonnet-4-5","max_tokens":1024,"system":[{"type":"text","text":"You are on call."}],"messages":[` +
			strings.Join(msgs, ",") + `]}` + reply(content)
	}
	useContent := use[strings.Index(use, `"content":`)+len(`"content":`) : len(use)-1]
	leak := `[{"type":"text","text":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]`
	log := call(useContent, user) + "\n" + call(`[{"type":"redacted_thinking","data":"x"},{"type":"text","text":"Done."}]`, user, use, result) + "\n"
	return []string{
		log,
		"[" + strings.ReplaceAll(strings.TrimSpace(log), "\n", ",\n") + "]",
		"{\n  " + call(leak, user)[1:],
		call(leak, user) + "\n" + call(leak, `{"role":"user","content":"other"}`),
		call(leak, user) + "\n" + call(leak, user),
		call(`[{"type":"text","text":"ok"}]`, user, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"nope","content":"`+big+`"}]}`),
		call(`[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}]`, user),
		call(`[{"type":"tool_use","id":"t1","name":"n","input":"{}"}]`, user),
		`{"request":{"messages":[]},"response":{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}}`,
		`{"request":{"system":"s","messages":[{"role":"system","content":"x"}]},"response":{"content":[]}}`,
		// Claude Code's environment as a system message inside
		// messages, as blocks with cache_control, then as a string; and
		// the shapes refused.
		call(useContent, user, `{"role":"system","content":[{"type":"text","text":"env","cache_control":{"type":"ephemeral"}}],"output_config":{"effort":"medium"}}`) + "\n" +
			call(`[{"type":"text","text":"Done."}]`, user, `{"role":"system","content":"env"}`, use, result),
		call(leak, user, `{"role":"system","content":""}`, `{"role":"user","content":"more"}`),
		call(leak, user, `{"role":"system","content":null}`), call(leak, user, `{"role":"system","content":[{"type":"image"}]}`),
		`{"request":{"messages":[` + user + `]},"response":{"type":"message","content":[{"type":"text","text":` + strings.Repeat("[", 3000) + `}]}}`,
		call(`[{"type":"tool_use","id":"t1","name":"n","input":`+strings.Repeat(`{"a":`, 2000)+`1`+strings.Repeat(`}`, 2000)+`}]`, user),
		call(`[`+strings.TrimSuffix(strings.Repeat(`{"type":"text","text":"x"},`, 10000), ",")+`]`, user),
		"{\"request\":{\"messages\":[{\"role\":\"user\",\"content\":\"caf\xe9\"}]},\"response\":{\"type\":\"message\",\"content\":[]}}",
		"\n\n" + call(leak, user) + "\n\n",
		call(leak, user, `{"role":"assistant","content":"The cause is"}`), // a prefill: refused
		`{"response": {"type"`, `[{"request"`,                             // cut after a key (a panic of the detection, found by FuzzImport)
		`[]`, `[1]`, `{"request":{},"response":{"type":"message"}}`, "{\n", `{"request":{"messages":[]},"response":{"type":"message","content":"hi"}}`,
	}
}

// FuzzImportAnthropic checks the importer on any bytes read as an
// Anthropic Messages log (--format anthropic-messages):
//   - it never panics, and two imports give the same files or error; nor
//     does an import that tells the format from the content (FormatAuto),
//     whose error is positioned too;
//   - an error is one line, naming the trace and either a line:col inside
//     the input (its line one of the input's lines, its column at most one
//     past that line's last character) or a trace-wide problem; bad JSON
//     or a byte that is not UTF-8 always has its line:col;
//   - an imported trace is UTF-8, each of its tool_result blocks answers a
//     tool_use of an earlier assistant message, and every scenario file
//     written loads (with its payloads) and passes when run.
func FuzzImportAnthropic(f *testing.F) {
	sample, err := os.ReadFile("../../scenarios/regress/traces/anthropic-messages.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample, int16(-1))
	f.Add(sample, int16(3))
	claude, err := os.ReadFile("../../scenarios/regress/traces/claude-code.jsonl") // Claude Code: system messages inside messages
	if err != nil {
		f.Fatal(err)
	}
	f.Add(claude, int16(-1))
	f.Add(claude, int16(4))
	for _, s := range append(anthSeeds(), sseSeeds...) { // responses as event streams too
		f.Add([]byte(s), int16(-1))
	}
	reg := components.Default()
	f.Fuzz(func(t *testing.T, trace []byte, at int16) {
		opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "fz", TraceName: "t.jsonl", At: int(at), Format: importer.FormatAnthropicMessages}
		files, err := importer.Import(trace, opts)
		again, err2 := importer.Import(trace, opts)
		if fmt.Sprint(err) != fmt.Sprint(err2) || !reflect.DeepEqual(files, again) {
			t.Fatalf("two imports differ: %v / %v", err, err2)
		}
		if _, auto := importer.Import(trace, importer.ImportOptions{Dir: "d", Name: "fz", TraceName: "t.jsonl", At: int(at)}); auto != nil {
			checkAnthError(t, trace, auto.Error()) // the detection, then any format's reader
		}
		if err != nil {
			checkAnthError(t, trace, err.Error())
			return
		}
		if !utf8.Valid(trace) {
			t.Fatalf("a trace that is not UTF-8 was imported")
		}
		if !checkAnthropicAnswers(t, trace) {
			t.Fatalf("an imported trace does not decode as an Anthropic Messages log")
		}
		base := writeFiles(t, files)
		for _, file := range files {
			if strings.HasSuffix(file.Path, ".yaml") {
				runImported(t, reg, filepath.Join(base, filepath.FromSlash(file.Path)), file.Data)
			}
		}
	})
}

// checkAnthError checks that msg is one line naming the trace and a
// position inside it, or a trace-wide problem.
func checkAnthError(t *testing.T, trace []byte, msg string) {
	t.Helper()
	if strings.ContainsAny(msg, "\r\n") {
		t.Fatalf("an error of several lines: %q", msg)
	}
	m := anthLineCol.FindStringSubmatch(msg)
	if m == nil {
		if !anthTraceWide.MatchString(msg) || !utf8.Valid(trace) || !linesValid(trace) && !json.Valid(trace) {
			t.Fatalf("error without the trace and a position: %q", msg)
		}
		return
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	lines := bytes.Split(trace, []byte("\n"))
	if line < 1 || line > len(lines) || col < 1 || col > utf8.RuneCount(lines[line-1])+1 {
		t.Fatalf("error at %d:%d, outside the input's %d lines: %q", line, col, len(lines), msg)
	}
}

// anthBlock is a content block as checkAnthropicAnswers reads it.
type anthBlock struct {
	Type      string
	ID        string
	ToolUseID string `json:"tool_use_id"`
}

// checkAnthropicAnswers decodes the last call of an Anthropic Messages
// log (its last line, its one object, or its list's last element) and
// checks that each tool_result block of its request answers a tool_use
// block of an earlier assistant message, once; false when it does not
// decode.
func checkAnthropicAnswers(t *testing.T, trace []byte) bool {
	t.Helper()
	type message struct {
		Role    string
		Content json.RawMessage
	}
	var call struct {
		Request struct{ Messages []message }
	}
	var calls []json.RawMessage
	if json.Unmarshal(trace, &calls) != nil || len(calls) == 0 {
		lines := bytes.Split(bytes.TrimSpace(trace), []byte("\n"))
		calls = []json.RawMessage{lines[len(lines)-1]}
		if json.Valid(trace) {
			calls = []json.RawMessage{trace}
		}
	}
	if json.Unmarshal(calls[len(calls)-1], &call) != nil {
		return false
	}
	open := map[string]int{}
	for i, m := range call.Request.Messages {
		var blocks []anthBlock
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a string
		}
		for _, b := range blocks {
			switch {
			case b.Type == "tool_use" && m.Role == "assistant":
				open[b.ID]++
			case b.Type == "tool_result" && open[b.ToolUseID] == 0:
				t.Fatalf("messages[%d]: tool_result %q answers no open tool_use", i, b.ToolUseID)
			case b.Type == "tool_result":
				open[b.ToolUseID]--
			}
		}
	}
	return true
}

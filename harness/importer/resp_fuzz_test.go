package importer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/importer"
)

// FuzzImportResponses checks the importer on any bytes read as a Codex
// rollout (--format codex-rollout) or a Responses API log (--format
// responses-log), as FuzzImportAnthropic does an Anthropic log:
//   - it never panics, two imports give the same files or error, and so
//     does an import that tells the format from the content;
//   - an error is one line naming the trace and a line:col inside it, or a
//     trace-wide problem; bad JSON or a byte that is not UTF-8 always has
//     its line:col;
//   - an imported trace is UTF-8, each *_call_output item answers a call
//     item of the conversation before it, once, and every scenario file
//     written loads (with its payloads) and passes when run.
func FuzzImportResponses(f *testing.F) {
	for _, name := range []string{"codex-rollout.jsonl", "codex-responses-log.jsonl"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		rollout := strings.HasPrefix(name, "codex-rollout")
		f.Add(data, int16(-1), rollout)
		if !rollout {
			f.Add(wholeLog(data), int16(-1), false)
		}
	}
	for _, s := range rolloutSeeds {
		f.Add([]byte(s), int16(-1), true)
	}
	for _, s := range respSeeds {
		f.Add([]byte(s), int16(-1), false)
	}
	reg := components.Default()
	f.Fuzz(func(t *testing.T, trace []byte, at int16, rollout bool) {
		format := importer.FormatResponsesLog
		if rollout {
			format = importer.FormatCodexRollout
		}
		opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "fz", TraceName: "t.jsonl", At: int(at), Format: format}
		files, err := importer.Import(trace, opts)
		again, err2 := importer.Import(trace, opts)
		if fmt.Sprint(err) != fmt.Sprint(err2) || !reflect.DeepEqual(files, again) {
			t.Fatalf("two imports differ: %v / %v", err, err2)
		}
		if _, auto := importer.Import(trace, importer.ImportOptions{Dir: "d", Name: "fz", TraceName: "t.jsonl", At: int(at)}); auto != nil {
			checkAnthError(t, trace, auto.Error())
		}
		if err != nil {
			checkAnthError(t, trace, err.Error())
			return
		}
		if !utf8.Valid(trace) {
			t.Fatalf("a trace that is not UTF-8 was imported")
		}
		if !checkResponsesAnswers(t, trace, rollout) {
			t.Fatalf("an imported trace does not decode as a %s", format)
		}
		base := writeFiles(t, files)
		for _, file := range files {
			if strings.HasSuffix(file.Path, ".yaml") {
				runImported(t, reg, filepath.Join(base, filepath.FromSlash(file.Path)), file.Data)
			}
		}
	})
}

// wholeLog is wholeResponses outside a spec: the log with each event
// stream replaced by its response.completed event's response.
func wholeLog(log []byte) []byte {
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var call struct {
			Request  json.RawMessage `json:"request"`
			Response string          `json:"response"`
		}
		if json.Unmarshal(line, &call) != nil {
			return log
		}
		for _, l := range strings.Split(call.Response, "\n") {
			var ev struct {
				Type     string          `json:"type"`
				Response json.RawMessage `json:"response"`
			}
			if data, ok := strings.CutPrefix(l, "data: "); ok && json.Unmarshal([]byte(data), &ev) == nil && ev.Type == "response.completed" {
				fmt.Fprintf(&out, `{"request": %s, "response": %s}`+"\n", call.Request, ev.Response)
			}
		}
	}
	return out.Bytes()
}

// respItem is an item as checkResponsesAnswers reads it.
type respItem struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	CallID string `json:"call_id"`
}

// checkResponsesAnswers decodes the items of a rollout (its response_item
// payloads) or of a Responses log's last call (the history its
// previous_response_id names, its input, its output) and checks that each
// *_call_output answers an earlier *_call of the agent's, once; false
// when the trace does not decode so.
func checkResponsesAnswers(t *testing.T, trace []byte, rollout bool) bool {
	t.Helper()
	var items []respItem
	var ok bool
	if rollout {
		items, ok = rolloutItems(trace)
	} else {
		items, ok = logItems(trace)
	}
	if !ok {
		return false
	}
	open := map[string]int{}
	for i, it := range items {
		id := it.CallID
		if id == "" && strings.HasPrefix(it.Type, "local_shell_call") {
			id = it.ID
		}
		switch {
		case strings.HasSuffix(it.Type, "_call_output") && open[id] == 0:
			t.Fatalf("item %d: %s %q answers no open call", i, it.Type, id)
		case strings.HasSuffix(it.Type, "_call_output"):
			open[id]--
		case strings.HasSuffix(it.Type, "_call"):
			open[id]++
		}
	}
	return true
}

func rolloutItems(trace []byte) ([]respItem, bool) {
	var items []respItem
	for _, line := range bytes.Split(trace, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var l struct {
			Type    string
			Payload json.RawMessage
		}
		if json.Unmarshal(line, &l) != nil {
			return nil, false
		}
		var it respItem
		if l.Type == "response_item" && json.Unmarshal(l.Payload, &it) != nil {
			return nil, false
		}
		if l.Type == "response_item" {
			items = append(items, it)
		}
	}
	return items, true
}

func logItems(trace []byte) ([]respItem, bool) {
	var calls []json.RawMessage
	if json.Unmarshal(trace, &calls) != nil {
		calls = nil
		if json.Valid(trace) {
			calls = []json.RawMessage{trace}
		} else {
			for _, line := range bytes.Split(trace, []byte("\n")) {
				if len(bytes.TrimSpace(line)) > 0 {
					calls = append(calls, line)
				}
			}
		}
	}
	history := map[string][]respItem{}
	var last []respItem
	for _, c := range calls {
		var call struct {
			Request struct {
				Input              json.RawMessage `json:"input"`
				PreviousResponseID string          `json:"previous_response_id"`
			}
			Response json.RawMessage
		}
		if json.Unmarshal(c, &call) != nil {
			return nil, false
		}
		id, output, ok := responseItems(call.Response)
		if !ok {
			return nil, false
		}
		var input []respItem
		_ = json.Unmarshal(call.Request.Input, &input) // a string: no items
		last = append(append(append([]respItem{}, history[call.Request.PreviousResponseID]...), input...), output...)
		if id != "" {
			history[id] = last
		}
	}
	return last, true
}

// responseItems decodes a response (whole, wrapped as {"body": ...}, or
// its event stream's text: the response of its terminal event, or else
// its output_item.done events' items): its id and its output.
func responseItems(raw json.RawMessage) (string, []respItem, bool) {
	type response struct {
		ID     string     `json:"id"`
		Output []respItem `json:"output"`
		Body   *struct {
			ID     string     `json:"id"`
			Output []respItem `json:"output"`
		}
	}
	var r response
	var stream string
	if json.Unmarshal(raw, &stream) == nil {
		var done []respItem
		for _, l := range strings.Split(stream, "\n") {
			var ev struct {
				Type     string
				Response *response
				Item     respItem
			}
			data, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "data:")
			if !ok || json.Unmarshal([]byte(strings.TrimSpace(data)), &ev) != nil {
				continue
			}
			if ev.Type == "response.output_item.done" {
				done = append(done, ev.Item)
			}
			if ev.Response != nil && strings.HasPrefix(ev.Type, "response.") && ev.Type != "response.created" && ev.Type != "response.in_progress" {
				r = *ev.Response
				break
			}
		}
		if len(r.Output) == 0 {
			r.Output = done
		}
		return r.ID, r.Output, true
	}
	if json.Unmarshal(raw, &r) != nil {
		return "", nil, false
	}
	if r.Output == nil && r.Body != nil {
		return r.Body.ID, r.Body.Output, true
	}
	return r.ID, r.Output, true
}
